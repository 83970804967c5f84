package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
)

// jobMetric is a per-job metric a figure can show.
type jobMetric struct {
	id     metrics.JobMetric
	name   string // --metric name
	label  string // axis label
	unit   string // axis unit
	column string // prefix of its metrics.RunColumns
}

var jobMetrics = []jobMetric{
	{metrics.WaitMetric, "wait", "Wait time", "s", "wait_s"},
	{metrics.ResponseMetric, "response", "Response time", "s", "response_s"},
	{metrics.BoundedSlowdownMetric, "bsld", "Bounded slowdown", "", "bsld"},
	{metrics.TimeSharingBoundedSlowdownMetric, "ts_bsld", "Time-sharing bounded slowdown", "", "ts_bsld"},
}

func findJobMetric(name string) *jobMetric {
	for i := range jobMetrics {
		if jobMetrics[i].name == name || jobMetrics[i].column == name {
			return &jobMetrics[i]
		}
	}
	return nil
}

// statPhrases name the statistics of a distribution (the suffixes of
// metrics.RunColumns) in axis labels.
var statPhrases = map[string]string{
	"mean": "Mean", "sd": "Standard deviation of", "min": "Minimum", "p5": "5th percentile of",
	"p25": "25th percentile of", "median": "Median", "p75": "75th percentile of",
	"p95": "95th percentile of", "max": "Maximum",
}

// resolveMetric checks --metric and --stat for the plot kind: a per-job
// metric for cdf and boxes, a run column for metric and bars.
func (o *options) resolveMetric(statChanged bool) error {
	if o.metric == "" {
		o.metric = "response"
	}
	switch o.plot {
	case plotCDF, plotBoxes:
		if findJobMetric(o.metric) == nil {
			return cli.Usagef("--metric %q: --plot %s shows a per-job metric: wait, response, bsld or ts_bsld", o.metric, o.plot)
		}
	case plotMetric, plotBars:
		all := metrics.RunColumns()
		if jm := findJobMetric(o.metric); jm != nil {
			if _, ok := statPhrases[o.stat]; !ok {
				return cli.Usagef("--stat %q: want mean, median, sd, min, p5, p25, p75, p95 or max", o.stat)
			}
			o.metricColumn = indexOf(all, jm.column+"_"+o.stat)
			return nil
		}
		if o.metricColumn = indexOf(all, o.metric); o.metricColumn < 0 {
			return cli.Usagef("--metric %q: want wait, response, bsld, ts_bsld or a column (see --list-columns)", o.metric)
		}
		if statChanged {
			return cli.Usagef("--stat applies to the per-job metrics, not to the column %s", o.metric)
		}
	}
	return nil
}

// columnAxis describes a metrics.RunColumns column as an axis, with the
// runs' tau for a bounded slowdown.
func columnAxis(col string, runs []*resultRun) plots.Axis {
	switch col {
	case "jobs":
		return plots.Axis{Label: "Completed jobs"}
	case "rejected":
		return plots.Axis{Label: "Rejected jobs"}
	case "makespan_s":
		return plots.Axis{Label: "Makespan", Unit: "s"}
	case "utilization":
		return plots.Axis{Label: "Utilization"}
	case "throughput_per_s":
		return plots.Axis{Label: "Throughput", Unit: "jobs/s"}
	}
	i := strings.LastIndexByte(col, '_')
	jm := findJobMetric(col[:i])
	if jm == nil {
		panic("analyze: no axis for column " + col)
	}
	lower := tauLabel(jm, runs)
	return plots.Axis{Label: statPhrases[col[i+1:]] + " " + strings.ToLower(lower[:1]) + lower[1:], Unit: jm.unit}
}

// seriesNames are the names whose values make the series of a figure
// against --x: --by, or the halves, or none (one series).
func seriesNames(opt *options) []string {
	if opt.grouped {
		return opt.by
	}
	if opt.halves != "" {
		return []string{keyHalf}
	}
	return nil
}

// seriesGroups groups cells into the series of a figure against --x.
func seriesGroups(opt *options, cells []*cell) ([]string, []*group, error) {
	names := seriesNames(opt)
	if len(names) == 0 {
		return nil, []*group{{cells: cells}}, nil
	}
	groups, err := groupCells(cells, names)
	return names, groups, err
}

