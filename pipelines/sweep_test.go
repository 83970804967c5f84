package pipelines

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload"
)

const sweepBase = `{
  "workload": {"source": {"lublin": {"jobs": 300, "procs": 32}}, "estimates": {"mode": "loose"},
               "load": {"target": 0.6}, "compress": 100, "seed": 3},
  "replay": {"policy": "fcfs"}
}`

func sweepRuns(t *testing.T) ([]*Run, []Point) {
	t.Helper()
	docs, points, err := Expand(json.RawMessage(sweepBase), []Axis{
		{Name: "policy", Set: "replay.policy", Values: raw(`"fcfs"`, `"easy"`)},
		{Name: "load", Set: "workload.load.target", Values: raw(`0.5`, `0.9`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var runs []*Run
	for _, d := range docs {
		r, err := ParseRun(d)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return runs, points
}

func TestSweepCachesAndResumes(t *testing.T) {
	cache := &Cache{Dir: t.TempDir()}
	runs, points := sweepRuns(t)
	s := &Sweep{Cache: cache, Workers: 2}
	first, err := s.Do(runs, points)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for i, f := range first {
		if f.Cached || f.Info.Jobs != 300 || f.Point.Text("policy") != runs[i].Replay.Policy {
			t.Errorf("run %d: cached %v, %d jobs, point %v", i, f.Cached, f.Info.Jobs, f.Point)
		}
		keys[f.Key] = true
	}
	if len(keys) != 4 {
		t.Fatalf("%d distinct keys for 4 different runs", len(keys))
	}
	// EASY never does worse than FCFS on mean wait for the same jobs.
	mean := func(f *Finished) float64 {
		outs, h, err := f.Outcomes()
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := model.ManifestOf(h); !ok || m.Tool != SweepTool {
			t.Errorf("manifest %+v", m)
		}
		if v, _ := h.Get("InputGangsimTool"); v != WorkloadTool {
			t.Errorf("workload manifest tool %q", v)
		}
		sum := 0.0
		for _, o := range outs {
			sum += o.Wait().Seconds()
		}
		return sum / float64(len(outs))
	}
	if f, e := mean(first[1]), mean(first[3]); e > f {
		t.Errorf("load 0.9: EASY mean wait %v > FCFS %v", e, f)
	}
	if ss, err := first[0].Samples(); err != nil || len(ss) == 0 {
		t.Errorf("samples: %d, %v", len(ss), err)
	}

	// A rerun finds everything cached.
	again, err := s.Do(runs, points)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range again {
		if !f.Cached || f.Key != first[i].Key {
			t.Errorf("rerun %d: cached %v", i, f.Cached)
		}
	}

	// A killed sweep: one run's directory gone, a half-built one in tmp.
	// The resumed sweep rebuilds only that run, byte for byte.
	victim := first[2]
	want, _ := os.ReadFile(filepath.Join(victim.Dir, OutcomesFile))
	if err := os.RemoveAll(victim.Dir); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(cache.Dir, "tmp", victim.Key[:16]+"-killed"), 0o755)
	resumed, err := s.Do(runs, points)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range resumed {
		if f.Cached != (i != 2) {
			t.Errorf("resume %d: cached %v", i, f.Cached)
		}
	}
	got, _ := os.ReadFile(filepath.Join(victim.Dir, OutcomesFile))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Error("the rebuilt run's outcomes differ from the first build")
	}
}

func TestRunKeyAndErrors(t *testing.T) {
	runs, _ := sweepRuns(t)
	a, _ := runs[0].Key()
	// The same run written differently (defaults spelled out) has the same key.
	spelled := *runs[0]
	spelled.Workload = spelled.Workload.Resolved()
	if b, _ := spelled.Key(); a != b {
		t.Error("spelling out defaults changed the key")
	}
	for _, tt := range []struct{ doc, err string }{
		{`{"workload": {"source": {"lublin": {"jobs": 10}}, "seed": 1}, "replay": {"policy": "sjf"}}`,
			`replay: unknown policy "sjf" (known: bcs, conservative, dcs, easy, fcfs, fcs, gs, local, pbcs, sb)`},
		{`{"workload": {"source": {}, "seed": 1}, "replay": {"policy": "easy"}}`,
			`workload: source: set exactly one of trace, lublin, scenario and synthetic`},
		{`{"workload": {"source": {"lublin": {"jobs": 10}}}, "replay": {"policy": "easy"}, "extra": 1}`,
			`run description: json: unknown field "extra"`},
	} {
		if _, err := ParseRun([]byte(tt.doc)); err == nil || err.Error() != tt.err {
			t.Errorf("ParseRun(%s) = %v, want %s", tt.doc, err, tt.err)
		}
	}
}

func TestSweepBuildsTwinsOnce(t *testing.T) {
	cache := &Cache{Dir: t.TempDir()}
	runs, _ := sweepRuns(t)
	// The same run four times and another once: one build each.
	twins := []*Run{runs[0], runs[0], runs[1], runs[0], runs[0]}
	got, err := (&Sweep{Cache: cache, Workers: 4}).Do(twins, nil)
	if err != nil {
		t.Fatal(err)
	}
	built := 0
	for i, f := range got {
		if !f.Cached {
			built++
		}
		if f.Info == nil || f.Info.Key != f.Key {
			t.Errorf("run %d: info %+v for key %s", i, f.Info, f.Key)
		}
	}
	if built != 2 {
		t.Errorf("%d builds for two distinct runs", built)
	}
	if got[0].Info.Seconds != got[4].Info.Seconds {
		t.Error("twins report different builds")
	}
}

// brokenRun is r replaying a trace that does not parse ("bad.swf").
func brokenRun(t *testing.T, r *Run) *Run {
	t.Helper()
	bad := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(bad, []byte("1 0 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := *r
	broken.Workload.Source = workload.Source{Trace: &workload.TraceSource{Path: bad}}
	return &broken
}

func TestSweepStopsAtFirstError(t *testing.T) {
	cache := &Cache{Dir: t.TempDir()}
	runs, _ := sweepRuns(t)
	list := append([]*Run{brokenRun(t, runs[0])}, runs...)
	_, err := (&Sweep{Cache: cache, Workers: 1}).Do(list, nil)
	var re *RunError
	if !errors.As(err, &re) || re.Index != 0 || !strings.HasPrefix(err.Error(), "run 1: workload: ") || !strings.Contains(err.Error(), "bad.swf") {
		t.Fatalf("error %v, want run 1's", err)
	}
	// With one worker, the failure stops the sweep before the last run.
	last, _ := runs[len(runs)-1].Key()
	if _, ok := cache.Get(last); ok {
		t.Error("the sweep went on after a failed run")
	}
}

// TestSweepPrefetch runs several items' runs in one pool first: each item
// then reports the runs Prefetch built as run, once, and meets a run that
// failed there as failed.
func TestSweepPrefetch(t *testing.T) {
	cache := &Cache{Dir: t.TempDir()}
	runs, points := sweepRuns(t)
	broken := brokenRun(t, runs[0])
	s := &Sweep{Cache: cache, Workers: 2}
	s.Prefetch(append(slices.Clone(runs), broken))
	for i, r := range runs {
		key, _ := r.Key()
		if _, ok := cache.Get(key); !ok {
			t.Fatalf("run %d not in the cache after Prefetch", i)
		}
	}
	// Two items sharing runs 1 and 2: the first reports them run, the
	// second cached.
	first, err := s.Do(runs[:3], points[:3])
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Do(runs[1:], points[1:])
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range first {
		if f.Cached || f.Point.Text("policy") != runs[i].Replay.Policy {
			t.Errorf("first item, run %d: cached %v, point %v", i, f.Cached, f.Point)
		}
	}
	for i, f := range second {
		if want := i < 2; f.Cached != want {
			t.Errorf("second item, run %d: cached %v, want %v", i, f.Cached, want)
		}
	}
	// The failed run fails with Prefetch's error, not run again.
	_, err = s.Do([]*Run{runs[0], broken}, nil)
	key, _ := broken.Key()
	var re *RunError
	if !errors.As(err, &re) || re.Index != 1 || re.Err != s.failed[key] || !strings.Contains(err.Error(), "bad.swf") {
		t.Errorf("error %v, want run 2's from Prefetch", err)
	}
}
