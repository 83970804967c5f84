package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload"
)

const statsSynopsis = `usage: genwork stats [flags] [TRACE|-]

Describes a trace: jobs, arrival span, inter-arrival times, sizes,
runtimes, work, offered load = sum(size x runtime) / (procs x span) with
span = last submit - first submit, and the accuracy of the estimates
(runtime / estimate). Human-readable by default, JSON with --json. Holds
about 32 bytes per job in memory for the quantiles.

Examples:
  genwork stats ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz
  genwork lublin --jobs 1000 --procs 32 | genwork stats --json`

// statsOptions are genwork stats' flags.
type statsOptions struct {
	fs     *pflag.FlagSet
	asJSON *bool
	procs  *int
	rf     *readFlags
}

func statsFlags(stderr io.Writer) *statsOptions {
	fs := cli.NewFlagSet("genwork stats", statsSynopsis, stderr)
	return &statsOptions{fs: fs,
		asJSON: fs.Bool("json", false, "print JSON instead of text"),
		procs:  fs.Int("procs", 0, "machine size for the offered load, processors (default: the header's MaxProcs)"),
		rf:     addReadFlags(fs),
	}
}

func runStats(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := statsFlags(stderr)
	if err := cli.Parse(o.fs, args); err != nil {
		return err
	}
	spec, err := o.spec()
	if err != nil {
		return err
	}
	r, err := spec.Open(stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	st, err := workload.ComputeStats(r, *o.procs)
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
	if *o.asJSON {
		return o.printJSON(r, st, anomalies, stdout)
	}
	text := st.String()
	for _, l := range anomalies {
		text += "anomaly: " + l + "\n"
	}
	_, err = io.WriteString(stdout, text)
	return err
}

// spec checks the flags and returns the trace they describe.
func (o *statsOptions) spec() (*workload.Spec, error) {
	path, err := tracePath(o.fs)
	if err != nil {
		return nil, err
	}
	if err := o.rf.check(); err != nil {
		return nil, err
	}
	if err := cli.CheckProcs("--procs", int64(*o.procs)); err != nil {
		return nil, err
	}
	src := &workload.TraceSource{Path: path, Lenient: *o.rf.lenient, Strict: *o.rf.strict}
	return &workload.Spec{Source: workload.Source{Trace: src}}, nil
}

// printJSON prints the statistics as JSON with their manifest.
func (o *statsOptions) printJSON(r *workload.Reader, st *workload.Stats, anomalies []string, stdout io.Writer) error {
	man := model.Manifest{Tool: "genwork stats", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Inputs: r.Inputs(), Params: []model.Param{
		{Name: "lenient", Value: strconv.FormatBool(*o.rf.lenient)}, {Name: "procs", Value: strconv.Itoa(*o.procs)}}}
	if *o.rf.strict {
		man.Params = append(man.Params, model.Param{Name: "strict", Value: "true"})
	}
	out := struct {
		Manifest model.Manifest `json:"manifest"`
		*workload.Stats
		Anomalies []string `json:"anomalies,omitempty"`
	}{man, st, anomalies}
	return printJSON(stdout, out)
}
