package analysis

import (
	"cmp"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload"
)

func writeExperiment(t *testing.T, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "e.json")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAnalysisWorkload: the rows are each run's profile before load
// scaling and compression, the same as measuring the raw workload directly.
func TestAnalysisWorkload(t *testing.T) {
	path := writeExperiment(t, `{
  "item": "frachtenberg/test-workload", "title": "t",
  "run": {"workload": {"source": {"lublin": {"jobs": 400, "procs": 32, "mix": "combined"}}, "load": {"target": 0.7},
          "compress": 100, "seed": 1}, "replay": {"policy": "fcfs"}},
  "grid": [{"name": "seed", "set": "workload.seed", "values": [3, 4]}],
  "analysis": {"kind": "workload"},
  "paper": [{"coords": {"quantity": "jobs"}, "value": 400, "tolerance": 0, "source": "t"}]
}`)
	rep := reproduce(t, path, &pipelines.Cache{Dir: t.TempDir()})
	if len(rep.Item.Rows) != 2*6 || rep.Figure != nil {
		t.Fatalf("%d rows, figure %v", len(rep.Item.Rows), rep.Figure != nil)
	}
	raw := workload.Spec{Source: workload.Source{Lublin: &workload.LublinSource{Jobs: 400, Procs: 32, Mix: "combined"}}, Seed: 4}
	r, err := raw.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want, err := workload.MeasureProfile(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, row := range rep.Item.Rows {
		if row.Coord("seed") == "4" {
			got[row.Coord("quantity")] = row.Gangsim
		}
		if row.Coord("quantity") == "jobs" && (!row.HasPaper || !row.Within()) {
			t.Errorf("jobs row %+v: want the paper's 400, within", row)
		}
	}
	if got["span_days"] != want.SpanDays || got["median_size"] != want.MedianSize || got["raw_load"] != want.Load ||
		got["power_of_two_share_parallel"] != want.PowerOfTwoShare || got["interarrival_cv"] != want.InterarrivalCV || got["jobs"] != 400 {
		t.Errorf("seed 4 rows %v, want the raw profile %+v", got, want)
	}
}

// TestAnalysisSaturationCheck: the check's rows follow from the runs'
// decisions, recomputed here: per replica its own point, and by majority
// over blocks of replicas.
func TestAnalysisSaturationCheck(t *testing.T) {
	path := writeExperiment(t, `{
  "item": "method/test-check", "title": "t",
  "run": {"workload": {"source": {"synthetic": {"jobs": 2000, "procs": 8}}, "load": {"target": 1}, "seed": 1},
          "replay": {"policy": "fcfs"}},
  "grid": [
    {"name": "arrivals", "set": "workload.source.synthetic.arrivals", "values": ["poisson", "daily"]},
    {"name": "load", "set": "workload.load.target", "values": [0.7, 0.9, 1.1, 1.3]},
    {"name": "seed", "set": "workload.seed", "values": [1, 2, 3, 4]}
  ],
  "analysis": {"kind": "saturation-check", "x": "load", "replicas": "seed", "truth": 1, "replica_counts": [1, 2, 4]},
  "paper": [{"coords": {"statistic": "point_mean"}, "value": 1, "tolerance": 0.1, "source": "by construction"}]
}`)
	rep := reproduce(t, path, &pipelines.Cache{Dir: t.TempDir()})
	it := rep.Item
	if len(it.Rows) != 2*3*(6+4) {
		t.Fatalf("%d rows, want 60", len(it.Rows))
	}
	// Recompute poisson, blocks of 2 (seeds 1-2 and 3-4).
	dec := map[string]map[string]bool{} // seed -> load -> saturated
	for _, f := range rep.Runs {
		if f.Point.Text("arrivals") != "poisson" {
			continue
		}
		o, _, err := f.Outcomes()
		if err != nil {
			t.Fatal(err)
		}
		s := metrics.SaturatedOutcomes(o)
		if dec[f.Point.Text("seed")] == nil {
			dec[f.Point.Text("seed")] = map[string]bool{}
		}
		dec[f.Point.Text("seed")][f.Point.Text("load")] = s.Saturated
	}
	loads := []float64{0.7, 0.9, 1.1, 1.3}
	names := []string{"0.7", "0.9", "1.1", "1.3"}
	var points []float64
	called := make([]int, len(loads)) // blocks calling each load saturated
	for _, block := range [][]string{{"1", "2"}, {"3", "4"}} {
		d := make([]bool, len(loads))
		for k, l := range names {
			n := 0
			for _, s := range block {
				if dec[s][l] {
					n++
				}
			}
			d[k] = metrics.MajoritySaturated(n, 2)
			if d[k] {
				called[k]++
			}
		}
		p := metrics.SaturationPoint(loads, d).Point
		if math.IsNaN(p) {
			p = 0.7
		}
		points = append(points, p)
	}
	want := map[string]float64{
		"point_mean":              (points[0] + points[1]) / 2,
		"abs_error_mean":          (math.Abs(points[0]-1) + math.Abs(points[1]-1)) / 2,
		"abs_error_max":           math.Max(math.Abs(points[0]-1), math.Abs(points[1]-1)),
		"blocks":                  2,
		"censored_share":          0, // 0.7 and 1.3 are far from 1 (below)
		"0.7 false_positive_rate": float64(called[0]) / 2,
		"0.9 false_positive_rate": float64(called[1]) / 2,
		"1.1 false_negative_rate": 1 - float64(called[2])/2,
		"1.3 false_negative_rate": 1 - float64(called[3])/2,
	}
	seen := 0
	for _, row := range it.Rows {
		if row.Coord("arrivals") != "poisson" || row.Coord("replicas") != "2" {
			continue
		}
		key := row.Coord("statistic")
		if l := row.Coord("load"); l != "all" {
			key = l + " " + key
		}
		if w, ok := want[key]; ok {
			seen++
			if math.Abs(row.Gangsim-w) > 1e-12 {
				t.Errorf("poisson, 2 replicas, %s = %v, want %v", key, row.Gangsim, w)
			}
		}
		if row.Coord("statistic") == "point_mean" && (!row.HasPaper || row.Paper != 1) {
			t.Errorf("point_mean row without the truth as its reference: %+v", row)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d statistics recomputed found in the rows", seen, len(want))
	}
	// At 2000 jobs on 8 servers, loads 0.7 and 1.3 are far from 1: every
	// seed gets 0.9 or 1.1 as its point.
	for _, row := range it.Rows {
		if row.Coord("replicas") == "1" && row.Coord("statistic") == "abs_error_max" && row.Gangsim > 0.1+1e-9 {
			t.Errorf("%s: a single seed's point is %v from 1", row.Coord("arrivals"), row.Gangsim)
		}
	}
	if !strings.Contains(it.Notes, "arrivals poisson: saturated runs per load (of 4) 0.7: ") ||
		!strings.Contains(it.Notes, "; points by replicas voting 1: mean") {
		t.Errorf("notes: %s", it.Notes)
	}

	// A grid that never reaches saturation, or starts past it: the points
	// are censored, flagged as such, and their error is a bound.
	for _, tt := range []struct {
		loads, note string
	}{
		{"[0.5, 0.6]", "largest error at least 0.4 (4 of 4 points beyond the grid, counted at its edge: 4 above 0.6; seed 1 >0.6, seed 2 >0.6, seed 3 >0.6, seed 4 >0.6)"},
		{"[1.4, 1.6]", "largest error at least 0.4 (4 of 4 points beyond the grid, counted at its edge: 4 below 1.4; seed 1 <1.4, seed 2 <1.4, seed 3 <1.4, seed 4 <1.4)"},
	} {
		path := writeExperiment(t, `{
  "item": "method/test-check", "title": "t",
  "run": {"workload": {"source": {"synthetic": {"jobs": 2000, "procs": 8}}, "load": {"target": 1}, "seed": 1},
          "replay": {"policy": "fcfs"}},
  "grid": [
    {"name": "load", "set": "workload.load.target", "values": `+tt.loads+`},
    {"name": "seed", "set": "workload.seed", "values": [1, 2, 3, 4]}
  ],
  "analysis": {"kind": "saturation-check", "x": "load", "replicas": "seed", "truth": 1, "replica_counts": [1]}
}`)
		it := reproduce(t, path, &pipelines.Cache{Dir: t.TempDir()}).Item
		if !strings.Contains(it.Notes, tt.note) {
			t.Errorf("loads %s: notes %q, want %q", tt.loads, it.Notes, tt.note)
		}
		for _, row := range it.Rows {
			if row.Coord("statistic") == "censored_share" && row.Gangsim != 1 {
				t.Errorf("loads %s: censored share %v, want 1", tt.loads, row.Gangsim)
			}
			if strings.HasSuffix(row.Coord("statistic"), "_rate") && row.Gangsim != 0 {
				t.Errorf("loads %s: %s at %s = %v, want 0", tt.loads, row.Coord("statistic"), row.Coord("load"), row.Gangsim)
			}
		}
	}

	for _, tt := range []struct{ analysis, err string }{
		{`{"kind": "saturation-check", "x": "load", "replicas": "seed"}`, "needs a replicas axis and the true saturation load"},
		{`{"kind": "saturation-check", "x": "load", "truth": 1}`, "needs a replicas axis"},
		{`{"kind": "saturation-check", "replicas": "seed", "truth": 1}`, `needs an x axis`},
		{`{"kind": "saturation-check", "x": "load", "replicas": "seed", "truth": 1, "replica_counts": [0]}`, "replica count 0"},
	} {
		_, _, err := LoadExperiment(smallExperiment(t, tt.analysis, ""))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want %s", tt.analysis, err, tt.err)
		}
	}
}

// TestAnalysisHalves: a "metrics" analysis with halves gives every metric
// for all jobs and for the short and long halves by dedicated runtime,
// recomputed here from the runs; the all-jobs rows are those of the
// analysis without halves; the figure has a panel per metric and half.
func TestAnalysisHalves(t *testing.T) {
	cache := &pipelines.Cache{Dir: t.TempDir()}
	rep := reproduce(t, smallExperiment(t, `{"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed",
    "metrics": ["response_s_mean", "wait_s_median"], "halves": true, "plot": {"keep_saturated": true}}`, ""), cache)
	plain := reproduce(t, smallExperiment(t, `{"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed",
    "metrics": ["response_s_mean", "wait_s_median"]}`, ""), cache)
	if len(rep.Item.Rows) != 2*2*3*2 || len(plain.Item.Rows) != 2*2*2 {
		t.Fatalf("%d rows with halves, %d without", len(rep.Item.Rows), len(plain.Item.Rows))
	}
	value := func(rows []repro.Row, pol, load, half, metric string) float64 {
		for _, r := range rows {
			if r.Coord("policy") == pol && r.Coord("load") == load && r.Coord("half") == half && r.Coord("metric") == metric {
				return r.Gangsim
			}
		}
		t.Fatalf("no row %s %s %s %s", pol, load, half, metric)
		return 0
	}
	for _, pol := range []string{"fcfs", "easy"} {
		for _, load := range []string{"0.5", "0.9"} {
			for _, m := range []string{"response_s_mean", "wait_s_median"} {
				if a, b := value(rep.Item.Rows, pol, load, "all", m), value(plain.Item.Rows, pol, load, "", m); a != b {
					t.Errorf("%s %s %s: all jobs %v, without halves %v", pol, load, m, a, b)
				}
			}
			// The short half's mean response, over the jobs with the 150
			// shortest dedicated runtimes of each seed's run, averaged
			// over the two seeds.
			want := 0.0
			for _, f := range rep.Runs {
				if f.Point.Text("policy") != pol || f.Point.Text("load") != load {
					continue
				}
				o, _, err := f.Outcomes()
				if err != nil {
					t.Fatal(err)
				}
				// Shortest first, ties by job ID; the first half is short.
				idx := make([]int, len(o))
				for i := range idx {
					idx[i] = i
				}
				slices.SortFunc(idx, func(a, b int) int {
					if o[a].Dedicated != o[b].Dedicated {
						return cmp.Compare(o[a].Dedicated, o[b].Dedicated)
					}
					return cmp.Compare(o[a].JobID, o[b].JobID)
				})
				sum := 0.0
				for _, i := range idx[:len(o)/2] {
					sum += o[i].Response().Seconds()
				}
				want += sum / float64(len(o)/2) / 2
			}
			if got := value(rep.Item.Rows, pol, load, "short", "response_s_mean"); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s %s: short half's mean response %v, want %v", pol, load, got, want)
			}
		}
	}
	f := rep.Figure
	if f == nil || len(f.panels) != 2*3 || f.cols != 3 || f.panels[1].title != "Short half" {
		t.Fatalf("figure %+v", f)
	}
	for _, p := range f.panels {
		for _, l := range p.lines {
			if len(l.x) != 2 {
				t.Errorf("panel %q line %q: %d points, want both loads (saturated kept)", p.title, l.name, len(l.x))
			}
		}
	}
	if _, err := rep.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestAnalysisBoxes: the boxes pool the replicas of each x and series
// value; their percentiles are recomputed here from the pooled jobs.
func TestAnalysisBoxes(t *testing.T) {
	rep := reproduce(t, smallExperiment(t, `{"kind": "boxes", "x": "load", "series": "policy", "replicas": "seed",
    "metrics": ["response_s", "ts_bsld"], "plot": {"log_y": true}}`, ""), &pipelines.Cache{Dir: t.TempDir()})
	if len(rep.Item.Rows) != 2*2*2*6 {
		t.Fatalf("%d rows", len(rep.Item.Rows))
	}
	var pooled []float64
	for _, f := range rep.Runs {
		if f.Point.Text("policy") == "easy" && f.Point.Text("load") == "0.9" {
			o, _, err := f.Outcomes()
			if err != nil {
				t.Fatal(err)
			}
			pooled = append(pooled, metrics.PerJob(o, metrics.CompressedTau(100)).Response...)
		}
	}
	want := metrics.Describe(pooled)
	for _, r := range rep.Item.Rows {
		if r.Coord("policy") != "easy" || r.Coord("load") != "0.9" || r.Coord("metric") != "response_s" {
			continue
		}
		w := map[string]float64{"p5": want.P5, "p25": want.P25, "median": want.Median, "p75": want.P75, "p95": want.P95, "mean": want.Mean}[r.Coord("statistic")]
		if r.Gangsim != w {
			t.Errorf("%s: %v, want %v", r.Coord("statistic"), r.Gangsim, w)
		}
	}
	f := rep.Figure
	if f == nil || len(f.panels) != 2 || !f.panels[0].boxes || len(f.panels[0].lines) != 2 || len(f.panels[0].lines[1].boxes) != 2 {
		t.Fatalf("figure %+v", f)
	}
	if _, err := rep.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestAnalysisJobsInSystemSeries: with a series axis, jobs-in-system
// draws two panels per series value, the queue (what the saturation test
// watches) and the jobs in the system (what the thesis' Fig. 6.11 plots),
// each with the rule's marks for its own measure, and labels the rows with
// the series value; the rows give the test's decision on the queue and
// the same rule's on the jobs in the system, recomputed here.
func TestAnalysisJobsInSystemSeries(t *testing.T) {
	e, sha := loadFor(t, `{"kind": "jobs-in-system", "x": "load", "series": "policy"}`)
	e.Grid = e.Grid[:2] // policies and loads, one seed
	rep, err := e.Reproduce(&pipelines.Sweep{Cache: &pipelines.Cache{Dir: t.TempDir()}}, "e", sha)
	if err != nil {
		t.Fatal(err)
	}
	const quantities = 11
	if len(rep.Item.Rows) != 2*2*quantities || rep.Item.Rows[0].Coord("policy") != "fcfs" || rep.Item.Rows[2*quantities].Coord("policy") != "easy" {
		t.Fatalf("%d rows: %+v", len(rep.Item.Rows), rep.Item.Rows[0])
	}
	f := rep.Figure
	if f == nil || len(f.panels) != 4 || f.panels[2].title != "easy: jobs waiting (the test's)" ||
		f.panels[3].title != "easy: jobs in the system (Fig. 6.11's)" || len(f.panels[3].lines) != 2 {
		t.Fatalf("figure %+v", f)
	}
	// easy at 0.9 is the second line of panels 2 and 3.
	var run *pipelines.Finished
	for _, r := range rep.Runs {
		if r.Point.Text("policy") == "easy" && r.Point.Text("load") == "0.9" {
			run = r
		}
	}
	o, _, err := run.Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	s, err := run.Samples()
	if err != nil {
		t.Fatal(err)
	}
	first, last := metrics.ArrivalPeriod(o)
	q := metrics.Saturated(s, first, last)
	n := metrics.SaturationTest{Measure: metrics.BacklogInSystem}.Judge(s, first, last)
	cut := (first + model.Time(0.625*float64(last-first))).Seconds()
	for k, want := range map[int]metrics.Saturation{2: q, 3: n} {
		p := f.panels[k]
		m := p.marks
		if m == nil || len(m.levels) != 2 || m.levels[1] != float64(want.ClearLevel) || m.from[1] != cut || m.to[1] != last.Seconds() ||
			!slices.Equal(m.verticals, []float64{first.Seconds(), cut, last.Seconds()}) {
			t.Errorf("panel %q: marks %+v, want level %d from %v to %v", p.title, m, want.ClearLevel, cut, last.Seconds())
		}
		if p.lines[1].y[len(p.lines[1].y)-1] != 0 {
			t.Errorf("panel %q: the backlog does not end at 0", p.title)
		}
	}
	got := map[string]float64{}
	for _, r := range rep.Item.Rows {
		if r.Coord("policy") == "easy" && r.Coord("load") == "0.9" {
			got[r.Coord("quantity")] = r.Gangsim
		}
	}
	if got["clear_level"] != float64(q.ClearLevel) || got["cleared_at"] != q.ClearedAt ||
		got["clear_level_in_system"] != float64(n.ClearLevel) || got["cleared_at_in_system"] != n.ClearedAt {
		t.Errorf("rows %v, want the queue's test %+v and the jobs in the system's %+v", got, q, n)
	}
	if _, err := rep.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}
