// Package shared locates the data kept outside the repository: the real
// logs of the Parallel Workloads Archive and the pyss oracle's outputs,
// which experiments, commands and tests name as ../shared/... (the
// directory "shared" next to the checkout, where make figures and CI run
// from the repository root). GANGSIM_SHARED moves it: every path that
// starts with ../shared/ is then read under $GANGSIM_SHARED instead, while
// the experiments, run descriptions and cache keys keep the ../shared/
// name (the key digests the file's bytes, not where it lies).
package shared

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// EnvVar names the environment variable that says where the shared data
// are.
const EnvVar = "GANGSIM_SHARED"

// Name is the shared directory as experiments and commands name it,
// relative to the repository root.
const Name = "../shared"

// Dir returns the shared directory: $GANGSIM_SHARED when set, else
// ../shared relative to the working directory.
func Dir() string {
	if d := os.Getenv(EnvVar); d != "" {
		return d
	}
	return Name
}

// rest returns the part of path after ../shared, and whether path is
// ../shared or under it (with / or the OS separator).
func rest(path string) (string, bool) {
	p := filepath.ToSlash(path)
	if p == Name {
		return "", true
	}
	r, ok := strings.CutPrefix(p, Name+"/")
	return r, ok
}

// Resolve returns the path to read for path: under $GANGSIM_SHARED when it
// is set and path is under ../shared, else path itself.
func Resolve(path string) string {
	r, ok := rest(path)
	d := os.Getenv(EnvVar)
	if !ok || d == "" {
		return path
	}
	return filepath.Join(d, filepath.FromSlash(r))
}

// Under reports whether path names the shared directory or a file in it.
func Under(path string) bool {
	_, ok := rest(path)
	return ok
}

// Hint adds to err, an error opening path, where the shared data are looked
// for and how to point at them, when path is under ../shared and the file
// is missing; other errors come back as they are.
func Hint(path string, err error) error {
	if err == nil || !Under(path) || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if d := os.Getenv(EnvVar); d != "" {
		return fmt.Errorf("%w (%s is read from %s=%s: is that where the shared data are?)", err, path, EnvVar, d)
	}
	return fmt.Errorf("%w (the shared data are read from ../shared, next to the checkout when run from the repository root; set %s=DIR to read them from DIR)", err, EnvVar)
}
