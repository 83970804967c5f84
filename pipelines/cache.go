package pipelines

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Cache keeps finished runs on disk, one directory per run named by its key
// (Run.Key): Dir/runs/<first two hex digits>/<key>/. A run is built in a
// temporary directory under Dir/tmp and renamed into place only once all its
// files are written, so a killed sweep leaves no half-finished run that a
// later sweep would take for done, and loses none that had finished.
//
// A temporary directory is locked (flock) by the process building in it
// for as long as it lives: the lock goes with the process however it ends
// (kill -9, SIGINT, SIGTERM, a node failure), so the next sweep removes
// every temporary directory nobody holds (RemoveStale) and none that a
// sweep still running, in this process or another, builds in, whatever
// their age. A directory another host made, and any on a file system
// without locks, is removed only once a day old.
type Cache struct {
	Dir string
}

// staleTemp is how old a temporary run directory must be before a sweep
// removes it as left behind by a killed process, on a file system where
// locks do not tell.
const staleTemp = 24 * time.Hour

// Path returns the directory of the run with the given key.
func (c *Cache) Path(key string) string {
	return filepath.Join(c.Dir, "runs", key[:2], key)
}

// Get returns the recorded information of a finished run, if the cache has
// it whole: its run.json for that key, recorded since RunInfo.Dropped was
// (an older run is built again), and both tables complete (a Parquet file
// that lacks its footer, cut short on disk, makes the run missing and so
// made again, as a damaged run.json does).
func (c *Cache) Get(key string) (*RunInfo, bool) {
	dir := c.Path(key)
	b, err := os.ReadFile(filepath.Join(dir, InfoFile))
	if err != nil {
		return nil, false
	}
	var info RunInfo
	if json.Unmarshal(b, &info) != nil || info.Key != key || info.Dropped == nil {
		return nil, false // nil Dropped: from before drops were recorded
	}
	for _, name := range []string{OutcomesFile, TimeSeriesFile} {
		if !parquetWhole(filepath.Join(dir, name)) {
			return nil, false
		}
	}
	return &info, true
}

// parquetWhole reports whether the file has a Parquet file's frame: the
// magic at both ends and a footer length that fits. It reads 12 bytes; a
// file damaged within is found when it is read (Finished.Outcomes).
func parquetWhole(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < 12 {
		return false
	}
	var head [4]byte
	var tail [8]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return false
	}
	if _, err := f.ReadAt(tail[:], st.Size()-8); err != nil {
		return false
	}
	footer := int64(binary.LittleEndian.Uint32(tail[:4]))
	return string(head[:]) == "PAR1" && string(tail[4:]) == "PAR1" && footer+12 <= st.Size()
}

// tempDir is a directory under Dir/tmp, locked while the process uses it.
type tempDir struct {
	path string
	f    *os.File // holds the lock; nil when released
}

func (t *tempDir) release() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

// newTemp makes a directory under Dir/tmp named prefix, "@", this host's
// name and a random number, and locks it. A sweep removing dead
// directories meanwhile may take a new one between its making and its
// locking (it then holds it, or has removed it): such a directory is given
// up and another made.
func (c *Cache) newTemp(prefix string) (*tempDir, error) {
	root := filepath.Join(c.Dir, "tmp")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		dir, err := os.MkdirTemp(root, prefix+"@"+thisHost()+"-*")
		if err != nil {
			return nil, err
		}
		f, err := os.Open(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && attempt < 100 {
				continue // removed before it was opened
			}
			return nil, err
		}
		held, _, lerr := tryLock(f)
		if lerr != nil {
			return &tempDir{path: dir, f: f}, nil // no locks here: the age rule protects it
		}
		if held && sameFile(dir, f) {
			return &tempDir{path: dir, f: f}, nil
		}
		f.Close()
		if attempt >= 100 {
			return nil, fmt.Errorf("%s: could not lock a new directory", root)
		}
	}
}

