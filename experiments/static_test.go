package experiments

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/workload/scenario"
)

// paperCells returns an experiment's paper values by their coordinates.
func paperCells(t *testing.T, item string) map[string]analysis.PaperValue {
	t.Helper()
	e, _, err := analysis.LoadExperiment(filepath.Join("frachtenberg", item+".json"))
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string]analysis.PaperValue{}
	for _, p := range e.Paper {
		key := fmt.Sprint(p.Coords) // fmt prints maps sorted by key
		if _, dup := cells[key]; dup {
			t.Errorf("%s: two paper values at %v", item, p.Coords)
		}
		cells[key] = p
	}
	return cells
}

// TestStaticPaperValues holds the paper values of the static-scenario
// items to the thesis' tables as workload/scenario records them
// (scenario.PaperResults, with Table 6.2's corrected FCFS row): every
// printed cell is there, with its value and a 10% tolerance, and nothing
// else is.
func TestStaticPaperValues(t *testing.T) {
	sec := func(v model.Time) float64 { return math.Round(v.Seconds()*100) / 100 }
	check := func(item string, cells map[string]analysis.PaperValue, coords map[string]string, want float64) {
		t.Helper()
		p, ok := cells[fmt.Sprint(coords)]
		if !ok {
			t.Errorf("%s: no paper value at %v (the thesis' %v)", item, coords, want)
			return
		}
		if p.Value != want || math.Abs(p.Tolerance-0.1*want) > 1e-9 {
			t.Errorf("%s at %v: value %v tolerance %v, want %v within 10%%", item, coords, p.Value, p.Tolerance, want)
		}
		delete(cells, fmt.Sprint(coords))
	}
	fig := paperCells(t, "fig-6.7")
	t65 := paperCells(t, "table-6.5")
	for _, name := range []string{"balanced", "imbalanced", "complementing", "mixed"} {
		var item string
		var cells map[string]analysis.PaperValue
		for _, r := range scenario.PaperResults(name) {
			if r.Comm == model.CommNonBlocking {
				base := map[string]string{"scenario": name, "comm": "non-blocking", "policy": r.Algorithm}
				for j, e := range r.Terminations {
					check("table-6.5", t65, with(base, "job", fmt.Sprint(j+1), "metric", "completion_s"), sec(e))
				}
				check("table-6.5", t65, with(base, "job", "all", "metric", "turnaround_s"), sec(r.Turnaround))
				check("table-6.5", t65, with(base, "job", "all", "metric", "mean_response_s"), sec(r.MeanResponse))
				continue
			}
			if cells == nil {
				item = "table-" + r.Table
				cells = paperCells(t, item)
			}
			base := map[string]string{"policy": r.Algorithm}
			for j, e := range r.Terminations {
				check(item, cells, with(base, "job", fmt.Sprint(j+1), "metric", "completion_s"), sec(e))
			}
			check(item, cells, with(base, "job", "all", "metric", "turnaround_s"), sec(r.Turnaround))
			check(item, cells, with(base, "job", "all", "metric", "mean_response_s"), sec(r.MeanResponse))
			fb := map[string]string{"scenario": name, "policy": r.Algorithm, "job": "all"}
			check("fig-6.7", fig, with(fb, "metric", "turnaround_s"), sec(r.Turnaround))
			check("fig-6.7", fig, with(fb, "metric", "mean_response_s"), sec(r.MeanResponse))
		}
		for k := range cells {
			t.Errorf("%s: paper value at %s is not in the thesis' table", item, k)
		}
	}
	for _, left := range []map[string]analysis.PaperValue{fig, t65} {
		for k := range left {
			t.Errorf("paper value at %s is not in the thesis' tables", k)
		}
	}
}

// with returns a copy of m with the given keys and values added.
func with(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}
