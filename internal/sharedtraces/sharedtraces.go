// Package sharedtraces locates the real Parallel Workloads Archive logs and
// the pyss oracle outputs that tests and benchmarks run on. They live outside
// the repository (../shared/traces and ../shared/oracle next to the checkout,
// or wherever GANGSIM_SHARED points); tests that need them skip when they are
// absent.
package sharedtraces

import (
	"os"
	"path/filepath"
	"testing"
)

// Names lists the eight shared cleaned logs, smallest first, by PWA name
// (the file is Name + ".swf.gz").
var Names = []string{
	"NASA-iPSC-1993-3.1-cln",
	"KTH-SP2-1996-2.1-cln",
	"SDSC-Par-1996-3.1-cln",
	"SDSC-SP2-1998-4.2-cln",
	"CTC-SP2-1996-3.1-cln",
	"LANL-CM5-1994-4.1-cln",
	"HPC2N-2002-2.2-cln",
	"SDSC-BLUE-2000-4.2-cln",
}

// Small lists the shared logs that are quick to process (under 40,000 jobs).
var Small = Names[:3]

// SharedDir returns the shared directory: $GANGSIM_SHARED if set, else the
// "shared" directory next to the repository root. ok is false when it does
// not exist.
func SharedDir() (dir string, ok bool) {
	if d := os.Getenv("GANGSIM_SHARED"); d != "" {
		return d, isDir(d)
	}
	root, err := repoRoot()
	if err != nil {
		return "", false
	}
	d := filepath.Join(filepath.Dir(root), "shared")
	return d, isDir(d)
}

// Trace returns the path of the named shared log (see Names), skipping the
// test or benchmark when it is absent.
func Trace(tb testing.TB, name string) string {
	tb.Helper()
	return file(tb, filepath.Join("traces", name+".swf.gz"))
}

// Oracle returns the path of a file in the shared oracle directory, e.g.
// "SEMANTICS.md" or "KTH-SP2-1996-2.1-cln.easy.jobs.csv.gz", skipping the
// test when it is absent.
func Oracle(tb testing.TB, name string) string {
	tb.Helper()
	return file(tb, filepath.Join("oracle", name))
}

func file(tb testing.TB, rel string) string {
	tb.Helper()
	dir, ok := SharedDir()
	if !ok {
		tb.Skipf("shared data not found (set GANGSIM_SHARED or check out next to ../shared); skipping")
	}
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s not present; skipping", p)
	}
	return p
}

func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", os.ErrNotExist
		}
		d = parent
	}
}

func isDir(d string) bool {
	st, err := os.Stat(d)
	return err == nil && st.IsDir()
}
