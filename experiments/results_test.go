package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/pipelines"
)

// TestResultsUpToDate reruns every experiment (into a temporary cache) and
// compares each item's CSV with the one committed under results/: a change
// that moves a reproduced number must come with `make figures` and the new
// results in the same commit. Figures (PNG) are not compared: their pixels
// may differ across platforms.
func TestResultsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("reruns every experiment")
	}
	root, _ := filepath.Abs("..")
	specs, err := filepath.Glob(filepath.Join(root, "experiments", "*", "*.json"))
	if err != nil || len(specs) == 0 {
		t.Fatalf("no experiment files: %v", err)
	}
	sweep := &pipelines.Sweep{Cache: &pipelines.Cache{Dir: t.TempDir()}}
	out := t.TempDir()
	for _, spec := range specs {
		rel, _ := filepath.Rel(root, spec) // the name make figures records
		e, sha, err := pipelines.LoadExperiment(spec)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Reproduce(sweep, filepath.ToSlash(rel), sha)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Write(out); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(rep.Item.Paper, rep.Item.Name+".csv")
		got, _ := os.ReadFile(filepath.Join(out, name))
		want, err := os.ReadFile(filepath.Join(root, "results", name))
		if err != nil {
			t.Errorf("%s: %v (run make figures)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("results/%s is out of date with %s: run make figures and commit the results", name, rel)
		}
	}
}
