package swf

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// table is a JobReader of given jobs whose positions are rows and whose
// fields it could not read are given as text, as columnar's TraceReader.
type table struct {
	jobs   []model.Job
	unread [][]model.UnreadValue
	i      int
}

func (t *table) Header() *model.Header { return &model.Header{} }
func (t *table) Read() (model.Job, error) {
	if t.i == len(t.jobs) {
		return model.Job{}, io.EOF
	}
	t.i++
	return t.jobs[t.i-1], nil
}
func (t *table) UnreadValues() []model.UnreadValue { return t.unread[t.i-1] }
func (t *table) Position() (string, int)           { return "t.parquet", t.i }
func (t *table) RowPositions() bool                { return true }

// TestChecker: the rows of a table follow the rules of SWF lines: -1 is
// missing, odd values in unused fields are kept as read (or marked
// unknown) and counted, unread text is judged as an SWF token, repeated
// job numbers are counted; Strict refuses, Lenient skips a job whose
// processors are unusable; errors name the row.
func TestChecker(t *testing.T) {
	j := base
	withID := func(id int64, edit func(*model.Job)) model.Job {
		x := j
		x.ID = id
		edit(&x)
		return x
	}
	src := func() *table {
		return &table{
			jobs: []model.Job{
				withID(1, func(x *model.Job) { x.Status = 9; x.User = -5; x.Wait = -7 * model.Second }),
				withID(2, func(x *model.Job) { x.Group = -1; x.Known = x.Known.Without(model.FieldStatus) }),
				withID(2, func(x *model.Job) {}),
				withID(4, func(x *model.Job) {
					x.Known = x.Known.Without(model.FieldAllocProcs).Without(model.FieldReqProcs)
				}),
				withID(5, func(x *model.Job) { x.Known = x.Known.Without(model.FieldSubmit) }),
			},
			unread: [][]model.UnreadValue{nil, {{Field: model.FieldStatus, Text: "hello"}}, nil,
				{{Field: model.FieldAllocProcs, Text: "x"}, {Field: model.FieldReqProcs, Text: "y"}},
				{{Field: model.FieldSubmit, Text: "1e3"}}},
		}
	}
	k := NewChecker(src())
	k.Lenient = true
	var got []model.Job
	for {
		x, err := k.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, x)
	}
	if len(got) != 4 || got[0].Status != 9 || got[0].User != -5 || got[1].Has(model.FieldGroup) || got[1].Has(model.FieldStatus) ||
		got[3].Submit != 1000*model.Second || !got[3].Has(model.FieldSubmit) {
		t.Fatalf("jobs %+v", got)
	}
	a := k.Anomalies()
	want := "1 malformed line skipped (1 in field 5 (allocated processors)); jobs kept with values outside SWF 2.2: " +
		"1 in field 3 (wait time), 2 in field 11 (status), 1 in field 12 (user ID), 1 repeated job number"
	if a.Summary() != want {
		t.Errorf("summary\n got %s\nwant %s", a.Summary(), want)
	}
	if !reflect.DeepEqual(a[0].Lines, []int{4}) || a[0].First.Error() != `t.parquet: row 4: field 5 (allocated processors): invalid number "x"` {
		t.Errorf("skipped: %+v %v", a[0], a[0].First)
	}
	// The default mode stops at the row without processors; strict mode
	// at the first odd value.
	k = NewChecker(src())
	var err error
	for err == nil {
		_, err = k.Read()
	}
	if err.Error() != `t.parquet: row 4: field 5 (allocated processors): invalid number "x"` || !errors.Is(err, ErrNumber) {
		t.Errorf("default: %v", err)
	}
	k = NewChecker(src())
	k.Strict = true
	if _, err := k.Read(); err == nil || !strings.HasPrefix(err.Error(), `t.parquet: row 1: field 3 (wait time): value out of range "-7"`) {
		t.Errorf("strict: %v", err)
	}
}

