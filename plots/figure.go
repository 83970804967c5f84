package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Drawer is anything that draws itself onto a canvas: a *Figure, a *Grid
// or a bare *plot.Plot. Save and Render take one.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Figure is a gonum plot with its legend drawn in a column to the right of
// the plot rather than over the data, so that the legend never hides a
// line, a box or a bar.
//
// The figure draws the axis titles itself, centered on the data area,
// instead of leaving them to gonum: gonum reserves room for a centered
// axis title at the arithmetic middle of the axis range, which on a
// logarithmic axis lies near its end and leaves a wide blank margin
// (gonum.org/v1/plot v0.17.0, verticalAxis.GlyphBoxes).
type Figure struct {
	// Plot is the plot proper. Its Legend and its axis label texts stay
	// empty (the fonts of its axis labels are used for XLabel and YLabel).
	// Callers may add plotters or restyle it before saving.
	Plot *plot.Plot
	// XLabel and YLabel are the axis titles, with their units.
	XLabel, YLabel string
	// Legend holds the entries drawn to the right of the plot, top-aligned
	// with the data area. With no entries the plot takes the whole width.
	Legend plot.Legend
	// LegendTitle is drawn above the legend's entries (Frame.Legend).
	LegendTitle string
	// legendEntries counts the entries added to Legend, which gonum does
	// not expose, and legendNames are their texts.
	legendEntries int
	legendNames   []string
	// xCategories are the names on a categorical X axis (at 0, 1, ...):
	// Draw turns them when they would overlap.
	xCategories []string
}

// figureMargin is left blank around a figure, so that nothing touches the
// image's edge.
const figureMargin = 1.5 * vg.Millimeter

// legendGap is the space between the plot's right edge and the legend.
const legendGap = 4 * vg.Millimeter

func newFigure(fr Frame) *Figure {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(plot.DefaultFont, legendFontSize)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(24)
	l.Padding = vg.Points(2)
	return &Figure{Plot: newPlot(fr), XLabel: fr.X.Text(), YLabel: fr.Y.Text(), Legend: l, LegendTitle: fr.Legend}
}

// addLegend adds a legend entry; its thumbnail is the composite of thumbs.
func (f *Figure) addLegend(name string, thumbs ...plot.Thumbnailer) {
	f.Legend.Add(name, thumbs...)
	f.legendEntries++
	f.legendNames = append(f.legendNames, name)
}

// Draw draws the figure onto c: a white background, the plot with its
// axis titles, and the legend column at the right.
func (f *Figure) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin)
	area := c
	var legendWidth vg.Length
	titleSty := f.Legend.TextStyle
	if f.legendEntries > 0 {
		r := f.Legend.Rectangle(c)
		legendWidth = r.Max.X - r.Min.X
		if f.LegendTitle != "" {
			legendWidth = max(legendWidth, titleSty.Width(f.LegendTitle)+f.Legend.Padding)
		}
		area = draw.Crop(c, 0, -(legendWidth + legendGap), 0, 0)
	}
	xsty, ysty := f.Plot.X.Label.TextStyle, f.Plot.Y.Label.TextStyle
	inner := area
	if f.XLabel != "" {
		inner.Min.Y += xsty.Height(f.XLabel) + f.Plot.X.Label.Padding
	}
	if f.YLabel != "" {
		inner.Min.X += ysty.Height(f.YLabel) + f.Plot.Y.Label.Padding
	}
	f.turnCategories(inner)
	f.Plot.Draw(inner)
	data := f.Plot.DataCanvas(inner)
	if f.XLabel != "" {
		xsty.XAlign, xsty.YAlign = draw.XCenter, draw.YBottom
		descent := xsty.FontExtents().Descent
		c.FillText(xsty, vg.Point{X: data.Center().X, Y: area.Min.Y + descent}, f.XLabel)
	}
	if f.YLabel != "" {
		ysty.XAlign, ysty.YAlign = draw.XCenter, draw.YBottom
		ysty.Rotation += math.Pi / 2
		descent := ysty.FontExtents().Descent
		x := area.Min.X + ysty.Height(f.YLabel) - descent
		c.FillText(ysty, vg.Point{X: x, Y: data.Center().Y}, f.YLabel)
	}
	if f.legendEntries > 0 {
		legendArea := c
		legendArea.Min.X = c.Max.X - legendWidth
		legendArea.Max.Y = data.Max.Y
		if f.LegendTitle != "" {
			titleSty.XAlign, titleSty.YAlign = draw.XLeft, draw.YTop
			c.FillText(titleSty, vg.Point{X: legendArea.Min.X + f.Legend.Padding, Y: legendArea.Max.Y}, f.LegendTitle)
			legendArea.Max.Y -= titleSty.Height(f.LegendTitle) + f.Legend.Padding
		}
		f.Legend.Draw(legendArea)
	}
}

