package hwmodel

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gangsim/gangsim/model"
)

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-2.5, "-2.5"}, {1048576, "1048576"}, {math.Nextafter(0.3, 1), "0.30000000000000004"},
		{1e-4, "0.0001"}, {9.5e-5, "9.5e-05"}, {1e21, "1e+21"}, {123456789012345678, "123456789012345680"},
		{math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"},
	} {
		got := FormatNumber(tc.v)
		if got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.v, got, tc.want)
		}
		if back, err := strconv.ParseFloat(got, 64); err != nil || back != tc.v {
			t.Errorf("FormatNumber(%v) = %q reads back as %v, %v", tc.v, got, back, err)
		}
	}
}

func TestCurveWriteCSV(t *testing.T) {
	var s Series
	s.Add(16, 1.5)
	s.Add(1048576, math.Inf(1))
	s.Label = "contexts=1"
	cv := Curve{Name: "bw", XLabel: "bytes", YLabel: "MB/s", Series: []Series{
		s,
		{Label: "a, b", X: []float64{0.1}, Y: []float64{1e-7}},
	}}
	var buf bytes.Buffer
	if err := cv.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	// Shortest exact numbers, +Inf spelt as strconv reads it back, labels
	// quoted when they need it.
	want := "series,bytes,MB/s\ncontexts=1,16,1.5\ncontexts=1,1048576,+Inf\n\"a, b\",0.1,1e-07\n"
	if buf.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	cv.Series[1].Y = nil
	if err := cv.WriteCSV(&buf); err == nil || !strings.Contains(err.Error(), `series "a, b" has 1 x values and 0 y values`) {
		t.Errorf("mismatched series: %v", err)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %q before failing", buf.String())
	}
}

// testPreset is a family's preset type as the subpackages write them.
type testPreset struct {
	PresetInfo
	Rate   float64 `json:"rate"`
	Count  int     `json:"count"`
	Medium string  `json:"medium"`
}

func (p testPreset) Validate() error {
	ck := CheckPreset("test", p)
	ck.Positive("rate", p.Rate)
	ck.NonNegative("count", float64(p.Count))
	return ck.Err()
}

const goodPreset = `{"name": "alpha", "model": "test", "nodes": 4, "pes_per_node": 2, "rate": 1.5, "count": 0, "medium": "air",
  "refill_penalty_us": 250, "assumed": ["rate", "refill_penalty_us"], "fitted": ["nodes"]}`

func TestLoadPreset(t *testing.T) {
	p, err := LoadPreset[testPreset]("test", strings.NewReader(goodPreset+"\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "alpha" || p.Nodes != 4 || p.Rate != 1.5 || p.Info().PEsPerNode != 2 {
		t.Errorf("loaded %+v", p)
	}
	if got := p.RefillPenalty(); got != 250*model.Microsecond {
		t.Errorf("RefillPenalty = %v, want 250us", got)
	}
	for _, tc := range []struct {
		name, old, new string
		want           error  // nil: any error
		text           string // in the message
	}{
		{"unknown field", `"count": 0`, `"cuont": 0`, nil, `unknown field "cuont"`},
		{"wrong type", `"nodes": 4`, `"nodes": "four"`, nil, "decoding preset"},
		{"trailing data", `"fitted": ["nodes"]}`, `"fitted": ["nodes"]} {}`, nil, "data after the preset"},
		{"no name", `"name": "alpha"`, `"name": ""`, ErrInvalidPreset, `name = "", must be a name`},
		{"no model", `"model": "test", `, ``, ErrInvalidPreset, `model = "", must be "test"`},
		{"another model", `"model": "test"`, `"model": "pm"`, ErrInvalidPreset, `model = "pm", must be "test"`},
		{"zero nodes", `"nodes": 4`, `"nodes": 0`, ErrInvalidPreset, `test: preset "alpha": invalid preset: nodes = 0, must be positive`},
		{"zero PEs", `"pes_per_node": 2`, `"pes_per_node": 0`, ErrInvalidPreset, "pes_per_node = 0"},
		{"negative refill", `"refill_penalty_us": 250`, `"refill_penalty_us": -1`, ErrInvalidPreset, "refill_penalty_us = -1, must be zero or positive"},
		{"family check", `"rate": 1.5`, `"rate": 0`, ErrInvalidPreset, "rate = 0, must be positive"},
		{"assumed not a field", `["rate", `, `["rates", `, ErrInvalidPreset, "assumed entry = rates"},
		{"fitted not numeric", `"fitted": ["nodes"]`, `"fitted": ["medium"]`, ErrInvalidPreset, "fitted entry = medium"},
		{"fitted a description", `"fitted": ["nodes"]`, `"fitted": ["cpu"]`, ErrInvalidPreset, "fitted entry = cpu"},
	} {
		if !strings.Contains(goodPreset, tc.old) {
			t.Fatalf("%s: %q not in the preset", tc.name, tc.old)
		}
		_, err := LoadPreset[testPreset]("test", strings.NewReader(strings.Replace(goodPreset, tc.old, tc.new, 1)))
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: error %v, want %v containing %q", tc.name, err, tc.want, tc.text)
		}
	}
}

