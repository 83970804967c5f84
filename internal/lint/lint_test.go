package lint

import (
	"bytes"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func root(t *testing.T) string {
	t.Helper()
	d, _ := filepath.Abs("../..")
	if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
		t.Fatalf("repository root not found at %s", d)
	}
	return d
}

// TestGofmt fails for every Go file that gofmt would change.
func TestGofmt(t *testing.T) {
	r := root(t)
	filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != r || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		got, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else if !bytes.Equal(got, src) {
			t.Errorf("%s is not gofmt-formatted; run gofmt -w", p)
		}
		return nil
	})
}

// TestVet runs go vet over the module.
func TestVet(t *testing.T) {
	if testing.Short() {
		t.Skip("go vet skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	cmd := exec.Command(goTool, "vet", "./...")
	cmd.Dir = root(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}
