package plots

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestEmpiricalCDF(t *testing.T) {
	noFloor := math.Inf(-1)
	got := empiricalCDF([]float64{1, 2, 2, 5}, 8, noFloor)
	want := plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 0.25}, {X: 2, Y: 0.75}, {X: 5, Y: 1}, {X: 8, Y: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("empiricalCDF = %v, want %v", got, want)
	}
	got = empiricalCDF([]float64{3}, 3, noFloor)
	want = plotter.XYs{{X: 3, Y: 0}, {X: 3, Y: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("single value: empiricalCDF = %v, want %v", got, want)
	}
	// On a log axis with floor 1: the two zeros and the 0.5 are drawn at
	// 1 together with the 1, so the line starts at 4 of 8 (not at 1 of 5
	// of the positive values only), and every later fraction is over all
	// eight values.
	got = empiricalCDF([]float64{0, 0, 0.5, 1, 2, 2, 5, 10}, 10, 1)
	want = plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 0.5}, {X: 2, Y: 0.75}, {X: 5, Y: 0.875}, {X: 10, Y: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a floor: empiricalCDF = %v, want %v", got, want)
	}
	if n := belowCount([]float64{0, 0, 0.5, 1, 2}, 1); n != 3 {
		t.Errorf("belowCount = %d, want 3", n)
	}
}

// TestLogFloor: the default floor is the power of ten at or below the
// smallest positive value, whatever the zeros; a given floor wins.
func TestLogFloor(t *testing.T) {
	for _, tc := range []struct {
		axis   Axis
		values []float64
		want   float64
	}{
		{Axis{Log: true}, []float64{0, 0, 0.25, 3}, 0.1},
		{Axis{Log: true}, []float64{0, 1, 40}, 1},
		{Axis{Log: true}, []float64{0, 0}, 1},
		{Axis{Log: true}, []float64{123, 0.001}, 0.001},
		{Axis{Log: true, Floor: 0.5}, []float64{0, 3}, 0.5},
	} {
		if got := tc.axis.logFloor(tc.values); got != tc.want {
			t.Errorf("floor of %v: %v, want %v", tc.values, got, tc.want)
		}
	}
}

// TestCDFCountsEveryJob: a CDF on a log axis with zeros draws them at the
// floor, keeps them in every fraction, and says how many in the legend.
func TestCDFCountsEveryJob(t *testing.T) {
	fr := Frame{X: Axis{Label: "Wait time", Unit: "s", Log: true}}
	f, err := CDF(fr, []Sample{{"easy", []float64{0, 0, 0, 10, 20, 40, 100, 1000}}, {"fcfs", []float64{5, 50}}})
	if err != nil {
		t.Fatal(err)
	}
	// The floor is 1 (fcfs' 5 is the smallest positive value; 10^0 is at
	// or below it): the axis starts there, where easy's three zeros are
	// drawn (their fraction, 3/8, is TestEmpiricalCDF's business).
	if f.Plot.X.Min != 1 || f.Plot.X.Max != 1000 {
		t.Errorf("X axis [%v, %v], want [1, 1000]", f.Plot.X.Min, f.Plot.X.Max)
	}
	var legend bytes.Buffer
	for _, e := range f.legendNames {
		legend.WriteString(e + "\n")
	}
	if legend.String() != "easy (3 of 8 < 1 s)\nfcfs\n" {
		t.Errorf("legend:\n%s", legend.String())
	}
}

