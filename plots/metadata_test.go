package plots

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
