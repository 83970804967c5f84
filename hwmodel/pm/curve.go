package pm

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// Series is one line of a Curve: Y as a function of X.
type Series struct {
	Label string    // e.g. "save"
	X, Y  []float64 // same length
}

// Curve is a family of model series sharing axes, for plotting or for a
// CLI to print as CSV.
type Curve struct {
	Name   string // e.g. "channel-rwc-pc2"
	XLabel string // with unit, e.g. "occupancy"
	YLabel string // with unit, e.g. "ms"
	Series []Series
}

// WriteCSV writes c as CSV with the header "series,<XLabel>,<YLabel>" and
// one record per point, series in order. Numbers use the shortest
// representation that reads back exactly.
func (c Curve) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"series", c.XLabel, c.YLabel}); err != nil {
		return fmt.Errorf("writing curve %s: %w", c.Name, err)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, s := range c.Series {
		for i := range s.X {
			if err := cw.Write([]string{s.Label, f(s.X[i]), f(s.Y[i])}); err != nil {
				return fmt.Errorf("writing curve %s: %w", c.Name, err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing curve %s: %w", c.Name, err)
	}
	return nil
}

func millis(t model.Time) float64 { return float64(t) / float64(model.Millisecond) }

// ChannelCurve returns the channel context save and restore times in ms
// against the occupancy of both buffers, one series each (hori98 Table 3,
// hori96 Table 2 as a line from empty to full).
func ChannelCurve(c Cluster, occupancies []float64) Curve {
	cv := Curve{Name: "channel-" + c.Name, XLabel: "occupancy", YLabel: "ms"}
	save, restore := Series{Label: "save"}, Series{Label: "restore"}
	for _, o := range occupancies {
		save.X, save.Y = append(save.X, o), append(save.Y, c.SaveSeconds(o)*1e3)
		restore.X, restore.Y = append(restore.X, o), append(restore.Y, c.RestoreSeconds(o)*1e3)
	}
	cv.Series = []Series{save, restore}
	return cv
}

// PhaseCurve returns the parts of a gang switch in ms against nodes, one
// series per part of Breakdown (freeze, save, restore, run, stop_wait,
// skew, other) and two for its Preemption and Overhead, with both channels
// occupancy full (hori98 Fig. 5, the breakdown of network preemption).
func PhaseCurve(m Model, occupancy float64, nodes []int) Curve {
	cv := Curve{Name: "phases-" + m.Cluster.Name + "-" + m.Stop.String(), XLabel: "nodes", YLabel: "ms"}
	names := []string{"freeze", "save", "restore", "run", "stop_wait", "skew", "other", "preemption", "overhead"}
	cv.Series = make([]Series, len(names))
	for i, name := range names {
		cv.Series[i].Label = name
	}
	for _, n := range nodes {
		b := m.Breakdown(n, occupancy)
		for i, t := range []model.Time{b.Freeze, b.Save, b.Restore, b.Run, b.StopWait, b.Skew, b.Other, b.Preemption(), b.Overhead()} {
			cv.Series[i].X = append(cv.Series[i].X, float64(n))
			cv.Series[i].Y = append(cv.Series[i].Y, millis(t))
		}
	}
	return cv
}

// OverheadCurve returns the overhead per switch in ms (Model.Switch with
// empty buffers) against processors, one series with SIGSTOP and one with
// voluntary gang scheduling (hori96 Tables 4, 5 and Fig. 8).
func OverheadCurve(c Cluster, nodes []int) Curve {
	cv := Curve{Name: "overhead-" + c.Name, XLabel: "processors", YLabel: "ms"}
	for _, mode := range []StopMode{Signal, Voluntary} {
		m := Model{Cluster: c, Stop: mode}
		s := Series{Label: mode.String()}
		for _, n := range nodes {
			s.X = append(s.X, float64(n))
			s.Y = append(s.Y, millis(m.Breakdown(n, 0).Overhead()))
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// SlowdownCurve returns the slowdown in percent against the time slice in
// ms, one series per number of nodes, with both channels occupancy full
// at every switch (hori98 Fig. 6; hori96 Figs. 6-8).
func SlowdownCurve(m Model, occupancy float64, nodes []int, slices []model.Time) Curve {
	cv := Curve{Name: "slowdown-" + m.Cluster.Name + "-" + m.Stop.String(), XLabel: "slice_ms", YLabel: "%"}
	for _, n := range nodes {
		over := m.Breakdown(n, occupancy).Overhead()
		s := Series{Label: "nodes=" + strconv.Itoa(n)}
		for _, q := range slices {
			s.X = append(s.X, millis(q))
			s.Y = append(s.Y, Slowdown(over, q)*100)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}
