package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Drawer is anything that draws itself onto a canvas: a *Figure, a *Grid
// or a bare *plot.Plot. Save and Render take one.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Figure is a gonum plot with its legend drawn in a column to the right of
// the plot (or in rows below it, when the column would take more than a
// third of the width) rather than over the data, so that the legend never
// hides a line, a box or a bar.
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
	// not expose, legendNames are their texts and legendThumbs their
	// thumbnails (for a legend laid out below the plot).
	legendEntries int
	legendNames   []string
	legendThumbs  [][]plot.Thumbnailer
	// scale is the typography's scale while the figure is drawn (fitTo),
	// 1 otherwise.
	scale float64
	// xCategories are the names on a categorical X axis (at 0, 1, ...):
	// Draw turns them when they would overlap.
	xCategories []string
	// hideLegend leaves the legend out while a Grid draws it once for
	// all its panels.
	hideLegend bool
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
	return &Figure{Plot: newPlot(fr), XLabel: fr.X.Text(), YLabel: fr.Y.Text(), Legend: l, LegendTitle: fr.Legend, scale: 1}
}

// AddLegend adds an entry to the figure's legend, its thumbnail the
// composite of thumbs: for plotters a caller adds to Plot (marks, guides),
// so that the entry is laid out, and shared by a Grid, as the series' are.
func (f *Figure) AddLegend(name string, thumbs ...plot.Thumbnailer) {
	f.addLegend(name, thumbs...)
}

// addLegend adds a legend entry; its thumbnail is the composite of thumbs.
func (f *Figure) addLegend(name string, thumbs ...plot.Thumbnailer) {
	f.Legend.Add(name, thumbs...)
	f.legendEntries++
	f.legendNames = append(f.legendNames, name)
	f.legendThumbs = append(f.legendThumbs, thumbs)
}

