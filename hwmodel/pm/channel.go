package pm

import (
	"fmt"
	"math"
)

// ChannelCost is the model of saving, or of restoring, one PM channel
// context: a fixed cost plus each buffer's messages copied at that
// buffer's own rate across the I/O bus,
//
//	t = fixed + receiveBytes/receiveRate + sendBytes/sendRate
type ChannelCost struct {
	FixedMicros           float64 // cost with both buffers empty, µs
	ReceiveBytesPerSecond float64 // copy rate of receive-buffer messages, bytes/s
	SendBytesPerSecond    float64 // copy rate of send-buffer messages, bytes/s
}

// Seconds returns the time in seconds to save or restore a channel whose
// receive buffer holds receiveBytes and send buffer sendBytes.
func (k ChannelCost) Seconds(receiveBytes, sendBytes float64) float64 {
	return k.FixedMicros*1e-6 + receiveBytes/k.ReceiveBytesPerSecond + sendBytes/k.SendBytesPerSecond
}

// SaveCost returns the cluster's channel save model.
func (c Cluster) SaveCost() ChannelCost {
	return ChannelCost{c.SaveFixedMicros, c.SaveReceiveBytesPerSecond, c.SaveSendBytesPerSecond}
}

// RestoreCost returns the cluster's channel restore model.
func (c Cluster) RestoreCost() ChannelCost {
	return ChannelCost{c.RestoreFixedMicros, c.RestoreReceiveBytesPerSecond, c.RestoreSendBytesPerSecond}
}

// clampOccupancy maps occupancy to [0, 1], NaN to 0.
func clampOccupancy(occupancy float64) float64 {
	if occupancy != occupancy {
		return 0
	}
	return min(max(occupancy, 0), 1)
}

// BufferedBytes returns the bytes in the receive and the send buffer when
// each holds the fraction occupancy (clamped to [0, 1]) of its full
// contents.
func (c Cluster) BufferedBytes(occupancy float64) (receive, send float64) {
	o := clampOccupancy(occupancy)
	return o * float64(c.ReceiveBufferBytes), o * float64(c.SendBufferBytes)
}

// SaveSeconds returns the time in seconds to save a channel context whose
// buffers are each occupancy full.
func (c Cluster) SaveSeconds(occupancy float64) float64 {
	return c.SaveCost().Seconds(c.BufferedBytes(occupancy))
}

// RestoreSeconds returns the time in seconds to restore a channel context
// whose buffers are each occupancy full.
func (c Cluster) RestoreSeconds(occupancy float64) float64 {
	return c.RestoreCost().Seconds(c.BufferedBytes(occupancy))
}

// ChannelTable is a paper's table of channel context save or restore
// times in milliseconds by buffer state, indexed [receive][send] with 0
// for an empty and 1 for a full buffer.
type ChannelTable [2][2]float64

// Interaction returns d = t[1][1] - t[1][0] - t[0][1] + t[0][0] in ms: how
// much more both buffers full cost than the two single-buffer increments
// added up. An additive model (ChannelCost) cannot express it; its
// least-squares fit leaves a residual of ±d/4 in every cell.
func (t ChannelTable) Interaction() float64 {
	return t[1][1] - t[1][0] - t[0][1] + t[0][0]
}

// FitChannel fits a ChannelCost to t by least squares, given the bytes of
// a full receive and a full send buffer. On a 2x2 table the fit is closed
// form: the receive buffer's time is the mean of the full-receive row
// minus the mean of the empty-receive row, the send buffer's likewise by
// column, and the fixed cost is the table's mean minus half of each. It
// returns an error for a table whose increments are not positive, which
// no copy rate fits.
func FitChannel(t ChannelTable, receiveBytes, sendBytes int64) (ChannelCost, error) {
	recv := (t[1][0] + t[1][1] - t[0][0] - t[0][1]) / 2 // ms
	send := (t[0][1] + t[1][1] - t[0][0] - t[1][0]) / 2 // ms
	mean := (t[0][0] + t[0][1] + t[1][0] + t[1][1]) / 4
	fixed := mean - recv/2 - send/2
	if !(recv > 0) || !(send > 0) || math.IsInf(recv+send, 0) {
		return ChannelCost{}, fmt.Errorf("pm: fitting channel table %v: buffer increments %v and %v ms, want positive", t, recv, send)
	}
	return ChannelCost{
		FixedMicros:           fixed * 1e3,
		ReceiveBytesPerSecond: float64(receiveBytes) / (recv * 1e-3),
		SendBytesPerSecond:    float64(sendBytes) / (send * 1e-3),
	}, nil
}

// Table returns the model's table for the same buffer states as a paper's
// ChannelTable, in milliseconds, for buffers of the given full sizes.
func (k ChannelCost) Table(receiveBytes, sendBytes int64) ChannelTable {
	var out ChannelTable
	for r := range 2 {
		for s := range 2 {
			out[r][s] = k.Seconds(float64(r)*float64(receiveBytes), float64(s)*float64(sendBytes)) * 1e3
		}
	}
	return out
}

// Hori98Table3 returns the channel context save and restore times of Hori,
// Tezuka and Ishikawa 1998, Table 3, in ms, on RWC PC Cluster II (PCI):
//
//	receive  send    save  restore
//	empty    empty   0.62  0.18
//	empty    full    1.96  1.56
//	full     empty   2.16  1.59
//	full     full    3.70  3.19
//
// A full receive buffer holds 511 messages (65,408 bytes), a full send
// buffer 255 messages (61,200 bytes) (hori98 5).
func Hori98Table3() (save, restore ChannelTable) {
	return ChannelTable{{0.62, 1.96}, {2.16, 3.70}}, ChannelTable{{0.18, 1.56}, {1.59, 3.19}}
}

// Hori96Table2 returns the network preemption (channel save and restore)
// times of Hori et al. 1996, Table 2, in ms, on the SPARCstation 20
// cluster (S-Bus):
//
//	receive  send    save  restore
//	empty    empty   0.13  0.11
//	empty    full    1.88  1.40
//	full     empty   3.39  1.95
//	full     full    5.15  3.22
//
// A full receive buffer holds 2,730 messages in 32 KB, a full send buffer
// 511 messages in 12 KB (hori96 4.1).
func Hori96Table2() (save, restore ChannelTable) {
	return ChannelTable{{0.13, 1.88}, {3.39, 5.15}}, ChannelTable{{0.11, 1.40}, {1.95, 3.22}}
}