// TestEmptyIsError: with EmptyIsError, an input with no header line, no
// job and nothing skipped is ErrEmpty, said already by HeaderErr (before
// a caller uses the header's machine size); a header alone, or lines
// skipped, are not empty. Without it, an empty input is an empty trace.
func TestEmptyIsError(t *testing.T) {
	for _, tt := range []struct {
		in      string
		lenient bool
		empty   bool
	}{{"", false, true}, {"\n  \n", false, true}, {"; MaxProcs: 4\n", false, false}, {"1 2 3\n", true, false}, {line18(nil) + "\n", false, false}} {
		r := NewReader(strings.NewReader(tt.in))
		r.Name, r.EmptyIsError, r.Lenient = "e.swf", true, tt.lenient
		herr := r.HeaderErr()
		var err error
		for err == nil {
			_, err = r.Read()
		}
		if got := errors.Is(err, ErrEmpty) && errors.Is(herr, ErrEmpty); got != tt.empty || !tt.empty && err != io.EOF {
			t.Errorf("%q: HeaderErr %v, Read %v; want empty %v", tt.in, herr, err, tt.empty)
		}
		if tt.empty && err.Error() != "e.swf: empty input: no header and no job lines" {
			t.Errorf("%q: %v", tt.in, err)
		}
	}
	if _, err := NewReader(strings.NewReader("")).Read(); err != io.EOF {
		t.Errorf("without EmptyIsError: %v", err)
	}
	k := NewChecker(&table{})
	k.Name, k.EmptyIsError = "e.csv", true
	if err := k.HeaderErr(); !errors.Is(err, ErrEmpty) {
		t.Errorf("an empty table: HeaderErr %v", err)
	}
	k = NewChecker(&table{jobs: []model.Job{base}, unread: [][]model.UnreadValue{nil}})
	k.EmptyIsError = true
	if err := k.HeaderErr(); err != nil {
		t.Errorf("a table of one row: HeaderErr %v", err)
	}
	if j, err := k.Read(); err != nil || j.ID != base.ID {
		t.Errorf("the row read ahead: %v, %v", j.ID, err)
	}
}

// TestCheckerRange: a table's times beyond model.MaxSeconds and its
// application attributes out of range (model.App.Check) or unreadable
// stop the job: an error naming the row and the field or column, in
// every mode but Lenient, which skips the row and counts it. A time
// beyond the range in a field the replay does not use is marked unknown
// and counted.
func TestCheckerRange(t *testing.T) {
	j := base
	rows := func() *table {
		edit := func(id int64, f func(*model.Job)) model.Job {
			x := j.Clone()
			x.ID = id
			f(&x)
			return x
		}
		return &table{
			jobs: []model.Job{
				edit(1, func(x *model.Job) { x.Wait = model.MaxTime + 1 }),
				edit(2, func(x *model.Job) { x.Submit = model.Never }),
				edit(3, func(x *model.Job) { x.App.MessageBytes = 1 << 40 }),
				edit(4, func(x *model.Job) { x.App.Granularity = model.Second }),
				edit(5, func(x *model.Job) {}),
				edit(6, func(x *model.Job) { x.Estimate = -model.MaxTime - 1 }),
			},
			unread: [][]model.UnreadValue{nil, nil, nil, {{Column: "imbalance", Text: "NaN is not a number"}}, nil, nil},
		}
	}
	k := NewChecker(rows())
	k.Lenient = true
	got, err := model.ReadAll(k)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Jobs) != 2 || got.Jobs[0].ID != 1 || got.Jobs[0].Has(model.FieldWait) || got.Jobs[1].ID != 5 {
		t.Fatalf("jobs %+v", got.Jobs)
	}
	want := "4 malformed lines skipped (2 bad application attribute, 1 in field 2 (submit time), 1 in field 9 (requested time)); " +
		"jobs kept with values outside SWF 2.2: 1 in field 3 (wait time)"
	if s := k.Anomalies().Summary(); s != want {
		t.Errorf("summary\n got %s\nwant %s", s, want)
	}
	for _, tt := range []struct {
		strict bool
		want   string
	}{
		{false, `t.parquet: row 2: field 2 (submit time): value out of range "9223372036854.775807" (more than 10000000000 s)`},
		{true, `t.parquet: row 1: field 3 (wait time): value out of range "10000000000.000001" (more than 10000000000 s)`},
	} {
		k := NewChecker(rows())
		k.Strict = tt.strict
		_, err := model.ReadAll(k)
		if err == nil || err.Error() != tt.want || !errors.Is(err, ErrRange) {
			t.Errorf("strict %v: %v, want %s", tt.strict, err, tt.want)
		}
	}
	r := rows()
	r.jobs, r.unread = r.jobs[2:], r.unread[2:]
	k = NewChecker(r)
	_, err = model.ReadAll(k)
	if want := `t.parquet: row 1: column message_bytes: bad application attribute "1099511627776" (want 0 to 4294967296)`; err == nil ||
		err.Error() != want || !errors.Is(err, ErrAttribute) {
		t.Errorf("attribute: %v, want %s", err, want)
	}
}
