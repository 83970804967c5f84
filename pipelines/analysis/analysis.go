package analysis

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/repro"
	"golang.org/x/sync/errgroup"
)

// Analysis says how an experiment's finished runs become its item's rows
// and figure. The axes it names are the experiment's grid axes.
//
// Kinds:
//
//   - "metrics": for every grid point (averaged over the Replicas axis),
//     each of Metrics (columns of metrics.RunColumns, e.g.
//     "response_s_mean", "bsld_median") as one row; the figure has a panel
//     per metric with the metric against X, one line per Series value.
//     As the thesis discards the loads that saturate a policy (section
//     6.4.4), a point averages only the replicas whose run did not
//     saturate (metrics.Saturated; NaN if every one did), and the lines
//     leave out the points that most replicas saturated
//     (metrics.MajoritySaturated); the rows keep them, their "saturated"
//     coordinate counting the saturated replicas and "averaged" those
//     averaged. With Paired, a point averages the replicas that no Series
//     value saturated at its other coordinates, so that the series are
//     compared on the same workloads. With Plot.KeepSaturated every
//     replica is averaged and drawn (an x axis other than the load, where
//     a saturated point is a result). With Halves,
//     every metric is given for all jobs and for the thesis' short and long
//     halves (a "half" coordinate: all, short, long; classified as for
//     "cdf"), and the figure has a panel per metric and half, three
//     across.
//   - "saturation": each run judged saturated or not (metrics.Saturated);
//     at each X value the replicas vote (metrics.MajoritySaturated, as
//     analyze --saturation does), and one row per Series value gives the
//     saturation point across X (metrics.SaturationPoint: NaN if the
//     lowest X is already saturated, the highest X if none is). The notes
//     give the votes and each replica's own point. No figure.
//   - "jobs-in-system": the backlog over time, one step line per X value,
//     two panels per Series value, side by side: the jobs waiting (the
//     queue, what metrics.Saturated watches) and the jobs in the system
//     (what the thesis' Fig. 6.11 plots), each marked for the test's rule
//     by eye (ruleMarks: first arrival, the cutoff 5/8 into the arrival
//     period, last arrival, and each line's lower quartile from the
//     cutoff on). Rows give per Series and X value the saturation
//     evidence: the test's on the queue (clear_level, cleared_at,
//     saturated) and the same rule applied to the jobs in the system
//     (the _in_system quantities), peaks and drain. Every other axis must
//     have one value.
//   - "cdf": the cumulative distribution of Metrics[0] (a per-job metric:
//     "response_s", "wait_s", "bsld" or "ts_bsld") per Series value,
//     pooling the Replicas; with Halves, separately for the thesis' short
//     and long halves of the jobs (section 6.4.1: by their FCFS runtime,
//     which is their dedicated runtime). Rows give percentiles.
//   - "boxes": the distribution of each of Metrics (per-job metrics, as
//     for "cdf") per X value and Series value, pooling the Replicas, as
//     Figs. 6.9 and 6.10 draw it: rows give the 5th, 25th, 50th, 75th
//     and 95th percentiles and the mean; the figure has a panel per metric
//     with a box per X value and series (the box from the 25th to the
//     75th percentile, the median, whiskers to the 5th and the 95th).
//   - "workload": the Profile of each run's workload before load scaling
//     and time compression (workload.MeasureProfile: arrival span, median
//     size, power-of-two share of the parallel jobs, offered load,
//     inter-arrival variation),
//     what the thesis states of its workload (section 6.4.1); one row per
//     run and quantity. No figure.
//   - "saturation-check": the saturation test on workloads whose
//     saturation load, Truth, is known by construction. For every value of
//     the axes other than X and Replicas, and for each of ReplicaCounts
//     (default 1 and all), the replicas are cut into consecutive blocks of
//     that many; each block's saturation point across X is found by
//     majority as in "saturation". Rows (coordinate X "all") give the
//     points' mean, their mean and largest distance from Truth, the share
//     of points beyond the grid (censored: the lowest X already saturated,
//     or no X saturated), the share of non-monotone sweeps and the number
//     of blocks; a censored point counts at the grid's edge, so with any
//     censored the mean and largest distance are bounds, and the notes
//     say so ("at least") and name the single replicas beyond the grid.
//     Rows per X value give the blocks' error rates there: below Truth
//     the false-positive rate (called saturated), above it the
//     false-negative rate (called not saturated), at Truth the share
//     called saturated. The notes also give every X value's count of
//     saturated runs, so that any tie rule can be applied. No figure.
//   - "jobs": the static workloads of thesis 6.3 (every job submitted at
//     0): for every run, each job's completion time ("completion_s",
//     coordinate job = its ID), the turnaround ("turnaround_s", the last
//     end) and the mean response time ("mean_response_s", job = "all").
//     With Optimum, the Series axis gains that value, the analytical
//     optimum of each workload (package optimum); with Baseline (one axis
//     and value), every other run's turnaround gains a "slowdown_pct"
//     row against the baseline run at the same coordinates. With X, the
//     figure draws Metrics (default turnaround_s and mean_response_s) a
//     panel each (and one per Panels value): grouped bars per X value
//     with Plot.Bars, else lines against X; a bar or line per Series
//     value. No replicas.
//   - "filler": the filler search of thesis 6.5 (Fig. 6.14) on a scenario
//     whose task length is a filler's run time (sage-filler): per X value,
//     the run without filler (length 0) times the prioritized job alone,
//     and the filler squeezed in is the longest filler of the Length axis
//     such that the workload, with it and every shorter one, ends within
//     (1 + Slack) of that time. Rows give both per size, their ratio, the
//     prioritized job's slowdown, and every trial; the figure stacks the
//     filler on the time alone (the thesis' bars).
type Analysis struct {
	Kind     string   `json:"kind"`
	X        string   `json:"x,omitempty"`        // grid axis along the figure's x axis
	Series   string   `json:"series,omitempty"`   // grid axis whose values are the lines
	Replicas string   `json:"replicas,omitempty"` // grid axis averaged over (seeds)
	Metrics  []string `json:"metrics,omitempty"`
	Halves   bool     `json:"halves,omitempty"`
	// Paired makes a "metrics" point average only the replicas that no
	// Series value saturated at its other coordinates.
	Paired bool `json:"paired,omitempty"`
	// Tau is the bounded slowdowns' short-job bound; 0 is 10 s divided by
	// the workload's time compression.
	Tau  model.Duration `json:"tau,omitempty"`
	Plot PlotSpec       `json:"plot,omitempty"`
	// Truth is the known saturation load of a "saturation-check".
	Truth float64 `json:"truth,omitempty"`
	// ReplicaCounts are the numbers of replicas a "saturation-check"
	// votes with; empty means 1 and all of them.
	ReplicaCounts []int `json:"replica_counts,omitempty"`
	// Labels names grid values in the rows and figure of any analysis:
	// per axis, a value's text (a string without its quotes, other JSON as
	// written) to its name, e.g. {"policy": {"gs:mpl=1": "batch"}}, the
	// names a paper prints in its tables and legends. Paper values and
	// claims may give either a value or its name. Except in kinds jobs and
	// filler, the x and replicas axes take no labels (their values are
	// numbers on an axis, or averaged over). Two values of an axis may not
	// share a name.
	Labels map[string]map[string]string `json:"labels,omitempty"`
	// Panels is the grid axis a "jobs" figure draws a panel per value of.
	Panels string `json:"panels,omitempty"`
	// Optimum is the Series value under which a "jobs" analysis adds each
	// workload's analytical optimum (package optimum), e.g. "optimal".
	Optimum string `json:"optimum,omitempty"`
	// Baseline is the axis and (labelled) value of the runs a "jobs"
	// analysis measures slowdowns against, e.g. {"policy": "MPI"}.
	Baseline map[string]string `json:"baseline,omitempty"`
	// Length is the grid axis of a "filler" analysis's filler run times,
	// and Slack the share by which the workload may end later than the
	// prioritized job alone (thesis 6.5: "1 - 3%").
	Length string  `json:"length,omitempty"`
	Slack  float64 `json:"slack,omitempty"`
}

