package analysis

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gangsim/gangsim/plots"
)

// axisLabel is an axis title and its unit.
type axisLabel struct{ Label, Unit string }

// lineData is one line of a panel: a name, and its points (for a CDF, x
// holds the sample and y is unused; for boxes, x holds the parameters and
// boxes the distributions there).
type lineData struct {
	name  string
	x, y  []float64
	boxes []plots.Percentiles
}

// panel is one plot of a drawing.
type panel struct {
	title string
	y     axisLabel
	lines []lineData
	boxes bool // percentile boxes of the lines' boxes at their x values
	steps bool // piecewise-constant lines
	cdf   bool // empirical CDFs of the lines' x values
	// categories and bars make a bar chart instead of lines: grouped bars
	// (a NaN value has no bar), or, with stacked, one stacked bar per
	// category.
	categories []string
	bars       []plots.BarSeries
	stacked    bool
	// marks, on step lines, are what a reader needs to apply the
	// saturation test's rule by eye; nil for none.
	marks *ruleMarks
}

// ruleMarks mark the saturation test's rule (metrics.Saturated) on a
// panel of step lines: grey dashed vertical lines at the first arrival,
// the test's cutoff into the arrival period and the last arrival, and,
// for each line, its clearing level (the lower quartile of what it
// plots over the arrival period) as a thick segment of the line's color
// from the cutoff to the last arrival: a line that comes down to its
// segment kept up.
type ruleMarks struct {
	verticals []float64 // x values of the vertical lines
	from, to  []float64 // per line: the x range of its level's segment
	levels    []float64 // per line: its clearing level
}

// add draws the marks onto f, whose lines are in order, and adds a legend
// entry for each kind.
func (m *ruleMarks) add(f *plots.Figure) error {
	grey := draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	v := verticalLines{xs: m.verticals, style: grey}
	f.Plot.Add(v)
	var thumb *plotter.Line
	_, logY := f.Plot.Y.Scale.(plot.LogScale)
	for i, y := range m.levels {
		if logY {
			y = max(y, f.Plot.Y.Min) // a level of 0 is drawn at the floor, as the lines are
		}
		l, err := plotter.NewLine(plotter.XYs{{X: m.from[i], Y: y}, {X: m.to[i], Y: y}})
		if err != nil {
			return err
		}
		l.LineStyle = plots.SeriesLineStyle(i)
		l.LineStyle.Width, l.LineStyle.Dashes = vg.Points(3), nil
		f.Plot.Add(l)
		if thumb == nil {
			thumb = l
		}
	}
	f.AddLegend("arrivals: first, 5/8, last", v)
	if thumb != nil {
		f.AddLegend("lower quartile, 5/8 to last", thumb)
	}
	return nil
}

// verticalLines draws vertical lines across a plot's data area.
type verticalLines struct {
	xs    []float64
	style draw.LineStyle
}

func (v verticalLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, x := range v.xs {
		X := trX(x)
		c.StrokeLine2(v.style, X, c.Min.Y, X, c.Max.Y)
	}
}

// DataRange keeps the lines within the x range and leaves the y range
// alone (an empty one: a 0 would break a logarithmic axis).
func (v verticalLines) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = v.xs[0], v.xs[0]
	for _, x := range v.xs {
		xmin, xmax = min(xmin, x), max(xmax, x)
	}
	return xmin, xmax, math.Inf(1), math.Inf(-1)
}

func (v verticalLines) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

// Drawing is an analysis's figure, built from plain data and drawn with
// package plots: one panel, or a grid of panels two across.
type Drawing struct {
	title       string
	kind        string // "lines", "steps", "cdf", "bars", "boxes"
	x           axisLabel
	panels      []panel
	logX, logY  bool
	note        string // said in the figure's title when it has one panel
	legendTitle string // what the line names are ("Policy", "Offered load")
	cols        int    // panels across; 0 is two
}

// build returns the figure and the size to draw it at.
func (d *Drawing) build() (plots.Drawer, plots.Size, error) {
	var figs []plots.Drawer
	for i, p := range d.panels {
		fr := plots.Frame{Title: p.title,
			X:      plots.Axis{Label: d.x.Label, Unit: d.x.Unit, Log: d.logX},
			Y:      plots.Axis{Label: p.y.Label, Unit: p.y.Unit, Log: d.logY && !p.cdf},
			Legend: d.legendTitle}
		if len(d.panels) == 1 && fr.Title == "" {
			fr.Title = d.title
		}
		var f *plots.Figure
		var err error
		switch {
		case len(p.categories) > 0 && p.stacked:
			f, err = plots.StackedBars(fr, p.categories, p.bars)
		case len(p.categories) > 0:
			f, err = plots.GroupedBars(fr, p.categories, p.bars)
		case p.cdf:
			var samples []plots.Sample
			for _, l := range p.lines {
				samples = append(samples, plots.Sample{Name: l.name, Values: l.x})
			}
			f, err = plots.CDF(fr, samples)
		case p.boxes:
			var series []plots.BoxSeries
			for _, l := range p.lines {
				series = append(series, plots.BoxSeries{Name: l.name, Params: l.x, Boxes: l.boxes})
			}
			f, err = plots.PercentileBoxes(fr, series)
		default:
			var series []plots.Series
			for _, l := range p.lines {
				series = append(series, plots.Series{Name: l.name, X: l.x, Y: l.y})
			}
			if p.steps {
				f, err = plots.StepLines(fr, series)
				if err == nil && p.marks != nil {
					err = p.marks.add(f)
				}
			} else {
				f, err = plots.MarkedLines(fr, series)
			}
		}
		if err != nil {
			// The plots error names the figure by its title, which a
			// panel may not have: say which panel, by its Y axis.
			return nil, plots.Size{}, fmt.Errorf("panel %d of %d (%s): %w", i+1, len(d.panels), fr.Y.Text(), err)
		}
		figs = append(figs, f)
	}
	if len(figs) == 1 {
		return figs[0], plots.DefaultSize(), nil
	}
	cols := d.cols
	if cols <= 1 {
		cols = 2
	}
	rows := (len(figs) + cols - 1) / cols
	g, err := plots.NewGrid(rows, cols, figs...)
	if err != nil {
		return nil, plots.Size{}, err
	}
	s := plots.DefaultSize()
	s.Width = vg.Length(cols) * s.Width
	s.Height = vg.Length(rows) * s.Height
	return g, s, nil
}
