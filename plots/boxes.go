package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Percentiles summarizes a distribution the way Figs. 6.9 and 6.10 of
// Frachtenberg's thesis draw it (Section 6.4.3: "the median ... the 25%
// and 75% percentiles (top and bottom edges of box), and the 5% and 95%
// percentiles (whiskers extending up and down)").
type Percentiles struct {
	P5, P25, P50, P75, P95 float64
}

// values returns the five percentiles in increasing rank.
func (p Percentiles) values() []float64 { return []float64{p.P5, p.P25, p.P50, p.P75, p.P95} }

// BoxSeries is one distribution per parameter value, e.g. the response
// times on one cluster for each time quantum.
type BoxSeries struct {
	// Name identifies the series in the legend, e.g. "Crescendo".
	Name string
	// Params are the parameter values (X axis unit), e.g. quanta in ms.
	Params []float64
	// Boxes[i] summarizes the distribution at Params[i].
	Boxes []Percentiles
}

// PercentileBoxes draws, against a parameter, one box per distribution:
// the box spans the 25th to the 75th percentile with a black line at the
// median, whiskers reach the 5th and the 95th percentile. Several series
// stand side by side at each parameter value. This is the kind of Figs.
// 6.9 and 6.10 of Frachtenberg's thesis (response time and bounded
// slowdown against the time quantum, both axes logarithmic, one series per
// cluster) and fits Fig. 6.8 (against the MPL) as well. The X axis is
// labelled at exactly the parameter values.
//
// Both axes need labels; on a logarithmic X axis every parameter must be
// positive. On a logarithmic Y axis, percentiles below its floor (fr.Y.Floor,
// by default the power of ten at or below the smallest positive
// percentile) are drawn at the floor, and the legend says how many of each
// series' percentiles are.
func PercentileBoxes(fr Frame, series []BoxSeries) (*Figure, error) {
	name := fmt.Sprintf("percentile boxes %q", fr.Title)
	if err := checkLabel("X", fr.X); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkLabel("Y", fr.Y); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("%s: no series: %w", name, ErrEmpty)
	}
	var params []float64
	for _, s := range series {
		what := fmt.Sprintf("%s: series %q", name, s.Name)
		if len(s.Params) == 0 {
			return nil, fmt.Errorf("%s: %w", what, ErrEmpty)
		}
		if len(s.Params) != len(s.Boxes) {
			return nil, fmt.Errorf("%s: %d parameters, %d boxes: %w", what, len(s.Params), len(s.Boxes), ErrLength)
		}
		if err := checkValues(what+" parameters", s.Params, fr.X.Log); err != nil {
			return nil, err
		}
		for i, b := range s.Boxes {
			vs := b.values()
			if err := checkValues(fmt.Sprintf("%s box %d", what, i), vs, false); err != nil {
				return nil, err
			}
			if !slices.IsSorted(vs) {
				return nil, fmt.Errorf("%s box %d: percentiles %v out of order: %w", what, i, vs, ErrValue)
			}
		}
		params = append(params, s.Params...)
	}
	slices.Sort(params)
	params = slices.Compact(params)

	f := newFigure(fr)
	f.Plot.Add(gridLines(false, true))
	floor := math.Inf(-1)
	if fr.Y.Log {
		var all []float64
		for _, s := range series {
			for _, b := range s.Boxes {
				all = append(all, b.values()...)
			}
		}
		floor = fr.Y.logFloor(all)
	}
	for i, s := range series {
		b := &percentileBoxes{
			params: s.Params, boxes: make([]Percentiles, len(s.Boxes)), allParams: params,
			slot: i, slots: len(series), index: i,
		}
		below := 0
		for k, q := range s.Boxes {
			for _, v := range q.values() {
				if v < floor {
					below++
				}
			}
			b.boxes[k] = Percentiles{max(q.P5, floor), max(q.P25, floor), max(q.P50, floor), max(q.P75, floor), max(q.P95, floor)}
		}
		name := s.Name
		if below > 0 {
			name += fmt.Sprintf(" (%d of %d percentiles < %s%s)", below, 5*len(s.Boxes), formatNumber(floor), unitSuffix(fr.Y.Unit))
		}
		f.Plot.Add(b)
		f.addLegend(name, b)
	}
	f.Plot.X.Tick.Marker = valueTicks(params)
	// Leave room for the outermost boxes: 0.6 of the closest spacing of two
	// parameter values on either side, measured on the axis's scale.
	toScale, fromScale := scaleFuncs(fr.X.Log)
	gap := closestGap(params, toScale)
	f.Plot.X.Min = fromScale(toScale(params[0]) - 0.6*gap)
	f.Plot.X.Max = fromScale(toScale(params[len(params)-1]) + 0.6*gap)
	fixLogRange(&f.Plot.Y, fr.Y.Log)
	return f, nil
}

