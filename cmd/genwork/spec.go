package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/workload"
)

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
