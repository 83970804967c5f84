package columnar

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/parquet-go/parquet-go"

	"github.com/gangsim/gangsim/model"
)

var formats = []Format{FormatParquet, FormatArrow, FormatCSV}

func testHeader() model.Header {
	return model.Header{Lines: []model.HeaderLine{
		{Key: "Version", Value: "2.2"},
		{Key: "MaxNodes", Value: "338 (batch partition; 512 total)"},
		{Key: "MaxProcs", Value: "338"},
		{Key: "", Value: "             http://www.cs.huji.ac.il/labs/parallel/workload/"},
		{Key: "Queue", Value: "1 DSI"},
		{Key: "Queue", Value: "2 astro"},
		{Key: "", Value: ""},
		{Key: "Note", Value: "a, b; c"},
	}}
}

func testJobs() []model.Job {
	full := model.Job{
		ID: 1, Submit: 1500 * model.Millisecond, Wait: 3 * model.Second, Runtime: 489*model.Second + 1,
		AllocProcs: 32, AvgCPU: 489 * model.Second, UsedMemKB: 1 << 40, ReqProcs: 64, Estimate: model.Hour,
		ReqMemKB: 7, Status: model.StatusCancelled, User: 3, Group: 4, Executable: 5, Queue: 6,
		Partition: 7, Preceding: 99, ThinkTime: 2, Known: model.AllFields,
		App: model.App{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommNonBlocking,
			MessageBytes: 4096, Imbalance: 1.25, ProcCompute: []model.Time{6000, 6000, 3000, 3001},
			MemPerProcKB: 1024, Priority: 2, Pin: []int{0, 1, 3, 2}},
	}
	none := model.Job{}
	some := model.Job{ID: -5, Submit: -model.Second, Runtime: 0, Known: model.FieldSet(0).
		With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime),
		App: model.App{Pattern: model.PatternAllToAll}}
	return []model.Job{full, none, some}
}

func TestTraceRoundTrip(t *testing.T) {
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			h := testHeader()
			var buf bytes.Buffer
			w, err := NewTraceWriter(&buf, f, &h)
			if err != nil {
				t.Fatal(err)
			}
			jobs := testJobs()
			if err := model.WriteAll(w, jobs); err != nil {
				t.Fatal(err)
			}
			r, err := NewTraceReader(bytes.NewReader(buf.Bytes()), f, "test."+f.String())
			if err != nil {
				t.Fatal(err)
			}
			got, err := model.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Header, h) {
				t.Errorf("header:\n got %q\nwant %q", got.Header.Lines, h.Lines)
			}
			if !reflect.DeepEqual(got.Jobs, jobs) {
				for i := range jobs {
					if !reflect.DeepEqual(got.Jobs[i], jobs[i]) {
						t.Errorf("job %d:\n got %+v\nwant %+v", i, got.Jobs[i], jobs[i])
					}
				}
			}
			if DetectFormat(buf.Bytes()[:min(512, buf.Len())]) != f {
				t.Errorf("DetectFormat = %v", DetectFormat(buf.Bytes()))
			}
		})
	}
}

