package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/repro/hardware"
)

// TestResultsUpToDate regenerates every reproduced item, those of the
// experiments (rerun into a temporary cache) and those made by code
// (package repro/hardware: the hardware models' and the Calypso schedules'
// replays), and
// compares each CSV with the one committed under results/, and
// the report with results/REPRODUCTION.md: a change that moves a
// reproduced number must come with `make figures` and the new results in
// the same commit. No item file may be committed that nothing produces.
// The lines that say which build made a file (GangsimRevision,
// GangsimCode) are left out of the comparison: this test's build is never
// the one that made the committed files, and make figures keeps a file's
// lines while its numbers stay (repro.KeepOrReplace).
// Figures (PNG) are not compared: their pixels may differ across
// platforms. On the same runs it checks the example notebook
// (checkNotebook).
func TestResultsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("reruns every experiment")
	}
	root, _ := filepath.Abs("..")
	// Experiment files name their inputs relative to the repository root,
	// where make figures runs (the shared logs as ../shared/traces/...).
	t.Chdir(root)
	sharedtraces.Require(t) // some experiments replay the shared logs
	results := filepath.Join(root, "results")
	out := t.TempDir()
	var made []string // item CSVs, relative to the results directory

	specs, err := filepath.Glob(filepath.Join(root, "experiments", "*", "*.json"))
	if err != nil || len(specs) == 0 {
		t.Fatalf("no experiment files: %v", err)
	}
	cacheDir := t.TempDir()
	sweep := &pipelines.Sweep{Cache: &pipelines.Cache{Dir: cacheDir}}
	for _, spec := range specs {
		rel, _ := filepath.Rel(root, spec) // the name make figures records
		e, sha, err := analysis.LoadExperiment(spec)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Reproduce(sweep, filepath.ToSlash(rel), sha)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rep.Write(out); err != nil {
			t.Fatal(err)
		}
		made = append(made, filepath.Join(rep.Item.Paper, rep.Item.Name+".csv"))
	}
	for _, r := range hardware.Reproductions() {
		it, _, err := r.Write(out)
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, filepath.Join(it.Paper, it.Name+".csv"))
	}

	for _, name := range made {
		got, _ := os.ReadFile(filepath.Join(out, name))
		want, err := os.ReadFile(filepath.Join(results, name))
		if err != nil {
			t.Errorf("%s: %v (run make figures)", name, err)
			continue
		}
		if !repro.SameExceptBuild(got, want) {
			t.Errorf("results/%s is out of date: run make figures and commit the results", name)
		}
	}
	committed, err := repro.ItemFiles(results)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range committed {
		rel, _ := filepath.Rel(results, f)
		if !slices.Contains(made, rel) {
			t.Errorf("results/%s is made by no experiment or hardware model: remove it", rel)
		}
	}

	// The example notebook on fig-6.12's runs, as they are in the cache.
	t.Run("notebook", func(t *testing.T) {
		checkNotebook(t, root, cacheDir, filepath.Join(root, "experiments", "frachtenberg", "fig-6.12.json"),
			filepath.Join(results, "frachtenberg", "fig-6.12.csv"))
	})

	var report bytes.Buffer
	if _, err := repro.ReportDir(&report, results, nil); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(results, repro.ReportName))
	if err != nil || !repro.SameExceptBuild(report.Bytes(), want) {
		t.Errorf("results/%s is out of date (%v): run make figures", repro.ReportName, err)
	}
}
