package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// readAll reads every job of an SWF text, failing the test on an error.
func readAll(t *testing.T, r *Reader) []model.Job {
	t.Helper()
	var jobs []model.Job
	for {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			return jobs
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		jobs = append(jobs, j)
	}
}

// line18 builds a job line from 18 fields, replacing the default fields
// given in over (1-based field number -> text).
func line18(over map[int]string) string {
	f := strings.Fields("1 10 20 30 4 25 100 4 60 200 1 7 8 9 2 1 -1 -1")
	for k, v := range over {
		f[k-1] = v
	}
	return strings.Join(f, " ")
}

// base is the job line18(nil) describes.
var base = model.Job{
	ID: 1, Submit: 10 * model.Second, Wait: 20 * model.Second, Runtime: 30 * model.Second,
	AllocProcs: 4, AvgCPU: 25 * model.Second, UsedMemKB: 100, ReqProcs: 4, Estimate: 60 * model.Second,
	ReqMemKB: 200, Status: model.StatusCompleted, User: 7, Group: 8, Executable: 9, Queue: 2, Partition: 1,
	Known: model.AllFields.Without(model.FieldPreceding).Without(model.FieldThinkTime),
}

func TestReadJobLines(t *testing.T) {
	s := model.Second
	tests := []struct {
		name string
		line string
		want func(j *model.Job)
	}{
		{"plain", line18(nil), func(j *model.Job) {}},
		{"tabs and runs of blanks", "  1\t10 \t 20   30 4 25 100 4 60 200 1 7 8 9 2 1 -1 -1\r", func(j *model.Job) {}},
		{"decimal times", line18(map[int]string{2: "10.5", 3: "0.000001", 4: "489.00", 6: "-2.25", 9: "1e2", 18: "3.0000005"}),
			func(j *model.Job) {
				j.Submit, j.Wait, j.Runtime, j.AvgCPU, j.Estimate = 10*s+s/2, 1, 489*s, -2*s-s/4, 100*s
				j.ThinkTime, j.Known = 3*s+1, j.Known.With(model.FieldThinkTime)
			}},
		{"rounding past microseconds", line18(map[int]string{2: "0.0000014", 3: "0.0000015", 4: "-0.0000015"}),
			func(j *model.Job) { j.Submit, j.Wait, j.Runtime = 1, 2, -2 }},
		{"integral decimal counts", line18(map[int]string{1: "1.000", 5: "32.00", 11: "5.0", 15: "0", 17: "+12"}),
			func(j *model.Job) {
				j.AllocProcs, j.Status, j.Queue, j.Preceding = 32, model.StatusCancelled, 0, 12
				j.Known = j.Known.With(model.FieldPreceding)
			}},
		{"missing fields", line18(map[int]string{2: "-1", 4: "-1.00", 5: "-1", 9: "-1.0", 11: "-1", 12: "-1.000", 17: "-1"}),
			func(j *model.Job) {
				j.Submit, j.Runtime, j.AllocProcs, j.Estimate, j.Status, j.User = 0, 0, 0, 0, 0, 0
				for _, f := range []model.Field{model.FieldSubmit, model.FieldRuntime, model.FieldAllocProcs,
					model.FieldEstimate, model.FieldStatus, model.FieldUser} {
					j.Known = j.Known.Without(f)
				}
			}},
		{"negative times are data", line18(map[int]string{2: "-5", 3: "-0.5", 4: "-2"}),
			func(j *model.Job) { j.Submit, j.Wait, j.Runtime = -5*s, -s/2, -2*s }},
		{"zeros", line18(map[int]string{4: "0", 5: "0", 8: "-0", 11: "0"}),
			func(j *model.Job) { j.Runtime, j.AllocProcs, j.ReqProcs, j.Status = 0, 0, 0, model.StatusFailed }},
		{"extreme times", line18(map[int]string{2: "10000000000", 3: "-10000000000.000000", 4: "9999999999.999999"}),
			func(j *model.Job) { j.Submit, j.Wait, j.Runtime = model.MaxTime, -model.MaxTime, model.MaxTime-1 }},
		{"large counts", line18(map[int]string{1: "9223372036854775807", 7: "123456789012345678901e-2"}),
			func(j *model.Job) { j.ID, j.UsedMemKB = math.MaxInt64, 1234567890123456768 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.line + "\n"))
			got := readAll(t, r)
			want := base
			tt.want(&want)
			if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
				t.Fatalf("read %q:\n got %+v\nwant %+v", tt.line, got, want)
			}
			if r.Line() != 1 {
				t.Errorf("Line() = %d, want 1", r.Line())
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		line  int
		field int
		cause error
		msg   string
	}{
		{"too few fields", "; h\n" + line18(nil) + "\n1 2 3\n", 3, 0, ErrFieldCount,
			"t.swf:3: wrong number of fields: 3, want 18"},
		{"too many fields", line18(nil) + " 7\n", 1, 0, ErrFieldCount,
			"t.swf:1: wrong number of fields: 19, want 18"},
		{"letters", line18(map[int]string{4: "abc"}), 1, 4, ErrNumber,
			`t.swf:1: field 4 (run time): invalid number "abc"`},
		{"two dots", line18(map[int]string{2: "1.2.3"}), 1, 2, ErrNumber,
			`t.swf:1: field 2 (submit time): invalid number "1.2.3"`},
		{"lone sign", line18(map[int]string{3: "-"}), 1, 3, ErrNumber,
			`t.swf:1: field 3 (wait time): invalid number "-"`},
		{"nan", line18(map[int]string{6: "nan"}), 1, 6, ErrNumber,
			`t.swf:1: field 6 (average CPU time): invalid number "nan"`},
		{"inf", line18(map[int]string{9: "inf"}), 1, 9, ErrNumber,
			`t.swf:1: field 9 (requested time): invalid number "inf"`},
		{"hex", line18(map[int]string{1: "0x10"}), 1, 1, ErrNumber,
			`t.swf:1: field 1 (job number): invalid number "0x10"`},
		{"fractional processors", line18(map[int]string{5: "32.5"}), 1, 5, ErrFraction,
			`t.swf:1: field 5 (allocated processors): fractional value in an integer field "32.5"`},
		{"fractional minus one", line18(map[int]string{8: "-1.5"}), 1, 8, ErrFraction,
			`t.swf:1: field 8 (requested processors): fractional value in an integer field "-1.5"`},
		{"negative processors", line18(map[int]string{8: "-4"}), 1, 8, ErrRange,
			`t.swf:1: field 8 (requested processors): value out of range "-4" (want 0 to 2147483647, or -1 for missing)`},
		{"processors beyond 32 bits", line18(map[int]string{5: "2147483648"}), 1, 5, ErrRange,
			`t.swf:1: field 5 (allocated processors): value out of range "2147483648" (want 0 to 2147483647, or -1 for missing)`},
		{"status 6", line18(map[int]string{11: "6"}), 1, 11, ErrRange,
			`t.swf:1: field 11 (status): value out of range "6" (want 0 to 5, or -1 for missing)`},
		{"job number overflow", line18(map[int]string{1: "9223372036854775808"}), 1, 1, ErrRange,
			`t.swf:1: field 1 (job number): value out of range "9223372036854775808" (want 0 to 9223372036854775807, or -1 for missing)`},
		{"huge digits", line18(map[int]string{7: "123456789012345678901234567890"}), 1, 7, ErrRange,
			`t.swf:1: field 7 (used memory): value out of range "123456789012345678901234567890" (want 0 to 9223372036854775807, or -1 for missing)`},
		{"time overflow", line18(map[int]string{4: "9223372036855"}), 1, 4, ErrRange,
			`t.swf:1: field 4 (run time): value out of range "9223372036855" (more than 10000000000 s)`},
		{"time beyond the range", line18(map[int]string{4: "10000000001"}), 1, 4, ErrRange,
			`t.swf:1: field 4 (run time): value out of range "10000000001" (more than 10000000000 s)`},
		{"negative time beyond the range", line18(map[int]string{3: "-10000000001"}), 1, 3, ErrRange,
			`t.swf:1: field 3 (wait time): value out of range "-10000000001" (more than 10000000000 s)`},
		{"time overflow in fraction", line18(map[int]string{18: "10000000000.000001"}), 1, 18, ErrRange,
			`t.swf:1: field 18 (think time): value out of range "10000000000.000001" (more than 10000000000 s)`},
		{"exponent overflow", line18(map[int]string{2: "1e400"}), 1, 2, ErrRange,
			`t.swf:1: field 2 (submit time): value out of range "1e400" (more than 10000000000 s)`},
		{"exponent beyond the range", line18(map[int]string{9: "9.2e12"}), 1, 9, ErrRange,
			`t.swf:1: field 9 (requested time): value out of range "9.2e12" (more than 10000000000 s)`},
		{"first bad field wins", line18(map[int]string{3: "x", 5: "1.5"}), 1, 3, ErrNumber,
			`t.swf:1: field 3 (wait time): invalid number "x"`},
		{"field count before numbers", "x y z\n", 1, 0, ErrFieldCount,
			"t.swf:1: wrong number of fields: 3, want 18"},
		{"after blank lines and comments", "; a\n\n;b\n\n" + line18(map[int]string{12: "u7"}), 5, 12, ErrNumber,
			`t.swf:5: field 12 (user ID): invalid number "u7"`},
		{"line too long", "; h\n" + strings.Repeat("9 ", MaxLineBytes/2+1) + "\n", 2, 0, ErrLineTooLong,
			"t.swf:2: line too long: more than 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.input))
			r.Name = "t.swf"
			r.Strict = true
			var err error
			for err == nil {
				_, err = r.Read()
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *ParseError", err, err)
			}
			if pe.Name != "t.swf" || pe.Line != tt.line || pe.Field != tt.field || !errors.Is(err, tt.cause) {
				t.Errorf("got %#v (%v), want line %d field %d cause %v", pe, pe.Err, tt.line, tt.field, tt.cause)
			}
			if pe.Error() != tt.msg {
				t.Errorf("message\n got %s\nwant %s", pe.Error(), tt.msg)
			}
			if _, again := r.Read(); again != err {
				t.Errorf("Read after error = %v, want the same error again", again)
			}
		})
	}
}

