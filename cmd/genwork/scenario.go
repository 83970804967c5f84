package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload"
)

const scenarioSynopsis = `usage: genwork scenario NAME [flags]
       genwork scenario --list

Builds one of the thesis' static scenarios (Frachtenberg, 6.3.2) or a
Calypso experiment (McLaughlin and Dasgupta): hand-placed jobs with their
application attributes. --list shows the names.

Examples:
  genwork scenario --list
  genwork scenario balanced --comm non-blocking -o balanced.parquet
  genwork scenario calypso --tasks 3 --machines 2 --task-length 259s | replay --policy fcfs`

// scenarioOptions are genwork scenario's flags.
type scenarioOptions struct {
	fs               *pflag.FlagSet
	list             *bool
	comm, taskLength *string
	tasks, machines  *int
	tf               *transformFlags
	of               *outputFlags
}

func scenarioFlags(stderr io.Writer) *scenarioOptions {
	fs := cli.NewFlagSet("genwork scenario", scenarioSynopsis, stderr)
	o := &scenarioOptions{fs: fs,
		list:       fs.Bool("list", false, "list the scenarios and exit"),
		comm:       fs.String("comm", "", "communication of the thesis scenarios: blocking (their default) or non-blocking (thesis Table 6.5)"),
		tasks:      fs.Int("tasks", 0, "calypso: number of equal tasks (p); benchmark scenarios (sweep3d, hori*, fm-bandwidth): copies"),
		machines:   fs.Int("machines", 0, "calypso: number of workstations (m); benchmark scenarios: processors per copy; sage-filler, bcs-mpi-bench: processes"),
		taskLength: fs.String("task-length", "", "calypso: each task's sequential run time, "+model.DurationSyntax+"; sage-filler: the filler's run time (none: SAGE alone); bcs-mpi-bench: the job's"),
	}
	o.tf = addTransformFlags(fs, false, false)
	o.of = addOutputFlags(fs)
	return o
}

func runScenario(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := scenarioFlags(stderr)
	if err := cli.Parse(o.fs, args); err != nil {
		return err
	}
	if *o.list {
		return listScenarios(stdout)
	}
	spec, err := o.spec()
	if err != nil {
		return err
	}
	return produce("genwork scenario", spec, o.of, stdin, stdout, stderr)
}

// spec checks the flags and the scenario's parameters and returns the
// workload they describe.
func (o *scenarioOptions) spec() (*workload.Spec, error) {
	if o.fs.NArg() != 1 {
		return nil, cli.Usagef("want one scenario NAME (see --list), got %d arguments", o.fs.NArg())
	}
	src := &workload.ScenarioSource{Name: o.fs.Arg(0), Comm: *o.comm, Tasks: *o.tasks, Machines: *o.machines}
	if *o.taskLength != "" {
		d, err := durationFlag("task-length", *o.taskLength)
		if err != nil {
			return nil, err
		}
		src.TaskLength = d
	}
	spec := &workload.Spec{Source: workload.Source{Scenario: src}}
	if err := o.tf.apply(spec); err != nil {
		return nil, err
	}
	if err := workload.CheckScenario(src); err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return spec, nil
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
