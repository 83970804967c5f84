package analysis

import (
	"fmt"
	"strconv"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
	"github.com/gangsim/gangsim/repro"
)

func (c *analysisContext) cdf() error {
	a := &c.exp.Analysis
	metric := a.Metrics[0]
	halves := []metrics.Length{metrics.Unclassified}
	if a.Halves {
		halves = []metrics.Length{metrics.Short, metrics.Long}
	}
	var panels []panel
	for _, h := range halves {
		p := panel{y: axisLabel{Label: "Cumulative fraction of jobs"}, cdf: true}
		if h != metrics.Unclassified {
			p.title = h.String() + " half"
		}
		for _, s := range c.seriesValues() {
			var values []float64
			for i, f := range c.runs {
				if a.Series != "" && f.Point.Text(a.Series) != s {
					continue
				}
				o, err := c.load(i)
				if err != nil {
					return err
				}
				if h != metrics.Unclassified {
					o = byDedicated(o).Select(o, h)
				}
				values = append(values, jobValues(metrics.PerJob(o, c.tau), metric)...)
			}
			d := metrics.Describe(values)
			for _, st := range []struct {
				name string
				v    float64
			}{{"mean", d.Mean}, {"p5", d.P5}, {"p25", d.P25}, {"median", d.Median}, {"p75", d.P75}, {"p95", d.P95}} {
				var cs []repro.Coord
				if a.Series != "" {
					cs = append(cs, repro.Coord{Name: a.Series, Value: s})
				}
				cs = append(cs, repro.Coord{Name: "half", Value: halfName(h)}, repro.Coord{Name: "statistic", Value: st.name})
				c.item.Rows = append(c.item.Rows, repro.Row{Coords: cs, Gangsim: st.v})
			}
			p.lines = append(p.lines, lineData{name: c.seriesName(s), x: values})
		}
		panels = append(panels, p)
	}
	l := metricLabel(metric)
	c.figure = &Drawing{title: c.exp.Title, kind: "cdf", x: l, panels: panels, logX: a.Plot.LogX}
	return nil
}

// jobValues returns one per-job metric (one of jobMetrics) of m.
func jobValues(m metrics.JobMetrics, metric string) []float64 {
	switch metric {
	case "wait_s":
		return m.Wait
	case "response_s":
		return m.Response
	case "bsld":
		return m.BoundedSlowdown
	case "ts_bsld":
		return m.TimeSharingBoundedSlowdown
	}
	panic(fmt.Sprintf("analysis: unknown per-job metric %q", metric))
}

// boxes gives the percentiles of per-job metrics per X and Series value,
// pooling the replicas.
func (c *analysisContext) boxes() error {
	a := &c.exp.Analysis
	xs := c.values(a.X)
	var panels []panel
	for _, metric := range a.Metrics {
		p := panel{y: metricLabel(metric), boxes: true}
		for _, s := range c.seriesValues() {
			line := lineData{name: c.seriesName(s)}
			for _, xv := range xs {
				var values []float64
				for i, f := range c.runs {
					if f.Point.Text(a.X) != xv || (a.Series != "" && f.Point.Text(a.Series) != s) {
						continue
					}
					o, err := c.load(i)
					if err != nil {
						return err
					}
					values = append(values, jobValues(metrics.PerJob(o, c.tau), metric)...)
				}
				if len(values) == 0 {
					continue
				}
				x, err := strconv.ParseFloat(xv, 64)
				if err != nil {
					return fmt.Errorf("x axis %q value %q is not a number", a.X, xv)
				}
				d := metrics.Describe(values)
				for _, st := range []struct {
					name string
					v    float64
				}{{"p5", d.P5}, {"p25", d.P25}, {"median", d.Median}, {"p75", d.P75}, {"p95", d.P95}, {"mean", d.Mean}} {
					cs := []repro.Coord{{Name: a.X, Value: xv}}
					if a.Series != "" {
						cs = append(cs, repro.Coord{Name: a.Series, Value: s})
					}
					cs = append(cs, repro.Coord{Name: "metric", Value: metric}, repro.Coord{Name: "statistic", Value: st.name})
					c.item.Rows = append(c.item.Rows, repro.Row{Coords: cs, Gangsim: st.v})
				}
				line.x = append(line.x, x)
				line.boxes = append(line.boxes, plots.Percentiles{P5: d.P5, P25: d.P25, P50: d.Median, P75: d.P75, P95: d.P95})
			}
			p.lines = append(p.lines, line)
		}
		panels = append(panels, p)
	}
	c.figure = &Drawing{title: c.exp.Title, kind: "boxes", x: c.xLabel(), panels: panels, logX: a.Plot.LogX, logY: a.Plot.LogY}
	return nil
}

func halfName(h metrics.Length) string {
	if h == metrics.Unclassified {
		return "all"
	}
	return h.String()
}

// byDedicated classifies a run's jobs into the thesis' short and long
// halves by their dedicated runtime: the runtime under FCFS batch
// scheduling, which the thesis classifies by (section 6.4.1), and the same
// for every policy.
func byDedicated(o []model.Outcome) metrics.Lengths {
	ids := make([]int64, 0, len(o))
	d := make([]model.Time, 0, len(o))
	for _, x := range o {
		if x.Completed() {
			ids = append(ids, x.JobID)
			d = append(d, x.Dedicated)
		}
	}
	return metrics.ClassifyLengths(ids, d, len(ids)/2)
}