func TestOutcomeAndSampleRoundTrip(t *testing.T) {
	outs := []model.Outcome{
		{JobID: 1, Submit: 0, Start: 10 * model.Second, End: 110 * model.Second, Procs: 4, Estimate: model.Hour,
			Runtime: 100 * model.Second, Dedicated: 50 * model.Second},
		{JobID: 2, Submit: 5, Start: model.Never, End: model.Never, Procs: 4096, Dedicated: 7, Reason: model.RejectTooWide},
	}
	samples := []model.Sample{{At: 0, InSystem: 1, Queued: 1}, {At: 10 * model.Second, InSystem: 3, Running: 2, Suspended: 1, BusyProcs: 2.5}}
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			h := testHeader()
			var ob, sb bytes.Buffer
			ow, err := NewOutcomeWriter(&ob, f, &h)
			if err != nil {
				t.Fatal(err)
			}
			sw, _ := NewSampleWriter(&sb, f, &h)
			for i := range outs {
				ow.Write(&outs[i])
			}
			for i := range samples {
				sw.WriteSample(&samples[i])
			}
			if err := ow.Close(); err != nil {
				t.Fatal(err)
			}
			if err := sw.Close(); err != nil {
				t.Fatal(err)
			}
			or, err := NewOutcomeReader(bytes.NewReader(ob.Bytes()), f, "")
			if err != nil {
				t.Fatal(err)
			}
			for i := range outs {
				got, err := or.Read()
				if err != nil || !reflect.DeepEqual(got, outs[i]) {
					t.Errorf("outcome %d: %+v, %v; want %+v", i, got, err, outs[i])
				}
			}
			if _, err := or.Read(); err != io.EOF {
				t.Errorf("after the last outcome: %v", err)
			}
			sr, err := NewSampleReader(bytes.NewReader(sb.Bytes()), f, "")
			if err != nil {
				t.Fatal(err)
			}
			for i := range samples {
				got, err := sr.Read()
				if err != nil || got != samples[i] {
					t.Errorf("sample %d: %+v, %v", i, got, err)
				}
			}
			// A table of one kind is not accepted as another.
			if _, err := NewTraceReader(bytes.NewReader(ob.Bytes()), f, "out"); err == nil ||
				!strings.Contains(err.Error(), "holds an outcomes table, not a trace table") {
				t.Errorf("outcomes read as a trace: %v", err)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for _, f := range formats {
		var a, b bytes.Buffer
		for _, buf := range []*bytes.Buffer{&a, &b} {
			h := testHeader()
			w, _ := NewTraceWriter(buf, f, &h)
			model.WriteAll(w, testJobs())
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%v: two writes of the same trace differ", f)
		}
	}
}

// TestManyBatches writes more rows than a batch holds and checks that every
// one comes back, in order, through every encoding.
func TestManyBatches(t *testing.T) {
	const n = 3*writerBatchRows + 17
	for _, f := range formats {
		var buf bytes.Buffer
		h := model.Header{}
		w, _ := NewTraceWriter(&buf, f, &h)
		for i := 0; i < n; i++ {
			j := model.Job{ID: int64(i), Submit: model.Time(i) * 1001, Known: model.AllFields}
			if err := w.Write(&j); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := NewTraceReader(bytes.NewReader(buf.Bytes()), f, "")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			j, err := r.Read()
			if err != nil || j.ID != int64(i) || j.Submit != model.Time(i)*1001 {
				t.Fatalf("%v: row %d: %+v %v", f, i, j, err)
			}
		}
		if _, err := r.Read(); err != io.EOF {
			t.Fatalf("%v: want EOF, got %v", f, err)
		}
	}
}

// TestParquetRowGroups reads a Parquet file of more than one row group,
// column by column, with lists null, empty and filled, and checks every
// row.
func TestParquetRowGroups(t *testing.T) {
	base := testJobs()
	jobs := make([]model.Job, parquetRowGroupRows+writerBatchRows+5)
	for i := range jobs {
		j := base[i%len(base)]
		if i%len(base) != 1 { // the job of no fields has no ID
			j.ID = int64(i)
		}
		if i%5 == 0 && len(j.App.ProcCompute) > 0 {
			j.App.ProcCompute = []model.Time{model.Time(i)}
		}
		jobs[i] = j
	}
	h := model.Header{}
	var buf bytes.Buffer
	w, _ := NewTraceWriter(&buf, FormatParquet, &h)
	if err := model.WriteAll(w, jobs); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil || len(f.RowGroups()) != 2 {
		t.Fatalf("%v; want a file of 2 row groups", err)
	}
	r, err := NewTraceReader(bytes.NewReader(buf.Bytes()), FormatParquet, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := min(len(jobs), maxRowsHint); r.RowsHint() != want {
		t.Errorf("RowsHint() = %d, want %d", r.RowsHint(), want)
	}
	got, err := model.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Jobs) != len(jobs) {
		t.Fatalf("read %d rows, want %d", len(got.Jobs), len(jobs))
	}
	for i := range jobs {
		if !reflect.DeepEqual(got.Jobs[i], jobs[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got.Jobs[i], jobs[i])
		}
	}
}

func TestCSVErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"job_id,submit_s,runtime_s,req_procs\n1,2,3\n", "t.csv:2: wrong number of fields"},
		{"# only comments\n", "t.csv:2: no column names"},
		{"# gangsim.schema: gangsim.trace/1\njob_id,submit_s\n1,2\n", "t.csv:2: not a trace table: missing columns runtime_s, alloc_procs or req_procs"},
		{"a,b,c\n1,2,3\n", "t.csv:1: not a trace table: missing columns job_id, submit_s, runtime_s, alloc_procs or req_procs"},
	}
	for _, tt := range tests {
		r, err := NewTraceReader(strings.NewReader(tt.in), FormatCSV, "t.csv")
		if err == nil {
			_, err = model.ReadAll(r)
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
	// Positioned errors carry file, line and column.
	r, _ := NewTraceReader(strings.NewReader("job_id,submit_s,runtime_s,req_procs,imbalance\n1,1,1,1,\n1,1\n"), FormatCSV, "t.csv")
	_, err := model.ReadAll(r)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 {
		t.Errorf("error %v is not a positioned *ParseError", err)
	}
	// An application attribute a trace reader cannot read is reported
	// with its column, for swf.Checker to refuse with the position.
	for in, want := range map[string]model.UnreadValue{
		"# gangsim.schema: gangsim.trace/1\njob_id,submit_s,runtime_s,req_procs,granularity_s\n2,1,1,1,x\n": {Column: "granularity_s", Text: `invalid number "x"`},
		"job_id,submit_s,runtime_s,alloc_procs,priority\n1,0,1,1,99999999999\n":                             {Column: "priority", Text: "99999999999 does not fit in 32 bits"},
		"job_id,submit_s,runtime_s,req_procs,pattern\n1,0,1,1,mesh\n":                                       {Column: "pattern", Text: `unknown communication pattern "mesh" (want none, ring, all-to-all or barrier)`},
		"job_id,submit_s,runtime_s,req_procs,imbalance\n1,1,1,1,oops\n":                                     {Column: "imbalance", Text: `invalid number "oops"`},
		"job_id,submit_s,runtime_s,req_procs,imbalance\n1,1,1,1,NaN\n":                                      {Column: "imbalance", Text: "NaN is not a number"},
		"job_id,submit_s,runtime_s,req_procs,proc_compute_s\n1,1,1,1,1;1e11\n":                              {Column: "proc_compute_s", Text: "1e+11 s is beyond the range of every time (10000000000 s)"},
	} {
		r, err := NewTraceReader(strings.NewReader(in), FormatCSV, "t.csv")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Read(); err != nil {
			t.Errorf("%q: %v", in, err)
		}
		if got := r.UnreadValues(); len(got) != 1 || got[0] != want {
			t.Errorf("%q: unread %+v, want %+v", in, got, want)
		}
	}
}

// TestUnreadValues: a value of an SWF column that a trace reader cannot
// read as the column's type does not stop it: the field is unknown and
// its text reported, in every format, for the SWF rules (swf.Checker) to
// judge; Position says the CSV line, or the row.
func TestUnreadValues(t *testing.T) {
	in := "# Version: 2.2\njob_id,submit_s,runtime_s,alloc_procs,status,user_id\n1,0,10,4,1,1\n2,x,10,99999999999,hello,2.5\n3,NaN,10,4,1,1\n"
	r, err := NewTraceReader(strings.NewReader(in), FormatCSV, "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]model.UnreadValue{nil,
		{{Field: model.FieldSubmit, Text: "x"}, {Field: model.FieldAllocProcs, Text: "99999999999"}, {Field: model.FieldStatus, Text: "hello"}, {Field: model.FieldUser, Text: "2.5"}},
		{{Field: model.FieldSubmit, Text: "NaN"}}}
	for i, w := range want {
		j, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if got := r.UnreadValues(); len(got) != len(w) || len(w) > 0 && !reflect.DeepEqual(got, w) {
			t.Errorf("job %d: unread %v, want %v", j.ID, got, w)
		}
		for _, u := range w {
			if j.Has(u.Field) {
				t.Errorf("job %d: unread field %v is known", j.ID, u.Field)
			}
		}
		if name, line := r.Position(); name != "t.csv" || line != i+3 || r.RowPositions() {
			t.Errorf("job %d: position %s:%d", j.ID, name, line)
		}
	}
	// Parquet and Arrow: what the type holds but a job's field cannot (a
	// status beyond 8 bits, NaN seconds), by row.
	for _, f := range []Format{FormatParquet, FormatArrow} {
		var buf bytes.Buffer
		w, _ := NewTraceWriter(&buf, f, &model.Header{})
		b := w.b
		for _, row := range [][3]float64{{1, 0, 1}, {2, math.NaN(), 300}} {
			b.cols[0].int(int64(row[0]), true)
			for c := 1; c < len(b.cols); c++ {
				spec := traceKind.cols[c]
				switch {
				case spec.name == "submit_s":
					b.cols[c].flt(row[1], true)
				case spec.name == "status":
					b.cols[c].int(int64(row[2]), true)
				case spec.name == "runtime_s":
					b.cols[c].flt(10, true)
				case spec.name == "alloc_procs":
					b.cols[c].int(4, true)
				default:
					b.cols[c].null(spec.typ)
				}
			}
			b.n++
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := NewTraceReader(bytes.NewReader(buf.Bytes()), f, "t")
		if err != nil {
			t.Fatal(err)
		}
		r.Read()
		j, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		wantU := []model.UnreadValue{{Field: model.FieldSubmit, Text: "NaN"}, {Field: model.FieldStatus, Text: "300"}}
		if got := r.UnreadValues(); !reflect.DeepEqual(got, wantU) || j.Has(model.FieldSubmit) || j.Has(model.FieldStatus) {
			t.Errorf("%v: unread %v, want %v", f, got, wantU)
		}
		if _, row := r.Position(); row != 2 || !r.RowPositions() {
			t.Errorf("%v: row %d", f, row)
		}
	}
}

// TestForeignColumns reads a CSV with columns in another order, one
// missing and one unknown.
func TestForeignColumns(t *testing.T) {
	in := "runtime_s,extra,job_id,submit_s,alloc_procs\n12.5,zzz,7,,\n"
	r, err := NewTraceReader(strings.NewReader(in), FormatCSV, "")
	if err != nil {
		t.Fatal(err)
	}
	j, err := r.Read()
	want := model.Job{ID: 7, Runtime: 12500 * model.Millisecond, Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldRuntime)}
	// Every column but the required ones may be missing: they read as nulls.
	if err != nil || !reflect.DeepEqual(j, want) {
		t.Errorf("got %+v %v, want %+v", j, err, want)
	}
}

func TestFormats(t *testing.T) {
	for name, want := range map[string]Format{"a.swf": FormatSWF, "A.SWF.GZ": FormatSWFGzip, "x.parquet": FormatParquet,
		"x.arrow": FormatArrow, "x.csv": FormatCSV, "-": FormatUnknown, "x.txt": FormatUnknown} {
		if got := FormatFromName(name); got != want {
			t.Errorf("FormatFromName(%q) = %v, want %v", name, got, want)
		}
	}
	for _, f := range []Format{FormatSWF, FormatSWFGzip, FormatParquet, FormatArrow, FormatCSV} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), g, err)
		}
	}
	for prefix, want := range map[string]Format{
		"; Version: 2.2\n    1 0 0 5 1": FormatSWF,
		"    1    0   10  100   32 -1":  FormatSWF,
		"# comment\njob_id,submit_s\n":  FormatCSV,
		"time_s,in_system\n":            FormatCSV,
		"a,b\n1,2\n":                    FormatCSV, // another tool's CSV
		"; Note: a, b\n 1 0 0":          FormatSWF,
		// A gangsim CSV whose manifest lines fill the whole prefix.
		"# gangsim.schema: gangsim.outcomes/1\n# GangsimParam: " + strings.Repeat("x", 600): FormatCSV,
		"\x1f\x8b\x08": FormatSWFGzip,
		"":             FormatUnknown,
		// Cut shorter than a magic number: the format it begins.
		"\xff\xff\xff": FormatArrow,
		"PA":           FormatParquet,
		"\x1f":         FormatSWFGzip,
		"PAR":          FormatParquet,
		"PART":         FormatSWF,
	} {
		if got := DetectFormat([]byte(prefix)); got != want {
			t.Errorf("DetectFormat(%q) = %v, want %v", prefix, got, want)
		}
	}
}

