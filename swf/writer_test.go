package swf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func TestWrite(t *testing.T) {
	h := &model.Header{Lines: []model.HeaderLine{
		{Key: "Version", Value: "2.2"},
		{Value: "             http://example.org/"},
		{Value: ""},
		{Key: "Note", Value: ""},
		{Key: "MaxNodes", Value: "338 (batch partition; 512 total)"},
	}}
	var out bytes.Buffer
	w := NewWriter(&out, h)
	h.Lines[0].Value = "changed after NewWriter"
	j1 := base
	j2 := model.Job{ID: 2, Submit: 1500 * model.Millisecond, Runtime: -3 * model.Microsecond, ThinkTime: model.Never,
		AllocProcs: 0, Status: model.StatusCancelled,
		Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
			With(model.FieldThinkTime).With(model.FieldAllocProcs).With(model.FieldStatus)}
	for _, j := range []*model.Job{&j1, &j2} {
		if err := w.Write(j); err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() != 0 {
		t.Error("Writer wrote before Close: output not buffered")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := `; Version: 2.2
;              http://example.org/
;
; Note:
; MaxNodes: 338 (batch partition; 512 total)
1 10 20 30 4 25 100 4 60 200 1 7 8 9 2 1 -1 -1
2 1.5 -1 -0.000003 0 -1 -1 -1 -1 -1 5 -1 -1 -1 -1 -1 -1 9223372036854.775807
`
	if out.String() != want {
		t.Errorf("output\n got:\n%s\nwant:\n%s", out.String(), want)
	}
	if w.Jobs() != 2 || w.DroppedApps() != 0 {
		t.Errorf("Jobs %d DroppedApps %d, want 2 0", w.Jobs(), w.DroppedApps())
	}
	if err := w.Write(&j1); err == nil {
		t.Error("Write after Close succeeded")
	}
}

func TestWriteHeaderOnly(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, &model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "8"}}})
	if err := w.Close(); err != nil || out.String() != "; MaxProcs: 8\n" {
		t.Errorf("Close = %v, output %q", err, out.String())
	}
	out.Reset()
	if err := NewWriter(&out, nil).Close(); err != nil || out.Len() != 0 {
		t.Errorf("nil header: %v, %q", err, out.String())
	}
}

func TestWriteDroppedApps(t *testing.T) {
	w := NewWriter(io.Discard, nil)
	j := base
	w.Write(&j)
	j.App.Granularity = 5 * model.Millisecond
	w.Write(&j)
	j.App = model.App{Pin: []int{0, 1}}
	w.Write(&j)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.DroppedApps() != 2 {
		t.Errorf("DroppedApps = %d, want 2", w.DroppedApps())
	}
}

