package slurm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/pipelines"
)

// Driver runs a sweep's runs on a Slurm cluster as one job array: it writes
// the runs missing from the run cache into a shared directory, submits one
// `sbatch --array` job whose every task executes its runs with `replay sweep
// --run` into the shared run cache (through Cache.Put, so a task killed by
// Slurm leaves no half-written run), and waits for the tasks to end. The
// items are then built from the cache exactly as by a local sweep, so the
// results are the same bytes.
//
// Slurm is driven through its own commands (sbatch, squeue, scontrol) found
// on PATH, with the environment's SLURM_CONF.
type Driver struct {
	// Cache is the run cache the array tasks write into. Its directory must
	// be absolute and on a file system the compute nodes share, at the same
	// path.
	Cache *pipelines.Cache
	// Dir is the shared directory for submissions: each one is
	// Dir/sweep-*/ (a dry run's, Dir/dry-run/) with the batch script
	// (batch.sh), the run descriptions of every array task (tasks/N.json)
	// and their labels for messages (tasks/N.labels), the tasks' logs
	// (logs/JOB_N.out) and what was submitted (submission.json). Absolute.
	Dir string
	// Replay is the absolute path of the replay binary the tasks execute; it
	// must be the caller's gangsim version (the tasks check).
	Replay string
	// Workdir is the tasks' working directory (sbatch --chdir), where the
	// runs' relative trace paths resolve. Absolute.
	Workdir string
	// Partition, Time and Account are sbatch's --partition, --time and
	// --account; empty leaves the site's defaults.
	Partition, Time, Account string
	// Options are further sbatch options, each one #SBATCH line's worth
	// ("--mem=2G", "--qos long", "-H"), written into the batch script after
	// gangsim's own; CheckOptions refuses those gangsim sets or depends on.
	Options []string
	// Chunk is the number of runs per array task; 0 means one run per task,
	// or as many as keep the task count within the site's MaxArraySize.
	Chunk int
	// MaxArray is the site's MaxArraySize (array indices 0 to MaxArray-1);
	// 0 asks scontrol, and takes Slurm's default of 1001 if that fails.
	MaxArray int
	// Poll is the time between two looks at the tasks while waiting; 0
	// means DefaultPoll.
	Poll time.Duration
	// Log, when not nil, is told of the tasks' progress while waiting:
	// pending, running, done and failed, on one redrawn line on a terminal,
	// a line at most every LogEvery elsewhere.
	Log io.Writer
}

// DefaultPoll is how often Slurm.Wait asks squeue about the tasks.
const DefaultPoll = 5 * time.Second

// LogEvery is the least time between two progress lines written to a
// non-terminal (a batch log), unless tasks failed.
const LogEvery = 30 * time.Second

// defaultMaxArraySize is Slurm's MaxArraySize when slurm.conf sets none.
const defaultMaxArraySize = 1001

// Run is a run to execute on Slurm: the run, its cache key and a label
// for messages (the experiment's item and grid point).
type Run struct {
	Run   *pipelines.Run
	Key   string
	Label string
}

// Runs labels an experiment's runs (as Experiment.Runs returns them)
// with item and their grid points and computes their keys.
func Runs(item string, runs []*pipelines.Run, points []pipelines.Point) ([]Run, error) {
	out := make([]Run, len(runs))
	for i, r := range runs {
		key, err := r.Key()
		if err != nil {
			return nil, fmt.Errorf("%s: run %d: %w", item, i+1, err)
		}
		label := item
		if points != nil && len(points[i]) > 0 {
			label += " (" + points[i].Describe() + ")"
		}
		out[i] = Run{Run: r, Key: key, Label: label}
	}
	return out, nil
}

