package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFuzzCorpora: every fuzz target make fuzz runs (the Makefile's
// FUZZ_TARGETS) exists in its package and has a seed corpus in the
// package's testdata/fuzz/<target>, so that go test replays the seeds (and
// what the fuzzers found) as regression cases on every run.
func TestFuzzCorpora(t *testing.T) {
	dir := root(t)
	mk, err := os.ReadFile(filepath.Join(dir, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)FUZZ_TARGETS := (.*?)\n\n`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no FUZZ_TARGETS in the Makefile")
	}
	targets := strings.Fields(strings.ReplaceAll(string(m[1]), "\\", " "))
	if len(targets) < 8 {
		t.Errorf("FUZZ_TARGETS lists %d targets: %q", len(targets), targets)
	}
	for _, tg := range targets {
		pkg, name, ok := strings.Cut(tg, ":")
		if !ok {
			t.Errorf("target %q is not PKG:NAME", tg)
			continue
		}
		pdir := filepath.Join(dir, filepath.FromSlash(pkg))
		files, _ := filepath.Glob(filepath.Join(pdir, "*_test.go"))
		found := false
		for _, f := range files {
			b, _ := os.ReadFile(f)
			found = found || strings.Contains(string(b), "func "+name+"(f *testing.F)")
		}
		if !found {
			t.Errorf("%s: no func %s in %s", tg, name, pkg)
		}
		seeds, _ := os.ReadDir(filepath.Join(pdir, "testdata", "fuzz", name))
		if len(seeds) == 0 {
			t.Errorf("%s: no seed corpus in %s/testdata/fuzz/%s", tg, pkg, name)
		}
		for _, s := range seeds {
			b, err := os.ReadFile(filepath.Join(pdir, "testdata", "fuzz", name, s.Name()))
			if err != nil || !strings.HasPrefix(string(b), "go test fuzz v1\n") {
				t.Errorf("%s: seed %s is not in Go's corpus encoding", tg, s.Name())
			}
		}
	}
}
