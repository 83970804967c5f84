package plots

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func TestSaveWithMetadata(t *testing.T) {
	fr := Frame{Title: "t", X: Axis{Label: "Load"}, Y: Axis{Label: "Response", Unit: "s"}}
	f, err := MarkedLines(fr, []Series{{Name: "easy", X: []float64{0.5, 0.9}, Y: []float64{10, 40}}})
	if err != nil {
		t.Fatal(err)
	}
	meta := []KeyValue{{"GangsimTool", "analyze"}, {"GangsimParam", "policy=easy -- x"}, {"GangsimVersion", "v0é"}}
	dir := t.TempDir()

	p := filepath.Join(dir, "f.png")
	if err := SaveWithMetadata(f, p, Size{}, meta); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("the PNG with text chunks does not decode (bad CRC?): %v", err)
	}
	for _, want := range []string{"tEXtGangsimTool\x00analyze", "tEXtGangsimParam\x00policy=easy -- x", "tEXtGangsimVersion\x00v0\xe9"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("PNG lacks %q", want)
		}
	}

	s := filepath.Join(dir, "f.svg")
	if err := SaveWithMetadata(f, s, Size{}, meta); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(s)
	if !strings.Contains(string(b), "?>\n<!-- GangsimTool: analyze -->\n<!-- GangsimParam: policy=easy - - x -->") {
		t.Errorf("SVG head:\n%.300s", b)
	}

	bad := filepath.Join(dir, "bad.png")
	if err := SaveWithMetadata(f, bad, Size{}, []KeyValue{{"", "x"}}); !errors.Is(err, ErrMetadata) {
		t.Errorf("empty key: %v", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Error("a failed save left a file")
	}
}

// TestPDFInfo: a PDF carries the metadata in a new information dictionary
// appended as an incremental update whose offsets are right, and the same
// figure gives the same bytes (fpdf's creation date is fixed).
func TestPDFInfo(t *testing.T) {
	fr := Frame{Title: "t", X: Axis{Label: "Load"}, Y: Axis{Label: "Response", Unit: "s"}}
	f, err := MarkedLines(fr, []Series{{Name: "easy", X: []float64{0.5, 0.9}, Y: []float64{10, 40}}})
	if err != nil {
		t.Fatal(err)
	}
	meta := []KeyValue{{"GangsimTool", "analyze"}, {"GangsimParam", "policy=easy"}, {"GangsimParam", "x=(1)"}}
	dir := t.TempDir()
	p := filepath.Join(dir, "f.pdf")
	if err := SaveWithMetadata(f, p, Size{Width: 6 * vg.Inch, Height: 4 * vg.Inch}, meta); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.HasSuffix(b, []byte("%%EOF\n")) {
		t.Fatalf("not a PDF: %.20q ... %q", b, b[len(b)-20:])
	}
	if !bytes.Contains(b, []byte("/GangsimTool (analyze)\n/GangsimParam (policy=easy\\nx=\\(1\\))\n")) {
		t.Errorf("PDF info dictionary missing:\n%s", b[bytes.LastIndex(b, []byte("obj")):])
	}
	// startxref points at the new xref section, whose one entry points at
	// the new object; /Prev at the original xref.
	m := regexp.MustCompile(`xref\n(\d+) 1\n(\d{10}) 00000 n \ntrailer\n<<\n/Size (\d+)\n/Root \d+ 0 R\n/Info (\d+) 0 R\n/Prev (\d+)\n>>\nstartxref\n(\d+)\n%%EOF\n$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no incremental update at the end:\n%s", b[len(b)-300:])
	}
	at := func(s []byte) int { n, _ := strconv.Atoi(string(s)); return n }
	if !bytes.HasPrefix(b[at(m[2]):], []byte(string(m[1])+" 0 obj\n")) {
		t.Errorf("xref entry %s points at %.20q", m[2], b[at(m[2]):])
	}
	if !bytes.HasPrefix(b[at(m[6]):], []byte("xref\n")) || !bytes.HasPrefix(b[at(m[5]):], []byte("xref\n")) {
		t.Errorf("startxref %s or /Prev %s does not point at an xref section", m[6], m[5])
	}
	if at(m[3]) != at(m[1])+1 || at(m[4]) != at(m[1]) {
		t.Errorf("/Size %s, /Info %s for object %s", m[3], m[4], m[1])
	}
	var again bytes.Buffer
	if err := Render(&again, f, PDF, Size{Width: 6 * vg.Inch, Height: 4 * vg.Inch}); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	Render(&first, f, PDF, Size{Width: 6 * vg.Inch, Height: 4 * vg.Inch})
	if !bytes.Equal(first.Bytes(), again.Bytes()) {
		t.Error("the same figure gave two different PDFs")
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w, h vg.Length
		ok   bool
	}{
		{"6inx4in", 6 * vg.Inch, 4 * vg.Inch, true},
		{"16cmx10cm", 16 * vg.Centimeter, 10 * vg.Centimeter, true},
		{" 160mm x 90mm ", 160 * vg.Millimeter, 90 * vg.Millimeter, true},
		{"432ptx288pt", 432, 288, true},
		{"6x4", 0, 0, false},
		{"6in", 0, 0, false},
		{"0inx4in", 0, 0, false},
		{"-1cmx4cm", 0, 0, false},
	} {
		s, err := ParseSize(tc.in)
		if tc.ok != (err == nil) || (tc.ok && (math.Abs(float64(s.Width-tc.w)) > 1e-9 || math.Abs(float64(s.Height-tc.h)) > 1e-9)) {
			t.Errorf("ParseSize(%q) = %v, %v", tc.in, s, err)
		}
		if !tc.ok && !errors.Is(err, ErrValue) {
			t.Errorf("ParseSize(%q): error %v is not ErrValue", tc.in, err)
		}
	}
}

// TestReadMetadata: what SaveWithMetadata records reads back in every
// format, in order, with a repeated key's values one entry each, Latin-1
// and PDF escapes (parentheses, backslashes) undone; a figure saved
// without metadata, or bytes of no format, give none.
func TestReadMetadata(t *testing.T) {
	f, err := MarkedLines(Frame{X: Axis{Label: "Load"}, Y: Axis{Label: "R"}}, []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}})
	if err != nil {
		t.Fatal(err)
	}
	meta := []KeyValue{{"GangsimTool", "replay sweep"}, {"GangsimParam", "item=study/x (a)"}, {"GangsimParam", `path=C:\dir`},
		{"Title", "Wait é"}}
	dir := t.TempDir()
	for _, format := range Formats() {
		p := filepath.Join(dir, "f."+string(format))
		if err := SaveWithMetadata(f, p, Size{}, meta); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		if got := ReadMetadata(b, format); !reflect.DeepEqual(got, meta) {
			t.Errorf("%s: read back %q, want %q", format, got, meta)
		}
		if err := SaveSize(f, p, Size{}); err != nil {
			t.Fatal(err)
		}
		b, _ = os.ReadFile(p)
		if got := ReadMetadata(b, format); len(got) != 0 {
			t.Errorf("%s without metadata: read %q", format, got)
		}
		if got := ReadMetadata([]byte("not a figure"), format); len(got) != 0 {
			t.Errorf("%s of other bytes: read %q", format, got)
		}
	}
}
