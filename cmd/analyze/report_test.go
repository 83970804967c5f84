package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
)

// writeItem writes it to dir/<paper>/<name>.csv with repro.WriteCSV.
func writeItem(t *testing.T, dir string, it *repro.Item) string {
	t.Helper()
	path := filepath.Join(dir, it.Paper, it.Name+".csv")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	man := &model.Manifest{Tool: "test", Version: "test"}
	if err := repro.WriteCSV(&b, it, man); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReport(t *testing.T) {
	dir := t.TempDir()
	agree := &repro.Item{Paper: "hori98", Name: "table-1", Title: "Overhead at a 100 ms slice", Unit: "%",
		Rows: []repro.Row{{Coords: []repro.Coord{{Name: "slice_ms", Value: "100"}}, Paper: 9, HasPaper: true, Gangsim: 8.5, Tolerance: 1}}}
	disagree := &repro.Item{Paper: "etsion", Name: "fig-5", Title: "Bandwidth", Unit: "MB/s",
		Rows:   []repro.Row{{Coords: []repro.Coord{{Name: "jobs", Value: "2"}}, Paper: 60, HasPaper: true, Gangsim: 40, Tolerance: 5}},
		Claims: []repro.Claim{{Text: "bandwidth does not fall", Holds: true, Note: "checked"}}}
	p1 := writeItem(t, dir, agree)
	p2 := writeItem(t, dir, disagree)
	os.WriteFile(filepath.Join(dir, "etsion", ".fig-5.csv.tmp-1"), []byte("partial"), 0o644) // not an item

	_, stderr := mustAnalyze(t, nil, "report", dir)
	if !strings.Contains(stderr, "analyze report: 2 items (1 agree with their paper) written to "+filepath.Join(dir, "REPRODUCTION.md")) {
		t.Errorf("stderr: %s", stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	repro.Report(&want, []*repro.Item{agree, disagree})
	if !bytes.HasPrefix(b, want.Bytes()) {
		t.Errorf("the report is not repro.Report's:\n%s", b)
	}
	// Papers in repro.Papers order: etsion before hori98.
	if i, j := bytes.Index(b, []byte("### etsion/fig-5")), bytes.Index(b, []byte("### hori98/table-1")); i < 0 || j < i {
		t.Errorf("item order: %d %d", i, j)
	}
	tail := string(b[want.Len():])
	for _, w := range []string{"<!-- gangsim manifest\n", "GangsimTool: analyze report\n",
		"GangsimInput: " + sha(t, p2) + " etsion/fig-5.csv\n", "GangsimInput: " + sha(t, p1) + " hori98/table-1.csv\n"} {
		if !strings.Contains(tail, w) {
			t.Errorf("manifest lacks %q:\n%s", w, tail)
		}
	}

	// -o - writes the same report to stdout.
	out, _ := mustAnalyze(t, nil, "report", "-q", "-o", "-", dir)
	if out != string(b) {
		t.Error("report on stdout differs from the file")
	}

	// A broken item is the reader's positioned error; the old report stays.
	bad := filepath.Join(dir, "hori96", "fig-2.csv")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	os.WriteFile(bad, []byte("# gangsim.item: hori96/fig-2\nnodes,paper,gangsim,tolerance,within\n4,1,x,0.1,true\n"), 0o644)
	if _, _, err := analyzeCmd(t, nil, "report", dir); err == nil || !strings.HasPrefix(err.Error(), bad+":3: column gangsim") {
		t.Errorf("bad item: %v", err)
	}
	if b2, _ := os.ReadFile(filepath.Join(dir, "REPRODUCTION.md")); !bytes.Equal(b, b2) {
		t.Error("a failed report changed the file")
	}
	if _, _, err := analyzeCmd(t, nil, "report", filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing results directory is not an error")
	}
}