// sameFile reports whether path still names the open file f.
func sameFile(path string, f *os.File) bool {
	a, err := os.Stat(path)
	if err != nil {
		return false
	}
	b, err := f.Stat()
	return err == nil && os.SameFile(a, b)
}

// Put runs build in a new temporary directory and moves the directory into
// the cache under key when build succeeds. If another process finished the
// same run meanwhile, its copy is kept and this one discarded; a copy Get
// does not take (damaged, or recorded in an older form) is replaced.
func (c *Cache) Put(key string, build func(dir string) (*RunInfo, error)) (*RunInfo, error) {
	tmp, err := c.newTemp(key[:16] + "-")
	if err != nil {
		return nil, fmt.Errorf("run cache: %w", err)
	}
	defer tmp.release()
	info, err := build(tmp.path)
	if err != nil {
		os.RemoveAll(tmp.path)
		return nil, err
	}
	final := c.Path(key)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		os.RemoveAll(tmp.path)
		return nil, fmt.Errorf("run cache: %w", err)
	}
	err = os.Rename(tmp.path, final)
	if err != nil {
		if existing, ok := c.Get(key); ok {
			os.RemoveAll(tmp.path)
			return existing, nil
		}
		if c.Discard(key) == nil {
			err = os.Rename(tmp.path, final)
		}
	}
	if err != nil {
		os.RemoveAll(tmp.path)
		return nil, fmt.Errorf("run cache: %w", err)
	}
	return info, nil
}

// Discard removes the run of key from the cache (nothing if it has none):
// it is first moved into a locked temporary directory, so that no other
// process finds half of it.
func (c *Cache) Discard(key string) error {
	final := c.Path(key)
	if _, err := os.Lstat(final); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	old, err := c.newTemp(key[:16] + "-old-")
	if err != nil {
		return fmt.Errorf("run cache: %w", err)
	}
	defer old.release()
	err = os.Rename(final, filepath.Join(old.path, "run"))
	os.RemoveAll(old.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("run cache: %w", err)
	}
	return nil
}

// CheckWritable checks that runs can be put into the cache: that a
// directory can be made in Dir/tmp and renamed into Dir/runs, as Put does
// (both are made if missing). It leaves nothing behind.
func (c *Cache) CheckWritable() error {
	runs := filepath.Join(c.Dir, "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		return err
	}
	tmp, err := c.newTemp(".write-check-")
	if err != nil {
		return err
	}
	defer tmp.release()
	moved := filepath.Join(runs, filepath.Base(tmp.path))
	if err := os.Rename(tmp.path, moved); err != nil {
		os.Remove(tmp.path)
		return err
	}
	return os.Remove(moved)
}

// RemoveStale deletes the temporary directories under Dir/tmp that no
// process holds: runs a killed or interrupted sweep was building. Those a
// live sweep holds stay, however old. A directory made on another host
// (its name says which) is removed only once a day old even when it can be
// locked: some network file systems (NFS mounted nolock) lock for one
// host alone, where a live run elsewhere would look dead. On a file
// system without locks, those younger than a day stay.
func (c *Cache) RemoveStale() error {
	root := filepath.Join(c.Dir, "tmp")
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue // gone meanwhile, or not ours to read
		}
		held, _, lerr := tryLock(f)
		old := false
		if fi, err := f.Stat(); err == nil && time.Since(fi.ModTime()) > staleTemp {
			old = true
		}
		switch {
		case held && (hostOf(e.Name()) == "" || hostOf(e.Name()) == thisHost() || old):
			os.RemoveAll(p) // while holding it: nobody can take it meanwhile
		case lerr != nil && old:
			os.RemoveAll(p)
		}
		f.Close()
	}
	return nil
}

var thisHost = sync.OnceValue(func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "host"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, h)
})

// hostOf returns the host a temporary directory's name says it was made
// on (newTemp's "prefix@host-N"), "" for a name without one.
func hostOf(name string) string {
	at := strings.IndexByte(name, '@')
	dash := strings.LastIndexByte(name, '-')
	if at < 0 || dash <= at {
		return ""
	}
	return name[at+1 : dash]
}
