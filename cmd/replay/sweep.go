package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/pipelines/slurm"
)

const sweepSynopsis = `usage: replay sweep [flags] EXPERIMENT.json...
       replay sweep --slurm [--slurm-opt OPT]... [--no-wait | --dry-run] EXPERIMENT.json...
       replay sweep --print-runs EXPERIMENT.json
       replay sweep --run RUNS.json [--labels FILE] [--out-dir DIR]

Runs experiments described as data (experiments/<paper>/<item>.json: a base
run, a grid of policies, loads, seeds..., an analysis, the paper's values and
claims) on all cores, caching every run by the hash of its description, its
inputs and the gangsim version, and writes each reproduced item to
RESULTS/<paper>/<item>.csv (and .png). A rerun skips finished runs; a killed
sweep resumes losing nothing finished.

--slurm runs the runs missing from the cache on a Slurm cluster instead: it
writes their descriptions under --slurm-dir (default CACHE/slurm), submits one
sbatch --array job whose tasks execute them with this replay binary into the
run cache (both directories must be shared with the compute nodes, at the
same paths), waits showing the tasks pending, running, done and failed, and
then builds the items from the cache exactly as a local sweep does. A task
killed by Slurm leaves no half-written run: rerunning the same command
resubmits only the runs still missing, and waits for runs an earlier job is
still executing rather than submitting them again. --no-wait prints the job
ID and returns; --dry-run writes the files (into SLURM-DIR/dry-run, which
the next dry run replaces) and prints the batch script and the sbatch command
without submitting, leaving out the runs of jobs still active if squeue is
on PATH.

--print-runs writes the expanded runs as self-contained JSON descriptions, one
per line; --run executes the descriptions in a file into the run cache (or
one of them into --out-dir: outcomes.parquet, timeseries.parquet, run.json).

Examples:
  replay sweep experiments/frachtenberg/*.json
  replay sweep -o /tmp/results --cache /tmp/cache experiments/frachtenberg/fig-6.12.json
  replay sweep --slurm --cache /shared/gangsim --slurm-partition short --slurm-time 10 experiments/frachtenberg/*.json
  replay sweep --slurm --cache /shared/gangsim --slurm-opt=--mem=1G --no-wait experiments/frachtenberg/saturation.json
  replay sweep --slurm --dry-run --cache /shared/gangsim experiments/frachtenberg/saturation.json
  replay sweep --print-runs experiments/frachtenberg/saturation.json | head -1 > run.json
  replay sweep --run run.json --out-dir /tmp/run1`

func runSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, err := parseSweepFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	switch {
	case o.runFile != "":
		return o.executeRuns(stdout)
	case o.printRuns:
		return printRuns(o.files, stdout)
	}
	exps, err := loadExperiments(o.files)
	if err != nil {
		return err
	}
	if o.useSlurm {
		if finished, err := o.slurmFirst(exps, stdout, stderr); err != nil || !finished {
			return err
		}
	}
	return o.sweep(exps, stderr)
}

// sweepOptions are replay sweep's flags and experiment files.
type sweepOptions struct {
	fs                                     *pflag.FlagSet
	files                                  []string // the experiment files
	results, cacheDir                      string
	workers, chunk                         int
	useSlurm, noWait, dryRun, printRuns    bool
	slurmDir, partition, timeLimit         string
	account, replayBin, poll               string
	slurmOpts                              []string
	runFile, outDir, labelFile, expectCode string
	quiet                                  bool
	figures                                analysis.FigureOptions
	pollEvery                              time.Duration // --slurm-poll's
}