// turnCategories sets the X tick labels of a categorical axis level when
// each fits in its category's width with 4 pt to spare, turned by 30
// degrees when the categories are at least 2.2 text heights apart, and
// upright otherwise. It sets the axis's ticks and depends only on the figure and the canvas, so
// drawing twice gives the same image.
func (f *Figure) turnCategories(c draw.Canvas) {
	if len(f.xCategories) == 0 {
		return
	}
	sty := &f.Plot.X.Tick.Label
	sty.Rotation, sty.XAlign, sty.YAlign = 0, draw.XCenter, draw.YTop
	categoryTicks(&f.Plot.X, f.xCategories)
	data := f.Plot.DataCanvas(c)
	spacing := (data.Max.X - data.Min.X) / vg.Length(len(f.xCategories))
	var widest, tallest vg.Length
	for _, name := range f.xCategories {
		widest = max(widest, sty.Width(name))
		tallest = max(tallest, sty.Height(name))
	}
	switch {
	case widest+vg.Points(4) <= spacing:
	case spacing >= 2.2*tallest:
		sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/6, draw.XRight, draw.YTop
	default:
		// gonum anchors tick labels a font descent above the axis; a
		// trailing space moves upright text clear of the data above.
		sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XRight, draw.YCenter
		spaced := make([]string, len(f.xCategories))
		for i, name := range f.xCategories {
			spaced[i] = name + " "
		}
		categoryTicks(&f.Plot.X, spaced)
	}
}

// Grid lays several figures out as panels of one image, like the (a), (b)
// sub-figures of the thesis (Figs. 6.9 and 6.13 have two, Fig. 6.12
// four). Panels are filled row by row; a nil panel is left blank.
//
// Drawing a Figure or a Grid settles its axis ranges and tick labels for
// the canvas, so one must not be drawn from two goroutines at once.
type Grid struct {
	// Rows and Cols count the panels down and across.
	Rows, Cols int
	// Panels are drawn row by row, at most Rows*Cols of them.
	Panels []Drawer
}

// NewGrid returns a rows x cols grid holding panels row by row. It fails
// when the grid is empty or the panels do not fit.
func NewGrid(rows, cols int, panels ...Drawer) (*Grid, error) {
	if rows <= 0 || cols <= 0 {
		return nil, fmt.Errorf("grid of %d x %d panels: %w", rows, cols, ErrEmpty)
	}
	if len(panels) > rows*cols {
		return nil, fmt.Errorf("%d panels in a grid of %d x %d: %w", len(panels), rows, cols, ErrLength)
	}
	return &Grid{Rows: rows, Cols: cols, Panels: panels}, nil
}

// gridPad is the space between two panels of a Grid.
const gridPad = 3 * vg.Millimeter

// Draw draws the panels onto c, each in an equal tile.
func (g *Grid) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if g.Rows <= 0 || g.Cols <= 0 {
		return
	}
	tiles := draw.Tiles{Rows: g.Rows, Cols: g.Cols, PadX: gridPad, PadY: gridPad}
	for i, p := range g.Panels {
		if p == nil || i >= g.Rows*g.Cols {
			continue
		}
		p.Draw(tiles.At(c, i%g.Cols, i/g.Cols))
	}
}
