package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/repro"
)

// metricCell is one row of a "metrics" item: a metric's mean over a
// group's averaged runs (in one half), and how many of them saturated.
type metricCell struct {
	coords    []repro.Coord
	half      metrics.Length
	value     float64
	saturated int
	runs      int
}

func (c *analysisContext) metricRows() error {
	a := &c.exp.Analysis
	cells, err := c.metricCells()
	if err != nil {
		return err
	}
	for _, cl := range cells {
		c.item.Rows = append(c.item.Rows, repro.Row{Coords: cl.coords, Gangsim: cl.value})
	}
	if a.X == "" {
		return nil
	}
	panels, err := c.metricPanels(cells)
	if err != nil {
		return err
	}
	note := "loads saturated by majority are left out"
	if a.Plot.KeepSaturated {
		note = ""
	}
	c.figure = &Drawing{title: c.exp.Title, kind: "lines", x: c.xLabel(), panels: panels, logX: a.Plot.LogX, logY: a.Plot.LogY,
		note: note, cols: len(c.halves())}
	return nil
}

// metricCells returns the cells of every group, half and metric, in that
// order.
func (c *analysisContext) metricCells() ([]metricCell, error) {
	a := &c.exp.Analysis
	coords, members := c.groups()
	halves := c.halves()
	skip, err := c.skippedReplicas(coords, members)
	if err != nil {
		return nil, err
	}
	var cells []metricCell
	for g, runs := range members {
		sums, counts, saturated, averaged, err := c.metricSums(runs, skip, halves)
		if err != nil {
			return nil, err
		}
		for h, half := range halves {
			for k, m := range a.Metrics {
				cs := slices.Clone(coords[g])
				if a.Halves {
					cs = append(cs, repro.Coord{Name: "half", Value: halfName(half)})
				}
				cs = append(cs, repro.Coord{Name: "saturated", Value: fmt.Sprintf("%d/%d", saturated, len(runs))},
					repro.Coord{Name: "averaged", Value: fmt.Sprintf("%d/%d", averaged, len(runs))},
					repro.Coord{Name: "metric", Value: m})
				value := math.NaN()
				if counts[h][k] > 0 {
					value = sums[h][k] / float64(counts[h][k])
				}
				cells = append(cells, metricCell{coords: cs, half: half, value: value,
					saturated: saturated, runs: len(runs)})
			}
		}
	}
	return cells, nil
}

// metricSums sums each half's metrics over the runs of a group that skip
// leaves, counting the values that are numbers, and counts the runs that
// saturated and those averaged.
func (c *analysisContext) metricSums(runs []int, skip map[int]bool, halves []metrics.Length) (sums [][]float64, counts [][]int, saturated, averaged int, err error) {
	a := &c.exp.Analysis
	cols := metrics.RunColumns()
	sums = make([][]float64, len(halves))
	counts = make([][]int, len(halves))
	for h := range halves {
		sums[h], counts[h] = make([]float64, len(a.Metrics)), make([]int, len(a.Metrics))
	}
	for _, i := range runs {
		s, err := c.saturation(i)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		if s.Saturated {
			saturated++
		}
		if skip[i] {
			continue
		}
		averaged++
		o, err := c.load(i)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		procs, err := c.procs(i)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		for h, half := range halves {
			jobs := o
			if half != metrics.Unclassified {
				jobs = byDedicated(o).Select(o, half)
			}
			sum := metrics.Summarize(jobs, procs, c.tau)
			vals := sum.Values()
			for k, m := range a.Metrics {
				if v := vals[slices.Index(cols, m)]; !math.IsNaN(v) {
					sums[h][k] += v
					counts[h][k]++
				}
			}
		}
	}
	return sums, counts, saturated, averaged, nil
}

// metricPanels draws one panel per metric (and half): the metric against
// X, a line per Series value, saturated points left out unless the plot
// keeps them.
func (c *analysisContext) metricPanels(cells []metricCell) ([]panel, error) {
	a := &c.exp.Analysis
	var panels []panel
	for _, m := range a.Metrics {
		for _, half := range c.halves() {
			p := panel{y: metricLabel(m)}
			if a.Halves {
				p.title = halfTitle(half)
			}
			for _, s := range c.seriesValues() {
				line := lineData{name: c.seriesName(s)}
				for _, cl := range cells {
					if coordOf(cl.coords, "metric") != m || cl.half != half || (a.Series != "" && coordOf(cl.coords, a.Series) != s) {
						continue
					}
					if !a.Plot.KeepSaturated && metrics.MajoritySaturated(cl.saturated, cl.runs) || math.IsNaN(cl.value) {
						continue
					}
					x, err := strconv.ParseFloat(coordOf(cl.coords, a.X), 64)
					if err != nil {
						return nil, fmt.Errorf("x axis %q value %q is not a number", a.X, coordOf(cl.coords, a.X))
					}
					line.x = append(line.x, x)
					line.y = append(line.y, cl.value)
				}
				if len(line.x) > 0 {
					p.lines = append(p.lines, line)
				}
			}
			panels = append(panels, p)
		}
	}
	return panels, nil
}

// skippedReplicas returns the runs a "metrics" point does not average: none
// with Plot.KeepSaturated; with Paired, the runs of the replicas that some
// Series value saturated at the same other coordinates; else the runs that
// saturated.
func (c *analysisContext) skippedReplicas(coords [][]repro.Coord, members [][]int) (map[int]bool, error) {
	a := &c.exp.Analysis
	skip := map[int]bool{}
	if a.Plot.KeepSaturated {
		return skip, nil
	}
	// others is a group's coordinates without the series.
	others := func(g int) string {
		var b strings.Builder
		for _, co := range coords[g] {
			if co.Name != a.Series {
				b.WriteString(co.Value + "\x00")
			}
		}
		return b.String()
	}
	bad := map[string]bool{} // others + replica: saturated under some series
	for g, runs := range members {
		for _, i := range runs {
			s, err := c.saturation(i)
			if err != nil {
				return nil, err
			}
			if s.Saturated {
				skip[i] = true
				bad[others(g)+c.runs[i].Point.Text(a.Replicas)] = true
			}
		}
	}
	if a.Paired {
		for g, runs := range members {
			for _, i := range runs {
				if bad[others(g)+c.runs[i].Point.Text(a.Replicas)] {
					skip[i] = true
				}
			}
		}
	}
	return skip, nil
}