func TestParseErrorWithoutName(t *testing.T) {
	r := NewReader(strings.NewReader(line18(map[int]string{4: "abc"})))
	_, err := r.Read()
	if want := `line 1: field 4 (run time): invalid number "abc"`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestReadSmallFixture(t *testing.T) {
	f, err := os.Open("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.Name = "small.swf"
	h := r.Header()
	wantHeader := []model.HeaderLine{
		{Key: "Version", Value: "2.2"},
		{Key: "Computer", Value: "IBM SP2"},
		{Key: "Information", Value: "http://www.tc.cornell.edu/"},
		{Value: "             http://www.cs.huji.ac.il/labs/parallel/workload/"},
		{Value: ""},
		{Key: "MaxNodes", Value: "338 (batch partition; 512 total)"},
		{Key: "MaxProcs", Value: "338"},
		{Key: "Queue", Value: "1 DSI"},
		{Key: "Note", Value: "THIS IS A CLEANED VERSION OF THE LOG!"},
		{Value: "      The filter used to produce it was"},
	}
	if !reflect.DeepEqual(h.Lines, wantHeader) {
		t.Errorf("header\n got %q\nwant %q", h.Lines, wantHeader)
	}
	if h.MaxNodes() != 338 || h.MaxProcs() != 338 {
		t.Errorf("MaxNodes %d MaxProcs %d, want 338 338", h.MaxNodes(), h.MaxProcs())
	}
	s := model.Second
	none := model.FieldSet(0)
	all := model.AllFields
	want := []model.Job{
		{ID: 1, Submit: 0, Wait: 588530 * s, Runtime: 937 * s, AllocProcs: 306, AvgCPU: 142 * s, Estimate: 35100 * s,
			Status: 1, User: 97, Executable: 307, Queue: 3,
			Known: all &^ (1<<model.FieldUsedMem | 1<<model.FieldReqProcs | 1<<model.FieldReqMem | 1<<model.FieldGroup |
				1<<model.FieldPartition | 1<<model.FieldPreceding | 1<<model.FieldThinkTime)},
		{ID: 2, Submit: 164472 * s, Wait: 356587 * s, Runtime: 75 * s, AllocProcs: 17, AvgCPU: 2 * s, Estimate: 300 * s,
			Status: 1, User: 81, Executable: 195, Queue: 3,
			Known: all &^ (1<<model.FieldUsedMem | 1<<model.FieldReqProcs | 1<<model.FieldReqMem | 1<<model.FieldGroup |
				1<<model.FieldPartition | 1<<model.FieldPreceding | 1<<model.FieldThinkTime)},
		{ID: 3, Submit: 197154*s + s/2, AvgCPU: 32792 * s, ReqProcs: 16, Status: 5, User: 97, Executable: 307, ThinkTime: 1,
			Known: none.With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).With(model.FieldAllocProcs).
				With(model.FieldAvgCPU).With(model.FieldReqProcs).With(model.FieldStatus).With(model.FieldUser).
				With(model.FieldExecutable).With(model.FieldQueue).With(model.FieldThinkTime)},
		{ID: 4, Submit: 197200 * s, Wait: 10 * s, ReqProcs: 400, Estimate: 600 * s, ReqMemKB: 1024, User: 1, Preceding: 3,
			Known: none.With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldWait).With(model.FieldReqProcs).
				With(model.FieldEstimate).With(model.FieldReqMem).With(model.FieldUser).With(model.FieldPreceding)},
	}
	got := readAll(t, r)
	if len(got) != len(want) {
		t.Fatalf("read %d jobs, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("job %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
		}
	}
	if r.Line() != 15 {
		t.Errorf("Line() = %d, want 15", r.Line())
	}
	if a := r.Anomalies(); len(a) != 0 {
		t.Errorf("anomalies on a clean file: %v", a)
	}
}