func TestReadPresets(t *testing.T) {
	beta := strings.Replace(goodPreset, `"alpha"`, `"beta"`, 1)
	files := fstest.MapFS{
		"presets/beta.json":  {Data: []byte(beta)},
		"presets/alpha.json": {Data: []byte(goodPreset)},
		"presets/README":     {Data: []byte("not a preset")},
		"other/gamma.json":   {Data: []byte(goodPreset)},
	}
	dir := PresetDir[testPreset]{Family: "test", FS: files, Dir: "presets"}
	ps, err := dir.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Name != "alpha" || ps[1].Name != "beta" {
		t.Fatalf("ReadPresets = %+v", ps)
	}
	if p, err := dir.Find("beta"); err != nil || p.Name != "beta" || dir.Must("alpha").Name != "alpha" {
		t.Errorf("Find(beta) = %v, %v", p.Name, err)
	}
	_, err = dir.Find("gamma")
	if !errors.Is(err, ErrUnknownPreset) || err.Error() != `test: unknown preset "gamma" (test has alpha, beta)` {
		t.Errorf("Find(gamma): %v", err)
	}
	if data, err := fs.ReadFile(dir.Files(), "alpha.json"); err != nil || string(data) != goodPreset {
		t.Errorf("Files: alpha.json %q, %v; want the file verbatim", data, err)
	}
	files["presets/gamma.json"] = &fstest.MapFile{Data: []byte(beta)}
	if _, err := dir.Read(); err == nil || !strings.Contains(err.Error(), `gamma.json: preset "beta" is not named after its file`) {
		t.Errorf("misnamed file: %v", err)
	}
	files["presets/gamma.json"] = &fstest.MapFile{Data: []byte(`{"name": "gamma", "model": "test"}`)}
	if _, err := dir.Read(); !errors.Is(err, ErrInvalidPreset) || !strings.Contains(err.Error(), "reading gamma.json") {
		t.Errorf("invalid file: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "test: embedded presets: reading gamma.json") {
				t.Errorf("All with a broken file: recovered %v", r)
			}
		}()
		dir.All()
	}()
}

// constantCosts charges fixed times.
type constantCosts struct{ sw model.Time }

func (c constantCosts) Switch(SwitchState) model.Time { return c.sw }
func (c constantCosts) Message(bytes int64, contexts int) (model.Time, float64) {
	return model.Time(bytes), float64(contexts)
}
func (c constantCosts) Launch(nodes int, binaryBytes int64) model.Time { return model.Time(nodes) }

func TestRefill(t *testing.T) {
	for _, tc := range []struct {
		sw, penalty, want model.Time
	}{
		{0, 0, 0},
		{58, 0, 58},
		{58, 2 * model.Millisecond, 2058},
		{model.Second, 1, model.Second + 1},
		{model.Never, 5, model.Never},
		{model.Never - 3, 5, model.Never},
	} {
		r := Refill{Costs: constantCosts{tc.sw}, Penalty: tc.penalty}
		if got := r.Switch(SwitchState{Nodes: 16, Jobs: 2, Occupancy: 0.5}); got != tc.want {
			t.Errorf("switch %v + refill %v = %v, want %v", tc.sw, tc.penalty, got, tc.want)
		}
		// Messages and launches are the wrapped model's.
		if lat, bw := r.Message(100, 3); lat != 100 || bw != 3 {
			t.Errorf("Message through Refill: %v %v", lat, bw)
		}
		if r.Launch(7, 1<<20) != 7 {
			t.Error("Launch through Refill")
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "hwmodel: ") {
			t.Errorf("negative penalty: recovered %v, want a hwmodel: panic", r)
		}
	}()
	Refill{Costs: constantCosts{}, Penalty: -1}.Switch(SwitchState{})
}