// pooled gathers a per-job metric over cells: every completed job's value,
// zeros included (a logarithmic axis draws values below its floor at the
// floor and says how many).
func pooled(jm *jobMetric, cells []*cell) []float64 {
	var xs []float64
	for _, c := range cells {
		xs = append(xs, c.values(jm.id).Sorted()...)
	}
	return xs
}

// legendTitle titles the legend of series named by the values of names:
// --legend (none when given empty), else the names' labels ("Policy",
// "Offered load").
func legendTitle(opt *options, names []string) string {
	if opt.legendSet {
		return opt.legend
	}
	labels := make([]string, len(names))
	for i, n := range names {
		q, _ := metrics.Label(n)
		labels[i] = q.Label
	}
	return strings.Join(labels, ", ")
}

// entry names a series in a legend whose title says what the values are:
// its --label name, else its values.
func (o *options) entry(values []string) string { return o.labels.name(values) }

// seriesLabels are the names --label gives series values: VALUE=NAME,
// split at the last "=" (a policy's parameters hold "=" too).
type seriesLabels struct {
	byValue map[string]string // the value as given and its canonical form
	given   []string          // the values in the order given
	used    map[string]bool   // given values that named a series
}

// add parses one --label.
func (s *seriesLabels) add(flag string) error {
	i := strings.LastIndexByte(flag, '=')
	if i <= 0 || i == len(flag)-1 {
		return cli.Usagef("--label %q: want VALUE=NAME, e.g. 'gs:mpl=6,backfill=easy=GS'", flag)
	}
	value, name := flag[:i], flag[i+1:]
	if s.byValue == nil {
		s.byValue, s.used = map[string]string{}, map[string]bool{}
	}
	for _, v := range []string{value, canonicalValue(value)} {
		if old, ok := s.byValue[v]; ok && old != name {
			return cli.Usagef("--label %q: %s is already named %q", flag, value, old)
		}
		s.byValue[v] = name
	}
	s.given = append(s.given, value)
	return nil
}

// name returns the name of a series whose values are values: the --label
// of them all joined (a whole "easy, 0.7"), else each value's own.
func (s *seriesLabels) name(values []string) string {
	whole := strings.Join(values, ", ")
	if s.byValue == nil {
		return whole
	}
	if n, ok := s.lookup(whole); ok {
		return n
	}
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = v
		if n, ok := s.lookup(v); ok {
			parts[i] = n
		}
	}
	return strings.Join(parts, ", ")
}

func (s *seriesLabels) lookup(v string) (string, bool) {
	for _, k := range []string{v, canonicalValue(v)} {
		if n, ok := s.byValue[k]; ok {
			for _, g := range s.given {
				if g == k || canonicalValue(g) == canonicalValue(k) {
					s.used[g] = true
				}
			}
			return n, true
		}
	}
	return "", false
}

// unused lists the --label values that named no series.
func (s *seriesLabels) unused() []string {
	var out []string
	for _, g := range s.given {
		if !s.used[g] {
			out = append(out, g)
		}
	}
	return out
}

// canonicalValue is a policy string's canonical form, its parameters
// sorted as manifests record them ("gs:mpl=6,backfill=easy" is
// "gs:backfill=easy,mpl=6"); any other value as it is.
func canonicalValue(v string) string {
	name, params, ok := strings.Cut(v, ":")
	if !ok || name == "" || strings.ContainsAny(name, " ,=") {
		return v
	}
	kvs := strings.Split(params, ",")
	for _, kv := range kvs {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return v
		}
	}
	slices.Sort(kvs)
	return name + ":" + strings.Join(kvs, ",")
}

// paramAxis is the axis of a parameter (--x): its label table entry.
func paramAxis(name string, log bool) plots.Axis {
	q, _ := metrics.Label(name)
	return plots.Axis{Label: q.Label, Unit: q.Unit, Log: log}
}

// tauLabel adds the runs' tau to a bounded slowdown's axis label.
func tauLabel(jm *jobMetric, runs []*resultRun) string {
	if jm.unit != "" || len(runs) == 0 {
		return jm.label
	}
	for _, r := range runs {
		if r.tau != runs[0].tau {
			return jm.label
		}
	}
	return fmt.Sprintf("%s, tau = %s", jm.label, seconds(runs[0].tau))
}

