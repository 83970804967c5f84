package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"

	"gonum.org/v1/plot/plotter"
)

// Sample is a named set of observations, e.g. the response times of the
// 500 shortest jobs under one policy.
type Sample struct {
	// Name identifies the sample in the legend, e.g. "FCS".
	Name string
	// Values are the observations in the unit of the figure's X axis; their
	// order does not matter.
	Values []float64
}

// CDF draws the empirical cumulative distribution of each sample, one
// step line per sample: at x the line is at the fraction of the sample's
// values <= x. Every line is continued at 1 to the largest value of all
// samples so that all of them end at the right edge. This is the kind of
// Fig. 6.13 of Frachtenberg's thesis (response times of the 500 shortest
// and the 500 longest jobs at 74% load, one line per policy); set fr.X.Log
// for a logarithmic time axis.
//
// Every value counts: a line's fraction at x is over all of its sample's
// values. On a logarithmic X axis, values below the axis floor (fr.X.Floor,
// by default the power of ten at or below the smallest positive value;
// waits of 0 are the usual case) are drawn at the floor, so the line
// starts there at the fraction of values at or below it, and the legend
// says how many of each sample lie below it.
//
// fr.X needs a label; fr.Y defaults to "Cumulative fraction of jobs" and
// cannot be logarithmic.
func CDF(fr Frame, samples []Sample) (*Figure, error) {
	if fr.Y.Label == "" {
		fr.Y.Label = "Cumulative fraction of jobs"
	}
	if err := checkLabel("X", fr.X); err != nil {
		return nil, fmt.Errorf("CDF %q: %w", fr.Title, err)
	}
	if fr.Y.Log {
		return nil, fmt.Errorf("CDF %q: Y axis: a cumulative fraction starts at 0: %w", fr.Title, ErrLogScale)
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("CDF %q: no samples: %w", fr.Title, ErrEmpty)
	}
	sorted := make([][]float64, len(samples))
	right := 0.0
	for i, s := range samples {
		if len(s.Values) == 0 {
			return nil, fmt.Errorf("CDF %q: sample %q: %w", fr.Title, s.Name, ErrEmpty)
		}
		if err := checkValues(fmt.Sprintf("sample %q", s.Name), s.Values, false); err != nil {
			return nil, fmt.Errorf("CDF %q: %w", fr.Title, err)
		}
		sorted[i] = slices.Clone(s.Values)
		slices.Sort(sorted[i])
		if i == 0 || sorted[i][len(sorted[i])-1] > right {
			right = sorted[i][len(sorted[i])-1]
		}
	}

	floor := math.Inf(-1)
	if fr.X.Log {
		floor = fr.X.logFloor(sorted...)
		right = max(right, floor)
	}
	f := newFigure(fr)
	f.Plot.Add(gridLines(true, true))
	for i, s := range samples {
		name := s.Name
		if below := belowCount(sorted[i], floor); below > 0 {
			name += belowFloor(below, len(sorted[i]), floor, fr.X.Unit)
		}
		l, err := plotter.NewLine(empiricalCDF(sorted[i], right, floor))
		if err != nil {
			return nil, fmt.Errorf("CDF %q: sample %q: %w", fr.Title, s.Name, err)
		}
		l.StepStyle = plotter.PostStep
		l.LineStyle = SeriesLineStyle(i)
		f.Plot.Add(l)
		f.addLegend(name, l)
	}
	f.Plot.Y.Min, f.Plot.Y.Max = 0, 1
	f.Plot.Y.Tick.Marker = fractionTicks()
	fixLogRange(&f.Plot.X, fr.X.Log)
	return f, nil
}

// empiricalCDF returns the corner points of the empirical CDF of the
// sorted values, to be drawn as a post-step line: (x1, 0), then one point
// (v, fraction <= v) per distinct value v, then (right, 1) when right is
// beyond the last value. Values below floor are drawn at floor, so the
// line starts at (floor, fraction <= floor); every fraction is over all
// the values. A floor of -Inf draws every value where it is.
func empiricalCDF(sorted []float64, right, floor float64) plotter.XYs {
	n := float64(len(sorted))
	at := func(v float64) float64 { return max(v, floor) }
	xys := plotter.XYs{{X: at(sorted[0]), Y: 0}}
	for i, v := range sorted {
		if i+1 < len(sorted) && at(sorted[i+1]) == at(v) {
			continue // one point per distinct drawn value, at its last rank
		}
		xys = append(xys, plotter.XY{X: at(v), Y: float64(i+1) / n})
	}
	if last := at(sorted[len(sorted)-1]); right > last {
		xys = append(xys, plotter.XY{X: right, Y: 1})
	}
	return xys
}

// belowCount is the number of sorted values below floor.
func belowCount(sorted []float64, floor float64) int {
	n, _ := slices.BinarySearch(sorted, floor)
	return n
}

// fractionTicks marks [0, 1] every 0.1, labelled every 0.2.
func fractionTicks() plot.ConstantTicks {
	var ticks plot.ConstantTicks
	for i := 0; i <= 10; i++ {
		t := plot.Tick{Value: float64(i) / 10}
		if i%2 == 0 {
			t.Label = strconv.FormatFloat(t.Value, 'f', 1, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