// PlotSpec adjusts an analysis's figure.
type PlotSpec struct {
	// XLabel and XUnit title the x axis; empty takes a label from the X
	// axis's name ("load" is "Offered load").
	XLabel string `json:"x_label,omitempty"`
	XUnit  string `json:"x_unit,omitempty"`
	LogX   bool   `json:"log_x,omitempty"`
	LogY   bool   `json:"log_y,omitempty"`
	// Bars draws a "jobs" figure as grouped bars, one group per X value.
	Bars bool `json:"bars,omitempty"`
	// KeepSaturated draws the points of a "metrics" figure that most of
	// their replicas saturated, which are otherwise left out: for an x
	// axis other than the load (Fig. 6.8's MPL at one load), where a
	// saturated point is a result, not a load to discard.
	KeepSaturated bool `json:"keep_saturated,omitempty"`
}

// jobMetrics are the per-job metrics a "cdf" or "boxes" analysis draws.
var jobMetrics = []string{"wait_s", "response_s", "bsld", "ts_bsld"}

func (a *Analysis) validate(axes map[string]bool) error {
	for _, n := range []struct{ what, name string }{{"x", a.X}, {"series", a.Series}, {"replicas", a.Replicas}} {
		if n.name != "" && !axes[n.name] {
			return fmt.Errorf("%s axis %q is not in the grid", n.what, n.name)
		}
	}
	if a.Paired && (a.Kind != "metrics" || a.Series == "" || a.Replicas == "" || a.Plot.KeepSaturated) {
		return errors.New("paired belongs to kind metrics with a series and a replicas axis, without plot.keep_saturated")
	}
	kind, known := analysisKindOf(a.Kind)
	static := known && kind.static
	if !static && (a.Panels != "" || a.Optimum != "" || len(a.Baseline) > 0 || a.Length != "" || a.Slack != 0 || a.Plot.Bars) {
		return fmt.Errorf("panels, optimum, baseline, length, slack and plot.bars belong to kinds jobs and filler, not %q", a.Kind)
	}
	if err := a.validateLabels(axes, static); err != nil {
		return err
	}
	if !known {
		names := make([]string, len(analysisKinds))
		for i, k := range analysisKinds {
			names[i] = k.name
		}
		return fmt.Errorf("unknown kind %q (want %s or %s)", a.Kind, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	if kind.needsX && a.X == "" {
		return fmt.Errorf("kind %q needs an x axis", a.Kind)
	}
	if kind.validate == nil {
		return nil
	}
	return kind.validate(a, axes)
}

// analysisKind is a kind of analysis: what it checks of its spec and of
// the grid, and how it makes the runs into rows.
type analysisKind struct {
	name string
	// static marks the static workloads' kinds (jobs, filler), which take
	// panels, optimum, baseline, length, slack and plot.bars, and label
	// their rows as they go.
	static   bool
	needsX   bool                                          // the kind needs an x axis
	validate func(a *Analysis, axes map[string]bool) error // the rest of the spec; nil: nothing more
	// axes checks the grid: every axis but those the kind draws, groups
	// or averages over must have one value (analysisContext.singleValued).
	axes func(c *analysisContext) error
	unit func(a *Analysis) string       // the item's unit
	run  func(c *analysisContext) error // makes the rows and the figure
}

// analysisKinds are the kinds of analysis, in the order the error for an
// unknown kind lists them (Analysis's comment says what each makes).
var analysisKinds = []analysisKind{
	{name: "metrics", validate: validateMetrics, axes: metricsAxes, unit: metricsUnit, run: preloaded(true, true, (*analysisContext).metricRows)},
	{name: "saturation", needsX: true, axes: saturationAxes, unit: is("offered load"), run: preloaded(false, true, (*analysisContext).saturationRows)},
	{name: "jobs-in-system", needsX: true, axes: jobsInSystemAxes, unit: is("as the quantity says"), run: (*analysisContext).jobsInSystem},
	{name: "cdf", validate: validateCDF, axes: cdfAxes, unit: cdfUnit, run: preloaded(true, false, (*analysisContext).cdf)},
	{name: "boxes", needsX: true, validate: validateBoxes, axes: boxesAxes, unit: metricsUnit, run: preloaded(true, false, (*analysisContext).boxes)},
	{name: "workload", unit: is("as the quantity says"), run: (*analysisContext).workloadRows},
	{name: "saturation-check", needsX: true, validate: validateSaturationCheck,
		unit: is("offered load (share of non-monotone sweeps and blocks: as named)"), run: (*analysisContext).saturationCheck},
	{name: "jobs", static: true, validate: (*Analysis).validateStatic, axes: jobsAxes,
		unit: is("s (slowdown_pct: percent)"), run: (*analysisContext).jobRows},
	{name: "filler", static: true, validate: (*Analysis).validateStatic, axes: fillerAxes,
		unit: is("s (filler_share: ratio; prioritized_slowdown_pct: percent)"), run: (*analysisContext).fillerRows},
}

// is is a unit that does not depend on the analysis.
func is(unit string) func(*Analysis) string { return func(*Analysis) string { return unit } }

// metricsUnit is the unit of the analysis' metrics.
func metricsUnit(a *Analysis) string { return metricUnit(a.Metrics) }

// cdfUnit is the unit of the CDF's metric.
func cdfUnit(a *Analysis) string { return metricLabel(a.Metrics[0]).Unit }

// analysisKindOf returns the kind called name.
func analysisKindOf(name string) (analysisKind, bool) {
	for _, k := range analysisKinds {
		if k.name == name {
			return k, true
		}
	}
	return analysisKind{}, false
}

// preloaded is run after reading every run back first (preload: keep their
// outcomes, judge their saturation).
func preloaded(keep, judge bool, run func(c *analysisContext) error) func(c *analysisContext) error {
	return func(c *analysisContext) error {
		if err := c.preload(keep, judge); err != nil {
			return err
		}
		return run(c)
	}
}

func validateMetrics(a *Analysis, _ map[string]bool) error {
	if len(a.Metrics) == 0 {
		return fmt.Errorf("kind metrics needs metrics (any of %s)", strings.Join(metrics.RunColumns(), ", "))
	}
	for _, m := range a.Metrics {
		if !slices.Contains(metrics.RunColumns(), m) {
			return fmt.Errorf("unknown metric %q (want one of %s)", m, strings.Join(metrics.RunColumns(), ", "))
		}
	}
	return nil
}

func validateCDF(a *Analysis, _ map[string]bool) error {
	if len(a.Metrics) != 1 || !slices.Contains(jobMetrics, a.Metrics[0]) {
		return fmt.Errorf("kind cdf needs one per-job metric (one of %s)", strings.Join(jobMetrics, ", "))
	}
	return nil
}

func validateBoxes(a *Analysis, _ map[string]bool) error {
	if len(a.Metrics) == 0 {
		return fmt.Errorf("kind boxes needs per-job metrics (any of %s)", strings.Join(jobMetrics, ", "))
	}
	for _, m := range a.Metrics {
		if !slices.Contains(jobMetrics, m) {
			return fmt.Errorf("kind boxes: unknown per-job metric %q (want one of %s)", m, strings.Join(jobMetrics, ", "))
		}
	}
	return nil
}

func validateSaturationCheck(a *Analysis, _ map[string]bool) error {
	if a.Replicas == "" || !(a.Truth > 0) {
		return errors.New("kind saturation-check needs a replicas axis and the true saturation load (truth > 0)")
	}
	for _, m := range a.ReplicaCounts {
		if m < 1 {
			return fmt.Errorf("replica count %d: want at least 1", m)
		}
	}
	return nil
}

// analysisContext holds one analysis in progress.
type analysisContext struct {
	exp    *Experiment
	runs   []*pipelines.Finished
	tau    model.Time
	item   *repro.Item
	figure *Drawing

	outcomes [][]model.Outcome // per run, loaded on demand
	sat      []*metrics.Saturation
	sweep    *pipelines.Sweep // reads the runs back, keeping them for later items
}

func (c *analysisContext) analyze() error {
	if err := c.checkAxes(); err != nil {
		return err
	}
	a := &c.exp.Analysis
	kind, ok := analysisKindOf(a.Kind)
	if !ok {
		return fmt.Errorf("unknown analysis kind %q", a.Kind)
	}
	if !kind.static {
		// The static kinds label as they go (their coordinates feed their
		// figures); the others compute on the values and name them last.
		defer c.labelRows()
	}
	c.outcomes = make([][]model.Outcome, len(c.runs))
	c.sat = make([]*metrics.Saturation, len(c.runs))
	c.item.Unit = kind.unit(a)
	return kind.run(c)
}

// load returns run i's outcomes.
func (c *analysisContext) load(i int) ([]model.Outcome, error) {
	if c.outcomes[i] == nil {
		o, err := c.sweep.ReadOutcomes(c.runs[i])
		if err != nil {
			return nil, err
		}
		c.outcomes[i] = o
	}
	return c.outcomes[i], nil
}

// saturation returns run i's saturation decision, from its time series.
func (c *analysisContext) saturation(i int) (*metrics.Saturation, error) {
	if c.sat[i] == nil {
		o, err := c.load(i)
		if err != nil {
			return nil, err
		}
		v, err := c.sweep.Saturation(c.runs[i], o)
		if err != nil {
			return nil, err
		}
		c.sat[i] = &v
	}
	return c.sat[i], nil
}

// procs is the number of processors run i simulated.
func (c *analysisContext) procs(i int) (int, error) {
	for _, p := range c.runs[i].Info.Params {
		if p.Name == "machine" {
			m, err := model.ParseMachine(p.Value)
			return m.Procs(), err
		}
	}
	return 0, fmt.Errorf("run %s records no machine", c.runs[i].Key)
}

// axes lists the grid's axes in order, without the replicas axis.
func (c *analysisContext) axes() []string {
	var out []string
	for _, a := range c.exp.Grid {
		if a.Name != c.exp.Analysis.Replicas {
			out = append(out, a.Name)
		}
	}
	return out
}

// values returns the distinct values of axis in grid order, as text.
func (c *analysisContext) values(axis string) []string {
	var out []string
	for _, f := range c.runs {
		if v := f.Point.Text(axis); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// groups returns the runs grouped by every axis but the replicas axis, in
// grid order: each group's coordinates and its runs' indices.
func (c *analysisContext) groups() ([][]repro.Coord, [][]int) {
	var coords [][]repro.Coord
	var members [][]int
	index := map[string]int{}
	axes := c.axes()
	for i, f := range c.runs {
		var cs []repro.Coord
		var key strings.Builder
		for _, a := range axes {
			v := f.Point.Text(a)
			cs = append(cs, repro.Coord{Name: a, Value: v})
			key.WriteString(v + "\x00")
		}
		g, ok := index[key.String()]
		if !ok {
			g = len(coords)
			index[key.String()] = g
			coords = append(coords, cs)
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	return coords, members
}

// halves returns the job groups an analysis summarizes: all jobs, and
// with Halves the thesis' short and long halves too.
func (c *analysisContext) halves() []metrics.Length {
	if c.exp.Analysis.Halves {
		return []metrics.Length{metrics.Unclassified, metrics.Short, metrics.Long}
	}
	return []metrics.Length{metrics.Unclassified}
}

// halfTitle is the title of a panel of one half: "All jobs", "Short
// half" or "Long half".
func halfTitle(h metrics.Length) string {
	if h == metrics.Unclassified {
		return "All jobs"
	}
	t := h.String()
	return strings.ToUpper(t[:1]) + t[1:] + " half"
}

// seriesValues returns the Series axis's values, or one empty value when
// there is no Series axis.
func (c *analysisContext) seriesValues() []string {
	if c.exp.Analysis.Series == "" {
		return []string{""}
	}
	return c.values(c.exp.Analysis.Series)
}

// seriesName is a Series value's name in a figure or the notes: its
// label, "all" without a Series axis.
func (c *analysisContext) seriesName(value string) string {
	if c.exp.Analysis.Series == "" {
		return "all"
	}
	return c.label(c.exp.Analysis.Series, value)
}

func coordOf(cs []repro.Coord, name string) string {
	for _, c := range cs {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

func (c *analysisContext) xLabel() axisLabel {
	a := &c.exp.Analysis
	l := axisLabel{Label: a.Plot.XLabel, Unit: a.Plot.XUnit}
	if l.Label == "" {
		l.Label = a.X
		if a.X == "load" {
			l.Label = "Offered load"
		}
	}
	return l
}

// replicaValues returns the Replicas axis's values, or one empty value.
func (c *analysisContext) replicaValues() []string {
	if c.exp.Analysis.Replicas == "" {
		return []string{""}
	}
	return c.values(c.exp.Analysis.Replicas)
}

// checkAxes refuses an analysis that would mix runs it cannot tell apart:
// every grid axis but those the kind draws, groups or averages over must
// have one value. It needs only the runs' grid points, so Validate and
// Reproduce call it before any run is made (a CDF over a second policy
// fails at once, not after its runs).
func (c *analysisContext) checkAxes() error {
	if k, ok := analysisKindOf(c.exp.Analysis.Kind); ok && k.axes != nil {
		return k.axes(c)
	}
	return nil
}

func metricsAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	if a.X == "" {
		return nil // rows only: every grid point is a row
	}
	return c.singleValued("the figure draws the metric against x, a line per series", a.X, a.Series, a.Replicas)
}

func saturationAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	return c.singleValued("saturation sweeps the x axis per series and replica", a.X, a.Series, a.Replicas)
}

func jobsInSystemAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	return c.singleValued(fmt.Sprintf("jobs-in-system draws one line per %s value (a panel per series)", a.X), a.X, a.Series)
}

func cdfAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	return c.singleValued("the CDF pools the replicas of each series", a.Series, a.Replicas)
}

func boxesAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	return c.singleValued("the boxes pool the replicas of each x and series value", a.X, a.Series, a.Replicas)
}

func jobsAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	if a.X == "" {
		return nil // rows only
	}
	except := []string{a.X, a.Series, a.Panels}
	for ax := range a.Baseline {
		except = append(except, ax)
	}
	return c.singleValued("the figure draws each metric against x, a bar or line per series, a panel per panels value", except...)
}

func fillerAxes(c *analysisContext) error {
	a := &c.exp.Analysis
	return c.singleValued("a filler search varies the machine size and the filler length", a.X, a.Length)
}

// singleValued checks that every grid axis but the given ones has one
// value, so that the analysis does not mix runs it cannot tell apart.
func (c *analysisContext) singleValued(what string, except ...string) error {
	for _, ax := range c.exp.Grid {
		if ax.Name == "" || slices.Contains(except, ax.Name) {
			continue
		}
		if n := len(c.values(ax.Name)); n > 1 {
			return fmt.Errorf("%s; axis %q has %d values (make it the series or the replicas, or give it one value)",
				what, ax.Name, n)
		}
	}
	return nil
}

// metricLabel is the axis title of a RunColumns metric or a per-job metric.
func metricLabel(m string) axisLabel {
	stat := map[string]string{"mean": "Mean ", "median": "Median ", "sd": "Std. dev. of ", "min": "Minimum ",
		"max": "Maximum ", "p5": "5th percentile of ", "p25": "25th percentile of ", "p75": "75th percentile of ",
		"p95": "95th percentile of "}
	base := map[string]axisLabel{
		"wait_s": {Label: "wait time", Unit: "s"}, "response_s": {Label: "response time", Unit: "s"},
		"bsld": {Label: "bounded slowdown"}, "ts_bsld": {Label: "bounded slowdown (time-sharing form)"},
		"jobs": {Label: "jobs"}, "rejected": {Label: "rejected jobs"}, "makespan_s": {Label: "makespan", Unit: "s"},
		"utilization": {Label: "utilization"}, "throughput_per_s": {Label: "throughput", Unit: "jobs/s"},
	}
	if l, ok := base[m]; ok {
		l.Label = strings.ToUpper(l.Label[:1]) + l.Label[1:]
		return l
	}
	for b, l := range base {
		if s, ok := strings.CutPrefix(m, b+"_"); ok {
			if p, ok := stat[s]; ok {
				l.Label = p + l.Label
				return l
			}
		}
	}
	return axisLabel{Label: m}
}

// metricUnit is the unit of a set of metrics, for the item: theirs if they
// share one, else "as the metric says".
func metricUnit(ms []string) string {
	u := metricLabel(ms[0]).Unit
	for _, m := range ms[1:] {
		if metricLabel(m).Unit != u {
			return "as the metric says (s for times)"
		}
	}
	if u == "" {
		return "ratio"
	}
	return u
}

// preload reads every run on all cores: its outcomes, kept when keep is
// set, and its saturation decision when judge is set. Reading the runs
// back (Parquet) is most of an analysis's time; the analyses then find
// them loaded.
func (c *analysisContext) preload(keep, judge bool) error {
	errs := make([]error, len(c.runs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range c.runs {
		if (!keep || c.outcomes[i] != nil) && (!judge || c.sat[i] != nil) {
			continue
		}
		g.Go(func() error {
			errs[i] = c.preloadRun(i, keep, judge)
			return nil // every run's error is kept, not only the first
		})
	}
	g.Wait()
	return errors.Join(errs...)
}

// preloadRun reads run i's outcomes (kept when keep is set) and, when
// judge is set, its saturation decision (preload).
func (c *analysisContext) preloadRun(i int, keep, judge bool) error {
	o := c.outcomes[i]
	if o == nil {
		var err error
		if o, err = c.sweep.ReadOutcomes(c.runs[i]); err != nil {
			return err
		}
		if keep {
			c.outcomes[i] = o
		}
	}
	if !judge || c.sat[i] != nil {
		return nil
	}
	v, err := c.sweep.Saturation(c.runs[i], o)
	if err != nil {
		return err
	}
	c.sat[i] = &v
	return nil
}
