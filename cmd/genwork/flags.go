package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

// The flags the commands share, each set with its checks: every flag is
// checked in one place.

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
	spec.Seed = *t.seed
	if t.withAttrs {
		if err := t.attributes(spec); err != nil {
			return err
		}
	}
	if err := t.estimatesInto(spec); err != nil {
		return err
	}
	if t.withLoad {
		if err := t.loadInto(spec); err != nil {
			return err
		}
	}
	if t.fs.Changed("compress") {
		if !(*t.compress > 0) {
			return cli.Usagef("--compress %v: want a positive factor", *t.compress)
		}
		spec.Compress = *t.compress
	}
	return nil
}

// attributes sets spec's application attributes when --app or any of
// their flags is given.
func (t *transformFlags) attributes(spec *workload.Spec) error {
	changed := false
	for _, n := range []string{"granularity", "granularity-weights", "pattern", "comm", "imbalance", "message-bytes", "mem-per-proc-kb"} {
		changed = changed || t.fs.Changed(n)
	}
	if !*t.app && !changed {
		return nil
	}
	a := &workload.Attributes{Pattern: *t.pattern, Comm: *t.comm, Imbalance: *t.imbalance, MessageBytes: *t.messageBytes,
		MemPerProcKB: *t.memPerProc}
	if t.fs.Changed("granularity") {
		for _, g := range splitList(*t.granularity) {
			d, err := durationFlag("granularity", g)
			if err != nil {
				return err
			}
			a.Granularities = append(a.Granularities, d)
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
	return nil
}

// estimatesInto sets spec's estimates: --max-estimate-factor alone means
// loose ones; over a preset, the preset's stay unless a flag is given.
func (t *transformFlags) estimatesInto(spec *workload.Spec) error {
	fs := t.fs
	overPreset := spec.Preset != ""
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
	return nil
}

// loadInto sets spec's load scaling from --load, --scale and --load-procs.
func (t *transformFlags) loadInto(spec *workload.Spec) error {
	if err := cli.CheckProcs("--load-procs", int64(*t.loadProcs)); err != nil {
		return err
	}
	if t.fs.Changed("load") {
		spec.Load = &workload.Load{Target: *t.load, Scale: *t.scale, Procs: *t.loadProcs}
	} else if t.fs.Changed("scale") || t.fs.Changed("load-procs") {
		return cli.Usagef("--scale and --load-procs need --load")
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

// durationFlag reads the value of the duration flag --name.
func durationFlag(name, value string) (model.Duration, error) {
	d, err := model.ParseDuration(value)
	if err != nil {
		return 0, cli.Usagef("--%s: %v", name, err)
	}
	return model.Duration(d), nil
}

// noArgs refuses the arguments of a command that takes none.
func noArgs(fs *pflag.FlagSet) error {
	if fs.NArg() > 0 {
		return cli.Usagef("%s takes no arguments, got %q", fs.Name(), fs.Args())
	}
	return nil
}

// tracePath is the one trace argument of convert, clean and stats: "-"
// (standard input) without one.
func tracePath(fs *pflag.FlagSet) (string, error) {
	switch fs.NArg() {
	case 0:
		return "-", nil
	case 1:
		return fs.Arg(0), nil
	}
	return "", cli.Usagef("one trace at most, got %d", fs.NArg())
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
	cl := &workload.Cleaning{Preset: *c.preset, Options: swf.Options{WholeSeconds: *c.wholeSeconds, DropBadSubmit: *c.dropBadSubmit,
		DropNoSize: *c.dropNoSize, DropTooWide: *c.dropTooWide, MachineProcs: *c.machineProcs,
		NoRuntime: swf.NoRuntimeRule(*c.noRuntime), UnifySize: *c.unifySize, NoEstimate: swf.NoEstimateRule(*c.noEstimate),
		Overrun: swf.OverrunRule(*c.overrun), Order: swf.OrderRule(*c.order)}}
	if _, err := cl.Rules(); err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return cl, nil
}
