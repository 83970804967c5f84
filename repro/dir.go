package repro

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
)

// ReportName is the report's file name in a results directory.
const ReportName = "REPRODUCTION.md"

// ItemFiles lists dir/<paper>/<item>.csv, sorted, leaving out hidden files
// and directories.
func ItemFiles(dir string) ([]string, error) {
	papers, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range papers {
		if !p.IsDir() || strings.HasPrefix(p.Name(), ".") {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(dir, p.Name()))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".csv") {
				files = append(files, filepath.Join(dir, p.Name(), e.Name()))
			}
		}
	}
	slices.Sort(files)
	return files, nil
}

// ReportDir writes to w the report of every item in the results directory
// dir (Report), followed by its manifest as an HTML comment: the tool
// "analyze report", the gangsim version and each item file's name
// (relative to dir) and SHA-256. It returns the items, and warns through
// warn (if not nil) of an item file that is not at the path its item names.
func ReportDir(w io.Writer, dir string, warn func(string)) ([]*Item, error) {
	files, err := ItemFiles(dir)
	if err != nil {
		return nil, err
	}
	man := &model.Manifest{Tool: "analyze report", Version: version.Version, Revision: version.RevisionText(), Code: version.Code()}
	var items []*Item
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		it, _, err := ReadCSV(bytes.NewReader(b), f)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(dir, f)
		rel = filepath.ToSlash(rel)
		if want := it.Key() + ".csv"; rel != want && warn != nil {
			warn(fmt.Sprintf("%s holds item %s, expected at %s", f, it.Key(), want))
		}
		sum := sha256.Sum256(b)
		man.Inputs = append(man.Inputs, model.Input{Name: rel, SHA256: hex.EncodeToString(sum[:])})
		items = append(items, it)
	}
	var buf bytes.Buffer
	if err := Report(&buf, items); err != nil {
		return nil, err
	}
	buf.WriteString("\n<!-- gangsim manifest\n")
	var h model.Header
	man.Apply(&h)
	for _, l := range h.Lines {
		// "--" may not appear inside an HTML comment.
		fmt.Fprintf(&buf, "%s: %s\n", l.Key, strings.ReplaceAll(strings.ReplaceAll(l.Value, "\n", " "), "--", "- -"))
	}
	buf.WriteString("-->\n")
	_, err = w.Write(buf.Bytes())
	return items, err
}