// drawPlot draws the figure of --plot and saves it with the manifest.
func drawPlot(opt *options, runs []*resultRun, cells []*cell, man *model.Manifest, say func(string, ...any)) error {
	var fig plots.Drawer
	var err error
	size := plots.DefaultSize()
	switch opt.plot {
	case plotCDF:
		fig, size, err = cdfFigure(opt, runs, cells, say)
	case plotBoxes:
		fig, err = boxesFigure(opt, runs, cells, say)
	case plotJobsInSystem:
		fig, err = jobsInSystemFigure(opt, runs)
	case plotMetric:
		fig, err = metricFigure(opt, runs, cells, say)
	case plotBars:
		fig, err = barsFigure(opt, runs, cells)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", opt.output, err)
	}
	if u := opt.labels.unused(); len(u) > 0 {
		say("--label: no series is %s (the series: the values of --by as the table prints them)", strings.Join(u, ", "))
	}
	dress(opt, fig)
	if opt.size != nil {
		size = *opt.size
	}
	size.DPI = opt.dpi
	var meta []plots.KeyValue
	for _, l := range manifestLines(man) {
		meta = append(meta, plots.KeyValue{Key: l.Key, Value: l.Value})
	}
	return plots.SaveWithMetadataAs(fig, opt.output, opt.figure, size, meta)
}

// dress sets the axis titles of --xlabel and --ylabel on the figure or on
// every panel of a grid.
func dress(opt *options, d plots.Drawer) {
	switch f := d.(type) {
	case *plots.Figure:
		if opt.xlabel != "" {
			f.XLabel = opt.xlabel
		}
		if opt.ylabel != "" {
			f.YLabel = opt.ylabel
		}
	case *plots.Grid:
		for _, p := range f.Panels {
			dress(opt, p)
		}
	}
}

func titleOr(opt *options, def string) string {
	if opt.title != "" {
		return opt.title
	}
	return def
}

// cdfFigure: the distribution of a per-job metric, one line per run or
// group. With --halves, two panels side by side, short jobs then long
// ones, as Fig. 6.13 of the thesis.
func cdfFigure(opt *options, runs []*resultRun, cells []*cell, say func(string, ...any)) (plots.Drawer, plots.Size, error) {
	jm := findJobMetric(opt.metric)
	names, groups, err := rows(opt, cells)
	if err != nil {
		return nil, plots.Size{}, err
	}
	title := titleOr(opt, "Distribution of "+strings.ToLower(jm.label))
	panel := func(title string, names []string, groups []*group) (*plots.Figure, error) {
		var samples []plots.Sample
		for _, g := range groups {
			xs := pooled(jm, g.cells)
			if len(xs) == 0 {
				return nil, fmt.Errorf("%s: no completed jobs to draw", label(names, g.keys))
			}
			samples = append(samples, plots.Sample{Name: opt.entry(g.keys), Values: xs})
		}
		fr := plots.Frame{Title: title, X: plots.Axis{Label: tauLabel(jm, runs), Unit: jm.unit, Log: opt.logX},
			Legend: legendTitle(opt, names)}
		return plots.CDF(fr, samples)
	}
	h := indexOf(names, keyHalf)
	if h < 0 {
		fig, err := panel(title, names, groups)
		return fig, plots.DefaultSize(), err
	}
	without := func(xs []string) []string { return append(slices.Clone(xs[:h]), xs[h+1:]...) }
	var panels []plots.Drawer
	for i, half := range []metrics.Length{metrics.Short, metrics.Long} {
		var sub []*group
		for _, g := range groups {
			if g.keys[h] == half.String() {
				sub = append(sub, &group{keys: without(g.keys), cells: g.cells})
			}
		}
		fig, err := panel(fmt.Sprintf("(%c) %s, %s jobs", 'a'+i, title, half), without(names), sub)
		if err != nil {
			return nil, plots.Size{}, err
		}
		panels = append(panels, fig)
	}
	grid, err := plots.NewGrid(1, 2, panels...)
	size := plots.DefaultSize()
	size.Width *= 2
	return grid, size, err
}

