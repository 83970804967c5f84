package repro

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestWriteAllOrNothing: an item's files replace the earlier ones
// together or not at all. Here the SVG cannot be written (its name is
// taken by a directory): the earlier CSV and PNG stay as they were, and
// no temporary file is left; the figure used to be replaced before the
// failure, leaving a new PNG beside the old CSV.
func TestWriteAllOrNothing(t *testing.T) {
	fig, err := plots.MarkedLines(plots.Frame{X: plots.Axis{Label: "Load"}, Y: plots.Axis{Label: "R"}},
		[]plots.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	man := &model.Manifest{Tool: "replay sweep", Version: "v0"}
	dir := t.TempDir()
	it := sample()
	if _, err := WriteFormats(dir, it, man, fig, plots.Size{}, nil); err != nil {
		t.Fatal(err)
	}
	paper := filepath.Join(dir, it.Paper)
	read := func(ext string) string {
		b, _ := os.ReadFile(filepath.Join(paper, it.Name+"."+ext))
		return string(b)
	}
	oldCSV, oldPNG := read("csv"), read("png")
	if err := os.MkdirAll(filepath.Join(paper, it.Name+".svg", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	it.Title = "another title"
	it.Rows[0].Gangsim = 7
	if _, err := WriteFormats(dir, it, man, fig, plots.Size{}, []plots.Format{plots.PNG, plots.SVG}); err == nil {
		t.Fatal("written over a directory")
	}
	if read("csv") != oldCSV || read("png") != oldPNG {
		t.Error("the item's earlier files were replaced, in part")
	}
	if ents, _ := os.ReadDir(paper); len(ents) != 3 {
		t.Errorf("left behind: %v", ents)
	}
	os.RemoveAll(filepath.Join(paper, it.Name+".svg"))
	if _, err := WriteFormats(dir, it, man, fig, plots.Size{}, []plots.Format{plots.PNG, plots.SVG}); err != nil {
		t.Fatal(err)
	}
	if read("csv") == oldCSV || read("png") == oldPNG || read("svg") == "" {
		t.Error("the item's files were not replaced")
	}
}

// TestWriteKeepsTheBuildOfUnchangedNumbers: an item rewritten by another
// build with the same rows and drawing keeps its files as they were,
// build lines included; a changed row rewrites the CSV with the new
// build's lines, and a changed drawing rewrites its figure alike.
func TestWriteKeepsTheBuildOfUnchangedNumbers(t *testing.T) {
	draw := func(y float64) plots.Drawer {
		fig, err := plots.MarkedLines(plots.Frame{X: plots.Axis{Label: "Load"}, Y: plots.Axis{Label: "R"}},
			[]plots.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, y}}})
		if err != nil {
			t.Fatal(err)
		}
		return fig
	}
	man := func(rev string) *model.Manifest {
		return &model.Manifest{Tool: "replay sweep", Version: "v0", Revision: rev, Code: "code-" + rev,
			Params: []model.Param{{Name: "item", Value: "frachtenberg/table-x"}}}
	}
	dir := t.TempDir()
	it := sample()
	csv, svg := filepath.Join(dir, it.Paper, it.Name+".csv"), filepath.Join(dir, it.Paper, it.Name+".svg")
	formats := []plots.Format{plots.PNG, plots.SVG}
	if _, err := WriteFormats(dir, it, man("aaa"), draw(2), plots.Size{}, formats); err != nil {
		t.Fatal(err)
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	csv1, svg1 := read(csv), read(svg)
	if !strings.Contains(csv1, "# GangsimRevision: aaa\n# GangsimCode: code-aaa\n") || !strings.Contains(svg1, "GangsimRevision: aaa") {
		t.Fatalf("the build lines are not written:\n%s", csv1)
	}

	if _, err := WriteFormats(dir, sample(), man("bbb"), draw(2), plots.Size{}, formats); err != nil {
		t.Fatal(err)
	}
	if read(csv) != csv1 || read(svg) != svg1 {
		t.Error("the same numbers and drawing from another build rewrote the item")
	}

	if _, err := WriteFormats(dir, sample(), man("ccc"), draw(3), plots.Size{}, formats); err != nil {
		t.Fatal(err)
	}
	if read(csv) != csv1 {
		t.Error("a new drawing of the same numbers rewrote the CSV")
	}
	if s := read(svg); s == svg1 || !strings.Contains(s, "GangsimRevision: ccc") {
		t.Error("a new drawing was not written with its build's lines")
	}

	changed := sample()
	changed.Rows[0].Gangsim++
	if _, err := WriteFormats(dir, changed, man("ddd"), draw(3), plots.Size{}, formats); err != nil {
		t.Fatal(err)
	}
	if s := read(csv); !strings.Contains(s, "# GangsimRevision: ddd\n") {
		t.Errorf("changed numbers kept the old build's lines:\n%s", s)
	}
	if !SameExceptBuild([]byte(csv1), []byte(strings.ReplaceAll(csv1, "aaa", "zzz"))) || SameExceptBuild([]byte(csv1), []byte(read(csv))) {
		t.Error("SameExceptBuild")
	}
}
