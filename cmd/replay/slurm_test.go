package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/pipelines/slurm"
	"github.com/gangsim/gangsim/workload"
)

// slurmSmall is an experiment of eight quick runs (300 Lublin jobs each).
const slurmSmall = `{
  "item": "frachtenberg/slurm-small",
  "title": "Slurm sweep test: two policies, two loads, two seeds",
  "run": {"workload": {"source": {"lublin": {"jobs": 300, "procs": 32}}, "estimates": {"mode": "loose"},
          "load": {"target": 0.6}, "compress": 100, "seed": 1}, "replay": {"policy": "fcfs"}},
  "grid": [
    {"name": "policy", "set": "replay.policy", "values": ["fcfs", "easy"]},
    {"name": "load", "set": "workload.load.target", "values": [0.5, 0.9]},
    {"name": "seed", "set": "workload.seed", "values": [1, 2]}
  ],
  "analysis": {"kind": "metrics", "x": "load", "series": "policy", "replicas": "seed",
               "metrics": ["response_s_mean", "utilization"]}
}`

// slurmHeavy is an experiment of a quick run and a slow one (conservative
// backfilling of 50,000 jobs at 98% load: seconds), which in chunks of two
// share an array task: the test kills that task while it builds the slow
// run.
const slurmHeavy = `{
  "item": "frachtenberg/slurm-heavy",
  "title": "Slurm sweep test: a quick run and a slow one",
  "run": {"workload": {"source": {"lublin": {"jobs": 300, "procs": 32}}, "load": {"target": 0.98}, "seed": 1},
          "replay": {"policy": "conservative", "sample_period": "1h"}},
  "grid": [{"name": "jobs", "set": "workload.source.lublin.jobs", "values": [300, 50000]}],
  "analysis": {"kind": "metrics", "x": "jobs", "metrics": ["utilization"]}
}`

