package qsnet

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// Series is one line of a Curve: Y as a function of X.
type Series struct {
	Label string    // e.g. "nodes=64"
	X, Y  []float64 // same length
}

// Curve is a family of model series sharing axes, for plotting or for a
// CLI to print as CSV.
type Curve struct {
	Name   string // e.g. "table-4.3"
	XLabel string // with unit, e.g. "cable_m"
	YLabel string // with unit, e.g. "MiB/s"
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
func BandwidthTableCurve(c Cluster, nodes []int, cables []float64) Curve {
	cv := Curve{Name: "table-4.3", XLabel: "cable_m", YLabel: "MiB/s"}
	for _, n := range nodes {
		s := Series{Label: "nodes=" + strconv.Itoa(n)}
		for _, m := range cables {
			s.X = append(s.X, m)
			s.Y = append(s.Y, c.AsymptoticBandwidth(m, Switches(n))/MiB)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// BroadcastBandwidthCurve returns Eq. 4.6, the broadcast bandwidth in
// MiB/s against the number of nodes, one series.
func BroadcastBandwidthCurve(c Cluster, nodes []int) Curve {
	cv := Curve{Name: "broadcast-bandwidth", XLabel: "nodes", YLabel: "MiB/s"}
	s := Series{Label: "eq-4.6"}
	for _, n := range nodes {
		s.X = append(s.X, float64(n))
		s.Y = append(s.Y, c.BroadcastBandwidth(n)/MiB)
	}
	cv.Series = []Series{s}
	return cv
}

// LaunchCurve returns Fig. 4.12's model: the launch time in ms of a binary
// of binaryBytes against the number of nodes, one series per transfer
// variant ("es40" for Eq. 4.8, "ideal" for Eq. 4.9).
func LaunchCurve(c Cluster, binaryBytes int64, nodes []int) Curve {
	cv := Curve{Name: "fig-4.12", XLabel: "nodes", YLabel: "ms"}
	for _, v := range []Transfer{TransferES40, TransferIdeal} {
		s := Series{Label: v.String()}
		for _, n := range nodes {
			s.X = append(s.X, float64(n))
			s.Y = append(s.Y, c.LaunchSeconds(v, n, binaryBytes)*1e3)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// LauncherCurve returns Fig. 4.16's extrapolations: the launch time in
// seconds against the number of nodes for each launcher of Table 4.5 and
// for STORM (the es40 model with the 12 MB binary).
func LauncherCurve(c Cluster, nodes []int) Curve {
	cv := Curve{Name: "fig-4.16", XLabel: "nodes", YLabel: "s"}
	for _, l := range Launchers() {
		s := Series{Label: l.Name}
		for _, n := range nodes {
			s.X = append(s.X, float64(n))
			s.Y = append(s.Y, l.Seconds(n))
		}
		cv.Series = append(cv.Series, s)
	}
	s := Series{Label: "STORM"}
	for _, n := range nodes {
		s.X = append(s.X, float64(n))
		s.Y = append(s.Y, c.LaunchSeconds(TransferES40, n, LaunchBinaryBytes))
	}
	cv.Series = append(cv.Series, s)
	return cv
}

// GangSwitchCurve returns the STORM gang-switch time in us against the
// number of nodes, one series (Cluster.GangSwitch).
func GangSwitchCurve(c Cluster, nodes []int) Curve {
	cv := Curve{Name: "gang-switch", XLabel: "nodes", YLabel: "us"}
	s := Series{Label: "strobe+local"}
	for _, n := range nodes {
		s.X = append(s.X, float64(n))
		s.Y = append(s.Y, float64(c.GangSwitch(n)))
	}
	cv.Series = []Series{s}
	return cv
}