// TestSecondsExact checks that simulated times survive the conversion to
// seconds (double) and back, over the whole range traces use.
func TestSecondsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1_000_000; i++ {
		// Within ±2^50 µs (35 years), where seconds as doubles are exact
		// to the microsecond.
		tm := model.Time(rng.Int64N(1<<51)) - 1<<50
		if got := fromSecs(secs(tm)); got != tm {
			t.Fatalf("%d µs -> %v s -> %d µs", tm, secs(tm), got)
		}
	}
}

func FuzzSecondsExact(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(1))
	f.Add(int64(-1))
	f.Add(int64(489_000_001))
	f.Fuzz(func(t *testing.T, us int64) {
		if us > 1<<50 || us < -(1<<50) {
			return
		}
		if got := fromSecs(secs(model.Time(us))); got != model.Time(us) {
			t.Fatalf("%d µs -> %d µs", us, got)
		}
	})
}

// TestSharingColumnsRoundTrip writes outcomes and samples of every sharing
// level, with the measurements each level carries, and reads them back
// equal through every encoding; the columns a level does not measure are
// null in the file.
func TestSharingColumnsRoundTrip(t *testing.T) {
	outs := []model.Outcome{
		{JobID: 1, Submit: 0, Start: model.Second, End: 5 * model.Second, Procs: 2, Runtime: 4 * model.Second, Dedicated: 3 * model.Second},
		{JobID: 2, Submit: 1, Start: 2 * model.Second, End: 9 * model.Second, Procs: 8, Runtime: 7 * model.Second, Dedicated: 3 * model.Second,
			Sharing: model.JobLevel, Switches: 12, SwitchLoss: 36 * model.Millisecond},
		{JobID: 3, Submit: 2, Start: 3 * model.Second, End: 19 * model.Second, Procs: 4, Runtime: 16 * model.Second, Dedicated: 3 * model.Second,
			Sharing: model.ProcessLevel, Switches: 0, SwitchLoss: 0, CPU: 12*model.Second + 1, Spin: 250 * model.Millisecond, Blocked: 3 * model.Second,
			Classes: model.FCSClasses{CS: 0.5, F: 0, DC: 0.5}},
		{JobID: 4, Submit: 3, Start: model.Never, End: model.Never, Procs: 999, Sharing: model.ProcessLevel, Reason: model.RejectTooWide},
	}
	samples := []model.Sample{
		{At: 0, InSystem: 1, Running: 1, BusyProcs: 2},
		{At: model.Second, InSystem: 2, Running: 1, Suspended: 1, BusyProcs: 8, Sharing: model.JobLevel, Rows: 2, Switching: 0.0125},
		{At: 2 * model.Second, InSystem: 3, Running: 2, BusyProcs: 12, Sharing: model.ProcessLevel, Rows: 3, Switching: 0.01,
			Computing: 6.5, Spinning: 1.25, BlockedProcs: 2, Ready: 0.25},
	}
	// Nulls by column: a batch policy's row has no switch counts, a job
	// level row no process times, no row but the FCS one class shares.
	nulls := map[string]int{"switches": 1, "switch_loss_s": 1, "cpu_s": 2, "spin_s": 2, "blocked_s": 2, "class_cs": 3, "class_f": 3, "class_dc": 3,
		"rows": 1, "switching": 1, "computing": 2, "spinning": 2, "blocked_procs": 2, "ready": 2}
	for _, f := range formats {
		h := model.Header{}
		var ob, sb bytes.Buffer
		ow, _ := NewOutcomeWriter(&ob, f, &h)
		sw, _ := NewSampleWriter(&sb, f, &h)
		for i := range outs {
			if err := ow.Write(&outs[i]); err != nil {
				t.Fatal(err)
			}
		}
		for i := range samples {
			sw.WriteSample(&samples[i])
		}
		if err := errors.Join(ow.Close(), sw.Close()); err != nil {
			t.Fatal(err)
		}
		or, err := NewOutcomeReader(bytes.NewReader(ob.Bytes()), f, "")
		if err != nil {
			t.Fatal(err)
		}
		for i := range outs {
			if got, err := or.Read(); err != nil || !reflect.DeepEqual(got, outs[i]) {
				t.Errorf("%v: outcome %d:\n got %+v %v\nwant %+v", f, i, got, err, outs[i])
			}
		}
		if nb := or.b; nb != nil {
			for c, spec := range outcomeKind.cols {
				if want, ok := nulls[spec.name]; ok && countNulls(&nb.cols[c]) != want {
					t.Errorf("%v: outcomes column %s has %d nulls, want %d", f, spec.name, countNulls(&nb.cols[c]), want)
				}
			}
		}
		sr, err := NewSampleReader(bytes.NewReader(sb.Bytes()), f, "")
		if err != nil {
			t.Fatal(err)
		}
		for i := range samples {
			if got, err := sr.Read(); err != nil || got != samples[i] {
				t.Errorf("%v: sample %d:\n got %+v %v\nwant %+v", f, i, got, err, samples[i])
			}
		}
		for c, spec := range sampleKind.cols {
			if want, ok := nulls[spec.name]; ok && countNulls(&sr.b.cols[c]) != want {
				t.Errorf("%v: time-series column %s has %d nulls, want %d", f, spec.name, countNulls(&sr.b.cols[c]), want)
			}
		}
	}
}