// parseSweepFlags reads replay sweep's command line.
func parseSweepFlags(args []string, stderr io.Writer) (*sweepOptions, error) {
	o := &sweepOptions{fs: cli.NewFlagSet("replay sweep", sweepSynopsis, stderr)}
	fs := o.fs
	fs.StringVarP(&o.results, "results", "o", "results", "results directory: items go to DIR/<paper>/<item>.csv|png")
	fs.StringVar(&o.cacheDir, "cache", filepath.Join(".cache", "gangsim"), "run cache directory")
	fs.IntVarP(&o.workers, "jobs", "j", 0, "runs in parallel (default: the number of cores)")
	fs.BoolVar(&o.useSlurm, "slurm", false, "run the runs missing from the cache as a Slurm job array, then build the items")
	fs.StringVar(&o.slurmDir, "slurm-dir", "", "shared directory for the job arrays' run descriptions, scripts and logs (default: CACHE/slurm)")
	fs.StringVar(&o.partition, "slurm-partition", "", "Slurm partition (sbatch --partition)")
	fs.StringVar(&o.timeLimit, "slurm-time", "", "time limit of each array task (sbatch --time), e.g. 30 or 2:00:00")
	fs.StringVar(&o.account, "slurm-account", "", "Slurm account to charge (sbatch --account)")
	fs.StringArrayVar(&o.slurmOpts, "slurm-opt", nil, "a further sbatch option as on an #SBATCH line, e.g. --slurm-opt=--mem=2G (repeatable; not those gangsim sets: --array, --output, --error, --chdir...)")
	fs.IntVar(&o.chunk, "slurm-chunk", 0, "runs per array task (default: 1, or more to stay within the site's MaxArraySize)")
	fs.StringVar(&o.replayBin, "slurm-replay", "", "replay binary the array tasks execute, on the compute nodes (default: this one)")
	fs.StringVar(&o.poll, "slurm-poll", slurm.DefaultPoll.String(), "time between two looks at the array tasks while waiting: "+model.DurationSyntax)
	fs.BoolVar(&o.noWait, "no-wait", false, "with --slurm: submit, print the job ID and return")
	fs.BoolVar(&o.dryRun, "dry-run", false, "with --slurm: write the job array's files, print the batch script and the sbatch command, submit nothing")
	fs.BoolVar(&o.printRuns, "print-runs", false, "print the expanded run descriptions as JSON lines and exit")
	fs.StringVar(&o.runFile, "run", "", "execute the run descriptions (JSON, one or more) in FILE into the run cache, or into --out-dir")
	fs.StringVar(&o.outDir, "out-dir", "", "directory for --run's files (one run)")
	fs.StringVar(&o.labelFile, "labels", "", "with --run: FILE names the runs in messages, a line each (Slurm array tasks pass their grid points)")
	fs.StringVar(&o.expectCode, "expect-code", "", "with --run: fail unless this replay runs the code CODE (--version's code line; Slurm array tasks pass the submitter's, which the run cache's keys hold)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing but errors")
	figOpts := figureFlags(fs, "each experiment's own, else ")
	if err := cli.Parse(fs, args); err != nil {
		return nil, err
	}
	var err error
	if o.figures, err = figOpts(); err != nil {
		return nil, err
	}
	o.files = fs.Args()
	return o, nil
}

// validate refuses flags that do not go together, and reads --slurm-poll.
func (o *sweepOptions) validate() error {
	if err := o.validateSlurm(); err != nil {
		return err
	}
	if o.expectCode != "" && o.runFile == "" {
		return cli.Usagef("--expect-code needs --run")
	}
	if o.labelFile != "" && o.runFile == "" {
		return cli.Usagef("--labels needs --run")
	}
	if o.runFile != "" {
		if len(o.files) > 0 || o.useSlurm || o.printRuns {
			return cli.Usagef("--run takes no experiment files, --slurm or --print-runs")
		}
		return nil
	}
	if o.outDir != "" {
		return cli.Usagef("--out-dir needs --run")
	}
	if len(o.files) == 0 {
		return cli.Usagef("no experiment files given")
	}
	return nil
}

