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

func (c *analysisContext) metricRows() error {
	a := &c.exp.Analysis
	cols := metrics.RunColumns()
	coords, members := c.groups()
	halves := c.halves()
	type cell struct {
		coords    []repro.Coord
		half      metrics.Length
		value     float64
		saturated int
		runs      int
	}
	skip, err := c.skippedReplicas(coords, members)
	if err != nil {
		return err
	}
	var cells []cell
	for g, runs := range members {
		sums := make([][]float64, len(halves))
		counts := make([][]int, len(halves))
		for h := range halves {
			sums[h], counts[h] = make([]float64, len(a.Metrics)), make([]int, len(a.Metrics))
		}
		saturated, averaged := 0, 0
		for _, i := range runs {
			s, err := c.saturation(i)
			if err != nil {
				return err
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
				return err
			}
			procs, err := c.procs(i)
			if err != nil {
				return err
			}
			for h, half := range halves {
				jobs := o
				if half != metrics.Unclassified {
					jobs = byDedicated(o).Select(o, half)
				}
				sum := metrics.Summarize(jobs, procs, c.tau)
				vals := sum.Values()
				for k, m := range a.Metrics {
					v := vals[slices.Index(cols, m)]
					if !math.IsNaN(v) {
						sums[h][k] += v
						counts[h][k]++
					}
				}
			}
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
				cells = append(cells, cell{coords: cs, half: half, value: value,
					saturated: saturated, runs: len(runs)})
			}
		}
	}
	for _, cl := range cells {
		c.item.Rows = append(c.item.Rows, repro.Row{Coords: cl.coords, Gangsim: cl.value})
	}
	if a.X == "" {
		return nil
	}
	// One panel per metric (and half): the metric against X, a line per
	// Series value, saturated points left out unless the plot keeps them.
	var panels []panel
	for _, m := range a.Metrics {
		for _, half := range halves {
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
						return fmt.Errorf("x axis %q value %q is not a number", a.X, coordOf(cl.coords, a.X))
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
	note := "loads saturated by majority are left out"
	if a.Plot.KeepSaturated {
		note = ""
	}
	c.figure = &Drawing{title: c.exp.Title, kind: "lines", x: c.xLabel(), panels: panels, logX: a.Plot.LogX, logY: a.Plot.LogY,
		note: note, cols: len(halves)}
	return nil
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
