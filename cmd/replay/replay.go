package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

// runReplay replays a trace: its options read and checked, the input
// opened, the outputs created, the replay run with what is said before
// and while it runs, the outputs' trailers written and the summary said.
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, err := parseReplayFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.listPolicies {
		fmt.Fprint(stdout, policies.Describe())
		return nil
	}
	for _, check := range []func() error{o.checkFlags, o.buildReplay, func() error { return o.resolveOutputs(stdout) }} {
		if err := check(); err != nil {
			return err
		}
	}
	j := &replayJob{o: o}
	defer j.close()
	if err := j.openInput(stdin, stderr); err != nil {
		return err
	}
	j.manifest()
	if err := j.createOutputs(stdout); err != nil {
		return err
	}
	if err := j.run(stderr); err != nil {
		return err
	}
	if err := j.finish(); err != nil {
		return err
	}
	j.report(stderr)
	return nil
}

// replayOptions are replay's flags, and what they resolve to.
type replayOptions struct {
	fs                                                 *pflag.FlagSet
	policy, machine, compat, clean, order, passes      string
	output, format, series, period, hw, mechanism, tau string
	listPolicies, nodeAlloc, strict, lenient, quiet    bool
	procs                                              int
	seed                                               uint64
	spec                                               policies.Spec
	r                                                  pipelines.Replay
	inName, outName                                    string // "-": standard input, output
	outFormat, seriesFormat                            columnar.Format
}

