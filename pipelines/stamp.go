package pipelines

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/version"
)

// An item's files (results/<paper>/<name>.csv and its figures) are a
// function of its experiment file, its runs (whose keys cover the code,
// the run descriptions and the files they read) and the figure options it
// is saved with. A sweep that finds nothing of these changed since it
// wrote the files, and the files as it wrote them, has nothing to do for
// the item: it neither reads the runs back nor draws the figure. What it
// wrote is recorded in the cache as an item stamp, one per results
// directory and item (items/<digest>.json), beside the runs.

// ItemStamp records the files a sweep wrote for an item and what it said
// of them, under the key of everything they were made from (ItemKey).
type ItemStamp struct {
	Key     string `json:"key"`
	Item    string `json:"item"`
	Results string `json:"results"` // the results directory, absolute
	// Files are the item's files as written, with their SHA-256.
	Files []StampedFile `json:"files"`
	// What the sweep printed of the item: its runs, cells and claims.
	Runs          int `json:"runs"`
	CellsWithin   int `json:"cells_within"`
	CellsCompared int `json:"cells_compared"`
	ClaimsHolding int `json:"claims_holding"`
	Claims        int `json:"claims"`
	// Dropped is the item's notes on jobs cleaning dropped, said again on
	// every sweep that finds the item up to date.
	Dropped []string `json:"dropped,omitempty"`
}

// StampedFile is one file of an item and the SHA-256 of its bytes.
type StampedFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// ItemKey is the digest of everything an item's files are made from: the
// item, its experiment file's SHA-256, its runs' keys in the order the
// item reads them (each covering the code, the run and its input files),
// the tool's version and code, and the options it is saved with (the
// figure options that override the experiment's, as stable text).
func ItemKey(item, specSHA string, runs []*Run, options string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "gangsim item\nitem %s\nspec %s\nversion %s\ncode %s\noptions %q\n",
		item, specSHA, version.Version, codeIdentity(), options)
	for _, r := range runs {
		k, err := r.Key()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "run %s\n", k)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// stampPath is where the stamp of item written under resultsDir lives.
func (c *Cache) stampPath(resultsDir, item string) (string, error) {
	abs, err := filepath.Abs(resultsDir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs + "\x00" + item))
	return filepath.Join(c.Dir, "items", hex.EncodeToString(sum[:16])+".json"), nil
}

// ItemUpToDate returns the stamp of item under resultsDir when it was made
// with key and every file it lists is still there with the bytes it was
// written with; otherwise false (no stamp, another key, a file edited or
// gone, an unreadable stamp: the item is made again).
func (c *Cache) ItemUpToDate(resultsDir, item, key string) (*ItemStamp, bool) {
	path, err := c.stampPath(resultsDir, item)
	if err != nil {
		return nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var s ItemStamp
	if json.Unmarshal(b, &s) != nil || s.Key != key || s.Item != item || len(s.Files) == 0 {
		return nil, false
	}
	for _, f := range s.Files {
		sum, err := fileDigest(f.Path)
		if err != nil || sum != f.SHA256 {
			return nil, false
		}
	}
	return &s, true
}

// StampItem records s (its Key, Item and what the sweep said) with the
// files at paths as they are now, under resultsDir. The stamp is written
// atomically; a stamp that cannot be written costs the next sweep the
// item's analysis, nothing else, and is reported as an error for the
// caller to warn of.
func (c *Cache) StampItem(resultsDir string, s ItemStamp, paths []string) error {
	path, err := c.stampPath(resultsDir, s.Item)
	if err != nil {
		return err
	}
	if s.Results, err = filepath.Abs(resultsDir); err != nil {
		return err
	}
	s.Files = s.Files[:0]
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		sum, err := fileDigest(abs)
		if err != nil {
			return err
		}
		s.Files = append(s.Files, StampedFile{Path: abs, SHA256: sum})
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := atomicfile.Create(path, nil)
	if err != nil {
		return err
	}
	defer f.Abort() // a no-op once committed
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	return f.Commit()
}
