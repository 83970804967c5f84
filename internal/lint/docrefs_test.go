package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdRef is a Markdown file named in a Go source or a document: a path of
// letters, digits and "./_-" ending in .md.
var mdRef = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)

// TestDocumentsInRepository: every Markdown document a Go file or a
// document of the repository names by path (docs/engine.md, README.md,
// results/REPRODUCTION.md) is one the repository has, so that a reader
// of the code needs nothing from outside it: ../shared holds data (the
// logs, the oracle's outputs, the papers), not the rules the code follows.
// A name that a command writes (a report under an output directory) is
// a file the code makes, not one it sends readers to: those are the names
// of the outputs listed in made.
func TestDocumentsInRepository(t *testing.T) {
	r := root(t)
	made := map[string]bool{"REPRODUCTION.md": true, "summary.md": true}
	filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != r || d.Name() == "testdata" || d.Name() == "node_modules" || d.Name() == "results") {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(p, "_test.go") || !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		rel, _ := filepath.Rel(r, p)
		for i, line := range strings.Split(string(b), "\n") {
			for _, ref := range mdRef.FindAllString(line, -1) {
				if made[filepath.Base(ref)] || strings.HasPrefix(ref, ".md") {
					continue
				}
				if strings.HasPrefix(ref, "../shared/") || strings.Contains(ref, "/shared/") {
					t.Errorf("%s:%d: %s is outside the repository: say what it says in a document of the repository and name that", rel, i+1, ref)
					continue
				}
				if !exists(filepath.Join(r, ref)) && !exists(filepath.Join(filepath.Dir(p), ref)) {
					t.Errorf("%s:%d: %s: no such document in the repository", rel, i+1, ref)
				}
			}
		}
		return nil
	})
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// testRef is a test named in a document, in backquotes: `TestLayers`.
var testRef = regexp.MustCompile("`(Test[A-Za-z0-9_]+)`")

// TestDocumentsNameTests: every test a document names (README.md,
// docs/*.md: "Where things go" shows each kind of change by one) is a
// test the repository has, so that a renamed test cannot leave a document
// pointing at nothing.
func TestDocumentsNameTests(t *testing.T) {
	r := root(t)
	have := map[string]bool{}
	testFunc := regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(`)
	filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != r || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
				have[m[1]] = true
			}
		}
		return nil
	})
	docs, _ := filepath.Glob(filepath.Join(r, "docs", "*.md"))
	for _, p := range append(docs, filepath.Join(r, "README.md")) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(r, p)
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range testRef.FindAllStringSubmatch(line, -1) {
				if !have[m[1]] {
					t.Errorf("%s:%d: %s: no such test in the repository", rel, i+1, m[1])
				}
			}
		}
	}
}