// TestSlurmSweep sweeps through a real single-node Slurm cluster
// (conformance/slurm/cluster.sh starts munged, slurmctld and slurmd on
// localhost and the cleanup stops them by their PIDs): ten runs as a job
// array, one task killed with scancel while it builds a run, the rerun
// resubmitting that run alone, results byte-identical to the local sweep's;
// then --no-wait, a rerun that waits for the job in flight instead of
// submitting again, and a submission Slurm rejects. It skips when Slurm is
// not installed or the test is not root, unless GANGSIM_REQUIRE_SLURM is
// set, as CI sets it.
func TestSlurmSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	dir := t.TempDir() // removed after the cluster stops: its jobs write into it
	startSlurm(t)
	bin := filepath.Join(dir, "replay")
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("building the replay binary the array tasks run: %v", err)
	}
	// Without the VCS stamp, which the test binary (the submitter, and the
	// local sweep) lacks too: the tables' manifests record the revision,
	// and the runs of both must be the same bytes.
	if out, err := exec.Command(goTool, "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building replay: %v\n%s", err, out)
	}
	small, heavy := filepath.Join(dir, "small.json"), filepath.Join(dir, "heavy.json")
	os.WriteFile(small, []byte(slurmSmall), 0o644)
	os.WriteFile(heavy, []byte(slurmHeavy), 0o644)
	localCache, localRes := filepath.Join(dir, "local-cache"), filepath.Join(dir, "local-results")
	if _, stderr, err := replayCmd(t, nil, "sweep", "--cache", localCache, "-o", localRes, small, heavy); err != nil {
		t.Fatalf("local sweep: %v\n%s", err, stderr)
	}

	keys := map[string]string{} // label -> key
	var order []string
	for _, name := range []string{small, heavy} {
		e, _, err := analysis.LoadExperiment(name)
		if err != nil {
			t.Fatal(err)
		}
		runs, points, _ := e.Runs()
		sr, err := slurm.Runs(e.Item, runs, points)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sr {
			keys[r.Label] = r.Key
			order = append(order, r.Label)
		}
	}
	quick, slow := order[8], order[9] // the heavy experiment's, task 4 in chunks of two
	if len(order) != 10 || !strings.HasSuffix(slow, "(jobs=50000)") {
		t.Fatalf("runs %q", order)
	}

	// The first sweep: task 4 is cancelled once its quick run is in the
	// cache, while it builds the slow one.
	cacheDir, res := filepath.Join(dir, "cache"), filepath.Join(dir, "results")
	cache := &pipelines.Cache{Dir: cacheDir}
	slurmArgs := []string{"sweep", "--slurm", "--slurm-replay", bin, "--slurm-chunk", "2", "--slurm-poll", "200ms",
		"--cache", cacheDir, "-o", res, small, heavy}
	type result struct {
		stderr string
		err    error
	}
	first := make(chan result, 1)
	go func() {
		_, stderr, err := cli.Call(run, nil, slurmArgs...)
		first <- result{stderr, err}
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, ok := cache.Get(keys[quick]); ok {
			break
		}
		select {
		case r := <-first:
			t.Fatalf("the sweep ended before task 4 was killed: %v\n%s", r.err, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("task 4's first run never reached the cache")
		}
		time.Sleep(20 * time.Millisecond)
	}
	task := ""
	for _, id := range strings.Fields(slurmOut(t, "squeue", "--noheader", "--array", "--format=%i")) {
		if strings.HasSuffix(id, "_4") {
			task = id
		}
	}
	if task == "" {
		t.Fatal("task 4 is not in squeue")
	}
	slurmOut(t, "scancel", task)
	r := <-first
	var se *slurm.Error
	if !errors.As(r.err, &se) || len(se.Failed) != 1 {
		t.Fatalf("first sweep: %v, want one failed task\n%s", r.err, r.stderr)
	}
	t.Logf("first sweep, task 4 cancelled:\n%s\nreplay: %v", r.stderr, r.err)
	f := se.Failed[0]
	if f.Task != 4 || f.State != "CANCELLED" || len(f.Runs) != 1 || f.Runs[0] != slow || f.Tail == nil {
		t.Errorf("failed task %+v", f)
	}
	if !strings.Contains(r.err.Error(), "task 4 of job") || !strings.Contains(r.err.Error(), f.Log) {
		t.Errorf("the error does not name the task and its log:\n%v", r.err)
	}
	// Killed midway: its slow run was being built, and is not in the cache.
	if _, ok := cache.Get(keys[slow]); ok {
		t.Fatal("the killed task's run is in the cache")
	}
	if m, _ := filepath.Glob(filepath.Join(cacheDir, "tmp", keys[slow][:16]+"-*")); len(m) != 1 {
		t.Errorf("no half-built directory of the killed run in the cache's tmp (%v): the task was not killed midway", m)
	}
	finished := map[string][]byte{}
	for _, label := range order[:9] {
		b, err := os.ReadFile(filepath.Join(cache.Path(keys[label]), pipelines.InfoFile))
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		finished[label] = b
	}

	// The rerun submits the one missing run and loses nothing finished.
	_, stderr, err := replayCmd(t, nil, slurmArgs...)
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, stderr)
	}
	t.Logf("rerun:\n%s", stderr)
	if !strings.Contains(stderr, "1 run missing from the run cache") || !strings.Contains(stderr, "1 array task") {
		t.Errorf("rerun did not submit one run in one task:\n%s", stderr)
	}
	for label, want := range finished {
		if got, _ := os.ReadFile(filepath.Join(cache.Path(keys[label]), pipelines.InfoFile)); !bytes.Equal(got, want) {
			t.Errorf("%s was run again", label)
		}
	}
	sameFiles(t, localRes, res)
	for _, key := range keys {
		for _, name := range []string{pipelines.OutcomesFile, pipelines.TimeSeriesFile} {
			want, _ := os.ReadFile(filepath.Join((&pipelines.Cache{Dir: localCache}).Path(key), name))
			got, _ := os.ReadFile(filepath.Join(cache.Path(key), name))
			if len(want) == 0 || !bytes.Equal(got, want) {
				t.Errorf("run %s: %s differs from the local sweep's", key[:12], name)
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(cacheDir, "slurm", "sweep-*")); len(m) != 0 {
		t.Errorf("finished submissions left behind: %v", m)
	}

	// --no-wait returns a job ID squeue knows (held, so that it stays); a
	// rerun finds the job in flight and submits nothing; released, the
	// job's runs give the local results.
	cache2, res2 := filepath.Join(dir, "cache2"), filepath.Join(dir, "results2")
	noWait := []string{"sweep", "--slurm", "--slurm-replay", bin, "--slurm-chunk", "4", "--slurm-poll", "200ms",
		"--cache", cache2, "-o", res2, small}
	stdout, stderr, err := replayCmd(t, nil, append(noWait, "--no-wait", "--slurm-opt=--hold")...)
	if err != nil {
		t.Fatalf("--no-wait: %v\n%s", err, stderr)
	}
	job := strings.TrimSpace(stdout)
	states := strings.Fields(slurmOut(t, "squeue", "--noheader", "--array", "--jobs="+job, "--format=%T"))
	if len(states) != 2 || states[0] != "PENDING" || states[1] != "PENDING" {
		t.Fatalf("squeue on job %q: %q, want two pending tasks", job, states)
	}
	if m, _ := filepath.Glob(filepath.Join(cache2, "slurm", "sweep-*", "submission.json")); len(m) != 1 {
		t.Errorf("submissions %v", m)
	} else if b, _ := os.ReadFile(m[0]); !strings.Contains(string(b), `"cluster": "gangsim"`) {
		t.Errorf("submission.json does not record the cluster's name (slurm.conf's ClusterName):\n%s", b)
	}
	stdout, stderr, err = replayCmd(t, nil, append(noWait, "--no-wait")...)
	if err != nil || strings.TrimSpace(stdout) != job || !strings.Contains(stderr, "still running") || strings.Contains(stderr, "submitted as") {
		t.Fatalf("rerun with the job in flight: job %q (want %s), %v\n%s", stdout, job, err, stderr)
	}
	slurmOut(t, "scontrol", "release", job)
	if _, stderr, err := replayCmd(t, nil, noWait...); err != nil || strings.Contains(stderr, "submitted as") {
		t.Fatalf("waiting for the released job: %v\n%s", err, stderr)
	}
	want, _ := os.ReadFile(filepath.Join(localRes, "frachtenberg", "slurm-small.csv"))
	if got, _ := os.ReadFile(filepath.Join(res2, "frachtenberg", "slurm-small.csv")); len(want) == 0 || !bytes.Equal(got, want) {
		t.Error("the item built after --no-wait differs from the local sweep's")
	}

	// A submission Slurm rejects shows Slurm's message and leaves nothing.
	cache3 := filepath.Join(dir, "cache3")
	_, _, err = replayCmd(t, nil, "sweep", "--slurm", "--slurm-replay", bin, "--slurm-partition", "nosuch",
		"--cache", cache3, "-o", filepath.Join(dir, "results3"), small)
	if err == nil || !strings.Contains(err.Error(), "sbatch: error:") || !strings.Contains(err.Error(), "nvalid partition") {
		t.Errorf("rejected submission: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(cache3, "slurm", "sweep-*")); len(m) != 0 {
		t.Errorf("a rejected submission left %v", m)
	}

	// A job still running when the test ends: the cleanup's cluster.sh
	// stop must end it (its slurmstepd ignores the SIGTERM that stops
	// slurmd, and would outlive the cluster with the job's processes).
	job = strings.TrimSpace(slurmOut(t, "sbatch", "--parsable", "--output=/dev/null", "--wrap", "sleep 300"))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if st := strings.TrimSpace(slurmOut(t, "squeue", "--noheader", "--jobs="+job, "--format=%T")); st == "RUNNING" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the sleeping job %s is %s, not running", job, st)
		}
	}
}

