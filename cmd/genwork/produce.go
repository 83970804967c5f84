package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

// parseAndProduce parses args into fs and writes the workload that spec
// makes of the flags.
func parseAndProduce(tool string, fs *pflag.FlagSet, spec func() (*workload.Spec, error), of *outputFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	s, err := spec()
	if err != nil {
		return err
	}
	return produce(tool, s, of, stdin, stdout, stderr)
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
		return printJSON(stdout, spec)
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
	w, err := write(tool, r, name, format, stdout)
	if err != nil {
		return err
	}
	report(tool, r, w, *of.quiet, stderr)
	return nil
}

// written is what write wrote: the jobs, those that lost their
// application attributes, where, and the cleaning's report.
type written struct {
	jobs, dropped int
	name          string
	format        columnar.Format
	rep           swf.Report
	cleaned       bool
	anomalies     swf.Anomalies
}

// write writes the jobs r yields to name in format, the manifest in its
// header and what is known only at the end (the cleaning's drops, the
// input's anomalies) in its trailer.
func write(tool string, r *workload.Reader, name string, format columnar.Format, stdout io.Writer) (*written, error) {
	header := r.Header().Clone()
	man := r.Manifest(tool)
	man.Apply(&header)

	out, err := fileio.Create(name, format, stdout)
	if err != nil {
		return nil, err
	}
	defer out.Abort()
	w, err := out.TraceWriter(&header)
	if err != nil {
		return nil, err
	}
	src := fileio.Prefetch(r) // read, generate and transform on another core
	defer src.Close()
	res := &written{name: name, format: format}
	for {
		j, err := src.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := w.Write(&j); err != nil {
			return nil, fmt.Errorf("writing %s: %w", name, err)
		}
		res.jobs++
	}
	res.dropped = fileio.DroppedApps(w)
	res.rep, res.cleaned = r.Cleaning()
	res.anomalies = r.Anomalies()
	out.AppendHeader(append(res.rep.HeaderLines(), res.anomalies.HeaderLines()...)...)
	return res, out.Commit()
}

// report says on stderr what was written and what changed on the way.
// Nothing lost or changed silently: said on one line each even under
// -q.
func report(tool string, r *workload.Reader, w *written, quiet bool, stderr io.Writer) {
	if quiet {
		if len(w.anomalies) > 0 {
			fmt.Fprintf(stderr, "%s: %s\n", tool, w.anomalies.Summary())
		}
		if s := w.rep.DropSummary(); s != "" {
			fmt.Fprintf(stderr, "%s: cleaning %s\n", tool, s)
		}
		return
	}
	if len(w.anomalies) > 0 {
		fmt.Fprintf(stderr, "%s: %v\n", tool, w.anomalies)
	}
	if w.cleaned && tool == "genwork clean" {
		fmt.Fprintf(stderr, "%s: cleaning %s\n%s", tool, r.Inputs()[0].Name, w.rep)
	} else if s := w.rep.DropSummary(); s != "" {
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
	if w.dropped > 0 {
		fmt.Fprintf(stderr, "%s: %d jobs lost their application attributes: SWF has no place for them (use .parquet, .arrow or .csv)\n", tool, w.dropped)
	}
	fmt.Fprintf(stderr, "%s: %d jobs written to %s (%s)\n", tool, w.jobs, displayOut(w.name), w.format)
}

// printJSON prints v as indented JSON, a line.
func printJSON(stdout io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}

func displayOut(name string) string {
	if name == "-" {
		return "<stdout>"
	}
	return name
}
