// Command genwork makes the workloads that replay runs: it generates them
// (the Lublin-Feitelson model, the thesis' static scenarios, the
// Calypso experiments, and synthetic workloads whose saturation point is
// known), converts traces between formats, cleans them,
// transforms them the way the thesis built its dynamic workload
// (application attributes, loose estimates, load scaling, time
// compression), and describes them.
//
//	genwork lublin [flags]
//	genwork synthetic [flags]
//	genwork scenario NAME [flags] | genwork scenario --list
//	genwork convert [flags] [TRACE|-]
//	genwork clean [flags] [TRACE|-]
//	genwork stats [flags] [TRACE|-]
//	genwork spec [flags] SPEC.json|-
//
// Every command that writes a workload builds a workload.Spec from its
// flags (--print-spec shows it as JSON) and writes the jobs the Spec yields
// to -o (SWF, gzipped SWF, Parquet, Arrow or CSV by extension or
// --format; an Arrow stream on standard output when that is not a
// terminal). Every output carries a manifest (tool, version, seed,
// parameters, input digests) and the MaxProcs/MaxNodes header replay
// reads.
package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

func main() { cli.Main("genwork", run) }

const synopsis = `usage: genwork COMMAND [flags] [ARGS]

Makes, converts, cleans, transforms and describes workloads.

Commands:
  lublin     generate jobs with the Lublin-Feitelson model (--preset thesis: the thesis' workload)
  synthetic  generate jobs whose saturation point is known (one size, exponential or Lublin runtimes)
  scenario   build one of the thesis' static scenarios or a Calypso experiment
  convert    convert a trace between SWF, SWF.gz, Parquet, Arrow and CSV
  clean      normalize a trace (drop jobs that never ran, fill estimates...)
  stats      describe a trace: jobs, span, sizes, runtimes, offered load, estimates
  spec       make the workload a JSON spec describes (see --print-spec)

convert, clean, lublin, synthetic and spec also transform the jobs, in this order:
application attributes (--app, --granularity, --pattern, --comm...),
estimates (--estimates), load (--load, --scale) and compression
(--compress); scenario takes estimates and compression only. Run
'genwork COMMAND --help' for a command's flags.

Examples:
  genwork lublin --jobs 1000 --procs 32 --seed 7 | replay --policy easy -o out.parquet
  genwork lublin --preset thesis --load 0.74 -o thesis.parquet
  genwork clean --preset pyss ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz -o kth.parquet
  genwork stats kth.parquet`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return cli.Usagef("no command (want lublin, synthetic, scenario, convert, clean, stats or spec)")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "-h", "--help", "help":
		return &cli.Help{Text: synopsis + "\n"}
	case "--version":
		return cli.Version("genwork")
	case "lublin", "synthetic", "scenario", "convert", "clean", "stats", "spec":
		return cli.InCommand("genwork "+cmd, runCommand(cmd, rest, stdin, stdout, stderr))
	}
	return cli.Usagef("unknown command %q (want lublin, synthetic, scenario, convert, clean, stats or spec)", cmd)
}

func runCommand(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch cmd {
	case "lublin":
		return runLublin(args, stdin, stdout, stderr)
	case "synthetic":
		return runSynthetic(args, stdin, stdout, stderr)
	case "scenario":
		return runScenario(args, stdin, stdout, stderr)
	case "convert", "clean":
		return runTrace(cmd, args, stdin, stdout, stderr)
	case "stats":
		return runStats(args, stdin, stdout, stderr)
	}
	return runSpec(args, stdin, stdout, stderr)
}

// outputFlags are the flags of every command that writes a workload.
type outputFlags struct {
	output    *string
	format    *string
	printSpec *bool
	quiet     *bool
}

func addOutputFlags(fs *pflag.FlagSet) *outputFlags {
	return &outputFlags{
		output:    fs.StringP("output", "o", "", "write the workload to FILE (.swf, .swf.gz, .parquet, .arrow, .csv) or - for stdout (default: an Arrow stream on stdout unless it is a terminal)"),
		format:    fs.String("format", "", "format of -o: swf, swf.gz, parquet, arrow or csv (default: from the name)"),
		printSpec: fs.Bool("print-spec", false, "print the workload spec as JSON and exit, without making the workload"),
		quiet:     fs.BoolP("quiet", "q", false, "print nothing on stderr but errors"),
	}
}

