package repro

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
)

// TestWriteRemovesStaleFigures: writing an item's figure in fewer formats
// than before (make figures after make figures FIGURE_FORMATS=png,svg,pdf)
// removes the item's figure files in the other formats, and an item that
// no longer draws loses them all; a file of the same name that gangsim
// did not write for this item (no manifest, or another item's) is left
// alone.
func TestWriteRemovesStaleFigures(t *testing.T) {
	fig, err := plots.MarkedLines(plots.Frame{X: plots.Axis{Label: "Load"}, Y: plots.Axis{Label: "R"}},
		[]plots.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	man := func(item string) *model.Manifest {
		return &model.Manifest{Tool: "replay sweep", Version: "v0", Params: []model.Param{{Name: "item", Value: item}}}
	}
	dir := t.TempDir()
	it := sample()
	exists := func(ext string) bool {
		_, err := os.Stat(filepath.Join(dir, it.Paper, it.Name+"."+ext))
		return err == nil
	}
	all := []plots.Format{plots.PNG, plots.SVG, plots.PDF}
	if _, err := WriteFormats(dir, it, man(it.Key()), fig, plots.Size{}, all); err != nil {
		t.Fatal(err)
	}
	if !exists("png") || !exists("svg") || !exists("pdf") {
		t.Fatal("the three formats were not written")
	}
	written, err := WriteFormats(dir, it, man(it.Key()), fig, plots.Size{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !exists("png") || exists("svg") || exists("pdf") || !slices.Contains(written, filepath.Join(dir, it.Paper, it.Name+".png")) {
		t.Errorf("after writing PNG alone: png %v, svg %v, pdf %v (written %v)", exists("png"), exists("svg"), exists("pdf"), written)
	}

	// Not gangsim's for this item: a hand-made file, another item's figure.
	svg := filepath.Join(dir, it.Paper, it.Name+".svg")
	if err := os.WriteFile(svg, []byte("<?xml version=\"1.0\"?><svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := plots.SaveWithMetadata(fig, filepath.Join(dir, it.Paper, it.Name+".pdf"), plots.Size{},
		[]plots.KeyValue{{Key: model.KeyGangsimTool, Value: "replay sweep"}, {Key: model.KeyGangsimParam, Value: "item=frachtenberg/other"}}); err != nil {
		t.Fatal(err)
	}
	// The item no longer draws a figure: its own PNG goes, the others stay.
	if _, err := WriteFormats(dir, it, man(it.Key()), nil, plots.Size{}, nil); err != nil {
		t.Fatal(err)
	}
	if exists("png") || !exists("svg") || !exists("pdf") {
		t.Errorf("after a table alone: png %v (want gone), svg %v, pdf %v (want kept)", exists("png"), exists("svg"), exists("pdf"))
	}
}
