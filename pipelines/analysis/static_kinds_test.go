package analysis

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/optimum"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload"
)

// rowValue returns the value of the one row with the given coordinates.
func rowValue(t *testing.T, rows []repro.Row, want map[string]string) float64 {
	t.Helper()
	var found []float64
	for _, r := range rows {
		if rowMatches(r, want) {
			found = append(found, r.Gangsim)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d rows match %v, want 1", len(found), want)
	}
	return found[0]
}

// TestAnalysisJobs: the rows are the runs' own outcomes (each job's end,
// the last end, the mean of the ends), labelled; the optimum is package
// optimum's on the run's workload; slowdowns are against the baseline at
// the same coordinates; the figure draws grouped bars per scenario.
func TestAnalysisJobs(t *testing.T) {
	path := writeExperiment(t, `{
  "item": "frachtenberg/test-jobs", "title": "t",
  "run": {"workload": {"source": {"scenario": {"name": "balanced"}}}, "replay": {"policy": "gs:mpl=1"}},
  "grid": [
    {"name": "scenario", "set": "workload.source.scenario.name", "values": ["balanced", "imbalanced"]},
    {"name": "policy", "set": "replay.policy", "values": ["gs:mpl=1", "gs:mpl=2,quantum=1s"]}
  ],
  "analysis": {"kind": "jobs", "x": "scenario", "series": "policy", "optimum": "ideal", "baseline": {"policy": "FCFS"},
               "labels": {"policy": {"gs:mpl=1": "FCFS", "gs:mpl=2,quantum=1s": "GS"}}, "plot": {"bars": true}},
  "paper": [{"coords": {"scenario": "balanced", "policy": "FCFS", "job": "all", "metric": "turnaround_s"}, "value": 120.12, "tolerance": 1, "source": "Table 6.1"}],
  "claims": [{"text": "t", "kind": "less-all", "a": {"policy": "ideal", "metric": "turnaround_s", "scenario": "imbalanced"},
              "b": {"policy": "FCFS|GS", "metric": "turnaround_s", "scenario": "imbalanced"}}]
}`)
	rep := reproduce(t, path, &pipelines.Cache{Dir: t.TempDir()})
	it := rep.Item
	for i, f := range rep.Runs {
		o, _, err := f.Outcomes()
		if err != nil {
			t.Fatal(err)
		}
		sc := f.Point.Text("scenario")
		pol := map[string]string{"gs:mpl=1": "FCFS", "gs:mpl=2,quantum=1s": "GS"}[f.Point.Text("policy")]
		var last, sum float64
		for _, x := range o {
			job := strconv.FormatInt(x.JobID, 10)
			if got := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": pol, "job": job, "metric": "completion_s"}); got != x.End.Seconds() {
				t.Errorf("run %d job %s: row %v, outcome %v", i, job, got, x.End)
			}
			last, sum = max(last, x.End.Seconds()), sum+x.End.Seconds()
		}
		if got := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": pol, "metric": "turnaround_s"}); got != last {
			t.Errorf("%s %s: turnaround %v, want %v", sc, pol, got, last)
		}
		if got := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": pol, "metric": "mean_response_s"}); math.Abs(got-sum/float64(len(o))) > 1e-9 {
			t.Errorf("%s %s: mean response %v, want %v", sc, pol, got, sum/float64(len(o)))
		}
	}
	for _, sc := range []string{"balanced", "imbalanced"} {
		r, err := (&workload.Spec{Source: workload.Source{Scenario: &workload.ScenarioSource{Name: sc}}}).Open(nil)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := model.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, err := optimum.Optimize(tr.Jobs, 4)
		if err != nil {
			t.Fatal(err)
		}
		if got := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": "ideal", "metric": "mean_response_s"}); got != want.MeanResponse.Seconds() {
			t.Errorf("%s: optimal mean response %v, want %v", sc, got, want.MeanResponse)
		}
		fcfs := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": "FCFS", "metric": "turnaround_s"})
		gs := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": "GS", "metric": "turnaround_s"})
		if got := rowValue(t, it.Rows, map[string]string{"scenario": sc, "policy": "GS", "metric": "slowdown_pct"}); math.Abs(got-100*(gs/fcfs-1)) > 1e-9 {
			t.Errorf("%s: GS slowdown %v %%, want %v", sc, got, 100*(gs/fcfs-1))
		}
	}
	if slices.ContainsFunc(it.Rows, func(r repro.Row) bool { return r.Coord("metric") == "slowdown_pct" && r.Coord("policy") == "FCFS" }) {
		t.Error("the baseline has a slowdown against itself")
	}
	if w, n, h, c := it.Check(); w != 1 || n != 1 || h != 1 || c != 1 {
		t.Errorf("paper cells %d/%d, claims %d/%d; want the FCFS turnaround within 1 s and the optimum below both", w, n, h, c)
	}
	f := rep.Figure
	if f == nil || f.kind != "bars" || len(f.panels) != 2 {
		t.Fatalf("figure %+v, want two panels of bars", f)
	}
	p := f.panels[0]
	if !slices.Equal(p.categories, []string{"balanced", "imbalanced"}) || len(p.bars) != 3 || p.bars[2].Name != "ideal" {
		t.Errorf("turnaround panel: categories %v, bars %+v", p.categories, p.bars)
	}
	if _, err := rep.Write(t.TempDir()); err != nil {
		t.Errorf("writing the item and its bars: %v", err)
	}
}