func TestReadHeaderLines(t *testing.T) {
	input := strings.Join([]string{
		";Version: 2.2",             // no space after ';'
		"; Note:",                   // empty value
		";  Indented: not a key",    // two spaces: free text, one space removed
		"; http://example.org/",     // ':' not followed by a blank
		"; Two words: free",         // not a single word
		"; Key_2:\tvalue\twith tab", // tab after ':'
		"   ; Lead: blanks before ;",
		";\tTabbed",
		"; trailing   \r",
		"; Ünïcode: x",
		"",
		"; Last: before the jobs",
		line18(nil),
		"; After: jobs",
		line18(map[int]string{1: "2"}),
		";",
	}, "\n")
	r := NewReader(strings.NewReader(input))
	want := []model.HeaderLine{
		{Key: "Version", Value: "2.2"},
		{Key: "Note", Value: ""},
		{Value: " Indented: not a key"},
		{Value: "http://example.org/"},
		{Value: "Two words: free"},
		{Key: "Key_2", Value: "value\twith tab"},
		{Key: "Lead", Value: "blanks before ;"},
		{Value: "\tTabbed"},
		{Value: "trailing"},
		{Value: "Ünïcode: x"},
		{Key: "Last", Value: "before the jobs"},
	}
	if got := r.Header().Lines; !reflect.DeepEqual(got, want) {
		t.Errorf("header\n got %q\nwant %q", got, want)
	}
	if n := len(readAll(t, r)); n != 2 {
		t.Errorf("read %d jobs, want 2", n)
	}
	// A comment between jobs is ignored and counted; those after the last
	// job are a trailer, which joins the header at the end.
	if got := r.Header().Lines; !reflect.DeepEqual(got, append(want, model.HeaderLine{})) {
		t.Errorf("header after the jobs: %q", got)
	}
	a := r.Anomalies()
	if a.Count(ErrCommentAfterJobs) != 1 || a.Skipped() != 0 || !reflect.DeepEqual(a[0].Lines, []int{14}) {
		t.Errorf("anomalies %+v, want 1 late comment on line 14", a)
	}
}

