package slurm

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/pipelines"
)

// The real Slurm is exercised by cmd/replay's TestSlurmSweep; these tests
// put stand-ins for sbatch and squeue on PATH to check what gangsim writes,
// submits and reports.

func slurmForTest(t *testing.T) (*Driver, []Run) {
	t.Helper()
	runs, points := sweepRuns(t)
	sr, err := Runs("frachtenberg/test-item", runs, points)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &Driver{Cache: &pipelines.Cache{Dir: filepath.Join(dir, "cache")}, Dir: filepath.Join(dir, "cache", "slurm"),
		Replay: "/opt/gangsim/bin/replay", Workdir: dir, MaxArray: 1001}
	return s, sr
}

// fakeSlurm puts scripts named after Slurm commands, with the given bodies,
// first on PATH; scontrol, unless given, shows the cluster's name as
// "gangsim" or as the file scontrol.name says.
func fakeSlurm(t *testing.T, scripts map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := scripts["scontrol"]; !ok {
		scripts["scontrol"] = `name=$(cat "$(dirname "$0")/scontrol.name" 2>/dev/null || echo gangsim); echo "ClusterName             = $name"`
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+":/usr/bin:/bin")
	return dir
}

// cacheRun records key as finished in the cache, as far as Cache.Get can
// tell.
func cacheRun(t *testing.T, c *pipelines.Cache, key string) {
	t.Helper()
	if err := os.MkdirAll(c.Path(key), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(pipelines.RunInfo{Key: key, Version: version.Version, Dropped: []string{}})
	if err := os.WriteFile(filepath.Join(c.Path(key), pipelines.InfoFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{pipelines.OutcomesFile, pipelines.TimeSeriesFile} { // a Parquet file's frame
		if err := os.WriteFile(filepath.Join(c.Path(key), name), []byte("PAR1\x00\x00\x00\x00\x04\x00\x00\x00PAR1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRunsLabels(t *testing.T) {
	_, sr := slurmForTest(t)
	if len(sr) != 4 || sr[3].Label != "frachtenberg/test-item (policy=easy, load=0.9)" {
		t.Errorf("labels %q", sr[3].Label)
	}
	if k, _ := sr[3].Run.Key(); k != sr[3].Key {
		t.Error("key differs from Run.Key")
	}
}

func TestSlurmPrepare(t *testing.T) {
	s, sr := slurmForTest(t)
	s.Chunk, s.Partition, s.Time, s.Account = 3, "short", "10", "proj"
	s.Options = []string{"--mem=1G", "--qos=low"}
	sub, err := s.Prepare(sr)
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Tasks) != 2 || len(sub.Tasks[0]) != 3 || len(sub.Tasks[1]) != 1 || sub.JobID != "" {
		t.Fatalf("tasks %+v", sub.Tasks)
	}
	// Each task's file holds its runs' canonical descriptions, in order.
	for i, task := range sub.Tasks {
		f, err := os.Open(filepath.Join(sub.Dir, "tasks", []string{"0.json", "1.json"}[i]))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := pipelines.ReadRuns(f, f.Name())
		f.Close()
		if err != nil || len(runs) != len(task) {
			t.Fatalf("task %d: %d runs, %v", i, len(runs), err)
		}
		for j, r := range runs {
			if k, _ := r.Key(); k != task[j].Key {
				t.Errorf("task %d run %d: key %s, recorded %s", i, j, k, task[j].Key)
			}
		}
		// and its labels, one a line, for the task's messages.
		labels, _ := os.ReadFile(filepath.Join(sub.Dir, "tasks", []string{"0.labels", "1.labels"}[i]))
		var want string
		for _, r := range task {
			want += r.Label + "\n"
		}
		if string(labels) != want {
			t.Errorf("task %d labels %q, want %q", i, labels, want)
		}
	}
	script, err := os.ReadFile(sub.Script())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"#!/bin/sh\n",
		"# gangsim " + version.Version + ": 4 runs of a sweep in 2 array tasks, into the run cache " + s.Cache.Dir + ".\n",
		"# Submit with: sbatch --parsable " + sub.Script() + "\n",
		"#SBATCH --job-name=gangsim-sweep\n",
		"#SBATCH --array=0-1\n",
		"#SBATCH --output=" + sub.Dir + "/logs/%A_%a.out\n",
		"#SBATCH --chdir=" + s.Workdir + "\n",
		"#SBATCH --partition=short\n",
		"#SBATCH --time=10\n",
		"#SBATCH --account=proj\n",
		"#SBATCH --mem=1G\n",
		"#SBATCH --qos=low\n",
		"exec '/opt/gangsim/bin/replay' sweep --run '" + sub.Dir + "/tasks/'\"$SLURM_ARRAY_TASK_ID\".json --labels '" + sub.Dir +
			"/tasks/'\"$SLURM_ARRAY_TASK_ID\".labels --cache '" + s.Cache.Dir + "' --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --expect-code '" + version.Code() + "'\n",
	}
	if got := string(script); got != strings.Join(want, "") {
		t.Errorf("script:\n%s\nwant:\n%s", got, strings.Join(want, ""))
	}
	var rec Submission
	b, _ := os.ReadFile(filepath.Join(sub.Dir, "submission.json"))
	if err := json.Unmarshal(b, &rec); err != nil || rec.Cache != s.Cache.Dir || len(rec.Tasks) != 2 || rec.Tasks[1][0].Label != sr[3].Label {
		t.Errorf("submission.json: %+v, %v", rec, err)
	}
	if fi, err := os.Stat(filepath.Join(sub.Dir, "logs")); err != nil || !fi.IsDir() {
		t.Error("no logs directory for the tasks' output")
	}
}

func TestSlurmChunks(t *testing.T) {
	s, _ := slurmForTest(t)
	for _, tt := range []struct {
		runs, chunk, max, want int
		err                    string
	}{
		{runs: 10, max: 1001, want: 1},
		{runs: 1001, max: 1001, want: 1},
		{runs: 1002, max: 1001, want: 2},
		{runs: 10, max: 4, want: 3},
		{runs: 10, chunk: 5, max: 4, want: 5},
		{runs: 10, chunk: 2, max: 4, err: "slurm: 10 runs in chunks of 2 make 5 array tasks, more than the site's MaxArraySize 4: raise the chunk size to 3"},
	} {
		s.Chunk, s.MaxArray = tt.chunk, tt.max
		got, err := s.chunk(tt.runs)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%d runs, chunk %d, max %d: %v, want %s", tt.runs, tt.chunk, tt.max, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%d runs, chunk %d, max %d: %d, %v; want %d", tt.runs, tt.chunk, tt.max, got, err, tt.want)
		}
	}
}

func TestSlurmMaxArrayFromScontrol(t *testing.T) {
	fakeSlurm(t, map[string]string{"scontrol": `echo "MailProg                = /bin/mail"; echo "MaxArraySize            = 4"`})
	s, _ := slurmForTest(t)
	s.MaxArray = 0
	if got, err := s.chunk(10); err != nil || got != 3 {
		t.Errorf("chunk %d, %v; want 3 from MaxArraySize 4", got, err)
	}
}

// TestCheckOptions reads extra sbatch options in every form sbatch's
// #SBATCH lines and getopt_long take, and refuses each of gangsim's.
func TestCheckOptions(t *testing.T) {
	for _, ok := range []string{
		"--mem=2G", "--mem 2G", "--hold", "-H", "-p debug", "-pdebug", "-Hpdebug", "--mail-type=END,FAIL",
		"--qos long --hold", `--comment="a b"`, `--comment 'see -a 0-1'`, "--comment --array", // a value, however it looks
		"-J name", "--job-name=mine", "--parti=debug", "--cluster-constraint=x", "--wait-all-nodes=1",
		"--exclusive", "--exclusive=user", "-k", "--tasks-per=2", "--some-later-option=1", "--some-later-option value",
		`--comment=a\#b`,
	} {
		if err := CheckOptions([]string{ok}); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	array := "is not allowed: gangsim sets it: one array task per chunk of runs"
	for _, tt := range []struct{ opt, err string }{
		{"--array=0-3", "--array " + array},
		{"--array 0-1", "--array " + array},
		{"-a0-1", "-a (--array) " + array},
		{"-a 0-1", "-a (--array) " + array},
		{"-Ha0-1", "-a (--array) " + array},
		{"--ar=0-1", "--ar (--array) " + array},
		{"--arr 0-1", "--arr (--array) " + array},
		{"--mem=1G --array=0-1", "--array " + array},
		{"--output /x", "--output is not allowed: gangsim sets it: the tasks' logs go to the submission's logs directory, where failures are read"},
		{"-o/x", "-o (--output) is not allowed: gangsim sets it: the tasks' logs go to the submission's logs directory, where failures are read"},
		{"--out=/x", "--out (--output) is not allowed: gangsim sets it: the tasks' logs go to the submission's logs directory, where failures are read"},
		{"--error=/x", "--error is not allowed: gangsim sets the tasks' --output, whose logs hold their errors too, where failures are read"},
		{"-e /x", "-e (--error) is not allowed: gangsim sets the tasks' --output, whose logs hold their errors too, where failures are read"},
		{"--err /x", "--err (--error) is not allowed: gangsim sets the tasks' --output, whose logs hold their errors too, where failures are read"},
		{"--chdir /", "--chdir is not allowed: gangsim sets it: the tasks run in the submitting directory, where relative trace paths resolve"},
		{"-D/", "-D (--chdir) is not allowed: gangsim sets it: the tasks run in the submitting directory, where relative trace paths resolve"},
		{"--ch=/", "--ch (--chdir) is not allowed: gangsim sets it: the tasks run in the submitting directory, where relative trace paths resolve"},
		{"--wrap 'sleep 1'", "--wrap is not allowed: the batch script is gangsim's"},
		{"--wr=x", "--wr (--wrap) is not allowed: the batch script is gangsim's"},
		{"--parsable", "--parsable is not allowed: gangsim sets it on sbatch's command line, to read the job ID"},
		{"--pars", "--pars (--parsable) is not allowed: gangsim sets it on sbatch's command line, to read the job ID"},
		{"--wait", "--wait is not allowed: gangsim waits for the tasks itself (and --no-wait returns at once)"},
		{"-W", "-W (--wait) is not allowed: gangsim waits for the tasks itself (and --no-wait returns at once)"},
		{"-HW", "-W (--wait) is not allowed: gangsim waits for the tasks itself (and --no-wait returns at once)"},
		{"--test-only", "--test-only is not allowed: it submits nothing, and gangsim needs a job ID"},
		{"--te", "--te (--test-only) is not allowed: it submits nothing, and gangsim needs a job ID"},
		{"-M other", "-M (--clusters) is not allowed: gangsim asks the local cluster about the job (squeue, scontrol)"},
		{"--cluster=other", "--cluster is not allowed: gangsim asks the local cluster about the job (squeue, scontrol)"},
		{"--clusters other", "--clusters is not allowed: gangsim asks the local cluster about the job (squeue, scontrol)"},
		{"--usage", "--usage is not allowed: it submits nothing"},
		{"-h", "-h (--help) is not allowed: it submits nothing"},
		{"--a=1", "--a is ambiguous: --account, --acctg-freq, --array"},
		{"--w", "--w is ambiguous: --wait, --wait-all-nodes, --wckey, --wrap"},
		{"--clust=x", "--clust is ambiguous: --cluster, --cluster-constraint, --clusters"},
		{"mem=2G", "want an option such as --mem=2G"},
		{"", "want an option such as --mem=2G"},
		{"--mem", "--mem needs a value"},
		{"-p", "-p (--partition) needs a value"},
		{"--hold=yes", `--hold takes no value ("yes")`},
		{"--hold 1", `"1" is not an option (an option's value goes after = or a space)`},
		{"--mem=1G -- --array=0-1", `"--" is not an option (an option's value goes after = or a space)`},
		{"-Z", "-Z is not an sbatch option"},
		{"--x\n#SBATCH --array=1", "want one line of options, such as --mem=2G"},
		{"--comment=x # --array=1", `an unquoted # starts a comment in an #SBATCH line, which would drop "# --array=1": quote it`},
		{`--comment="x`, `unmatched "`},
		{`--comment "" --array=1`, "an empty quoted word ends sbatch's reading of the line"},
		{"--comment=hetjob", `an #SBATCH line holding "hetjob" or "packjob" starts a heterogeneous job's next component`},
	} {
		err := CheckOptions([]string{tt.opt})
		if want := fmt.Sprintf("sbatch option %q: %s", tt.opt, tt.err); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", tt.opt, err, want)
		}
	}
}

// TestSbatchWords splits #SBATCH lines as sbatch's _get_argument does.
func TestSbatchWords(t *testing.T) {
	for line, want := range map[string][]string{
		"--mem=2G":              {"--mem=2G"},
		"  --qos   long\t":      {"--qos", "long"},
		`--comment="a b" -H`:    {"--comment=a b", "-H"},
		`--comment='say "hi"'`:  {`--comment=say "hi"`},
		`--comment=a\ b`:        {"--comment=a", "b"}, // a backslash does not join words
		`--comment="a\"b"`:      {`--comment=a"b`},
		`--export=A="x y",B=2`:  {"--export=A=x y,B=2"},
		"--comment=\"#x\" -H":   {"--comment=#x", "-H"},
		"\t--hold\v--requeue\f": {"--hold", "--requeue"},
	} {
		got, err := sbatchWords(line)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%q: %q, %v; want %q", line, got, err, want)
		}
	}
}

func TestParseTaskStates(t *testing.T) {
	out := "0|COMPLETED|/s/sweep-1/batch.sh\n3|PENDING|/s/sweep-1/batch.sh\n  \n12|RUNNING|/x/sweep-1/batch.sh\n4|RUNNING|/s/sweep-2/batch.sh\n5|RUNNING|/a|b/sweep-1/batch.sh\n"
	got, err := parseTaskStates(out, "")
	if err != nil || len(got) != 5 || got[0] != "COMPLETED" || got[3] != "PENDING" || got[12] != "RUNNING" || got[4] != "RUNNING" {
		t.Errorf("%v, %v", got, err)
	}
	// The tasks of one batch script (its directory may be seen under
	// another path): another job's under the same ID are left out.
	got, err = parseTaskStates(out, "sweep-1/batch.sh")
	if err != nil || len(got) != 4 || got[4] != "" || got[5] != "RUNNING" {
		t.Errorf("sweep-1's tasks: %v, %v", got, err)
	}
	for _, line := range []string{"N/A|RUNNING|/s/batch.sh", "0|RUNNING"} {
		if _, err := parseTaskStates(line+"\n", ""); err == nil || err.Error() != fmt.Sprintf("squeue: unexpected line %q", line) {
			t.Errorf("%q: %v", line, err)
		}
	}
	for st, want := range map[string][2]bool{"PENDING": {true, false}, "RUNNING": {true, true}, "COMPLETING": {true, true},
		"REQUEUED": {true, false}, "COMPLETED": {false, false}, "TIMEOUT": {false, false}, "": {false, false}} {
		if a, r := activeState(st), activeState(st) && runningState(st); a != want[0] || r != want[1] {
			t.Errorf("%q: active %v running %v", st, a, r)
		}
	}
}

func TestSlurmSubmit(t *testing.T) {
	s, sr := slurmForTest(t)
	fakeSlurm(t, map[string]string{"sbatch": `echo "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" >&2; exit 1`})
	sub, err := s.Prepare(sr)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Submit(sub)
	if err == nil || err.Error() != "slurm: the job array of 4 runs was not submitted: sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" {
		t.Errorf("rejected: %v", err)
	}
	if _, err := os.Stat(sub.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("a rejected submission left its directory")
	}

	args := filepath.Join(t.TempDir(), "args")
	fakeSlurm(t, map[string]string{"sbatch": `echo "$PWD $*" > ` + args + `; echo "42;gangsim"`})
	if sub, err = s.Prepare(sr); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(sub); err != nil || sub.JobID != "42" {
		t.Fatalf("job %q, %v", sub.JobID, err)
	}
	if b, _ := os.ReadFile(args); string(b) != s.Workdir+" --parsable "+sub.Script()+"\n" {
		t.Errorf("sbatch ran as %q", b)
	}
	var rec Submission
	b, _ := os.ReadFile(filepath.Join(sub.Dir, "submission.json"))
	if json.Unmarshal(b, &rec); rec.JobID != "42" {
		t.Errorf("submission.json records job %q", rec.JobID)
	}
	if sub.Log(3) != filepath.Join(sub.Dir, "logs", "42_3.out") {
		t.Errorf("log %s", sub.Log(3))
	}
}

func TestCheckSbatch(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if err := CheckSbatch(); err == nil || !strings.HasPrefix(err.Error(), "slurm: sbatch not found on PATH") {
		t.Errorf("%v", err)
	}
}

func TestSlurmWaitAndPlan(t *testing.T) {
	s, sr := slurmForTest(t)
	s.Chunk = 1
	tools := fakeSlurm(t, map[string]string{"sbatch": `echo 7`, "squeue": `cat "$(dirname "$0")/squeue.out"`})
	squeue := func(out string) {
		if err := os.WriteFile(filepath.Join(tools, "squeue.out"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cacheRun(t, s.Cache, sr[0].Key)
	plan, err := s.Plan(sr, true)
	if err != nil || plan.Cached != 1 || len(plan.Missing) != 3 || len(plan.Active) != 0 {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	sub, err := s.Prepare(plan.Missing)
	if err == nil {
		err = s.Submit(sub)
	}
	if err != nil {
		t.Fatal(err)
	}

	if sub.Cluster != "gangsim" {
		t.Errorf("submitted to cluster %q, want scontrol's gangsim", sub.Cluster)
	}
	tasks := func(script string, states ...string) string {
		out := ""
		for i, st := range states {
			out += fmt.Sprintf("%d|%s|%s\n", i, st, script)
		}
		return out
	}

	// A rerun while the job runs: its tasks' runs are in flight, not
	// missing; task 2 has ended (its run is still missing).
	squeue(tasks(sub.Script(), "RUNNING", "PENDING", "CANCELLED"))
	plan, err = s.Plan(sr, true)
	if err != nil || len(plan.Missing) != 1 || plan.Missing[0].Key != sr[3].Key || len(plan.Active) != 1 || plan.Active[0].JobID != "7" {
		t.Fatalf("plan with the job in flight %+v, %v", plan, err)
	}
	// The same, with the submission directory seen under another path
	// by squeue (a symbolic link).
	squeue(tasks("/elsewhere/"+filepath.Base(sub.Dir)+"/batch.sh", "RUNNING", "PENDING", "CANCELLED"))
	if plan, err = s.Plan(sr, true); err != nil || len(plan.Active) != 1 {
		t.Fatalf("plan with the job's script under another path %+v, %v", plan, err)
	}
	// Job 7 is another job's now (the controller's state was wiped and
	// its job IDs start again), or the submission was made on another
	// cluster: its runs are missing, not in flight.
	squeue(tasks("/home/u/other/batch.sh", "RUNNING", "PENDING", "CANCELLED"))
	if plan, err = s.Plan(sr, true); err != nil || len(plan.Missing) != 3 || len(plan.Active) != 0 {
		t.Fatalf("plan with job 7 another job's %+v, %v", plan, err)
	}
	squeue(tasks(sub.Script(), "RUNNING", "PENDING", "CANCELLED"))
	os.WriteFile(filepath.Join(tools, "scontrol.name"), []byte("other\n"), 0o644)
	if plan, err = s.Plan(sr, true); err != nil || len(plan.Missing) != 3 || len(plan.Active) != 0 {
		t.Fatalf("plan on another cluster %+v, %v", plan, err)
	}
	os.Remove(filepath.Join(tools, "scontrol.name"))

	// The job ends: task 0 completed its run; task 1 completed without its
	// run reaching this cache; task 2 was cancelled and logged; squeue has
	// forgotten nothing.
	cacheRun(t, s.Cache, sr[1].Key)
	os.WriteFile(sub.Log(2), []byte("starting\n\nslurmstepd: error: *** JOB 9 ON n1 CANCELLED ***\nreplay: interrupted\n"), 0o644)
	squeue(tasks(sub.Script(), "COMPLETED", "COMPLETED", "CANCELLED"))
	err = s.Wait([]*Submission{sub}, sr)
	var se *Error
	if !errors.As(err, &se) || len(se.Failed) != 2 {
		t.Fatalf("wait: %v", err)
	}
	want := "slurm: 2 array tasks failed, 2 runs missing; rerunning the same command resubmits only those\n" +
		"  task 1 of job 7 (COMPLETED): " + sr[2].Label + "\n" +
		"    no log at " + sub.Log(1) + ": can the compute nodes write " + filepath.Join(sub.Dir, "logs") + "?\n" +
		"    it completed but its runs are not in " + s.Cache.Dir + " as seen here: is that directory shared with the compute nodes at the same path?\n" +
		"  task 2 of job 7 (CANCELLED): " + sr[3].Label + "\n" +
		"    log " + sub.Log(2) + ":\n" +
		"    | starting\n" +
		"    | slurmstepd: error: *** JOB 9 ON n1 CANCELLED ***\n" +
		"    | replay: interrupted"
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
	if _, err := os.Stat(sub.Dir); err != nil {
		t.Error("a failed submission's directory (its logs) was removed")
	}

	// Runs that someone else built count; once every run is in the cache
	// the submission's directory goes, and an ended one the next plan finds
	// is tidied.
	cacheRun(t, s.Cache, sr[2].Key)
	cacheRun(t, s.Cache, sr[3].Key)
	squeue("")
	plan, err = s.Plan(sr, true)
	if err != nil || len(plan.Missing) != 0 || len(plan.Ended) != 1 || plan.Cached != 4 {
		t.Fatalf("plan after the job %+v, %v", plan, err)
	}
	if err := s.Wait([]*Submission{sub}, sr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sub.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("a finished submission's directory stays")
	}
}

func TestSlurmWaitForgottenJob(t *testing.T) {
	s, sr := slurmForTest(t)
	fakeSlurm(t, map[string]string{"sbatch": `echo 8`,
		"squeue": `echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1`})
	sub, err := s.Prepare(sr[:1])
	if err == nil {
		err = s.Submit(sub)
	}
	if err != nil {
		t.Fatal(err)
	}
	var se *Error
	if err := s.Wait([]*Submission{sub}, sr); !errors.As(err, &se) || se.Failed[0].State != "ENDED" {
		t.Errorf("a job squeue no longer knows: %v", err)
	}
}

// TestSlurmPrepareUnwritable finds a run cache or a submission directory
// that cannot be written before anything is submitted, naming it.
func TestSlurmPrepareUnwritable(t *testing.T) {
	s, sr := slurmForTest(t)
	s.Dir = filepath.Join(t.TempDir(), "slurm") // not under the cache
	if err := os.MkdirAll(s.Cache.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A file where the cache's tmp directory should be (as root, the one
	// way to make a directory unwritable).
	if err := os.WriteFile(filepath.Join(s.Cache.Dir, "tmp"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Prepare(sr)
	var de *DirError
	if !errors.As(err, &de) || de.Dir != RunCacheDir || de.Path != s.Cache.Dir ||
		!strings.HasPrefix(err.Error(), "slurm: cannot write the run cache "+s.Cache.Dir+": mkdir "+filepath.Join(s.Cache.Dir, "tmp")+": ") {
		t.Errorf("a cache whose tmp is a file: %v", err)
	}
	if _, err := os.Stat(s.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("a submission was written for an unwritable cache")
	}

	os.Remove(filepath.Join(s.Cache.Dir, "tmp"))
	if err := os.WriteFile(s.Dir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Prepare(sr)
	if !errors.As(err, &de) || de.Dir != SubmissionDir || de.Path != s.Dir ||
		!strings.HasPrefix(err.Error(), "slurm: cannot write the submission directory "+s.Dir+": ") {
		t.Errorf("a submission directory that is a file: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(s.Cache.Dir, "*", ".write-check-*")); len(m) != 0 {
		t.Errorf("the cache's write check left %v", m)
	}

	if os.Geteuid() != 0 {
		os.Remove(s.Dir)
		os.Chmod(filepath.Join(s.Cache.Dir, "tmp"), 0o555)
		defer os.Chmod(filepath.Join(s.Cache.Dir, "tmp"), 0o755)
		if _, err := s.Prepare(sr); !errors.As(err, &de) || de.Dir != RunCacheDir {
			t.Errorf("a read-only cache: %v", err)
		}
	}
}

// TestSlurmPlanTaskEndingMeanwhile: a task that ends while a rerun plans
// (after it was seen, before or after its run was looked for in the cache)
// has its run counted as in the cache, never submitted again. The stand-in
// squeue plays a task that finishes as it is asked: it puts the run into
// the cache and is no longer listed. Reading the cache first, as Plan
// once did, found the run neither cached nor in flight, and submitted it
// a second time (TestSlurmSweep saw it once under load).
func TestSlurmPlanTaskEndingMeanwhile(t *testing.T) {
	s, sr := slurmForTest(t)
	s.Chunk = 4
	// The runs, built elsewhere, are copied in by squeue, as the task
	// would write them.
	stage := &pipelines.Cache{Dir: filepath.Join(t.TempDir(), "staged")}
	for _, r := range sr {
		cacheRun(t, stage, r.Key)
	}
	fakeSlurm(t, map[string]string{"sbatch": `echo 7`, "squeue": fmt.Sprintf(`cp -R %s/. %s/`, stage.Dir, s.Cache.Dir)})
	sub, err := s.Prepare(sr)
	if err == nil {
		err = s.Submit(sub)
	}
	if err != nil {
		t.Fatal(err)
	}
	plan, err := s.Plan(sr, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Missing) != 0 || plan.Cached != len(sr) || len(plan.Ended) != 1 {
		t.Fatalf("plan with the job ending while it was planned: %d missing, %d cached of %d, %d ended; want none missing",
			len(plan.Missing), plan.Cached, len(sr), len(plan.Ended))
	}
}

// sweepRuns returns four runs of a small Lublin workload (policy fcfs and
// easy, load 0.5 and 0.9) and their grid points.
func sweepRuns(t *testing.T) ([]*pipelines.Run, []pipelines.Point) {
	t.Helper()
	base := `{
  "workload": {"source": {"lublin": {"jobs": 300, "procs": 32}}, "estimates": {"mode": "loose"},
               "load": {"target": 0.6}, "compress": 100, "seed": 3},
  "replay": {"policy": "fcfs"}
}`
	raw := func(vs ...string) []json.RawMessage {
		out := make([]json.RawMessage, len(vs))
		for i, v := range vs {
			out[i] = json.RawMessage(v)
		}
		return out
	}
	docs, points, err := pipelines.Expand(json.RawMessage(base), []pipelines.Axis{
		{Name: "policy", Set: "replay.policy", Values: raw(`"fcfs"`, `"easy"`)},
		{Name: "load", Set: "workload.load.target", Values: raw(`0.5`, `0.9`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var runs []*pipelines.Run
	for _, d := range docs {
		r, err := pipelines.ParseRun(d)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return runs, points
}
