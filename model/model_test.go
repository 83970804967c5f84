package model

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestTimeSeconds(t *testing.T) {
	tests := []struct {
		t    Time
		want string
	}{
		{0, "0s"},
		{Second, "1s"},
		{1500 * Millisecond, "1.5s"},
		{3 * Millisecond, "0.003s"},
		{Microsecond, "0.000001s"},
		{-1500 * Millisecond, "-1.5s"},
		{math.MinInt64, "-9223372036854.775808s"},
		{Never, "never"},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("Time(%d).String() = %q, want %q", int64(tt.t), got, tt.want)
		}
	}
}

func TestFromSecondsFloat(t *testing.T) {
	tests := []struct {
		s    float64
		want Time
	}{
		{489.00, 489 * Second},
		{0.0000014, 1},
		{0.0000015, 2},
		{-0.0000015, -2},
		{1e300, Never},
		{math.NaN(), 0},
	}
	for _, tt := range tests {
		if got := FromSecondsFloat(tt.s); got != tt.want {
			t.Errorf("FromSecondsFloat(%v) = %d, want %d", tt.s, got, tt.want)
		}
	}
	if got := FromSeconds(86400); got != Day {
		t.Errorf("FromSeconds(86400) = %v, want a day", got)
	}
	if got := (2500 * Millisecond).WholeSeconds(); got != 2 {
		t.Errorf("WholeSeconds = %d, want 2", got)
	}
}

func TestFieldSet(t *testing.T) {
	var s FieldSet
	s = s.With(FieldSubmit).With(FieldThinkTime)
	if !s.Has(FieldSubmit) || !s.Has(FieldThinkTime) || s.Has(FieldWait) {
		t.Fatalf("FieldSet %b: wrong membership", s)
	}
	if s.Without(FieldSubmit).Has(FieldSubmit) {
		t.Fatal("Without did not remove the field")
	}
	for f := FieldJobID; f <= FieldThinkTime; f++ {
		if !AllFields.Has(f) {
			t.Errorf("AllFields lacks %v", f)
		}
	}
	if AllFields.Has(0) || AllFields.Has(NumFields+1) {
		t.Error("AllFields has a field outside 1..18")
	}
	if FieldEstimate.String() != "requested time" {
		t.Errorf("FieldEstimate.String() = %q", FieldEstimate.String())
	}
}

func TestJobSize(t *testing.T) {
	j := Job{AllocProcs: 0, ReqProcs: 16, Known: AllFields}
	if got := j.Size(); got != 16 {
		t.Errorf("Size with alloc 0 = %d, want requested 16", got)
	}
	j.AllocProcs = 32
	if got := j.Size(); got != 32 {
		t.Errorf("Size = %d, want allocated 32", got)
	}
	j.Known = j.Known.Without(FieldAllocProcs).Without(FieldReqProcs)
	if got := j.Size(); got != 0 {
		t.Errorf("Size with both missing = %d, want 0", got)
	}
}

func TestHeaderLeadingInt(t *testing.T) {
	h := Header{Lines: []HeaderLine{
		{Key: "MaxNodes", Value: "338 (batch partition; 512 total)"},
		{Key: "MaxProcs", Value: "1664 (72, 1368, 224)"},
		{Key: "TimeZone", Value: "-18000"},
		{Key: "", Value: "free text"},
		{Key: "Computer", Value: "IBM SP2"},
	}}
	if got := h.MaxNodes(); got != 338 {
		t.Errorf("MaxNodes = %d, want 338", got)
	}
	if got := h.MaxProcs(); got != 1664 {
		t.Errorf("MaxProcs = %d, want 1664", got)
	}
	if got := h.TimeZone(); got != -18000 {
		t.Errorf("TimeZone = %d, want -18000", got)
	}
	if _, ok := h.Int("Computer"); ok {
		t.Error("Int(Computer) parsed an integer out of text")
	}
	if v, _ := h.Get("MaxNodes"); v != "338 (batch partition; 512 total)" {
		t.Errorf("MaxNodes text lost: %q", v)
	}
}

