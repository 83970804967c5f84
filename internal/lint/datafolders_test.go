package lint

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// codeInDataFolders returns the Go files in the folders of experiments
// (the tree fsys, rooted at experiments/), sorted: the folders hold
// experiment files alone. At the top, beside them, only the experiments
// package's doc.go and its tests (that the committed results are what the
// experiments and the registry of repro/hardware make) may be Go.
func codeInDataFolders(fsys fs.FS) ([]string, error) {
	var bad []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		if path.Dir(p) == "." && (p == "doc.go" || strings.HasSuffix(p, "_test.go")) {
			return nil
		}
		bad = append(bad, p)
		return nil
	})
	slices.Sort(bad)
	return bad, err
}

// TestNoCodeInDataFolders fails on a Go file in a folder of experiments/
// (or a non-test file beside them): an item that needs code is a builder
// in the one registry of repro/hardware (docs/layout.md, "Where things
// go").
func TestNoCodeInDataFolders(t *testing.T) {
	bad, err := codeInDataFolders(os.DirFS(filepath.Join(root(t), "experiments")))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range bad {
		t.Errorf("experiments/%s: no Go in the experiments' folders; an item that needs code goes to repro/hardware's registry (docs/layout.md, \"Where things go\")", p)
	}
}

// TestCodeInDataFolders checks the rule on a made-up tree.
func TestCodeInDataFolders(t *testing.T) {
	fsys := fstest.MapFS{
		"doc.go":                        {},
		"results_test.go":               {},
		"helpers.go":                    {},
		"frachtenberg/fig-6.7.json":     {},
		"mclaughlin/mclaughlin.go":      {},
		"mclaughlin/mclaughlin_test.go": {},
		"study/notes.md":                {},
	}
	bad, err := codeInDataFolders(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"helpers.go", "mclaughlin/mclaughlin.go", "mclaughlin/mclaughlin_test.go"}
	if !slices.Equal(bad, want) {
		t.Errorf("got %v, want %v", bad, want)
	}
}