// parseReplayFlags reads replay's command line.
func parseReplayFlags(args []string, stderr io.Writer) (*replayOptions, error) {
	o := &replayOptions{fs: cli.NewFlagSet("replay", synopsis, stderr)}
	fs := o.fs
	fs.StringVarP(&o.policy, "policy", "p", "easy", "scheduling policy: NAME[:KEY=VALUE,...] (see --list-policies)")
	fs.BoolVar(&o.listPolicies, "list-policies", false, "list the policies and their parameters, and exit")
	fs.IntVar(&o.procs, "procs", 0, "simulate a flat machine of this many processors (default: the trace header's)")
	fs.StringVar(&o.machine, "machine", "", "simulate NODESxPES, e.g. 144x8 (overrides --procs)")
	fs.BoolVar(&o.nodeAlloc, "node-alloc", false, "allocate whole nodes")
	fs.StringVar(&o.compat, "compat", "", "compatibility mode: pyss (its cleaning, event order and passes; a flat MaxProcs)")
	fs.StringVar(&o.clean, "clean", "", "trace cleaning: default, pyss or none (default: default, or pyss under --compat pyss)")
	fs.StringVar(&o.order, "order", "ends-first", "order of same-time events: ends-first or pyss")
	fs.StringVar(&o.passes, "passes", "per-time", "scheduling passes: per-time or per-event")
	fs.StringVarP(&o.output, "output", "o", "", "per-job outcomes: FILE.parquet, .arrow, .csv, or - for stdout (default: an Arrow stream on stdout unless it is a terminal)")
	fs.StringVar(&o.format, "format", "", "format of -o: parquet, arrow or csv (default: from the name)")
	fs.StringVar(&o.series, "timeseries", "", "write the time series (jobs in system, queued, running, busy processors) to FILE")
	fs.StringVar(&o.period, "sample-period", "", "sample the time series every DURATION of simulated time (e.g. 60s, 1h) instead of at every change")
	fs.BoolVar(&o.strict, "strict", false, "refuse any value outside SWF 2.2 (in any input format; -1 is the only missing value), and repeated job numbers (default: keep the job, count the value)")
	fs.BoolVar(&o.lenient, "lenient", false, "skip the lines (or rows) whose submit time, run time, processors or estimate (if the policy plans with it) are unusable (counted on stderr by field) instead of failing")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed of the policies that draw (local, sb), recorded in the manifest")
	fs.StringVar(&o.hw, "hw", "", "charge time sharing with a hardware cost model: a preset (replay hw list) or an edited preset FILE.json (default: switches are free)")
	fs.StringVar(&o.mechanism, "mechanism", "", "the preset family's switching mechanism (replay hw kinds; default: the family's first), e.g. division, switching-full, voluntary")
	fs.StringVar(&o.tau, "tau", "", "short-job bound of the summary's bounded slowdown: "+model.DurationSyntax+" (default: 10s, or 10s / F for a workload genwork compressed by F)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "do not print the summary (what cleaning dropped is still said, on one line)")
	fs.Lookup("sample-period").Usage = "sample the time series every period of simulated time, " + model.DurationSyntax + ", instead of at every change"
	if err := cli.Parse(fs, args); err != nil {
		return nil, err
	}
	o.inName = "-"
	if fs.NArg() == 1 {
		o.inName = fs.Arg(0)
	}
	return o, nil
}

// checkFlags refuses flags that contradict each other or cannot be read.
func (o *replayOptions) checkFlags() error {
	if o.fs.NArg() > 1 {
		return cli.Usagef("one trace at most, got %d", o.fs.NArg())
	}
	if o.strict && o.lenient {
		return cli.Usagef("--strict and --lenient contradict each other: choose one")
	}
	if _, err := summaryTau(o.tau, &model.Header{}); err != nil {
		return err
	}
	if err := cli.CheckProcs("--procs", int64(o.procs)); err != nil {
		return err
	}
	switch pipelines.Compat(o.compat) {
	case pipelines.CompatNone, pipelines.CompatPyss:
	default:
		return cli.Usagef("--compat %q: want pyss (or no --compat for gangsim's own rules)", o.compat)
	}
	if o.compat != "" {
		for _, f := range []string{"order", "passes"} {
			if o.fs.Changed(f) {
				return cli.Usagef("--%s has no effect under --compat %s, which sets the engine rules: drop one of them", f, o.compat)
			}
		}
	}
	switch o.clean {
	case "", workload.CleanDefault, workload.CleanPyss, workload.CleanNone:
	default:
		return cli.Usagef("--clean %q: want default, pyss or none", o.clean)
	}
	if o.nodeAlloc && o.machine == "" {
		return cli.Usagef("--node-alloc needs --machine NODESxPES: a flat machine has no nodes to allocate")
	}
	if o.machine != "" && o.fs.Changed("procs") {
		return cli.Usagef("--machine and --procs both give the machine size: drop one of them")
	}
	return nil
}

// buildReplay makes the replay's configuration from the flags.
func (o *replayOptions) buildReplay() error {
	spec, err := policies.ParseSpec(o.policy)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if err := policies.Check(spec); err != nil {
		return cli.Usagef("%v", err)
	}
	o.spec = spec
	r := pipelines.Replay{Policy: spec, Procs: o.procs, NodeAllocation: o.nodeAlloc,
		Compat: pipelines.Compat(o.compat), Clean: o.clean,
		Hardware: o.hw, Mechanism: o.mechanism, Seed: o.seed}
	if err := r.CheckHardware(); err != nil {
		return cli.Usagef("%v", err)
	}
	if o.machine != "" {
		if r.Machine, err = model.ParseMachine(o.machine); err != nil {
			return cli.Usagef("--machine: %v", err)
		}
	}
	if err := r.CheckMachine(); err != nil {
		return cli.Usagef("%v", err)
	}
	if r.Order, err = sim.ParseOrder(o.order); err != nil {
		return cli.Usagef("--order: %v", err)
	}
	if r.Passes, err = sim.ParsePasses(o.passes); err != nil {
		return cli.Usagef("--passes: %v", err)
	}
	if o.period != "" {
		if o.series == "" {
			return cli.Usagef("--sample-period samples the time series: it needs --timeseries FILE")
		}
		d, err := model.ParseDuration(o.period)
		if err != nil || d <= 0 {
			return cli.Usagef("--sample-period %q: want a positive duration: %s", o.period, model.DurationSyntax)
		}
		r.SamplePeriod = d
	}
	o.r = r
	return nil
}

// resolveOutputs decides where and in which format the outcomes and the
// time series go.
func (o *replayOptions) resolveOutputs(stdout io.Writer) error {
	o.outName = o.output
	if o.outName == "" && !cli.IsTerminal(stdout) {
		o.outName = "-"
	}
	if o.outName == "" && o.fs.Changed("format") {
		return cli.Usagef("--format %s: standard output is a terminal; give -o FILE or pipe the output", o.format)
	}
	var err error
	if o.outName != "" {
		if o.outFormat, err = fileio.ResolveFormat(o.outName, o.format, columnar.FormatArrow); err != nil {
			return cli.Usagef("%v", err)
		}
		if o.outFormat == columnar.FormatSWF || o.outFormat == columnar.FormatSWFGzip {
			return cli.Usagef("outcomes cannot be written as SWF: use .parquet, .arrow or .csv")
		}
	}
	if o.series == "" {
		return nil
	}
	if o.seriesFormat, err = fileio.ResolveFormat(o.series, "", columnar.FormatCSV); err != nil {
		return cli.Usagef("--timeseries: %v", err)
	}
	if o.seriesFormat == columnar.FormatSWF || o.seriesFormat == columnar.FormatSWFGzip {
		return cli.Usagef("--timeseries %s: a time series cannot be written as SWF: use .parquet, .arrow or .csv", o.series)
	}
	if o.series == "-" && o.outName == "-" {
		return cli.Usagef("--timeseries - and the outcomes both on standard output: give one of them a file")
	}
	if fileio.SameOutput(o.series, o.outName) {
		return cli.Usagef("--timeseries %s and the outcomes (-o %s) are the same file: one would be lost; give each its own", o.series, displayOutName(o.outName))
	}
	return nil
}

// replayJob is a replay under way: its input, outputs and result.
type replayJob struct {
	o        *replayOptions
	in       *fileio.Input
	mode     fileio.SWFMode
	raw      model.JobReader // the input as read
	prefetch *fileio.Prefetcher
	src      model.JobReader // what is replayed: prefetch, or the whole trace held
	params   []model.Param
	header   model.Header // the outputs' header, the manifest applied
	man      model.Manifest

	outFile, seriesFile *fileio.Output
	async               *fileio.AsyncOutcomes
	outcomes            model.OutcomeWriter // nil: none written
	samples             model.SampleWriter
	res                 *pipelines.Result
	anomalies           swf.Anomalies
	closers             []func()
}

// close releases what the job opened, last first: an output not committed
// is removed.
func (j *replayJob) close() {
	for i := len(j.closers) - 1; i >= 0; i-- {
		j.closers[i]()
	}
}

// openInput opens the trace and reads its header, resolving the machine
// (the widest job's under --lenient when the header gives none).
func (j *replayJob) openInput(stdin io.Reader, stderr io.Writer) error {
	o := j.o
	in, err := fileio.OpenStream(o.inName, stdin) // standard input parsed as it arrives
	if err != nil {
		return err
	}
	j.in = in
	j.closers = append(j.closers, func() { in.Close() })
	j.mode = fileio.ModeOf(o.strict, o.lenient)
	if j.raw, err = in.TraceNeeding(j.mode, o.r.Needed()); err != nil {
		return err
	}
	if err := model.HeaderErr(j.raw); err != nil {
		return err // the header's own error (with its line), before its machine size is used
	}
	j.prefetch = fileio.Prefetch(j.raw) // parse on another core
	j.closers = append(j.closers, func() { j.prefetch.Close() })
	j.src = j.prefetch
	j.params, err = o.r.Params(j.src.Header())
	fallback := ""
	if errors.Is(err, pipelines.ErrMachineUnknown) && o.lenient {
		if fallback, err = j.widestJob(stderr); err != nil {
			return err
		}
		j.params, err = o.r.Params(j.src.Header())
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.DisplayName(), err)
	}
	if o.r.Tau, err = summaryTau(o.tau, j.src.Header()); err != nil {
		return err
	}
	j.params = append(j.params, model.Param{Name: "lenient", Value: strconv.FormatBool(o.lenient)})
	if fallback != "" {
		j.params = append(j.params, model.Param{Name: "machine_fallback", Value: fallback})
	}
	if o.strict {
		j.params = append(j.params, model.Param{Name: "strict", Value: "true"})
	}
	return nil
}

