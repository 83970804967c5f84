// Command analyze turns the per-job outcomes that replay writes into
// summary tables, saturation decisions and figures, and rebuilds the
// reproduction report.
//
//	analyze [flags] [RESULTS...|-]
//	analyze report [flags] [RESULTS_DIR]
//
// The outcomes may be Parquet, Arrow streams or CSV, from files or from
// standard input (replay's Arrow stream on a pipe). Each input is one run;
// runs are grouped by their manifests' parameters (--by), split into the
// thesis' short and long halves (--halves) and trimmed of warm-up and drain
// (--trim). Tables go to -o as Markdown, CSV or JSON, figures as PNG, SVG
// or PDF; every output records its manifest (the flags that shaped it and
// the SHA-256 of every input). Each run streams through accumulators that
// keep only the per-job values the output needs (metrics.RunAccumulator),
// so memory does not grow with the run beyond 8 bytes a job per metric
// whose quantiles are shown.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
)

func main() {
	// The values a summary keeps (8 bytes a job per kept metric) are
	// pointer-free chunks the collector does not scan, while the decoded
	// batches are short-lived garbage: collecting when the heap has grown
	// by a quarter, not the default doubling, keeps the peak close to the
	// kept values (10 million jobs in under 512 MB, BenchmarkPipeline10M)
	// for little work. GOGC still overrides it.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
	cli.Main("analyze", run)
}

const synopsis = `usage: analyze [flags] [RESULTS...|-]
       analyze report [flags] [RESULTS_DIR]

Summarizes the per-job outcomes of replay runs (Parquet, Arrow stream or
CSV files, or replay's Arrow stream on standard input): one table row per
run, or per group of runs with means and confidence intervals across them;
the saturation decision of each run and the saturation point of a sweep;
and figures (CDFs, percentile boxes, jobs in the system, a metric against
a parameter, bars). "analyze report" rebuilds RESULTS_DIR/REPRODUCTION.md
(default results/) from the reproduced items results/<paper>/<item>.csv.

Names given to --by and --x are looked up in each run's manifest
parameters (replay's: policy, machine...), then in the manifests of the
steps before it (genwork's: load.target, compress, source.lublin.jobs...);
"run" is the input's name and "half" the short/long group of --halves.

Examples:
  genwork lublin --jobs 1000 --procs 32 --seed 7 | replay --policy easy | analyze
  analyze --by policy,load.target runs/*.parquet -o summary.csv
  analyze --halves runs/fcfs.parquet --by policy runs/*.parquet
  analyze --saturation --x load.target --by policy runs/*.parquet
  analyze --plot cdf --metric response --by policy --logx runs/*.parquet -o fig-6.13.png
  analyze --plot metric --metric response --stat median --x load.target --by policy runs/*.parquet -o fig-6.12.svg
  analyze --plot cdf --metric wait --by policy --logx --size 6inx4in --dpi 300 runs/*.parquet -o waits.pdf
  analyze report results`

// Plot kinds (--plot).
const (
	plotCDF          = "cdf"
	plotBoxes        = "boxes"
	plotJobsInSystem = "jobs-in-system"
	plotMetric       = "metric"
	plotBars         = "bars"
)

var plotKinds = []string{plotCDF, plotBoxes, plotJobsInSystem, plotMetric, plotBars}

// options are the parsed and checked flags of the analysis.
type options struct {
	inputs       []string     // result files, "-" for standard input
	output       string       // -o: "" or "-" for standard output
	format       string       // table format: md, csv or json
	figure       plots.Format // figure format (--plot)
	columns      []int        // indices into metrics.RunColumns
	by           []string     // grouping names, "half" included when --halves
	grouped      bool         // --by was given: rows are groups of runs
	tau          model.Time   // 0: per run, from the workload's compression
	confidence   float64
	halves       string // FCFS run for the short/long split, "" for none
	trimHead     float64
	trimTail     float64
	procs        int
	saturation   bool
	backlog      metrics.Backlog // what the saturation test watches
	timeseries   []string
	x            string
	plot         string
	metric       string
	metricColumn int // --plot metric and bars: index into metrics.RunColumns
	stat         string
	logX, logY   bool
	title        string
	xlabel       string       // --xlabel: X axis title, "" for the label table's
	ylabel       string       // --ylabel
	legend       string       // --legend: legend title
	legendSet    bool         // --legend given: "" then means no title
	labels       seriesLabels // --label: names of series values in figures
	size         *plots.Size  // --size; nil for the kind's default
	dpi          int
	quiet        bool
	lenient      bool          // --lenient: skip the rows checkOutcome refuses, counted
	params       []model.Param // the flags that shape the output, for its manifest
	stdinInputs  int           // how many inputs read standard input
}

