package repro

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
)

// Every file gangsim writes records which build made it: the manifest's
// GangsimRevision and GangsimCode lines (and the same lines of earlier
// steps, prefixed Input...). Committed results would then change with
// every commit, though their numbers do not. So an item file is replaced
// only when something besides those lines changed: a file whose numbers
// the current code reproduces keeps the revision and code of the build
// that first made them, which is still true of it (that build made these
// bytes), and the committed results stay as they are until what they say
// changes. Tests comparing regenerated results with committed ones
// compare them without those lines (SameExceptBuild).

// isBuildKey reports whether a manifest key says which build made a file:
// GangsimRevision, GangsimCode, of this step or an earlier one.
func isBuildKey(key string) bool {
	for strings.HasPrefix(key, model.KeyUpstreamPrefix) {
		key = key[len(model.KeyUpstreamPrefix):]
	}
	return key == model.KeyGangsimRevision || key == model.KeyGangsimCode
}

// buildLineKey returns the key of a text line that records a build, in
// the forms gangsim's text outputs write manifest lines ("# Key: value" in
// CSV, "Key: value" in the report's manifest comment), and whether it is
// one.
func buildLineKey(line []byte) (string, bool) {
	line = bytes.TrimPrefix(line, []byte("# "))
	key, _, ok := bytes.Cut(line, []byte(": "))
	if !ok || !isBuildKey(string(key)) {
		return "", false
	}
	return string(key), true
}

// SameExceptBuild reports whether two text outputs (item CSVs, reports)
// are the same but for the values of the lines that say which build made
// them.
func SameExceptBuild(a, b []byte) bool {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		ka, oka := buildLineKey(la[i])
		kb, okb := buildLineKey(lb[i])
		if oka != okb || oka && ka != kb || !oka && !bytes.Equal(la[i], lb[i]) {
			return false
		}
	}
	return true
}

// KeepOrReplace decides what to write at path, a text output freshly made
// as fresh: nothing (keep) when the file there is fresh but for the lines
// saying which build made it, else fresh. old is the file's manifest build
// lines when kept, for the files made with it (the item's figures).
func KeepOrReplace(path string, fresh []byte) (keep bool, old *model.Manifest, err error) {
	b, err := readRegular(path)
	if err != nil || b == nil {
		return false, nil, err
	}
	if !SameExceptBuild(b, fresh) {
		return false, nil, nil
	}
	m := &model.Manifest{}
	for _, line := range bytes.Split(b, []byte("\n")) {
		key, ok := buildLineKey(line)
		if !ok {
			continue
		}
		_, value, _ := strings.Cut(string(bytes.TrimPrefix(line, []byte("# "))), ": ")
		switch key {
		case model.KeyGangsimRevision:
			m.Revision = value
		case model.KeyGangsimCode:
			m.Code = value
		}
	}
	return true, m, nil
}

// figureBytes returns what to write at path for a drawing rendered as raw
// in format: the figure with the metadata meta(m) of manifest m, or, when
// keepAs is not nil (the item's CSV was kept) and the file at path is the
// figure made with keepAs's build lines byte for byte, unchanged.
func figureBytes(path string, raw []byte, format plots.Format, m *model.Manifest, keepAs *model.Manifest, meta func(*model.Manifest) []plots.KeyValue) (data []byte, unchanged bool, err error) {
	if keepAs != nil {
		old := *m
		old.Revision, old.Code = keepAs.Revision, keepAs.Code
		b, err := plots.WithMetadata(raw, format, meta(&old))
		if err != nil {
			return nil, false, err
		}
		if cur, err := readRegular(path); err == nil && bytes.Equal(cur, b) {
			return nil, true, nil
		}
	}
	b, err := plots.WithMetadata(raw, format, meta(m))
	return b, false, err
}

// readRegular returns the bytes of the regular file at path (a symbolic
// link followed), or nil when there is none: nothing, or a device, FIFO or
// directory, which is never compared (reading /dev/zero would not end).
func readRegular(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !st.Mode().IsRegular() {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}
