package myrinet

import (
	"fmt"

	"github.com/gangsim/gangsim/model"
)

// Copy is what the buffer-swap stage of a gang switch copies.
type Copy int

const (
	// CopyFull saves and restores the whole send and receive buffers: the
	// paper's first algorithm (E&F 4.2, Fig. 7).
	CopyFull Copy = iota
	// CopyValid scans the buffers and copies only the valid packets: the
	// improved algorithm (E&F 4.2, Fig. 9).
	CopyValid
)

// String returns "full" or "valid".
func (c Copy) String() string {
	switch c {
	case CopyFull:
		return "full"
	case CopyValid:
		return "valid"
	}
	return fmt.Sprintf("Copy(%d)", int(c))
}

// Stages is the time of each stage of a buffer-switching gang switch
// (E&F 3.2, Fig. 7), in simulated microseconds.
type Stages struct {
	// Halt is the first stage: stop sending at a packet boundary, broadcast
	// a halt to every other node in a serial loop, and collect every other
	// node's halt (COMM_halt_network).
	Halt model.Time
	// Swap is the second stage: save the outgoing gang's send and receive
	// buffers and restore the incoming gang's (COMM_context_switch).
	Swap model.Time
	// Release is the third stage: the same protocol as Halt, announcing
	// readiness for the new context (COMM_release_network).
	Release model.Time
}

// Total returns Halt + Swap + Release.
func (s Stages) Total() model.Time { return s.Halt + s.Swap + s.Release }

// ProtocolSeconds returns the time in seconds of the halt stage, and
// equally of the release stage, on nodes nodes: (nodes-1) h. Both stages
// are global protocols whose cost grows with the nodes involved (E&F 4.2,
// Fig. 7); one node has no one to wait for. nodes below 1 count as 1.
func (c Cluster) ProtocolSeconds(nodes int) float64 {
	return float64(max(nodes, 1)-1) * c.ProtocolPerNodeMicros * 1e-6
}

// SendPacketCopySeconds is the time in seconds to save one send-buffer
// packet from write-combining NIC memory and restore one into it:
// P/Rnr + P/Rnw (E&F 4.2: ~14 MB/s read, ~80 MB/s write).
func (c Cluster) SendPacketCopySeconds() float64 {
	p := float64(c.PacketBytes)
	return p/c.NICReadBytesPerSecond + p/c.NICWriteBytesPerSecond
}

// ReceivePacketCopySeconds is the time in seconds to save one
// receive-buffer packet to the backing store in host memory and restore
// one from it: 2 P/Rh (E&F 4.2: ~45 MB/s regular memory).
func (c Cluster) ReceivePacketCopySeconds() float64 {
	return 2 * float64(c.PacketBytes) / c.HostCopyBytesPerSecond
}

// SwapSeconds returns the buffer-swap stage time in seconds when
// sendPackets send-buffer packets and receivePackets receive-buffer
// packets are copied (out for the old gang and in for the new one). The
// stage is local to each node and does not depend on the number of nodes
// (E&F 4.2). With CopyValid it is linear in the packets present (E&F 4.2,
// Figs. 8, 9).
func (c Cluster) SwapSeconds(sendPackets, receivePackets float64) float64 {
	return sendPackets*c.SendPacketCopySeconds() + receivePackets*c.ReceivePacketCopySeconds()
}

// FullSwapSeconds returns the buffer-swap stage time in seconds of
// CopyFull: every packet slot of both buffers, Bs P/Rnr + Bs P/Rnw +
// 2 Br P/Rh. It is 79.31 ms for ParPar (E&F 4.2 constants).
func (c Cluster) FullSwapSeconds() float64 {
	return c.SwapSeconds(float64(c.SendPackets), float64(c.ReceivePackets))
}

// SwitchStages returns the stage times of a gang switch on nodes nodes.
// With CopyFull occupancy is ignored; with CopyValid occupancy, clamped to
// [0, 1], is the fraction of the slots of each buffer holding valid
// packets, i.e. occupancy Bs send and occupancy Br receive packets are
// copied.
func (c Cluster) SwitchStages(variant Copy, nodes int, occupancy float64) Stages {
	if variant == CopyFull {
		occupancy = 1
	}
	if occupancy != occupancy { // NaN
		occupancy = 0
	}
	occupancy = min(max(occupancy, 0), 1)
	return c.switchStages(nodes, occupancy*float64(c.SendPackets), occupancy*float64(c.ReceivePackets))
}

// SwitchStagesValid returns the stage times of a CopyValid gang switch on
// nodes nodes when sendValid send-buffer and receiveValid receive-buffer
// packets are valid.
func (c Cluster) SwitchStagesValid(nodes int, sendValid, receiveValid float64) Stages {
	return c.switchStages(nodes, sendValid, receiveValid)
}

func (c Cluster) switchStages(nodes int, send, receive float64) Stages {
	protocol := model.FromSecondsFloat(c.ProtocolSeconds(nodes))
	return Stages{
		Halt:    protocol,
		Swap:    model.FromSecondsFloat(c.SwapSeconds(send, receive)),
		Release: protocol,
	}
}

// FitProtocolPerNode returns the per-node protocol cost h, in
// microseconds, for which a CopyFull switch on nodes nodes takes exactly
// full: h = (full - FullSwapSeconds) / (2 (nodes-1)). It is how the
// presets' protocol_per_node_us is obtained, from the paper's bound on the
// full buffer switch of 85 ms (E&F 4.2) on ParPar's 16 nodes, taking the
// bound as the Fig. 7 value at the largest configuration. The result is
// negative if full is below the swap stage alone. nodes must be at least 2.
func FitProtocolPerNode(c Cluster, full model.Time, nodes int) float64 {
	if nodes < 2 {
		panic("myrinet: FitProtocolPerNode needs at least 2 nodes")
	}
	return (full.Seconds() - c.FullSwapSeconds()) / float64(2*(nodes-1)) * 1e6
}

// Cycles converts t to cycles of c's host clock, the unit of E&F Figs. 7
// and 9.
func (c Cluster) Cycles(t model.Time) float64 { return t.Seconds() * c.ClockHz }
