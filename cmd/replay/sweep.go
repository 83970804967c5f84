package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/pipelines"
)

const sweepSynopsis = `usage: replay sweep [flags] EXPERIMENT.json...
       replay sweep --print-runs EXPERIMENT.json
       replay sweep --run RUN.json --out-dir DIR

Runs experiments described as data (experiments/<paper>/<item>.json: a base
run, a grid of policies, loads, seeds..., an analysis, the paper's values and
claims) on all cores, caching every run by the hash of its description, its
inputs and the gangsim version, and writes each reproduced item to
RESULTS/<paper>/<item>.csv (and .png). A rerun skips finished runs; a killed
sweep resumes losing nothing finished.

--print-runs writes the expanded runs as self-contained JSON descriptions, one
per line, and --run executes one of them into a directory (outcomes.parquet,
timeseries.parquet, run.json): what a cluster scheduler needs to spread a
sweep over machines.

Examples:
  replay sweep experiments/frachtenberg/*.json
  replay sweep -o /tmp/results --cache /tmp/cache experiments/frachtenberg/fig-6.12.json
  replay sweep --print-runs experiments/frachtenberg/saturation.json | head -1 > run.json
  replay sweep --run run.json --out-dir /tmp/run1`

func runSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("replay sweep", sweepSynopsis, stderr)
	var (
		results   = fs.StringP("results", "o", "results", "results directory: items go to DIR/<paper>/<item>.csv|png")
		cacheDir  = fs.String("cache", filepath.Join(".cache", "gangsim"), "run cache directory")
		workers   = fs.IntP("jobs", "j", 0, "runs in parallel (default: the number of cores)")
		printRuns = fs.Bool("print-runs", false, "print the expanded run descriptions as JSON lines and exit")
		runFile   = fs.String("run", "", "execute one run description (JSON) into --out-dir")
		outDir    = fs.String("out-dir", "", "directory for --run's files")
		quiet     = fs.BoolP("quiet", "q", false, "print nothing but errors")
		figSize   = fs.String("figure-size", "", "save every figure at WIDTHxHEIGHT, e.g. 6inx4in (default: each experiment's own, else 16cmx10cm)")
		figDPI    = fs.Int("figure-dpi", 0, "PNG resolution of every figure in pixels per inch (default: each experiment's own, else 96)")
		figFmts   = fs.String("figure-formats", "", "comma-separated formats of every figure: png, svg, pdf (default: each experiment's own, else png)")
	)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	spec := pipelines.FigureSpec{Size: *figSize, DPI: *figDPI}
	if *figFmts != "" {
		spec.Formats = strings.Split(*figFmts, ",")
	}
	figures, err := spec.Options()
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if *runFile != "" {
		if fs.NArg() > 0 || *outDir == "" {
			return cli.Usagef("--run takes no experiment files and needs --out-dir")
		}
		return runOne(*runFile, *outDir, stdout)
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no experiment files given")
	}
	if *printRuns {
		for _, name := range fs.Args() {
			e, _, err := pipelines.LoadExperiment(name)
			if err != nil {
				return err
			}
			runs, _, err := e.Runs()
			if err != nil {
				return err
			}
			for _, r := range runs {
				fmt.Fprintf(stdout, "%s\n", r.Canonical())
			}
		}
		return nil
	}
	type loaded struct {
		name, sha string
		e         *pipelines.Experiment
	}
	var exps []loaded
	total := 0
	for _, name := range fs.Args() {
		e, sha, err := pipelines.LoadExperiment(name)
		if err != nil {
			return err
		}
		runs, _, _ := e.Runs()
		total += len(runs)
		exps = append(exps, loaded{name, sha, e})
	}
	progress := cli.NewProgress(stderr, total, "runs")
	sweep := &pipelines.Sweep{Cache: &pipelines.Cache{Dir: *cacheDir}, Workers: *workers, Progress: progress}
	for _, x := range exps {
		rep, err := x.e.Reproduce(sweep, x.name, x.sha)
		if err != nil {
			progress.Finish()
			return err
		}
		if _, err := rep.WriteWith(*results, figures); err != nil {
			return err
		}
		if !*quiet {
			progress.Finish()
			rw, rn, ch, cn := rep.Item.Check()
			fmt.Fprintf(stderr, "replay sweep: %s: %d runs (%d cached); cells within tolerance %d/%d, claims holding %d/%d -> %s\n",
				rep.Item.Key(), len(rep.Runs), rep.Cached, rw, rn, ch, cn, filepath.Join(*results, rep.Item.Key()+".csv"))
		}
	}
	return nil
}

// runOne executes one run description into dir.
func runOne(name, dir string, stdout io.Writer) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	r, err := pipelines.ParseRun(b)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	key, err := r.Key()
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s exists: --out-dir must be a new directory", dir)
	}
	// Build beside it and rename, so a failed run leaves no directory.
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), ".run-*")
	if err != nil {
		return err
	}
	info, err := r.Execute(tmp, key)
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return json.NewEncoder(stdout).Encode(info)
}