// startSlurm starts a single-node cluster for the test and points the Slurm
// commands at it (SLURM_CONF); the test's cleanup stops it. It skips, or
// fails under GANGSIM_REQUIRE_SLURM, when that is not possible here.
func startSlurm(t *testing.T) {
	t.Helper()
	var missing []string
	for _, cmd := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"} {
		if _, err := exec.LookPath(cmd); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/sbin", cmd)); err != nil {
				missing = append(missing, cmd)
			}
		}
	}
	why := ""
	switch {
	case len(missing) > 0:
		why = "Slurm not installed (no " + strings.Join(missing, ", ") + "; apt-get install slurm-wlm munge)"
	case os.Geteuid() != 0:
		why = "not root (slurmd launches the jobs)"
	}
	if why != "" {
		if os.Getenv("GANGSIM_REQUIRE_SLURM") != "" {
			t.Fatalf("Slurm test required but not runnable: %s", why)
		}
		t.Skip(why)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "conformance", "slurm", "cluster.sh"))
	dir := t.TempDir()
	conf := filepath.Join(dir, "slurm.conf")
	// Whether the test passes or fails midway, the cleanup stops the cluster
	// and checks that nothing of it runs on: no daemon, no job.
	t.Cleanup(func() {
		if out, err := exec.Command("bash", script, "stop", dir).CombinedOutput(); err != nil {
			t.Errorf("stopping the Slurm cluster: %v\n%s", err, out)
		}
		if left := clusterProcesses(conf); len(left) > 0 {
			t.Errorf("processes of the Slurm cluster left running after cluster.sh stop: %s", strings.Join(left, ", "))
		}
	})
	out, err := exec.Command("bash", script, "start", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("starting the Slurm cluster: %v\n%s", err, out)
	}
	t.Setenv("SLURM_CONF", conf)
}

