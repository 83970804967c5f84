package analysis

import (
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/plots"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/swf"
)

// smallExperiment is a quick experiment of the given analysis: 300 Lublin
// jobs on 32 processors, two policies, two loads, two seeds.
func smallExperiment(t *testing.T, analysis string, extra string) string {
	t.Helper()
	doc := `{
  "item": "frachtenberg/test-item",
  "title": "a test",
  "run": {"workload": {"source": {"lublin": {"jobs": 300, "procs": 32}}, "estimates": {"mode": "loose"},
          "load": {"target": 0.6}, "compress": 100, "seed": 1}, "replay": {"policy": "fcfs"}},
  "grid": [
    {"name": "policy", "set": "replay.policy", "values": ["fcfs", "easy"]},
    {"name": "load", "set": "workload.load.target", "values": [0.5, 0.9]},
    {"name": "seed", "set": "workload.seed", "values": [1, 2]}
  ],
  "analysis": ` + analysis + extra + `
}`
	p := filepath.Join(t.TempDir(), "e.json")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadFor loads smallExperiment with an analysis its whole grid allows,
// then gives it analysis (JSON): for a test that narrows the grid
// before reproducing (the grid check of LoadExperiment would refuse the
// analysis over the whole grid).
func loadFor(t *testing.T, analysis string) (*Experiment, string) {
	t.Helper()
	e, sha, err := LoadExperiment(smallExperiment(t, `{"kind": "metrics", "metrics": ["jobs"]}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	e.Analysis = Analysis{}
	if err := json.Unmarshal([]byte(analysis), &e.Analysis); err != nil {
		t.Fatal(err)
	}
	return e, sha
}

func reproduce(t *testing.T, path string, cache *pipelines.Cache) *Reproduction {
	t.Helper()
	e, sha, err := LoadExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, path, sha)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestExperimentMetrics(t *testing.T) {
	cache := &pipelines.Cache{Dir: t.TempDir()}
	path := smallExperiment(t, `{"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed",
    "metrics": ["response_s_mean", "utilization"]}`, `,
  "paper": [{"coords": {"policy": "easy", "load": "0.5", "metric": "utilization"}, "value": 0.5, "tolerance": 0.2, "source": "made up"}],
  "claims": [
    {"text": "EASY responds faster than FCFS", "kind": "less-everywhere", "a": {"policy": "easy", "metric": "response_s_mean"}, "b": {"policy": "fcfs", "metric": "response_s_mean"}},
    {"text": "response grows with load", "kind": "less", "a": {"policy": "easy", "load": "0.5", "metric": "response_s_mean"}, "b": {"policy": "easy", "load": "0.9", "metric": "response_s_mean"}}
  ]`)
	rep := reproduce(t, path, cache)
	it := rep.Item
	if len(it.Rows) != 2*2*2 || len(rep.Runs) != 8 || rep.Cached != 0 {
		t.Fatalf("%d rows from %d runs (%d cached)", len(it.Rows), len(rep.Runs), rep.Cached)
	}
	// Rows: policy, load, saturated, metric; the value is the mean of the
	// two seeds' runs, which the test recomputes from the runs.
	var runs []*pipelines.Finished
	for _, f := range rep.Runs {
		if f.Point.Text("policy") == "easy" && f.Point.Text("load") == "0.5" {
			runs = append(runs, f)
		}
	}
	want := 0.0
	for _, f := range runs {
		want += meanResponse(t, f) / 2
	}
	found := false
	for _, r := range it.Rows {
		if r.Coord("policy") == "easy" && r.Coord("load") == "0.5" && r.Coord("metric") == "response_s_mean" {
			found = true
			if d := r.Gangsim - want; d > 1e-9*want || d < -1e-9*want {
				t.Errorf("mean response %v, want %v", r.Gangsim, want)
			}
		}
		if r.Coord("metric") == "utilization" && r.Coord("policy") == "easy" && r.Coord("load") == "0.5" && !r.HasPaper {
			t.Error("paper value not applied")
		}
	}
	if !found {
		t.Error("no easy/0.5/response_s_mean row")
	}
	if len(it.Claims) != 2 || !it.Claims[0].Holds || !it.Claims[1].Holds {
		t.Errorf("claims %+v", it.Claims)
	}
	if rep.Figure == nil {
		t.Fatal("no figure")
	}
	results := t.TempDir()
	if _, err := rep.Write(results); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(results, "frachtenberg", it.Name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Error(err)
	}
	csv, err := os.ReadFile(filepath.Join(results, "frachtenberg", it.Name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	back, h, err := repro.ReadCSV(strings.NewReader(string(csv)), "x")
	if err != nil || len(back.Rows) != len(it.Rows) || back.Figure != "frachtenberg/"+it.Name+".png" {
		t.Fatalf("read back: %v, %+v", err, back)
	}
	if v, _ := h.Get("GangsimInput"); !strings.HasSuffix(v, path) {
		t.Errorf("manifest input %q", v)
	}

	// Everything is cached the second time, and the CSV is the same bytes.
	again := reproduce(t, path, cache)
	if again.Cached != 8 {
		t.Errorf("%d of 8 runs cached", again.Cached)
	}
	results2 := t.TempDir()
	if _, err := again.Write(results2); err != nil {
		t.Fatal(err)
	}
	csv2, _ := os.ReadFile(filepath.Join(results2, "frachtenberg", it.Name+".csv"))
	if string(csv2) != string(csv) {
		t.Error("a rerun wrote a different CSV")
	}
}

func TestExperimentOtherKinds(t *testing.T) {
	cache := &pipelines.Cache{Dir: t.TempDir()}
	sat := reproduce(t, smallExperiment(t, `{"kind": "saturation", "x": "load", "series": "policy", "replicas": "seed"}`, ""), cache)
	if len(sat.Item.Rows) != 2 || sat.Item.Rows[0].Coord("policy") != "fcfs" || sat.Figure != nil {
		t.Errorf("saturation rows %+v", sat.Item.Rows)
	}
	// Recompute each policy's point: the two seeds vote at each load.
	for _, r := range sat.Item.Rows {
		k := map[float64]int{}
		for _, f := range sat.Runs {
			if f.Point.Text("policy") != r.Coord("policy") {
				continue
			}
			o, _, err := f.Outcomes()
			if err != nil {
				t.Fatal(err)
			}
			samples, err := f.Samples()
			if err != nil {
				t.Fatal(err)
			}
			first, last := metrics.ArrivalPeriod(o)
			x, _ := strconv.ParseFloat(f.Point.Text("load"), 64)
			if metrics.Saturated(samples, first, last).Saturated {
				k[x]++
			}
		}
		loads := []float64{0.5, 0.9}
		decided := []bool{metrics.MajoritySaturated(k[0.5], 2), metrics.MajoritySaturated(k[0.9], 2)}
		want := metrics.SaturationPoint(loads, decided).Point
		if got := r.Gangsim; got != want && !(got != got && want != want) {
			t.Errorf("%s: saturation point %v, want %v (votes %v)", r.Coord("policy"), got, want, k)
		}
	}
	// Loaded with an analysis its grid allows, then given one load and
	// the CDF (whose grid check comes before the runs).
	ce, sha, err := LoadExperiment(smallExperiment(t, `{"kind": "metrics", "metrics": ["jobs"]}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	ce.Grid[1].Values = ce.Grid[1].Values[1:] // one load
	ce.Analysis = Analysis{Kind: "cdf", Series: "policy", Replicas: "seed", Metrics: []string{"wait_s"}, Halves: true}
	cdf, err := ce.Reproduce(&pipelines.Sweep{Cache: cache}, "e", sha)
	if err != nil {
		t.Fatal(err)
	}
	// policy x half x 6 statistics; short-half p95 <= long-half p95 is not
	// guaranteed, but every percentile row must be ordered.
	if len(cdf.Item.Rows) != 2*2*6 || cdf.Figure == nil || len(cdf.Figure.panels) != 2 {
		t.Fatalf("cdf: %d rows", len(cdf.Item.Rows))
	}
	get := func(pol, half, stat string) float64 {
		for _, r := range cdf.Item.Rows {
			if r.Coord("policy") == pol && r.Coord("half") == half && r.Coord("statistic") == stat {
				return r.Gangsim
			}
		}
		t.Fatalf("no row %s %s %s", pol, half, stat)
		return 0
	}
	for _, pol := range []string{"fcfs", "easy"} {
		for _, h := range []string{"short", "long"} {
			if !(get(pol, h, "p5") <= get(pol, h, "p25") && get(pol, h, "p25") <= get(pol, h, "median") &&
				get(pol, h, "median") <= get(pol, h, "p75") && get(pol, h, "p75") <= get(pol, h, "p95")) {
				t.Errorf("%s %s percentiles out of order", pol, h)
			}
		}
	}
	// jobs-in-system needs every axis but x to have one value.
	e, _, err := LoadExperiment(smallExperiment(t, `{"kind": "metrics", "metrics": ["jobs"]}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	e.Analysis = Analysis{Kind: "jobs-in-system", X: "load"}
	if _, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, "e", ""); err == nil || !strings.Contains(err.Error(), `axis "policy" has 2 values`) {
		t.Errorf("jobs-in-system over a grid of policies: %v", err)
	}
	e.Analysis = Analysis{Kind: "saturation", X: "load", Series: "policy"}
	if _, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, "e", ""); err == nil || !strings.Contains(err.Error(), `axis "seed" has 2 values`) {
		t.Errorf("jobs-in-system over a grid of policies: %v", err)
	}
	e.Analysis = Analysis{Kind: "jobs-in-system", X: "load"}
	e.Grid = e.Grid[1:2] // loads only
	jis, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, "e", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(jis.Item.Rows) != 2*11 || jis.Figure == nil || len(jis.Figure.panels) != 2 || len(jis.Figure.panels[0].lines) != 2 {
		t.Errorf("jobs-in-system: %d rows", len(jis.Item.Rows))
	}
}

func TestExperimentErrors(t *testing.T) {
	for _, tt := range []struct{ analysis, extra, err string }{
		{`{"kind": "bars"}`, "", `analysis: unknown kind "bars" (want metrics, saturation, jobs-in-system, cdf, boxes, workload, saturation-check, jobs or filler)`},
		{`{"kind": "metrics", "metrics": ["jobs"], "panels": "policy"}`, "", `panels, optimum, baseline, length, slack and plot.bars belong to kinds jobs and filler, not "metrics"`},
		{`{"kind": "metrics", "x": "load", "metrics": ["jobs"], "labels": {"load": {"0.5": "half"}}}`, "", `labels for axis "load": kind metrics draws or averages its values as numbers`},
		{`{"kind": "cdf", "series": "policy", "replicas": "seed", "metrics": ["wait_s"], "labels": {"seed": {"1": "one"}}}`, "", `labels for axis "seed": kind cdf draws or averages`},
		{`{"kind": "metrics", "metrics": ["jobs"], "labels": {"policy": {"fcfs": "batch", "easy": "batch"}}}`, "", `labels for axis "policy": values "easy" and "fcfs" are both named "batch"`},
		{`{"kind": "metrics", "metrics": ["jobs"], "labels": {"policy": {"fcfs": ""}}}`, "", `labels for axis "policy": value "fcfs" has an empty name`},
		{`{"kind": "jobs", "labels": {"algorithm": {"fcfs": "FCFS"}}}`, "", `labels for axis "algorithm", which is not in the grid`},
		{`{"kind": "jobs", "replicas": "seed"}`, "", `kind jobs compares single runs: no replicas axis`},
		{`{"kind": "jobs", "optimum": "optimal"}`, "", `the optimum is a value of the series axis`},
		{`{"kind": "jobs", "x": "load", "metrics": ["slowdown_pct"]}`, "", `slowdown_pct needs a baseline`},
		{`{"kind": "jobs", "metrics": ["utilization"]}`, "", `kind jobs draws "utilization"`},
		{`{"kind": "jobs", "baseline": {"policy": "fcfs", "load": "0.5"}}`, "", `baseline: one axis and value, got 2`},
		{`{"kind": "filler", "x": "load"}`, "", `kind filler needs an x axis (the machine sizes) and a length axis`},
		{`{"kind": "filler", "x": "load", "length": "policy", "slack": 1.5}`, "", `slack 1.5, want a share in [0, 1)`},
		{`{"kind": "filler", "x": "load", "length": "policy", "series": "policy"}`, "", `kind filler takes x, length, slack and labels only`},
		{`{"kind": "boxes", "x": "load", "metrics": ["response_s_mean"]}`, "", `analysis: kind boxes: unknown per-job metric "response_s_mean"`},
		{`{"kind": "boxes", "metrics": ["response_s"]}`, "", `analysis: kind "boxes" needs an x axis`},
		{`{"kind": "metrics", "metrics": ["jobs"]}`, `, "claims": [{"text": "t", "kind": "decreasing", "a": {"policy": "a"}}]`, `claim "t": kind decreasing needs rows a and a coordinate over`},
		{`{"kind": "metrics", "x": "load", "metrics": ["speed"]}`, "", `analysis: unknown metric "speed"`},
		{`{"kind": "saturation"}`, "", `analysis: kind "saturation" needs an x axis`},
		{`{"kind": "cdf", "metrics": ["utilization"]}`, "", `analysis: kind cdf needs one per-job metric`},
		{`{"kind": "metrics", "x": "loads", "metrics": ["jobs"]}`, "", `analysis: x axis "loads" is not in the grid`},
		{`{"kind": "metrics", "metrics": ["jobs"]}`, `, "claims": [{"text": "t", "kind": "bigger"}]`, `claim "t": unknown kind "bigger"`},
	} {
		_, _, err := LoadExperiment(smallExperiment(t, tt.analysis, tt.extra))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want %s", tt.analysis, err, tt.err)
		}
	}
	// A paper value that matches no cell is an error, not a silent skip.
	path := smallExperiment(t, `{"kind": "saturation", "x": "load", "series": "policy", "replicas": "seed"}`,
		`, "paper": [{"coords": {"policy": "gs"}, "value": 0.83, "tolerance": 0.05, "source": "x"}]`)
	e, sha, err := LoadExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Reproduce(&pipelines.Sweep{Cache: &pipelines.Cache{Dir: t.TempDir()}}, path, sha); err == nil || !strings.Contains(err.Error(), "matches no cell") {
		t.Errorf("unmatched paper value: %v", err)
	}
}

// TestExperimentLabels: labels name the series of every kind of analysis,
// in the rows, the figure's legend and the notes, while paper values and
// claims may give a value or its name.
func TestExperimentLabels(t *testing.T) {
	cache := &pipelines.Cache{Dir: t.TempDir()}
	labels := `, "labels": {"policy": {"fcfs": "FCFS", "easy": "EASY"}}}`
	for _, tt := range []struct{ analysis, extra string }{
		{`{"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed", "metrics": ["response_s_mean"]` + labels,
			`, "paper": [{"coords": {"policy": "easy", "load": "0.5", "metric": "response_s_mean"}, "value": 1, "tolerance": 1e9, "source": "made up"}],
  "claims": [{"text": "EASY responds faster than FCFS", "kind": "less-everywhere", "a": {"policy": "easy", "metric": "response_s_mean"}, "b": {"policy": "FCFS", "metric": "response_s_mean"}},
             {"text": "alternatives", "kind": "at-least", "a": {"policy": "easy|fcfs", "metric": "response_s_mean"}, "value": 0}]`},
		{`{"kind": "saturation", "x": "load", "series": "policy", "replicas": "seed"` + labels, ""},
		{`{"kind": "cdf", "series": "policy", "metrics": ["wait_s"]` + labels, ""},
		{`{"kind": "boxes", "x": "load", "series": "policy", "replicas": "seed", "metrics": ["wait_s"]` + labels, ""},
	} {
		var e *Experiment
		path := "x"
		if strings.Contains(tt.analysis, "cdf") {
			e, _ = loadFor(t, tt.analysis)
			e.Grid = e.Grid[:1] // one load and seed: the CDF pools a series' runs
		} else {
			var err error
			path = smallExperiment(t, tt.analysis, tt.extra)
			if e, _, err = LoadExperiment(path); err != nil {
				t.Fatalf("%s: %v", tt.analysis, err)
			}
		}
		rep, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, path, "x")
		if err != nil {
			t.Fatalf("%s: %v", e.Analysis.Kind, err)
		}
		seen := map[string]bool{}
		for _, r := range rep.Item.Rows {
			seen[r.Coord("policy")] = true
			if e.Analysis.Kind == "metrics" && r.Coord("policy") == "EASY" && r.Coord("load") == "0.5" && !r.HasPaper {
				t.Errorf("metrics: the paper value given by the policy's value is not applied")
			}
		}
		if !seen["FCFS"] || !seen["EASY"] || seen["fcfs"] || seen["easy"] {
			t.Errorf("%s: rows' policies %v, want FCFS and EASY", e.Analysis.Kind, seen)
		}
		for _, c := range rep.Item.Claims {
			if !c.Holds {
				t.Errorf("%s: claim %q: %s", e.Analysis.Kind, c.Text, c.Note)
			}
		}
		if e.Analysis.Kind == "saturation" && (!strings.Contains(rep.Item.Notes, "EASY: point") || strings.Contains(rep.Item.Notes, "easy: point")) {
			t.Errorf("saturation notes do not name the series: %s", rep.Item.Notes)
		}
		if f := rep.Figure; f != nil {
			var names []string
			for _, p := range f.panels {
				for _, l := range p.lines {
					names = append(names, l.name)
				}
			}
			if !slices.Contains(names, "EASY") || slices.Contains(names, "easy") {
				t.Errorf("%s: figure's series %v, want the names", e.Analysis.Kind, names)
			}
		}
	}
}

func TestClaims(t *testing.T) {
	row := func(pol, load, sat string, v float64) repro.Row {
		return repro.Row{Coords: []repro.Coord{{Name: "policy", Value: pol}, {Name: "load", Value: load}, {Name: "saturated", Value: sat}, {Name: "metric", Value: "m"}}, Gangsim: v}
	}
	rows := []repro.Row{
		row("a", "0.5", "0/2", 1), row("a", "0.7", "0/2", 2), row("a", "0.9", "2/2", 30),
		row("b", "0.5", "0/2", 3), row("b", "0.7", "1/2", 2.5), row("b", "0.9", "2/2", 40),
	}
	for _, tt := range []struct {
		spec  string
		holds bool
		note  string
	}{
		{`{"text": "t", "kind": "less", "a": {"policy": "a", "load": "0.5"}, "b": {"policy": "b", "load": "0.5"}}`, true, "1 < 3"},
		{`{"text": "t", "kind": "less-everywhere", "a": {"policy": "a"}, "b": {"policy": "b"}}`, true, "3 of 3 pairs hold; largest difference -0.5"},
		{`{"text": "t", "kind": "less-everywhere", "a": {"policy": "b"}, "b": {"policy": "a"}}`, false, "3 of 3 pairs fail"},
		{`{"text": "t", "kind": "ratio-at-least", "a": {"policy": "b", "load": "0.9"}, "b": {"policy": "a", "load": "0.9"}, "value": 1.3}`, true, "ratio 1.33333 (at least 1.3)"},
		{`{"text": "t", "kind": "linear", "a": {"policy": "a"}, "over": "load", "value": 0.9}`, false, "R^2 0.77"},
		{`{"text": "t", "kind": "linear", "a": {"policy": "b"}, "over": "load", "value": 0.5, "unsaturated": true}`, false, "too few points to fit a line: 1 of at least 3"},
		{`{"text": "t", "kind": "less", "a": {"policy": "a"}, "b": {"policy": "b", "load": "0.5"}}`, false, "3 rows match"},
		{`{"text": "t", "kind": "less-all", "a": {"policy": "a", "load": "0.5|0.7"}, "b": {"policy": "b", "load": "0.5|0.7"}}`, true, "largest of a 2 (policy=a,load=0.7,metric=m) vs smallest of b 2.5"},
		{`{"text": "t", "kind": "less-all", "a": {"policy": "a"}, "b": {"policy": "b"}}`, false, "largest of a 30"},
		{`{"text": "t", "kind": "less-all", "a": {"policy": "a", "load": "0.5"}, "b": {"policy": "b", "load": "0.5|0.7"}}`, true, "largest of a 1"},
		{`{"text": "t", "kind": "less-all", "a": {"policy": "c"}, "b": {"policy": "b"}}`, false, "0 rows match a, 3 match b"},
		{`{"text": "t", "kind": "at-most", "a": {"load": "0.5|0.7"}, "value": 3}`, true, "largest 3 (policy=b,load=0.5,metric=m), at most 3"},
		{`{"text": "t", "kind": "at-most", "a": {"policy": "a"}, "value": 3}`, false, "largest 30"},
		{`{"text": "t", "kind": "at-least", "a": {"load": "0.5|0.7"}, "value": 1}`, true, "smallest 1 (policy=a,load=0.5,metric=m), at least 1"},
		{`{"text": "t", "kind": "at-least", "a": {"policy": "b"}, "value": 3}`, false, "smallest 2.5"},
		{`{"text": "t", "kind": "in-window", "a": {"load": "0.5|0.7"}, "value": 1, "max": 3}`, false, "4 rows from 1 to 3, window [1, 3); 1 outside: policy=b,load=0.5,metric=m: 3"},
		{`{"text": "t", "kind": "in-window", "a": {"load": "0.5|0.7"}, "value": 1, "max": 3.5}`, true, "4 rows from 1 to 3, window [1, 3.5)"},
		{`{"text": "t", "kind": "ratio-between", "a": {"policy": "b", "load": "0.7"}, "b": {"policy": "a", "load": "0.7"}, "value": 1.2, "max": 1.3}`, true, "ratio 1.25 (1.2 to 1.3)"},
		{`{"text": "t", "kind": "ratio-between", "a": {"policy": "b", "load": "0.7"}, "b": {"policy": "a", "load": "0.7"}, "value": 0.5, "max": 1.2}`, false, "ratio 1.25"},
		{`{"text": "t", "kind": "increasing", "a": {"policy": "a"}, "over": "load"}`, true, "increasing by load: 0.5: 1, 0.7: 2, 0.9: 30"},
		{`{"text": "t", "kind": "increasing", "a": {"policy": "b"}, "over": "load"}`, false, "0.5: 3, 0.7: 2.5"},
		{`{"text": "t", "kind": "decreasing", "a": {"policy": "b", "load": "0.5|0.7"}, "over": "load"}`, true, "decreasing"},
		{`{"text": "t", "kind": "increasing", "a": {"policy": "a"}, "over": "load", "value": 1}`, false, "increasing by load (steps of more than 1): 0.5: 1, 0.7: 2"},
		{`{"text": "t", "kind": "increasing", "a": {"policy": "a"}, "over": "load", "value": 0.9}`, true, "steps of more than 0.9"},
		{`{"text": "t", "kind": "spread-at-most", "a": {"load": "0.7"}, "value": 0.5}`, true, "from 2 to 2.5 over 2 rows: spread 0.5"},
		{`{"text": "t", "kind": "spread-at-most", "a": {"load": "0.5"}, "value": 1}`, false, "spread 2"},
		{`{"text": "t", "kind": "least", "a": {"policy": "a", "load": "0.5"}, "b": {"metric": "m"}}`, true, "1, below all 5 others"},
		{`{"text": "t", "kind": "least", "a": {"policy": "b", "load": "0.7"}, "b": {"metric": "m"}}`, false, "2.5 is not below 2 of 5 others: policy=a,load=0.5,metric=m: 1; policy=a,load=0.7,metric=m: 2"},
		{`{"text": "t", "kind": "least", "a": {"policy": "b", "load": "0.7"}, "b": {"policy": "b", "load": "0.7"}}`, false, "no other rows match"},
	} {
		var c ClaimSpec
		if err := json.Unmarshal([]byte(tt.spec), &c); err != nil {
			t.Fatal(err)
		}
		got := c.evaluate(rows)
		if got.Holds != tt.holds || !strings.Contains(got.Note, tt.note) {
			t.Errorf("%s: holds %v note %q, want %v and %q", tt.spec, got.Holds, got.Note, tt.holds, tt.note)
		}
	}
}

// TestUserStudy: an experiment under a key of one's own (not a seed
// paper's) runs, is cached, and writes its item under results/<key>/ in
// the formats its "figure" field asks for, with the same report.
func TestUserStudy(t *testing.T) {
	doc := `{
  "item": "my-study/easy-vs-fcfs",
  "title": "EASY against FCFS by load",
  "run": {"workload": {"source": {"lublin": {"jobs": 200, "procs": 32}}, "load": {"target": 0.6}, "seed": 1},
          "replay": {"policy": "fcfs"}},
  "grid": [
    {"name": "policy", "set": "replay.policy", "values": ["fcfs", "easy"]},
    {"name": "load", "set": "workload.load.target", "values": [0.5, 0.8]}
  ],
  "analysis": {"kind": "metrics", "x": "load", "series": "policy", "metrics": ["wait_s_mean"]},
  "figure": {"size": "6inx4in", "dpi": 100, "formats": ["png", "pdf"]}
}`
	path := filepath.Join(t.TempDir(), "study.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := &pipelines.Cache{Dir: t.TempDir()}
	results := t.TempDir()
	rep := reproduce(t, path, cache)
	if rep.Cached != 0 || rep.Item.Key() != "my-study/easy-vs-fcfs" {
		t.Errorf("first run: %d cached, key %s", rep.Cached, rep.Item.Key())
	}
	written, err := rep.Write(results)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"easy-vs-fcfs.csv", "easy-vs-fcfs.png", "easy-vs-fcfs.pdf"}
	for i, w := range want {
		if i >= len(written) || written[i] != filepath.Join(results, "my-study", w) {
			t.Errorf("written %v, want %v under my-study/", written, want)
			break
		}
	}
	f, err := os.Open(filepath.Join(results, "my-study", "easy-vs-fcfs.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() != 600 || img.Bounds().Dy() != 400 {
		t.Errorf("6 x 4 in at 100 dpi: %v, %v", img.Bounds(), err)
	}
	if again := reproduce(t, path, cache); again.Cached != 4 {
		t.Errorf("rerun: %d of 4 runs cached", again.Cached)
	}
	var report strings.Builder
	items, err := repro.ReportDir(&report, results, nil)
	if err != nil || len(items) != 1 || !strings.Contains(report.String(), "### my-study/easy-vs-fcfs") {
		t.Errorf("report of the study (%v):\n%s", err, report.String())
	}
	// make figures' options override the experiment's.
	if _, err := rep.WriteWith(results, FigureOptions{Formats: []plots.Format{plots.SVG}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(results, "my-study", "easy-vs-fcfs.svg")); err != nil {
		t.Error(err)
	}
}

// TestExampleStudy: the worked example of the README's experiment schema
// loads and validates (TestResultsUpToDate runs it on the shared logs).
func TestExampleStudy(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "experiments", "easy-vs-conservative", "*.json"))
	if err != nil || len(files) != 2 {
		t.Fatalf("example study files: %v, %v", files, err)
	}
	for _, f := range files {
		e, _, err := LoadExperiment(f)
		if err != nil {
			t.Fatal(err)
		}
		if repro.IsPaper(strings.Split(e.Item, "/")[0]) {
			t.Errorf("%s: the example study uses a paper's key", f)
		}
		runs, _, err := e.Runs()
		if err != nil || len(runs) != 10 {
			t.Errorf("%s: %d runs, %v", f, len(runs), err)
		}
	}
}

// TestExperimentTau: the bounded slowdowns' bound is 10 s divided by the
// workload's compression, whether the spec sets it or its preset does
// (the thesis' 0.1 s, 6.4.1), and the analysis's own when it gives one.
func TestExperimentTau(t *testing.T) {
	for _, tt := range []struct {
		workload, analysis string
		want               model.Time
	}{
		{`{"preset": "thesis", "load": {"target": 0.74}, "seed": 1}`, `{"kind": "workload"}`, 100 * model.Millisecond},
		{`{"source": {"lublin": {"jobs": 100, "procs": 32}}, "compress": 100, "seed": 1}`, `{"kind": "workload"}`, 100 * model.Millisecond},
		{`{"source": {"lublin": {"jobs": 100, "procs": 32}}, "seed": 1}`, `{"kind": "workload"}`, 10 * model.Second},
		{`{"preset": "thesis", "seed": 1}`, `{"kind": "workload", "tau": "2s"}`, 2 * model.Second},
	} {
		path := writeExperiment(t, `{"item": "frachtenberg/t", "title": "t", "run": {"workload": `+tt.workload+
			`, "replay": {"policy": "fcfs"}}, "analysis": `+tt.analysis+`}`)
		e, _, err := LoadExperiment(path)
		if err != nil {
			t.Fatal(err)
		}
		runs, _, err := e.Runs()
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Tau(runs); got != tt.want {
			t.Errorf("%s, %s: tau %v, want %v", tt.workload, tt.analysis, got, tt.want)
		}
	}
}

// TestExperimentAlso: an Also grid adds a policy at fewer seeds; the
// metrics average, and the saturation votes, over the seeds each series
// has, and the grid's own rows are what they are without it.
func TestExperimentAlso(t *testing.T) {
	cache := &pipelines.Cache{Dir: t.TempDir()}
	also := `,
  "also": [[
    {"name": "policy", "set": "replay.policy", "values": ["conservative"]},
    {"name": "load", "set": "workload.load.target", "values": [0.5, 0.9]},
    {"name": "seed", "set": "workload.seed", "values": [2]}
  ]]`
	metricsAnalysis := `{"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed", "metrics": ["response_s_mean"]}`
	with := reproduce(t, smallExperiment(t, metricsAnalysis, also), cache)
	without := reproduce(t, smallExperiment(t, metricsAnalysis, ""), cache)
	if len(with.Runs) != 10 || len(with.Item.Rows) != 6 {
		t.Fatalf("%d runs, %d rows; want 10 and 6", len(with.Runs), len(with.Item.Rows))
	}
	for i, r := range without.Item.Rows {
		if w := with.Item.Rows[i]; w.Gangsim != r.Gangsim || w.Coord("policy") != r.Coord("policy") {
			t.Errorf("row %d: %v with the also grid, %v without", i, w, r)
		}
	}
	for _, r := range with.Item.Rows[4:] {
		if r.Coord("policy") != "conservative" || r.Coord("saturated")[2:] != "1" {
			t.Errorf("also row %+v: want conservative over 1 run", r)
		}
		// The one seed's own mean.
		for _, f := range with.Runs {
			if f.Point.Text("policy") == "conservative" && f.Point.Text("load") == r.Coord("load") {
				if want := meanResponse(t, f); math.Abs(r.Gangsim-want) > 1e-9*want {
					t.Errorf("conservative at %s: %v, want %v", r.Coord("load"), r.Gangsim, want)
				}
			}
		}
	}
	sat := reproduce(t, smallExperiment(t, `{"kind": "saturation", "x": "load", "series": "policy", "replicas": "seed"}`, also), cache)
	if len(sat.Item.Rows) != 3 || sat.Item.Rows[2].Coord("policy") != "conservative" {
		t.Errorf("saturation rows %+v", sat.Item.Rows)
	}

	for _, tt := range []struct{ extra, err string }{
		{`, "also": [[{"name": "policy", "set": "replay.policy", "values": ["easy"]}]]`, "also[0]: 1 axes, the grid has 3"},
		{`, "also": [[{"name": "policy", "set": "replay.policy", "values": ["easy"]},
		   {"name": "seed", "set": "workload.seed", "values": [1]},
		   {"name": "load", "set": "workload.load.target", "values": [0.5]}]]`, `also[0]: axis 2 is "seed"`},
		{`, "also": [[{"name": "policy", "set": "replay.policy", "values": ["easy"]},
		   {"name": "load", "set": "workload.load.target", "values": [0.5]},
		   {"name": "seed", "set": "workload.seed", "values": [3, 1]}]]`, "is already in the grid"},
	} {
		if _, _, err := LoadExperiment(smallExperiment(t, metricsAnalysis, tt.extra)); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want %s", tt.extra, err, tt.err)
		}
	}
}

// meanResponse is a finished run's mean response time in seconds,
// recomputed from its outcomes.
func meanResponse(t *testing.T, f *pipelines.Finished) float64 {
	t.Helper()
	o, _, err := f.Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, x := range o {
		sum += x.Response().Seconds()
	}
	return sum / float64(len(o))
}

// TestExperimentLogZeros: an analysis drawn on a logarithmic Y axis with
// zeros among its values (EASY's median wait at load 0.5, the jobs in
// the system at the start) writes its CSV and figure, the zeros drawn at
// the axis floor and counted in the legend; and a figure that cannot be
// drawn fails naming the item and the panel.
func TestExperimentLogZeros(t *testing.T) {
	cache := &pipelines.Cache{Dir: t.TempDir()}
	rep := reproduce(t, smallExperiment(t, `{"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed",
    "metrics": ["wait_s_median", "response_s_mean"], "plot": {"log_y": true}}`, ""), cache)
	zero := false
	for _, r := range rep.Item.Rows {
		zero = zero || (r.Coord("metric") == "wait_s_median" && r.Gangsim == 0)
	}
	if !zero {
		t.Fatal("no median wait of 0: the test does not test zeros")
	}
	svgOf := func(rep *Reproduction) string {
		t.Helper()
		results := t.TempDir()
		if _, err := rep.WriteWith(results, FigureOptions{Formats: []plots.Format{plots.SVG}}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(results, "frachtenberg", rep.Item.Name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if svg := svgOf(rep); !strings.Contains(svg, "points &lt; ") {
		t.Errorf("the legend does not count the points below the floor")
	}

	e, sha := loadFor(t, `{"kind": "jobs-in-system", "x": "load", "plot": {"log_y": true}}`)
	e.Grid = e.Grid[1:2] // loads only
	jis, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, "e", sha)
	if err != nil {
		t.Fatal(err)
	}
	if svg := svgOf(jis); !strings.Contains(svg, "points &lt; 1") {
		t.Errorf("jobs in the system from 0 on a log axis: no count below the floor:\n%s", svg)
	}

	bad := &Reproduction{Item: &repro.Item{Paper: "study", Name: "bad"}, Figure: &Drawing{x: axisLabel{Label: "Load"},
		panels: []panel{{y: axisLabel{Label: "Wait", Unit: "s"}, lines: []lineData{{name: "a", x: []float64{1}, y: []float64{math.NaN()}}}}}}}
	if _, err := bad.Write(t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), "study/bad: figure: panel 1 of 1 (Wait (s)): ") {
		t.Errorf("a figure that cannot be drawn: %v", err)
	}
}

// TestExperimentAxesHaveLabels: every committed experiment's x axis and
// series axis is titled for a reader: the x axis by its plot.x_label or
// the label table, the legend by the label table (metrics.Label), never
// by a bare axis name such as "hw".
func TestExperimentAxesHaveLabels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "experiments", "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("experiments: %v, %v", files, err)
	}
	for _, f := range files {
		e, _, err := LoadExperiment(f)
		if err != nil {
			t.Fatal(err)
		}
		a := e.Analysis
		if _, ok := metrics.Label(a.X); a.X != "" && a.Plot.XLabel == "" && !ok {
			t.Errorf("%s: x axis %q has no label (metrics.Label) and no plot.x_label", f, a.X)
		}
		if _, ok := metrics.Label(a.Series); a.Series != "" && !ok {
			t.Errorf("%s: series axis %q has no label (metrics.Label): the legend would be titled %q", f, a.Series, a.Series)
		}
	}
}

// TestAnalysisCheckedBeforeRuns: an analysis that would mix runs it
// cannot tell apart (an axis with several values that it neither draws,
// groups nor averages over) is refused when the experiment is loaded,
// and by Reproduce before a single run is made (the cache stays empty),
// for every kind that pools runs.
func TestAnalysisCheckedBeforeRuns(t *testing.T) {
	// smallExperiment's grid: policy (2 values), load (2), seed (2).
	for _, tt := range []struct{ analysis, axis string }{
		{`{"kind": "cdf", "series": "policy", "metrics": ["wait_s"]}`, "load"},
		{`{"kind": "cdf", "series": "load", "replicas": "seed", "metrics": ["wait_s"]}`, "policy"},
		{`{"kind": "boxes", "x": "load", "series": "policy", "metrics": ["wait_s"]}`, "seed"},
		{`{"kind": "metrics", "x": "load", "series": "policy", "metrics": ["jobs"]}`, "seed"},
		{`{"kind": "saturation", "x": "load", "replicas": "seed"}`, "policy"},
		{`{"kind": "jobs-in-system", "x": "load", "series": "policy"}`, "seed"},
		{`{"kind": "jobs", "x": "load", "series": "policy"}`, "seed"},
		{`{"kind": "filler", "x": "load", "length": "seed"}`, "policy"},
	} {
		want := fmt.Sprintf("axis %q has 2 values", tt.axis)
		path := smallExperiment(t, tt.analysis, "")
		if _, _, err := LoadExperiment(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("loading %s: %v, want %q", tt.analysis, err, want)
		}
		// Made valid to load, then changed as a program may change it.
		e, sha, err := LoadExperiment(smallExperiment(t, `{"kind": "metrics", "metrics": ["jobs"]}`, ""))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tt.analysis), &e.Analysis); err != nil {
			t.Fatal(err)
		}
		cache := &pipelines.Cache{Dir: t.TempDir()}
		if _, err := e.Reproduce(&pipelines.Sweep{Cache: cache}, path, sha); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("reproducing %s: %v, want %q", tt.analysis, err, want)
		}
		if entries, _ := os.ReadDir(cache.Dir); len(entries) > 0 {
			t.Errorf("%s: %d runs made before the analysis was refused", tt.analysis, len(entries))
		}
	}
}

// TestSweepDrops: a sweep's runs that lose jobs to cleaning say so, by
// reason, in the run's record (RunInfo.Dropped), in its cached tables'
// manifest (the replay's GangsimDropped, the workload step's
// InputGangsimDropped) and in the item's notes; a cached run recorded
// before drops were is built again rather than reported as dropping none.
func TestSweepDrops(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 30; i++ {
		run := 10
		if i%5 == 0 {
			run = 0 // never ran: the default cleaning drops it
		}
		fmt.Fprintf(&b, "%d %d -1 %d 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n", i, 10*i, run)
	}
	trace := filepath.Join(t.TempDir(), "t.swf")
	os.WriteFile(trace, []byte(b.String()), 0o644)
	path := writeExperiment(t, `{"item": "my-study/drops", "title": "t",
  "run": {"workload": {"source": {"trace": {"path": "`+trace+`"}}}, "replay": {"policy": "fcfs"}},
  "grid": [{"name": "policy", "set": "replay.policy", "values": ["fcfs", "easy"]},
           {"name": "clean", "set": "replay.clean", "values": ["default", "none"]},
           {"name": "seed", "set": "workload.seed", "values": [1]}],
  "analysis": {"kind": "metrics", "x": "seed", "series": "policy", "replicas": "clean", "metrics": ["wait_s_mean"]}}`)
	cache := &pipelines.Cache{Dir: t.TempDir()}
	rep := reproduce(t, path, cache)
	want := []string{"clean=default (2 runs): replay cleaning default dropped 6 of 30 jobs: no-runtime 6"}
	if !slices.Equal(rep.Item.Dropped, want) {
		t.Errorf("item notes on drops %q, want %q", rep.Item.Dropped, want)
	}
	for _, f := range rep.Runs {
		clean := f.Point.Text("clean")
		if (clean == "default") != (len(f.Info.Dropped) == 1) || f.Info.Dropped == nil {
			t.Errorf("%s: RunInfo.Dropped %q", f.Point.Describe(), f.Info.Dropped)
		}
		_, h, err := f.Outcomes()
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := h.Get(swf.KeyDropped); ok != (clean == "default") || ok && v != "no-runtime 6" {
			t.Errorf("%s: outcomes manifest %s = %q, %v", f.Point.Describe(), swf.KeyDropped, v, ok)
		}
	}
	// The workload step's cleaning (a window of the log, cleaned before it
	// is taken) is the upstream step's, and counts the window's span.
	path2 := writeExperiment(t, `{"item": "my-study/drops-window", "title": "t",
  "run": {"workload": {"source": {"trace": {"path": "`+trace+`", "clean": {"preset": "default"}, "skip": 8, "jobs": 8}}},
          "replay": {"policy": "fcfs"}},
  "analysis": {"kind": "metrics", "metrics": ["wait_s_mean"]}}`)
	rep = reproduce(t, path2, cache)
	if want := []string{"the run: workload cleaning dropped 2 of 10 jobs: no-runtime 2"}; !slices.Equal(rep.Item.Dropped, want) {
		t.Errorf("window: %q, want %q", rep.Item.Dropped, want)
	}
	_, h, _ := rep.Runs[0].Outcomes()
	if v, _ := h.Get(model.KeyUpstreamPrefix + swf.KeyDropped); v != "no-runtime 2" {
		t.Errorf("window: upstream drops %q in\n%v", v, h.Lines)
	}
	// A run.json from before drops were recorded is not a finished run.
	key := rep.Runs[0].Key
	info := filepath.Join(cache.Path(key), pipelines.InfoFile)
	old, _ := os.ReadFile(info)
	os.WriteFile(info, []byte(strings.Replace(string(old), `"dropped"`, `"was_dropped"`, 1)), 0o644)
	if _, ok := cache.Get(key); ok {
		t.Error("a run recorded without its drops was taken from the cache")
	}
	if rep = reproduce(t, path2, cache); rep.Cached != 0 || len(rep.Item.Dropped) != 1 {
		t.Errorf("rebuilt: %d cached, drops %q", rep.Cached, rep.Item.Dropped)
	}
}
