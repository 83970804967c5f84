package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

const traceSynopsis = `usage: genwork %[1]s [flags] [TRACE|-]

%[2]s

The input may be SWF (plain or gzipped), Parquet, an Arrow stream or CSV,
from a file or standard input (-, the default); its format is detected from
its first bytes. The output format comes from -o's extension or --format.
Files are streamed in constant memory; --load reads the input three times
(standard input is spooled to a temporary file).

Examples:
%[3]s`

// traceOptions are the flags of genwork convert and clean.
type traceOptions struct {
	fs         *pflag.FlagSet
	cf         *cleanFlags // clean only
	rf         *readFlags
	dropped    *string // clean only
	skip, jobs *int
	tf         *transformFlags
	of         *outputFlags
}

func traceFlags(cmd string, stderr io.Writer) *traceOptions {
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
	o := &traceOptions{fs: fs}
	if cmd == "clean" {
		o.cf = addCleanFlags(fs)
	}
	o.rf = addReadFlags(fs)
	if cmd == "clean" {
		o.dropped = fs.String("dropped", "", "also write every dropped job to `FILE` (- for stderr) as CSV: job_id, line (SWF) or row, reason")
	}
	o.skip = fs.Int("skip", 0, "leave out the first `N` jobs (after cleaning, before the transforms)")
	o.jobs = fs.Int("jobs", 0, "keep `N` jobs from there on (0: all): a window of a log, as the spec's trace source skip and jobs")
	o.tf = addTransformFlags(fs, true, true)
	o.of = addOutputFlags(fs)
	return o
}

func runTrace(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := traceFlags(cmd, stderr)
	if err := cli.Parse(o.fs, args); err != nil {
		return err
	}
	spec, err := o.spec()
	if err != nil {
		return err
	}
	if o.dropped != nil && *o.dropped != "" {
		if err := o.checkDropped(spec.Source.Trace); err != nil {
			return err
		}
		if err := listDropped(spec.Source.Trace, *o.dropped, stderr); err != nil {
			return err
		}
	}
	return produce("genwork "+cmd, spec, o.of, stdin, stdout, stderr)
}

// spec checks the flags and returns the workload they describe.
func (o *traceOptions) spec() (*workload.Spec, error) {
	path, err := tracePath(o.fs)
	if err != nil {
		return nil, err
	}
	if err := o.rf.check(); err != nil {
		return nil, err
	}
	if *o.skip < 0 || *o.jobs < 0 {
		return nil, cli.Usagef("--skip %d, --jobs %d: want counts >= 0", *o.skip, *o.jobs)
	}
	src := &workload.TraceSource{Path: path, Lenient: *o.rf.lenient, Strict: *o.rf.strict, Skip: *o.skip, Jobs: *o.jobs}
	if o.cf != nil {
		c, err := o.cf.cleaning()
		if err != nil {
			return nil, err
		}
		src.Clean = c
	}
	spec := &workload.Spec{Source: workload.Source{Trace: src}}
	if err := o.tf.apply(spec); err != nil {
		return nil, err
	}
	return spec, nil
}

// checkDropped checks --dropped: it reads the trace a second time, and
// must not be the workload's output.
func (o *traceOptions) checkDropped(src *workload.TraceSource) error {
	if src.Path == "-" {
		return cli.Usagef("--dropped reads the trace a second time: give it as a file, not standard input")
	}
	droppedOut := *o.dropped
	if droppedOut == "-" {
		droppedOut = "/dev/stderr" // "-" is standard error here
	}
	out := *o.of.output
	if out == "" {
		out = "-"
	}
	if fileio.SameOutput(droppedOut, out) {
		return cli.Usagef("--dropped %s and the workload (-o %s) are the same file: one would be lost; give each its own", *o.dropped, out)
	}
	return nil
}

// listDropped writes every job that src's cleaning drops, with its reason,
// as CSV to name ("-" for stderr): a second read of the trace, with the
// same rules, before the workload is made.
func listDropped(src *workload.TraceSource, name string, stderr io.Writer) error {
	opt, err := src.Clean.Rules()
	if err != nil {
		return cli.Usagef("%v", err)
	}
	in, err := fileio.Open(src.Path, nil)
	if err != nil {
		return err
	}
	defer in.Close()
	raw, err := in.TraceMode(fileio.ModeOf(src.Strict, src.Lenient))
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
