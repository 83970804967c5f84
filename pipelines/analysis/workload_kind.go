package analysis

import (
	"slices"

	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload"
)

// workloadRows gives each run's workload profile before load scaling and
// compression: the raw workload the thesis describes.
func (c *analysisContext) workloadRows() error {
	for _, f := range c.runs {
		raw := f.Run.Workload
		raw.Load, raw.Compress = nil, 1
		r, err := raw.Open(nil)
		if err != nil {
			return err
		}
		p, err := workload.MeasureProfile(r, 0)
		sel, selected := r.Selection()
		r.Close()
		if err != nil {
			return err
		}
		var coords []repro.Coord
		for _, ax := range c.exp.Grid {
			coords = append(coords, repro.Coord{Name: ax.Name, Value: f.Point.Text(ax.Name)})
		}
		quantities := []struct {
			name string
			v    float64
		}{
			{"jobs", float64(p.Jobs)}, {"span_days", p.SpanDays}, {"median_size", p.MedianSize},
			{"power_of_two_share_parallel", p.PowerOfTwoShare}, {"raw_load", p.Load}, {"interarrival_cv", p.InterarrivalCV},
		}
		if selected {
			quantities = append(quantities, struct {
				name string
				v    float64
			}{"selection_draw", float64(sel.Draw)})
		}
		for _, q := range quantities {
			cs := append(slices.Clone(coords), repro.Coord{Name: "quantity", Value: q.name})
			c.item.Rows = append(c.item.Rows, repro.Row{Coords: cs, Gangsim: q.v})
		}
	}
	return nil
}
