package qsnet

import (
	"strconv"

	"github.com/gangsim/gangsim/hwmodel"
)

// PowersOf returns base^0, base^1, ... up to and including limit (1 if
// limit is below 1). base must be at least 2.
func PowersOf(base, limit int) []int {
	if base < 2 {
		panic("qsnet: PowersOf needs a base of at least 2")
	}
	out := []int{1}
	for n := base; n <= limit; n *= base {
		out = append(out, n)
	}
	return out
}

// BandwidthTableCurve returns Table 4.3 as a curve: the asymptotic
// bandwidth of Eq. 4.3 in MiB/s (the table's MB/s, 2^20 bytes per second)
// against the cable length in meters, one series per network size, with
// Switches(nodes) switches.
func BandwidthTableCurve(c Cluster, nodes []int, cables []float64) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "table-4.3", XLabel: "cable_m", YLabel: "MiB/s"}
	for _, n := range nodes {
		s := hwmodel.Series{Label: "nodes=" + strconv.Itoa(n)}
		for _, m := range cables {
			s.Add(m, c.AsymptoticBandwidth(m, Switches(n))/MiB)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// BroadcastBandwidthCurve returns Eq. 4.6, the broadcast bandwidth in
// MiB/s against the number of nodes, one series.
func BroadcastBandwidthCurve(c Cluster, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "broadcast-bandwidth", XLabel: "nodes", YLabel: "MiB/s"}
	s := hwmodel.Series{Label: "eq-4.6"}
	for _, n := range nodes {
		s.Add(float64(n), c.BroadcastBandwidth(n)/MiB)
	}
	cv.Series = []hwmodel.Series{s}
	return cv
}

// LaunchCurve returns Fig. 4.12's model: the launch time in ms of a binary
// of binaryBytes against the number of nodes, one series per transfer
// variant ("es40" for Eq. 4.8, "ideal" for Eq. 4.9).
func LaunchCurve(c Cluster, binaryBytes int64, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "fig-4.12", XLabel: "nodes", YLabel: "ms"}
	for _, v := range []Transfer{TransferES40, TransferIdeal} {
		s := hwmodel.Series{Label: v.String()}
		for _, n := range nodes {
			s.Add(float64(n), c.LaunchSeconds(v, n, binaryBytes)*1e3)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// LauncherCurve returns Fig. 4.16's extrapolations: the launch time in
// seconds against the number of nodes for each launcher of Table 4.5 and
// for STORM (the es40 model with the 12 MB binary).
func LauncherCurve(c Cluster, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "fig-4.16", XLabel: "nodes", YLabel: "s"}
	for _, l := range Launchers() {
		s := hwmodel.Series{Label: l.Name}
		for _, n := range nodes {
			s.Add(float64(n), l.Seconds(n))
		}
		cv.Series = append(cv.Series, s)
	}
	s := hwmodel.Series{Label: "STORM"}
	for _, n := range nodes {
		s.Add(float64(n), c.LaunchSeconds(TransferES40, n, LaunchBinaryBytes))
	}
	cv.Series = append(cv.Series, s)
	return cv
}

// GangSwitchCurve returns the STORM gang-switch time in us against the
// number of nodes, one series (Cluster.GangSwitch).
func GangSwitchCurve(c Cluster, nodes []int) hwmodel.Curve {
	cv := hwmodel.Curve{Name: "gang-switch", XLabel: "nodes", YLabel: "us"}
	s := hwmodel.Series{Label: "strobe+local"}
	for _, n := range nodes {
		s.Add(float64(n), float64(c.GangSwitch(n)))
	}
	cv.Series = []hwmodel.Series{s}
	return cv
}
