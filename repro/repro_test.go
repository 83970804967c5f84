package repro

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func sample() *Item {
	return &Item{
		Paper: "frachtenberg", Name: "table-4.3", Title: "Table 4.3: bandwidth", Unit: "MB/s",
		Notes:   "a note, with a comma",
		Dropped: []string{"load=0.5 (2 runs): replay cleaning default dropped 8 of 100 jobs: no-runtime 8"},
		Rows: []Row{
			{Coords: []Coord{{"nodes", "16"}, {"rails", "1"}}, Paper: 300, HasPaper: true, Gangsim: 300.4, Tolerance: 1},
			{Coords: []Coord{{"nodes", "4,096"}, {"rails", "2"}}, Paper: 100, HasPaper: true, Gangsim: 102, Tolerance: 1},
			{Coords: []Coord{{"nodes", "1"}, {"rails", "1"}}, Gangsim: 1.0 / 3},
		},
		Claims: []Claim{{Text: "flat in jobs", Holds: true, Note: "max/min 1.01"}},
	}
}

func TestWithin(t *testing.T) {
	it := sample()
	want := []bool{true, false, true}
	for i, r := range it.Rows {
		if r.Within() != want[i] {
			t.Errorf("row %d: Within = %v", i, r.Within())
		}
	}
	rw, rn, ch, cn := it.Check()
	if rw != 1 || rn != 2 || ch != 1 || cn != 1 || it.Agrees() {
		t.Errorf("Check = %d %d %d %d, Agrees %v", rw, rn, ch, cn, it.Agrees())
	}
	exact := Row{HasPaper: true, Paper: 2, Gangsim: 2}
	if !exact.Within() {
		t.Error("an exact match with tolerance 0 is not within")
	}
	// 1.05 - 1 is 0.050000000000000044 in binary: still within 0.05,
	// while 1.0501 is not.
	if r := (Row{HasPaper: true, Paper: 1, Gangsim: 1.05, Tolerance: 0.05}); !r.Within() {
		t.Error("1.05 is not within 0.05 of 1")
	}
	if r := (Row{HasPaper: true, Paper: 1, Gangsim: 1.0501, Tolerance: 0.05}); r.Within() {
		t.Error("1.0501 is within 0.05 of 1")
	}
}

func TestCSVRoundTrip(t *testing.T) {
	it := sample()
	man := &model.Manifest{Tool: "experiment", Version: "v0", Params: []model.Param{{Name: "preset", Value: "crescendo"}}}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, it, man); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"# gangsim.item: frachtenberg/table-4.3\n",
		"# dropped: load=0.5 (2 runs): replay cleaning default dropped 8 of 100 jobs: no-runtime 8\n",
		"# GangsimParam: preset=crescendo\n",
		"nodes,rails,paper,gangsim,tolerance,within\n",
		"16,1,300,300.4,1,true\n",
		"\"4,096\",2,100,102,1,false\n",
		"1,1,,0.333333,,\n", // no paper value: nothing to be within
	} {
		if !strings.Contains(text, want) {
			t.Errorf("CSV lacks %q:\n%s", want, text)
		}
	}
	// Every row: the within cell is empty exactly when the paper's is.
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "nodes,") {
			continue
		}
		cells, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatal(err)
		}
		paper, within := cells[len(cells)-4], cells[len(cells)-1]
		if (paper == "") != (within == "") {
			t.Errorf("row %q: paper %q, within %q", line, paper, within)
		}
	}
	got, h, err := ReadCSV(strings.NewReader(text), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := model.ManifestOf(h); !ok || m.Tool != "experiment" {
		t.Errorf("manifest %+v", m)
	}
	it.Rows[2].Gangsim = 0.333333 // as written
	if !reflect.DeepEqual(got, it) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, it)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"a,b\n1,2\n", `t.csv: no "gangsim.item" line: not a gangsim results file`},
		{"# gangsim.item: etsion/fig-5\nx,paper,gangsim\n", `t.csv:2: header ["x" "paper" "gangsim"] does not end with paper,gangsim,tolerance,within`},
		{"# gangsim.item: etsion/fig-5\nx,paper,gangsim,tolerance,within\n1,2,zz,1,true\n", `t.csv:3: column gangsim: strconv.ParseFloat: parsing "zz": invalid syntax`},
	} {
		_, _, err := ReadCSV(strings.NewReader(tt.in), "t.csv")
		if err == nil || err.Error() != tt.err {
			t.Errorf("ReadCSV(%q) = %v, want %s", tt.in, err, tt.err)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := sample()
	for _, key := range []string{"", "My Study", "../up", "-x", "Mine", strings.Repeat("a", 65)} {
		bad.Paper = key
		if err := WriteCSV(&bytes.Buffer{}, bad, nil); err == nil {
			t.Errorf("key %q accepted", key)
		}
	}
	// A study of one's own has a key of its own.
	study := sample()
	study.Paper = "easy-vs-conservative"
	if err := study.Validate(); err != nil {
		t.Errorf("study key refused: %v", err)
	}
	bad = sample()
	bad.Rows[1].Coords = bad.Rows[1].Coords[:1]
	if err := bad.Validate(); err == nil {
		t.Error("ragged coordinates accepted")
	}
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 1: "1", 135.123456: "135.123", 1e-7: "1e-07", 123456789: "123457000", -2.5: "-2.5", 3e12: "3e+12"} {
		if got := FormatValue(v); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestReport(t *testing.T) {
	a := sample()
	b := &Item{Paper: "etsion", Name: "fig-5", Title: "Fig. 5", Unit: "MB/s", Figure: "etsion/fig-5.png"}
	for i := 0; i < maxReportRows+3; i++ {
		b.Rows = append(b.Rows, Row{Coords: []Coord{{"bytes", "16"}}, Gangsim: float64(i)})
	}
	study := &Item{Paper: "mystudy", Name: "waits", Title: "Waits", Unit: "s", Rows: []Row{{Coords: []Coord{{"load", "0.5"}}, Gangsim: 3}}}
	var buf bytes.Buffer
	if err := Report(&buf, []*Item{study, a, b}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if strings.Index(md, "### etsion/fig-5") > strings.Index(md, "### frachtenberg/table-4.3") {
		t.Error("items not in paper order")
	}
	if strings.Index(md, "### mystudy/waits") < strings.Index(md, "### frachtenberg/table-4.3") ||
		!strings.Contains(md, "## mystudy\n\nA study of its own (`experiments/mystudy/`)") {
		t.Errorf("the study is not after the papers, introduced as a study:\n%s", md)
	}
	for _, want := range []string{
		"| [frachtenberg/table-4.3](#frachtenbergtable-43) | Table 4.3: bandwidth | 1/2 | 1/1 | **no** |",
		"| [etsion/fig-5](#etsionfig-5) | Fig. 5 | - | - | yes |",
		"| 4,096 | 2 | 100 | 102 | 2 (tol. 1) | **no** |",
		"![etsion/fig-5](etsion/fig-5.png)",
		"(3 more rows without a paper value are in the CSV file.)",
		"| flat in jobs | yes | max/min 1.01 |",
		"Jobs its runs' cleaning dropped (not replayed):\n\n- load=0.5 (2 runs): replay cleaning default dropped 8 of 100 jobs: no-runtime 8\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}
