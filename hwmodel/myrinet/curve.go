package myrinet

import (
	"strconv"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// BandwidthCurve returns the point-to-point bandwidth in MB/s (1e6 bytes
// per second) against message size in bytes, one series per number of
// contexts, in mode (E&F Fig. 5 with BufferDivision).
func BandwidthCurve(c Cluster, mode Mode, contexts []int, sizes []int64) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "bandwidth-" + mode.String(), XLabel: "bytes", YLabel: "MB/s"}
	for _, n := range contexts {
		s := hwmodel.Series{Label: "contexts=" + strconv.Itoa(n)}
		for _, size := range sizes {
			s.Add(float64(size), c.Bandwidth(mode, size, n)/1e6)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// TotalBandwidthCurve returns TotalBandwidth in MB/s (1e6 bytes per
// second) against message size in bytes, one series per number of jobs
// (E&F Fig. 6 with CopyFull and a 3 s quantum).
func TotalBandwidthCurve(c Cluster, variant Copy, occupancy float64, quantum model.Time, jobs []int, sizes []int64) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "total-bandwidth-" + variant.String(), XLabel: "bytes", YLabel: "MB/s"}
	for _, n := range jobs {
		s := hwmodel.Series{Label: "jobs=" + strconv.Itoa(n)}
		for _, size := range sizes {
			s.Add(float64(size), TotalBandwidth(c, variant, occupancy, size, n, quantum)/1e6)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// SwitchCurve returns the gang-switch stage times in ms against nodes, one
// series per stage (halt, swap, release, total), for copy at the given
// occupancy (E&F Figs. 7, 9).
func SwitchCurve(c Cluster, variant Copy, occupancy float64, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "switch-" + variant.String(), XLabel: "nodes", YLabel: "ms"}
	names := []string{"halt", "swap", "release", "total"}
	cv.Series = make([]hwmodel.Series, len(names))
	for i, name := range names {
		cv.Series[i].Label = name
	}
	for _, n := range nodes {
		st := c.SwitchStages(variant, n, occupancy)
		for i, t := range []model.Time{st.Halt, st.Swap, st.Release, st.Total()} {
			cv.Series[i].Add(float64(n), float64(t)/float64(model.Millisecond))
		}
	}
	return cv
}

// SwapCurve returns the valid-packets-only swap stage in ms against the
// number of valid packets, one series with them all in the receive buffer
// and one with them all in the send buffer (E&F 4.2: linear in the
// packets present).
func SwapCurve(c Cluster, packets []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "swap-valid", XLabel: "valid_packets", YLabel: "ms"}
	recv, send := hwmodel.Series{Label: "receive"}, hwmodel.Series{Label: "send"}
	for _, v := range packets {
		x := float64(v)
		recv.Add(x, c.SwapSeconds(0, x)*1e3)
		send.Add(x, c.SwapSeconds(x, 0)*1e3)
	}
	cv.Series = []hwmodel.Series{recv, send}
	return cv
}
