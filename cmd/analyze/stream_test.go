package main

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/pipelines"
)

// TestStreamingMatchesWholeRun: analyze streams a run through
// accumulators that keep only the values its columns need; every column
// of --all must be what a computation over the whole run in memory gives
// (a sorted copy for the order statistics, exactly; gonum's mean and
// standard deviation, to rounding), and the default columns the same
// values as --all's.
func TestStreamingMatchesWholeRun(t *testing.T) {
	tmp := t.TempDir()
	run, err := pipelines.ParseRun([]byte(`{"workload": {"source": {"lublin": {"jobs": 3000, "procs": 64}}, "seed": 5},
		"replay": {"policy": "easy"}}`))
	if err != nil {
		t.Fatal(err)
	}
	done, err := (&pipelines.Sweep{Cache: &pipelines.Cache{Dir: tmp}}).Do([]*pipelines.Run{run}, []pipelines.Point{{}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(done[0].Dir, "outcomes.parquet")
	whole, err := readOutcomes(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	tau := metrics.DefaultTau
	m := metrics.PerJob(whole.outcomes, tau)

	out, _ := mustAnalyze(t, nil, "-q", "--all", "--format", "csv", file)
	_, _, rows := csvTable(t, out)
	got := rows[0]
	num := func(col string) float64 {
		v, err := strconv.ParseFloat(got[col], 64)
		if err != nil {
			t.Fatalf("%s: %q", col, got[col])
		}
		return v
	}
	if got["jobs"] != strconv.Itoa(len(m.ID)) || num("makespan_s") != metrics.Makespan(whole.outcomes).Seconds() ||
		num("utilization") != metrics.Utilization(whole.outcomes, 64) {
		t.Errorf("run metrics: %v", got)
	}
	for _, c := range []struct {
		name string
		x    []float64
	}{{"wait_s", m.Wait}, {"response_s", m.Response}, {"bsld", m.BoundedSlowdown}, {"ts_bsld", m.TimeSharingBoundedSlowdown}} {
		s := slices.Clone(c.x)
		slices.Sort(s)
		for _, q := range []struct {
			suffix string
			p      float64
		}{{"min", 0}, {"p5", 0.05}, {"p25", 0.25}, {"median", 0.5}, {"p75", 0.75}, {"p95", 0.95}, {"max", 1}} {
			if want := metrics.Quantile(q.p, s); num(c.name+"_"+q.suffix) != want {
				t.Errorf("%s_%s = %v, want %v (a sorted copy's)", c.name, q.suffix, num(c.name+"_"+q.suffix), want)
			}
		}
		for _, st := range []struct {
			suffix string
			want   float64
		}{{"mean", stat.Mean(c.x, nil)}, {"sd", stat.StdDev(c.x, nil)}} {
			if v := num(c.name + "_" + st.suffix); math.Abs(v-st.want) > 1e-9*math.Abs(st.want) {
				t.Errorf("%s_%s = %v, want %v", c.name, st.suffix, v, st.want)
			}
		}
	}
	out, _ = mustAnalyze(t, nil, "-q", "--format", "csv", file)
	_, cols, rows := csvTable(t, out)
	for _, col := range cols[1:] {
		if rows[0][col] != got[col] {
			t.Errorf("default column %s = %s, --all's %s", col, rows[0][col], got[col])
		}
	}
}
