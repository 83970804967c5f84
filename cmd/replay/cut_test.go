package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// TestCutTraceStream: a trace gangsim wrote to a stream (genwork -o -
// --format swf or csv), cut at a line boundary as by head -n, fails with
// ErrTruncated instead of replaying the jobs before the cut; the whole
// trace replays.
func TestCutTraceStream(t *testing.T) {
	for _, f := range []columnar.Format{columnar.FormatSWF, columnar.FormatCSV} {
		var buf bytes.Buffer
		out, err := fileio.Create("-", f, &buf)
		if err != nil {
			t.Fatal(err)
		}
		h := model.Header{Lines: []model.HeaderLine{{Key: model.KeyMaxProcs, Value: "8"}}}
		w, err := out.TraceWriter(&h)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			j := model.Job{ID: int64(i + 1), Submit: model.Time(i) * model.Second, Runtime: 5 * model.Second, AllocProcs: 2,
				Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).With(model.FieldAllocProcs)}
			w.Write(&j)
		}
		if err := out.Commit(); err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(buf.String(), "\n")
		cut := strings.Join(lines[:50], "")
		_, _, err = replayCmd(t, strings.NewReader(cut), "--policy", "fcfs", "-o", "/dev/null")
		if !errors.Is(err, swf.ErrTruncated) && !errors.Is(err, columnar.ErrTruncated) {
			t.Errorf("%v cut at line 50: %v, want a truncated input", f, err)
		}
		_, stderr, err := replayCmd(t, strings.NewReader(buf.String()), "--policy", "fcfs", "-o", "/dev/null")
		if err != nil || !strings.Contains(stderr, "100 jobs") {
			t.Errorf("%v whole: %v\n%s", f, err, stderr)
		}
	}
}