// clusterProcesses lists, as "PID NAME", the live processes whose
// environment names the cluster's slurm.conf: cluster.sh starts slurmctld
// and slurmd with SLURM_CONF exported, and slurmd's slurmstepd and the
// jobs (submitted from the test's environment) inherit it. munged, started
// before, is found by its PID file.
func clusterProcesses(conf string) []string {
	var left []string
	entries, _ := os.ReadDir("/proc")
	self := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		pid := e.Name()
		if pid[0] < '0' || pid[0] > '9' || pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", pid, "environ")) // empty for a zombie
		if err != nil || !slices.Contains(strings.Split(string(env), "\x00"), "SLURM_CONF="+conf) {
			continue
		}
		name, _ := os.ReadFile(filepath.Join("/proc", pid, "comm"))
		left = append(left, pid+" "+strings.TrimSpace(string(name)))
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(conf), "munged.pid")); err == nil {
		if pid := strings.TrimSpace(string(b)); pid != "" {
			if _, err := os.Stat(filepath.Join("/proc", pid)); err == nil {
				left = append(left, pid+" munged")
			}
		}
	}
	return left
}

// slurmOut runs a Slurm command and returns its output.
func slurmOut(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		msg := ""
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg = string(ee.Stderr)
		}
		t.Fatalf("%s %s: %v %s", name, strings.Join(args, " "), err, msg)
	}
	return string(out)
}

// sameFiles fails unless the two directory trees hold the same files with
// the same bytes.
func sameFiles(t *testing.T, want, got string) {
	t.Helper()
	read := func(root string) map[string][]byte {
		files := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Error(err)
				return nil
			}
			if !d.IsDir() {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				files[rel] = b
			}
			return nil
		})
		return files
	}
	w, g := read(want), read(got)
	if len(w) == 0 {
		t.Fatalf("no files in %s", want)
	}
	for name, b := range w {
		if gb, ok := g[name]; !ok {
			t.Errorf("%s: missing", name)
		} else if !bytes.Equal(gb, b) {
			t.Errorf("%s: differs from the local sweep's", name)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: not made by the local sweep", name)
		}
	}
}

