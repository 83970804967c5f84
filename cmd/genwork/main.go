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
	"io"

	"github.com/gangsim/gangsim/internal/cli"
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

// commands are genwork's commands, each parsing its own flags.
var commands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) error{
	"lublin":    runLublin,
	"synthetic": runSynthetic,
	"scenario":  runScenario,
	"convert": func(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		return runTrace("convert", args, stdin, stdout, stderr)
	},
	"clean": func(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		return runTrace("clean", args, stdin, stdout, stderr)
	},
	"stats": runStats,
	"spec":  runSpec,
}

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
	}
	if f, ok := commands[cmd]; ok {
		return cli.InCommand("genwork "+cmd, f(rest, stdin, stdout, stderr))
	}
	return cli.Usagef("unknown command %q (want lublin, synthetic, scenario, convert, clean, stats or spec)", cmd)
}