// Submission is one job array: its directory, its Slurm job ID once
// submitted, and the runs of each of its tasks. Its JSON form is the
// directory's submission.json.
type Submission struct {
	// Dir is the submission's directory (not in the JSON).
	Dir string `json:"-"`
	// JobID is Slurm's job ID of the array; empty until submitted (and for
	// a dry run, which the user submits).
	JobID string `json:"job_id,omitempty"`
	// Cluster is the name of the Slurm cluster the job was submitted to
	// (slurm.conf's ClusterName), empty if unknown. A job ID means nothing
	// on another cluster.
	Cluster string `json:"cluster,omitempty"`
	// Cache is the run cache directory the tasks write into.
	Cache string `json:"cache"`
	// Version is the gangsim version that wrote it, and Code the identity
	// of its code (version.Code), which its tasks must run: the run
	// cache's keys hold it.
	Version string `json:"version"`
	Code    string `json:"code"`
	// Tasks lists, by array index, the runs of each task.
	Tasks [][]TaskRun `json:"tasks"`
}

// TaskRun is a run of an array task, as recorded in submission.json.
type TaskRun struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Files of a submission's directory.
const (
	submissionFile = "submission.json"
	scriptFile     = "batch.sh"
	tasksDir       = "tasks"
	logsDir        = "logs"
)

// Script is the path of the submission's batch script.
func (s *Submission) Script() string { return filepath.Join(s.Dir, scriptFile) }

// Command is the sbatch command line that submits the batch script.
func (s *Submission) Command() []string { return []string{"sbatch", "--parsable", s.Script()} }

// Log is the path of an array task's log (its standard output and error).
func (s *Submission) Log(task int) string {
	return filepath.Join(s.Dir, logsDir, fmt.Sprintf("%s_%d.out", s.JobID, task))
}

// Runs is the number of runs over all tasks.
func (s *Submission) Runs() int {
	n := 0
	for _, t := range s.Tasks {
		n += len(t)
	}
	return n
}

// Plan is what a Slurm sweep has to do: the runs to submit, and the earlier
// submissions (in Dir) whose jobs are still executing some of the wanted
// runs, which are left out of a new submission and waited for instead.
type Plan struct {
	// Missing are the runs neither in the cache nor in an active earlier
	// submission, each key once, in the order given.
	Missing []Run
	// Active are the earlier submissions whose jobs still run or wait to
	// run some of the wanted runs.
	Active []*Submission
	// Ended are the earlier submissions whose jobs have ended; Tidy removes
	// those whose runs are all in the cache.
	Ended []*Submission
	// Cached counts the wanted runs (distinct keys) already in the cache.
	Cached int
}

// Plan finds the runs to submit. With checkActive, it asks squeue which
// earlier submissions are still active (a dry run made where Slurm is not
// installed cannot). An earlier submission is active only if squeue shows
// its job ID on the same cluster running its batch script: a job ID that a
// cluster with its state wiped (or another cluster) gave to another job
// does not count.
func (s *Driver) Plan(runs []Run, checkActive bool) (*Plan, error) {
	p := &Plan{}
	// The earlier submissions' task states are read before the cache: a
	// task writes its runs into the cache before it ends, so a task seen
	// active that ends meanwhile has its runs in the cache below. Read the
	// other way round, a task ending between the two looked like a run
	// neither cached nor in flight, and was submitted again.
	type earlierSub struct {
		sub    *Submission
		states map[int]string
	}
	var earlier []earlierSub
	if checkActive {
		subs, err := s.submissions()
		if err != nil {
			return nil, err
		}
		cluster := ""
		if len(subs) > 0 {
			cluster = s.clusterName()
		}
		for _, sub := range subs {
			var states map[int]string
			if sub.Cluster != "" && cluster != "" && sub.Cluster != cluster {
				states = map[int]string{} // another cluster's job ID: not ours here
			} else if states, err = s.ownTaskStates(sub); err != nil {
				return nil, err
			}
			earlier = append(earlier, earlierSub{sub, states})
		}
	}
	missing := map[string]bool{}
	for _, r := range runs {
		if _, seen := missing[r.Key]; seen {
			continue
		}
		_, ok := s.Cache.Get(r.Key)
		missing[r.Key] = !ok
		if ok {
			p.Cached++
		}
	}
	inFlight := map[string]bool{}
	for _, e := range earlier {
		wanted := false
		for i, task := range e.sub.Tasks {
			if !activeState(e.states[i]) {
				continue
			}
			for _, r := range task {
				if missing[r.Key] {
					inFlight[r.Key], wanted = true, true
				}
			}
		}
		if wanted {
			p.Active = append(p.Active, e.sub)
		} else if !anyActive(e.states) {
			p.Ended = append(p.Ended, e.sub)
		}
	}
	for _, r := range runs {
		if missing[r.Key] && !inFlight[r.Key] {
			p.Missing = append(p.Missing, r)
			missing[r.Key] = false // once
		}
	}
	return p, nil
}