// TestSweepSlurmDryRun needs no Slurm: --dry-run writes the job array's
// files into CACHE/slurm/dry-run, which the next dry run replaces, and
// prints the batch script and the sbatch command; it leaves out the runs
// of active jobs (stand-ins for squeue and sbatch here).
func TestSweepSlurmDryRun(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "small.json")
	os.WriteFile(exp, []byte(slurmSmall), 0o644)
	cache := filepath.Join(dir, "cache")
	tools := filepath.Join(dir, "bin")
	os.Mkdir(tools, 0o755)
	// squeue shows the jobs in tools/jobs (--format=%A|%o) or the tasks
	// in tools/tasks (--format=%K|%T|%o).
	os.WriteFile(filepath.Join(tools, "squeue"), []byte(`#!/bin/sh
case "$*" in *%A*) cat "$(dirname "$0")/jobs";; *) cat "$(dirname "$0")/tasks";; esac 2>/dev/null
exit 0
`), 0o755)
	os.WriteFile(filepath.Join(tools, "scontrol"), []byte("#!/bin/sh\necho 'ClusterName = gangsim'\n"), 0o755)
	os.WriteFile(filepath.Join(tools, "sbatch"), []byte("#!/bin/sh\necho 7\n"), 0o755)
	t.Setenv("PATH", tools+":"+os.Getenv("PATH"))
	dryRun := []string{"sweep", "--slurm", "--dry-run", "--slurm-chunk", "3", "--slurm-time", "5", "--slurm-opt=--mem=1G", "--cache", cache, exp}
	stdout, stderr, err := replayCmd(t, nil, dryRun...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	sub := filepath.Join(cache, "slurm", "dry-run")
	if m, _ := filepath.Glob(filepath.Join(cache, "slurm", "*")); len(m) != 1 || m[0] != sub {
		t.Fatalf("submission directories %v, want %s", m, sub)
	}
	script, _ := os.ReadFile(filepath.Join(sub, "batch.sh"))
	self, _ := os.Executable()
	for _, want := range []string{"#SBATCH --array=0-2\n", "#SBATCH --time=5\n", "#SBATCH --mem=1G\n", "exec '" + self + "' sweep --run "} {
		if !strings.Contains(string(script), want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	if want := string(script) + "\nsbatch --parsable " + filepath.Join(sub, "batch.sh") + "\n"; stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	if !strings.Contains(stderr, "dry run: 8 runs in 3 array tasks written to "+sub+"; nothing submitted") {
		t.Errorf("stderr: %s", stderr)
	}

	// An array task's command, run here: its runs go into the cache.
	stdout, _, err = replayCmd(t, nil, "sweep", "--run", filepath.Join(sub, "tasks", "2.json"), "--labels", filepath.Join(sub, "tasks", "2.labels"),
		"--cache", cache, "--expect-code", version.Code())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout, `"key"`); n != 2 {
		t.Errorf("task 2 ran %d runs, want 2:\n%s", n, stdout)
	}
	if _, _, err := replayCmd(t, nil, "sweep", "--run", filepath.Join(sub, "tasks", "0.json"), "--cache", cache,
		"--expect-code", "c0de"); err == nil || !strings.Contains(err.Error(), "not c0de as the submitter's") {
		t.Errorf("a task of other code: %v", err)
	}
	if _, _, err := replayCmd(t, nil, "sweep", "--run", filepath.Join(sub, "tasks", "0.json"), "--out-dir", filepath.Join(dir, "one")); err == nil ||
		!strings.Contains(err.Error(), "3 run descriptions; --out-dir takes one") {
		t.Errorf("three runs into --out-dir: %v", err)
	}

	// The next dry run replaces the directory: the 6 runs still missing.
	if _, stderr, err = replayCmd(t, nil, dryRun...); err != nil || !strings.Contains(stderr, "dry run: 6 runs in 2 array tasks written to "+sub) {
		t.Fatalf("second dry run: %v\n%s", err, stderr)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "slurm", "*")); len(m) != 1 {
		t.Errorf("submission directories %v", m)
	}
	// ... unless the user submitted the last one and its job is active.
	os.WriteFile(filepath.Join(tools, "jobs"), []byte("12|"+filepath.Join(sub, "batch.sh")+"\n"), 0o644)
	if _, _, err = replayCmd(t, nil, dryRun...); err == nil || err.Error() != "slurm: job 12, submitted from the last dry run's "+
		filepath.Join(sub, "batch.sh")+", is still pending or running: a new dry run would replace its files; wait for it to end or scancel it" {
		t.Errorf("dry run over an active one: %v", err)
	}
	os.Remove(filepath.Join(tools, "jobs"))

	// A job submitted earlier still runs 3 of the missing runs: the dry run
	// leaves them out.
	e, _, _ := analysis.LoadExperiment(exp)
	runs, points, _ := e.Runs()
	sr, _ := slurm.Runs(e.Item, runs, points)
	s, err := newSlurm(cache, "", self)
	if err != nil {
		t.Fatal(err)
	}
	s.Chunk = 3
	earlier, err := s.Prepare(sr[:3])
	if err == nil {
		err = s.Submit(earlier)
	}
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tools, "tasks"), []byte("0|RUNNING|"+earlier.Script()+"\n"), 0o644)
	stdout, stderr, err = replayCmd(t, nil, dryRun...)
	if err != nil || !strings.Contains(stderr, "slurm job 7, submitted earlier, is still running some of these runs: they are left out of the dry run") ||
		!strings.Contains(stderr, "dry run: 3 runs in 1 array task written to "+sub) || !strings.Contains(stdout, "#SBATCH --array=0-0\n") {
		t.Errorf("dry run beside an active job: %v\n%s", err, stderr)
	}

	// Once every run is in the cache, a dry run has nothing to submit and
	// removes the last one's directory.
	os.Remove(filepath.Join(tools, "tasks"))
	if _, stderr, err := replayCmd(t, nil, "sweep", "--cache", cache, "-o", filepath.Join(dir, "results"), exp); err != nil {
		t.Fatalf("local sweep: %v\n%s", err, stderr)
	}
	if _, stderr, err = replayCmd(t, nil, dryRun...); err != nil || !strings.Contains(stderr, "dry run: all 8 runs are in the run cache") {
		t.Errorf("dry run with every run cached: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(sub); !errors.Is(err, os.ErrNotExist) {
		t.Error("the dry run's directory outlives its runs")
	}
}