// boxesFigure: percentile boxes of a per-job metric against --x, one
// series per group (Figs. 6.9 and 6.10 of the thesis). Percentiles are
// metrics.Describe's (type 7), as in the tables.
func boxesFigure(opt *options, runs []*resultRun, cells []*cell, say func(string, ...any)) (*plots.Figure, error) {
	jm := findJobMetric(opt.metric)
	names, groups, err := seriesGroups(opt, cells)
	if err != nil {
		return nil, err
	}
	var series []plots.BoxSeries
	for _, g := range groups {
		points, err := byX(g.cells, opt.x)
		if err != nil {
			return nil, err
		}
		s := plots.BoxSeries{Name: opt.entry(g.keys)}
		if len(names) == 0 {
			s.Name = jm.label
		}
		for _, p := range points {
			xs := pooled(jm, p.cells)
			if len(xs) == 0 {
				say("%s at %s=%s: no completed jobs, no box", s.Name, opt.x, p.text)
				continue
			}
			d := metrics.Describe(xs)
			s.Params = append(s.Params, p.x)
			s.Boxes = append(s.Boxes, plots.Percentiles{P5: d.P5, P25: d.P25, P50: d.Median, P75: d.P75, P95: d.P95})
		}
		series = append(series, s)
	}
	x := paramAxis(opt.x, opt.logX)
	fr := plots.Frame{
		Title:  titleOr(opt, jm.label+" against "+strings.ToLower(x.Label)),
		X:      x,
		Y:      plots.Axis{Label: tauLabel(jm, runs), Unit: jm.unit, Log: opt.logY},
		Legend: legendTitle(opt, names),
	}
	return plots.PercentileBoxes(fr, series)
}

// metricFigure: a run column (a statistic of a per-job metric, or a run
// metric) against --x, one line per group, averaged over the runs at each
// point (Fig. 6.12 of the thesis).
func metricFigure(opt *options, runs []*resultRun, cells []*cell, say func(string, ...any)) (*plots.Figure, error) {
	col := metrics.RunColumns()[opt.metricColumn]
	axis := columnAxis(col, runs)
	names, groups, err := seriesGroups(opt, cells)
	if err != nil {
		return nil, err
	}
	var series []plots.Series
	for _, g := range groups {
		points, err := byX(g.cells, opt.x)
		if err != nil {
			return nil, err
		}
		s := plots.Series{Name: opt.entry(g.keys)}
		if len(names) == 0 {
			s.Name = axis.Label
		}
		for _, p := range points {
			y := meanColumn(p.cells, opt.metricColumn)
			if math.IsNaN(y) {
				say("%s at %s=%s: no value of %s, no point", s.Name, opt.x, p.text, col)
				continue
			}
			s.X, s.Y = append(s.X, p.x), append(s.Y, y)
		}
		series = append(series, s)
	}
	axis.Log = opt.logY
	x := paramAxis(opt.x, opt.logX)
	fr := plots.Frame{
		Title:  titleOr(opt, axis.Label+" against "+strings.ToLower(x.Label)),
		X:      x,
		Y:      axis,
		Legend: legendTitle(opt, names),
	}
	return plots.MarkedLines(fr, series)
}