// run dispatches "report"; anything else analyzes results. A results file
// named "report" is given as ./report.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "report" {
		return cli.InCommand("analyze report", runReport(args[1:], stdout, stderr))
	}
	opt, err := parseFlags(args, stdin, stdout, stderr)
	if err != nil {
		return err
	}
	return analyze(opt, stdin, stdout, stderr)
}

func parseFlags(args []string, stdin io.Reader, stdout, stderr io.Writer) (*options, error) {
	opt, r, err := readFlags(args, stdout, stderr)
	if err != nil {
		return nil, err
	}
	for _, step := range []func() error{
		func() error { return opt.resolveLook(r) },
		func() error { return opt.resolveInputs(stdin) },
		func() error { return opt.checkMode(r.fs) },
		func() error { return opt.resolveFormat(r, stdout) },
		func() error { return opt.resolveGrouping(r) },
		func() error { return opt.resolveNumbers(r) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	opt.recordParams(r.fs)
	return opt, nil
}

// rawFlags are the flags that options holds resolved, as given.
type rawFlags struct {
	fs                                            *pflag.FlagSet
	format, columns, by, tau, trim, backlog, size *string
	labelFlags                                    *[]string
}

// readFlags defines analyze's flags and parses the command line into
// options, the flags kept as they are, and the rest as given.
func readFlags(args []string, stdout, stderr io.Writer) (*options, *rawFlags, error) {
	fs := cli.NewFlagSet("analyze", synopsis, stderr)
	var (
		output     = fs.StringP("output", "o", "", "write to FILE: a table as .md, .csv or .json, a figure (--plot) as .png, .svg or .pdf; - for stdout (default: stdout, Markdown on a terminal, else CSV)")
		format     = fs.String("format", "", "table format: md, csv or json; figure format (--plot): png, svg or pdf (default: from -o's extension; a table to a device or pipe without one is CSV)")
		columns    = fs.String("columns", "", "metrics to print, comma-separated, or \"all\" (default: "+strings.Join(defaultColumns, ",")+"); see --list-columns")
		allCols    = fs.Bool("all", false, "print every metric column (--columns all)")
		listCols   = fs.Bool("list-columns", false, "list the metric columns and exit")
		by         = fs.String("by", "", "group runs by these comma-separated names: manifest parameters (policy, load.target...), run, half")
		tau        = fs.String("tau", "", "short-job bound of the bounded slowdowns: "+model.DurationSyntax+" (default: 10s, or 10s/F for a workload compressed by F)")
		confidence = fs.Float64("confidence", 0.95, "confidence level of the intervals across the runs of a group")
		halves     = fs.String("halves", "", "split every run into the thesis' short and long halves by runtime in this FCFS run (adds the grouping name \"half\")")
		trim       = fs.String("trim", "", "drop fractions HEAD,TAIL of every run's jobs by submit order (warm-up and drain), e.g. 0.05,0.05")
		procs      = fs.Int("procs", 0, "machine size in processors for the utilization (default: the run's machine parameter, or its MaxProcs)")
		saturation = fs.Bool("saturation", false, "print each run's saturation decision and evidence; with --x, the saturation point of each --by group across --x")
		backlog    = fs.String("backlog", "queued", "backlog the saturation test watches: queued (jobs waiting to start) or in-system (every job not finished, for time sharing without a multiprogramming limit)")
		timeseries = fs.StringArray("timeseries", nil, "time series of a run (replay --timeseries), for --saturation and --plot jobs-in-system; repeat once per run, in the order of the runs")
		x          = fs.String("x", "", "parameter on the X axis (--plot boxes and metric) or swept (--saturation), e.g. load.target")
		plot       = fs.String("plot", "", "draw a figure to -o: "+strings.Join(plotKinds, ", "))
		metric     = fs.String("metric", "", "what to plot: a per-job metric (wait, response, bsld, ts_bsld; default response) or, for metric and bars, any column")
		stat       = fs.String("stat", "mean", "statistic of a per-job metric for --plot metric and bars: mean, median, sd, min, p5, p25, p75, p95, max")
		logX       = fs.Bool("logx", false, "logarithmic X axis")
		logY       = fs.Bool("logy", false, "logarithmic Y axis (values below its floor, such as zeros, drawn at the floor and counted in the legend)")
		title      = fs.String("title", "", "figure title (default: one made from the flags)")
		xlabel     = fs.String("xlabel", "", "X axis title, with its unit if any, e.g. \"Offered load\" (default: from the label table, see --list-columns)")
		ylabel     = fs.String("ylabel", "", "Y axis title, with its unit if any, e.g. \"Mean wait (s)\" (default: from the label table)")
		legend     = fs.String("legend", "", "legend title, \"\" for none (default: the labels of the --by names, e.g. Policy)")
		labelFlags = fs.StringArray("label", nil, "name a series of a figure: VALUE=NAME, VALUE a value of the --by names as the table prints it (a policy in any parameter order), e.g. --label 'gs:mpl=6,backfill=easy=GS' (repeatable; tables keep the values)")
		size       = fs.String("size", "", "figure size WIDTHxHEIGHT in in, cm, mm or pt, e.g. 6inx4in (default: 16cmx10cm, twice as wide for two panels)")
		dpi        = fs.Int("dpi", plots.DefaultDPI, "resolution of a PNG figure in pixels per inch (SVG and PDF are vector formats)")
		quiet      = fs.BoolP("quiet", "q", false, "print nothing on stderr but errors")
		lenient    = fs.Bool("lenient", false, "skip the rows of an outcomes table that cannot be right (a NaN or negative duration, an end before the start or a start before the submission, more processors than the machine, a repeated job number), counted on stderr, instead of failing on the first")
	)
	r := &rawFlags{fs: fs, format: format, columns: columns, by: by, tau: tau, trim: trim, backlog: backlog, size: size, labelFlags: labelFlags}
	if err := cli.Parse(fs, args); err != nil {
		return nil, nil, err
	}
	if *listCols {
		listColumns(stdout)
		return nil, nil, pflag.ErrHelp
	}
	if *allCols {
		if fs.Changed("columns") && *columns != "all" {
			return nil, nil, cli.Usagef("--all and --columns %s: give one of them", *columns)
		}
		*columns = "all"
	}
	opt := &options{
		inputs: fs.Args(), output: *output, confidence: *confidence, halves: *halves,
		procs: *procs, saturation: *saturation, timeseries: *timeseries, x: *x, plot: *plot,
		metric: *metric, stat: *stat, logX: *logX, logY: *logY, title: *title, quiet: *quiet,
		xlabel: *xlabel, ylabel: *ylabel, legend: *legend, dpi: *dpi, lenient: *lenient,
		legendSet: fs.Changed("legend"),
	}
	return opt, r, nil
}

// resolveLook reads the figure's labels, size and resolution.
func (opt *options) resolveLook(r *rawFlags) error {
	for _, l := range *r.labelFlags {
		if err := opt.labels.add(l); err != nil {
			return err
		}
	}
	if *r.size != "" {
		sz, err := plots.ParseSize(*r.size)
		if err != nil {
			return cli.Usagef("--size: %v", err)
		}
		opt.size = &sz
	}
	if opt.dpi <= 0 {
		return cli.Usagef("--dpi %d: want a positive resolution, e.g. 300", opt.dpi)
	}
	return nil
}

// resolveInputs takes standard input when no file is given, and lets it
// be read once only.
func (opt *options) resolveInputs(stdin io.Reader) error {
	if len(opt.inputs) == 0 {
		if f, ok := stdin.(*os.File); ok && cli.IsTerminal(f) {
			return cli.Usagef("no results: give outcome files, or pipe replay's output")
		}
		opt.inputs = []string{"-"}
	}
	for _, in := range append(append([]string{opt.halves}, opt.timeseries...), opt.inputs...) {
		if in == "-" {
			opt.stdinInputs++
		}
	}
	if opt.stdinInputs > 1 {
		return cli.Usagef("standard input (-) can be read once only")
	}
	return nil
}

// resolveFormat decides the table's or the figure's format.
func (opt *options) resolveFormat(r *rawFlags, stdout io.Writer) error {
	if opt.plot == "" {
		f, err := tableFormat(*r.format, opt.output, stdout)
		if err != nil {
			return err
		}
		opt.format = f
	} else {
		f, err := figureFormat(*r.format, opt.output)
		if err != nil {
			return err
		}
		opt.figure = f
		if err := opt.resolveMetric(r.fs.Changed("stat")); err != nil {
			return err
		}
	}
	return nil
}

// resolveGrouping reads the columns and the grouping names.
func (opt *options) resolveGrouping(r *rawFlags) error {
	var err error
	if opt.columns, err = parseColumns(*r.columns); err != nil {
		return err
	}
	if opt.by, err = parseNames("--by", *r.by); err != nil {
		return err
	}
	hasHalf := false
	for _, n := range opt.by {
		hasHalf = hasHalf || n == keyHalf
		if n == opt.x && n != "" {
			return cli.Usagef("%s is both --x and in --by", n)
		}
	}
	if hasHalf && opt.halves == "" {
		return cli.Usagef("--by half needs --halves FCFS_RESULTS")
	}
	opt.grouped = len(opt.by) > 0
	if opt.grouped && opt.halves != "" && !hasHalf {
		opt.by = append(opt.by, keyHalf)
	}
	return nil
}

// resolveNumbers reads tau, the confidence, the trim, the backlog, the
// machine size and the time series' count.
func (opt *options) resolveNumbers(r *rawFlags) error {
	if *r.tau != "" {
		d, err := model.ParseDuration(*r.tau)
		if err != nil {
			return cli.Usagef("--tau: %v", err)
		}
		if opt.tau = d; opt.tau <= 0 {
			return cli.Usagef("--tau %q: want a positive duration", *r.tau)
		}
	}
	if !(opt.confidence > 0 && opt.confidence < 1) {
		return cli.Usagef("--confidence %v: want a level in (0, 1), e.g. 0.95", opt.confidence)
	}
	if *r.trim != "" {
		head, tail, ok := strings.Cut(*r.trim, ",")
		h, err1 := strconv.ParseFloat(strings.TrimSpace(head), 64)
		t, err2 := strconv.ParseFloat(strings.TrimSpace(tail), 64)
		if !ok || err1 != nil || err2 != nil || !(h >= 0 && t >= 0 && h+t < 1) {
			return cli.Usagef("--trim %q: want HEAD,TAIL fractions, each >= 0 and summing to less than 1, e.g. 0.05,0.05", *r.trim)
		}
		opt.trimHead, opt.trimTail = h, t
	}
	switch *r.backlog {
	case metrics.BacklogQueued.String():
		opt.backlog = metrics.BacklogQueued
	case metrics.BacklogInSystem.String():
		opt.backlog = metrics.BacklogInSystem
	default:
		return cli.Usagef("--backlog %q: want queued or in-system", *r.backlog)
	}
	if err := cli.CheckProcs("--procs", int64(opt.procs)); err != nil {
		return err
	}
	if len(opt.timeseries) > 0 && len(opt.timeseries) != len(opt.inputs) {
		return cli.Usagef("%d --timeseries files for %d runs: give one per run, in the order of the runs", len(opt.timeseries), len(opt.inputs))
	}
	return nil
}

// recordParams lists the flags that shape the output, for its manifest.
func (opt *options) recordParams(fs *pflag.FlagSet) {
	fs.Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "output", "quiet", "tau":
			return // the output's name, or recorded by analyze as tau_s
		}
		opt.params = append(opt.params, model.Param{Name: f.Name, Value: f.Value.String()})
	})
	// Defaults that depend on other flags are recorded as resolved.
	if opt.plot == "" && !fs.Changed("format") {
		opt.params = append(opt.params, model.Param{Name: "format", Value: opt.format})
	}
	if opt.plot != "" && !fs.Changed("metric") {
		opt.params = append(opt.params, model.Param{Name: "metric", Value: opt.metric})
	}
}