// widestJob is the documented fallback of --lenient for a header without
// a machine size: the widest job's processors, once the whole trace is
// read (so held in memory), said on stderr and in the manifest.
func (j *replayJob) widestJob(stderr io.Writer) (fallback string, err error) {
	var widest int
	if j.src, widest, err = pipelines.WidestJob(j.prefetch); err != nil {
		return "", fmt.Errorf("%s: %w", j.in.DisplayName(), err)
	}
	j.o.r.Procs = widest
	fallback = fmt.Sprintf("%d processors, the widest job's", widest)
	why := j.raw.Header().MachineErr()
	if why == nil { // --compat pyss: MaxProcs alone
		why = j.raw.Header().IntErr(model.KeyMaxProcs)
	}
	fmt.Fprintf(stderr, "replay: %s: the header gives no machine size (%v): --lenient simulates %s\n",
		j.in.DisplayName(), why, fallback)
	return fallback, nil
}

// manifest makes the outputs' header: the input's, with the replay's
// manifest applied.
func (j *replayJob) manifest() {
	o := j.o
	j.man = model.Manifest{Tool: "replay", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Seed: o.seed, HasSeed: true, Params: j.params}
	if !j.in.Streamed() {
		j.man.Inputs = []model.Input{j.in.Manifest()}
	}
	j.header = j.src.Header().Clone()
	j.man.Apply(&j.header)
}

