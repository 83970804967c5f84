package analysis

import (
	"slices"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
)

func (c *analysisContext) jobsInSystem() error {
	a := &c.exp.Analysis
	var panels []panel
	for _, sv := range c.seriesValues() {
		prefix := ""
		if a.Series != "" {
			prefix = c.seriesName(sv) + ": "
		}
		// The queue, which the test watches, and the jobs in the system,
		// which the thesis' Fig. 6.11 plots, each with the rule's marks
		// for its own measure.
		queued := panel{title: prefix + "jobs waiting (the test's)", y: axisLabel{Label: "Jobs waiting"},
			steps: true, marks: &ruleMarks{}}
		inSystem := panel{title: prefix + "jobs in the system (Fig. 6.11's)", y: axisLabel{Label: "Jobs in the system"},
			steps: true, marks: &ruleMarks{}}
		for i, f := range c.runs {
			if a.Series != "" && f.Point.Text(a.Series) != sv {
				continue
			}
			xv := f.Point.Text(a.X)
			s, err := f.Samples()
			if err != nil {
				return err
			}
			d, err := c.saturation(i)
			if err != nil {
				return err
			}
			o, err := c.load(i)
			if err != nil {
				return err
			}
			first, last := metrics.ArrivalPeriod(o)
			all := metrics.SaturationTest{Measure: metrics.BacklogInSystem}.Judge(s, first, last)
			q, n := lineData{name: xv}, lineData{name: xv}
			peak, peakQueued := 0, 0
			for _, smp := range s {
				t := smp.At.Seconds()
				q.x, q.y = append(q.x, t), append(q.y, float64(smp.Queued))
				n.x, n.y = append(n.x, t), append(n.y, float64(smp.InSystem))
				peak, peakQueued = max(peak, smp.InSystem), max(peakQueued, smp.Queued)
			}
			cut := first + model.Time(metrics.DefaultClearCutoff*float64(last-first))
			for _, pm := range []struct {
				p     *panel
				line  lineData
				level int
			}{{&queued, q, d.ClearLevel}, {&inSystem, n, all.ClearLevel}} {
				pm.p.lines = append(pm.p.lines, pm.line)
				m := pm.p.marks
				for _, x := range []model.Time{first, cut, last} {
					if !slices.Contains(m.verticals, x.Seconds()) {
						m.verticals = append(m.verticals, x.Seconds())
					}
				}
				m.from, m.to = append(m.from, cut.Seconds()), append(m.to, last.Seconds())
				m.levels = append(m.levels, float64(pm.level))
			}
			flag := func(b bool) float64 {
				if b {
					return 1
				}
				return 0
			}
			for _, q := range []struct {
				name string
				v    float64
			}{
				{"peak_in_system", float64(peak)},
				{"in_system_at_last_arrival", float64(d.AtLastArrival)},
				{"median_in_system", float64(d.MedianInSystem)},
				{"peak_queued", float64(peakQueued)},
				{"clear_level", float64(d.ClearLevel)},
				{"cleared_at", d.ClearedAt},
				{"saturated", flag(d.Saturated)},
				{"clear_level_in_system", float64(all.ClearLevel)},
				{"cleared_at_in_system", all.ClearedAt},
				{"saturated_in_system", flag(all.Saturated)},
				{"drain", d.Drain},
			} {
				var cs []repro.Coord
				if a.Series != "" {
					cs = append(cs, repro.Coord{Name: a.Series, Value: sv})
				}
				cs = append(cs, repro.Coord{Name: a.X, Value: xv}, repro.Coord{Name: "quantity", Value: q.name})
				c.item.Rows = append(c.item.Rows, repro.Row{Coords: cs, Gangsim: q.v})
			}
		}
		panels = append(panels, queued, inSystem)
	}
	c.figure = &Drawing{title: c.exp.Title, kind: "steps", x: axisLabel{Label: "Time", Unit: "s"}, panels: panels,
		legendTitle: c.xLabel().Label, logX: a.Plot.LogX, logY: a.Plot.LogY}
	return nil
}