// TestParseHeaderInt: the one strict parse of integer header values, which
// every reader's header check and every accessor share.
func TestParseHeaderInt(t *testing.T) {
	for _, tt := range []struct {
		key, value string
		want       int64
		err        string
	}{
		{"MaxProcs", "128", 128, ""},
		{"MaxNodes", "338 (batch partition; 512 total)", 338, ""},
		{"TimeZone", "-18000", -18000, ""},
		{"MaxProcs", "+64", 64, ""},
		{"MaxProcs", "1e30", 0, `invalid number "1e30" in header MaxProcs (want an integer)`},
		{"MaxProcs", "12.7", 0, `invalid number "12.7" in header MaxProcs (want an integer)`},
		{"MaxNodes", "64abc", 0, `invalid number "64abc" in header MaxNodes (want an integer)`},
		{"MaxProcs", "", 0, `unknown value "" in header MaxProcs (want an integer)`},
		{"MaxProcs", "N/A", 0, `unknown value "N/A" in header MaxProcs (want an integer)`},
		{"MaxRuntime", "unknown", 0, `unknown value "unknown" in header MaxRuntime (want an integer)`},
		{"MaxMemory", "-", 0, `unknown value "-" in header MaxMemory (want an integer)`},
		{"MaxProcs", "-5", 0, `unknown value "-5" in header MaxProcs (want 0 or more)`},
		{"MaxRuntime", "-1", 0, `unknown value "-1" in header MaxRuntime (-1 marks a missing value)`},
		{"UnixStartTime", "-1", 0, `unknown value "-1" in header UnixStartTime (-1 marks a missing value)`},
		{"UnixStartTime", "-86400", -86400, ""},
		{"TimeZone", "-1", -1, ""},
		{"MaxProcs", "3000000000", 0, `value out of range "3000000000" in header MaxProcs (at most 2147483647)`},
		{"UnixStartTime", "99999999999999999999", 0, `value out of range "99999999999999999999" in header UnixStartTime (at most 9223372036854775807)`},
		{"UnixStartTime", "soon", 0, `unknown value "soon" in header UnixStartTime (want an integer)`},
	} {
		got, err := ParseHeaderInt(tt.key, tt.value)
		if tt.err == "" {
			if err != nil || got != tt.want {
				t.Errorf("%s %q: %d, %v; want %d", tt.key, tt.value, got, err, tt.want)
			}
			continue
		}
		var he *HeaderValueError
		if err == nil || err.Error() != tt.err || !errors.As(err, &he) {
			t.Errorf("%s %q: %v, want %s", tt.key, tt.value, err, tt.err)
		}
		// The accessors read the same way: no 1-processor machine from
		// "1e30", no 12 from "12.7".
		h := Header{Lines: []HeaderLine{{Key: tt.key, Value: tt.value}}}
		if n, ok := h.Int(tt.key); ok {
			t.Errorf("Int(%s) of %q = %d, want not ok", tt.key, tt.value, n)
		}
		if err := h.Check(); err == nil || err.Error() != tt.err {
			t.Errorf("Check of %s %q: %v", tt.key, tt.value, err)
		}
	}
	if err := CheckHeaderLine(HeaderLine{Key: "Computer", Value: "1e30"}); err != nil {
		t.Errorf("a text key checked as a number: %v", err)
	}
}

func TestHeaderMachine(t *testing.T) {
	tests := []struct {
		procs, nodes string
		want         Machine
	}{
		{"1152", "144", Machine{Nodes: 144, PEsPerNode: 8}},
		{"338", "338 (batch partition; 512 total)", Machine{Nodes: 338, PEsPerNode: 1}},
		{"100", "", FlatMachine(100)},
		{"", "64", FlatMachine(64)},
		{"10", "3", FlatMachine(10)},
		{"", "", Machine{}},
	}
	for _, tt := range tests {
		var h Header
		if tt.procs != "" {
			h.Set(KeyMaxProcs, tt.procs)
		}
		if tt.nodes != "" {
			h.Set(KeyMaxNodes, tt.nodes)
		}
		if got := h.Machine(); got != tt.want {
			t.Errorf("MaxProcs %q MaxNodes %q: Machine = %+v, want %+v", tt.procs, tt.nodes, got, tt.want)
		}
	}
}

func TestHeaderSetDelete(t *testing.T) {
	var h Header
	h.Add("Queue", "1 a")
	h.Add("Queue", "2 b")
	h.Add("Note", "x")
	h.Set("Queue", "only")
	want := []HeaderLine{{Key: "Queue", Value: "only"}, {Key: "Note", Value: "x"}}
	if !reflect.DeepEqual(h.Lines, want) {
		t.Fatalf("after Set: %+v, want %+v", h.Lines, want)
	}
	h.Delete("Queue")
	if _, ok := h.Get("Queue"); ok || len(h.Lines) != 1 {
		t.Fatalf("after Delete: %+v", h.Lines)
	}
}

func TestParseMachine(t *testing.T) {
	for s, want := range map[string]Machine{"128": FlatMachine(128), "144x8": {144, 8}, "32x2": {32, 2}} {
		got, err := ParseMachine(s)
		if err != nil || got != want {
			t.Errorf("ParseMachine(%q) = %+v, %v; want %+v", s, got, err, want)
		}
		if got.String() != s {
			t.Errorf("%+v.String() = %q, want %q", got, got.String(), s)
		}
	}
	for _, s := range []string{"", "x", "0", "4x0", "12x", "12y3", "-4"} {
		if _, err := ParseMachine(s); err == nil {
			t.Errorf("ParseMachine(%q) succeeded", s)
		}
	}
}