// validateSlurm checks the Slurm flags.
func (o *sweepOptions) validateSlurm() error {
	if !o.useSlurm {
		for _, name := range []string{"slurm-dir", "slurm-partition", "slurm-time", "slurm-account", "slurm-opt", "slurm-chunk", "slurm-replay", "slurm-poll", "no-wait", "dry-run"} {
			if o.fs.Changed(name) {
				return cli.Usagef("--%s needs --slurm", name)
			}
		}
	}
	if o.noWait && o.dryRun {
		return cli.Usagef("--no-wait and --dry-run exclude each other")
	}
	o.pollEvery = slurm.DefaultPoll
	if o.fs.Changed("slurm-poll") {
		d, err := model.ParseDuration(o.poll)
		if err != nil {
			return cli.Usagef("--slurm-poll: %v", err)
		}
		if d <= 0 {
			return cli.Usagef("--slurm-poll %q: want a positive duration", o.poll)
		}
		o.pollEvery = time.Duration(d) * time.Microsecond
	}
	if o.chunk < 0 {
		return cli.Usagef("--slurm-chunk %d: want a positive number of runs per task", o.chunk)
	}
	if err := slurm.CheckOptions(o.slurmOpts); err != nil {
		return cli.Usagef("--slurm-opt: %v", err)
	}
	return nil
}

// executeRuns is --run: the run descriptions of a file executed into the
// run cache, or one of them into --out-dir.
func (o *sweepOptions) executeRuns(stdout io.Writer) error {
	if o.expectCode != "" && o.expectCode != version.Code() {
		return fmt.Errorf("this replay runs code %s (replay --version), not %s as the submitter's: the array tasks must run a replay built from the same sources with the same Go toolchain (--slurm-replay), or their runs would be cached under other keys", version.Code(), o.expectCode)
	}
	if o.outDir != "" {
		return runOne(o.runFile, o.outDir, stdout)
	}
	return runIntoCache(o.runFile, o.labelFile, o.cacheDir, o.workers, stdout)
}