// checkMode refuses flags that do not apply to the chosen output.
func (o *options) checkMode(fs *pflag.FlagSet) error {
	only := func(flag, where string, ok bool) error {
		if fs.Changed(flag) && !ok {
			return cli.Usagef("--%s applies to %s", flag, where)
		}
		return nil
	}
	plot := o.plot != ""
	if plot {
		known := false
		for _, k := range plotKinds {
			known = known || k == o.plot
		}
		if !known {
			return cli.Usagef("--plot %q: want one of %s", o.plot, strings.Join(plotKinds, ", "))
		}
		if o.saturation {
			return cli.Usagef("--saturation and --plot are separate outputs: run analyze twice")
		}
		if o.output == "" || o.output == "-" {
			return cli.Usagef("--plot needs -o FILE.png, FILE.svg or FILE.pdf (or a device or pipe with --format)")
		}
	}
	xPlot := o.plot == plotBoxes || o.plot == plotMetric
	wholeRuns := o.saturation || o.plot == plotJobsInSystem
	for _, c := range []struct {
		flag, where string
		ok          bool
	}{
		{"x", "--saturation and --plot boxes or metric", xPlot || o.saturation},
		{"metric", "--plot cdf, boxes, metric and bars", plot && o.plot != plotJobsInSystem},
		{"stat", "--plot metric and bars", o.plot == plotMetric || o.plot == plotBars},
		{"logx", "--plot cdf, boxes, jobs-in-system and metric", plot && o.plot != plotBars},
		{"logy", "--plot boxes, jobs-in-system, metric and bars", plot && o.plot != plotCDF},
		{"title", "--plot", plot},
		{"xlabel", "--plot", plot},
		{"ylabel", "--plot", plot},
		{"legend", "--plot", plot},
		{"label", "--plot", plot},
		{"size", "--plot", plot},
		{"dpi", "--plot", plot},
		{"timeseries", "--saturation and --plot jobs-in-system", wholeRuns},
		{"backlog", "--saturation", o.saturation},
		{"columns", "tables without --saturation", !plot && !o.saturation},
		{"all", "tables without --saturation", !plot && !o.saturation},
		{"confidence", "tables", !plot && !o.saturation},
		{"halves", "tables and --plot cdf, boxes, metric and bars, not whole runs", !wholeRuns},
		{"trim", "tables and --plot cdf, boxes, metric and bars, not whole runs", !wholeRuns},
	} {
		if err := only(c.flag, c.where, c.ok); err != nil {
			return err
		}
	}
	if xPlot && o.x == "" {
		return cli.Usagef("--plot %s needs --x PARAM", o.plot)
	}
	return nil
}