// resolve returns the output's name and format, refusing to write binary
// data to a terminal.
func (o *outputFlags) resolve(stdout io.Writer) (string, columnar.Format, error) {
	name := *o.output
	if name == "" {
		name = "-"
		if cli.IsTerminal(stdout) && *o.format != "swf" && *o.format != "csv" {
			return "", 0, cli.Usagef("standard output is a terminal: give -o FILE, pipe the output, or use --format swf or csv")
		}
	}
	f, err := fileio.ResolveFormat(name, *o.format, columnar.FormatArrow)
	if err != nil {
		return "", 0, cli.Usagef("%v", err)
	}
	return name, f, nil
}

// transformFlags are the flags of the transforms.
type transformFlags struct {
	fs                   *pflag.FlagSet
	app                  *bool
	granularity, weights *string
	pattern, comm        *string
	imbalance            *float64
	messageBytes         *int64
	memPerProc           *int64
	estimates            *string
	maxFactor            *float64
	load                 *float64
	scale                *string
	loadProcs            *int
	compress             *float64
	seed                 *uint64
	withAttrs, withLoad  bool
}

// addTransformFlags registers the transforms' flags; attributes and load
// only where they apply.
func addTransformFlags(fs *pflag.FlagSet, attributes, load bool) *transformFlags {
	t := &transformFlags{fs: fs, withAttrs: attributes, withLoad: load}
	if attributes {
		t.app = fs.Bool("app", false, "assign application attributes: the thesis' dynamic workload (6.4.1) unless the flags below change them; any of them implies --app")
		t.granularity = fs.String("granularity", "5ms,50ms,500ms", "computation granularities per BSP iteration to draw from, one per job: each "+model.DurationSyntax)
		t.weights = fs.String("granularity-weights", "", "relative probabilities of the granularities (default: equal)")
		t.pattern = fs.String("pattern", "ring", "communication pattern: none, ring, all-to-all or barrier")
		t.comm = fs.String("comm", "blocking", "communication calls: blocking or non-blocking")
		t.imbalance = fs.Float64("imbalance", 0, "load imbalance: the slowest process computes (1+X) x the granularity")
		t.messageBytes = fs.Int64("message-bytes", 0, "bytes each process sends per iteration (default: unspecified)")
		t.memPerProc = fs.Int64("mem-per-proc-kb", 0, "memory each process needs, in KB (1024 bytes), which a hardware model with node memory pages when a node is short of it (default: the jobs' own, else unspecified)")
	}
	t.estimates = fs.String("estimates", "trace", "user estimates: trace (keep), exact (= runtime) or loose (runtime x factor uniform on [1, max])")
	t.maxFactor = fs.Float64("max-estimate-factor", workload.ThesisMaxEstimateFactor, "largest factor of loose estimates (implies --estimates loose)")
	if load {
		t.load = fs.Float64("load", 0, "scale to this offered load: sum(size x runtime) / (procs x arrival span)")
		t.scale = fs.String("scale", "runtimes", "what --load scales: runtimes (with estimates; the thesis' method) or arrivals (inter-arrival times)")
		t.loadProcs = fs.Int("load-procs", 0, "machine size of the offered load, processors (default: the header's MaxProcs)")
	}
	t.compress = fs.Float64("compress", 0, "divide every time by this factor after the other transforms (the thesis used 100)")
	t.seed = fs.Uint64("seed", 1, "random seed of every draw (generator, granularities, estimates)")
	return t
}

