package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload"
)

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

// syntheticOptions are genwork synthetic's flags.
type syntheticOptions struct {
	fs                 *pflag.FlagSet
	jobs               *int64
	procs, size        *int
	arrivals, runtimes *string
	meanGap, meanRun   *string
	tf                 *transformFlags
	of                 *outputFlags
}

func syntheticFlags(stderr io.Writer) *syntheticOptions {
	fs := cli.NewFlagSet("genwork synthetic", syntheticSynopsis, stderr)
	o := &syntheticOptions{fs: fs,
		jobs:     fs.Int64("jobs", 10000, "number of jobs"),
		procs:    fs.Int("procs", 32, "machine size, processors"),
		size:     fs.Int("size", 1, "every job's size, processors (must divide --procs)"),
		arrivals: fs.String("arrivals", workload.ArrivalsPoisson, "arrival process: poisson, daily (Poisson with the Lublin model's daily cycle) or lublin (the model's own)"),
		meanGap:  fs.String("mean-interarrival", "", "mean time between arrivals of the Poisson processes, "+model.DurationSyntax+" (default 100s)"),
		runtimes: fs.String("runtimes", workload.RuntimesExponential, "runtime distribution: exponential or lublin (the Lublin model's for --size processors)"),
		meanRun:  fs.String("mean-runtime", "", "mean of the exponential runtimes, "+model.DurationSyntax+" (default procs/size x 100s; --load rescales it)"),
	}
	o.tf = addTransformFlags(fs, true, true)
	o.of = addOutputFlags(fs)
	return o
}

func runSynthetic(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := syntheticFlags(stderr)
	return parseAndProduce("genwork synthetic", o.fs, o.spec, o.of, args, stdin, stdout, stderr)
}

// spec checks the flags and returns the workload they describe.
func (o *syntheticOptions) spec() (*workload.Spec, error) {
	if err := noArgs(o.fs); err != nil {
		return nil, err
	}
	if err := cli.CheckProcs("--procs", int64(*o.procs)); err != nil {
		return nil, err
	}
	if err := cli.CheckProcs("--size", int64(*o.size)); err != nil {
		return nil, err
	}
	src := &workload.SyntheticSource{Jobs: *o.jobs, Procs: *o.procs, Size: *o.size, Arrivals: *o.arrivals, Runtimes: *o.runtimes}
	for _, d := range []struct {
		flag, val string
		dst       *model.Duration
	}{{"mean-interarrival", *o.meanGap, &src.MeanInterarrival}, {"mean-runtime", *o.meanRun, &src.MeanRuntime}} {
		if d.val == "" {
			continue
		}
		v, err := durationFlag(d.flag, d.val)
		if err != nil {
			return nil, err
		}
		*d.dst = v
	}
	spec := &workload.Spec{Source: workload.Source{Synthetic: src}}
	if err := o.tf.apply(spec); err != nil {
		return nil, err
	}
	return spec, nil
}