// formatOfName returns the format the extension of name says, among
// every format a gangsim command writes ("md", "csv", "json", "png",
// "svg", "pdf", "parquet", "arrow", "swf"), or "" when it says none.
func formatOfName(name string) string {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	switch ext {
	case "markdown":
		return "md"
	case "md", "csv", "json", "png", "svg", "pdf", "parquet", "arrow", "swf":
		return ext
	case "gz":
		if strings.HasSuffix(strings.ToLower(name), ".swf.gz") {
			return "swf"
		}
	}
	return ""
}

// tableFormat resolves the table format from --format, -o's extension, and
// whether stdout is a terminal: --format must agree with the extension
// when it names a format; a device, FIFO or process substitution whose name
// says none (/dev/null, >(...)) takes standard output's default, CSV.
func tableFormat(format, output string, stdout io.Writer) (string, error) {
	switch format {
	case "md", "csv", "json":
	case "markdown":
		format = "md"
	case "":
	default:
		return "", cli.Usagef("--format %q: want md, csv or json (png, svg or pdf with --plot)", format)
	}
	named := formatOfName(output)
	if format != "" {
		if named != "" && named != format && output != "-" {
			return "", cli.Usagef("--format %s contradicts the name %s, which says %s", format, output, named)
		}
		return format, nil
	}
	switch {
	case output == "" || output == "-":
		if cli.IsTerminal(stdout) {
			return "md", nil
		}
		return "csv", nil
	case named == "md" || named == "csv" || named == "json":
		return named, nil
	case named == "" && fileio.IsStream(output):
		return "csv", nil
	}
	return "", cli.Usagef("-o %s: cannot tell the table format from the name (use .md, .csv or .json, or --format)", output)
}