// apply writes the transforms into spec. Over a preset (spec.Preset set),
// only the transforms whose flags were given replace the preset's.
func (t *transformFlags) apply(spec *workload.Spec) error {
	fs := t.fs
	spec.Seed = *t.seed
	overPreset := spec.Preset != ""
	if t.withAttrs {
		changed := false
		for _, n := range []string{"granularity", "granularity-weights", "pattern", "comm", "imbalance", "message-bytes", "mem-per-proc-kb"} {
			changed = changed || fs.Changed(n)
		}
		if *t.app || changed {
			a := &workload.Attributes{Pattern: *t.pattern, Comm: *t.comm, Imbalance: *t.imbalance, MessageBytes: *t.messageBytes,
				MemPerProcKB: *t.memPerProc}
			if fs.Changed("granularity") {
				for _, g := range splitList(*t.granularity) {
					d, err := model.ParseDuration(g)
					if err != nil {
						return cli.Usagef("--granularity: %v", err)
					}
					a.Granularities = append(a.Granularities, model.Duration(d))
				}
			}
			for _, w := range splitList(*t.weights) {
				x, err := strconv.ParseFloat(w, 64)
				if err != nil {
					return cli.Usagef("--granularity-weights: %q is not a number", w)
				}
				a.Weights = append(a.Weights, x)
			}
			spec.Attributes = a
		}
	}
	mode := *t.estimates
	if fs.Changed("max-estimate-factor") {
		if !fs.Changed("estimates") {
			mode = workload.EstimatesLoose
		} else if mode != workload.EstimatesLoose {
			return cli.Usagef("--max-estimate-factor applies to --estimates loose, not %s", mode)
		}
	}
	switch {
	case overPreset && !fs.Changed("estimates") && !fs.Changed("max-estimate-factor"):
	case mode == workload.EstimatesTrace && !overPreset:
		spec.Estimates = nil
	default:
		e := &workload.Estimates{Mode: mode}
		if mode == workload.EstimatesLoose && *t.maxFactor != workload.ThesisMaxEstimateFactor {
			e.MaxFactor = *t.maxFactor
		}
		spec.Estimates = e
	}
	if t.withLoad {
		if err := cli.CheckProcs("--load-procs", int64(*t.loadProcs)); err != nil {
			return err
		}
		if fs.Changed("load") {
			spec.Load = &workload.Load{Target: *t.load, Scale: *t.scale, Procs: *t.loadProcs}
		} else if fs.Changed("scale") || fs.Changed("load-procs") {
			return cli.Usagef("--scale and --load-procs need --load")
		}
	}
	if fs.Changed("compress") {
		if !(*t.compress > 0) {
			return cli.Usagef("--compress %v: want a positive factor", *t.compress)
		}
		spec.Compress = *t.compress
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

const lublinSynopsis = `usage: genwork lublin [flags]

Generates a workload with the Lublin-Feitelson model (U. Lublin and
D. G. Feitelson, JPDC 63(11), 2003; the reference program m_lublin99.c), as
the thesis' dynamic workload did (Frachtenberg, 6.4.1: 1000 jobs on 32
processors), then applies the transforms. Streams in constant memory unless
--load is given, which generates the jobs three times (measure, check,
write), still in constant memory.

The thesis' dynamic workload as the thesis describes it (6.4.1: 1000 jobs
over about 8 days, median size just under 4, biased toward powers of two,
raw offered load about 98% on 32 processors; loose estimates, granularities
5/50/500 ms, time divided by 100) is --preset thesis: the model's single
class on 32 processors, keeping for each seed the first workload drawn whose
span, median size and raw load are the thesis' (--select). Flags given with
a preset replace its values.

Examples:
  genwork lublin --jobs 1000 --procs 32 --seed 7 | replay --policy easy -o out.parquet
  genwork lublin --preset thesis --load 0.74 --seed 1 -o thesis.parquet
  genwork lublin --preset thesis --print-spec
  genwork lublin --mix combined --procs 32 --select span_days=7..9,load=0.93..1.03 -o w.csv
  genwork lublin --mix combined --combined-params u_med=3,serial_prob=0.2 -o w.csv
  genwork lublin --mix combined --procs 32 --model-procs 64 | genwork stats`

func runLublin(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("genwork lublin", lublinSynopsis, stderr)
	var (
		preset      = fs.String("preset", "", "start from a workload preset: "+strings.Join(workload.PresetNames(), ", ")+" (the thesis' dynamic workload, 6.4.1)")
		jobs        = fs.Int64("jobs", 1000, "number of jobs")
		procs       = fs.Int("procs", 128, "machine size, processors (the model's size parameters adapt to it)")
		modelProcs  = fs.Int("model-procs", 0, "draw sizes (and the runtimes that follow them) for this many processors instead, then cut every size above --procs to --procs (0: draw for --procs)")
		mix         = fs.String("mix", "both", "job classes: both (batch and interactive streams, the reference default), combined, batch or interactive")
		startHour   = fs.Int("start-hour", 0, "hour of the day, 0-23, at which time 0 falls")
		batch       = fs.String("batch-params", "", "override batch parameters: NAME=VALUE,... (names: "+strings.Join(workload.LublinParamNames(), ", ")+")")
		interactive = fs.String("interactive-params", "", "override interactive parameters: NAME=VALUE,...")
		combined    = fs.String("combined-params", "", "override combined-class parameters: NAME=VALUE,...")
		selection   = fs.String("select", "", "keep the first workload drawn from the seed's stream whose statistics are in every window [MIN, MAX): NAME=MIN..MAX,... (span_days, median_size, power_of_two_share of the parallel jobs, load on --procs)")
		maxDraws    = fs.Int("max-draws", 0, "with --select, fail after this many workloads drawn (default 10000)")
	)
	tf := addTransformFlags(fs, true, true)
	of := addOutputFlags(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("genwork lublin takes no arguments, got %q", fs.Args())
	}
	if err := cli.CheckProcs("--procs", int64(*procs)); err != nil {
		return err
	}
	if *jobs < 0 {
		return cli.Usagef("--jobs %d is negative", *jobs)
	}
	spec := &workload.Spec{}
	if *modelProcs < 0 {
		return cli.Usagef("--model-procs %d is negative", *modelProcs)
	}
	src := &workload.LublinSource{Jobs: *jobs, Procs: *procs, ModelProcs: *modelProcs, Mix: *mix, StartHour: *startHour}
	if *preset != "" {
		p, err := workload.Preset(*preset)
		if err != nil {
			return cli.Usagef("--preset: %v", err)
		}
		if p.Source.Lublin == nil {
			return cli.Usagef("--preset %s is not a Lublin workload", *preset)
		}
		spec = &p
		src = p.Source.Lublin
		for _, f := range []struct {
			flag string
			set  func()
		}{
			{"jobs", func() { src.Jobs = *jobs }}, {"procs", func() { src.Procs = *procs }},
			{"model-procs", func() { src.ModelProcs = *modelProcs }},
			{"mix", func() { src.Mix = *mix }}, {"start-hour", func() { src.StartHour = *startHour }},
		} {
			if fs.Changed(f.flag) {
				f.set()
			}
		}
	}
	if *selection != "" {
		sel, err := workload.ParseSelection(*selection)
		if err != nil {
			return cli.Usagef("--select: %v", err)
		}
		src.Select = sel
	}
	if fs.Changed("max-draws") {
		if src.Select == nil {
			return cli.Usagef("--max-draws needs --select (or a preset that selects)")
		}
		src.Select.MaxDraws = *maxDraws
	}
	var err error
	for _, p := range []struct {
		flag string
		val  string
		dst  *map[string]float64
	}{{"batch-params", *batch, &src.Batch}, {"interactive-params", *interactive, &src.Interactive}, {"combined-params", *combined, &src.Combined}} {
		if p.val == "" {
			continue
		}
		if *p.dst, err = workload.ParseLublinParams(p.val); err != nil {
			return cli.Usagef("--%s: %v", p.flag, err)
		}
	}
	spec.Source = workload.Source{Lublin: src}
	if err := tf.apply(spec); err != nil {
		return err
	}
	return produce("genwork lublin", spec, of, stdin, stdout, stderr)
}

const syntheticSynopsis = `usage: genwork synthetic [flags]

Generates a workload whose saturation point is known by construction
(workload.SyntheticSource): every job has --size processors, which divides
--procs, and a runtime drawn independently, exponential (--runtimes
exponential) or the Lublin model's heavy-tailed runtime for that size
(lublin); jobs arrive by a Poisson process (--arrivals poisson), a Poisson
process following the Lublin model's daily cycle (daily), or the Lublin
model's own bursty process (lublin). The machine is then --procs/--size
identical servers, and FCFS and EASY (which makes FCFS's schedule here)
saturate at offered load 1: the workloads that check a saturation test
(results/method/saturation-check, saturation-seeds and saturation-heavy).

Examples:
  genwork synthetic --jobs 10000 --procs 32 --load 0.95 | replay --policy fcfs | analyze --saturation
  genwork synthetic --jobs 30000 --procs 32 --size 4 --arrivals daily --load 1.05 -o w.parquet
  genwork synthetic --jobs 1000 --procs 32 --size 4 --arrivals lublin --runtimes lublin --load 1.1 -o w.parquet`

func runSynthetic(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("genwork synthetic", syntheticSynopsis, stderr)
	var (
		jobs     = fs.Int64("jobs", 10000, "number of jobs")
		procs    = fs.Int("procs", 32, "machine size, processors")
		size     = fs.Int("size", 1, "every job's size, processors (must divide --procs)")
		arrivals = fs.String("arrivals", workload.ArrivalsPoisson, "arrival process: poisson, daily (Poisson with the Lublin model's daily cycle) or lublin (the model's own)")
		meanGap  = fs.String("mean-interarrival", "", "mean time between arrivals of the Poisson processes, "+model.DurationSyntax+" (default 100s)")
		runtimes = fs.String("runtimes", workload.RuntimesExponential, "runtime distribution: exponential or lublin (the Lublin model's for --size processors)")
		meanRun  = fs.String("mean-runtime", "", "mean of the exponential runtimes, "+model.DurationSyntax+" (default procs/size x 100s; --load rescales it)")
	)
	tf := addTransformFlags(fs, true, true)
	of := addOutputFlags(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("genwork synthetic takes no arguments, got %q", fs.Args())
	}
	if err := cli.CheckProcs("--procs", int64(*procs)); err != nil {
		return err
	}
	if err := cli.CheckProcs("--size", int64(*size)); err != nil {
		return err
	}
	src := &workload.SyntheticSource{Jobs: *jobs, Procs: *procs, Size: *size, Arrivals: *arrivals, Runtimes: *runtimes}
	for _, d := range []struct {
		flag, val string
		dst       *model.Duration
	}{{"mean-interarrival", *meanGap, &src.MeanInterarrival}, {"mean-runtime", *meanRun, &src.MeanRuntime}} {
		if d.val == "" {
			continue
		}
		v, err := model.ParseDuration(d.val)
		if err != nil {
			return cli.Usagef("--%s: %v", d.flag, err)
		}
		*d.dst = model.Duration(v)
	}
	spec := &workload.Spec{Source: workload.Source{Synthetic: src}}
	if err := tf.apply(spec); err != nil {
		return err
	}
	return produce("genwork synthetic", spec, of, stdin, stdout, stderr)
}

const traceSynopsis = `usage: genwork %[1]s [flags] [TRACE|-]

%[2]s

The input may be SWF (plain or gzipped), Parquet, an Arrow stream or CSV,
from a file or standard input (-, the default); its format is detected from
its first bytes. The output format comes from -o's extension or --format.
Files are streamed in constant memory; --load reads the input three times
(standard input is spooled to a temporary file).

Examples:
%[3]s`

func runTrace(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	what := "Converts a trace from any format gangsim reads to any it writes, applying\nthe transforms given (none by default)."
	examples := "  genwork convert ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz -o kth.parquet\n" +
		"  genwork convert kth.parquet --format swf -o - | less\n" +
		"  genwork convert kth.parquet --estimates exact --load 0.7 -o kth-70.arrow"
	if cmd == "clean" {
		what = "Normalizes a trace with the rules given (swf.Options; --preset pyss is the\n" +
			"cleaning of the pyss oracle, swf.PyssOptions) and prints how many jobs each\n" +
			"rule dropped or changed on stderr. Rules apply in the order listed."
		examples = "  genwork clean --preset pyss ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz -o kth.parquet\n" +
			"  genwork clean --no-runtime drop --no-estimate from-runtime --order sort trace.swf -o clean.swf"
	}
	fs := cli.NewFlagSet("genwork "+cmd, fmt.Sprintf(traceSynopsis, cmd, what, examples), stderr)
	var cf *cleanFlags
	if cmd == "clean" {
		cf = addCleanFlags(fs)
	}
	rf := addReadFlags(fs)
	var dropped *string
	if cmd == "clean" {
		dropped = fs.String("dropped", "", "also write every dropped job to `FILE` (- for stderr) as CSV: job_id, line (SWF) or row, reason")
	}
	skip := fs.Int("skip", 0, "leave out the first `N` jobs (after cleaning, before the transforms)")
	jobs := fs.Int("jobs", 0, "keep `N` jobs from there on (0: all): a window of a log, as the spec's trace source skip and jobs")
	tf := addTransformFlags(fs, true, true)
	of := addOutputFlags(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return cli.Usagef("one trace at most, got %d", fs.NArg())
	}
	if err := rf.check(); err != nil {
		return err
	}
	if *skip < 0 || *jobs < 0 {
		return cli.Usagef("--skip %d, --jobs %d: want counts >= 0", *skip, *jobs)
	}
	src := &workload.TraceSource{Path: "-", Lenient: *rf.lenient, Strict: *rf.strict, Skip: *skip, Jobs: *jobs}
	if fs.NArg() == 1 {
		src.Path = fs.Arg(0)
	}
	if cf != nil {
		c, err := cf.cleaning()
		if err != nil {
			return err
		}
		src.Clean = c
	}
	spec := &workload.Spec{Source: workload.Source{Trace: src}}
	if err := tf.apply(spec); err != nil {
		return err
	}
	if dropped != nil && *dropped != "" {
		if src.Path == "-" {
			return cli.Usagef("--dropped reads the trace a second time: give it as a file, not standard input")
		}
		droppedOut := *dropped
		if droppedOut == "-" {
			droppedOut = "/dev/stderr" // "-" is standard error here
		}
		out := *of.output
		if out == "" {
			out = "-"
		}
		if fileio.SameOutput(droppedOut, out) {
			return cli.Usagef("--dropped %s and the workload (-o %s) are the same file: one would be lost; give each its own", *dropped, out)
		}
		if err := listDropped(src, *dropped, stderr); err != nil {
			return err
		}
	}
	return produce("genwork "+cmd, spec, of, stdin, stdout, stderr)
}

// readFlags choose how strictly an SWF input is read.
type readFlags struct{ strict, lenient *bool }

func addReadFlags(fs *pflag.FlagSet) *readFlags {
	return &readFlags{
		strict:  fs.Bool("strict", false, "refuse any value outside SWF 2.2 (in any input format; -1 is the only missing value), and repeated job numbers (default: keep the job, count the value on stderr and in the manifest)"),
		lenient: fs.Bool("lenient", false, "skip the lines (or rows) whose submit time, run time, processors or estimate are unusable (counted on stderr by field) instead of failing"),
	}
}

func (r *readFlags) check() error {
	if *r.strict && *r.lenient {
		return cli.Usagef("--strict and --lenient contradict each other: choose one")
	}
	return nil
}

// listDropped writes every job that src's cleaning drops, with its reason,
// as CSV to name ("-" for stderr): a second read of the trace, with the
// same rules, before the workload is made.
func listDropped(src *workload.TraceSource, name string, stderr io.Writer) error {
	opt, err := src.Clean.Options()
	if err != nil {
		return cli.Usagef("%v", err)
	}
	in, err := fileio.Open(src.Path, nil)
	if err != nil {
		return err
	}
	defer in.Close()
	mode := fileio.SWFDefault
	switch {
	case src.Strict:
		mode = fileio.SWFStrict
	case src.Lenient:
		mode = fileio.SWFLenient
	}
	raw, err := in.TraceMode(mode)
	if err != nil {
		return err
	}
	norm, err := swf.NewNormalizer(raw, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", in.DisplayName(), err)
	}
	out, err := atomicfile.Create(name, stderr)
	if err != nil {
		return err
	}
	defer out.Abort()
	cw := csv.NewWriter(out)
	cw.Write([]string{"job_id", "line", "reason"})
	norm.OnDrop = func(j *model.Job, reason swf.DropReason) {
		line := norm.Report().Read // the row of a table
		if p, ok := raw.(swf.Positioner); ok {
			_, line = p.Position()
		}
		cw.Write([]string{strconv.FormatInt(j.ID, 10), strconv.Itoa(line), reason.String()})
	}
	for {
		if _, err := norm.Read(); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return out.Commit()
}

// cleanFlags are the normalization rules' flags.
type cleanFlags struct {
	preset                                               *string
	wholeSeconds, dropBadSubmit, dropNoSize, dropTooWide *bool
	machineProcs                                         *int
	noRuntime                                            *string
	unifySize                                            *bool
	noEstimate, overrun, order                           *string
}

func addCleanFlags(fs *pflag.FlagSet) *cleanFlags {
	c := &cleanFlags{}
	c.preset = fs.String("preset", "", "start from a preset: default (replay's default cleaning, swf.DefaultOptions) or pyss (the pyss oracle's, swf.PyssOptions); the rule flags add to it")
	c.wholeSeconds = fs.Bool("whole-seconds", false, "1. truncate every time to whole seconds")
	c.dropBadSubmit = fs.Bool("drop-bad-submit", false, "2. drop jobs whose submit time is missing or negative")
	c.dropNoSize = fs.Bool("drop-no-size", false, "3. drop jobs without a positive size")
	c.dropTooWide = fs.Bool("drop-too-wide", false, "4. drop jobs wider than the machine (--machine-procs, or the header's MaxProcs)")
	c.machineProcs = fs.Int("machine-procs", 0, "machine size for --drop-too-wide, processors (default: the header's MaxProcs)")
	c.noRuntime = fs.String("no-runtime", "", "5. jobs whose runtime is missing or <= 0: keep, drop or one-second")
	c.unifySize = fs.Bool("unify-size", false, "6. write the size into the allocated and requested processors")
	c.noEstimate = fs.String("no-estimate", "", "7. jobs whose estimate is missing or <= 0: keep or from-runtime")
	c.overrun = fs.String("overrun", "", "8. jobs that ran past their estimate: keep, truncate-runtime or raise-estimate")
	c.order = fs.String("order", "", "9. submit times out of order: keep, sort (in memory) or fail")
	return c
}

func (c *cleanFlags) cleaning() (*workload.Cleaning, error) {
	if err := cli.CheckProcs("--machine-procs", int64(*c.machineProcs)); err != nil {
		return nil, err
	}
	cl := &workload.Cleaning{Preset: *c.preset, WholeSeconds: *c.wholeSeconds, DropBadSubmit: *c.dropBadSubmit,
		DropNoSize: *c.dropNoSize, DropTooWide: *c.dropTooWide, MachineProcs: *c.machineProcs,
		NoRuntime: *c.noRuntime, UnifySize: *c.unifySize, NoEstimate: *c.noEstimate, Overrun: *c.overrun, Order: *c.order}
	if _, err := cl.Options(); err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return cl, nil
}

const scenarioSynopsis = `usage: genwork scenario NAME [flags]
       genwork scenario --list

Builds one of the thesis' static scenarios (Frachtenberg, 6.3.2) or a
Calypso experiment (McLaughlin and Dasgupta): hand-placed jobs with their
application attributes. --list shows the names.

Examples:
  genwork scenario --list
  genwork scenario balanced --comm non-blocking -o balanced.parquet
  genwork scenario calypso --tasks 3 --machines 2 --task-length 259s | replay --policy fcfs`

func runScenario(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("genwork scenario", scenarioSynopsis, stderr)
	var (
		list       = fs.Bool("list", false, "list the scenarios and exit")
		comm       = fs.String("comm", "", "communication of the thesis scenarios: blocking (their default) or non-blocking (thesis Table 6.5)")
		tasks      = fs.Int("tasks", 0, "calypso: number of equal tasks (p); benchmark scenarios (sweep3d, hori*, fm-bandwidth): copies")
		machines   = fs.Int("machines", 0, "calypso: number of workstations (m); benchmark scenarios: processors per copy; sage-filler, bcs-mpi-bench: processes")
		taskLength = fs.String("task-length", "", "calypso: each task's sequential run time, "+model.DurationSyntax+"; sage-filler: the filler's run time (none: SAGE alone); bcs-mpi-bench: the job's")
	)
	tf := addTransformFlags(fs, false, false)
	of := addOutputFlags(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *list {
		return listScenarios(stdout)
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one scenario NAME (see --list), got %d arguments", fs.NArg())
	}
	src := &workload.ScenarioSource{Name: fs.Arg(0), Comm: *comm, Tasks: *tasks, Machines: *machines}
	if *taskLength != "" {
		d, err := model.ParseDuration(*taskLength)
		if err != nil {
			return cli.Usagef("--task-length: %v", err)
		}
		src.TaskLength = model.Duration(d)
	}
	spec := &workload.Spec{Source: workload.Source{Scenario: src}}
	if err := tf.apply(spec); err != nil {
		return err
	}
	if err := workload.CheckScenario(src); err != nil {
		return cli.Usagef("%v", err)
	}
	return produce("genwork scenario", spec, of, stdin, stdout, stderr)
}

func listScenarios(stdout io.Writer) error {
	infos := workload.Scenarios()
	width := 0
	for _, in := range infos {
		width = max(width, len(in.Name))
	}
	for _, in := range infos {
		fmt.Fprintf(stdout, "%-*s  %s\n%-*s  (%s)\n", width, in.Name, in.Description, width, "", in.Source)
	}
	return nil
}

const specSynopsis = `usage: genwork spec [flags] SPEC.json|-

Makes the workload a JSON spec describes (workload.Spec: the source, the
transforms and the seed), as experiment files embed it. --print-spec on any
other command prints the spec of its flags.

Example:
  genwork lublin --jobs 1000 --procs 32 --estimates loose --print-spec > w.json
  genwork spec w.json -o w.parquet`

func runSpec(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("genwork spec", specSynopsis, stderr)
	of := addOutputFlags(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one SPEC.json (or - for stdin), got %d arguments", fs.NArg())
	}
	var in io.Reader = stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	spec, err := workload.ParseSpec(in)
	if err != nil {
		return fmt.Errorf("%s: %w", displayName(fs.Arg(0)), err)
	}
	if fs.Arg(0) == "-" {
		stdin = nil // the spec came from it: a trace source cannot read it too
	}
	return produce("genwork spec", spec, of, stdin, stdout, stderr)
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// produce writes the workload spec describes, or prints spec under
// --print-spec.
func produce(tool string, spec *workload.Spec, of *outputFlags, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := spec.Validate(); err != nil {
		if tool == "genwork spec" {
			return err
		}
		return cli.Usagef("%v", err)
	}
	if *of.printSpec {
		b, err := json.MarshalIndent(spec, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	name, format, err := of.resolve(stdout)
	if err != nil {
		return err
	}
	r, err := spec.Open(stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	header := r.Header().Clone()
	man := r.Manifest(tool)
	man.Apply(&header)

	out, err := fileio.Create(name, format, stdout)
	if err != nil {
		return err
	}
	defer out.Abort()
	w, err := out.TraceWriter(&header)
	if err != nil {
		return err
	}
	src := fileio.Prefetch(r) // read, generate and transform on another core
	defer src.Close()
	n := 0
	for {
		j, err := src.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := w.Write(&j); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		n++
	}
	dropped := fileio.DroppedApps(w)
	// What is known only now goes into the output's trailer: what
	// cleaning dropped, the input's anomalies.
	rep, cleaned := r.Cleaning()
	anomalies := r.Anomalies()
	out.AppendHeader(append(rep.HeaderLines(), anomalies.HeaderLines()...)...)
	if err := out.Commit(); err != nil {
		return err
	}
	// Nothing lost or changed silently: said on one line each even under
	// -q.
	if *of.quiet {
		if len(anomalies) > 0 {
			fmt.Fprintf(stderr, "%s: %s\n", tool, anomalies.Summary())
		}
		if s := rep.DropSummary(); s != "" {
			fmt.Fprintf(stderr, "%s: cleaning %s\n", tool, s)
		}
		return nil
	}
	if len(anomalies) > 0 {
		fmt.Fprintf(stderr, "%s: %v\n", tool, anomalies)
	}
	if cleaned && tool == "genwork clean" {
		fmt.Fprintf(stderr, "%s: cleaning %s\n%s", tool, r.Inputs()[0].Name, rep)
	} else if s := rep.DropSummary(); s != "" {
		fmt.Fprintf(stderr, "%s: cleaning %s\n", tool, s)
	}
	if sc, ok := r.LoadScaling(); ok {
		what := "runtimes"
		if sc.Scale == workload.ScaleArrivals {
			what = "submit times"
		}
		fmt.Fprintf(stderr, "%s: offered load on %d processors %.4f -> %.4f (target %v): %s multiplied by %.6g\n",
			tool, sc.Procs, sc.Before, sc.Reached, sc.Target, what, sc.Factor)
	}
	if dropped > 0 {
		fmt.Fprintf(stderr, "%s: %d jobs lost their application attributes: SWF has no place for them (use .parquet, .arrow or .csv)\n", tool, dropped)
	}
	fmt.Fprintf(stderr, "%s: %d jobs written to %s (%s)\n", tool, n, displayOut(name), format)
	return nil
}

func displayOut(name string) string {
	if name == "-" {
		return "<stdout>"
	}
	return name
}

const statsSynopsis = `usage: genwork stats [flags] [TRACE|-]

Describes a trace: jobs, arrival span, inter-arrival times, sizes,
runtimes, work, offered load = sum(size x runtime) / (procs x span) with
span = last submit - first submit, and the accuracy of the estimates
(runtime / estimate). Human-readable by default, JSON with --json. Holds
about 32 bytes per job in memory for the quantiles.

Examples:
  genwork stats ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
  genwork lublin --jobs 1000 --procs 32 | genwork stats --json`

func runStats(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("genwork stats", statsSynopsis, stderr)
	var (
		asJSON = fs.Bool("json", false, "print JSON instead of text")
		procs  = fs.Int("procs", 0, "machine size for the offered load, processors (default: the header's MaxProcs)")
	)
	rf := addReadFlags(fs)
	lenient := rf.lenient
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return cli.Usagef("one trace at most, got %d", fs.NArg())
	}
	if err := rf.check(); err != nil {
		return err
	}
	if err := cli.CheckProcs("--procs", int64(*procs)); err != nil {
		return err
	}
	src := &workload.TraceSource{Path: "-", Lenient: *lenient, Strict: *rf.strict}
	if fs.NArg() == 1 {
		src.Path = fs.Arg(0)
	}
	spec := &workload.Spec{Source: workload.Source{Trace: src}}
	r, err := spec.Open(stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	st, err := workload.ComputeStats(r, *procs)
	if err != nil {
		return err
	}
	a := r.Anomalies()
	if len(a) > 0 {
		fmt.Fprintf(stderr, "genwork stats: %v\n", a)
	}
	// The input's anomalies by field are part of the statistics.
	var anomalies []string
	for _, l := range a.HeaderLines() {
		anomalies = append(anomalies, l.Value)
	}
	if *asJSON {
		man := model.Manifest{Tool: "genwork stats", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Inputs: r.Inputs(), Params: []model.Param{
			{Name: "lenient", Value: strconv.FormatBool(*lenient)}, {Name: "procs", Value: strconv.Itoa(*procs)}}}
		if *rf.strict {
			man.Params = append(man.Params, model.Param{Name: "strict", Value: "true"})
		}
		out := struct {
			Manifest model.Manifest `json:"manifest"`
			*workload.Stats
			Anomalies []string `json:"anomalies,omitempty"`
		}{man, st, anomalies}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	text := st.String()
	for _, l := range anomalies {
		text += "anomaly: " + l + "\n"
	}
	_, err = io.WriteString(stdout, text)
	return err
}
