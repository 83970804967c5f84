package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
)

func replayCmd(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return cli.Call(run, stdin, args...)
}

func TestReplayKTH(t *testing.T) {
	trace := sharedtraces.Trace(t, "KTH-SP2-1996-2.1-cln")
	dir := t.TempDir()
	out := filepath.Join(dir, "kth.parquet")
	series := filepath.Join(dir, "kth-ts.csv")
	_, stderr, err := replayCmd(t, nil, "--compat", "pyss", "--policy", "easy", trace, "-o", out, "--timeseries", series)
	if err != nil {
		t.Fatal(err)
	}
	// The oracle's n_jobs for KTH (../shared/oracle/metrics.csv).
	if !strings.Contains(stderr, "replay: easy on 100: 28467 jobs (0 rejected)") {
		t.Errorf("summary: %s", stderr)
	}
	f, _ := os.Open(out)
	defer f.Close()
	r, err := columnar.NewOutcomeReader(f, columnar.FormatParquet, out)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := model.ManifestOf(r.Header())
	if !ok || m.Tool != "replay" || len(m.Inputs) != 1 || len(m.Inputs[0].SHA256) != 64 || !m.HasSeed {
		t.Fatalf("manifest %+v", m)
	}
	if v, _ := m.Param("policy"); v != "easy" {
		t.Errorf("policy param %q", v)
	}
	if r.Header().MaxProcs() != 100 {
		t.Error("the input trace's header is not carried into the outcomes")
	}
	n := 0
	for {
		if _, err := r.Read(); err != nil {
			break
		}
		n++
	}
	if n != 28467 {
		t.Errorf("%d outcomes", n)
	}
	ts, err := os.ReadFile(series)
	if err != nil || !strings.Contains(string(ts), "time_s,in_system,queued,running,suspended,busy_procs") {
		t.Errorf("time series: %v", err)
	}
}

// TestDeterministic: the same input and flags give byte-identical outputs.
func TestDeterministic(t *testing.T) {
	trace := sharedtraces.Trace(t, "NASA-iPSC-1993-3.1-cln")
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		out := filepath.Join(dir, "o.parquet")
		if _, _, err := replayCmd(t, nil, "-p", "conservative", trace, "-o", out, "-q"); err != nil {
			t.Fatal(err)
		}
		files[i], _ = os.ReadFile(out)
	}
	if len(files[0]) == 0 || !bytes.Equal(files[0], files[1]) {
		t.Error("two identical runs wrote different files")
	}
}

// TestPipe feeds an Arrow stream on stdin, as from genwork, and writes the
// outcomes as an Arrow stream on stdout.
func TestPipe(t *testing.T) {
	var in bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}, {Key: model.KeyGangsimTool, Value: "genwork lublin"}}}
	w, _ := columnar.NewTraceWriter(&in, columnar.FormatArrow, &h)
	for i := 0; i < 10; i++ {
		j := model.Job{ID: int64(i + 1), Submit: model.Time(i) * model.Second, Runtime: 5 * model.Second,
			AllocProcs: 1 + i%4, Known: model.AllFields.Without(model.FieldEstimate)}
		w.Write(&j)
	}
	w.Close()
	stdout, _, err := replayCmd(t, &in, "-p", "fcfs", "-q")
	if err != nil {
		t.Fatal(err)
	}
	r, err := columnar.NewOutcomeReader(strings.NewReader(stdout), columnar.FormatArrow, "")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Header().Get("InputGangsimTool"); v != "genwork lublin" {
		t.Errorf("upstream manifest lost: %q", v)
	}
	n := 0
	for {
		o, err := r.Read()
		if err != nil {
			break
		}
		if o.Start < o.Submit || o.End-o.Start != 5*model.Second {
			t.Errorf("outcome %+v", o)
		}
		n++
	}
	if n != 10 {
		t.Errorf("%d outcomes", n)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n2 5 0 x 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	_, _, err := replayCmd(t, nil, bad, "-o", out)
	if err == nil || err.Error() != bad+`:3: field 4 (run time): invalid number "x"` {
		t.Errorf("bad input: %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("a failed run left %s", out)
	}
	for _, args := range [][]string{
		{"--policy", "sjf"},
		{"--machine", "12y3"},
		{"-o", "out.txt"},
		{"-o", "out.swf"},
		{"--sample-period", "soon"},
		{"--tau", "-1s"},
		{"a", "b"},
		{"--no-such-flag"},
	} {
		_, _, err := replayCmd(t, nil, args...)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
	if _, _, err := replayCmd(t, nil, filepath.Join(dir, "missing.swf")); err == nil || errors.Is(err, cli.ErrUsage) {
		t.Errorf("missing file: %v", err)
	}
}

// TestSummaryTau: a workload compressed by 100 (genwork's manifest says
// compress=100) gets tau = 0.1 s in the summary, as analyze uses.
func TestSummaryTau(t *testing.T) {
	var in bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}}}
	(&model.Manifest{Tool: "genwork lublin", Params: []model.Param{{Name: "compress", Value: "100"}}}).Apply(&h)
	w, _ := columnar.NewTraceWriter(&in, columnar.FormatArrow, &h)
	// Two 0.5 s jobs on one processor each of a 1-processor machine: the
	// second waits 0.5 s; with tau 0.1 s its bounded slowdown is 2.
	for i := 0; i < 2; i++ {
		j := model.Job{ID: int64(i + 1), Runtime: 500 * model.Millisecond, AllocProcs: 4, Known: model.AllFields.Without(model.FieldEstimate)}
		w.Write(&j)
	}
	w.Close()
	_, stderr, err := replayCmd(t, bytes.NewReader(in.Bytes()), "-p", "fcfs", "-o", filepath.Join(t.TempDir(), "o.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "mean bounded slowdown (tau 0.1s) 1.500") {
		t.Errorf("summary: %s", stderr)
	}
	_, stderr, _ = replayCmd(t, bytes.NewReader(in.Bytes()), "-p", "fcfs", "--tau", "10s", "-o", filepath.Join(t.TempDir(), "o.csv"))
	if !strings.Contains(stderr, "mean bounded slowdown 1.000") {
		t.Errorf("summary with --tau 10s: %s", stderr)
	}
}
