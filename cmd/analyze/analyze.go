package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
)

// analyze reads the runs and writes the table or figure opt asks for.
func analyze(opt *options, stdin io.Reader, stdout, stderr io.Writer) error {
	say := func(format string, args ...any) {
		if !opt.quiet {
			fmt.Fprintf(stderr, "analyze: "+format+"\n", args...)
		}
	}
	man := &model.Manifest{Tool: "analyze", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Params: opt.params}
	// The FCFS run of --halves is read first: its classification splits
	// the others as they stream.
	lengths, fcfs, err := readHalves(opt, stdin, stderr, say)
	if err != nil {
		return err
	}
	runs := make([]*resultRun, len(opt.inputs))
	var cells []*cell
	for i, name := range opt.inputs {
		r, runCells, err := readCells(opt, name, stdin, stderr, lengths, fcfs, say)
		if err != nil {
			return err
		}
		runs[i] = r
		cells = append(cells, runCells...)
		man.Inputs = append(man.Inputs, r.input)
	}
	reportTau(opt, runs, say)
	man.Params = append(man.Params, model.Param{Name: "tau_s", Value: tauParam(runs)})
	if err := readRunSeries(opt, runs, stdin, man); err != nil {
		return err
	}
	if fcfs != nil {
		man.Inputs = append(man.Inputs, fcfs.input)
	}

	var t *table
	switch {
	case opt.plot != "":
		return drawPlot(opt, runs, cells, man, say)
	case opt.saturation && opt.x != "":
		t, err = saturationPointTable(opt, runs)
	case opt.saturation:
		t, err = saturationTable(opt, runs)
	default:
		t, err = summaryTable(opt, cells)
	}
	if err != nil {
		return err
	}
	return t.write(opt.output, opt.format, man, stdout)
}

