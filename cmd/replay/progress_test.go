package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
)

// bspTrace writes a trace of n BSP jobs of 4 processes (a ring of
// blocking messages, iterations of gran; none with gran 0) to path, in
// the format its extension names, on a 16-processor machine.
func bspTrace(t *testing.T, path string, n int, runtime, gran model.Time) {
	t.Helper()
	var b bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "16"}, {Key: "MaxRecords", Value: itoa(n)}}}
	w, err := columnar.NewTraceWriter(&b, columnar.FormatFromName(path), &h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		j := model.Job{ID: int64(i + 1), Submit: model.Time(i) * runtime / 20, Runtime: runtime, AllocProcs: 4, ReqProcs: 4,
			Estimate: 2 * runtime, Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
					With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldEstimate)}
		if gran > 0 {
			j.App = model.App{Granularity: gran, Pattern: model.PatternRing, Comm: model.CommBlocking}
		}
		if err := w.Write(&j); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNoProgressOnPipe: on a pipe (or a file) stderr gets the summary and
// nothing else, however long the replay: no status line, no carriage
// return.
func TestNoProgressOnPipe(t *testing.T) {
	t.Setenv("GANGSIM_PROGRESS_INTERVAL", "1ms")
	trace := filepath.Join(t.TempDir(), "bsp.parquet")
	bspTrace(t, trace, 40, 20*model.Second, 5*model.Millisecond)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	done := make(chan struct{})
	go func() { got.ReadFrom(r); close(done) }()
	err = run([]string{"-p", "sb", "--hw", "crescendo", trace, "-o", os.DevNull, "--format", "arrow"}, strings.NewReader(""), &bytes.Buffer{}, w)
	w.Close()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if s := got.String(); strings.ContainsAny(s, "\r\x1b") || strings.Contains(s, "simulated") || !strings.Contains(s, "replay: sb on 16") {
		t.Errorf("stderr on a pipe: %q, want the summary alone", s)
	}
}

// TestAttributesWarning: a process-level policy given jobs without
// application attributes says so once, from a file before the run (with
// the count) and from standard input at the first such job; a job-level
// policy, or jobs with attributes, say nothing of it.
func TestAttributesWarning(t *testing.T) {
	dir := t.TempDir()
	bare, bsp := filepath.Join(dir, "bare.arrow"), filepath.Join(dir, "bsp.arrow")
	bspTrace(t, bare, 6, 2*model.Second, 0)
	bspTrace(t, bsp, 6, 2*model.Second, 5*model.Millisecond)
	_, stderr, err := replayCmd(t, nil, "-p", "fcs", "-q", bare, "-o", os.DevNull, "--format", "arrow")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stderr, "no application attributes"); n != 1 || !strings.Contains(stderr, "replay: fcs: 6 of 6 jobs have no application attributes") ||
		!strings.Contains(stderr, "genwork convert --app") {
		t.Errorf("a file without attributes under fcs -q: %q", stderr)
	}
	data, _ := os.ReadFile(bare)
	_, stderr, err = replayCmd(t, bytes.NewReader(data), "-p", "sb", "-o", os.DevNull, "--format", "arrow")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stderr, "no application attributes"); n != 1 || !strings.Contains(stderr, "replay: sb: job 1 has no application attributes") {
		t.Errorf("standard input without attributes under sb: %q", stderr)
	}
	for _, c := range [][]string{{"-p", "gs", bare}, {"-p", "sb", bsp}, {"-p", "easy", bare}} {
		_, stderr, err := replayCmd(t, nil, append(c, "-o", os.DevNull, "--format", "arrow")...)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stderr, "attributes") {
			t.Errorf("%v warns: %q", c, stderr)
		}
	}
}

// TestCostNotice: a process-level replay estimated to take long says so
// before it starts, with what makes it quicker; -q keeps it quiet, and a
// short one says nothing.
func TestCostNotice(t *testing.T) {
	dir := t.TempDir()
	long, short := filepath.Join(dir, "long.arrow"), filepath.Join(dir, "short.arrow")
	bspTrace(t, long, 3, 1e7*model.Second, 0) // 120 processor-years at 100 ms quanta: about 2 min
	bspTrace(t, short, 3, 2*model.Second, 5*model.Millisecond)
	// On one processor the long trace's jobs of 4 are rejected at once:
	// the notice is said, and nothing is simulated.
	_, stderr, _ := replayCmd(t, nil, "-p", "fcs", "--procs", "1", long, "-o", os.DevNull, "--format", "arrow")
	if !strings.Contains(stderr, "replay: fcs simulates every process: this trace (3 jobs on 1 processors") ||
		!strings.Contains(stderr, "genwork convert --compress 100") {
		t.Errorf("no cost notice before a long process-level replay: %q", stderr)
	}
	_, stderr, _ = replayCmd(t, nil, "-p", "fcs", "-q", "--procs", "1", long, "-o", os.DevNull, "--format", "arrow")
	if strings.Contains(stderr, "simulates every process") {
		t.Errorf("-q still says the cost: %q", stderr)
	}
	_, stderr, err := replayCmd(t, nil, "-p", "fcs", short, "-o", os.DevNull, "--format", "arrow")
	if err != nil || strings.Contains(stderr, "simulates every process") {
		t.Errorf("a short replay says its cost (%v): %q", err, stderr)
	}
}
