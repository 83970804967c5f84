// Command replay feeds a workload trace through a scheduling policy on a
// simulated machine and writes what happened to every job.
//
//	replay [flags] [TRACE|-]
//
// The trace may be SWF (plain or gzipped), Parquet, an Arrow IPC stream or
// CSV, from a file or standard input (the Arrow stream of genwork on a
// pipe). Per-job outcomes go to -o (Parquet, Arrow or CSV by extension or
// --format; an Arrow stream on standard output when that is not a
// terminal), the system's time series to --timeseries, and a one-line
// summary to standard error. Every output records the run's manifest.
package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
)

func main() { cli.Main("replay", run) }

const synopsis = `usage: replay [flags] [TRACE|-]
       replay hw list|preset|kinds|curve|items ...   (replay hw --help)
       replay sweep [flags] EXPERIMENT.json...        (replay sweep --help)

Replays a workload trace (SWF, SWF.gz, Parquet, Arrow stream or CSV, from a
file or standard input) through a scheduling policy and writes per-job
outcomes, a time series and a summary. "replay hw" prints the hardware cost
models' presets and curves and writes their reproductions of the papers;
"replay sweep" runs experiments described as data. A trace file named hw or
sweep is given as ./hw or ./sweep.

Examples:
  replay --policy easy ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz -o kth-easy.parquet
  replay --compat pyss --policy fcfs trace.swf.gz -o out.csv
  genwork lublin --jobs 1000 --procs 32 | replay --policy conservative | analyze`

// run dispatches the subcommands "hw" (hardware cost models, hw.go) and
// "sweep" (experiments, sweep.go); anything else replays a trace. A trace
// file named like a subcommand is given as ./hw or ./sweep.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "hw":
			return cli.InCommand("replay hw", runHW(args[1:], stdin, stdout, stderr))
		case "sweep":
			return cli.InCommand("replay sweep", runSweep(args[1:], stdin, stdout, stderr))
		}
	}
	return runReplay(args, stdin, stdout, stderr)
}