// Draw draws the figure onto c: a white background, the plot with its
// axis titles, and the legend column at the right, or below the plot when
// a column would take more than a third of the width. The typography
// scales with c (fitTo): a figure or panel smaller than 16 x 10 cm gets
// smaller fonts, fewer tick labels where they would overlap, and titles
// shrunk to fit, so that a paper's 3.3-inch column figure stays readable.
// Drawing leaves the figure's styles as they were.
func (f *Figure) Draw(c draw.Canvas) {
	defer f.fitTo(c)()
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin)
	area := c
	var legendWidth vg.Length
	var below *legendRows
	titleSty := f.Legend.TextStyle
	gap := vg.Length(float64(legendGap) * f.scale)
	if f.legendEntries > 0 && !f.hideLegend {
		r := f.Legend.Rectangle(c)
		legendWidth = r.Max.X - r.Min.X
		if f.LegendTitle != "" {
			legendWidth = max(legendWidth, titleSty.Width(f.LegendTitle)+f.Legend.Padding)
		}
		if legendWidth+gap > (c.Max.X-c.Min.X)/3 {
			below = f.legendBelow(c.Max.X - c.Min.X)
			area = draw.Crop(c, 0, 0, below.height+gap/2, 0)
		} else {
			area = draw.Crop(c, 0, -(legendWidth + gap), 0, 0)
		}
	}
	xsty, ysty := f.Plot.X.Label.TextStyle, f.Plot.Y.Label.TextStyle
	inner := area
	if f.XLabel != "" {
		inner.Min.Y += xsty.Height(f.XLabel) + f.Plot.X.Label.Padding
	}
	if f.YLabel != "" {
		inner.Min.X += ysty.Height(f.YLabel) + f.Plot.Y.Label.Padding
	}
	f.fitTitle(inner.Max.X - inner.Min.X)
	f.turnCategories(inner)
	f.thinTicks(inner)
	f.Plot.Draw(inner)
	data := f.Plot.DataCanvas(inner)
	if f.XLabel != "" {
		xsty = shrinkToFit(xsty, f.XLabel, area.Max.X-area.Min.X, f.Plot.X.Tick.Label.Font.Size)
		xsty.XAlign, xsty.YAlign = draw.XCenter, draw.YBottom
		descent := xsty.FontExtents().Descent
		x := data.Center().X
		// Centered on the data, but inside the figure.
		half := xsty.Width(f.XLabel) / 2
		x = max(min(x, area.Max.X-half), area.Min.X+half)
		c.FillText(xsty, vg.Point{X: x, Y: area.Min.Y + descent}, f.XLabel)
	}
	if f.YLabel != "" {
		ysty = shrinkToFit(ysty, f.YLabel, area.Max.Y-area.Min.Y, f.Plot.Y.Tick.Label.Font.Size)
		ysty.XAlign, ysty.YAlign = draw.XCenter, draw.YBottom
		ysty.Rotation += math.Pi / 2
		descent := ysty.FontExtents().Descent
		x := area.Min.X + ysty.Height(f.YLabel) - descent
		y := data.Center().Y
		half := ysty.Width(f.YLabel) / 2
		y = max(min(y, area.Max.Y-half), area.Min.Y+half)
		c.FillText(ysty, vg.Point{X: x, Y: y}, f.YLabel)
	}
	switch {
	case below != nil:
		below.draw(c, data)
	case f.legendEntries > 0 && !f.hideLegend:
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

// Typography of smaller figures: a figure or panel of referenceWidth x
// referenceHeight or more (a 16 x 10 cm figure less its margins, or a
// panel of a grid of them) is drawn as designed; a smaller one scales its
// fonts, paddings and legend by the square root of its relative size (a
// 3.3 x 2.2 in figure by 0.72: ticks of 7 pt), down to minTypeScale.
const (
	referenceWidth  = 15.5 * vg.Centimeter
	referenceHeight = 9.5 * vg.Centimeter
	minTypeScale    = 0.6
)

// typeScale is the factor fitTo scales a figure drawn on c by.
func typeScale(c draw.Canvas) float64 {
	w := float64((c.Max.X - c.Min.X) / referenceWidth)
	h := float64((c.Max.Y - c.Min.Y) / referenceHeight)
	return max(minTypeScale, min(1, math.Sqrt(min(w, h))))
}

// fitTo scales the figure's typography for canvas c (typeScale) and
// returns the function that restores it, so that drawing twice, or at
// another size, gives what drawing once does.
func (f *Figure) fitTo(c draw.Canvas) (restore func()) {
	p := f.Plot
	title, xl, yl, xt, yt := p.Title, p.X.Label, p.Y.Label, p.X.Tick, p.Y.Tick
	legend := f.Legend
	restore = func() {
		p.Title, p.X.Label, p.Y.Label, p.X.Tick, p.Y.Tick = title, xl, yl, xt, yt
		f.Legend = legend
		f.scale = 1
	}
	s := typeScale(c)
	f.scale = s
	if s == 1 {
		return restore
	}
	scale := func(l *vg.Length) { *l = vg.Length(float64(*l) * s) }
	scale(&p.Title.TextStyle.Font.Size)
	scale(&p.Title.Padding)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		scale(&a.Label.TextStyle.Font.Size)
		scale(&a.Label.Padding)
		scale(&a.Tick.Label.Font.Size)
		scale(&a.Tick.Length)
	}
	scale(&f.Legend.TextStyle.Font.Size)
	scale(&f.Legend.ThumbnailWidth)
	scale(&f.Legend.Padding)
	return restore
}

// shrinkToFit returns sty with its font made smaller, down to least, until
// txt is at most width long.
func shrinkToFit(sty text.Style, txt string, width, least vg.Length) text.Style {
	for sty.Width(txt) > width && sty.Font.Size > least {
		sty.Font.Size = max(least, sty.Font.Size-vg.Points(0.5))
	}
	return sty
}