func TestWriteErrors(t *testing.T) {
	neg := base
	neg.ReqProcs = -4
	neg.AllocProcs = 0 // field 5 does not give the size: the Reader would refuse -4
	negKept := base    // field 5 gives the size: the Reader keeps the -4 in field 8
	negKept.ReqProcs = -4
	status := base
	status.Status = -1
	unknownNeg := base // a missing field's value is ignored
	unknownNeg.Group = -7
	unknownNeg.Known = unknownNeg.Known.Without(model.FieldGroup)
	tests := []struct {
		job *model.Job
		msg string
	}{
		{&neg, "writing job 1: field 8 (requested processors): value out of range: -4 (want 0 to 2147483647)"},
		{&status, "writing job 1: field 11 (status): value out of range: -1, which SWF reads as missing"},
		{&unknownNeg, ""},
		{&negKept, ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		w := NewWriter(&out, nil)
		err := w.Write(tt.job)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("Write = %v, want success", err)
			}
			continue
		}
		if !errors.Is(err, ErrRange) || err.Error() != tt.msg {
			t.Errorf("Write = %v, want %s", err, tt.msg)
		}
		// The bad job left nothing behind; the writer goes on.
		if err := w.Write(&base); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if n := strings.Count(out.String(), "\n"); n != 1 {
			t.Errorf("output has %d lines, want 1:\n%s", n, out.String())
		}
	}

	for _, l := range []model.HeaderLine{{Key: "Two words", Value: "x"}, {Key: "K:", Value: "x"}, {Key: "Note", Value: "a\nb"}, {Value: "a\n1 2 3"}} {
		w := NewWriter(io.Discard, &model.Header{Lines: []model.HeaderLine{{Key: "Version", Value: "2.2"}, l}})
		if err := w.Write(&base); !errors.Is(err, ErrHeader) {
			t.Errorf("header line %q: Write = %v, want ErrHeader", l, err)
		}
		if err := w.Close(); !errors.Is(err, ErrHeader) {
			t.Errorf("header line %q: Close = %v, want ErrHeader", l, err)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteOutputError(t *testing.T) {
	w := NewWriter(failWriter{}, nil)
	w.Write(&base)
	if err := w.Close(); err == nil || err.Error() != "writing SWF: disk full" {
		t.Errorf("Close = %v", err)
	}
}

// roundtrip writes header h and jobs, reads them back in default mode, and
// fails the test if anything differs.
func roundtrip(t testing.TB, h *model.Header, jobs []model.Job) {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out, h)
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			t.Fatalf("Write job %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	written := out.String()
	r := NewReader(&out)
	if got, want := r.Header().Lines, h.Lines; !(len(got) == 0 && len(want) == 0) && !reflect.DeepEqual(got, want) {
		t.Fatalf("header changed in the round trip:\n got %q\nwant %q\noutput:\n%s", got, want, written)
	}
	for i := 0; ; i++ {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			if i != len(jobs) {
				t.Fatalf("read back %d jobs, wrote %d", i, len(jobs))
			}
			break
		}
		if err != nil {
			t.Fatalf("reading back: %v\noutput:\n%s", err, written)
		}
		if i >= len(jobs) || !reflect.DeepEqual(j, jobFields(&jobs[i])) {
			t.Fatalf("job %d changed in the round trip:\n got %+v\nwant %+v", i, j, jobs[i])
		}
	}
	// Values outside SWF 2.2 in fields replay does not use are kept as
	// read, so they come back as read, and counted again; nothing else may.
	if a := r.Anomalies(); a.Skipped() != 0 || a.Count(ErrCommentAfterJobs) != 0 {
		t.Fatalf("writer output has anomalies: %v", a)
	}
}

// jobFields is j without its application attributes, to compare
// against a job the Reader returns.
func jobFields(j *model.Job) model.Job {
	c := *j
	c.App = model.App{}
	return c
}

func TestWriteRoundtripFixtures(t *testing.T) {
	for _, name := range []string{"testdata/small.swf", "testdata/lenient.swf"} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f)
		r.Lenient = true
		tr, err := model.ReadAll(r)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		roundtrip(t, &tr.Header, tr.Jobs)
	}
}

func FuzzRoundtrip(f *testing.F) {
	for _, name := range []string{"testdata/small.swf", "testdata/lenient.swf"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(";Key:\n;  x: y\n; a:b\n1 2 3 4 5 6 7 8 9 10 0 12 13 14 15 16 17 18.5\n"))
	f.Add([]byte("-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1.0\r\n; late\n"))
	f.Add([]byte("1 0.0000015 1e3 -9223372036854.775808 5.0 -0 0 0 0 0 0 0 0 0 0 0 0 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		r.Lenient = true
		tr, err := model.ReadAll(r)
		if err != nil {
			return // input errors (a corrupt gzip stream) are not line anomalies
		}
		roundtrip(t, &tr.Header, tr.Jobs)
	})
}