// printRuns is --print-runs: every run of the experiments, as JSON lines.
func printRuns(files []string, stdout io.Writer) error {
	for _, name := range files {
		e, _, err := analysis.LoadExperiment(name)
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

// loadedExperiment is an experiment file read, with its runs.
type loadedExperiment struct {
	name, sha string
	e         *analysis.Experiment
	runs      []*pipelines.Run
}

// loadExperiments reads the experiment files, refusing two that make the
// same item.
func loadExperiments(files []string) ([]loadedExperiment, error) {
	var exps []loadedExperiment
	byItem := map[string]string{} // the experiment file that makes each item
	for _, name := range files {
		e, sha, err := analysis.LoadExperiment(name)
		if err != nil {
			return nil, err
		}
		// Two experiments of one item would write the same files, the
		// second silently replacing the first's.
		if other, dup := byItem[e.Item]; dup {
			if other == name {
				return nil, cli.Usagef("%s is given twice: give each experiment once", name)
			}
			return nil, cli.Usagef("%s and %s both make item %s (results/%s.csv): the second would overwrite the first's files; give one of them another \"item\"", other, name, e.Item, e.Item)
		}
		byItem[e.Item] = name
		runs, _, _ := e.Runs() // LoadExperiment checked them
		exps = append(exps, loadedExperiment{name, sha, e, runs})
	}
	return exps, nil
}

// slurmFirst runs the experiments' runs missing from the cache on Slurm;
// finished reports whether they are all in the cache now (not with
// --no-wait or --dry-run).
func (o *sweepOptions) slurmFirst(exps []loadedExperiment, stdout, stderr io.Writer) (finished bool, err error) {
	s, err := newSlurm(o.cacheDir, o.slurmDir, o.replayBin)
	if err != nil {
		return false, err
	}
	s.Partition, s.Time, s.Account, s.Options, s.Chunk, s.Poll = o.partition, o.timeLimit, o.account, o.slurmOpts, o.chunk, o.pollEvery
	if !o.quiet {
		s.Log = stderr
	}
	var all []slurm.Run
	for _, x := range exps {
		runs, points, err := x.e.Runs()
		if err != nil {
			return false, err
		}
		sr, err := slurm.Runs(x.e.Item, runs, points)
		if err != nil {
			return false, err
		}
		all = append(all, sr...)
	}
	mode := slurmWait
	switch {
	case o.dryRun:
		mode = slurmDryRun
	case o.noWait:
		mode = slurmNoWait
	}
	return sweepOnSlurm(s, all, mode, stdout, stderr, o.quiet)
}

// sweep makes the experiments' items from their runs, running those the
// cache lacks on every core, and writes them. An item whose files were
// written from the same experiment, runs and options, and are still as
// written, is not made again: its runs are not even read back
// (pipelines.ItemStamp).
func (o *sweepOptions) sweep(exps []loadedExperiment, stderr io.Writer) error {
	cache := &pipelines.Cache{Dir: o.cacheDir}
	keys := make([]string, len(exps))
	stamps := make([]*pipelines.ItemStamp, len(exps))
	var all []*pipelines.Run
	for i, x := range exps {
		key, err := pipelines.ItemKey(x.e.Item, x.sha, x.runs, o.figures.Key())
		if err != nil {
			return err
		}
		keys[i] = key
		if st, ok := cache.ItemUpToDate(o.results, x.e.Item, key); ok {
			stamps[i] = st
			continue
		}
		all = append(all, x.runs...)
	}
	progress := cli.NewProgress(stderr, len(all), "runs", "replay sweep", o.quiet)
	var warnMu sync.Mutex // runs are read back on several goroutines
	sweep := &pipelines.Sweep{Cache: cache, Workers: o.workers, Progress: progress,
		Warn: func(msg string) {
			warnMu.Lock()
			defer warnMu.Unlock()
			fmt.Fprintf(stderr, "replay sweep: %s\n", msg)
		}}
	if len(exps) > 1 {
		// Every item's runs in one pool first, so that no core idles at
		// the end of an item; the items then find their runs done.
		sweep.Prefetch(all)
		sweep.Progress = nil
	}
	for i, x := range exps {
		st, made := stamps[i], "up to date"
		if st == nil {
			var err error
			if st, made, err = o.make(x, sweep, cache, keys[i], stderr); err != nil {
				progress.Finish()
				return err
			}
			progress.Finish()
		}
		o.report(st, made, stderr)
	}
	return nil
}

// make makes one item, writes its files and stamps them under key; made
// says how many of its runs the cache had.
func (o *sweepOptions) make(x loadedExperiment, sweep *pipelines.Sweep, cache *pipelines.Cache, key string, stderr io.Writer) (*pipelines.ItemStamp, string, error) {
	rep, err := x.e.Reproduce(sweep, x.name, x.sha)
	if err != nil {
		return nil, "", err
	}
	paths, err := rep.WriteWith(o.results, o.figures)
	if err != nil {
		return nil, "", err
	}
	st := &pipelines.ItemStamp{Key: key, Item: x.e.Item, Runs: len(rep.Runs), Dropped: rep.Item.Dropped}
	st.CellsWithin, st.CellsCompared, st.ClaimsHolding, st.Claims = rep.Item.Check()
	if err := cache.StampItem(o.results, *st, paths); err != nil {
		fmt.Fprintf(stderr, "replay sweep: %s: warning: no stamp recorded, the next sweep makes the item again: %v\n", x.e.Item, err)
	}
	return st, fmt.Sprintf("%d cached", rep.Cached), nil
}

// report says what an item dropped (even under -q, one line per distinct
// drop) and, unless quiet, its runs, cells and claims.
func (o *sweepOptions) report(st *pipelines.ItemStamp, made string, stderr io.Writer) {
	for _, d := range st.Dropped {
		fmt.Fprintf(stderr, "replay sweep: %s: %s\n", st.Item, d)
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "replay sweep: %s: %d runs (%s); cells within tolerance %d/%d, claims holding %d/%d -> %s\n",
			st.Item, st.Runs, made, st.CellsWithin, st.CellsCompared, st.ClaimsHolding, st.Claims, filepath.Join(o.results, st.Item+".csv"))
	}
}

// runOne executes one run description into dir.
func runOne(name, dir string, stdout io.Writer) error {
	runs, err := readRuns(name)
	if err != nil {
		return err
	}
	if len(runs) != 1 {
		return fmt.Errorf("%s: %d run descriptions; --out-dir takes one (without it, --run executes them all into the run cache)", name, len(runs))
	}
	r := runs[0]
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

// runIntoCache executes the run descriptions in the file name into the run
// cache (what a Slurm array task does), skipping those already there, and
// prints each run's information as a JSON line. labelFile, if not empty,
// names the runs in messages, a line each (a Slurm task's grid points).
func runIntoCache(name, labelFile, cacheDir string, workers int, stdout io.Writer) error {
	runs, err := readRuns(name)
	if err != nil {
		return err
	}
	var labels []string
	if labelFile != "" {
		b, err := os.ReadFile(labelFile)
		if err != nil {
			return err
		}
		labels = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(labels) != len(runs) {
			return fmt.Errorf("%s: %d labels for the %d runs of %s", labelFile, len(labels), len(runs), name)
		}
	}
	done, err := (&pipelines.Sweep{Cache: &pipelines.Cache{Dir: cacheDir}, Workers: workers}).Do(runs, nil)
	var re *pipelines.RunError
	if errors.As(err, &re) && labels != nil {
		return fmt.Errorf("%s: run %d, %s: %w", name, re.Index+1, labels[re.Index], re.Err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	enc := json.NewEncoder(stdout)
	for _, f := range done {
		if err := enc.Encode(f.Info); err != nil {
			return err
		}
	}
	return nil
}

func readRuns(name string) ([]*pipelines.Run, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return pipelines.ReadRuns(f, name)
}

// newSlurm sets up the Slurm backend: absolute paths for the run cache, the
// submissions directory (default CACHE/slurm), the replay binary (default
// this one) and the working directory, as the compute nodes need them.
func newSlurm(cacheDir, slurmDir, replayBin string) (*slurm.Driver, error) {
	cache, err := filepath.Abs(cacheDir)
	if err != nil {
		return nil, err
	}
	if slurmDir == "" {
		slurmDir = filepath.Join(cache, "slurm")
	}
	if slurmDir, err = filepath.Abs(slurmDir); err != nil {
		return nil, err
	}
	if replayBin == "" {
		if replayBin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("finding this replay binary for the array tasks: %w (give --slurm-replay)", err)
		}
	}
	if replayBin, err = filepath.Abs(replayBin); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(replayBin); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("--slurm-replay %s: not an executable file", replayBin)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return &slurm.Driver{Cache: &pipelines.Cache{Dir: cache}, Dir: slurmDir, Replay: replayBin, Workdir: wd}, nil
}

type slurmMode int

const (
	slurmWait slurmMode = iota
	slurmNoWait
	slurmDryRun
)

// sweepOnSlurm brings the runs into the cache through Slurm: it submits
// those missing (and not being run by an earlier job) as one job array and,
// unless mode says otherwise, waits for it and for the earlier jobs. It
// reports whether every run is in the cache now, ready for the items to be
// built.
func sweepOnSlurm(s *slurm.Driver, runs []slurm.Run, mode slurmMode, stdout, stderr io.Writer, quiet bool) (bool, error) {
	say := func(format string, args ...any) {
		if !quiet {
			fmt.Fprintf(stderr, "replay sweep: "+format+"\n", args...)
		}
	}
	if mode != slurmDryRun {
		if err := slurm.CheckSbatch(); err != nil {
			return false, err
		}
	}
	// A dry run, which may be made where Slurm is not installed, leaves out
	// the runs of active jobs when it can ask squeue.
	checkActive := mode != slurmDryRun
	if _, err := exec.LookPath("squeue"); err == nil {
		checkActive = true
	}
	plan, err := s.Plan(runs, checkActive)
	if err != nil {
		return false, withFlag(err)
	}
	if mode == slurmDryRun {
		for _, sub := range plan.Active {
			say("slurm job %s, submitted earlier, is still running some of these runs: they are left out of the dry run", sub.JobID)
		}
		if len(plan.Missing) == 0 {
			s.TidyDryRun()
			if len(plan.Active) == 0 {
				say("dry run: all %d runs are in the run cache %s; nothing to submit", plan.Cached, s.Cache.Dir)
			} else {
				say("dry run: the runs missing from the run cache %s are all in slurm jobs still active; nothing to submit", s.Cache.Dir)
			}
			return false, nil
		}
		sub, err := s.PrepareDryRun(plan.Missing)
		if err != nil {
			return false, withFlag(err)
		}
		fmt.Fprintf(stdout, "%s\n%s\n", readScript(sub), strings.Join(sub.Command(), " "))
		say("dry run: %s in %s written to %s; nothing submitted (the next dry run replaces that directory, and a sweep removes it once its runs are in the run cache)",
			plural(len(plan.Missing), "run"), plural(len(sub.Tasks), "array task"), sub.Dir)
		return false, nil
	}
	subs := plan.Active
	for _, sub := range plan.Active {
		say("slurm job %s, submitted earlier, is still running some of these runs: waiting for it rather than submitting them again", sub.JobID)
	}
	if len(plan.Missing) > 0 {
		sub, err := s.Prepare(plan.Missing)
		if err != nil {
			return false, withFlag(err)
		}
		if err := s.Submit(sub); err != nil {
			return false, err
		}
		say("%s missing from the run cache %s: submitted as slurm job %s, %s (logs in %s)",
			plural(len(plan.Missing), "run"), s.Cache.Dir, sub.JobID, plural(len(sub.Tasks), "array task"), filepath.Join(sub.Dir, "logs"))
		subs = append(subs, sub)
	} else if len(plan.Active) == 0 {
		say("all %d runs are in the run cache %s; nothing to submit", plan.Cached, s.Cache.Dir)
	}
	if len(subs) > 0 && mode == slurmNoWait {
		for _, sub := range subs {
			fmt.Fprintln(stdout, sub.JobID)
		}
		say("not waiting: rerun the same command without --no-wait to wait for the job and build the items")
		return false, nil
	}
	if len(subs) > 0 {
		say("waiting (interrupting leaves the job running; rerunning the same command waits for it again)")
		if err := s.Wait(subs, runs); err != nil {
			return false, err
		}
	}
	s.Tidy(plan.Ended)
	var missing []string
	for _, r := range runs {
		if _, ok := s.Cache.Get(r.Key); !ok {
			missing = append(missing, r.Label)
		}
	}
	if len(missing) > 0 {
		return false, fmt.Errorf("slurm: the jobs ended but %d runs are not in the run cache %s (first: %s)", len(missing), s.Cache.Dir, missing[0])
	}
	return true, nil
}

// withFlag names the flag that sets a directory the Slurm sweep cannot
// write.
func withFlag(err error) error {
	var de *slurm.DirError
	if !errors.As(err, &de) {
		return err
	}
	flag := "--cache"
	if de.Dir == slurm.SubmissionDir {
		flag = "--slurm-dir, by default CACHE/slurm"
	}
	return fmt.Errorf("%w (%s: it must be writable here and by the compute nodes, at the same path)", err, flag)
}

// plural is "1 run", "2 runs".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func readScript(sub *slurm.Submission) string {
	b, err := os.ReadFile(sub.Script())
	if err != nil {
		return "# " + err.Error() + "\n"
	}
	return string(b)
}

// figureFlags adds --figure-size, --figure-dpi and --figure-formats to fs
// (replay sweep's and replay hw items'); the function returned resolves
// them once fs is parsed, a bad value a usage error. own prefixes the
// defaults in the flags' help ("each experiment's own, else ").
func figureFlags(fs *pflag.FlagSet, own string) func() (analysis.FigureOptions, error) {
	size := fs.String("figure-size", "", "save every figure at WIDTHxHEIGHT, e.g. 6inx4in (default: "+own+"16cmx10cm)")
	dpi := fs.Int("figure-dpi", 0, "PNG resolution of every figure in pixels per inch (default: "+own+"96)")
	formats := fs.String("figure-formats", "", "comma-separated formats of every figure: png, svg, pdf (default: "+own+"png)")
	return func() (analysis.FigureOptions, error) {
		spec := analysis.FigureSpec{Size: *size, DPI: *dpi}
		if *formats != "" {
			spec.Formats = strings.Split(*formats, ",")
		}
		o, err := spec.Options()
		if err != nil {
			return o, cli.Usagef("%v", err)
		}
		return o, nil
	}
}