// createOutputs creates the outcomes' and the time series' files.
func (j *replayJob) createOutputs(stdout io.Writer) error {
	o := j.o
	var err error
	if o.outName != "" {
		if j.outFile, err = fileio.Create(o.outName, o.outFormat, stdout); err != nil {
			return err
		}
		j.closers = append(j.closers, func() { j.outFile.Abort() })
		w, err := j.outFile.OutcomeWriter(&j.header)
		if err != nil {
			return err
		}
		j.async = fileio.NewAsyncOutcomes(w) // encode on another core
		j.closers = append(j.closers, func() { j.async.Close() })
		j.outcomes = j.async
	}
	if o.series != "" {
		if j.seriesFile, err = fileio.Create(o.series, o.seriesFormat, stdout); err != nil {
			return err
		}
		j.closers = append(j.closers, func() { j.seriesFile.Abort() })
		if j.samples, err = j.seriesFile.SampleWriter(&j.header); err != nil {
			return err
		}
	}
	return nil
}

// run replays the trace, saying before and while it runs what a replay
// that may take long says: for a process-level policy, the jobs it cannot
// coschedule (said even under -q) and, unless -q, the estimated cost of a
// long replay; on a terminal, unless -q, a progress line. A named file is
// scanned once first for them (its parse is fast beside such a replay);
// standard input is watched as it is read.
func (j *replayJob) run(stderr io.Writer) error {
	o := j.o
	showProgress := !o.quiet && cli.ProgressOn(stderr)
	watch := j.watch(showProgress, stderr)
	var watched model.OutcomeWriter = watch
	if j.outcomes == nil && !showProgress {
		watched = nil // nothing to write nor to count
	}
	status := cli.StartStatus(stderr, showProgress, watch.render)
	res, err := o.r.Run(watch, watched, j.samples)
	status.Stop()
	if errors.Is(err, policies.ErrParam) {
		// Found only once the machine is known (a quantum no longer than
		// the preset's switch, a preset of the wrong family): still the
		// command line's fault.
		return cli.Usagef("%v", err)
	}
	if err != nil {
		return err
	}
	j.res = res
	if j.async != nil {
		return j.async.Close()
	}
	return nil
}

