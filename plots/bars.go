package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarSeries is one value per category, e.g. the turnaround time of one
// algorithm in each workload scenario.
type BarSeries struct {
	// Name identifies the series in the legend, e.g. "FCS".
	Name string
	// Values[i] is the value in category i, in the unit of the Y axis.
	Values []float64
}

// barEdge outlines every bar.
func barEdge() draw.LineStyle { return draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)} }

// checkBars validates the frame, categories and series of a bar chart;
// missingOK accepts NaN as a missing bar, nonNegative rejects negative
// values.
func checkBars(name string, fr Frame, categories []string, series []BarSeries, missingOK, nonNegative bool) error {
	if err := checkLabel("Y", fr.Y); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if fr.X.Log {
		return fmt.Errorf("%s: X axis: categories have no logarithmic scale: %w", name, ErrLogScale)
	}
	if len(categories) == 0 {
		return fmt.Errorf("%s: no categories: %w", name, ErrEmpty)
	}
	if len(series) == 0 {
		return fmt.Errorf("%s: no series: %w", name, ErrEmpty)
	}
	for _, s := range series {
		what := fmt.Sprintf("%s: series %q", name, s.Name)
		if len(s.Values) != len(categories) {
			return fmt.Errorf("%s: %d values for %d categories: %w", what, len(s.Values), len(categories), ErrLength)
		}
		for i, v := range s.Values {
			switch {
			case math.IsNaN(v) && missingOK:
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fmt.Errorf("%s: value %d is %v: %w", what, i, v, ErrValue)
			case v < 0 && nonNegative:
				return fmt.Errorf("%s: value %d is %v, negative: %w", what, i, v, ErrValue)
			}
		}
	}
	return nil
}

// GroupedBars draws a cluster of bars per category, one bar per series in
// series order. A NaN value leaves its bar out (e.g. the thesis draws PBCS
// instead of BCS in the last two scenarios). This is the kind of Fig. 6.7
// of Frachtenberg's thesis: (a) turnaround and (b) mean response time of
// each scheduling algorithm in each synthetic scenario (balanced,
// imbalanced, complementing, mixed; Tables 6.1-6.4), with a bar for the
// optimal scheduler.
//
// fr.Y needs a label; fr.X labels the categories (e.g. "Workload") and may
// be empty. The Y axis starts at 0 unless a value is negative. On a
// logarithmic Y axis the bars rise from its floor (Axis.Floor, by default
// the power of ten at or below the smallest positive value); a value below
// the floor (a 0) is drawn at it, a bar of no height, and the legend says
// how many of each series' bars are.
func GroupedBars(fr Frame, categories []string, series []BarSeries) (*Figure, error) {
	name := fmt.Sprintf("grouped bars %q", fr.Title)
	if err := checkBars(name, fr, categories, series, true, false); err != nil {
		return nil, err
	}
	const group = 0.8 // of the spacing of two categories
	w := group / float64(len(series))
	floor := barFloor(fr, series)
	base := max(0, floor)
	f := newFigure(fr)
	f.Plot.Add(gridLines(false, true))
	bars := newRects(barEdge())
	for k, s := range series {
		below, drawn := 0, 0
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			drawn++
			if v < floor {
				below++
			}
			x0 := float64(i) - group/2 + float64(k)*w
			bars.rs = append(bars.rs, rect{x0: x0, x1: x0 + w, y0: base, y1: max(v, floor), fill: SeriesColor(k)})
		}
		name := s.Name
		if below > 0 {
			name += belowFloorOf(below, drawn, "bars", floor, fr.Y.Unit)
		}
		f.addLegend(name, swatch{fill: SeriesColor(k), edge: barEdge()})
	}
	if len(bars.rs) == 0 {
		return nil, fmt.Errorf("%s: every value is missing: %w", name, ErrEmpty)
	}
	f.Plot.Add(bars)
	setCategoryX(f, categories, fr.Y.Log)
	return f, nil
}

// barFloor is the floor of a bar chart's Y axis (Axis.drawnFloor over
// every value, NaN left out): -Inf on a linear axis.
func barFloor(fr Frame, series []BarSeries) float64 {
	var vs [][]float64
	for _, s := range series {
		vs = append(vs, s.Values)
	}
	return fr.Y.drawnFloor(vs...)
}

// StackedBars draws one bar per category made of the series' values
// stacked in series order, the first at the bottom; the bar's height is
// their sum. Values must not be negative. This is the kind of Fig. 6.14
// of Frachtenberg's thesis (run time of SAGE with the filler squeezed into
// its holes stacked on it, per machine size, Section 6.5) and of any
// breakdown of time into components per policy. The legend lists the
// components top to bottom, as they are stacked.
//
// fr.Y needs a label; fr.X labels the categories and may be empty. On a
// logarithmic Y axis the bars rise from its floor (Axis.Floor, by default
// the power of ten at or below the smallest positive component): a
// segment's bounds below the floor are drawn at it, and the legend says
// how many of each component's segments end below it (drawn with no
// height).
func StackedBars(fr Frame, categories []string, components []BarSeries) (*Figure, error) {
	name := fmt.Sprintf("stacked bars %q", fr.Title)
	if err := checkBars(name, fr, categories, components, false, true); err != nil {
		return nil, err
	}
	const w = 0.6 // of the spacing of two categories
	floor := barFloor(fr, components)
	f := newFigure(fr)
	f.Plot.Add(gridLines(false, true))
	bars := newRects(barEdge())
	base := make([]float64, len(categories))
	below := make([]int, len(components))
	for k, s := range components {
		for i, v := range s.Values {
			if v == 0 {
				continue
			}
			if base[i]+v < floor {
				below[k]++
			}
			bars.rs = append(bars.rs, rect{x0: float64(i) - w/2, x1: float64(i) + w/2, y0: max(base[i], floor), y1: max(base[i]+v, floor), fill: SeriesColor(k)})
			base[i] += v
		}
	}
	if len(bars.rs) == 0 {
		return nil, fmt.Errorf("%s: every value is 0: %w", name, ErrEmpty)
	}
	for k := len(components) - 1; k >= 0; k-- {
		name := components[k].Name
		if below[k] > 0 {
			positive := 0
			for _, v := range components[k].Values {
				if v > 0 {
					positive++
				}
			}
			name += belowFloorOf(below[k], positive, "segments", floor, fr.Y.Unit)
		}
		f.addLegend(name, swatch{fill: SeriesColor(k), edge: barEdge()})
	}
	f.Plot.Add(bars)
	setCategoryX(f, categories, fr.Y.Log)
	return f, nil
}

// setCategoryX labels the X axis with the categories at 0, 1, ..., gives
// each half a unit of room on either side, and sets the bars on the axis
// line with a Y axis from 0 (on a logarithmic axis, from the bars' floor,
// the lowest they reach).
func setCategoryX(f *Figure, categories []string, logY bool) {
	categoryTicks(&f.Plot.X, categories)
	f.xCategories = categories
	f.Plot.X.Min, f.Plot.X.Max = -0.5, float64(len(categories))-0.5
	f.Plot.X.Padding = 0
	if logY {
		fixLogRange(&f.Plot.Y, true)
		return
	}
	f.Plot.Y.Min = math.Min(f.Plot.Y.Min, 0)
	f.Plot.Y.Max = math.Max(f.Plot.Y.Max, 0)
}