// submissions reads the earlier submissions in Dir that were submitted (a
// dry run's are the user's) into the same run cache, in name order.
func (s *Driver) submissions() ([]*Submission, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &DirError{Dir: SubmissionDir, Path: s.Dir, Op: "read", Err: err}
	}
	var out []*Submission
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "sweep-") {
			continue
		}
		dir := filepath.Join(s.Dir, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, submissionFile))
		if err != nil {
			continue // being written, or not ours
		}
		sub := &Submission{Dir: dir}
		if err := json.Unmarshal(b, sub); err != nil {
			return nil, fmt.Errorf("slurm: %s: %w", filepath.Join(dir, submissionFile), err)
		}
		if sub.JobID != "" && sub.Cache == s.Cache.Dir {
			out = append(out, sub)
		}
	}
	return out, nil
}

// Prepare writes a new submission of runs into Dir: the runs of every task,
// the batch script and submission.json. It does not submit it.
func (s *Driver) Prepare(runs []Run) (*Submission, error) {
	return s.prepare(runs, false)
}

// PrepareDryRun writes a submission of runs for the user to submit by hand
// into Dir/dry-run, replacing an earlier dry run's, unless squeue shows a
// job of that batch script still pending or running (whose tasks would
// read the new files).
func (s *Driver) PrepareDryRun(runs []Run) (*Submission, error) {
	return s.prepare(runs, true)
}

// dryRunDir is the directory, in Dir, of the dry run's submission.
const dryRunDir = "dry-run"

func (s *Driver) prepare(runs []Run, dry bool) (*Submission, error) {
	if len(runs) == 0 {
		return nil, errors.New("slurm: no runs to submit")
	}
	for _, p := range []struct{ what, path string }{{"run cache", s.Cache.Dir}, {"submission directory", s.Dir},
		{"replay binary", s.Replay}, {"working directory", s.Workdir}} {
		if !filepath.IsAbs(p.path) {
			return nil, fmt.Errorf("slurm: %s %q is not an absolute path", p.what, p.path)
		}
	}
	chunk, err := s.chunk(len(runs))
	if err != nil {
		return nil, err
	}
	if err := s.Cache.CheckWritable(); err != nil {
		return nil, &DirError{Dir: RunCacheDir, Path: s.Cache.Dir, Op: "write", Err: err}
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, &DirError{Dir: SubmissionDir, Path: s.Dir, Op: "write", Err: err}
	}
	var dir string
	if dry {
		dir = filepath.Join(s.Dir, dryRunDir)
		if err := s.checkDryRunIdle(dir); err != nil {
			return nil, err
		}
		if err := os.RemoveAll(dir); err != nil {
			return nil, &DirError{Dir: SubmissionDir, Path: s.Dir, Op: "write", Err: err}
		}
		err = os.Mkdir(dir, 0o755)
	} else {
		dir, err = os.MkdirTemp(s.Dir, "sweep-")
	}
	if err != nil {
		return nil, &DirError{Dir: SubmissionDir, Path: s.Dir, Op: "write", Err: err}
	}
	// The directory appears in #SBATCH lines, which cannot quote.
	if strings.ContainsAny(dir, " \t\n%") || strings.ContainsAny(s.Workdir, " \t\n%") {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("slurm: %s or %s holds white space or %%, which a batch script's #SBATCH line cannot carry", dir, s.Workdir)
	}
	sub := &Submission{Dir: dir, Cache: s.Cache.Dir, Version: version.Version, Code: version.Code()}
	if err := s.writeSubmission(sub, runs, chunk); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return sub, nil
}