// TestWriteTrailer: lines appended to the header at the end are written
// after the jobs and read back into the header at the end, not counted as
// comments between jobs.
func TestWriteTrailer(t *testing.T) {
	for _, jobs := range [][]model.Job{nil, {base}} {
		var out bytes.Buffer
		h := model.Header{Lines: []model.HeaderLine{{Key: "Version", Value: "2.2"}}}
		w := NewWriter(&out, &h)
		for i := range jobs {
			w.Write(&jobs[i])
		}
		w.AppendHeader(model.HeaderLine{Key: "GangsimInput", Value: "abc -"}, model.HeaderLine{Key: KeyDropped, Value: "no-runtime 2"})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := NewReader(&out)
		r.Strict = true
		tr, err := model.ReadAll(r)
		want := append(h.Lines, model.HeaderLine{Key: "GangsimInput", Value: "abc -"}, model.HeaderLine{Key: KeyDropped, Value: "no-runtime 2"})
		if err != nil || len(tr.Jobs) != len(jobs) || !reflect.DeepEqual(r.Header().Lines, want) || len(r.Anomalies()) != 0 {
			t.Errorf("%d jobs: read %d, %v; header %q; anomalies %v", len(jobs), len(tr.Jobs), err, r.Header().Lines, r.Anomalies())
		}
	}
}

// TestMarkEndCutAnywhere: a file written with MarkEnd, cut at any byte
// (line boundaries included, and inside its first line), fails with
// ErrTruncated or another error, never reads as a shorter trace; read
// whole, or without its last newline, it gives back the header, trailer
// and jobs, the GangsimEnd lines in neither. A file without the promise
// is read as it is, and one with lines after its closing line fails.
func TestMarkEndCutAnywhere(t *testing.T) {
	for _, jobs := range [][]model.Job{nil, {base, base, base}} {
		var out bytes.Buffer
		h := model.Header{Lines: []model.HeaderLine{{Key: "Version", Value: "2.2"}, {Key: "MaxProcs", Value: "64"}}}
		w := NewWriter(&out, &h)
		w.MarkEnd = true
		for i := range jobs {
			jobs[i].ID = int64(i + 1)
			w.Write(&jobs[i])
		}
		w.AppendHeader(model.HeaderLine{Key: "GangsimInput", Value: "abc -"})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data := out.Bytes()
		if !strings.HasPrefix(string(data), "; GangsimEnd: expected after the jobs\n") ||
			!strings.HasSuffix(string(data), "; GangsimInput: abc -\n; GangsimEnd: "+itoa(len(jobs))+" jobs\n") {
			t.Fatalf("file:\n%s", data)
		}
		read := func(b []byte) (*model.Trace, *Reader, error) {
			r := NewReader(bytes.NewReader(b))
			r.EmptyIsError = true
			tr, err := model.ReadAll(r)
			return tr, r, err
		}
		for _, whole := range [][]byte{data, data[:len(data)-1]} {
			tr, r, err := read(whole)
			want := append(append([]model.HeaderLine(nil), h.Lines...), model.HeaderLine{Key: "GangsimInput", Value: "abc -"})
			if err != nil || len(tr.Jobs) != len(jobs) || !reflect.DeepEqual(r.Header().Lines, want) {
				t.Errorf("%d jobs, whole: %d jobs, %v, header %q", len(jobs), len(tr.Jobs), err, r.Header().Lines)
			}
		}
		for n := 0; n < len(data)-1; n++ {
			if _, _, err := read(data[:n]); err == nil {
				t.Errorf("%d jobs cut to %d bytes: read without an error:\n%s", len(jobs), n, data[:n])
			} else if n > 0 && data[n-1] == '\n' && !errors.Is(err, ErrTruncated) {
				t.Errorf("%d jobs cut after line: %v, want ErrTruncated", len(jobs), err)
			}
		}
		if _, _, err := read(append(append([]byte(nil), data...), "4 0 -1 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 1 -1 -1 -1\n"...)); err == nil {
			t.Errorf("%d jobs: a job line after the closing line read", len(jobs))
		}
		plain := bytes.ReplaceAll(data, []byte("; GangsimEnd: expected after the jobs\n"), nil)
		plain = plain[:bytes.LastIndex(plain, []byte("; GangsimEnd"))]
		if tr, _, err := read(plain); err != nil || len(tr.Jobs) != len(jobs) {
			t.Errorf("a file without the promise: %v", err)
		}
		if len(jobs) > 0 {
			cut := plain[:bytes.LastIndex(plain, []byte("\n3 "))+1]
			if tr, _, err := read(cut); err != nil || len(tr.Jobs) != len(jobs)-1 {
				t.Errorf("a file without the promise, cut at a line: %d jobs, %v", len(tr.Jobs), err)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