// scaleFuncs returns the map from data values to axis positions (log10 for
// a logarithmic axis) and its inverse.
func scaleFuncs(log bool) (to, from func(float64) float64) {
	if log {
		return math.Log10, func(v float64) float64 { return math.Pow(10, v) }
	}
	id := func(v float64) float64 { return v }
	return id, id
}

// closestGap is the smallest distance, on the axis's scale, between two
// consecutive sorted distinct values; 1 (one unit or one decade) for a
// single value.
func closestGap(sorted []float64, toScale func(float64) float64) float64 {
	gap := math.Inf(1)
	for i := 1; i < len(sorted); i++ {
		gap = math.Min(gap, toScale(sorted[i])-toScale(sorted[i-1]))
	}
	if math.IsInf(gap, 1) {
		return 1
	}
	return gap
}

// percentileBoxes is the plotter of one BoxSeries. gonum's BoxPlot draws
// Tukey whiskers (1.5 interquartile ranges) and takes raw values; this one
// draws given percentiles with 5/95 whiskers.
type percentileBoxes struct {
	params    []float64
	boxes     []Percentiles
	allParams []float64 // every parameter value of the figure, sorted
	slot      int       // this series' place among the series at a parameter
	slots     int       // number of series side by side
	index     int       // style index
}

// groupWidthFraction is the part of the closest spacing of two parameter
// values that the boxes of all series at one value take together, and
// boxFraction the part of its slot one box takes.
const (
	groupWidthFraction = 0.7
	boxFraction        = 0.8
)

// Plot draws the boxes; their width follows from the closest spacing of two
// parameter values on the drawn canvas, so it scales with the figure.
func (b *percentileBoxes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	gap := c.Max.X - c.Min.X
	for i := 1; i < len(b.allParams); i++ {
		if d := trX(b.allParams[i]) - trX(b.allParams[i-1]); d < gap {
			gap = d
		}
	}
	if len(b.allParams) == 1 {
		gap = (c.Max.X - c.Min.X) / 2
	}
	group := gap * groupWidthFraction
	slot := group / vg.Length(b.slots)
	half := slot * boxFraction / 2
	fill := SeriesTint(b.index, 0.65)
	edge := draw.LineStyle{Color: SeriesColor(b.index), Width: vg.Points(1.2)}
	median := draw.LineStyle{Color: color.Black, Width: vg.Points(2)}
	for i, x := range b.params {
		q := b.boxes[i]
		cx := trX(x) - group/2 + slot*(vg.Length(b.slot)+0.5)
		y5, y25, y50, y75, y95 := trY(q.P5), trY(q.P25), trY(q.P50), trY(q.P75), trY(q.P95)
		box := []vg.Point{{X: cx - half, Y: y25}, {X: cx - half, Y: y75}, {X: cx + half, Y: y75}, {X: cx + half, Y: y25}}
		c.FillPolygon(fill, c.ClipPolygonXY(box))
		c.StrokeLines(edge, c.ClipLinesXY(
			[]vg.Point{{X: cx, Y: y75}, {X: cx, Y: y95}},
			[]vg.Point{{X: cx, Y: y25}, {X: cx, Y: y5}},
			[]vg.Point{{X: cx - half/2, Y: y95}, {X: cx + half/2, Y: y95}},
			[]vg.Point{{X: cx - half/2, Y: y5}, {X: cx + half/2, Y: y5}},
			append(box, box[0]),
		)...)
		c.StrokeLines(median, c.ClipLinesXY([]vg.Point{{X: cx - half, Y: y50}, {X: cx + half, Y: y50}})...)
	}
}

// DataRange spans the parameters and the 5th to 95th percentiles.
func (b *percentileBoxes) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = slices.Min(b.params), slices.Max(b.params)
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, q := range b.boxes {
		ymin, ymax = math.Min(ymin, q.P5), math.Max(ymax, q.P95)
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws a small box with its median for the legend.
func (b *percentileBoxes) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	cx := (c.Min.X + c.Max.X) / 2
	half := h * 0.45
	box := []vg.Point{{X: cx - half, Y: c.Min.Y}, {X: cx - half, Y: c.Max.Y}, {X: cx + half, Y: c.Max.Y}, {X: cx + half, Y: c.Min.Y}}
	c.FillPolygon(SeriesTint(b.index, 0.65), box)
	c.StrokeLines(draw.LineStyle{Color: SeriesColor(b.index), Width: vg.Points(1.2)}, append(box, box[0]))
	c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(2)}, cx-half, c.Center().Y, cx+half, c.Center().Y)
}
