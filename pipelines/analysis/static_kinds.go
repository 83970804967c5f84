package analysis

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/optimum"
	"github.com/gangsim/gangsim/plots"
	"github.com/gangsim/gangsim/repro"
)

// The analyses of static workloads, where every job is present from the
// start and the tables give each job's completion time (thesis 6.3):
// "jobs" and "filler" (see Analysis).

// jobMetricNames are the metrics of a "jobs" analysis's rows.
var jobMetricNames = []string{"completion_s", "turnaround_s", "mean_response_s", "slowdown_pct"}

// validateStatic checks the fields of the "jobs" and "filler" kinds.
func (a *Analysis) validateStatic(axes map[string]bool) error {
	if a.Replicas != "" {
		return fmt.Errorf("kind %s compares single runs: no replicas axis", a.Kind)
	}
	if a.Kind == "filler" {
		if a.X == "" || a.Length == "" || !axes[a.Length] {
			return fmt.Errorf("kind filler needs an x axis (the machine sizes) and a length axis in the grid (the fillers' run times)")
		}
		if !(a.Slack >= 0) || a.Slack >= 1 {
			return fmt.Errorf("kind filler: slack %v, want a share in [0, 1)", a.Slack)
		}
		if a.Panels != "" || a.Optimum != "" || len(a.Baseline) > 0 || len(a.Metrics) > 0 || a.Plot.Bars || a.Series != "" {
			return fmt.Errorf("kind filler takes x, length, slack and labels only")
		}
		return nil
	}
	if a.Panels != "" && !axes[a.Panels] {
		return fmt.Errorf("panels axis %q is not in the grid", a.Panels)
	}
	if a.Optimum != "" && a.Series == "" {
		return fmt.Errorf("the optimum is a value of the series axis: name one")
	}
	if len(a.Baseline) > 1 {
		return fmt.Errorf("baseline: one axis and value, got %d", len(a.Baseline))
	}
	for ax := range a.Baseline {
		if !axes[ax] {
			return fmt.Errorf("baseline axis %q is not in the grid", ax)
		}
	}
	for _, m := range a.Metrics {
		if !slices.Contains(jobMetricNames[1:], m) {
			return fmt.Errorf("kind jobs draws %q: want any of turnaround_s, mean_response_s, slowdown_pct", m)
		}
		if m == "slowdown_pct" && len(a.Baseline) == 0 {
			return fmt.Errorf("slowdown_pct needs a baseline")
		}
	}
	if a.Length != "" || a.Slack != 0 {
		return fmt.Errorf("length and slack belong to kind filler")
	}
	return nil
}

// validateLabels checks Labels: axes of the grid, no name shared by two
// values of an axis, and outside the static kinds none for the x and
// replicas axes.
func (a *Analysis) validateLabels(axes map[string]bool, static bool) error {
	for _, ax := range slices.Sorted(maps.Keys(a.Labels)) {
		if !axes[ax] {
			return fmt.Errorf("labels for axis %q, which is not in the grid", ax)
		}
		if !static && ax != "" && (ax == a.X || ax == a.Replicas) {
			return fmt.Errorf("labels for axis %q: kind %s draws or averages its values as numbers; label the series or other axes", ax, a.Kind)
		}
		named := map[string]string{}
		for _, v := range slices.Sorted(maps.Keys(a.Labels[ax])) {
			n := a.Labels[ax][v]
			if n == "" {
				return fmt.Errorf("labels for axis %q: value %q has an empty name", ax, v)
			}
			if o, ok := named[n]; ok {
				return fmt.Errorf("labels for axis %q: values %q and %q are both named %q", ax, o, v, n)
			}
			named[n] = v
		}
	}
	return nil
}

// labelRows names the item's coordinates by Labels (kinds other than jobs
// and filler, which label as they go).
func (c *analysisContext) labelRows() {
	for i := range c.item.Rows {
		for k, co := range c.item.Rows[i].Coords {
			c.item.Rows[i].Coords[k].Value = c.label(co.Name, co.Value)
		}
	}
}

// labelCoords returns want with every value (and every "|" alternative)
// that is a labelled value of its axis replaced by its name, so that paper
// values and claims may give either.
func (a *Analysis) labelCoords(want map[string]string) map[string]string {
	if len(a.Labels) == 0 {
		return want
	}
	out := make(map[string]string, len(want))
	for k, v := range want {
		alts := strings.Split(v, "|")
		for i, alt := range alts {
			if l, ok := a.Labels[k][alt]; ok {
				alts[i] = l
			}
		}
		out[k] = strings.Join(alts, "|")
	}
	return out
}