func countNulls(d *colData) int {
	n := 0
	for _, ok := range d.valid {
		if !ok {
			n++
		}
	}
	return n
}

// TestReadsVersion1 reads outcomes and time series that gangsim wrote
// before the time-sharing columns (schema version 1; testdata/v1, written
// by replay at commit f2f25cc): every row, with no sharing measured.
func TestReadsVersion1(t *testing.T) {
	for _, f := range formats {
		data, err := os.ReadFile("testdata/v1/outcomes." + f.String())
		if err != nil {
			t.Fatal(err)
		}
		or, err := NewOutcomeReader(bytes.NewReader(data), f, "")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("gangsim.outcomes/1")) {
			t.Fatalf("%v: testdata is not of schema version 1", f)
		}
		n, completed := 0, 0
		for {
			o, err := or.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%v: %v", f, err)
			}
			n++
			if o.Completed() && o.End > o.Start && o.Sharing == model.NoSharing && o.Switches == 0 && !o.Classes.Known() {
				completed++
			}
		}
		if n != 12 || completed != 12 {
			t.Errorf("%v: %d outcomes, %d completed without sharing; want 12", f, n, completed)
		}
		data, err = os.ReadFile("testdata/v1/timeseries." + f.String())
		if err != nil {
			t.Fatal(err)
		}
		sr, err := NewSampleReader(bytes.NewReader(data), f, "")
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		for {
			s, err := sr.Read()
			if err == io.EOF {
				break
			}
			if err != nil || s.Sharing != model.NoSharing || s.InSystem < s.Running {
				t.Fatalf("%v: sample %d: %+v %v", f, m, s, err)
			}
			m++
		}
		if m < 12 {
			t.Errorf("%v: %d samples", f, m)
		}
	}
}