// checkDryRunIdle fails if squeue (when on PATH) shows a job of the dry
// run's batch script in dir pending or running: one the user submitted by
// hand, which a new dry run would pull its files from under.
func (s *Driver) checkDryRunIdle(dir string) error {
	script := filepath.Join(dir, scriptFile)
	if _, err := os.Stat(script); err != nil {
		return nil
	}
	if _, err := exec.LookPath("squeue"); err != nil {
		return nil
	}
	out, err := slurmCommand("", "squeue", "--noheader", "--format=%A|%o")
	if err != nil {
		return fmt.Errorf("slurm: asking squeue whether the last dry run's job is still active: %w", err)
	}
	real, _ := filepath.EvalSymlinks(script)
	for _, line := range strings.Split(out, "\n") {
		id, cmd, _ := strings.Cut(strings.TrimSpace(line), "|")
		if cmd != "" && (cmd == script || cmd == real) {
			return fmt.Errorf("slurm: job %s, submitted from the last dry run's %s, is still pending or running: a new dry run would replace its files; wait for it to end or scancel it", id, script)
		}
	}
	return nil
}

// DirError is a directory of a Slurm sweep that cannot be written (or
// read) here: the run cache or the submission directory. It is found
// before anything is submitted.
type DirError struct {
	Dir  SweepDir
	Path string
	Op   string // "write" or "read"
	Err  error
}

// SweepDir names a directory of a Slurm sweep.
type SweepDir string

// The directories of a Slurm sweep (Slurm.Cache.Dir, Slurm.Dir).
const (
	RunCacheDir   SweepDir = "run cache"
	SubmissionDir SweepDir = "submission directory"
)

func (e *DirError) Error() string {
	return fmt.Sprintf("slurm: cannot %s the %s %s: %v", e.Op, e.Dir, e.Path, e.Err)
}

func (e *DirError) Unwrap() error { return e.Err }

func (s *Driver) writeSubmission(sub *Submission, runs []Run, chunk int) error {
	for _, d := range []string{tasksDir, logsDir} {
		if err := os.Mkdir(filepath.Join(sub.Dir, d), 0o755); err != nil {
			return fmt.Errorf("slurm: %w", err)
		}
	}
	for start := 0; start < len(runs); start += chunk {
		end := min(start+chunk, len(runs))
		var b, labels bytes.Buffer
		var task []TaskRun
		for _, r := range runs[start:end] {
			b.Write(r.Run.Canonical())
			b.WriteByte('\n')
			labels.WriteString(strings.ReplaceAll(r.Label, "\n", " ") + "\n")
			task = append(task, TaskRun{Key: r.Key, Label: r.Label})
		}
		name := filepath.Join(sub.Dir, tasksDir, strconv.Itoa(len(sub.Tasks)))
		if err := os.WriteFile(name+".json", b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("slurm: %w", err)
		}
		if err := os.WriteFile(name+".labels", labels.Bytes(), 0o644); err != nil {
			return fmt.Errorf("slurm: %w", err)
		}
		sub.Tasks = append(sub.Tasks, task)
	}
	if err := os.WriteFile(sub.Script(), []byte(s.script(sub)), 0o755); err != nil {
		return fmt.Errorf("slurm: %w", err)
	}
	return writeSubmission(sub)
}

// writeSubmission writes submission.json atomically.
func writeSubmission(sub *Submission) error {
	b, err := json.MarshalIndent(sub, "", "  ")
	if err != nil {
		return err
	}
	f, err := atomicfile.Create(filepath.Join(sub.Dir, submissionFile), nil)
	if err != nil {
		return fmt.Errorf("slurm: %w", err)
	}
	defer f.Abort()
	if _, err := f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("slurm: %w", err)
	}
	return f.Commit()
}