// figureFormat resolves a figure's format from --format and -o's
// extension, which must agree when both say one; a device, FIFO or
// process substitution (/dev/stdout, >(...)) needs --format.
func figureFormat(format, output string) (plots.Format, error) {
	named := formatOfName(output)
	if format != "" {
		f, err := plots.ParseFormat(format)
		if err != nil {
			return "", cli.Usagef("--format %q with --plot: want png, svg or pdf", format)
		}
		if named != "" && named != string(f) {
			return "", cli.Usagef("--format %s contradicts the name %s, which says %s", format, output, named)
		}
		return f, nil
	}
	if f, err := plots.FormatOf(output); err == nil {
		return f, nil
	}
	if named == "" && fileio.IsStream(output) {
		return "", cli.Usagef("-o %s: a device or pipe says no figure format: give --format png, svg or pdf", output)
	}
	return "", cli.Usagef("-o %s: a figure is written as .png, .svg or .pdf (or give --format for a device or pipe)", output)
}

// defaultColumns is the default column set of every table format: the
// counts, the run metrics a reader looks at first, and the mean, median
// and 95th percentile of the per-job metrics that matter most, narrow
// enough for a terminal. --columns and --all choose others.
var defaultColumns = []string{"jobs", "rejected", "utilization", "makespan_s",
	"wait_s_mean", "wait_s_p95", "response_s_mean", "response_s_median", "response_s_p95",
	"bsld_mean", "bsld_median", "ts_bsld_mean"}