// TestBoxesFloor: percentiles of 0 on a log axis are drawn at the floor
// and counted in the legend, not refused.
func TestBoxesFloor(t *testing.T) {
	fr := Frame{X: Axis{Label: "Load"}, Y: Axis{Label: "Wait time", Unit: "s", Log: true}}
	f, err := PercentileBoxes(fr, []BoxSeries{{"easy", []float64{0.5, 0.9}, []Percentiles{{0, 0, 0, 2, 30}, {0, 1, 4, 20, 300}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.legendNames) != 1 || f.legendNames[0] != "easy (4 of 10 percentiles < 1 s)" {
		t.Errorf("legend %q", f.legendNames)
	}
	if f.Plot.Y.Min != 1 || f.Plot.Y.Max != 300 {
		t.Errorf("Y axis [%v, %v], want the floor 1 to 300", f.Plot.Y.Min, f.Plot.Y.Max)
	}
}

// TestEveryKindFloorsLogAxes: every figure kind with a value axis draws
// zeros (and negative values) on a logarithmic axis at the axis's floor,
// leaves out no value, and says in the legend how many of each series
// are below the floor; the axis starts at the floor, and the figure
// renders. A series with nothing below keeps its plain name.
func TestEveryKindFloorsLogAxes(t *testing.T) {
	lin := func(label, unit string) Axis { return Axis{Label: label, Unit: unit} }
	log := func(label, unit string) Axis { return Axis{Label: label, Unit: unit, Log: true} }
	for _, tc := range []struct {
		name       string
		make       func() (*Figure, error)
		legend     []string
		xMin, yMin float64 // the axes' floors (NaN: not checked)
		xLog, yLog bool
	}{
		{"marked lines, zero median wait", func() (*Figure, error) {
			return MarkedLines(Frame{X: lin("Load", ""), Y: log("Median wait", "s")}, []Series{
				{"easy", []float64{0.5, 0.7, 0.9}, []float64{0, 0, 12}},
				{"fcfs", []float64{0.5, 0.7, 0.9}, []float64{0.3, 40, 900}}})
		}, []string{"easy (2 of 3 points < 0.1 s)", "fcfs"}, math.NaN(), 0.1, false, true},
		{"marked lines, zero x", func() (*Figure, error) {
			return MarkedLines(Frame{X: log("MPL", ""), Y: log("Wait", "s")}, []Series{{"gs", []float64{0, 2, 4}, []float64{0, 5, 50}}})
		}, []string{"gs (1 of 3 points < 1 s) (1 of 3 points with x < 1)"}, 1, 1, true, true},
		{"step lines, jobs in system from 0", func() (*Figure, error) {
			return StepLines(Frame{X: log("Time", "s"), Y: log("Jobs in the system", "")}, []Series{
				{"0.5", []float64{0, 10, 20, 30}, []float64{0, 3, 150, 0}},
				{"0.9", []float64{5, 10}, []float64{2, 4}}})
		}, []string{"0.5 (2 of 4 points < 1) (1 of 4 points with x < 1 s)", "0.9"}, 1, 1, true, true},
		{"grouped bars", func() (*Figure, error) {
			return GroupedBars(Frame{Y: log("Mean wait", "s")}, []string{"a", "b", "c"}, []BarSeries{
				{"easy", []float64{0, 0.02, math.NaN()}}, {"fcfs", []float64{3, 40, 500}}})
		}, []string{"easy (1 of 2 bars < 0.01 s)", "fcfs"}, math.NaN(), 0.01, false, true},
		{"stacked bars", func() (*Figure, error) {
			// The default floor is at or below every component; a given
			// one hides segments that end below it.
			y := log("Run time", "s")
			y.Floor = 1
			return StackedBars(Frame{Y: y}, []string{"a", "b"}, []BarSeries{
				{"SAGE", []float64{0.2, 300}}, {"filler", []float64{0.5, 0.3}}, {"idle", []float64{0, 30}}})
		}, []string{"idle", "filler (1 of 2 segments < 1 s)", "SAGE (1 of 2 segments < 1 s)"}, math.NaN(), 1, false, true},
		{"schedule from 0", func() (*Figure, error) {
			return Schedule(Frame{X: log("Time", "s")}, []string{"m1", "m2"}, []Interval{
				{Row: 0, Start: 0, End: 5, Job: "A"}, {Row: 1, Start: 0.5, End: 8, Job: "B"}, {Row: 0, Start: 5, End: 9, Job: "A"}})
		}, []string{"A (1 of 2 intervals starting < 0.1 s)", "B"}, 0.1, math.NaN(), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tc.make()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.legendNames, tc.legend) {
				t.Errorf("legend %q, want %q", f.legendNames, tc.legend)
			}
			if err := Render(io.Discard, f, PNG, Size{}); err != nil {
				t.Fatal(err)
			}
			// Drawing settles the ranges: each floored axis starts at its floor.
			for _, a := range []struct {
				name string
				min  float64
				got  float64
			}{{"X", tc.xMin, f.Plot.X.Min}, {"Y", tc.yMin, f.Plot.Y.Min}} {
				if !math.IsNaN(a.min) && a.got != a.min {
					t.Errorf("%s axis starts at %v, want the floor %v", a.name, a.got, a.min)
				}
			}
		})
	}

	// Nothing is left out: a line's points are all drawn, those below the
	// floors at the floors.
	got := floorSeries(Frame{X: Axis{Log: true}, Y: Axis{Log: true}}, []Series{{"a", []float64{0, 10, 20}, []float64{-1, 0, 5}}})
	want := plotter.XYs{{X: 10, Y: 1}, {X: 10, Y: 1}, {X: 20, Y: 5}}
	if len(got) != 1 || !slices.Equal(got[0].xys, want) {
		t.Errorf("floorSeries = %v, want %v", got, want)
	}
	// On linear axes nothing moves and no name changes.
	got = floorSeries(Frame{}, []Series{{"a", []float64{0, 1}, []float64{-1, 0}}})
	if got[0].name != "a" || !slices.Equal(got[0].xys, plotter.XYs{{X: 0, Y: -1}, {X: 1, Y: 0}}) {
		t.Errorf("linear floorSeries = %+v", got)
	}
}

func tickLabels(ts []plot.Tick) (values []float64, labels []string) {
	for _, t := range ts {
		if t.Label != "" {
			values = append(values, t.Value)
			labels = append(labels, t.Label)
		}
	}
	return values, labels
}

func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		labels   []string
		all      int // labelled and minor ticks
	}{
		{0, 40, []string{"0", "10", "20", "30", "40"}, 21},
		{45, 88, []string{"50", "60", "70", "80"}, 22}, // minor every 2 from 46
		{0.45, 0.88, []string{"0.5", "0.6", "0.7", "0.8"}, 22},
		{0, 423.3, []string{"0", "100", "200", "300", "400"}, 22},
		{-3, 3, []string{"-3", "-2", "-1", "0", "1", "2", "3"}, 31},
		{0, 1.4, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2", "1.4"}, 29},
	} {
		ticks := linearTicks{}.Ticks(tc.min, tc.max)
		values, labels := tickLabels(ticks)
		if !reflect.DeepEqual(labels, tc.labels) || len(ticks) != tc.all {
			t.Errorf("[%v, %v]: labels %q and %d ticks, want %q and %d", tc.min, tc.max, labels, len(ticks), tc.labels, tc.all)
		}
		for _, v := range values {
			if v < tc.min || v > tc.max {
				t.Errorf("[%v, %v]: tick %v out of range", tc.min, tc.max, v)
			}
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		labels   []string
	}{
		{0.15, 6000, []string{"1", "10", "100", "1000"}},
		{45, 2100, []string{"50", "100", "200", "500", "1000", "2000"}},
		{0.3, 0.9, []string{"0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}},
		{1e-6, 1e8, []string{"1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1", "10", "100", "1000", "10000", "100000", "1000000", "1e+07", "1e+08"}},
	} {
		_, labels := tickLabels(logTicks{}.Ticks(tc.min, tc.max))
		if !reflect.DeepEqual(labels, tc.labels) {
			t.Errorf("[%v, %v]: labels %q, want %q", tc.min, tc.max, labels, tc.labels)
		}
	}
}

func TestStyles(t *testing.T) {
	if got, want := SeriesColor(0), (color.RGBA{0x00, 0x72, 0xB2, 0xFF}); got != want {
		t.Errorf("SeriesColor(0) = %v, want %v", got, want)
	}
	if SeriesColor(8) != SeriesColor(0) || SeriesColor(-1) != SeriesColor(7) {
		t.Error("SeriesColor does not cycle with period 8")
	}
	if got, want := SeriesTint(1, 0.5), (color.RGBA{0xEA, 0xAF, 0x80, 0xFF}); got != want {
		t.Errorf("SeriesTint(1, 0.5) = %v, want %v", got, want) // (0xD5+0xFF)/2 = 0xEA
	}
	// The first 24 series differ in color or dash pattern.
	seen := map[string]int{}
	for i := range 24 {
		k := fmtStyle(SeriesColor(i), SeriesDashes(i))
		if j, dup := seen[k]; dup {
			t.Errorf("series %d and %d look alike", j, i)
		}
		seen[k] = i
	}
}

func fmtStyle(c color.RGBA, d []vg.Length) string { return fmt.Sprint(c, d) }

// TestValidation: every kind reports bad input as an error wrapping the
// right sentinel, without panicking.
func TestValidation(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x := Axis{Label: "Time", Unit: "s"}
	y := Axis{Label: "Jobs"}
	logX := Axis{Label: "Time", Unit: "s", Log: true}
	ok := Percentiles{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name string
		make func() (*Figure, error)
		want error
	}{
		{"cdf no samples", func() (*Figure, error) { return CDF(Frame{X: x}, nil) }, ErrEmpty},
		{"cdf empty sample", func() (*Figure, error) { return CDF(Frame{X: x}, []Sample{{Name: "a"}}) }, ErrEmpty},
		{"cdf no x label", func() (*Figure, error) { return CDF(Frame{}, []Sample{{"a", []float64{1}}}) }, ErrLabel},
		{"cdf NaN", func() (*Figure, error) { return CDF(Frame{X: x}, []Sample{{"a", []float64{1, nan}}}) }, ErrValue},
		{"cdf log y", func() (*Figure, error) {
			return CDF(Frame{X: x, Y: Axis{Label: "F", Log: true}}, []Sample{{"a", []float64{1}}})
		}, ErrLogScale},

		{"boxes no series", func() (*Figure, error) { return PercentileBoxes(Frame{X: x, Y: y}, nil) }, ErrEmpty},
		{"boxes no y label", func() (*Figure, error) {
			return PercentileBoxes(Frame{X: x}, []BoxSeries{{"a", []float64{1}, []Percentiles{ok}}})
		}, ErrLabel},
		{"boxes lengths", func() (*Figure, error) {
			return PercentileBoxes(Frame{X: x, Y: y}, []BoxSeries{{"a", []float64{1, 2}, []Percentiles{ok}}})
		}, ErrLength},
		{"boxes empty", func() (*Figure, error) { return PercentileBoxes(Frame{X: x, Y: y}, []BoxSeries{{Name: "a"}}) }, ErrEmpty},
		{"boxes out of order", func() (*Figure, error) {
			return PercentileBoxes(Frame{X: x, Y: y}, []BoxSeries{{"a", []float64{1}, []Percentiles{{1, 2, 5, 4, 6}}}})
		}, ErrValue},
		{"boxes zero param on log", func() (*Figure, error) {
			return PercentileBoxes(Frame{X: logX, Y: y}, []BoxSeries{{"a", []float64{0}, []Percentiles{ok}}})
		}, ErrLogScale},
		{"boxes infinite", func() (*Figure, error) {
			return PercentileBoxes(Frame{X: x, Y: y}, []BoxSeries{{"a", []float64{1}, []Percentiles{{1, 2, 3, 4, inf}}}})
		}, ErrValue},

		{"steps no series", func() (*Figure, error) { return StepLines(Frame{X: x, Y: y}, nil) }, ErrEmpty},
		{"steps lengths", func() (*Figure, error) {
			return StepLines(Frame{X: x, Y: y}, []Series{{"a", []float64{1, 2}, []float64{1}}})
		}, ErrLength},
		{"steps decreasing", func() (*Figure, error) {
			return StepLines(Frame{X: x, Y: y}, []Series{{"a", []float64{2, 1}, []float64{1, 1}}})
		}, ErrValue},
		{"steps empty", func() (*Figure, error) { return StepLines(Frame{X: x, Y: y}, []Series{{Name: "a"}}) }, ErrEmpty},
		{"steps no x label", func() (*Figure, error) {
			return StepLines(Frame{Y: y}, []Series{{"a", []float64{1}, []float64{1}}})
		}, ErrLabel},
		{"marked NaN", func() (*Figure, error) {
			return MarkedLines(Frame{X: x, Y: y}, []Series{{"a", []float64{1, 2}, []float64{1, nan}}})
		}, ErrValue},

		{"grouped no categories", func() (*Figure, error) {
			return GroupedBars(Frame{Y: y}, nil, []BarSeries{{"a", nil}})
		}, ErrEmpty},
		{"grouped no series", func() (*Figure, error) { return GroupedBars(Frame{Y: y}, []string{"c"}, nil) }, ErrEmpty},
		{"grouped lengths", func() (*Figure, error) {
			return GroupedBars(Frame{Y: y}, []string{"c", "d"}, []BarSeries{{"a", []float64{1}}})
		}, ErrLength},
		{"grouped infinite", func() (*Figure, error) {
			return GroupedBars(Frame{Y: y}, []string{"c"}, []BarSeries{{"a", []float64{inf}}})
		}, ErrValue},
		{"grouped all missing", func() (*Figure, error) {
			return GroupedBars(Frame{Y: y}, []string{"c"}, []BarSeries{{"a", []float64{nan}}})
		}, ErrEmpty},
		{"grouped no y label", func() (*Figure, error) {
			return GroupedBars(Frame{}, []string{"c"}, []BarSeries{{"a", []float64{1}}})
		}, ErrLabel},
		{"grouped log x", func() (*Figure, error) {
			return GroupedBars(Frame{X: logX, Y: y}, []string{"c"}, []BarSeries{{"a", []float64{1}}})
		}, ErrLogScale},
		{"schedule log y", func() (*Figure, error) {
			return Schedule(Frame{X: x, Y: Axis{Label: "P", Log: true}}, []string{"m"}, []Interval{{Start: 0, End: 1, Job: "j"}})
		}, ErrLogScale},
		{"stacked negative", func() (*Figure, error) {
			return StackedBars(Frame{Y: y}, []string{"c"}, []BarSeries{{"a", []float64{-1}}})
		}, ErrValue},
		{"stacked NaN", func() (*Figure, error) {
			return StackedBars(Frame{Y: y}, []string{"c"}, []BarSeries{{"a", []float64{nan}}})
		}, ErrValue},
		{"stacked all zero", func() (*Figure, error) {
			return StackedBars(Frame{Y: y}, []string{"c"}, []BarSeries{{"a", []float64{0}}})
		}, ErrEmpty},

		{"matrix empty", func() (*Figure, error) { return OusterhoutMatrix(Frame{}, Matrix{}) }, ErrEmpty},
		{"matrix ragged", func() (*Figure, error) {
			return OusterhoutMatrix(Frame{}, Matrix{Cells: [][]string{{"a", "b"}, {"a"}}})
		}, ErrLength},
		{"matrix headings", func() (*Figure, error) {
			return OusterhoutMatrix(Frame{}, Matrix{Cells: [][]string{{"a", "b"}}, Processors: []string{"p"}})
		}, ErrLength},
		{"schedule no rows", func() (*Figure, error) {
			return Schedule(Frame{X: x}, nil, []Interval{{Start: 0, End: 1, Job: "j"}})
		}, ErrEmpty},
		{"schedule no intervals", func() (*Figure, error) { return Schedule(Frame{X: x}, []string{"m"}, nil) }, ErrEmpty},
		{"schedule bad row", func() (*Figure, error) {
			return Schedule(Frame{X: x}, []string{"m"}, []Interval{{Row: 1, Start: 0, End: 1, Job: "j"}})
		}, ErrValue},
		{"schedule backwards", func() (*Figure, error) {
			return Schedule(Frame{X: x}, []string{"m"}, []Interval{{Start: 2, End: 1, Job: "j"}})
		}, ErrValue},
		{"schedule no job", func() (*Figure, error) {
			return Schedule(Frame{X: x}, []string{"m"}, []Interval{{Start: 0, End: 1}})
		}, ErrValue},
		{"schedule no x label", func() (*Figure, error) {
			return Schedule(Frame{}, []string{"m"}, []Interval{{Start: 0, End: 1, Job: "j"}})
		}, ErrLabel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tc.make()
			if !errors.Is(err, tc.want) || f != nil {
				t.Errorf("got %v, %v; want a nil figure and an error wrapping %q", f, err, tc.want)
			}
		})
	}
}

// TestDegenerateInputs: single points, equal values and ranges that gonum
// would widen across zero still draw (a log axis must not panic).
func TestDegenerateInputs(t *testing.T) {
	logX := Axis{Label: "Time", Unit: "s", Log: true}
	logY := Axis{Label: "Slowdown", Log: true}
	figs := map[string]func() (*Figure, error){
		"cdf one value on log": func() (*Figure, error) { return CDF(Frame{X: logX}, []Sample{{"a", []float64{5, 5}}}) },
		"boxes one point on log": func() (*Figure, error) {
			return PercentileBoxes(Frame{X: logX, Y: logY}, []BoxSeries{{"a", []float64{100}, []Percentiles{{1, 1, 1, 1, 1}}}})
		},
		"steps one point on log": func() (*Figure, error) {
			return StepLines(Frame{X: logX, Y: logY}, []Series{{"a", []float64{1}, []float64{1}}})
		},
		"marked one point": func() (*Figure, error) {
			return MarkedLines(Frame{X: Axis{Label: "L"}, Y: Axis{Label: "R"}}, []Series{{"a", []float64{0}, []float64{0}}})
		},
		"grouped negative": func() (*Figure, error) {
			return GroupedBars(Frame{Y: Axis{Label: "D"}}, []string{"c"}, []BarSeries{{"a", []float64{-2}}})
		},
		"matrix all idle": func() (*Figure, error) { return OusterhoutMatrix(Frame{}, Matrix{Cells: [][]string{{""}}}) },
	}
	for name, make := range figs {
		f, err := make()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := Render(io.Discard, f, PNG, Size{}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestSave(t *testing.T) {
	f, err := MarkedLines(Frame{Title: "t", X: Axis{Label: "Load", Unit: "%"}, Y: Axis{Label: "Time", Unit: "s"}},
		[]Series{{"a", []float64{1, 2}, []float64{3, 4}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pngPath, svgPath := filepath.Join(dir, "f.png"), filepath.Join(dir, "f.SVG")
	if err := Save(f, pngPath, 8*vg.Centimeter, 0); err != nil { // default height
		t.Fatal(err)
	}
	if err := SaveSize(f, svgPath, Size{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// 8 cm and 10 cm at 96 dpi: 302.4 and 377.95 pixels, rounded.
	if got := img.Bounds().Size(); got.X != 302 || got.Y != 378 {
		t.Errorf("PNG is %v pixels, want 302 x 378", got)
	}
	svg, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg, new(struct{ XMLName xml.Name })); err != nil {
		t.Errorf("SVG is not well-formed XML: %v", err)
	}
	if !bytes.Contains(svg, []byte(`width="453.54pt" height="283.46pt"`)) {
		t.Errorf("SVG header lacks the 16 x 10 cm size: %.200s", svg)
	}
	if err := Save(f, filepath.Join(dir, "f.pdf"), 0, 0); err != nil {
		t.Errorf("Save to .pdf: %v", err)
	}
	if err := Save(f, filepath.Join(dir, "f.eps"), 0, 0); !errors.Is(err, ErrFormat) {
		t.Errorf("Save to .eps: %v, want ErrFormat", err)
	}
	if err := Save(f, filepath.Join(dir, "missing", "f.png"), 0, 0); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{"f.SVG", "f.pdf", "f.png"}) {
		t.Errorf("directory holds %q, want only the three figures", names)
	}
	if err := Render(io.Discard, f, PNG, Size{Width: -1}); !errors.Is(err, ErrValue) {
		t.Errorf("negative width: %v, want ErrValue", err)
	}
}

func TestGrid(t *testing.T) {
	a, err := CDF(Frame{X: Axis{Label: "R", Unit: "s"}}, []Sample{{"a", []float64{1, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGrid(1, 2, a, a)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Render(&buf, g, PNG, Size{Width: 2 * DefaultWidth}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// 32 cm at 96 dpi is 1209.4 pixels; both halves hold a drawn panel.
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if w != 1209 || h != 378 {
		t.Fatalf("grid image is %d x %d pixels, want 1209 x 378", w, h)
	}
	for _, half := range []struct{ from, to int }{{0, w / 2}, {w / 2, w}} {
		dark := 0
		for y := 0; y < h; y++ {
			for x := half.from; x < half.to; x++ {
				if r, _, _, _ := img.At(x, y).RGBA(); r < 0x4000 {
					dark++
				}
			}
		}
		if dark < 1000 {
			t.Errorf("columns %d-%d hold only %d dark pixels: panel missing", half.from, half.to, dark)
		}
	}
	if _, err := NewGrid(1, 1, a, a); !errors.Is(err, ErrLength) {
		t.Errorf("two panels in 1 x 1: %v, want ErrLength", err)
	}
	if _, err := NewGrid(0, 1); !errors.Is(err, ErrEmpty) {
		t.Errorf("0 x 1 grid: %v, want ErrEmpty", err)
	}
}

// TestExtremeSizes: very small and very elongated figures draw without
// panicking; a PNG under one pixel is an error.
func TestExtremeSizes(t *testing.T) {
	sizes := []Size{
		{Width: vg.Centimeter, Height: vg.Centimeter},
		{Width: 100 * vg.Centimeter, Height: 2 * vg.Centimeter},
		{Width: 2 * vg.Centimeter, Height: 50 * vg.Centimeter, DPI: 30},
	}
	for _, g := range goldenFigures(t) {
		for _, s := range sizes {
			for _, format := range []Format{PNG, SVG} {
				if err := Render(io.Discard, g.fig, format, s); err != nil {
					t.Errorf("%s at %v as %s: %v", g.name, s, format, err)
				}
			}
		}
		if err := Render(io.Discard, g.fig, PNG, Size{Width: vg.Millimeter, Height: vg.Millimeter, DPI: 10}); !errors.Is(err, ErrValue) {
			t.Errorf("%s under a pixel: %v, want ErrValue", g.name, err)
		}
	}
}