func TestReadByteOrderMark(t *testing.T) {
	r := NewReader(strings.NewReader("\ufeff; Version: 2.2\n" + line18(nil)))
	if v, _ := r.Header().Get("Version"); v != "2.2" || len(readAll(t, r)) != 1 {
		t.Errorf("BOM not skipped: header %q", r.Header().Lines)
	}
}

func TestReadEmptyAndHeaderOnly(t *testing.T) {
	for _, in := range []string{"", "\n\n", "; Version: 2.2\n", "; Version: 2.2"} {
		r := NewReader(strings.NewReader(in))
		if _, err := r.Read(); err != io.EOF {
			t.Errorf("%q: Read = %v, want io.EOF", in, err)
		}
		if _, err := r.Read(); err != io.EOF {
			t.Errorf("%q: second Read = %v, want io.EOF", in, err)
		}
	}
	r := NewReader(strings.NewReader("; Version: 2.2"))
	if v, _ := r.Header().Get("Version"); v != "2.2" {
		t.Errorf("header without newline: Version %q", v)
	}
}

func TestReadLenient(t *testing.T) {
	f, err := os.Open("testdata/lenient.swf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.Name = "lenient.swf"
	r.Lenient = true
	var ids []int64
	for _, j := range readAll(t, r) {
		ids = append(ids, j.ID)
	}
	// Job 8's status of 9 is outside SWF 2.2 in a field replay does not
	// use: the job is kept, with its status as read, and counted.
	if !reflect.DeepEqual(ids, []int64{1, 5, 8, 10}) {
		t.Errorf("kept jobs %v, want [1 5 8 10]", ids)
	}
	a := r.Anomalies()
	type row struct {
		cause error
		field model.Field
		count int
		lines []int
	}
	// Skipped lines are counted by the field that made them skipped.
	want := []row{
		{ErrFieldCount, 0, 2, []int{4, 10}},
		{ErrNumber, model.FieldRuntime, 2, []int{5, 13}},
		{ErrRange, model.FieldAllocProcs, 1, []int{9}},
		{ErrFraction, model.FieldAllocProcs, 1, []int{6}},
		{ErrRange, model.FieldStatus, 1, []int{11}},
		{ErrCommentAfterJobs, 0, 1, []int{8}},
	}
	if len(a) != len(want) {
		t.Fatalf("anomalies %+v, want %d causes", a, len(want))
	}
	for i, w := range want {
		if a[i].Cause != w.cause || a[i].Field != w.field || a[i].Count != w.count || !reflect.DeepEqual(a[i].Lines, w.lines) {
			t.Errorf("anomaly %d = %v %d %d %v, want %v %d %d %v", i, a[i].Cause, a[i].Field, a[i].Count, a[i].Lines, w.cause, w.field, w.count, w.lines)
		}
	}
	if a.Skipped() != 6 || a.Kept() != 1 {
		t.Errorf("Skipped = %d, Kept = %d; want 6, 1", a.Skipped(), a.Kept())
	}
	wantText := `6 malformed lines skipped (2 wrong number of fields, 2 in field 4 (run time), 2 in field 5 (allocated processors)); jobs kept with values outside SWF 2.2: 1 in field 11 (status); 1 comment line after the first job ignored
  wrong number of fields: 2 lines: 4, 10 (first: lenient.swf:4: wrong number of fields: 17, want 18)
  field 4 (run time): invalid number: 2 lines: 5, 13 (first: lenient.swf:5: field 4 (run time): invalid number "abc")
  field 5 (allocated processors): value out of range: 1 line: 9 (first: lenient.swf:9: field 5 (allocated processors): value out of range "-4" (want 0 to 2147483647, or -1 for missing))
  field 5 (allocated processors): fractional value in an integer field: 1 line: 6 (first: lenient.swf:6: field 5 (allocated processors): fractional value in an integer field "4.5")
  field 11 (status): value out of range: 1 line (value kept as read): 11 (first: lenient.swf:11: field 11 (status): value out of range "9" (want 0 to 5, or -1 for missing))
  comment line after the first job: 1 line: 8`
	if got := a.String(); got != wantText {
		t.Errorf("summary\n got:\n%s\nwant:\n%s", got, wantText)
	}

	// The same file in strict mode stops at line 4.
	f.Seek(0, io.SeekStart)
	strict := NewReader(f)
	strict.Strict = true
	if _, err := strict.Read(); err != nil {
		t.Fatal(err)
	}
	_, err = strict.Read()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || !errors.Is(err, ErrFieldCount) {
		t.Errorf("strict: %v, want a field count error on line 4", err)
	}
}

func TestLenientLineNumbersCapped(t *testing.T) {
	var b strings.Builder
	for range 25 {
		b.WriteString("bad\n")
	}
	r := NewReader(strings.NewReader(b.String()))
	r.Lenient = true
	readAll(t, r)
	a := r.Anomalies()
	if a.Count(ErrFieldCount) != 25 || len(a[0].Lines) != MaxAnomalyLines || a[0].Lines[9] != 10 {
		t.Errorf("anomalies %+v", a)
	}
	if !strings.Contains(a.String(), "25 lines: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...") {
		t.Errorf("summary %q lacks the elided line list", a.String())
	}
	if (Anomalies{}).String() != "no anomalies" {
		t.Errorf("empty summary %q", (Anomalies{}).String())
	}
}

func TestLenientLongLine(t *testing.T) {
	in := line18(nil) + "\n" + strings.Repeat("x", 3*bufferBytes) + strings.Repeat("y", MaxLineBytes) + "\n" + line18(map[int]string{1: "2"})
	r := NewReader(strings.NewReader(in))
	r.Lenient = true
	if n := len(readAll(t, r)); n != 2 {
		t.Errorf("read %d jobs, want 2", n)
	}
	if a := r.Anomalies(); a.Count(ErrLineTooLong) != 1 || a[0].Lines[0] != 2 {
		t.Errorf("anomalies %v", a)
	}
	// A long line under the limit is read whole.
	in = line18(nil) + strings.Repeat(" ", 2*bufferBytes) + "\n"
	if n := len(readAll(t, NewReader(strings.NewReader(in)))); n != 1 {
		t.Errorf("long valid line: %d jobs", n)
	}
}

func TestReadGzip(t *testing.T) {
	plain, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(plain)
	zw.Close()
	a := NewReader(bytes.NewReader(plain))
	b := NewReader(bytes.NewReader(z.Bytes()))
	ja, jb := readAll(t, a), readAll(t, b)
	if !reflect.DeepEqual(ja, jb) || !reflect.DeepEqual(a.Header(), b.Header()) {
		t.Error("gzipped input reads differently from plain input")
	}

	// A corrupt stream is an input error, in lenient mode too.
	bad := append([]byte(nil), z.Bytes()...)
	bad[len(bad)-5] ^= 0xff // CRC/size trailer
	r := NewReader(bytes.NewReader(bad))
	r.Lenient = true
	r.Name = "bad.swf.gz"
	var rerr error
	for rerr == nil {
		_, rerr = r.Read()
	}
	if rerr == io.EOF || !strings.HasPrefix(rerr.Error(), "reading bad.swf.gz: the gzip compression failed") || !strings.Contains(rerr.Error(), "gzip: invalid checksum") {
		t.Errorf("corrupt gzip: %v", rerr)
	}
	r = NewReader(bytes.NewReader([]byte{0x1f, 0x8b, 1}))
	if _, err := r.Read(); err == nil || err == io.EOF {
		t.Errorf("truncated gzip header: %v", err)
	}
}

// errAfter is a reader that fails after its data.
type errAfter struct {
	data []byte
	err  error
}

func (e *errAfter) Read(p []byte) (int, error) {
	if len(e.data) == 0 {
		return 0, e.err
	}
	n := copy(p, e.data)
	e.data = e.data[n:]
	return n, nil
}

func TestReadInputError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(&errAfter{data: []byte(line18(nil) + "\n" + line18(nil)), err: boom})
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Read()
	if !errors.Is(err, boom) || err.Error() != "reading SWF input: boom" {
		t.Errorf("err = %v, want the input error in context", err)
	}
}

