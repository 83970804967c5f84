package plots

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Errors the figure constructors wrap; test for them with errors.Is.
var (
	// ErrEmpty: a figure, series or sample set holds no data.
	ErrEmpty = errors.New("no data")
	// ErrLength: slices that must pair up element by element differ in length.
	ErrLength = errors.New("lengths differ")
	// ErrValue: a value is NaN or infinite, or outside its domain (a
	// negative bar height, a decreasing time, an interval ending before it
	// starts, percentiles out of order).
	ErrValue = errors.New("invalid value")
	// ErrLogScale: a value on a logarithmic axis is not positive.
	ErrLogScale = errors.New("value not positive on a logarithmic axis")
	// ErrLabel: a numeric axis has no label.
	ErrLabel = errors.New("axis label missing")
)

// Axis describes one axis of a figure: what it measures, in which unit,
// and on which scale.
type Axis struct {
	// Label names the quantity, e.g. "Response time".
	Label string
	// Unit is the unit of the quantity, e.g. "s"; empty for dimensionless
	// quantities such as a slowdown or a fraction. It is printed in
	// parentheses after the label.
	Unit string
	// Log draws the axis on a base-10 logarithmic scale. Every figure kind
	// draws the values below the axis's floor (zeros, the usual case) at
	// the floor and says how many in the legend, nothing left out: a CDF's
	// or a box's values, a line's points, a bar's height, a schedule's
	// interval ends. Only what stands at given positions has no floor: a
	// box's parameter on a logarithmic X axis must be positive, and
	// categories, rows and a CDF's fractions have no logarithmic scale.
	Log bool
	// Floor is the smallest value a logarithmic axis shows; 0 takes the
	// largest power of ten at or below the smallest positive value drawn
	// on it (1 when none is positive).
	Floor float64
}

// logFloor returns the floor of a logarithmic axis over values: a.Floor,
// or the largest power of ten at or below the smallest positive value
// (1 when none is positive).
func (a Axis) logFloor(values ...[]float64) float64 {
	if a.Floor > 0 {
		return a.Floor
	}
	least := math.Inf(1)
	for _, vs := range values {
		for _, v := range vs {
			if v > 0 && v < least {
				least = v
			}
		}
	}
	if math.IsInf(least, 1) {
		return 1
	}
	return decimal(1, int(math.Floor(math.Log10(least)+1e-12)))
}

// belowFloor says in a legend how many of n values lie below the floor
// of a logarithmic axis and are drawn at it: "(12 of 500 < 0.1 s)".
func belowFloor(k, n int, floor float64, unit string) string {
	return belowFloorOf(k, n, "", floor, unit)
}

// belowFloorOf is belowFloor naming what is counted: "(2 of 7 points <
// 0.1 s)".
func belowFloorOf(k, n int, what string, floor float64, unit string) string {
	if what != "" {
		what = " " + what
	}
	return fmt.Sprintf(" (%d of %d%s < %s%s)", k, n, what, formatNumber(floor), unitSuffix(unit))
}

// drawnFloor is the floor below which values are drawn at it on axis a
// (Axis.logFloor over values), or -Inf on a linear axis, where every value
// is drawn where it is.
func (a Axis) drawnFloor(values ...[]float64) float64 {
	if !a.Log {
		return math.Inf(-1)
	}
	return a.logFloor(values...)
}

// unitSuffix is " unit", or "" without a unit.
func unitSuffix(unit string) string {
	if unit == "" {
		return ""
	}
	return " " + unit
}

// Text is the axis title as drawn: "Label (Unit)", or Label alone when
// Unit is empty.
func (a Axis) Text() string {
	if a.Unit == "" {
		return a.Label
	}
	return a.Label + " (" + a.Unit + ")"
}

// Frame is what every figure kind has in common: a title, two axes and a
// legend title.
type Frame struct {
	// Title is drawn above the plot; empty for none.
	Title string
	// X and Y are the horizontal and vertical axes.
	X, Y Axis
	// Legend titles the legend: what its entries are ("Policy",
	// "Offered load"); empty for none.
	Legend string
}

// Typography, in points (1/72 inch). Chosen so that a 16 x 10 cm figure at
// 96 dpi stays readable: 10 pt is 13 pixels at that resolution.
const (
	titleFontSize  = 12
	labelFontSize  = 11
	tickFontSize   = 10
	legendFontSize = 10
	lineWidth      = 1.5 // series lines, points
	glyphRadius    = 3   // series markers, points
)