// label is the name of an axis's value in rows and figures.
func (c *analysisContext) label(axis, value string) string {
	if l, ok := c.exp.Analysis.Labels[axis][value]; ok {
		return l
	}
	return value
}

// labelledValues returns an axis's values in grid order, labelled.
func (c *analysisContext) labelledValues(axis string) []string {
	var out []string
	for _, v := range c.values(axis) {
		out = append(out, c.label(axis, v))
	}
	return out
}

// pointCoords returns run i's grid coordinates, labelled.
func (c *analysisContext) pointCoords(i int) []repro.Coord {
	var cs []repro.Coord
	for _, ax := range c.exp.Grid {
		cs = append(cs, repro.Coord{Name: ax.Name, Value: c.label(ax.Name, c.runs[i].Point.Text(ax.Name))})
	}
	return cs
}

// completed returns run i's outcomes in job order, failing if a job did
// not complete: a static workload's metrics need every job.
func (c *analysisContext) completed(i int) ([]model.Outcome, error) {
	o, err := c.load(i)
	if err != nil {
		return nil, err
	}
	o = slices.Clone(o)
	slices.SortFunc(o, func(a, b model.Outcome) int { return int(a.JobID - b.JobID) })
	for _, x := range o {
		if !x.Completed() {
			return nil, fmt.Errorf("run %s: job %d did not complete (%s)", c.runs[i].Point.Describe(), x.JobID, x.Reason)
		}
	}
	if len(o) == 0 {
		return nil, fmt.Errorf("run %s: no jobs", c.runs[i].Point.Describe())
	}
	return o, nil
}

// staticMetrics returns the turnaround (the last end since the first
// submission) and mean response time of a static workload, in seconds.
func staticMetrics(o []model.Outcome) (turnaround, meanResponse float64) {
	first, last := o[0].Submit, o[0].End
	sum := 0.0
	for _, x := range o {
		first, last = min(first, x.Submit), max(last, x.End)
		sum += (x.End - x.Submit).Seconds()
	}
	return (last - first).Seconds(), sum / float64(len(o))
}

func staticRow(coords []repro.Coord, job, metric string, v float64) repro.Row {
	cs := append(slices.Clone(coords), repro.Coord{Name: "job", Value: job}, repro.Coord{Name: "metric", Value: metric})
	return repro.Row{Coords: cs, Gangsim: v}
}

// jobRows is kind "jobs": every job's completion time, the turnaround and
// the mean response of every run; the analytical optimum per workload;
// slowdowns against the baseline.
func (c *analysisContext) jobRows() error {
	a := &c.exp.Analysis
	var rows []repro.Row
	for i := range c.runs {
		o, err := c.completed(i)
		if err != nil {
			return err
		}
		cs := c.pointCoords(i)
		for _, x := range o {
			rows = append(rows, staticRow(cs, strconv.FormatInt(x.JobID, 10), "completion_s", x.End.Seconds()))
		}
		t, m := staticMetrics(o)
		rows = append(rows, staticRow(cs, "all", "turnaround_s", t), staticRow(cs, "all", "mean_response_s", m))
	}
	if a.Optimum != "" {
		opt, err := c.optimumRows()
		if err != nil {
			return err
		}
		rows = append(rows, opt...)
	}
	for ax, base := range a.Baseline {
		var slow []repro.Row
		for _, r := range rows {
			if r.Coord("metric") != "turnaround_s" || r.Coord(ax) == base {
				continue
			}
			want := map[string]string{"metric": "turnaround_s", ax: base}
			for _, co := range r.Coords {
				if co.Name != ax && co.Name != "metric" {
					want[co.Name] = co.Value
				}
			}
			k := slices.IndexFunc(rows, func(b repro.Row) bool { return rowMatches(b, want) })
			if k < 0 {
				return fmt.Errorf("baseline %s = %s: no run to compare %s with", ax, base, describeRow(r, nil))
			}
			s := r
			s.Coords = slices.Clone(r.Coords)
			s.Coords[len(s.Coords)-1].Value = "slowdown_pct"
			s.Gangsim = 100 * (r.Gangsim/rows[k].Gangsim - 1)
			slow = append(slow, s)
		}
		if len(slow) == 0 {
			return fmt.Errorf("baseline %s = %s: no other value to compare", ax, base)
		}
		rows = append(rows, slow...)
	}
	c.item.Rows = rows
	if a.X == "" {
		return nil
	}
	return c.staticFigure()
}

