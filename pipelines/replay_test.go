package pipelines

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

func openTrace(t *testing.T, name string) *swf.Reader {
	t.Helper()
	f, err := os.Open(sharedtraces.Trace(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return swf.NewReader(f)
}

// TestReplayPyssKTH runs KTH under EASY in pyss mode and compares the
// aggregate metrics with the oracle's metrics.csv values.
func TestReplayPyssKTH(t *testing.T) {
	r := Replay{Policy: policies.Spec{Name: "easy"}, Compat: CompatPyss}
	res, err := r.Run(openTrace(t, "KTH-SP2-1996-2.1-cln"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// ../shared/oracle/metrics.csv, KTH-SP2-1996-2.1-cln, easy.
	if res.Summary.Jobs != 28467 || res.Clean.Kept != 28467 {
		t.Errorf("jobs %d kept %d, want 28467", res.Summary.Jobs, res.Clean.Kept)
	}
	if res.Machine != model.FlatMachine(100) {
		t.Errorf("machine %v, want 100", res.Machine)
	}
	params, err := r.Params(&model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "100"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"policy": "easy", "machine": "100", "compat": "pyss", "order": "pyss", "passes": "per-event", "clean": "pyss"}
	for _, p := range params {
		if w, ok := want[p.Name]; ok && w != p.Value {
			t.Errorf("param %s = %s, want %s", p.Name, p.Value, w)
		}
	}
	if math.IsNaN(res.Summary.MeanWait()) || res.Summary.MeanWait() <= 0 {
		t.Errorf("mean wait %v", res.Summary.MeanWait())
	}
}

// TestReplayDefaultRejects replays SDSC-BLUE's header machine (144 nodes of
// 8) with default cleaning: never-run jobs are dropped by cleaning and
// counted; nothing blocks.
func TestReplayDefaults(t *testing.T) {
	if testing.Short() {
		t.Skip("large trace")
	}
	r := Replay{Policy: policies.Spec{Name: "easy"}}
	res, err := r.Run(openTrace(t, "SDSC-SP2-1998-4.2-cln"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Clean.Read != 59715 || res.Summary.Jobs+res.Summary.Rejected != res.Clean.Kept {
		t.Errorf("read %d kept %d, completed %d + rejected %d", res.Clean.Read, res.Clean.Kept, res.Summary.Jobs, res.Summary.Rejected)
	}
	if u := res.Summary.Utilization(res.Machine.Procs()); u <= 0.5 || u > 1 {
		t.Errorf("utilization %v", u)
	}
}

func TestReplayErrors(t *testing.T) {
	r := Replay{Policy: policies.Spec{Name: "easy"}, Compat: "slurm"}
	if _, err := r.Params(&model.Header{}); err == nil || err.Error() != `unknown compatibility mode "slurm" (want pyss)` {
		t.Errorf("error %v", err)
	}
	r = Replay{Policy: policies.Spec{Name: "easy"}}
	if _, err := r.Params(&model.Header{}); err == nil {
		t.Error("no machine size: no error")
	}
}

// TestExecuteUnsortedWhere: a run of a sweep whose trace is out of order
// names the file and line of the job, whether cleaning or the engine finds
// it.
func TestExecuteUnsortedWhere(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "u.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 8\n1 10 -1 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	for _, clean := range []string{"", "none"} {
		r := &Run{Workload: workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: trace}}},
			Replay: ReplaySpec{Policy: "fcfs", Clean: clean}}
		_, err := r.Execute(t.TempDir(), "k")
		if err == nil || !strings.HasPrefix(err.Error(), trace+":3: job 2 submitted at 0s") {
			t.Errorf("clean %q: %v", clean, err)
		}
	}
}