// TestAnalysisFiller: per machine size, the filler squeezed in is the
// longest trial whose workload (and every shorter one's) ends within the
// slack of the prioritized job alone, recomputed here from the trials'
// rows.
func TestAnalysisFiller(t *testing.T) {
	path := writeExperiment(t, `{
  "item": "frachtenberg/test-filler", "title": "t",
  "run": {"workload": {"source": {"scenario": {"name": "sage-filler", "machines": 2}}},
          "replay": {"policy": "pbcs:mpl=2,quantum=75ms", "hw": "accelerando"}},
  "grid": [
    {"name": "machines", "set": "workload.source.scenario.machines", "values": [2, 4]},
    {"name": "filler", "set": "workload.source.scenario.task_length", "values": ["0s", "2s", "5s", "20s", "300s"]}
  ],
  "analysis": {"kind": "filler", "x": "machines", "length": "filler", "slack": 0.03},
  "claims": [{"text": "t", "kind": "at-most", "a": {"quantity": "filler_share"}, "value": 1}]
}`)
	rep := reproduce(t, path, &pipelines.Cache{Dir: t.TempDir()})
	it := rep.Item
	for _, m := range []string{"2", "4"} {
		alone := rowValue(t, it.Rows, map[string]string{"machines": m, "quantity": "alone_s"})
		// Alone under PBCS, SAGE runs its 271 s and waits for the
		// micro-timeslices that perform its blocking calls (a few percent).
		if alone < 271 || alone > 1.05*271 {
			t.Errorf("%s PEs: SAGE alone %v s, want its 271 s and a few percent of micro-timeslices", m, alone)
		}
		want := 0.0
		for _, l := range []float64{2, 5, 20, 300} {
			end := rowValue(t, it.Rows, map[string]string{"machines": m, "filler": repro.FormatValue(l), "quantity": "turnaround_s"})
			if end > 1.03*alone {
				break
			}
			want = l
		}
		if got := rowValue(t, it.Rows, map[string]string{"machines": m, "quantity": "filler_s"}); got != want {
			t.Errorf("%s PEs: filler %v s, want %v", m, got, want)
		}
		if got := rowValue(t, it.Rows, map[string]string{"machines": m, "quantity": "filler_share"}); got != want/alone {
			t.Errorf("%s PEs: share %v, want %v", m, got, want/alone)
		}
	}
	// A 300 s filler cannot hide in 271 s: the workload ends later.
	if end := rowValue(t, it.Rows, map[string]string{"machines": "2", "filler": "300", "quantity": "turnaround_s"}); end < 300 {
		t.Errorf("a 300 s filler ends the workload at %v s", end)
	}
	if f := rep.Figure; f == nil || len(f.panels) != 1 || !f.panels[0].stacked || len(f.panels[0].bars) != 2 {
		t.Fatalf("figure %+v, want one panel of stacked bars", f)
	}
	if _, err := rep.Write(t.TempDir()); err != nil {
		t.Errorf("writing the item and its bars: %v", err)
	}
}
