package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
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

// TestSweepDuplicateItems: two experiment files of one item in a sweep
// are refused, naming both, before any run: the second used to overwrite
// the first's files silently. The same file given twice is refused too.
func TestSweepDuplicateItems(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 8\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	exp := func(name, policy string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(`{"item": "my-study/same", "title": "t",
  "run": {"workload": {"source": {"trace": {"path": "`+trace+`"}}}, "replay": {"policy": "`+policy+`"}},
  "analysis": {"kind": "metrics", "metrics": ["wait_s_mean"]}}`), 0o644)
		return path
	}
	a, b := exp("a.json", "fcfs"), exp("b.json", "easy")
	results, cache := filepath.Join(dir, "results"), filepath.Join(dir, "cache")
	for _, args := range [][]string{{a, b}, {a, a}} {
		_, _, err := replayCmd(t, nil, append([]string{"sweep", "-q", "--cache", cache, "-o", results}, args...)...)
		if err == nil || !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), a) {
			t.Errorf("%v: %v, want a usage error naming %s", args, err, a)
		}
	}
	if _, err := os.Stat(results); !os.IsNotExist(err) {
		t.Errorf("results written: %v", err)
	}
	if _, _, err := replayCmd(t, nil, "sweep", "-q", "--cache", cache, "-o", results, a); err != nil {
		t.Error(err)
	}
}

// TestSweepOneJob: a metrics item over a trace of one job used to panic
// (the saturation test's empty arrival period); it is an error now.
func TestSweepOneJob(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 8\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	exp := filepath.Join(dir, "e.json")
	os.WriteFile(exp, []byte(`{"item": "my-study/one", "title": "t",
  "run": {"workload": {"source": {"trace": {"path": "`+trace+`"}}}, "replay": {"policy": "fcfs"}},
  "analysis": {"kind": "metrics", "metrics": ["wait_s_mean"]}}`), 0o644)
	_, _, err := replayCmd(t, nil, "sweep", "-q", "--cache", filepath.Join(dir, "cache"), "-o", filepath.Join(dir, "results"), exp)
	if err == nil || !strings.Contains(err.Error(), "saturation cannot be judged") {
		t.Errorf("%v, want the saturation test's error", err)
	}
}

// TestArrowCutToFewBytes: an Arrow trace cut to fewer bytes than its
// magic number fails as a truncated Arrow stream, not as an SWF trace
// without MaxProcs.
func TestArrowCutToFewBytes(t *testing.T) {
	var buf bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: model.KeyMaxProcs, Value: "8"}}}
	w, _ := columnar.NewTraceWriter(&buf, columnar.FormatArrow, &h)
	w.Close()
	path := filepath.Join(t.TempDir(), "t.arrow")
	for n := 1; n <= 3; n++ {
		os.WriteFile(path, buf.Bytes()[:n], 0o644)
		if _, _, err := replayCmd(t, nil, "--policy", "fcfs", path, "-o", "/dev/null"); !errors.Is(err, columnar.ErrTruncated) {
			t.Errorf("cut to %d bytes: %v, want a truncated Arrow stream", n, err)
		}
	}
}
