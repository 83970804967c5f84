package pipelines

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Cache keeps finished runs on disk, one directory per run named by its key
// (Run.Key): Dir/runs/<first two hex digits>/<key>/. A run is built in a
// temporary directory under Dir/tmp and renamed into place only once all its
// files are written, so a killed sweep leaves no half-finished run that a
// later sweep would take for done, and loses none that had finished.
type Cache struct {
	Dir string
}

// staleTemp is how old a temporary run directory must be before a sweep
// removes it as left behind by a killed process.
const staleTemp = 24 * time.Hour

// Path returns the directory of the run with the given key.
func (c *Cache) Path(key string) string {
	return filepath.Join(c.Dir, "runs", key[:2], key)
}

// Get returns the recorded information of a finished run, if the cache has
// it. A run recorded before RunInfo.Dropped was is not: it is built again.
func (c *Cache) Get(key string) (*RunInfo, bool) {
	b, err := os.ReadFile(filepath.Join(c.Path(key), InfoFile))
	if err != nil {
		return nil, false
	}
	var info RunInfo
	if json.Unmarshal(b, &info) != nil || info.Key != key || info.Dropped == nil {
		return nil, false // nil Dropped: from before drops were recorded
	}
	return &info, true
}

// Put runs build in a new temporary directory and moves the directory into
// the cache under key when build succeeds. If another process finished the
// same run meanwhile, its copy is kept and this one discarded.
func (c *Cache) Put(key string, build func(dir string) (*RunInfo, error)) (*RunInfo, error) {
	tmpRoot := filepath.Join(c.Dir, "tmp")
	if err := os.MkdirAll(tmpRoot, 0o755); err != nil {
		return nil, fmt.Errorf("run cache: %w", err)
	}
	tmp, err := os.MkdirTemp(tmpRoot, key[:16]+"-*")
	if err != nil {
		return nil, fmt.Errorf("run cache: %w", err)
	}
	info, err := build(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	final := c.Path(key)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("run cache: %w", err)
	}
	err = os.Rename(tmp, final)
	if err != nil {
		if existing, ok := c.Get(key); ok {
			os.RemoveAll(tmp)
			return existing, nil
		}
		// A run recorded in a form Get no longer takes (before drops
		// were recorded): move it aside and put the new one in its place.
		if old, aerr := os.MkdirTemp(tmpRoot, key[:16]+"-old-*"); aerr == nil {
			if os.Rename(final, filepath.Join(old, "run")) == nil {
				err = os.Rename(tmp, final)
			}
			os.RemoveAll(old)
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("run cache: %w", err)
	}
	return info, nil
}

// CheckWritable checks that runs can be put into the cache: that a
// directory can be made in Dir/tmp and renamed into Dir/runs, as Put does
// (both are made if missing). It leaves nothing behind.
func (c *Cache) CheckWritable() error {
	tmpRoot, runs := filepath.Join(c.Dir, "tmp"), filepath.Join(c.Dir, "runs")
	for _, d := range []string{tmpRoot, runs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp(tmpRoot, ".write-check-*")
	if err != nil {
		return err
	}
	moved := filepath.Join(runs, filepath.Base(tmp))
	if err := os.Rename(tmp, moved); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Remove(moved)
}

// RemoveStale deletes temporary run directories older than a day: runs a
// killed sweep was building. Younger ones may belong to a sweep still
// running in another process.
func (c *Cache) RemoveStale() error {
	entries, err := os.ReadDir(filepath.Join(c.Dir, "tmp"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
			os.RemoveAll(filepath.Join(c.Dir, "tmp", e.Name()))
		}
	}
	return nil
}
