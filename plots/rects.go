package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rect is an axis-aligned rectangle in data coordinates: a bar, a bar
// segment, a matrix cell or a scheduled interval.
type rect struct {
	x0, x1, y0, y1 float64
	fill           color.Color
	label          string // drawn centered when it fits inside
}

// rects draws rectangles with a common outline; it is the plotter behind
// the bar charts and the Gantt charts.
type rects struct {
	rs        []rect
	edge      draw.LineStyle
	labelFont font.Font
}

func newRects(edge draw.LineStyle) *rects {
	return &rects{edge: edge, labelFont: font.From(plot.DefaultFont, tickFontSize)}
}

// minLabelSize is the smallest font a label inside a rectangle shrinks to.
const minLabelSize = vg.Length(6)

// Plot fills and outlines every rectangle and writes its label inside it
// when the label fits with a point of margin on each side, in a font
// shrunk a point at a time from 10 pt down to 6 pt if need be; a label
// that does not fit even then is left out.
func (r *rects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := text.Style{
		Color: color.Black, Font: r.labelFont,
		XAlign: draw.XCenter, YAlign: draw.YCenter,
		Handler: p.TextHandler,
	}
	margin := vg.Points(1)
	for _, q := range r.rs {
		x0, x1, y0, y1 := trX(q.x0), trX(q.x1), trY(q.y0), trY(q.y1)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		if q.fill != nil {
			c.FillPolygon(q.fill, c.ClipPolygonXY(pts))
		}
		if r.edge.Width > 0 {
			c.StrokeLines(r.edge, c.ClipLinesXY(append(pts, pts[0]))...)
		}
		if q.label == "" {
			continue
		}
		w, h := vg.Length(math.Abs(float64(x1-x0))), vg.Length(math.Abs(float64(y1-y0)))
		fits := sty
		for fits.Font.Size > minLabelSize && (fits.Width(q.label)+2*margin > w || fits.Height(q.label) > h) {
			fits.Font.Size -= vg.Points(1)
		}
		if fits.Width(q.label)+2*margin > w || fits.Height(q.label) > h {
			continue
		}
		center := vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}
		if c.Contains(center) {
			c.FillText(fits, center, q.label)
		}
	}
}

// DataRange spans every rectangle.
func (r *rects) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, q := range r.rs {
		xmin = math.Min(xmin, math.Min(q.x0, q.x1))
		xmax = math.Max(xmax, math.Max(q.x0, q.x1))
		ymin = math.Min(ymin, math.Min(q.y0, q.y1))
		ymax = math.Max(ymax, math.Max(q.y0, q.y1))
	}
	return xmin, xmax, ymin, ymax
}

// swatch is a legend thumbnail: a filled, outlined square.
type swatch struct {
	fill color.Color
	edge draw.LineStyle
}

func (s swatch) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	cx := (c.Min.X + c.Max.X) / 2
	pts := []vg.Point{{X: cx - h/2, Y: c.Min.Y}, {X: cx - h/2, Y: c.Max.Y}, {X: cx + h/2, Y: c.Max.Y}, {X: cx + h/2, Y: c.Min.Y}}
	c.FillPolygon(s.fill, pts)
	if s.edge.Width > 0 {
		c.StrokeLines(s.edge, append(pts, pts[0]))
	}
}