// meanColumn is the mean of a run column over cells, NaN values left out
// (NaN if none is left).
func meanColumn(cells []*cell, j int) float64 {
	var xs []float64
	for _, c := range cells {
		if v := c.summarize().Values()[j]; !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	return metrics.Mean(xs)
}

// barsFigure: a run column per group as grouped bars (Fig. 6.7 of the
// thesis). With two grouping names or more, the last one makes the series
// (a bar in each cluster) and the others the categories; with one, every
// group is a category of a single series. Groups of several runs show
// their mean.
func barsFigure(opt *options, runs []*resultRun, cells []*cell) (*plots.Figure, error) {
	col := metrics.RunColumns()[opt.metricColumn]
	axis := columnAxis(col, runs)
	names, groups, err := rows(opt, cells)
	if err != nil {
		return nil, err
	}
	axis.Log = opt.logY
	fr := plots.Frame{Title: titleOr(opt, axis.Label), Y: axis}
	var categories []string
	var series []plots.BarSeries
	if len(names) < 2 {
		s := plots.BarSeries{Name: axis.Label}
		for _, g := range groups {
			categories = append(categories, opt.entry(g.keys))
			s.Values = append(s.Values, meanColumn(g.cells, opt.metricColumn))
		}
		series = append(series, s)
		fr.X.Label = legendTitle(&options{}, names)
	} else {
		last := len(names) - 1
		catIndex := map[string]int{}
		serIndex := map[string]int{}
		var serKeys []string
		// The X axis names the categories, so a single name need not be
		// repeated in every label.
		catLabel := func(keys []string) string {
			if last == 1 {
				return opt.entry(keys[:1])
			}
			return label(names[:last], keys[:last])
		}
		for _, g := range groups {
			c := catLabel(g.keys)
			if _, ok := catIndex[c]; !ok {
				catIndex[c] = len(categories)
				categories = append(categories, c)
			}
			if _, ok := serIndex[g.keys[last]]; !ok {
				serIndex[g.keys[last]] = -1
				serKeys = append(serKeys, g.keys[last])
			}
		}
		slices.SortStableFunc(serKeys, func(a, b string) int { return compareKeys(names[last:], []string{a}, []string{b}) })
		for i, k := range serKeys {
			serIndex[k] = i
			s := plots.BarSeries{Name: opt.entry([]string{k}), Values: make([]float64, len(categories))}
			for j := range s.Values {
				s.Values[j] = math.NaN()
			}
			series = append(series, s)
		}
		for _, g := range groups {
			series[serIndex[g.keys[last]]].Values[catIndex[catLabel(g.keys)]] = meanColumn(g.cells, opt.metricColumn)
		}
		fr.X.Label = legendTitle(&options{}, names[:last])
		fr.Legend = legendTitle(opt, names[last:])
	}
	return plots.GroupedBars(fr, categories, series)
}

// jobsInSystemFigure: the jobs in the system over time, one step line per
// run (Fig. 6.11 of the thesis), from its time series if one was given,
// else reconstructed from its outcomes (metrics.JobsInSystem).
func jobsInSystemFigure(opt *options, runs []*resultRun) (*plots.Figure, error) {
	cells := make([]*cell, len(runs))
	for i, r := range runs {
		cells[i] = &cell{run: r}
	}
	names, groups, err := rows(opt, cells)
	if err != nil {
		return nil, err
	}
	type line struct {
		name    string
		samples []model.Sample
	}
	var lines []line
	var end model.Time
	for _, g := range groups {
		for _, c := range g.cells {
			name := opt.entry(g.keys)
			if len(g.cells) > 1 {
				name += " (" + c.run.name + ")"
			}
			samples := c.run.series
			if c.run.seriesFrom == "" {
				samples = metrics.JobsInSystem(c.run.outcomes)
			}
			if len(samples) == 0 {
				return nil, fmt.Errorf("%s: no completed jobs and no time series to draw", c.run.name)
			}
			end = max(end, samples[len(samples)-1].At)
			lines = append(lines, line{name, samples})
		}
	}
	unit, per := timeUnit(end)
	var series []plots.Series
	for _, l := range lines {
		s := plots.Series{Name: l.name, X: make([]float64, len(l.samples)), Y: make([]float64, len(l.samples))}
		for i, smp := range l.samples {
			s.X[i], s.Y[i] = smp.At.Seconds()/per, float64(smp.InSystem)
		}
		series = append(series, s)
	}
	fr := plots.Frame{
		Title:  titleOr(opt, "Jobs in the system"),
		X:      plots.Axis{Label: "Time", Unit: unit, Log: opt.logX},
		Y:      plots.Axis{Label: "Jobs in the system", Log: opt.logY},
		Legend: legendTitle(opt, names),
	}
	return plots.StepLines(fr, series)
}

// timeUnit picks the unit of a time axis that ends at end: seconds up to
// two hours, hours up to ten days, days beyond; per is its length in
// seconds.
func timeUnit(end model.Time) (unit string, per float64) {
	switch {
	case end <= 2*model.Hour:
		return "s", 1
	case end <= 10*model.Day:
		return "h", 3600
	}
	return "days", 86400
}
