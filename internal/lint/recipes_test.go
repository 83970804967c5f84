package lint

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recipeSections are the README's sections of recipes, in order: each
// holds shell blocks that work when pasted, in that order, into a fresh
// clone with the shared traces beside it.
var recipeSections = []string{
	"A first pipeline",
	"Reproduce a figure of the papers",
	"Compare policies on your own log",
	"A study of your own",
	"Run a sweep on a Slurm cluster",
}

// readmeRecipes returns the ```sh blocks of each recipe section.
func readmeRecipes(t *testing.T, readme string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, name := range recipeSections {
		_, sec, ok := strings.Cut(readme, "\n## "+name+"\n")
		if !ok {
			t.Errorf("README has no section %q", name)
			continue
		}
		sec, _, _ = strings.Cut(sec, "\n## ")
		for {
			_, rest, ok := strings.Cut(sec, "```sh\n")
			if !ok {
				break
			}
			block, after, ok := strings.Cut(rest, "```\n")
			if !ok {
				t.Fatalf("README, %q: a ```sh block is not closed", name)
			}
			out[name] = append(out[name], block)
			sec = after
		}
		if len(out[name]) == 0 {
			t.Errorf("README, %q: no ```sh block", name)
		}
	}
	return out
}

// copyTree copies the files git tracks, and the untracked ones it does not
// ignore, from root to dst: the repository as a fresh clone would have it,
// with the working tree's edits.
func copyTree(t *testing.T, root, dst string) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not on PATH")
	}
	cmd := exec.Command(git, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the working tree, or not a file
		}
		target := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
		if err == nil {
			_, err = io.Copy(out, in)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestREADMERecipes runs every recipe of the README, as a reader pastes
// them, in a copy of the repository (what git tracks, as a fresh clone
// has it) with the shared traces beside it as ../shared, its own HOME and
// the Go caches of the environment: the first pipeline, reproducing a
// figure, comparing policies on a real log (the whole KTH SP2 log for the
// batch and job-level policies, a window for the process-level ones), a
// study of one's own, and a sweep on Slurm: that one on the single-node
// cluster of conformance/slurm where Slurm is installed and the test runs
// as root (as in CI, under GANGSIM_REQUIRE_SLURM), else its dry run only,
// said in the log. About a minute of CPU once the Go build cache is warm.
func TestREADMERecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's recipes: builds the commands and replays")
	}
	for _, tool := range []string{"bash", "make", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH", tool)
		}
	}
	r := root(t)
	shared := os.Getenv("GANGSIM_SHARED")
	if shared == "" {
		shared = filepath.Join(r, "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(shared, "traces", "KTH-SP2-1996-2.1-cln.swf.gz")); err != nil {
		if os.Getenv("GANGSIM_REQUIRE_SHARED") != "" {
			t.Fatalf("the recipes replay the shared KTH log: %v", err)
		}
		t.Skipf("the recipes replay the shared KTH log: %v", err)
	}
	shared, _ = filepath.Abs(shared)
	readme, err := os.ReadFile(filepath.Join(r, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	recipes := readmeRecipes(t, string(readme))

	tmp := t.TempDir()
	clone := filepath.Join(tmp, "gangsim")
	copyTree(t, r, clone)
	if err := os.Symlink(shared, filepath.Join(tmp, "shared")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	os.Mkdir(home, 0o755)
	env := []string{"HOME=" + home, "GANGSIM_SHARED=" + shared}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "GANGSIM_SHARED=") {
			env = append(env, kv)
		}
	}
	// The Go caches stay the environment's (a reader's are theirs), so
	// that the build is an incremental one.
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		if out, err := exec.Command("go", "env", v).Output(); err == nil && os.Getenv(v) == "" {
			env = append(env, v+"="+strings.TrimSpace(string(out)))
		}
	}

	for _, name := range recipeSections {
		script := strings.Join(recipes[name], "\n")
		if name == "Run a sweep on a Slurm cluster" {
			conf, ok := slurmCluster(t, r)
			if ok {
				env = append(env, "SLURM_CONF="+conf)
			} else {
				var kept []string
				for _, line := range strings.Split(script, "\n") {
					if strings.Contains(line, "--slurm") && !strings.Contains(line, "--dry-run") {
						t.Logf("Slurm is not here: the recipe's line %q is not run", line)
						continue
					}
					kept = append(kept, line)
				}
				script = strings.Join(kept, "\n")
			}
		}
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			start := time.Now()
			cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+script)
			cmd.Dir, cmd.Env = clone, env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("the README's recipe %q fails when pasted: %v\n%s\n--- output:\n%s", name, err, script, out.String())
			}
			t.Logf("%s: %v", name, time.Since(start).Round(time.Second))
		})
	}

	// What the recipes promise to leave.
	for _, f := range []string{"results/frachtenberg/fig-6.8.csv", "results/frachtenberg/fig-6.8.png", "results/REPRODUCTION.md",
		"window.png", "results/mystudy/kth-gs.csv", "results/mystudy/kth-gs.png"} {
		if _, err := os.Stat(filepath.Join(clone, f)); err != nil {
			t.Errorf("after the recipes: %v", err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(clone, "results", "REPRODUCTION.md")); err == nil && !strings.Contains(string(b), "mystudy/kth-gs") {
		t.Error("the report does not list the study of one's own")
	}
}

// slurmCluster starts the single-node cluster of conformance/slurm for the
// Slurm recipe and returns its slurm.conf (stopped at the test's end), or
// false when Slurm is not installed or the test is not root; under
// GANGSIM_REQUIRE_SLURM that fails the test.
func slurmCluster(t *testing.T, root string) (string, bool) {
	t.Helper()
	var missing []string
	for _, cmd := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue"} {
		if _, err := exec.LookPath(cmd); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/sbin", cmd)); err != nil {
				missing = append(missing, cmd)
			}
		}
	}
	why := ""
	switch {
	case len(missing) > 0:
		why = "Slurm not installed (no " + strings.Join(missing, ", ") + ")"
	case os.Geteuid() != 0:
		why = "not root (slurmd launches the jobs)"
	}
	if why != "" {
		if os.Getenv("GANGSIM_REQUIRE_SLURM") != "" {
			t.Fatalf("the README's Slurm recipe is required to run: %s", why)
		}
		t.Logf("the README's Slurm recipe runs its dry run only: %s", why)
		return "", false
	}
	script := filepath.Join(root, "conformance", "slurm", "cluster.sh")
	dir := t.TempDir()
	t.Cleanup(func() {
		if out, err := exec.Command("bash", script, "stop", dir).CombinedOutput(); err != nil {
			t.Errorf("stopping the Slurm cluster: %v\n%s", err, out)
		}
	})
	if out, err := exec.Command("bash", script, "start", dir).CombinedOutput(); err != nil {
		t.Fatalf("starting the Slurm cluster: %v\n%s", err, out)
	}
	return filepath.Join(dir, "slurm.conf"), true
}
