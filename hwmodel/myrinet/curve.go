package myrinet

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// Series is one line of a Curve: Y as a function of X.
type Series struct {
	Label string    // e.g. "contexts=4"
	X, Y  []float64 // same length
}

// Curve is a family of model series sharing axes, for plotting or for a
// CLI to print as CSV.
type Curve struct {
	Name   string // e.g. "bandwidth-division"
	XLabel string // with unit, e.g. "bytes"
	YLabel string // with unit, e.g. "MB/s"
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

// BandwidthCurve returns the point-to-point bandwidth in MB/s (1e6 bytes
// per second) against message size in bytes, one series per number of
// contexts, in mode (E&F Fig. 5 with BufferDivision).
func BandwidthCurve(c Cluster, mode Mode, contexts []int, sizes []int64) Curve {
	cv := Curve{Name: "bandwidth-" + mode.String(), XLabel: "bytes", YLabel: "MB/s"}
	for _, n := range contexts {
		s := Series{Label: "contexts=" + strconv.Itoa(n)}
		for _, size := range sizes {
			s.X = append(s.X, float64(size))
			s.Y = append(s.Y, c.Bandwidth(mode, size, n)/1e6)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// TotalBandwidthCurve returns TotalBandwidth in MB/s (1e6 bytes per
// second) against message size in bytes, one series per number of jobs
// (E&F Fig. 6 with CopyFull and a 3 s quantum).
func TotalBandwidthCurve(c Cluster, variant Copy, occupancy float64, quantum model.Time, jobs []int, sizes []int64) Curve {
	cv := Curve{Name: "total-bandwidth-" + variant.String(), XLabel: "bytes", YLabel: "MB/s"}
	for _, n := range jobs {
		s := Series{Label: "jobs=" + strconv.Itoa(n)}
		for _, size := range sizes {
			s.X = append(s.X, float64(size))
			s.Y = append(s.Y, TotalBandwidth(c, variant, occupancy, size, n, quantum)/1e6)
		}
		cv.Series = append(cv.Series, s)
	}
	return cv
}

// SwitchCurve returns the gang-switch stage times in ms against nodes, one
// series per stage (halt, swap, release, total), for copy at the given
// occupancy (E&F Figs. 7, 9).
func SwitchCurve(c Cluster, variant Copy, occupancy float64, nodes []int) Curve {
	cv := Curve{Name: "switch-" + variant.String(), XLabel: "nodes", YLabel: "ms"}
	names := []string{"halt", "swap", "release", "total"}
	cv.Series = make([]Series, len(names))
	for i, name := range names {
		cv.Series[i].Label = name
	}
	for _, n := range nodes {
		st := c.SwitchStages(variant, n, occupancy)
		for i, t := range []model.Time{st.Halt, st.Swap, st.Release, st.Total()} {
			cv.Series[i].X = append(cv.Series[i].X, float64(n))
			cv.Series[i].Y = append(cv.Series[i].Y, float64(t)/float64(model.Millisecond))
		}
	}
	return cv
}

// SwapCurve returns the valid-packets-only swap stage in ms against the
// number of valid packets, one series with them all in the receive buffer
// and one with them all in the send buffer (E&F 4.2: linear in the
// packets present).
func SwapCurve(c Cluster, packets []int) Curve {
	cv := Curve{Name: "swap-valid", XLabel: "valid_packets", YLabel: "ms"}
	recv, send := Series{Label: "receive"}, Series{Label: "send"}
	for _, v := range packets {
		x := float64(v)
		recv.X, recv.Y = append(recv.X, x), append(recv.Y, c.SwapSeconds(0, x)*1e3)
		send.X, send.Y = append(send.X, x), append(send.Y, c.SwapSeconds(x, 0)*1e3)
	}
	cv.Series = []Series{recv, send}
	return cv
}