// fitTitle shrinks the plot's title, down to the tick labels' size, until
// it fits width; a title still too wide is broken into two lines at the
// space nearest its middle.
func (f *Figure) fitTitle(width vg.Length) {
	t := &f.Plot.Title
	if t.Text == "" {
		return
	}
	t.TextStyle = shrinkToFit(t.TextStyle, t.Text, width, f.Plot.X.Tick.Label.Font.Size)
	if t.TextStyle.Width(t.Text) <= width || strings.Contains(t.Text, "\n") {
		return
	}
	mid, best := len(t.Text)/2, -1
	for i, r := range t.Text {
		if r == ' ' && (best < 0 || abs(i-mid) < abs(best-mid)) {
			best = i
		}
	}
	if best > 0 {
		t.Text = t.Text[:best] + "\n" + t.Text[best+1:]
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// tickGap is the least space between two tick labels, in multiples of
// their font size.
const tickGap = 0.6

// thinTicks leaves labels off ticks where neighbouring labels would
// overlap or nearly touch on canvas c (a narrow figure, a log axis of many
// decades): every second labelled tick keeps its label, or every third...,
// the first that fits, keeping the label at 0 or 1 if there is one. The
// ticks stay, unlabelled. A categorical X axis is left to turnCategories.
func (f *Figure) thinTicks(c draw.Canvas) {
	data := f.Plot.DataCanvas(c)
	f.Plot.Y.Tick.Marker = thinned(f.Plot.Y, data.Max.Y-data.Min.Y, func(t plot.Tick) vg.Length {
		return f.Plot.Y.Tick.Label.Height(t.Label)
	})
	if len(f.xCategories) > 0 {
		return
	}
	data = f.Plot.DataCanvas(c)
	f.Plot.X.Tick.Marker = thinned(f.Plot.X, data.Max.X-data.Min.X, func(t plot.Tick) vg.Length {
		return f.Plot.X.Tick.Label.Width(t.Label)
	})
}

// thinned returns axis a's tick marker for an axis length long, with the
// labels kept as thinTicks says; extent measures a label along the axis.
func thinned(a plot.Axis, length vg.Length, extent func(plot.Tick) vg.Length) plot.Ticker {
	ticks := a.Tick.Marker.Ticks(a.Min, a.Max)
	var labelled []int
	for i, t := range ticks {
		if t.Label != "" && t.Value >= a.Min && t.Value <= a.Max {
			labelled = append(labelled, i)
		}
	}
	gap := vg.Length(tickGap * float64(a.Tick.Label.Font.Size))
	fits := func(keep []int) bool {
		for k := 1; k < len(keep); k++ {
			t0, t1 := ticks[keep[k-1]], ticks[keep[k]]
			d := vg.Length(a.Norm(t1.Value)-a.Norm(t0.Value)) * length
			if d < 0 {
				d = -d
			}
			if d < (extent(t0)+extent(t1))/2+gap {
				return false
			}
		}
		return true
	}
	if fits(labelled) {
		return a.Tick.Marker
	}
	for step := 2; step <= len(labelled); step++ { // at the last, one label
		phase := 0
		for k, i := range labelled {
			if v := ticks[i].Value; v == 0 || v == 1 {
				phase = k % step
				break
			}
		}
		var keep []int
		for k := phase; k < len(labelled); k += step {
			keep = append(keep, labelled[k])
		}
		if fits(keep) {
			out := make(plot.ConstantTicks, len(ticks))
			copy(out, ticks)
			for _, i := range labelled {
				if !slices.Contains(keep, i) {
					out[i].Label = ""
				}
			}
			return out
		}
	}
	return a.Tick.Marker
}

// legendRows is a legend laid out below the plot: its title, then the
// entries in rows of columns, centered under the data area.
type legendRows struct {
	title       string
	titleStyle  text.Style
	columns     []plot.Legend // column k holds entries k, k+cols, ...
	colWidth    vg.Length
	titleWidth  vg.Length
	height      vg.Length
	entryHeight vg.Length // of a row, as plot.Legend measures it
}

// legendBelow lays the legend out in as many columns as fit width, the
// font shrunk (down to 5 pt) when one entry is wider than that.
func (f *Figure) legendBelow(width vg.Length) *legendRows {
	l := f.Legend
	entryWidth := func() vg.Length {
		var w vg.Length
		for _, name := range f.legendNames {
			w = max(w, l.ThumbnailWidth+l.TextStyle.Width(" "+name))
		}
		return w + 2*l.Padding
	}
	for entryWidth() > width && l.TextStyle.Font.Size > vg.Points(5) {
		l.TextStyle.Font.Size -= vg.Points(0.5)
	}
	r := &legendRows{title: f.LegendTitle, titleStyle: l.TextStyle, colWidth: entryWidth()}
	for _, name := range f.legendNames {
		r.entryHeight = max(r.entryHeight, l.TextStyle.Rectangle(name).Max.Y)
	}
	if r.title != "" {
		r.titleWidth = l.TextStyle.Width(r.title+": ") + l.Padding
	}
	cols := max(1, int((width-r.titleWidth)/r.colWidth))
	if r.titleWidth+vg.Length(cols)*r.colWidth > width && r.titleWidth > 0 {
		// The title takes a line of its own.
		r.height = l.TextStyle.Height(r.title) + l.Padding
		r.titleWidth = 0
		cols = max(1, int(width/r.colWidth))
	}
	cols = min(cols, len(f.legendNames))
	for k := 0; k < cols; k++ {
		col := plot.NewLegend()
		col.TextStyle, col.Padding, col.ThumbnailWidth = l.TextStyle, l.Padding, l.ThumbnailWidth
		col.Top, col.Left = true, true
		for i := k; i < len(f.legendNames); i += cols {
			col.Add(f.legendNames[i], f.legendThumbs[i]...)
		}
		r.columns = append(r.columns, col)
	}
	rect := r.columns[0].Rectangle(draw.Canvas{})
	r.height += rect.Max.Y - rect.Min.Y
	return r
}

// draw draws the legend rows at the bottom of c, centered under data.
func (r *legendRows) draw(c draw.Canvas, data draw.Canvas) {
	width := r.titleWidth + vg.Length(len(r.columns))*r.colWidth
	left := data.Center().X - width/2
	left = max(c.Min.X, min(left, c.Max.X-width))
	top := c.Min.Y + r.height
	sty := r.titleStyle
	if r.title != "" {
		if r.titleWidth > 0 {
			// On the first row's baseline, placed as plot.Legend places
			// an entry's text.
			descent := sty.FontExtents().Descent
			y := top - r.entryHeight - descent + (r.entryHeight-descent-sty.Rectangle(r.title).Max.Y)/2 + descent
			c.FillText(sty, vg.Point{X: left, Y: y}, r.title+":")
		} else {
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
			c.FillText(sty, vg.Point{X: left, Y: top}, r.title+":")
			top -= sty.Height(r.title) + r.columns[0].Padding
		}
	}
	for k := range r.columns {
		cell := c
		cell.Min.X = left + r.titleWidth + vg.Length(k)*r.colWidth
		cell.Max.X = cell.Min.X + r.colWidth
		cell.Max.Y = top
		r.columns[k].Draw(cell)
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
		// Upright labels closer than their height (32 processors on a
		// column-wide figure) are given to every second category, or
		// every third..., counting from the first.
		sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XRight, draw.YCenter
		every := max(1, int(math.Ceil(float64(1.15*tallest/spacing))))
		spaced := make([]string, len(f.xCategories))
		for i, name := range f.xCategories {
			if i%every == 0 {
				spaced[i] = name + " "
			}
		}
		categoryTicks(&f.Plot.X, spaced)
	}
}

// Grid lays several figures out as panels of one image, like the (a), (b)
// sub-figures of the thesis (Figs. 6.9 and 6.13 have two, Fig. 6.12
// four). Panels are filled row by row; a nil panel is left blank. When
// every panel is a Figure with the same legend (the same title and
// entries, in order), the grid draws that legend once, below the panels
// and centered, instead of once per panel.
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

// sharedLegend returns the figure whose legend stands for every panel's,
// or nil when the panels' legends differ (or there is one panel or none).
func (g *Grid) sharedLegend() *Figure {
	var first *Figure
	n := 0
	for _, p := range g.Panels {
		if p == nil {
			continue
		}
		f, ok := p.(*Figure)
		if !ok || f.legendEntries == 0 {
			return nil
		}
		if first == nil {
			first = f
		} else if f.LegendTitle != first.LegendTitle || !slices.Equal(f.legendNames, first.legendNames) {
			return nil
		}
		n++
	}
	if n < 2 {
		return nil
	}
	return first
}

// Draw draws the panels onto c, each in an equal tile, and their shared
// legend, if any, once below them.
func (g *Grid) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if g.Rows <= 0 || g.Cols <= 0 {
		return
	}
	area := c
	var below *legendRows
	shared := g.sharedLegend()
	if shared != nil {
		// Laid out in the typography of a panel (fitTo on a tile), across
		// the whole width.
		tile := draw.Tiles{Rows: g.Rows, Cols: g.Cols, PadX: gridPad, PadY: gridPad}.At(c, 0, 0)
		restore := shared.fitTo(tile)
		inner := draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin)
		width := inner.Max.X - inner.Min.X
		below = shared.legendBelow(width)
		gap := vg.Length(float64(legendGap) * shared.scale)
		// Room between the entries of a row, where it fits.
		if n := vg.Length(len(below.columns)); below.titleWidth+n*(below.colWidth+gap) <= width {
			below.colWidth += gap
		}
		restore()
		area = draw.Crop(c, 0, 0, below.height+gap/2+figureMargin, 0)
		for _, p := range g.Panels {
			if f, ok := p.(*Figure); ok {
				f.hideLegend = true
				defer func() { f.hideLegend = false }()
			}
		}
	}
	tiles := draw.Tiles{Rows: g.Rows, Cols: g.Cols, PadX: gridPad, PadY: gridPad}
	for i, p := range g.Panels {
		if p == nil || i >= g.Rows*g.Cols {
			continue
		}
		p.Draw(tiles.At(area, i%g.Cols, i/g.Cols))
	}
	if below != nil {
		below.draw(draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin), c)
	}
}