// chunk is the number of runs per task for n runs.
func (s *Driver) chunk(n int) (int, error) {
	limit := s.MaxArray
	if limit <= 0 {
		limit = maxArraySize()
	}
	if s.Chunk > 0 {
		if tasks := (n + s.Chunk - 1) / s.Chunk; tasks > limit {
			return 0, fmt.Errorf("slurm: %d runs in chunks of %d make %d array tasks, more than the site's MaxArraySize %d: raise the chunk size to %d",
				n, s.Chunk, tasks, limit, (n+limit-1)/limit)
		}
		return s.Chunk, nil
	}
	return (n + limit - 1) / limit, nil
}

// maxArraySize asks scontrol for the site's MaxArraySize, and takes Slurm's
// default when it cannot.
func maxArraySize() int {
	if n, err := strconv.Atoi(slurmConfig("MaxArraySize")); err == nil && n > 0 {
		return n
	}
	return defaultMaxArraySize
}

// clusterName is the Slurm cluster's name (slurm.conf's ClusterName), ""
// if scontrol cannot tell.
func (s *Driver) clusterName() string { return slurmConfig("ClusterName") }

// slurmConfig is the value of one setting in `scontrol show config`, "" if
// scontrol fails or does not show it.
func slurmConfig(name string) string {
	out, err := slurmCommand("", "scontrol", "show", "config")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(out, "\n") {
		n, value, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(n) == name {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// script is the batch script of sub: sbatch options, then the replay
// binary executing the task's runs into the run cache.
func (s *Driver) script(sub *Submission) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "# gangsim %s: %s of a sweep in %s, into the run cache %s.\n",
		version.Version, count(sub.Runs(), "run"), count(len(sub.Tasks), "array task"), sub.Cache)
	fmt.Fprintf(&b, "# Submit with: %s\n", strings.Join(sub.Command(), " "))
	opts := []string{
		"--job-name=gangsim-sweep",
		fmt.Sprintf("--array=0-%d", len(sub.Tasks)-1),
		"--output=" + filepath.Join(sub.Dir, logsDir, "%A_%a.out"),
		"--chdir=" + s.Workdir,
	}
	for _, o := range []struct{ name, value string }{{"partition", s.Partition}, {"time", s.Time}, {"account", s.Account}} {
		if o.value != "" {
			opts = append(opts, "--"+o.name+"="+o.value)
		}
	}
	opts = append(opts, s.Options...)
	for _, o := range opts {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	task := shellQuote(filepath.Join(sub.Dir, tasksDir)+"/") + `"$SLURM_ARRAY_TASK_ID"`
	fmt.Fprintf(&b, "exec %s sweep --run %s.json --labels %s.labels --cache %s --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --expect-code %s\n",
		shellQuote(s.Replay), task, task, shellQuote(sub.Cache), shellQuote(version.Code()))
	return b.String()
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Submit hands a prepared submission to sbatch and records its job ID in
// submission.json. If sbatch rejects it, Slurm's message is the error and
// the submission's directory is removed.
func (s *Driver) Submit(sub *Submission) error {
	out, err := slurmCommand(s.Workdir, sub.Command()[0], sub.Command()[1:]...)
	if err != nil {
		os.RemoveAll(sub.Dir)
		return fmt.Errorf("slurm: the job array of %s was not submitted: %w", count(sub.Runs(), "run"), err)
	}
	// --parsable prints "JOBID" or "JOBID;CLUSTER".
	id, cluster, _ := strings.Cut(strings.TrimSpace(out), ";")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return fmt.Errorf("slurm: sbatch printed %q, not a job ID; the job may have been submitted (see squeue)", strings.TrimSpace(out))
	}
	if cluster == "" {
		cluster = s.clusterName()
	}
	sub.JobID, sub.Cluster = id, cluster
	return writeSubmission(sub)
}

// CheckSbatch reports a clear error when sbatch is not on PATH.
func CheckSbatch() error {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return errors.New("slurm: sbatch not found on PATH: run on a Slurm submit host, or use --dry-run to write the batch script and submit it by hand")
	}
	return nil
}

// Wait waits until every task of subs has ended, telling Log of their
// progress, and returns an *Error naming the tasks that ended without
// all their wanted runs in the cache. The directories of submissions whose
// runs are all in the cache are removed.
func (s *Driver) Wait(subs []*Submission, want []Run) error {
	wanted := map[string]bool{}
	for _, r := range want {
		wanted[r.Key] = true
	}
	poll := s.Poll
	if poll <= 0 {
		poll = DefaultPoll
	}
	bar := newTaskProgress(s.Log, subs)
	done := make([][]bool, len(subs)) // a task whose runs are all cached stays done
	for i, sub := range subs {
		done[i] = make([]bool, len(sub.Tasks))
	}
	squeueFailures := 0 // in a row
	for {
		var c taskCounts
		var failed []FailedTask
		known := true
		for i, sub := range subs {
			states, err := s.taskStates(sub.JobID)
			if err != nil {
				if squeueFailures++; squeueFailures == 5 {
					return fmt.Errorf("slurm: %w; job %s goes on: rerun the command to wait for it again", err, sub.JobID)
				}
				bar.note(fmt.Sprintf("%v; retrying", err))
				known = false
				break
			}
			for t, task := range sub.Tasks {
				st := states[t]
				switch {
				case done[i][t]:
					c.done++
				case activeState(st):
					if runningState(st) {
						c.running++
					} else {
						c.pending++
					}
				case s.allCached(task, nil):
					done[i][t] = true
					c.done++
				default:
					if st == "" {
						st = "ENDED"
					}
					c.failed++
					f := FailedTask{JobID: sub.JobID, Task: t, State: st, Log: sub.Log(t), LogsDir: filepath.Join(sub.Dir, logsDir), Cache: sub.Cache}
					for _, r := range task {
						if _, ok := s.Cache.Get(r.Key); !ok && wanted[r.Key] {
							f.Runs = append(f.Runs, r.Label)
						}
					}
					if len(f.Runs) > 0 {
						failed = append(failed, f)
					}
				}
			}
		}
		if !known {
			time.Sleep(poll)
			continue
		}
		squeueFailures = 0
		bar.show(c)
		if c.pending+c.running == 0 {
			bar.finish()
			for _, sub := range subs {
				if s.allCached(nil, sub) {
					os.RemoveAll(sub.Dir)
				}
			}
			if len(failed) > 0 {
				for i := range failed {
					failed[i].Tail = logTail(failed[i].Log, 3)
				}
				return &Error{Failed: failed}
			}
			return nil
		}
		time.Sleep(poll)
	}
}

// Tidy removes the directories of ended submissions whose runs are all in
// the cache now, and the dry run's (TidyDryRun).
func (s *Driver) Tidy(ended []*Submission) {
	for _, sub := range ended {
		if s.allCached(nil, sub) {
			os.RemoveAll(sub.Dir)
		}
	}
	s.TidyDryRun()
}

// TidyDryRun removes the dry run's directory once its runs are all in the
// cache: whether or not its script was submitted by hand, it has nothing
// left to do.
func (s *Driver) TidyDryRun() {
	dir := filepath.Join(s.Dir, dryRunDir)
	b, err := os.ReadFile(filepath.Join(dir, submissionFile))
	if err != nil {
		return
	}
	sub := &Submission{Dir: dir}
	if json.Unmarshal(b, sub) == nil && sub.Cache == s.Cache.Dir && s.allCached(nil, sub) {
		os.RemoveAll(dir)
	}
}

// allCached reports whether every run of task (or, if sub is not nil, of
// every task of sub) is in the cache.
func (s *Driver) allCached(task []TaskRun, sub *Submission) bool {
	if sub != nil {
		for _, t := range sub.Tasks {
			if !s.allCached(t, nil) {
				return false
			}
		}
		return true
	}
	for _, r := range task {
		if _, ok := s.Cache.Get(r.Key); !ok {
			return false
		}
	}
	return true
}

// Error lists the array tasks that ended without their runs in the
// cache.
type Error struct {
	Failed []FailedTask
}

// FailedTask is an array task that ended without all its runs in the
// cache.
type FailedTask struct {
	JobID string
	Task  int    // array index
	State string // Slurm's state (CANCELLED, TIMEOUT, FAILED...), ENDED when squeue no longer knows
	// Runs are the labels of its runs missing from the cache.
	Runs    []string
	Log     string   // its log file
	LogsDir string   // the directory its log should be in
	Tail    []string // the last lines of its log, nil if there is none
	Cache   string   // the run cache it wrote into
}

// maxFailedShown bounds the failed tasks Error describes one by one.
const maxFailedShown = 5

func (e *Error) Error() string {
	var b strings.Builder
	runs := 0
	for _, f := range e.Failed {
		runs += len(f.Runs)
	}
	fmt.Fprintf(&b, "slurm: %s failed, %s missing; rerunning the same command resubmits only those", count(len(e.Failed), "array task"), count(runs, "run"))
	for i, f := range e.Failed {
		if i == maxFailedShown {
			fmt.Fprintf(&b, "\n  and %s more (logs in %s)", count(len(e.Failed)-i, "task"), f.LogsDir)
			break
		}
		fmt.Fprintf(&b, "\n  task %d of job %s (%s): %s", f.Task, f.JobID, f.State, strings.Join(f.Runs, "; "))
		switch {
		case f.Tail == nil:
			fmt.Fprintf(&b, "\n    no log at %s: can the compute nodes write %s?", f.Log, f.LogsDir)
		default:
			fmt.Fprintf(&b, "\n    log %s:", f.Log)
			for _, l := range f.Tail {
				fmt.Fprintf(&b, "\n    | %s", l)
			}
		}
		if f.State == "COMPLETED" {
			fmt.Fprintf(&b, "\n    it completed but its runs are not in %s as seen here: is that directory shared with the compute nodes at the same path?", f.Cache)
		}
	}
	return b.String()
}

// count is "1 run", "2 runs".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// logTail returns the last n non-empty lines of a log file, nil if it
// cannot be read, and an empty slice for an empty log.
func logTail(name string, n int) []string {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	lines := []string{}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines[max(0, len(lines)-n):]
}

// taskStates asks squeue for the state of every task of the job array
// jobID, by array index. Tasks squeue no longer knows (ended long ago) are
// absent.
func (s *Driver) taskStates(jobID string) (map[int]string, error) {
	return s.squeueTasks(jobID, "")
}

// ownTaskStates is taskStates of sub's job, leaving out tasks that squeue
// shows running another batch script than sub's: the same job ID given to
// another job by a cluster that lost its state. (Wait, which asks about a
// job it has just submitted, does not compare: a site whose squeue shows
// the script under another path would see its tasks as ended.)
func (s *Driver) ownTaskStates(sub *Submission) (map[int]string, error) {
	return s.squeueTasks(sub.JobID, filepath.Join(filepath.Base(sub.Dir), scriptFile))
}

// squeueTasks asks squeue for the tasks of jobID; with script not empty,
// only those whose batch script's path ends in /script.
func (s *Driver) squeueTasks(jobID, script string) (map[int]string, error) {
	out, err := slurmCommand("", "squeue", "--noheader", "--array", "--states=all", "--jobs="+jobID, "--format=%K|%T|%o")
	if err != nil {
		var ce *slurmCommandError
		if errors.As(err, &ce) && strings.Contains(ce.Msg, "Invalid job id") {
			return map[int]string{}, nil // the whole job has left the controller
		}
		return nil, err
	}
	return parseTaskStates(out, script)
}

// parseTaskStates reads squeue's "%K|%T|%o" lines: array index, state and
// command (the batch script). With script not empty, tasks whose command
// does not end in /script are left out.
func parseTaskStates(out, script string) (map[int]string, error) {
	states := map[int]string{}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.SplitN(line, "|", 3)
		i, err := strconv.Atoi(f[0])
		if len(f) != 3 || err != nil {
			return nil, fmt.Errorf("squeue: unexpected line %q", line)
		}
		if script != "" && !strings.HasSuffix(f[2], "/"+script) {
			continue
		}
		states[i] = f[1]
	}
	return states, nil
}