// SeriesColor returns the color of the i-th series (i >= 0; it cycles
// after 8). The palette is Okabe and Ito's, which stays distinguishable
// for the common forms of color blindness, reordered so that the first
// colors are the darkest and yellow, poor on white, comes last.
func SeriesColor(i int) color.RGBA {
	palette := [...]color.RGBA{
		{0x00, 0x72, 0xB2, 0xFF}, // blue
		{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
		{0x00, 0x9E, 0x73, 0xFF}, // bluish green
		{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
		{0xE6, 0x9F, 0x00, 0xFF}, // orange
		{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
		{0x00, 0x00, 0x00, 0xFF}, // black
		{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	}
	return palette[mod(i, len(palette))]
}

// SeriesTint returns SeriesColor(i) mixed with white, weight of white
// being whiteness in [0, 1]: fills that keep black text on them readable.
func SeriesTint(i int, whiteness float64) color.RGBA {
	c := SeriesColor(i)
	mix := func(v uint8) uint8 {
		return uint8(math.Round(float64(v)*(1-whiteness) + 255*whiteness))
	}
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xFF}
}

// SeriesDashes returns the dash pattern of the i-th series (i >= 0; it
// cycles after 6, a period prime to the 8 colors, so the first 24 series
// differ in color or dash): solid, dashed, dotted, dash-dot, long dash,
// dash-dot-dot. Lengths are in points.
func SeriesDashes(i int) []vg.Length {
	p := vg.Points
	switch mod(i, 6) {
	case 1:
		return []vg.Length{p(6), p(3)}
	case 2:
		return []vg.Length{p(1.5), p(2.5)}
	case 3:
		return []vg.Length{p(7), p(2.5), p(1.5), p(2.5)}
	case 4:
		return []vg.Length{p(12), p(4)}
	case 5:
		return []vg.Length{p(7), p(2.5), p(1.5), p(2.5), p(1.5), p(2.5)}
	default:
		return nil
	}
}

// SeriesGlyph returns the marker shape of the i-th series (i >= 0; it
// cycles after 8).
func SeriesGlyph(i int) draw.GlyphDrawer {
	switch mod(i, 8) {
	case 1:
		return draw.BoxGlyph{}
	case 2:
		return draw.TriangleGlyph{}
	case 3:
		return draw.CrossGlyph{}
	case 4:
		return draw.RingGlyph{}
	case 5:
		return draw.PyramidGlyph{}
	case 6:
		return draw.PlusGlyph{}
	case 7:
		return draw.SquareGlyph{}
	default:
		return draw.CircleGlyph{}
	}
}

// SeriesLineStyle is the line style of the i-th series: its color, its
// dash pattern and a 1.5 pt width.
func SeriesLineStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: SeriesColor(i), Width: vg.Points(lineWidth), Dashes: SeriesDashes(i)}
}

func mod(i, n int) int {
	i %= n
	if i < 0 {
		i += n
	}
	return i
}

// newPlot returns a gonum plot with the frame's title, the package's
// typography and, for logarithmic axes, their scale and ticks. The axis
// titles are left to Figure.Draw.
func newPlot(fr Frame) *plot.Plot {
	p := plot.New()
	p.Title.Text = fr.Title
	p.Title.TextStyle.Font = font.From(plot.DefaultFont, titleFontSize)
	p.Title.Padding = vg.Points(6)
	for _, ax := range []struct {
		axis *plot.Axis
		desc Axis
	}{{&p.X, fr.X}, {&p.Y, fr.Y}} {
		ax.axis.Label.TextStyle.Font = font.From(plot.DefaultFont, labelFontSize)
		ax.axis.Tick.Label.Font = font.From(plot.DefaultFont, tickFontSize)
		ax.axis.Label.Padding = vg.Points(3)
		ax.axis.Tick.Marker = linearTicks{}
		if ax.desc.Log {
			ax.axis.Scale = plot.LogScale{}
			ax.axis.Tick.Marker = logTicks{}
		}
	}
	return p
}

// gridLines returns light grid lines at the major ticks; vertical or
// horizontal ones can be left out.
func gridLines(vertical, horizontal bool) *plotter.Grid {
	g := plotter.NewGrid()
	sty := draw.LineStyle{Color: color.Gray{0xD8}, Width: vg.Points(0.5)}
	g.Vertical, g.Horizontal = draw.LineStyle{}, draw.LineStyle{}
	if vertical {
		g.Vertical = sty
	}
	if horizontal {
		g.Horizontal = sty
	}
	return g
}

// linearTicks marks a linear axis at a "nice" step, 1, 2 or 5 times a
// power of ten, the smallest that gives at most 7 intervals (so 4 to 8
// labels), with minor ticks at a fifth (a quarter for step 2) of it.
// gonum's DefaultTicks aims at 3 labels, too few to read values off a
// 16 cm figure.
type linearTicks struct{}

func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	m, e, minors := linearStep(lo, hi)
	// Ticks are k × (m/minors) × 10^e for integer k; labelled values are
	// rebuilt from their decimal digits so that they print exactly.
	minorStep := decimal(m, e) / float64(minors)
	digits := max(0, -e)
	var ticks []plot.Tick
	for k := int(math.Ceil(lo/minorStep - 1e-9)); float64(k)*minorStep <= hi+1e-9*minorStep; k++ {
		t := plot.Tick{Value: float64(k) * minorStep}
		if k%minors == 0 {
			v := decimal(k/minors*m, e)
			t = plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', digits, 64)}
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// linearStep is the labelled step of linearTicks over [lo, hi], m × 10^e
// with m 1, 2 or 5, and the number of minor intervals in it.
func linearStep(lo, hi float64) (m, e, minors int) {
	const maxIntervals = 7
	e = int(math.Floor(math.Log10((hi - lo) / maxIntervals)))
	for m == 0 {
		for _, cand := range []int{1, 2, 5} {
			if (hi-lo)/decimal(cand, e) <= maxIntervals {
				m = cand
				break
			}
		}
		if m == 0 {
			e++
		}
	}
	minors = 5
	if m == 2 {
		minors = 4
	}
	return m, e, minors
}

// headroom raises the top of an axis whose data reach it to the next
// minor tick above the largest value (on a logarithmic axis, the next
// multiple of its leading digit), so that a line at the maximum is drawn
// inside the plot, not along its edge (a peak of 153 jobs on an axis
// ending at 153 looks cut off).
func headroom(a *plot.Axis, log bool) {
	if log && a.Max > 0 && !math.IsInf(a.Max, 0) {
		// The next multiple of the leading decimal digit: 52,590 to
		// 60,000, a minor tick of logTicks.
		e := int(math.Floor(math.Log10(a.Max)))
		m := int(math.Floor(a.Max/decimal(1, e)+1e-9)) + 1
		a.Max = decimal(m, e)
		return
	}
	if log || !(a.Max > a.Min) || math.IsInf(a.Max-a.Min, 0) {
		return
	}
	m, e, minors := linearStep(a.Min, a.Max)
	minorStep := decimal(m, e) / float64(minors)
	a.Max = (math.Floor(a.Max/minorStep+1e-9) + 1) * minorStep
}

// logTicks marks a logarithmic axis: a labelled major tick at every power
// of ten and minor ticks at its multiples 2..9; when the axis spans at most
// two decades (max/min <= 100) the multiples 2 and 5 are labelled too, and when it holds
// fewer than two labelled ticks every multiple is labelled.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	const eps = 1e-9
	in := func(v float64) bool { return v >= min*(1-eps) && v <= max*(1+eps) }
	span := math.Log10(max / min)
	label := func(m int) bool { return m == 1 || (span <= 2 && (m == 2 || m == 5)) }
	var ticks []plot.Tick
	labelled := 0
	for e := lo; e <= hi; e++ {
		for m := 1; m <= 9; m++ {
			v := decimal(m, e)
			if !in(v) {
				continue
			}
			t := plot.Tick{Value: v}
			if label(m) {
				t.Label = formatNumber(v)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		for i := range ticks {
			ticks[i].Label = formatNumber(ticks[i].Value)
		}
	}
	return ticks
}

// decimal returns m × 10^e rounded once, so that 3 × 10^-1 is 0.3 and not
// 0.30000000000000004.
func decimal(m, e int) float64 {
	v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(e), 64)
	return v
}

// formatNumber prints a tick value in the shortest exact form, switching
// to exponent notation outside [1e-4, 1e7).
func formatNumber(v float64) string {
	if a := math.Abs(v); a != 0 && (a < 1e-4 || a >= 1e7) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// valueTicks labels exactly the given values (a parameter axis, where each
// box or point stands at a value the experiment chose).
func valueTicks(values []float64) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(values))
	for i, v := range values {
		ticks[i] = plot.Tick{Value: v, Label: formatNumber(v)}
	}
	return ticks
}

// categoryTicks labels the integers 0..len(names)-1 with names, without
// tick marks.
func categoryTicks(axis *plot.Axis, names []string) {
	ticks := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	axis.Tick.Marker = ticks
	axis.Tick.Length = 0
}

// checkValues reports the first NaN or infinite value of vs, or, when log
// is set, the first value that is not positive. what names the slice in
// the error.
func checkValues(what string, vs []float64, log bool) error {
	for i, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: value %d is %v: %w", what, i, v, ErrValue)
		}
		if log && v <= 0 {
			return fmt.Errorf("%s: value %d is %v: %w", what, i, v, ErrLogScale)
		}
	}
	return nil
}

// checkLabel fails when a numeric axis has no label.
func checkLabel(name string, a Axis) error {
	if a.Label == "" {
		return fmt.Errorf("%s axis: %w", name, ErrLabel)
	}
	return nil
}

// fixLogRange makes a logarithmic axis range drawable: gonum widens an
// empty range [v, v] to [v-1, v+1], which may reach zero, so widen it by
// a factor of two instead.
func fixLogRange(a *plot.Axis, log bool) {
	if log && a.Min == a.Max {
		a.Min /= 2
		a.Max *= 2
	}
}