// TestSweepRunLabels: a failed run of --run is named by its label, as a
// Slurm task's log shows it, not as "run 1 (no grid)".
func TestSweepRunLabels(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("1 0 x\n"), 0o644)
	e, _, err := analysis.LoadExperiment(writeFile(t, dir, "small.json", slurmSmall))
	if err != nil {
		t.Fatal(err)
	}
	runs, _, _ := e.Runs()
	broken := *runs[0]
	broken.Workload.Source = workload.Source{Trace: &workload.TraceSource{Path: bad}}
	tasks := writeFile(t, dir, "0.json", string(runs[1].Canonical())+"\n"+string(broken.Canonical())+"\n")
	labels := writeFile(t, dir, "0.labels", "frachtenberg/slurm-small (policy=fcfs, load=0.5, seed=2)\nfrachtenberg/slurm-small (policy=fcfs, load=0.5, seed=1)\n")
	cache := filepath.Join(dir, "cache")
	_, _, err = replayCmd(t, nil, "sweep", "--run", tasks, "--labels", labels, "--cache", cache, "-j", "1")
	if want := tasks + ": run 2, frachtenberg/slurm-small (policy=fcfs, load=0.5, seed=1): workload: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("labelled: %v, want %s...", err, want)
	}
	_, _, err = replayCmd(t, nil, "sweep", "--run", tasks, "--cache", cache)
	if want := tasks + ": run 2: workload: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("unlabelled: %v, want %s...", err, want)
	}
	short := writeFile(t, dir, "short.labels", "one label\n")
	_, _, err = replayCmd(t, nil, "sweep", "--run", tasks, "--labels", short, "--cache", cache)
	if want := short + ": 1 labels for the 2 runs of " + tasks; err == nil || err.Error() != want {
		t.Errorf("too few labels: %v, want %s", err, want)
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSweepSlurmErrors(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "small.json")
	os.WriteFile(exp, []byte(slurmSmall), 0o644)
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"--no-wait", exp}, "--no-wait needs --slurm"},
		{[]string{"--slurm-opt=--mem=1G", exp}, "--slurm-opt needs --slurm"},
		{[]string{"--slurm", "--no-wait", "--dry-run", exp}, "--no-wait and --dry-run exclude each other"},
		{[]string{"--slurm", "--slurm-opt=--array=1-3", exp}, `--slurm-opt: sbatch option "--array=1-3": --array is not allowed: gangsim sets it: one array task per chunk of runs`},
		{[]string{"--slurm", "--slurm-opt=--mem=1G", "--slurm-opt", "-a0-1", exp}, `--slurm-opt: sbatch option "-a0-1": -a (--array) is not allowed: gangsim sets it: one array task per chunk of runs`},
		{[]string{"--slurm", "--slurm-chunk=-1", exp}, "--slurm-chunk -1: want a positive number of runs per task"},
		{[]string{"--expect-code", "c0de", exp}, "--expect-code needs --run"},
		{[]string{"--labels", "x.labels", exp}, "--labels needs --run"},
		{[]string{"--run", "x.json", "--slurm"}, "--run takes no experiment files, --slurm or --print-runs"},
	} {
		_, _, err := replayCmd(t, nil, append([]string{"sweep"}, tt.args...)...)
		if !errors.Is(err, cli.ErrUsage) || err.Error() != tt.err {
			t.Errorf("%q: %v, want usage error %s", tt.args, err, tt.err)
		}
	}
	t.Setenv("PATH", dir)
	_, _, err := replayCmd(t, nil, "sweep", "--slurm", "--cache", filepath.Join(dir, "cache"), exp)
	if err == nil || !strings.HasPrefix(err.Error(), "slurm: sbatch not found on PATH") {
		t.Errorf("no sbatch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a sweep without sbatch wrote into the cache")
	}
	_, _, err = replayCmd(t, nil, "sweep", "--slurm", "--slurm-replay", filepath.Join(dir, "nonesuch"), exp)
	if err == nil || !strings.Contains(err.Error(), "nonesuch: not an executable file") {
		t.Errorf("missing replay binary: %v", err)
	}

	// A run cache or a submission directory that cannot be written is
	// found before sbatch, and named with its flag.
	submitted := filepath.Join(dir, "submitted")
	os.WriteFile(filepath.Join(dir, "sbatch"), []byte("#!/bin/sh\ntouch "+submitted+"; echo 5\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "squeue"), []byte("#!/bin/sh\n"), 0o755)
	cache := filepath.Join(dir, "cache")
	os.MkdirAll(cache, 0o755)
	os.WriteFile(filepath.Join(cache, "tmp"), nil, 0o644) // unwritable, even for root
	_, _, err = replayCmd(t, nil, "sweep", "--slurm", "--cache", cache, "--slurm-dir", filepath.Join(dir, "subs"), exp)
	if err == nil || !strings.HasPrefix(err.Error(), "slurm: cannot write the run cache "+cache+": mkdir "+filepath.Join(cache, "tmp")) ||
		!strings.HasSuffix(err.Error(), " (--cache: it must be writable here and by the compute nodes, at the same path)") {
		t.Errorf("unwritable cache: %v", err)
	}
	os.Remove(filepath.Join(cache, "tmp"))
	os.WriteFile(filepath.Join(dir, "subs"), nil, 0o644)
	_, _, err = replayCmd(t, nil, "sweep", "--slurm", "--cache", cache, "--slurm-dir", filepath.Join(dir, "subs"), exp)
	if err == nil || !strings.HasPrefix(err.Error(), "slurm: cannot read the submission directory "+filepath.Join(dir, "subs")+": ") ||
		!strings.HasSuffix(err.Error(), " (--slurm-dir, by default CACHE/slurm: it must be writable here and by the compute nodes, at the same path)") {
		t.Errorf("unwritable submission directory: %v", err)
	}
	if _, err := os.Stat(submitted); err == nil {
		t.Error("sbatch was run for directories that cannot be written")
	}
}

// TestSlurmChunkingExperiment keeps the README's chunking measurement
// true to its experiment: 200 runs.
func TestSlurmChunkingExperiment(t *testing.T) {
	e, _, err := analysis.LoadExperiment(filepath.Join("..", "..", "conformance", "slurm", "chunking.json"))
	if err != nil {
		t.Fatal(err)
	}
	if runs, _, err := e.Runs(); err != nil || len(runs) != 200 {
		t.Errorf("%d runs, %v; the README times 200", len(runs), err)
	}
}