// optimumRows returns, for every combination of the axes other than the
// series, the optimum of its workload (package optimum) as the series
// value a.Optimum: each job's completion in an optimal schedule, the least
// turnaround and the least mean response.
func (c *analysisContext) optimumRows() ([]repro.Row, error) {
	a := &c.exp.Analysis
	type group struct {
		coords   []repro.Coord
		workload []byte
		run      int
	}
	var groups []*group
	for i, f := range c.runs {
		cs := c.pointCoords(i)
		for k := range cs {
			if cs[k].Name == a.Series {
				cs[k].Value = a.Optimum
			}
		}
		w, err := json.Marshal(f.Run.Workload)
		if err != nil {
			return nil, err
		}
		k := slices.IndexFunc(groups, func(g *group) bool { return slices.Equal(g.coords, cs) })
		if k < 0 {
			groups = append(groups, &group{coords: cs, workload: w, run: i})
			continue
		}
		if !bytes.Equal(groups[k].workload, w) {
			return nil, fmt.Errorf("optimum: the series %q varies the workload (runs %s and %s): it must vary the policy only",
				a.Series, c.runs[groups[k].run].Point.Describe(), f.Point.Describe())
		}
	}
	var rows []repro.Row
	for _, g := range groups {
		f := c.runs[g.run]
		r, err := f.Run.Workload.Open(nil)
		if err != nil {
			return nil, err
		}
		tr, err := model.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, err
		}
		procs, err := c.procs(g.run)
		if err != nil {
			return nil, err
		}
		res, err := optimum.Optimize(tr.Jobs, procs)
		if err != nil {
			return nil, fmt.Errorf("optimum of %s: %w", f.Point.Describe(), err)
		}
		for j, e := range res.Completions {
			rows = append(rows, staticRow(g.coords, strconv.FormatInt(tr.Jobs[j].ID, 10), "completion_s", e.Seconds()))
		}
		rows = append(rows, staticRow(g.coords, "all", "turnaround_s", res.Turnaround.Seconds()),
			staticRow(g.coords, "all", "mean_response_s", res.MeanResponse.Seconds()))
	}
	return rows, nil
}

// staticFigure draws a "jobs" analysis: a panel per drawn metric (and per
// value of the Panels axis), grouped bars per X value or lines against
// X, one bar or line per Series value.
func (c *analysisContext) staticFigure() error {
	a := &c.exp.Analysis
	drawn := a.Metrics
	if len(drawn) == 0 {
		drawn = []string{"turnaround_s", "mean_response_s"}
	}
	panelValues := []string{""}
	if a.Panels != "" {
		panelValues = c.labelledValues(a.Panels)
	}
	series := []string{""}
	if a.Series != "" {
		series = c.labelledValues(a.Series)
		if a.Optimum != "" {
			series = append(series, a.Optimum)
		}
	}
	categories := c.labelledValues(a.X)
	var panels []panel
	for _, m := range drawn {
		for _, pv := range panelValues {
			p := panel{y: staticMetricLabel(m)}
			if pv != "" {
				p.title = a.Panels + " " + pv
			}
			if a.Plot.Bars {
				p.categories = categories
			}
			for _, s := range series {
				name := s // labelled already
				if a.Series == "" {
					name = "all"
				}
				line := lineData{name: name}
				bar := plots.BarSeries{Name: name, Values: make([]float64, len(categories))}
				found := false
				for k, x := range categories {
					v := math.NaN()
					for _, r := range c.item.Rows {
						if r.Coord("metric") == m && r.Coord("job") == "all" && r.Coord(a.X) == x &&
							(a.Series == "" || r.Coord(a.Series) == s) && (pv == "" || r.Coord(a.Panels) == pv) {
							v = r.Gangsim
						}
					}
					bar.Values[k] = v // NaN: no bar
					if math.IsNaN(v) {
						continue
					}
					found = true
					if !a.Plot.Bars {
						xv, err := strconv.ParseFloat(x, 64)
						if err != nil {
							return fmt.Errorf("x axis %q value %q is not a number (label it, or draw bars)", a.X, x)
						}
						line.x, line.y = append(line.x, xv), append(line.y, v)
					}
				}
				switch {
				case !found:
				case a.Plot.Bars:
					p.bars = append(p.bars, bar)
				default:
					p.lines = append(p.lines, line)
				}
			}
			panels = append(panels, p)
		}
	}
	kind := "lines"
	if a.Plot.Bars {
		kind = "bars"
	}
	c.figure = &Drawing{title: c.exp.Title, kind: kind, x: c.xLabel(), panels: panels, logX: a.Plot.LogX, logY: a.Plot.LogY}
	return nil
}