// watch sets up what counts the replay's jobs for its progress, and says
// what a process-level replay says before it starts.
func (j *replayJob) watch(showProgress bool, stderr io.Writer) *replayWatch {
	o, spec := j.o, j.o.spec
	processLevel := policies.ProcessLevel(spec)
	watch := &replayWatch{src: j.src, next: j.outcomes, spec: spec}
	var scan *pipelines.TraceScan
	if o.inName != "-" && !j.in.Streamed() && (showProgress || processLevel) {
		scan = scanInput(o.inName, j.mode, o.r.Needed(), spec)
	}
	if scan != nil {
		watch.total, watch.span = int64(scan.Jobs), scan.LastSubmit
	} else if n, ok := j.src.Header().Int(model.KeyMaxRecords); ok && n > 0 {
		watch.total = n
	}
	if !processLevel {
		return watch
	}
	switch {
	case scan == nil:
		watch.warn = stderr
	case scan.NoApp > 0:
		fmt.Fprintf(stderr, "replay: %s: %d of %d jobs have no application attributes: %s\n", spec, scan.NoApp, scan.Jobs, noAppAdvice(spec))
	}
	if scan != nil && !o.quiet && scan.EstimatedSeconds() >= longReplay.Seconds() {
		procs := o.r.Machine.Procs()
		if procs == 0 {
			procs = o.r.Procs
		}
		if procs == 0 {
			procs = j.src.Header().MaxProcs()
		}
		fmt.Fprintf(stderr, "replay: %s\n", costNotice(spec, scan, procs))
	}
	return watch
}

// finish writes into the outputs' trailer what is known only now (the
// digest of a streamed input, what cleaning dropped, the input's
// anomalies) and commits them.
func (j *replayJob) finish() error {
	if err := j.in.Finish(); err != nil {
		return err
	}
	var trailer []model.HeaderLine
	// The input's own trailer (an upstream step's late manifest lines,
	// read now that the input is done) joins ours as the header's other
	// upstream lines did: manifest keys prefixed.
	for _, l := range j.raw.Header().Lines[len(j.src.Header().Lines):] {
		trailer = append(trailer, model.Upstream(l))
	}
	if j.in.Streamed() {
		trailer = append(trailer, model.HeaderLine{Key: model.KeyGangsimInput, Value: j.in.SHA256 + " " + j.in.Name})
	}
	trailer = append(trailer, j.res.Clean.HeaderLines()...)
	j.anomalies = fileio.Anomalies(j.raw) // every format's, by the same rules
	trailer = append(trailer, j.anomalies.HeaderLines()...)
	for _, out := range []*fileio.Output{j.seriesFile, j.outFile} {
		if out != nil {
			out.AppendHeader(trailer...)
			if err := out.Commit(); err != nil {
				return err
			}
		}
	}
	return nil
}

// report says what was dropped or changed (even under -q, one line each)
// and, unless -q, the summary.
func (j *replayJob) report(stderr io.Writer) {
	o, res := j.o, j.res
	if len(j.anomalies) > 0 {
		if o.quiet {
			fmt.Fprintf(stderr, "replay: %s: %s\n", j.in.DisplayName(), j.anomalies.Summary())
		} else {
			fmt.Fprintf(stderr, "replay: %s: %v\n", j.in.DisplayName(), j.anomalies)
		}
	}
	if s := res.Clean.DropSummary(); s != "" {
		why := ""
		if res.Clean.DroppedNoRuntime > 0 && paramValue(j.params, "clean") == workload.CleanPyss {
			why = " (pyss truncates run times to whole seconds: a run under 1 s becomes 0 and is dropped)"
		}
		fmt.Fprintf(stderr, "replay: cleaning %s %s%s; genwork clean --preset %s lists them\n",
			paramValue(j.params, "clean"), s, why, paramValue(j.params, "clean"))
	}
	if o.quiet {
		return
	}
	charged := ""
	switch {
	case res.Hardware.Charged():
		charged = ", charged by " + res.Hardware.String()
		if res.HardwareFile != "" {
			edited := "unedited"
			if res.HardwareEdited {
				edited = "edited"
			}
			charged += " from " + res.HardwareFile + " (" + edited + ")"
		}
	case res.Switched:
		charged = ", switches free (no hardware model: --hw)"
	}
	fmt.Fprintf(stderr, "replay: %s on %s%s: %s\n", o.spec, res.Machine, charged, res.Summary.Line(res.Machine.Procs()))
}