// parseColumns turns --columns into indices of metrics.RunColumns.
func parseColumns(s string) ([]int, error) {
	all := metrics.RunColumns()
	var names []string
	switch s {
	case "all":
		names = all
	case "":
		names = defaultColumns
	default:
		var err error
		if names, err = parseNames("--columns", s); err != nil {
			return nil, err
		}
	}
	idx := make([]int, 0, len(names))
	for _, n := range names {
		i := indexOf(all, n)
		if i < 0 {
			return nil, cli.Usagef("--columns: no column %q (see --list-columns)", n)
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// listColumns prints every metric column with its meaning and unit, the
// default ones marked.
func listColumns(w io.Writer) {
	for _, c := range metrics.Columns() {
		mark := " "
		if slices.Contains(defaultColumns, c.Name) {
			mark = "*"
		}
		unit := c.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(w, "%s %-22s %-8s %s\n", mark, c.Name, unit, c.Doc)
	}
	fmt.Fprintln(w, "(* default; a group of runs adds NAME_ci95, the half-width of the 95% confidence interval of its mean)")
}

// parseNames splits a comma-separated list of names, refusing empty and
// repeated ones.
func parseNames(flag, s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, cli.Usagef("%s %q: empty name", flag, s)
		}
		if indexOf(out, n) >= 0 {
			return nil, cli.Usagef("%s %q: %s repeats", flag, s, n)
		}
		out = append(out, n)
	}
	return out, nil
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// formatNumber formats v in the shortest form that reads back to the same
// float64, as metrics.RunSummary.Record does, and a NaN (a statistic of
// no values, an interval of one run) as the empty string.
func formatNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return "" // undefined: empty in CSV, null in JSON
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
