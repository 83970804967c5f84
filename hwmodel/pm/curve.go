package pm

import (
	"strconv"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

func millis(t model.Time) float64 { return float64(t) / float64(model.Millisecond) }

// ChannelCurve returns the channel context save and restore times in ms
// against the occupancy of both buffers, one series each (hori98 Table 3,
// hori96 Table 2 as a line from empty to full).
func ChannelCurve(c Cluster, occupancies []float64) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "channel-" + c.Name, XLabel: "occupancy", YLabel: "ms"}
	save, restore := hwmodel.Series{Label: "save"}, hwmodel.Series{Label: "restore"}
	for _, o := range occupancies {
		save.Add(o, c.SaveSeconds(o)*1e3)
		restore.Add(o, c.RestoreSeconds(o)*1e3)
	}
	cv.Series = []hwmodel.Series{save, restore}
	return cv
}

// PhaseCurve returns the parts of a gang switch in ms against nodes, one
// series per part of Breakdown (freeze, save, restore, run, stop_wait,
// skew, other) and two for its Preemption and Overhead, with both channels
// occupancy full (hori98 Fig. 5, the breakdown of network preemption).
func PhaseCurve(m Model, occupancy float64, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "phases-" + m.Cluster.Name + "-" + m.Stop.String(), XLabel: "nodes", YLabel: "ms"}
	names := []string{"freeze", "save", "restore", "run", "stop_wait", "skew", "other", "preemption", "overhead"}
	cv.Series = make([]hwmodel.Series, len(names))
	for i, name := range names {
		cv.Series[i].Label = name
	}
	for _, n := range nodes {
		b := m.Breakdown(n, occupancy)
		for i, t := range []model.Time{b.Freeze, b.Save, b.Restore, b.Run, b.StopWait, b.Skew, b.Other, b.Preemption(), b.Overhead()} {
			cv.Series[i].Add(float64(n), millis(t))
		}
	}
	return cv
}

// OverheadCurve returns the overhead per switch in ms (Model.Switch with
// empty buffers) against processors, one series with SIGSTOP and one with
// voluntary gang scheduling (hori96 Tables 4, 5 and Fig. 8).
func OverheadCurve(c Cluster, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "overhead-" + c.Name, XLabel: "processors", YLabel: "ms"}
	for _, mode := range []StopMode{Signal, Voluntary} {
		m := Model{Cluster: c, Stop: mode}
		s := hwmodel.Series{Label: mode.String()}
		for _, n := range nodes {
			s.Add(float64(n), millis(m.Breakdown(n, 0).Overhead()))
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// SlowdownCurve returns the slowdown in percent against the time slice in
// ms, one series per number of nodes, with both channels occupancy full
// at every switch (hori98 Fig. 6; hori96 Figs. 6-8).
func SlowdownCurve(m Model, occupancy float64, nodes []int, slices []model.Time) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "slowdown-" + m.Cluster.Name + "-" + m.Stop.String(), XLabel: "slice_ms", YLabel: "%"}
	for _, n := range nodes {
		over := m.Breakdown(n, occupancy).Overhead()
		s := hwmodel.Series{Label: "nodes=" + strconv.Itoa(n)}
		for _, q := range slices {
			s.Add(millis(q), Slowdown(over, q)*100)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}
