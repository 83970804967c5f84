package plots

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is a named sequence of points, e.g. the mean response time of
// one policy at each offered load.
type Series struct {
	// Name identifies the series in the legend, e.g. "GS" or "78%".
	Name string
	// X and Y are the coordinates, in the units of the figure's axes.
	X, Y []float64
}

// check validates a series for a figure: non-empty, X and Y of one
// length, finite, X non-decreasing when ordered is set. Values below a
// logarithmic axis's floor are drawn at it (floored).
func (s Series) check(fr Frame, ordered bool) error {
	what := fmt.Sprintf("series %q", s.Name)
	if len(s.X) == 0 {
		return fmt.Errorf("%s: %w", what, ErrEmpty)
	}
	if len(s.X) != len(s.Y) {
		return fmt.Errorf("%s: %d x values, %d y values: %w", what, len(s.X), len(s.Y), ErrLength)
	}
	if err := checkValues(what+" x", s.X, false); err != nil {
		return err
	}
	if err := checkValues(what+" y", s.Y, false); err != nil {
		return err
	}
	if ordered {
		for i := 1; i < len(s.X); i++ {
			if s.X[i] < s.X[i-1] {
				return fmt.Errorf("%s: x value %d (%v) is below the one before (%v): %w", what, i, s.X[i], s.X[i-1], ErrValue)
			}
		}
	}
	return nil
}

// floored is a series as drawn: its points with the values below the
// floors of logarithmic axes at the floors, and its legend entry saying
// how many points were moved ("GS (3 of 20 points < 1)").
type floored struct {
	name string
	xys  plotter.XYs
}

// floorSeries applies the floors of the frame's logarithmic axes (Axis.
// drawnFloor over every series' values) to the series.
func floorSeries(fr Frame, series []Series) []floored {
	var xs, ys [][]float64
	for _, s := range series {
		xs, ys = append(xs, s.X), append(ys, s.Y)
	}
	xFloor, yFloor := fr.X.drawnFloor(xs...), fr.Y.drawnFloor(ys...)
	out := make([]floored, len(series))
	for i, s := range series {
		f := floored{name: s.Name, xys: make(plotter.XYs, len(s.X))}
		belowX, belowY := 0, 0
		for k := range s.X {
			if s.X[k] < xFloor {
				belowX++
			}
			if s.Y[k] < yFloor {
				belowY++
			}
			f.xys[k] = plotter.XY{X: max(s.X[k], xFloor), Y: max(s.Y[k], yFloor)}
		}
		if belowY > 0 {
			f.name += belowFloorOf(belowY, len(s.Y), "points", yFloor, fr.Y.Unit)
		}
		if belowX > 0 {
			f.name += belowFloorOf(belowX, len(s.X), "points with x", xFloor, fr.X.Unit)
		}
		out[i] = f
	}
	return out
}

// checkLineFigure validates the frame and series common to StepLines and
// MarkedLines.
func checkLineFigure(kind string, fr Frame, series []Series, ordered bool) error {
	name := fmt.Sprintf("%s %q", kind, fr.Title)
	if err := checkLabel("X", fr.X); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := checkLabel("Y", fr.Y); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(series) == 0 {
		return fmt.Errorf("%s: no series: %w", name, ErrEmpty)
	}
	for _, s := range series {
		if err := s.check(fr, ordered); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// StepLines draws piecewise-constant time series, one step line per
// series: Y[i] holds from X[i] until X[i+1], where the line steps to
// Y[i+1]; the last value is drawn up to X[len-1] only. X must not
// decrease. This is the kind of Fig. 6.11 of Frachtenberg's thesis (jobs
// in the system over time under GS, one line per offered load), which
// Section 6.4.4 uses to find the load at which a policy saturates.
//
// Both axes need labels. A linear Y axis starts at 0. On a logarithmic
// axis, values below its floor (Axis.Floor, by default the power of ten at
// or below the smallest positive value: the jobs in the system start at
// 0) are drawn at the floor, and the legend says how many of each line's
// points are.
func StepLines(fr Frame, series []Series) (*Figure, error) {
	if err := checkLineFigure("step lines", fr, series, true); err != nil {
		return nil, err
	}
	f := newFigure(fr)
	f.Plot.Add(gridLines(true, true))
	for i, s := range floorSeries(fr, series) {
		l, err := plotter.NewLine(s.xys)
		if err != nil {
			return nil, fmt.Errorf("step lines %q: series %q: %w", fr.Title, series[i].Name, err)
		}
		l.StepStyle = plotter.PostStep
		l.LineStyle = SeriesLineStyle(i)
		l.LineStyle.Width = vg.Points(1)
		f.Plot.Add(l)
		f.addLegend(s.name, l)
	}
	if !fr.Y.Log && f.Plot.Y.Min > 0 {
		f.Plot.Y.Min = 0
	}
	headroom(&f.Plot.Y, fr.Y.Log)
	fixLogRange(&f.Plot.X, fr.X.Log)
	fixLogRange(&f.Plot.Y, fr.Y.Log)
	return f, nil
}

// MarkedLines draws one line per series with a marker at every point, the
// markers differing in shape between series as the lines differ in color
// and dash. This is the kind of Fig. 6.12 of Frachtenberg's thesis (mean
// and median response time and bounded slowdown against offered load, one
// line per policy, each line ending at the policy's saturation load) and
// of Fig. 6.8 (metrics against the MPL). Points are joined in the order
// given.
//
// Both axes need labels. On a logarithmic axis, values below its floor
// (Axis.Floor, by default the power of ten at or below the smallest
// positive value: a median wait of 0, for one) are drawn at the floor, and
// the legend says how many of each line's points are.
func MarkedLines(fr Frame, series []Series) (*Figure, error) {
	if err := checkLineFigure("marked lines", fr, series, false); err != nil {
		return nil, err
	}
	f := newFigure(fr)
	f.Plot.Add(gridLines(true, true))
	for i, s := range floorSeries(fr, series) {
		l, pts, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return nil, fmt.Errorf("marked lines %q: series %q: %w", fr.Title, series[i].Name, err)
		}
		l.LineStyle = SeriesLineStyle(i)
		pts.GlyphStyle = draw.GlyphStyle{Color: SeriesColor(i), Radius: vg.Points(glyphRadius), Shape: SeriesGlyph(i)}
		f.Plot.Add(l, pts)
		f.addLegend(s.name, l, pts)
	}
	headroom(&f.Plot.Y, fr.Y.Log)
	fixLogRange(&f.Plot.X, fr.X.Log)
	fixLogRange(&f.Plot.Y, fr.Y.Log)
	return f, nil
}
