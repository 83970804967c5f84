package repro

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
)

// Write saves an item under resultsDir: when figure is not nil, the
// drawing as resultsDir/<paper>/<name>.png at the given size (setting
// it.Figure), and the item as resultsDir/<paper>/<name>.csv (WriteCSV).
// Both carry man, the manifest of the run that made them (the PNG as text
// chunks). A file that holds what it would be written with, but for the
// lines saying which build made it, is left as it is (KeepOrReplace); the
// others replace the item's earlier ones together or not at all
// (atomicfile.CommitAll): a full disk, or a rename that fails, leaves the
// earlier set as it was, never a new figure beside an old table. It
// returns the paths of the item's files.
func Write(resultsDir string, it *Item, man *model.Manifest, figure plots.Drawer, size plots.Size) ([]string, error) {
	return WriteFormats(resultsDir, it, man, figure, size, nil)
}

// WriteFormats is Write with the drawing saved in each of formats
// (<name>.png, .svg, .pdf; none means PNG alone). it.Figure, the drawing
// the report shows, is the PNG when there is one, else the first format's
// file.
func WriteFormats(resultsDir string, it *Item, man *model.Manifest, figure plots.Drawer, size plots.Size, formats []plots.Format) ([]string, error) {
	if err := it.Validate(); err != nil {
		return nil, err
	}
	dir := filepath.Join(resultsDir, it.Paper)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if len(formats) == 0 {
		formats = []plots.Format{plots.PNG}
	}
	if man == nil {
		man = &model.Manifest{}
	}
	if figure != nil {
		it.Figure = it.Paper + "/" + it.Name + "." + string(formats[0])
		if slices.Contains(formats, plots.PNG) {
			it.Figure = it.Paper + "/" + it.Name + ".png"
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, it, man); err != nil {
		return nil, err
	}
	csvPath := filepath.Join(dir, it.Name+".csv")
	// A file whose numbers are those already there keeps the build lines
	// of the build that made them (provenance.go), and so its figures.
	keep, keepAs, err := KeepOrReplace(csvPath, buf.Bytes())
	if err != nil {
		return nil, err
	}
	// Every file is rendered first; those that change are written to
	// temporary files and published together.
	type file struct {
		path string
		data []byte
	}
	paths := []string{csvPath}
	var files []file
	if !keep {
		files = append(files, file{csvPath, buf.Bytes()})
	}
	if figure != nil {
		meta := func(m *model.Manifest) []plots.KeyValue {
			var h model.Header
			m.Apply(&h)
			meta := []plots.KeyValue{{Key: "Title", Value: it.Title}}
			for _, l := range h.Lines {
				meta = append(meta, plots.KeyValue{Key: l.Key, Value: l.Value})
			}
			return meta
		}
		for _, f := range formats {
			path := filepath.Join(dir, it.Name+"."+string(f))
			paths = append(paths, path)
			var raw bytes.Buffer
			if err := plots.Render(&raw, figure, f, size); err != nil {
				return nil, fmt.Errorf("%s: writing %s: %w", it.Key(), path, err)
			}
			data, unchanged, err := figureBytes(path, raw.Bytes(), f, man, keepAs, meta)
			if err != nil {
				return nil, fmt.Errorf("%s: writing %s: %w", it.Key(), path, err)
			}
			if !unchanged {
				files = append(files, file{path, data})
			}
		}
	}
	var out []*atomicfile.File
	defer func() {
		for _, f := range out {
			f.Abort() // a no-op once committed
		}
	}()
	for _, fl := range files {
		f, err := atomicfile.Create(fl.path, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", it.Key(), err)
		}
		out = append(out, f)
		if _, err := f.Write(fl.data); err != nil {
			return nil, fmt.Errorf("%s: %w", it.Key(), err)
		}
	}
	if err := atomicfile.CommitAll(out...); err != nil {
		return nil, fmt.Errorf("%s: %w (its earlier files are left as they were)", it.Key(), err)
	}
	if err := removeStaleFigures(dir, it, figure != nil, formats); err != nil {
		return nil, err
	}
	return paths, nil
}

// removeStaleFigures removes the item's figure files in the formats not
// written this time (every format when the item has no figure): the .pdf
// and .svg of an earlier make figures FIGURE_FORMATS=png,pdf,svg, which a
// plain make figures would otherwise leave beside a newer .png. Only a
// file that gangsim wrote for this item is removed: its metadata must
// hold a GangsimTool entry and the parameter item=<paper>/<name>
// (plots.ReadMetadata); any other file of that name is left alone.
func removeStaleFigures(dir string, it *Item, drawn bool, formats []plots.Format) error {
	for _, f := range plots.Formats() {
		if drawn && slices.Contains(formats, f) {
			continue
		}
		path := filepath.Join(dir, it.Name+"."+string(f))
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		if WrittenFor(plots.ReadMetadata(data, f), it.Key()) {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	return nil
}

// WrittenFor reports whether a figure's metadata says gangsim wrote it
// for the item key ("paper/name"): a GangsimTool entry and the parameter
// item=key.
func WrittenFor(meta []plots.KeyValue, key string) bool {
	tool, item := false, false
	for _, kv := range meta {
		tool = tool || kv.Key == model.KeyGangsimTool
		item = item || kv.Key == model.KeyGangsimParam && kv.Value == "item="+key
	}
	return tool && item
}
