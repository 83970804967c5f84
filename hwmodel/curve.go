package hwmodel

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Series is one line of a Curve: Y as a function of X, point by point.
type Series struct {
	// Label tells the series apart from the others of its curve, e.g.
	// "contexts=4" or "save".
	Label string
	// X and Y are the coordinates, in the units of the curve's XLabel and
	// YLabel; they have the same length.
	X, Y []float64
}

// Add appends the point (x, y).
func (s *Series) Add(x, y float64) {
	s.X = append(s.X, x)
	s.Y = append(s.Y, y)
}

// Curve is a family of a model's series sharing their axes, e.g. the
// bandwidth against message size with one series per number of contexts:
// what a figure plots, or what a command prints as CSV.
type Curve struct {
	// Name identifies the curve, e.g. "bandwidth-division" or "table-4.3".
	Name string
	// XLabel and YLabel name the axes with their units, as CSV column
	// names: "bytes", "MB/s", "slice_ms".
	XLabel, YLabel string
	// Series are the lines, in order.
	Series []Series
}

// WriteCSV writes c as CSV: the header "series,<XLabel>,<YLabel>", then one
// record per point, the series in order. Numbers take the shortest form
// that reads back exactly (FormatNumber); infinities are "+Inf" and
// "-Inf". A series whose X and Y differ in length is an error, reported
// before anything is written.
func (c Curve) WriteCSV(w io.Writer) error {
	for _, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("writing curve %s: series %q has %d x values and %d y values", c.Name, s.Label, len(s.X), len(s.Y))
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"series", c.XLabel, c.YLabel}); err != nil {
		return fmt.Errorf("writing curve %s: %w", c.Name, err)
	}
	f := FormatNumber
	for _, s := range c.Series {
		for i := range s.X {
			if err := cw.Write([]string{s.Label, f(s.X[i]), f(s.Y[i])}); err != nil {
				return fmt.Errorf("writing curve %s: %w", c.Name, err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing curve %s: %w", c.Name, err)
	}
	return nil
}

// FormatNumber formats v in the shortest form that strconv.ParseFloat
// reads back exactly, without an exponent for magnitudes from 1e-4 up to
// 1e21 ("1048576", "0.25") and with one outside ("1e-07"); infinities are
// "+Inf" and "-Inf".
func FormatNumber(v float64) string {
	if a := math.Abs(v); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