// terminalStates are the states of a job that has ended (squeue's long
// names); any other known state is active.
var terminalStates = map[string]bool{
	"COMPLETED": true, "CANCELLED": true, "FAILED": true, "TIMEOUT": true, "NODE_FAIL": true,
	"PREEMPTED": true, "BOOT_FAIL": true, "DEADLINE": true, "OUT_OF_MEMORY": true,
	"SPECIAL_EXIT": true, "REVOKED": true,
}

// activeState reports whether a task in state st may still run: any state
// squeue shows but an ended one. "" (not shown) is not active.
func activeState(st string) bool { return st != "" && !terminalStates[st] }

// runningState reports whether an active task is executing (rather than
// waiting).
func runningState(st string) bool {
	switch st {
	case "RUNNING", "COMPLETING", "CONFIGURING", "SIGNALING", "STAGE_OUT":
		return true
	}
	return false
}

func anyActive(states map[int]string) bool {
	for _, st := range states {
		if activeState(st) {
			return true
		}
	}
	return false
}

// slurmCommandError is a Slurm command's failure with what it printed.
type slurmCommandError struct {
	Cmd string
	Msg string
}

// Error is the command's message, prefixed with its name unless Slurm's
// own message already is ("sbatch: error: ...").
func (e *slurmCommandError) Error() string {
	if strings.HasPrefix(e.Msg, e.Cmd+": ") {
		return e.Msg
	}
	return e.Cmd + ": " + e.Msg
}