// readHalves reads the FCFS run of --halves, if given, and classifies its
// jobs short or long.
func readHalves(opt *options, stdin io.Reader, stderr io.Writer, say func(string, ...any)) (*metrics.Lengths, *resultRun, error) {
	if opt.halves == "" {
		return nil, nil, nil
	}
	fcfs, err := readRun(opt.halves, stdin, true, rowRules{lenient: opt.lenient}, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	if fcfs.skipped.n > 0 {
		fmt.Fprintf(stderr, "analyze: %s: %v\n", fcfs.name, &fcfs.skipped)
	}
	lengths, err := classifyHalves(fcfs, say)
	if err != nil {
		return nil, nil, err
	}
	fcfs.outcomes = nil
	return lengths, fcfs, nil
}

// readCells reads the run name and returns it with its cells: one, or
// its short and long halves when lengths classifies the jobs (those it
// does not know are left out, and said).
func readCells(opt *options, name string, stdin io.Reader, stderr io.Writer, lengths *metrics.Lengths, fcfs *resultRun, say func(string, ...any)) (*resultRun, []*cell, error) {
	keep := opt.keptMetrics()
	var runCells []*cell
	unclassified := 0
	fed := 0
	begin := func(r *resultRun) error {
		if err := r.chooseTau(opt.tau); err != nil {
			return err
		}
		if lengths == nil {
			runCells = []*cell{newCell(r, metrics.Unclassified, keep)}
		} else {
			runCells = []*cell{newCell(r, metrics.Short, keep), newCell(r, metrics.Long, keep)}
		}
		return nil
	}
	feed := func(o *model.Outcome) {
		fed++
		switch {
		case lengths == nil:
			runCells[0].acc.Add(o)
		case lengths.Of(o.JobID) == metrics.Short:
			runCells[0].acc.Add(o)
		case lengths.Of(o.JobID) == metrics.Long:
			runCells[1].acc.Add(o)
		default:
			unclassified++
		}
	}
	each := func(_ *resultRun, o *model.Outcome) { feed(o) }
	trim := opt.trimHead > 0 || opt.trimTail > 0
	if trim {
		each = nil // the held outcomes are fed once trimmed
	}
	r, err := readRun(name, stdin, opt.holdsOutcomes(), rowRules{lenient: opt.lenient, machine: true, procs: opt.procs}, begin, each)
	if err != nil {
		return nil, nil, err
	}
	if r.skipped.n > 0 {
		// Said even under -q: nothing shrinks silently.
		fmt.Fprintf(stderr, "analyze: %s: %v\n", r.name, &r.skipped)
	}
	if trim {
		for _, o := range metrics.TrimBySubmit(r.outcomes, opt.trimHead, opt.trimTail) {
			feed(&o)
		}
		r.outcomes = nil // trimming is for tables and distributions: fed, not needed whole
	}
	if unclassified > 0 {
		say("%s: %d of %d jobs are not among the FCFS run's completed jobs: left out of both halves", r.name, unclassified, fed)
	}
	if lengths != nil && !sameWorkload(fcfs, r) {
		say("%s: not made from the same workload as the FCFS run %s (the inputs' digests differ)", r.name, fcfs.name)
	}
	return r, runCells, nil
}

// readRunSeries reads each run's --timeseries, in the order of the runs,
// refusing one of another run.
func readRunSeries(opt *options, runs []*resultRun, stdin io.Reader, man *model.Manifest) error {
	for i, name := range opt.timeseries {
		samples, in, h, err := readSeries(name, stdin)
		if err != nil {
			return err
		}
		r := runs[i]
		if !sameRun(h, &r.header) {
			return fmt.Errorf("%s: the time series belongs to another run than %s (their manifests differ): give each run's own --timeseries, in the order of the runs", in.Name, r.name)
		}
		r.series, r.seriesFrom = samples, name
		man.Inputs = append(man.Inputs, in)
	}
	return nil
}

// reportTau says on stderr which runs use a tau other than 10 s because
// their workload was compressed, once per compression factor.
func reportTau(opt *options, runs []*resultRun, say func(string, ...any)) {
	if opt.tau > 0 {
		return
	}
	var factors []float64
	for _, r := range runs {
		if r.compress > 0 && !slices.Contains(factors, r.compress) {
			factors = append(factors, r.compress)
		}
	}
	slices.Sort(factors)
	for _, f := range factors {
		var names []string
		for _, r := range runs {
			if r.compress == f {
				names = append(names, r.name)
			}
		}
		who := names[0]
		if len(names) > 1 {
			who = fmt.Sprintf("%d runs", len(names))
		}
		say("%s: workload time compressed by %s (genwork --compress): bounded slowdowns with tau = %s, 10 s of real time (--tau overrides)",
			who, formatNumber(f), seconds(metrics.CompressedTau(f)))
	}
}

// tauParam records the runs' taus in seconds, each distinct one once.
func tauParam(runs []*resultRun) string {
	var taus []model.Time
	for _, r := range runs {
		if !slices.Contains(taus, r.tau) {
			taus = append(taus, r.tau)
		}
	}
	slices.Sort(taus)
	parts := make([]string, len(taus))
	for i, t := range taus {
		parts[i] = string(t.AppendSeconds(nil))
	}
	return strings.Join(parts, ",")
}

// classifyHalves makes the short and long groups from the FCFS run
// (metrics.ClassifyFCFS, on all its jobs), warning when it does not look
// like an FCFS run.
func classifyHalves(fcfs *resultRun, say func(string, ...any)) (*metrics.Lengths, error) {
	seen := make(map[int64]bool, len(fcfs.outcomes))
	for _, o := range fcfs.outcomes {
		if o.Completed() && seen[o.JobID] {
			return nil, fmt.Errorf("%s: job %d appears twice: not the outcomes of one run", fcfs.name, o.JobID)
		}
		seen[o.JobID] = true
	}
	if p, ok := fcfs.param("policy"); ok && p != "fcfs" && !strings.HasPrefix(p, "fcfs:") {
		say("%s: --halves classifies jobs by their runtime under FCFS, but this run's policy is %s", fcfs.name, p)
	}
	l := metrics.ClassifyFCFS(fcfs.outcomes)
	if l.Len() == 0 {
		return nil, fmt.Errorf("%s: no completed jobs to classify as short or long", fcfs.name)
	}
	return &l, nil
}

// sameWorkload reports whether two runs replayed the same input, by the
// digests in their own manifests (true when either has none).
func sameWorkload(a, b *resultRun) bool {
	if len(a.chain) == 0 || len(b.chain) == 0 || len(a.chain[0].Inputs) == 0 || len(b.chain[0].Inputs) == 0 {
		return true
	}
	return a.chain[0].Inputs[0].SHA256 == b.chain[0].Inputs[0].SHA256
}

// keptMetrics lists the per-job metrics whose every value the output
// needs (for quantiles or a standard deviation): the others are summed,
// not kept.
func (o *options) keptMetrics() []metrics.JobMetric {
	var keep []metrics.JobMetric
	add := func(m metrics.JobMetric) {
		if !slices.Contains(keep, m) {
			keep = append(keep, m)
		}
	}
	all := metrics.RunColumns()
	column := func(j int) {
		name := all[j]
		i := strings.LastIndexByte(name, '_')
		if i < 0 {
			return
		}
		m, ok := metrics.JobMetricOf(name[:i])
		if ok && !slices.Contains([]string{"mean", "min", "max"}, name[i+1:]) {
			add(m)
		}
	}
	switch o.plot {
	case "":
		for _, j := range o.columns {
			column(j)
		}
	case plotCDF, plotBoxes:
		add(findJobMetric(o.metric).id)
	case plotMetric, plotBars:
		column(o.metricColumn)
	}
	return keep
}

// holdsOutcomes reports whether the analysis needs every run's outcomes
// in memory: to trim them by submit order, or to rebuild the jobs in the
// system when no time series is given.
func (o *options) holdsOutcomes() bool {
	wholeRuns := o.saturation || o.plot == plotJobsInSystem
	return o.trimHead > 0 || o.trimTail > 0 || (wholeRuns && len(o.timeseries) == 0)
}

// rows groups the cells as the output's rows or series: by --by, or
// without it one per cell, named by its run (and half).
func rows(opt *options, cells []*cell) (names []string, groups []*group, err error) {
	if opt.grouped {
		groups, err = groupCells(cells, opt.by)
		return opt.by, groups, err
	}
	names = []string{keyRun}
	if opt.halves != "" {
		names = append(names, keyHalf)
	}
	for _, c := range cells {
		keys := []string{c.run.name}
		if opt.halves != "" {
			keys = append(keys, c.half.String())
		}
		groups = append(groups, &group{keys: keys, cells: []*cell{c}})
	}
	return names, groups, nil
}

// ciSuffix names the confidence-interval columns: "_ci95" at 0.95.
func ciSuffix(confidence float64) string {
	pct := math.Round(confidence*100*1e6) / 1e6
	return "_ci" + strconv.FormatFloat(pct, 'f', -1, 64)
}

// summaryTable is one row per run, or per group of runs: the selected
// metrics.RunColumns of each, and for groups the mean across their runs
// with the half-width of its confidence interval (metrics.MeanCI).
func summaryTable(opt *options, cells []*cell) (*table, error) {
	names, groups, err := rows(opt, cells)
	if err != nil {
		return nil, err
	}
	all := metrics.RunColumns()
	t := &table{}
	for _, n := range names {
		t.cols = append(t.cols, column{name: n})
	}
	if opt.grouped {
		t.cols = append(t.cols, column{name: "runs", kind: numberColumn})
	}
	for _, j := range opt.columns {
		t.cols = append(t.cols, column{name: all[j], kind: numberColumn})
		if opt.grouped {
			t.cols = append(t.cols, column{name: all[j] + ciSuffix(opt.confidence), kind: ciColumn})
		}
	}
	for _, g := range groups {
		row := make([]value, 0, len(t.cols))
		for _, k := range g.keys {
			row = append(row, textValue(k))
		}
		if opt.grouped {
			row = append(row, numberValue(float64(len(g.cells))))
		}
		for _, j := range opt.columns {
			var v value
			ci := math.NaN()
			if len(g.cells) == 1 {
				s := g.cells[0].summarize()
				v = value{text: s.Record()[j], num: s.Values()[j]}
				if math.IsNaN(v.num) {
					v.text = ""
				}
			} else {
				var xs []float64
				for _, c := range g.cells {
					if x := c.summarize().Values()[j]; !math.IsNaN(x) {
						xs = append(xs, x)
					}
				}
				v = numberValue(math.NaN())
				if len(xs) > 0 {
					v = numberValue(metrics.Mean(xs))
				}
				if len(xs) > 1 {
					ci = metrics.MeanCI(xs, opt.confidence).HalfWidth
				}
			}
			row = append(row, v)
			if opt.grouped {
				row = append(row, numberValue(ci))
			}
		}
		t.rows = append(t.rows, row)
	}
	several := false
	for _, g := range groups {
		several = several || len(g.cells) > 1
	}
	if opt.grouped && several {
		t.notes = append(t.notes, fmt.Sprintf("Each row is the mean over its runs; ± is the half-width of the %v%% confidence interval of that mean (Student t), where a group has two runs or more.",
			formatNumber(math.Round(opt.confidence*100*1e6)/1e6)))
	}
	taus := map[model.Time]bool{}
	for _, c := range cells {
		taus[c.run.tau] = true
	}
	if len(taus) == 1 {
		t.notes = append(t.notes, fmt.Sprintf("Times in seconds; bounded slowdowns with tau = %s.", seconds(cells[0].run.tau)))
	} else {
		t.notes = append(t.notes, "Times in seconds; bounded slowdowns with each run's tau (see the manifest's tau_s).")
	}
	return t, nil
}

// seconds formats a time for a message: "0.1 s".
func seconds(t model.Time) string { return string(t.AppendSeconds(nil)) + " s" }