// TestTrailer appends header lines at the end of a table (as replay does
// with the digest of an input it read as a stream) in every encoding, with
// rows and without: the header read back has them once the rows are read,
// and a plain Arrow reader reads the stream with its trailer batch.
func TestTrailer(t *testing.T) {
	trailer := []model.HeaderLine{{Key: model.KeyGangsimInput, Value: "abc123 -"}, {Key: "GangsimDropped", Value: "no-runtime=3"}, {Value: "a note"}}
	for _, f := range formats {
		for _, rows := range []int{0, 3, writerBatchRows + 1} {
			h := testHeader()
			var buf bytes.Buffer
			w, _ := NewOutcomeWriter(&buf, f, &h)
			for i := 0; i < rows; i++ {
				o := model.Outcome{JobID: int64(i), Start: 1, End: 2, Runtime: 1, Procs: 1}
				if err := w.Write(&o); err != nil {
					t.Fatal(err)
				}
			}
			w.AppendHeader(trailer...)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := NewOutcomeReader(bytes.NewReader(buf.Bytes()), f, "")
			if err != nil {
				t.Fatalf("%v, %d rows: %v", f, rows, err)
			}
			n := 0
			for ; ; n++ {
				if _, err := r.Read(); err != nil {
					if err != io.EOF {
						t.Fatalf("%v, %d rows: %v", f, rows, err)
					}
					break
				}
			}
			want := append(testHeader().Lines, trailer...)
			if n != rows || !reflect.DeepEqual(r.Header().Lines, want) {
				t.Errorf("%v, %d rows: read %d rows, header\n%q\nwant\n%q", f, n, rows, r.Header().Lines, want)
			}
			if f != FormatArrow {
				continue
			}
			ar, err := ipc.NewReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for ar.Next() {
				got += int(ar.Record().NumRows())
			}
			if ar.Err() != nil || got != rows {
				t.Errorf("arrow/ipc reads %d rows, %v", got, ar.Err())
			}
			ar.Release()
		}
	}
}