// slurmCommand runs a Slurm command found on PATH in dir (the current
// directory if empty) and returns its standard output; its failure carries
// its standard error, Slurm's message.
func slurmCommand(dir, name string, args ...string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", &slurmCommandError{Cmd: name, Msg: "not found on PATH (is this a Slurm submit host?)"}
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), &slurmCommandError{Cmd: name, Msg: msg}
	}
	return stdout.String(), nil
}

type taskCounts struct{ pending, running, done, failed int }

// taskProgress writes the tasks' counts: redrawn in place on a terminal
// (cli's status line), a line when they change (at most every LogEvery,
// unless tasks failed) elsewhere.
type taskProgress struct {
	w        io.Writer
	terminal bool
	line     *cli.StatusLine // on a terminal
	what     string
	total    int
	last     taskCounts
	shown    bool
	at       time.Time
}

func newTaskProgress(w io.Writer, subs []*Submission) *taskProgress {
	ids := make([]string, len(subs))
	total := 0
	for i, sub := range subs {
		ids[i] = sub.JobID
		total += len(sub.Tasks)
	}
	sort.Strings(ids)
	what := "slurm job " + strings.Join(ids, ", ")
	if len(ids) > 1 {
		what = "slurm jobs " + strings.Join(ids, ", ")
	}
	terminal := w != nil && cli.IsTerminal(w)
	return &taskProgress{w: w, terminal: terminal, line: cli.NewStatusLine(w, terminal), what: what, total: total}
}

func (p *taskProgress) show(c taskCounts) {
	if p.w == nil || (p.shown && c == p.last) {
		return
	}
	ended := c.pending+c.running == 0
	if !p.terminal && p.shown && !ended && c.failed == p.last.failed && time.Since(p.at) < LogEvery {
		return
	}
	line := fmt.Sprintf("%s: %s: %s: %d pending, %d running, %d done, %d failed",
		pipelines.SweepTool, p.what, count(p.total, "array task"), c.pending, c.running, c.done, c.failed)
	if p.terminal {
		p.line.Show(line)
	} else {
		fmt.Fprintln(p.w, line)
	}
	p.last, p.shown, p.at = c, true, time.Now()
}

func (p *taskProgress) note(msg string) {
	if p.w == nil {
		return
	}
	p.finish()
	fmt.Fprintf(p.w, "%s: %s: %s\n", pipelines.SweepTool, p.what, msg)
}

func (p *taskProgress) finish() {
	if p.terminal && p.shown {
		p.line.Keep()
		p.shown = false
	}
}
