package pipelines

import (
	"fmt"

	"gonum.org/v1/plot/vg"

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