func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("replay", synopsis, stderr)
	var (
		policy       = fs.StringP("policy", "p", "easy", "scheduling policy: NAME[:KEY=VALUE,...] (see --list-policies)")
		listPolicies = fs.Bool("list-policies", false, "list the policies and their parameters, and exit")
		procs        = fs.Int("procs", 0, "simulate a flat machine of this many processors (default: the trace header's)")
		machineFlag  = fs.String("machine", "", "simulate NODESxPES, e.g. 144x8 (overrides --procs)")
		nodeAlloc    = fs.Bool("node-alloc", false, "allocate whole nodes")
		compat       = fs.String("compat", "", "compatibility mode: pyss (its cleaning, event order and passes; a flat MaxProcs)")
		clean        = fs.String("clean", "", "trace cleaning: default, pyss or none (default: default, or pyss under --compat pyss)")
		order        = fs.String("order", "ends-first", "order of same-time events: ends-first or pyss")
		passes       = fs.String("passes", "per-time", "scheduling passes: per-time or per-event")
		output       = fs.StringP("output", "o", "", "per-job outcomes: FILE.parquet, .arrow, .csv, or - for stdout (default: an Arrow stream on stdout unless it is a terminal)")
		format       = fs.String("format", "", "format of -o: parquet, arrow or csv (default: from the name)")
		series       = fs.String("timeseries", "", "write the time series (jobs in system, queued, running, busy processors) to FILE")
		period       = fs.String("sample-period", "", "sample the time series every DURATION of simulated time (e.g. 60s, 1h) instead of at every change")
		strict       = fs.Bool("strict", false, "refuse any value outside SWF 2.2 (in any input format; -1 is the only missing value), and repeated job numbers (default: keep the job, count the value)")
		lenient      = fs.Bool("lenient", false, "skip the lines (or rows) whose submit time, run time, processors or estimate (if the policy plans with it) are unusable (counted on stderr by field) instead of failing")
		seed         = fs.Uint64("seed", 1, "random seed of the policies that draw (local, sb), recorded in the manifest")
		hw           = fs.String("hw", "", "charge time sharing with a hardware cost model: a preset (replay hw list) or an edited preset FILE.json (default: switches are free)")
		mechanism    = fs.String("mechanism", "", "the preset family's switching mechanism (replay hw kinds; default: the family's first), e.g. division, switching-full, voluntary")
		tauFlag      = fs.String("tau", "", "short-job bound of the summary's bounded slowdown: "+model.DurationSyntax+" (default: 10s, or 10s / F for a workload genwork compressed by F)")
		quiet        = fs.BoolP("quiet", "q", false, "do not print the summary (what cleaning dropped is still said, on one line)")
	)
	fs.Lookup("sample-period").Usage = "sample the time series every period of simulated time, " + model.DurationSyntax + ", instead of at every change"
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *listPolicies {
		fmt.Fprint(stdout, policies.Describe())
		return nil
	}
	if fs.NArg() > 1 {
		return cli.Usagef("one trace at most, got %d", fs.NArg())
	}
	if *strict && *lenient {
		return cli.Usagef("--strict and --lenient contradict each other: choose one")
	}
	if _, err := summaryTau(*tauFlag, &model.Header{}); err != nil {
		return err
	}
	if err := cli.CheckProcs("--procs", int64(*procs)); err != nil {
		return err
	}
	switch pipelines.Compat(*compat) {
	case pipelines.CompatNone, pipelines.CompatPyss:
	default:
		return cli.Usagef("--compat %q: want pyss (or no --compat for gangsim's own rules)", *compat)
	}
	if *compat != "" {
		for _, f := range []string{"order", "passes"} {
			if fs.Changed(f) {
				return cli.Usagef("--%s has no effect under --compat %s, which sets the engine rules: drop one of them", f, *compat)
			}
		}
	}
	switch pipelines.Cleaning(*clean) {
	case "", pipelines.CleanDefault, pipelines.CleanPyss, pipelines.CleanNone:
	default:
		return cli.Usagef("--clean %q: want default, pyss or none", *clean)
	}
	if *nodeAlloc && *machineFlag == "" {
		return cli.Usagef("--node-alloc needs --machine NODESxPES: a flat machine has no nodes to allocate")
	}
	if *machineFlag != "" && fs.Changed("procs") {
		return cli.Usagef("--machine and --procs both give the machine size: drop one of them")
	}
	spec, err := policies.ParseSpec(*policy)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if err := policies.Check(spec); err != nil {
		return cli.Usagef("%v", err)
	}
	r := pipelines.Replay{Policy: spec, Procs: *procs, NodeAllocation: *nodeAlloc,
		Compat: pipelines.Compat(*compat), Clean: pipelines.Cleaning(*clean),
		Hardware: *hw, Mechanism: *mechanism, Seed: *seed}
	if err := r.CheckHardware(); err != nil {
		return cli.Usagef("%v", err)
	}
	if *machineFlag != "" {
		if r.Machine, err = model.ParseMachine(*machineFlag); err != nil {
			return cli.Usagef("--machine: %v", err)
		}
	}
	if err := r.CheckMachine(); err != nil {
		return cli.Usagef("%v", err)
	}
	if r.Order, err = sim.ParseOrder(*order); err != nil {
		return cli.Usagef("--order: %v", err)
	}
	if r.Passes, err = sim.ParsePasses(*passes); err != nil {
		return cli.Usagef("--passes: %v", err)
	}
	if *period != "" {
		if *series == "" {
			return cli.Usagef("--sample-period samples the time series: it needs --timeseries FILE")
		}
		d, err := model.ParseDuration(*period)
		if err != nil || d <= 0 {
			return cli.Usagef("--sample-period %q: want a positive duration: %s", *period, model.DurationSyntax)
		}
		r.SamplePeriod = d
	}
	outName := *output
	if outName == "" && !cli.IsTerminal(stdout) {
		outName = "-"
	}
	if outName == "" && fs.Changed("format") {
		return cli.Usagef("--format %s: standard output is a terminal; give -o FILE or pipe the output", *format)
	}
	var outFormat columnar.Format
	if outName != "" {
		if outFormat, err = fileio.ResolveFormat(outName, *format, columnar.FormatArrow); err != nil {
			return cli.Usagef("%v", err)
		}
		if outFormat == columnar.FormatSWF || outFormat == columnar.FormatSWFGzip {
			return cli.Usagef("outcomes cannot be written as SWF: use .parquet, .arrow or .csv")
		}
	}
	var seriesFormat columnar.Format
	if *series != "" {
		if seriesFormat, err = fileio.ResolveFormat(*series, "", columnar.FormatCSV); err != nil {
			return cli.Usagef("--timeseries: %v", err)
		}
		if seriesFormat == columnar.FormatSWF || seriesFormat == columnar.FormatSWFGzip {
			return cli.Usagef("--timeseries %s: a time series cannot be written as SWF: use .parquet, .arrow or .csv", *series)
		}
		if *series == "-" && outName == "-" {
			return cli.Usagef("--timeseries - and the outcomes both on standard output: give one of them a file")
		}
		if fileio.SameOutput(*series, outName) {
			return cli.Usagef("--timeseries %s and the outcomes (-o %s) are the same file: one would be lost; give each its own", *series, displayOutName(outName))
		}
	}

	inName := "-"
	if fs.NArg() == 1 {
		inName = fs.Arg(0)
	}
	in, err := fileio.OpenStream(inName, stdin) // standard input parsed as it arrives
	if err != nil {
		return err
	}
	defer in.Close()
	mode := fileio.SWFDefault
	switch {
	case *strict:
		mode = fileio.SWFStrict
	case *lenient:
		mode = fileio.SWFLenient
	}
	raw, err := in.TraceNeeding(mode, r.Needed())
	if err != nil {
		return err
	}
	if err := model.HeaderErr(raw); err != nil {
		return err // the header's own error (with its line), before its machine size is used
	}
	prefetch := fileio.Prefetch(raw) // parse on another core
	defer prefetch.Close()
	var src model.JobReader = prefetch
	params, err := r.Params(src.Header())
	fallback := ""
	if errors.Is(err, pipelines.ErrMachineUnknown) && *lenient {
		// The documented fallback: the widest job's processors, once the
		// whole trace is read (so held in memory), said on stderr and in
		// the manifest.
		var widest int
		if src, widest, err = pipelines.WidestJob(prefetch); err != nil {
			return fmt.Errorf("%s: %w", in.DisplayName(), err)
		}
		r.Procs = widest
		fallback = fmt.Sprintf("%d processors, the widest job's", widest)
		why := raw.Header().MachineErr()
		if why == nil { // --compat pyss: MaxProcs alone
			why = raw.Header().IntErr(model.KeyMaxProcs)
		}
		fmt.Fprintf(stderr, "replay: %s: the header gives no machine size (%v): --lenient simulates %s\n",
			in.DisplayName(), why, fallback)
		params, err = r.Params(src.Header())
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.DisplayName(), err)
	}
	if r.Tau, err = summaryTau(*tauFlag, src.Header()); err != nil {
		return err
	}
	params = append(params, model.Param{Name: "lenient", Value: strconv.FormatBool(*lenient)})
	if fallback != "" {
		params = append(params, model.Param{Name: "machine_fallback", Value: fallback})
	}
	if *strict {
		params = append(params, model.Param{Name: "strict", Value: "true"})
	}
	man := model.Manifest{Tool: "replay", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Seed: *seed, HasSeed: true, Params: params}
	if !in.Streamed() {
		man.Inputs = []model.Input{in.Manifest()}
	}
	header := src.Header().Clone()
	man.Apply(&header)

	var outcomes model.OutcomeWriter
	var outFile, seriesFile *fileio.Output
	if outName != "" {
		if outFile, err = fileio.Create(outName, outFormat, stdout); err != nil {
			return err
		}
		defer outFile.Abort()
		w, err := outFile.OutcomeWriter(&header)
		if err != nil {
			return err
		}
		async := fileio.NewAsyncOutcomes(w) // encode on another core
		defer async.Close()
		outcomes = async
	}
	var samples model.SampleWriter
	if *series != "" {
		if seriesFile, err = fileio.Create(*series, seriesFormat, stdout); err != nil {
			return err
		}
		defer seriesFile.Abort()
		if samples, err = seriesFile.SampleWriter(&header); err != nil {
			return err
		}
	}

	// What a replay that may take long says before and while it runs:
	// for a process-level policy, the jobs it cannot coschedule (said even
	// under -q) and, unless -q, the estimated cost of a long replay; on a
	// terminal, unless -q, a progress line. A named file is scanned once
	// first for them (its parse is fast beside such a replay); standard
	// input is watched as it is read.
	processLevel := policies.ProcessLevel(spec)
	showProgress := !*quiet && cli.ProgressOn(stderr)
	watch := &replayWatch{src: src, next: outcomes, spec: spec}
	var scan *pipelines.TraceScan
	if inName != "-" && !in.Streamed() && (showProgress || processLevel) {
		scan = scanInput(inName, mode, r.Needed(), spec)
	}
	if scan != nil {
		watch.total, watch.span = int64(scan.Jobs), scan.LastSubmit
	} else if n, ok := src.Header().Int(model.KeyMaxRecords); ok && n > 0 {
		watch.total = n
	}
	if processLevel {
		switch {
		case scan == nil:
			watch.warn = stderr
		case scan.NoApp > 0:
			fmt.Fprintf(stderr, "replay: %s: %d of %d jobs have no application attributes: %s\n", spec, scan.NoApp, scan.Jobs, noAppAdvice(spec))
		}
		if scan != nil && !*quiet && scan.EstimatedSeconds() >= longReplay.Seconds() {
			procs := r.Machine.Procs()
			if procs == 0 {
				procs = r.Procs
			}
			if procs == 0 {
				procs = src.Header().MaxProcs()
			}
			fmt.Fprintf(stderr, "replay: %s\n", costNotice(spec, scan, procs))
		}
	}
	var watched model.OutcomeWriter = watch
	if outcomes == nil && !showProgress {
		watched = nil // nothing to write nor to count
	}
	status := cli.StartStatus(stderr, showProgress, watch.render)
	res, err := r.Run(watch, watched, samples)
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
	if a, ok := outcomes.(*fileio.AsyncOutcomes); ok {
		if err := a.Close(); err != nil {
			return err
		}
	}
	// What is known only now goes into the outputs' trailer: the digest
	// of a streamed input, what cleaning dropped, the input's anomalies.
	if err := in.Finish(); err != nil {
		return err
	}
	var trailer []model.HeaderLine
	// The input's own trailer (an upstream step's late manifest lines,
	// read now that the input is done) joins ours as the header's other
	// upstream lines did: manifest keys prefixed.
	for _, l := range raw.Header().Lines[len(src.Header().Lines):] {
		trailer = append(trailer, model.Upstream(l))
	}
	if in.Streamed() {
		trailer = append(trailer, model.HeaderLine{Key: model.KeyGangsimInput, Value: in.SHA256 + " " + in.Name})
	}
	trailer = append(trailer, res.Clean.HeaderLines()...)
	anomalies := fileio.Anomalies(raw) // every format's, by the same rules
	trailer = append(trailer, anomalies.HeaderLines()...)
	for _, o := range []*fileio.Output{seriesFile, outFile} {
		if o != nil {
			o.AppendHeader(trailer...)
			if err := o.Commit(); err != nil {
				return err
			}
		}
	}
	// Nothing lost or changed silently: drops and anomalies are said even
	// under -q, on one line each.
	if len(anomalies) > 0 {
		if *quiet {
			fmt.Fprintf(stderr, "replay: %s: %s\n", in.DisplayName(), anomalies.Summary())
		} else {
			fmt.Fprintf(stderr, "replay: %s: %v\n", in.DisplayName(), anomalies)
		}
	}
	if s := res.Clean.DropSummary(); s != "" {
		why := ""
		if res.Clean.DroppedNoRuntime > 0 && paramValue(params, "clean") == string(pipelines.CleanPyss) {
			why = " (pyss truncates run times to whole seconds: a run under 1 s becomes 0 and is dropped)"
		}
		fmt.Fprintf(stderr, "replay: cleaning %s %s%s; genwork clean --preset %s lists them\n",
			paramValue(params, "clean"), s, why, paramValue(params, "clean"))
	}
	if !*quiet {
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
		fmt.Fprintf(stderr, "replay: %s on %s%s: %s\n", spec, res.Machine, charged, res.Summary.Line(res.Machine.Procs()))
	}
	return nil
}

// displayOutName names an output for a message: "-" is standard output.
func displayOutName(name string) string {
	if name == "-" {
		return "- (standard output)"
	}
	return name
}

func paramValue(ps []model.Param, name string) string {
	for _, p := range ps {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// summaryTau is the bounded slowdown's tau for the summary line: the flag's
// duration, else 10 s of real time in the workload's time, as the outcome
// table's bsld_rt10s column and analyze take it: 10 s divided by the time
// compression the input's manifests record (model.CompressionOf; 10 s when
// none does).
func summaryTau(flag string, h *model.Header) (model.Time, error) {
	if flag != "" {
		d, err := model.ParseDuration(flag)
		if err != nil {
			return 0, cli.Usagef("--tau: %v", err)
		}
		if d <= 0 {
			return 0, cli.Usagef("--tau %q: want a positive duration", flag)
		}
		return d, nil
	}
	f, err := model.CompressionOf(h)
	if err != nil {
		return 0, err
	}
	return metrics.CompressedTau(f), nil
}