// TestHeaderNumbers: the integer keys of a table's header (MaxProcs and the
// others) parse as strictly as an SWF header's, in every format: "1e30" is
// not a 1-processor machine, "64abc" not 64, "12.7" not 12, "N/A" nothing.
// Such a value is no error of the reader: the line is kept, the key reads
// as absent, and HeaderProblems names the CSV line, or the metadata key of
// Parquet and Arrow, for swf.Checker to count or, in strict mode, refuse.
func TestHeaderNumbers(t *testing.T) {
	for _, tt := range []struct{ key, value, csv, meta string }{
		{"MaxProcs", "1e30", `t.csv:2: invalid number "1e30" in header MaxProcs (want an integer)`,
			`t: metadata gangsim.header: invalid number "1e30" in header MaxProcs (want an integer)`},
		{"MaxProcs", "64abc", `t.csv:2: invalid number "64abc" in header MaxProcs (want an integer)`, ""},
		{"MaxNodes", "12.7", `t.csv:2: invalid number "12.7" in header MaxNodes (want an integer)`, ""},
		{"MaxProcs", "-5", `t.csv:2: unknown value "-5" in header MaxProcs (want 0 or more)`, ""},
		{"UnixStartTime", "soon", `t.csv:2: unknown value "soon" in header UnixStartTime (want an integer)`, ""},
		{"MaxRuntime", "N/A", `t.csv:2: unknown value "N/A" in header MaxRuntime (want an integer)`,
			`t: metadata gangsim.header: unknown value "N/A" in header MaxRuntime (want an integer)`},
	} {
		check := func(what string, r *TraceReader, want string) {
			t.Helper()
			p := r.HeaderProblems()
			if len(p) != 1 || p[0].Line.Key != tt.key || p[0].Err == nil || !strings.Contains(p[0].Err.Error(), `in header `+tt.key) ||
				want != "" && p[0].Err.Error() != want {
				t.Errorf("%s %s %q: problems %v, want %s", what, tt.key, tt.value, p, want)
			}
			if _, ok := r.Header().Int(tt.key); ok {
				t.Errorf("%s %s %q reads as a number", what, tt.key, tt.value)
			}
			if v, _ := r.Header().Get(tt.key); v != tt.value {
				t.Errorf("%s: the line is %q, want it kept", what, v)
			}
		}
		in := "# Version: 2.2\n# " + tt.key + ": " + tt.value + "\njob_id,submit_s,runtime_s,alloc_procs\n1,0,100,4\n"
		r, err := NewTraceReader(strings.NewReader(in), FormatCSV, "t.csv")
		if err != nil {
			t.Fatalf("CSV %s %q: %v", tt.key, tt.value, err)
		}
		check("CSV", r, tt.csv)
		h := model.Header{Lines: []model.HeaderLine{{Key: "Version", Value: "2.2"}, {Key: tt.key, Value: tt.value}}}
		for _, f := range []Format{FormatParquet, FormatArrow} {
			var buf bytes.Buffer
			w, err := NewTraceWriter(&buf, f, &h)
			if err != nil {
				t.Fatal(err)
			}
			if err := errors.Join(w.Write(&testJobs()[0]), w.Close()); err != nil {
				t.Fatal(err)
			}
			r, err := NewTraceReader(bytes.NewReader(buf.Bytes()), f, "t")
			if err != nil {
				t.Fatalf("%v %s %q: %v", f, tt.key, tt.value, err)
			}
			check(f.String(), r, tt.meta)
		}
	}
	// A foreign file's plain metadata keys are kept, and placed by key.
	md := map[string]string{"MaxProcs": "1e30"}
	h, where, err := headerFrom(traceKind, func(k string) (string, bool) { v, ok := md[k]; return v, ok }, []string{"MaxProcs"})
	if err != nil || len(h.Lines) != 1 || len(where) != 1 || where[0] != "metadata key MaxProcs" {
		t.Errorf("foreign metadata: %v, %q, %v", h, where, err)
	}
}
