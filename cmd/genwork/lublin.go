package main

import (
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/workload"
)

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

// lublinOptions are genwork lublin's flags.
type lublinOptions struct {
	fs                           *pflag.FlagSet
	preset                       *string
	jobs                         *int64
	procs, modelProcs, startHour *int
	mix                          *string
	batch, interactive, combined *string
	selection                    *string
	maxDraws                     *int
	tf                           *transformFlags
	of                           *outputFlags
}

func lublinFlags(stderr io.Writer) *lublinOptions {
	fs := cli.NewFlagSet("genwork lublin", lublinSynopsis, stderr)
	o := &lublinOptions{fs: fs,
		preset:      fs.String("preset", "", "start from a workload preset: "+strings.Join(workload.PresetNames(), ", ")+" (the thesis' dynamic workload, 6.4.1)"),
		jobs:        fs.Int64("jobs", 1000, "number of jobs"),
		procs:       fs.Int("procs", 128, "machine size, processors (the model's size parameters adapt to it)"),
		modelProcs:  fs.Int("model-procs", 0, "draw sizes (and the runtimes that follow them) for this many processors instead, then cut every size above --procs to --procs (0: draw for --procs)"),
		mix:         fs.String("mix", "both", "job classes: both (batch and interactive streams, the reference default), combined, batch or interactive"),
		startHour:   fs.Int("start-hour", 0, "hour of the day, 0-23, at which time 0 falls"),
		batch:       fs.String("batch-params", "", "override batch parameters: NAME=VALUE,... (names: "+strings.Join(workload.LublinParamNames(), ", ")+")"),
		interactive: fs.String("interactive-params", "", "override interactive parameters: NAME=VALUE,..."),
		combined:    fs.String("combined-params", "", "override combined-class parameters: NAME=VALUE,..."),
		selection:   fs.String("select", "", "keep the first workload drawn from the seed's stream whose statistics are in every window [MIN, MAX): NAME=MIN..MAX,... (span_days, median_size, power_of_two_share of the parallel jobs, load on --procs)"),
		maxDraws:    fs.Int("max-draws", 0, "with --select, fail after this many workloads drawn (default 10000)"),
	}
	o.tf = addTransformFlags(fs, true, true)
	o.of = addOutputFlags(fs)
	return o
}

func runLublin(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := lublinFlags(stderr)
	return parseAndProduce("genwork lublin", o.fs, o.spec, o.of, args, stdin, stdout, stderr)
}

// spec checks the flags and returns the workload they describe.
func (o *lublinOptions) spec() (*workload.Spec, error) {
	if err := noArgs(o.fs); err != nil {
		return nil, err
	}
	if err := cli.CheckProcs("--procs", int64(*o.procs)); err != nil {
		return nil, err
	}
	if *o.jobs < 0 {
		return nil, cli.Usagef("--jobs %d is negative", *o.jobs)
	}
	if *o.modelProcs < 0 {
		return nil, cli.Usagef("--model-procs %d is negative", *o.modelProcs)
	}
	spec, src, err := o.source()
	if err != nil {
		return nil, err
	}
	if err := o.selectInto(src); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		flag string
		val  string
		dst  *map[string]float64
	}{{"batch-params", *o.batch, &src.Batch}, {"interactive-params", *o.interactive, &src.Interactive}, {"combined-params", *o.combined, &src.Combined}} {
		if p.val == "" {
			continue
		}
		if *p.dst, err = workload.ParseLublinParams(p.val); err != nil {
			return nil, cli.Usagef("--%s: %v", p.flag, err)
		}
	}
	spec.Source = workload.Source{Lublin: src}
	if err := o.tf.apply(spec); err != nil {
		return nil, err
	}
	return spec, nil
}

// source returns the spec and its Lublin source: the flags', or the
// preset's with the flags given replacing its values.
func (o *lublinOptions) source() (*workload.Spec, *workload.LublinSource, error) {
	src := &workload.LublinSource{Jobs: *o.jobs, Procs: *o.procs, ModelProcs: *o.modelProcs, Mix: *o.mix, StartHour: *o.startHour}
	if *o.preset == "" {
		return &workload.Spec{}, src, nil
	}
	p, err := workload.Preset(*o.preset)
	if err != nil {
		return nil, nil, cli.Usagef("--preset: %v", err)
	}
	if p.Source.Lublin == nil {
		return nil, nil, cli.Usagef("--preset %s is not a Lublin workload", *o.preset)
	}
	src = p.Source.Lublin
	for _, f := range []struct {
		flag string
		set  func()
	}{
		{"jobs", func() { src.Jobs = *o.jobs }}, {"procs", func() { src.Procs = *o.procs }},
		{"model-procs", func() { src.ModelProcs = *o.modelProcs }},
		{"mix", func() { src.Mix = *o.mix }}, {"start-hour", func() { src.StartHour = *o.startHour }},
	} {
		if o.fs.Changed(f.flag) {
			f.set()
		}
	}
	return &p, src, nil
}

// selectInto sets the source's selection from --select and --max-draws.
func (o *lublinOptions) selectInto(src *workload.LublinSource) error {
	if *o.selection != "" {
		sel, err := workload.ParseSelection(*o.selection)
		if err != nil {
			return cli.Usagef("--select: %v", err)
		}
		src.Select = sel
	}
	if o.fs.Changed("max-draws") {
		if src.Select == nil {
			return cli.Usagef("--max-draws needs --select (or a preset that selects)")
		}
		src.Select.MaxDraws = *o.maxDraws
	}
	return nil
}