func TestParseNumbers(t *testing.T) {
	times := []struct {
		in      string
		want    model.Time
		missing bool
		st      numStatus
	}{
		{"0", 0, false, numOK},
		{"489.00", 489 * model.Second, false, numOK},
		{".5", model.Second / 2, false, numOK},
		{"5.", 5 * model.Second, false, numOK},
		{"+7", 7 * model.Second, false, numOK},
		{"-1", 0, true, numOK},
		{"-1.000000", 0, true, numOK},
		{"-1.0000001", 0, true, numOK}, // rounds to exactly -1 s
		{"-1.000001", -model.Second - 1, false, numOK},
		{"0.9999995", model.Second, false, numOK},
		{"9999999999", 9999999999 * model.Second, false, numOK},
		{"123456789012", 0, false, numRange},
		{"-10000000001", 0, false, numRange},
		{"1.5e-6", 2, false, numOK}, // float path, as model.FromSecondsFloat
		{"2E3", 2000 * model.Second, false, numOK},
		{"1_0", 0, false, numSyntax},
		{"Infinity", 0, false, numSyntax},
		{"1e", 0, false, numSyntax},
		{"", 0, false, numSyntax},
	}
	for _, tt := range times {
		got, missing, st := parseTime([]byte(tt.in))
		if got != tt.want || missing != tt.missing || st != tt.st {
			t.Errorf("parseTime(%q) = %d, %v, %d; want %d, %v, %d", tt.in, got, missing, st, tt.want, tt.missing, tt.st)
		}
	}
	counts := []struct {
		in   string
		max  int64
		want int64
		st   numStatus
	}{
		{"17", 100, 17, numOK},
		{"100", 100, 100, numOK},
		{"101", 100, 0, numRange},
		{"-1", 100, -1, numOK},
		{"-1.00", 100, -1, numOK},
		{"-0", 100, 0, numOK},
		{"-2", 100, 0, numRange},
		{"3.0", 5, 3, numOK},
		{"3.01", 5, 0, numFraction},
		{"0.0000001", 5, 0, numFraction},
		{"1e2", 1000, 100, numOK},
		{"1.5e1", 1000, 15, numOK},
		{"1.55e1", 1000, 0, numFraction},
		{"000000000000000000000000042", 100, 42, numOK},
		{"4-2", 100, 0, numSyntax},
	}
	for _, tt := range counts {
		got, st := parseCount([]byte(tt.in), tt.max)
		if got != tt.want || st != tt.st {
			t.Errorf("parseCount(%q, %d) = %d, %d; want %d, %d", tt.in, tt.max, got, st, tt.want, tt.st)
		}
	}
}