func TestComputePerIteration(t *testing.T) {
	a := App{Granularity: 3 * Millisecond, Imbalance: 1}
	got := []Time{a.ComputePerIteration(0, 3), a.ComputePerIteration(1, 3), a.ComputePerIteration(2, 3)}
	want := []Time{3000, 4500, 6000}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("imbalanced compute = %v, want %v", got, want)
	}
	a.ProcCompute = []Time{6000, 6000, 3000, 3000}
	if got := a.ComputePerIteration(2, 4); got != 3000 {
		t.Errorf("explicit compute = %v, want 3ms", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("out-of-range process did not panic")
		}
	}()
	a.ComputePerIteration(4, 4)
}

func TestAppCloneIsDeep(t *testing.T) {
	j := Job{App: App{ProcCompute: []Time{1, 2}, Pin: []int{0, 1}}}
	c := j.Clone()
	c.App.ProcCompute[0] = 99
	c.App.Pin[0] = 99
	if j.App.ProcCompute[0] != 1 || j.App.Pin[0] != 0 {
		t.Error("Clone shares memory with the original")
	}
}

func TestPatternCommNames(t *testing.T) {
	for p := PatternUnspecified; p <= PatternBarrier; p++ {
		got, err := ParsePattern(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePattern(%q) = %v, %v", p.String(), got, err)
		}
	}
	for c := CommUnspecified; c <= CommNonBlocking; c++ {
		got, err := ParseComm(c.String())
		if err != nil || got != c {
			t.Errorf("ParseComm(%q) = %v, %v", c.String(), got, err)
		}
	}
	if _, err := ParsePattern("mesh"); err == nil {
		t.Error("ParsePattern accepted an unknown pattern")
	}
}

func TestManifestRoundTrip(t *testing.T) {
	h := Header{Lines: []HeaderLine{{Key: "MaxProcs", Value: "128"}, {Key: KeyGangsimTool, Value: "old"}}}
	m := Manifest{
		Tool: "genwork lublin", Version: "v0.1.0", Revision: "abc123+modified", Code: "c0de", Seed: 42, HasSeed: true,
		Params: []Param{{"procs", "128"}, {"jobs", "1000"}},
		Inputs: []Input{{Name: "-", SHA256: "abc"}},
	}
	m.Apply(&h)
	got, ok := ManifestOf(&h)
	if !ok {
		t.Fatal("ManifestOf found no manifest")
	}
	m.Params = []Param{{"jobs", "1000"}, {"procs", "128"}} // Apply sorts by name
	if !reflect.DeepEqual(got, m) {
		t.Errorf("ManifestOf = %+v, want %+v", got, m)
	}
	if h.MaxProcs() != 128 {
		t.Error("Apply lost a non-manifest line")
	}
	if v, _ := h.Get("InputGangsimTool"); v != "old" {
		t.Errorf("the previous manifest's tool is %q under InputGangsimTool, want old", v)
	}
	// A third step pushes both earlier manifests one level up.
	(&Manifest{Tool: "analyze"}).Apply(&h)
	if v, _ := h.Get("InputInputGangsimTool"); v != "old" {
		t.Errorf("InputInputGangsimTool = %q", v)
	}
	if v, _ := h.Get("InputGangsimTool"); v != "genwork lublin" {
		t.Errorf("InputGangsimTool = %q", v)
	}
	if got, _ := ManifestOf(&h); got.Tool != "analyze" {
		t.Errorf("newest manifest tool %q", got.Tool)
	}
}

func TestTraceReadWriteAll(t *testing.T) {
	tr := &Trace{Jobs: []Job{{ID: 1}, {ID: 2}}}
	got, err := ReadAll(NewSliceReader(tr))
	if err != nil || len(got.Jobs) != 2 || got.Jobs[1].ID != 2 {
		t.Fatalf("ReadAll = %+v, %v", got, err)
	}
}

func TestOutcomeListByID(t *testing.T) {
	var l OutcomeList
	for _, o := range []Outcome{{JobID: 2, End: 5}, {JobID: 1, End: 3}, {JobID: 2, End: 7}} {
		if err := l.Write(&o); err != nil {
			t.Fatal(err)
		}
	}
	m := l.ByID()
	if len(l) != 3 || len(m) != 2 || m[1].End != 3 || m[2].End != 7 {
		t.Errorf("list %+v, by ID %+v; want 3 outcomes, job 1 ending at 3, job 2 at 7 (its last)", l, m)
	}
}

func TestSampleList(t *testing.T) {
	var l SampleList
	for _, s := range []Sample{{At: 0, Running: 2}, {At: 5, Running: 1}} {
		if err := l.WriteSample(&s); err != nil {
			t.Fatal(err)
		}
	}
	if len(l) != 2 || l[0].Running != 2 || l[1].At != 5 {
		t.Errorf("samples %+v", l)
	}
}
