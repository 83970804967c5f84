package myrinet

import (
	"fmt"
	"math"
)

// Mode is how the communication contexts of the jobs time-sharing a node
// share the NIC's buffers.
type Mode int

const (
	// BufferDivision is the original FM scheme: the send and receive
	// buffers are divided equally among the n contexts a node supports
	// (E&F 2.2, Fig. 1).
	BufferDivision Mode = iota
	// BufferSwitching is E&F's scheme: the running gang uses the whole
	// buffers, which are saved and restored at every gang switch (E&F 3.3).
	BufferSwitching
)

// String returns "division" or "switching".
func (m Mode) String() string {
	switch m {
	case BufferDivision:
		return "division"
	case BufferSwitching:
		return "switching"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Credits returns C0, the initial and maximal number of packets a process
// may send to one other node before a refill, when contexts contexts share
// each node's receive buffer of receivePackets packets on a machine of
// nodes nodes:
//
//	BufferDivision:  C0 = floor(Br / (n^2 p))   (E&F 2.2)
//	BufferSwitching: C0 = floor(Br / p)         (E&F 3.3)
//
// Credits are whole packets, so a result below one is zero: no
// communication is possible. contexts and nodes below 1 count as 1.
func Credits(mode Mode, receivePackets, contexts, nodes int) int {
	n, p := max(contexts, 1), max(nodes, 1)
	if mode == BufferSwitching {
		n = 1
	}
	return receivePackets / (n * n * p)
}

// SendSlots returns the send-queue packets a context owns: Bs/n with
// BufferDivision (E&F 1: "the effective send buffer size for each process
// is Bs/n"), all Bs with BufferSwitching.
func SendSlots(mode Mode, sendPackets, contexts int) int {
	if mode == BufferSwitching {
		return sendPackets
	}
	return sendPackets / max(contexts, 1)
}

// Credits returns C0 on c's nodes (see the package function Credits).
func (c Cluster) Credits(mode Mode, contexts int) int {
	return Credits(mode, c.ReceivePackets, contexts, c.Nodes)
}

// StreamBytesPerSecond is R, the rate in bytes per second at which a
// sender can inject packet data: the slower of the host's write-combining
// writes into the NIC send queue (E&F 4.2, ~80 MB/s) and the link (E&F
// 2.1, 1.28 Gb/s).
func (c Cluster) StreamBytesPerSecond() float64 {
	return min(c.NICWriteBytesPerSecond, c.LinkBytesPerSecond)
}

// PacketSeconds is t(s) = o + s/R, the time in seconds the sender spends
// on one packet carrying s bytes of a message.
func (c Cluster) PacketSeconds(s float64) float64 {
	return c.PacketOverheadMicros*1e-6 + s/c.StreamBytesPerSecond()
}

// RefillBatch returns b = max(1, ceil(f C0)), the packets a receiver
// consumes from one sender before it returns their credits in a refill
// message. It is 0 when credits is 0.
func (c Cluster) RefillBatch(credits int) int {
	if credits <= 0 {
		return 0
	}
	b := int(math.Ceil(c.RefillFraction * float64(credits)))
	return min(max(b, 1), credits)
}

// PacketsPerMessage returns k = ceil(bytes/P), at least 1: every message,
// however short, takes a whole packet and so a whole credit (E&F 4.1).
func (c Cluster) PacketsPerMessage(bytes int64) int64 {
	if bytes <= 0 {
		return 1
	}
	p := int64(c.PacketBytes)
	return (bytes + p - 1) / p
}

// WindowBandwidth returns the sustained point-to-point bandwidth, in bytes
// per second, of a stream of messages of the given size when the sender
// holds credits credits for the receiver and owns sendSlots send-queue
// packets:
//
//	X  = min(1/t, C0/(b t + L))   packets per second
//	BW = (bytes/k) X
//
// with t = PacketSeconds(bytes/k) and b = RefillBatch(C0). It is zero when
// credits or sendSlots is zero (no packet can be sent) or bytes is not
// positive.
func (c Cluster) WindowBandwidth(bytes int64, credits, sendSlots int) float64 {
	if credits <= 0 || sendSlots <= 0 || bytes <= 0 {
		return 0
	}
	s := float64(bytes) / float64(c.PacketsPerMessage(bytes))
	t := c.PacketSeconds(s)
	b := float64(c.RefillBatch(credits))
	rate := min(1/t, float64(credits)/(b*t+c.CreditReturnMicros*1e-6))
	return s * rate
}

// Bandwidth returns the sustained point-to-point bandwidth, in bytes per
// second, of messages of the given size in mode when contexts contexts
// share each node's NIC (the model of E&F Fig. 5 for BufferDivision; the
// bandwidth a running gang sees for BufferSwitching, where contexts does
// not matter).
func (c Cluster) Bandwidth(mode Mode, bytes int64, contexts int) float64 {
	return c.WindowBandwidth(bytes, c.Credits(mode, contexts), SendSlots(mode, c.SendPackets, contexts))
}

// AdequateContexts returns the largest number of contexts n for which
// BufferDivision still delivers at least fraction of the one-context
// bandwidth for messages of the given size (counting up from 1 and
// stopping at the first n that falls short or has no credits). E&F 4.1 reads from Fig. 5
// that "about 256KB of memory on the NIC suffices for adequate
// performance": NICMemoryBytes/AdequateContexts should be about 256 KB.
func (c Cluster) AdequateContexts(bytes int64, fraction float64) int {
	full := c.Bandwidth(BufferDivision, bytes, 1)
	if full <= 0 {
		return 0
	}
	n := 0
	for c.Credits(BufferDivision, n+1) > 0 && c.Bandwidth(BufferDivision, bytes, n+1) >= fraction*full {
		n++
	}
	return n
}