// TestDefaultModeKeepsJobs reads a log with values outside SWF 2.2 in
// every field replay does not use (negative counts and IDs, a status of 9,
// fractions, words, numbers too large): in the default mode every job is
// kept, each value kept as read when its field can hold it and marked
// unknown otherwise, and every one counted under its field. Strict mode
// refuses the first.
func TestDefaultModeKeepsJobs(t *testing.T) {
	unused := []model.Field{model.FieldJobID, model.FieldWait, model.FieldAvgCPU, model.FieldUsedMem, model.FieldReqMem,
		model.FieldStatus, model.FieldUser, model.FieldGroup, model.FieldExecutable, model.FieldQueue, model.FieldPartition,
		model.FieldPreceding, model.FieldThinkTime}
	for f := model.Field(1); f <= model.NumFields; f++ {
		if NeededFields.Has(f) == slices.Contains(unused, f) {
			t.Fatalf("field %v: needed and unused disagree", f)
		}
	}
	// Each odd value, and whether it is kept as read (else unknown).
	odd := []struct {
		text string
		kept bool
	}{{"-5", true}, {"2.5", false}, {"x7", false}, {"99999999999999999999999", false}}
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	id := 0
	for _, f := range unused {
		for _, o := range odd {
			id++
			over := map[int]string{int(f): o.text}
			if f != model.FieldJobID {
				over[1] = strconv.Itoa(id)
			}
			b.WriteString(line18(over) + "\n")
		}
	}
	id++
	b.WriteString(line18(map[int]string{1: strconv.Itoa(id), 11: "9"}) + "\n") // a status outside 0-5, kept
	r := NewReader(strings.NewReader(b.String()))
	r.Name = "odd.swf"
	jobs := readAll(t, r)
	if len(jobs) != id {
		t.Fatalf("kept %d jobs, want %d", len(jobs), id)
	}
	// Times may be fractional: a negative time other than -1 (kept as
	// read), words and huge numbers are odd in a time field.
	isOdd := func(f model.Field, k int) bool { return !timeFields.Has(f) || k != 1 }
	for i, f := range unused {
		for k, o := range odd {
			j := jobs[i*len(odd)+k]
			if j.Has(f) != (o.kept || !isOdd(f, k)) {
				t.Errorf("field %v = %q: known %v, want %v", f, o.text, j.Has(f), o.kept)
			}
			for g := model.Field(1); g <= model.NumFields; g++ {
				if g != f && j.Has(g) != base.Has(g) {
					t.Errorf("field %v = %q changed field %v", f, o.text, g)
				}
			}
		}
	}
	if last := jobs[len(jobs)-1]; last.Status != 9 || !last.Has(model.FieldStatus) {
		t.Errorf("status 9 read as %v", last.Status)
	}
	if jobs[0].ID != -5 || !jobs[0].Has(model.FieldJobID) {
		t.Errorf("negative job number read as %d", jobs[0].ID)
	}
	a := r.Anomalies()
	perField := map[model.Field]int{}
	for _, an := range a {
		perField[an.Field] += an.Count
	}
	total := 0
	for _, f := range unused {
		want := 0
		for k := range odd {
			if isOdd(f, k) {
				want++
			}
		}
		if f == model.FieldStatus {
			want++
		}
		total += want
		if perField[f] != want {
			t.Errorf("field %v: %d odd values counted, want %d", f, perField[f], want)
		}
	}
	if a.Skipped() != 0 || a.Kept() != total {
		t.Errorf("Skipped %d, Kept %d", a.Skipped(), a.Kept())
	}
	if hl := a.HeaderLines(); len(hl) != len(a) || hl[0].Key != KeyAnomaly {
		t.Errorf("header lines %q", hl)
	}

	strict := NewReader(strings.NewReader(b.String()))
	strict.Strict = true
	if _, err := strict.Read(); !errors.Is(err, ErrRange) {
		t.Errorf("strict: %v, want ErrRange", err)
	}
	// A needed field's bad value stops the default mode too.
	r = NewReader(strings.NewReader(line18(map[int]string{4: "x"})))
	if _, err := r.Read(); !errors.Is(err, ErrNumber) {
		t.Errorf("bad run time in the default mode: %v", err)
	}
}

// TestDuplicateIDs: a repeated job number is an error in strict mode, and
// counted (both jobs kept) otherwise.
func TestDuplicateIDs(t *testing.T) {
	in := line18(map[int]string{1: "3"}) + "\n" + line18(map[int]string{1: "4"}) + "\n" + line18(map[int]string{1: "3"}) + "\n" +
		line18(map[int]string{1: "300000000000"}) + "\n" + line18(map[int]string{1: "300000000000"}) + "\n"
	r := NewReader(strings.NewReader(in))
	r.Name = "d.swf"
	if jobs := readAll(t, r); len(jobs) != 5 {
		t.Errorf("kept %d jobs, want 5", len(jobs))
	}
	if a := r.Anomalies(); a.Count(ErrDuplicateID) != 2 || !strings.Contains(a.Summary(), "2 repeated job numbers") {
		t.Errorf("anomalies %v", a)
	}
	strict := NewReader(strings.NewReader(in))
	strict.Name = "d.swf"
	strict.Strict = true
	var err error
	for err == nil {
		_, err = strict.Read()
	}
	if !errors.Is(err, ErrDuplicateID) || err.Error() != "d.swf:3: field 1 (job number): repeated job number 3" {
		t.Errorf("strict: %v", err)
	}
}

