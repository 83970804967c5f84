// Package sharedtraces locates the real Parallel Workloads Archive logs and
// the pyss oracle outputs that tests and benchmarks run on. They live outside
// the repository (../shared/traces and ../shared/oracle next to the checkout,
// or wherever GANGSIM_SHARED points); tests that need them skip when they are
// absent, unless GANGSIM_REQUIRE_SHARED is set (as CI sets it): then their
// absence fails the test, so that no oracle or real-log test passes by not
// running.
package sharedtraces

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/internal/shared"
)

// RequireEnv names the environment variable that makes the shared data
// required: set (to anything), a test that needs them fails instead of
// skipping when they are missing.
const RequireEnv = "GANGSIM_REQUIRE_SHARED"

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
	if d := os.Getenv(shared.EnvVar); d != "" {
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
// "metrics.csv" or "KTH-SP2-1996-2.1-cln.easy.jobs.csv.gz", skipping the
// test when it is absent.
func Oracle(tb testing.TB, name string) string {
	tb.Helper()
	return file(tb, filepath.Join("oracle", name))
}

func file(tb testing.TB, rel string) string {
	tb.Helper()
	dir, ok := SharedDir()
	if !ok {
		Missing(tb, "shared data not found at "+dir+" (set GANGSIM_SHARED=DIR, or check out next to ../shared)")
	}
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		Missing(tb, p+" not present")
	}
	return p
}

// Require skips the test, or fails it under GANGSIM_REQUIRE_SHARED, when
// the shared directory is missing, and returns it.
func Require(tb testing.TB) string {
	tb.Helper()
	dir, ok := SharedDir()
	if !ok {
		Missing(tb, "shared data not found at "+dir+" (set GANGSIM_SHARED=DIR, or check out next to ../shared)")
	}
	return dir
}

// Missing skips the test for what is missing, or fails it when
// GANGSIM_REQUIRE_SHARED is set.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv(RequireEnv) != "" {
		tb.Fatalf("%s, and %s is set: the shared data are required here", what, RequireEnv)
	}
	tb.Skipf("%s; skipping", what)
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
