// Command replay feeds a workload trace through a scheduling policy on a
// simulated machine and writes what happened to every job.
//
//	replay [flags] [TRACE|-]
//
// The trace may be SWF (plain or gzipped), Parquet, an Arrow IPC stream or
// CSV, from a file or standard input (the Arrow stream of genwork on a
// pipe). Per-job outcomes go to -o (Parquet, Arrow or CSV by extension or
// --format; an Arrow stream on standard output when that is not a
// terminal), the system's time series to --timeseries, and a one-line
// summary to standard error. Every output records the run's manifest.
package main

import (
	"io"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
)

func main() { cli.Main("replay", run) }

const synopsis = `usage: replay [flags] [TRACE|-]
       replay hw list|preset|kinds|curve|items ...   (replay hw --help)
       replay sweep [flags] EXPERIMENT.json...        (replay sweep --help)

Replays a workload trace (SWF, SWF.gz, Parquet, Arrow stream or CSV, from a
file or standard input) through a scheduling policy and writes per-job
outcomes, a time series and a summary. "replay hw" prints the hardware cost
models' presets and curves and writes their reproductions of the papers;
"replay sweep" runs experiments described as data. A trace file named hw or
sweep is given as ./hw or ./sweep.

Examples:
  replay --policy easy ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz -o kth-easy.parquet
  replay --compat pyss --policy fcfs trace.swf.gz -o out.csv
  genwork lublin --jobs 1000 --procs 32 | replay --policy conservative | analyze`

// run dispatches the subcommands "hw" (hardware cost models, hw.go) and
// "sweep" (experiments, sweep.go); anything else replays a trace. A trace
// file named like a subcommand is given as ./hw or ./sweep.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "hw":
			return cli.InCommand("replay hw", runHW(args[1:], stdin, stdout, stderr))
		case "sweep":
			return cli.InCommand("replay sweep", runSweep(args[1:], stdin, stdout, stderr))
		}
	}
	return runReplay(args, stdin, stdout, stderr)
}

// displayOutName names an output for a message: "-" is standard output.
func displayOutName(name string) string {
	if name == "-" {
		return "- (standard output)"
	}
	return name
}

func paramValue(ps []model.Param, name string) string {
	for _, p := range ps {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// summaryTau is the bounded slowdown's tau for the summary line: the flag's
// duration, else 10 s of real time in the workload's time, as the outcome
// table's bsld_rt10s column and analyze take it: 10 s divided by the time
// compression the input's manifests record (model.CompressionOf; 10 s when
// none does).
func summaryTau(flag string, h *model.Header) (model.Time, error) {
	if flag != "" {
		d, err := model.ParseDuration(flag)
		if err != nil {
			return 0, cli.Usagef("--tau: %v", err)
		}
		if d <= 0 {
			return 0, cli.Usagef("--tau %q: want a positive duration", flag)
		}
		return d, nil
	}
	f, err := model.CompressionOf(h)
	if err != nil {
		return 0, err
	}
	return metrics.CompressedTau(f), nil
}