// TestHeaderNumbers: the integer header keys parse strictly; a note after
// the number is fine. A value the header cannot use (unknown: N/A, empty,
// a word, -1, a negative count; garbled: 1e30, 12.7, 64abc; out of range)
// stops the reader in strict mode only, with its line; otherwise the line
// is kept, the key reads as absent, and the value is counted under
// ErrHeaderValue by key, in every mode.
func TestHeaderNumbers(t *testing.T) {
	for _, tt := range []struct{ header, key, err string }{
		{"; MaxNodes: 338 (batch partition; 512 total)\n; MaxProcs: 338\n; TimeZone: -18000\n", "", ""},
		{"; Version: 2.2\n; MaxProcs: 1e30\n", "MaxProcs", `h.swf:2: invalid number "1e30" in header MaxProcs (want an integer)`},
		{"; MaxProcs: 12.7\n", "MaxProcs", `h.swf:1: invalid number "12.7" in header MaxProcs (want an integer)`},
		{"; MaxNodes: 64abc\n", "MaxNodes", `h.swf:1: invalid number "64abc" in header MaxNodes (want an integer)`},
		{"; MaxProcs: 99999999999\n", "MaxProcs", `h.swf:1: value out of range "99999999999" in header MaxProcs (at most 2147483647)`},
		{"; MaxProcs: 99999999999999999999999\n", "MaxProcs", `h.swf:1: value out of range "99999999999999999999999" in header MaxProcs (at most 2147483647)`},
		{"; MaxProcs: -4\n", "MaxProcs", `h.swf:1: unknown value "-4" in header MaxProcs (want 0 or more)`},
		{"; MaxProcs: -1\n", "MaxProcs", `h.swf:1: unknown value "-1" in header MaxProcs (-1 marks a missing value)`},
		{"; UnixStartTime: soon\n", "UnixStartTime", `h.swf:1: unknown value "soon" in header UnixStartTime (want an integer)`},
		{"; MaxRuntime: N/A\n; MaxMemory: N/A\n", "MaxRuntime", `h.swf:1: unknown value "N/A" in header MaxRuntime (want an integer)`},
		{"; MaxProcs:\n", "MaxProcs", `h.swf:1: unknown value "" in header MaxProcs (want an integer)`},
		{";MaxProcs=64\n", "MaxProcs", `h.swf:1: header line "MaxProcs=64" names MaxProcs but is not "MaxProcs: value": not read`},
	} {
		for _, mode := range []string{"default", "lenient", "strict"} {
			r := NewReader(strings.NewReader(tt.header + line18(nil) + "\n"))
			r.Name = "h.swf"
			r.Lenient = mode == "lenient"
			r.Strict = mode == "strict"
			want := ""
			if mode == "strict" {
				want = tt.err
			}
			// HeaderErr says it before any Read, with the header
			// (model.HeaderErr): a caller that needs MaxProcs first.
			if herr := r.HeaderErr(); want == "" && herr != nil || want != "" && (herr == nil || herr.Error() != want) {
				t.Errorf("%q (%s): HeaderErr %v, want %s", tt.header, mode, herr, want)
			}
			_, err := r.Read()
			if want == "" && err != nil || want != "" && (err == nil || err.Error() != want) {
				t.Errorf("%q (%s): %v, want %s", tt.header, mode, err, want)
			}
			if want != "" && !errors.Is(err, ErrHeaderValue) {
				t.Errorf("%q: %v does not match ErrHeaderValue", tt.header, err)
			}
			if mode == "strict" || tt.key == "" {
				continue
			}
			readAll(t, r)
			a := r.Anomalies()
			if len(a) == 0 || a[0].Header != tt.key || a[0].HeaderErr == nil || a[0].HeaderErr.Error() != tt.err ||
				!strings.Contains(a.Summary(), "header values read as unknown: "+tt.key) {
				t.Errorf("%q (%s): anomalies %v", tt.header, mode, a)
			}
			if _, ok := r.Header().Int(tt.key); ok {
				t.Errorf("%q: %s reads as a number", tt.header, tt.key)
			}
			if len(r.Header().Lines) == 0 {
				t.Errorf("%q: the line was dropped", tt.header)
			}
		}
	}
	// A job line's error is no header error.
	r := NewReader(strings.NewReader("; MaxProcs: 8\n1 2 3\n"))
	if err := r.HeaderErr(); err != nil {
		t.Errorf("HeaderErr of a bad job line: %v", err)
	}
}

// TestHeaderForms: a header field written with a tab, or with blanks
// around the colon, is read; indented, an SWF 2.2 key is still read, while
// an indented word of another kind stays a note's continuation.
func TestHeaderForms(t *testing.T) {
	for _, form := range []string{";\tMaxProcs:\t64", "; MaxProcs : 64", ";MaxProcs: 64", ";   MaxProcs:  64", "; MaxProcs\t:\t64 (all of it)"} {
		r := NewReader(strings.NewReader(form + "\n" + line18(nil) + "\n"))
		r.Strict = true
		if n := r.Header().MaxProcs(); n != 64 {
			t.Errorf("%q: MaxProcs %d, want 64 (header %q)", form, n, r.Header().Lines)
		}
		readAll(t, r)
	}
	r := NewReader(strings.NewReader(";  Indented: a note\n" + line18(nil) + "\n"))
	if l := r.Header().Lines; len(l) != 1 || l[0].Key != "" {
		t.Errorf("indented note: %q", l)
	}
}