// staticMetricLabel is the axis title of a "jobs" metric.
func staticMetricLabel(m string) axisLabel {
	switch m {
	case "turnaround_s":
		return axisLabel{Label: "Turnaround time", Unit: "s"}
	case "mean_response_s":
		return axisLabel{Label: "Mean response time", Unit: "s"}
	case "slowdown_pct":
		return axisLabel{Label: "Slowdown", Unit: "%"}
	}
	return axisLabel{Label: "Completion time", Unit: "s"}
}

// fillerRows is kind "filler" (thesis 6.5, Fig. 6.14): per X value (the
// machine size), the run whose filler length is 0 gives the prioritized
// job's run time alone; the filler squeezed in is the longest filler
// length L of the grid such that, with every length up to L, the whole
// workload ends within (1 + Slack) of that time.
func (c *analysisContext) fillerRows() error {
	a := &c.exp.Analysis
	type trial struct {
		length, turnaround, first float64 // filler length; the workload's end; job 1's end (s)
	}
	var sizes []string
	bySize := map[string][]trial{}
	for i, f := range c.runs {
		sc := f.Run.Workload.Source.Scenario
		if sc == nil {
			return fmt.Errorf("kind filler needs a scenario source whose task length is the filler's run time")
		}
		o, err := c.completed(i)
		if err != nil {
			return err
		}
		x := c.label(a.X, f.Point.Text(a.X))
		if _, ok := bySize[x]; !ok {
			sizes = append(sizes, x)
		}
		t, _ := staticMetrics(o)
		bySize[x] = append(bySize[x], trial{length: sc.TaskLength.Time().Seconds(), turnaround: t, first: o[0].End.Seconds()})
	}
	row := func(x, length, q string, v float64) {
		c.item.Rows = append(c.item.Rows, repro.Row{Coords: []repro.Coord{{Name: a.X, Value: x}, {Name: a.Length, Value: length},
			{Name: "quantity", Value: q}}, Gangsim: v})
	}
	var alone, squeezed []float64
	var notes []string
	for _, x := range sizes {
		ts := bySize[x]
		slices.SortStableFunc(ts, func(p, q trial) int { return cmp.Compare(p.length, q.length) })
		if ts[0].length != 0 {
			return fmt.Errorf("%s %s: no run without a filler (length 0) to measure the prioritized job alone", a.X, x)
		}
		base := ts[0].turnaround
		best, at := 0.0, ts[0]
		for _, tr := range ts[1:] {
			if tr.turnaround > (1+a.Slack)*base {
				break
			}
			best, at = tr.length, tr
		}
		for _, tr := range ts[1:] {
			l := repro.FormatValue(tr.length)
			row(x, l, "turnaround_s", tr.turnaround)
			row(x, l, "prioritized_s", tr.first)
		}
		row(x, "max", "alone_s", base)
		row(x, "max", "filler_s", best)
		row(x, "max", "filler_share", best/base)
		row(x, "max", "prioritized_slowdown_pct", 100*(at.first/base-1))
		alone, squeezed = append(alone, base), append(squeezed, best)
		if best == ts[len(ts)-1].length {
			notes = append(notes, fmt.Sprintf("at %s %s the longest filler tried (%s s) still fits: the grid bounds the result", a.X, x, repro.FormatValue(best)))
		}
	}
	if len(notes) > 0 {
		c.item.Notes = c.item.Notes + " " + notes[0]
		for _, n := range notes[1:] {
			c.item.Notes += "; " + n
		}
		c.item.Notes += "."
	}
	p := panel{y: axisLabel{Label: "Run time", Unit: "s"}, categories: sizes, stacked: true,
		bars: []plots.BarSeries{{Name: "alone", Values: alone}, {Name: "filler squeezed in", Values: squeezed}}}
	c.figure = &Drawing{title: c.exp.Title, kind: "bars", x: c.xLabel(), panels: []panel{p}}
	return nil
}