// TestNeededUsable: a job is kept whenever the fields the replay needs
// are usable: a bad field 8 when field 5 gives the size, a bad field 5
// when field 8 does, a bad estimate when Needed leaves estimates out (a
// policy that never reads them); the value is counted under its field.
// When no processors field gives the size, or the estimate is needed, the
// line stops the reader (default mode) or is skipped (lenient).
func TestNeededUsable(t *testing.T) {
	noEstimate := NeededFields.Without(model.FieldEstimate)
	for _, tt := range []struct {
		name   string
		over   map[int]string
		needed model.FieldSet
		err    string // "" when the job is kept
	}{
		{"bad field 8, field 5 usable", map[int]string{8: "x"}, 0, ""},
		{"negative field 8, field 5 usable", map[int]string{8: "-4"}, 0, ""},
		{"bad field 5, field 8 usable", map[int]string{5: "4.5"}, 0, ""},
		{"bad field 8, field 5 zero", map[int]string{5: "0", 8: "x"}, 0, `f.swf:2: field 8 (requested processors): invalid number "x"`},
		{"bad field 5, field 8 missing", map[int]string{5: "x", 8: "-1"}, 0, `f.swf:2: field 5 (allocated processors): invalid number "x"`},
		{"both bad", map[int]string{5: "x", 8: "y"}, 0, `f.swf:2: field 5 (allocated processors): invalid number "x"`},
		{"bad estimate, needed", map[int]string{9: "soon"}, 0, `f.swf:2: field 9 (requested time): invalid number "soon"`},
		{"bad estimate, not needed", map[int]string{9: "soon"}, noEstimate, ""},
		{"bad run time, estimate not needed", map[int]string{4: "x"}, noEstimate, `f.swf:2: field 4 (run time): invalid number "x"`},
	} {
		for _, lenient := range []bool{false, true} {
			r := NewReader(strings.NewReader("; MaxProcs: 8\n" + line18(tt.over) + "\n" + line18(map[int]string{1: "2"}) + "\n"))
			r.Name, r.Lenient, r.Needed = "f.swf", lenient, tt.needed
			var jobs []model.Job
			var err error
			for {
				var j model.Job
				if j, err = r.Read(); err != nil {
					break
				}
				jobs = append(jobs, j)
			}
			if err == io.EOF {
				err = nil
			}
			a := r.Anomalies()
			switch {
			case tt.err == "" && (err != nil || len(jobs) != 2 || a.Kept() != 1 || a.Skipped() != 0):
				t.Errorf("%s (lenient %v): %d jobs, %v, anomalies %v; want both jobs, one value counted", tt.name, lenient, len(jobs), err, a)
			case tt.err != "" && !lenient && (err == nil || err.Error() != tt.err):
				t.Errorf("%s: %v, want %s", tt.name, err, tt.err)
			case tt.err != "" && lenient && (err != nil || len(jobs) != 1 || a.Skipped() != 1):
				t.Errorf("%s (lenient): %d jobs, %v, %v; want the line skipped", tt.name, len(jobs), err, a)
			}
			if tt.err == "" && len(jobs) == 2 && jobs[0].Size() != 4 {
				t.Errorf("%s: size %d, want 4", tt.name, jobs[0].Size())
			}
		}
		strict := NewReader(strings.NewReader(line18(tt.over) + "\n"))
		strict.Strict, strict.Needed = true, tt.needed
		if _, err := strict.Read(); err == nil {
			t.Errorf("%s: strict mode kept the job", tt.name)
		}
	}
}

// TestNegativeTimes: -1 is SWF 2.2's only missing-value marker; another
// negative time (a wait of -7, a think time of -8, a submit time of -3) is
// kept as read and counted under its field, and --strict refuses it.
func TestNegativeTimes(t *testing.T) {
	in := line18(map[int]string{3: "-7", 18: "-8"}) + "\n" + line18(map[int]string{1: "2", 2: "-3", 3: "-1"}) + "\n"
	r := NewReader(strings.NewReader(in))
	r.Name = "n.swf"
	jobs := readAll(t, r)
	if len(jobs) != 2 || jobs[0].Wait != -7*model.Second || jobs[0].ThinkTime != -8*model.Second || jobs[1].Submit != -3*model.Second || jobs[1].Has(model.FieldWait) {
		t.Fatalf("jobs %+v", jobs)
	}
	a := r.Anomalies()
	if want := "jobs kept with values outside SWF 2.2: 1 in field 2 (submit time), 1 in field 3 (wait time), 1 in field 18 (think time)"; a.Summary() != want {
		t.Errorf("summary %q, want %q", a.Summary(), want)
	}
	if a[0].First.Error() != `n.swf:2: field 2 (submit time): value out of range "-3" (want 0 or more, or -1 for missing)` {
		t.Errorf("first: %v", a[0].First)
	}
	strict := NewReader(strings.NewReader(in))
	strict.Name, strict.Strict = "n.swf", true
	if _, err := strict.Read(); err == nil || err.Error() != `n.swf:1: field 3 (wait time): value out of range "-7" (want 0 or more, or -1 for missing)` {
		t.Errorf("strict: %v", err)
	}
}
