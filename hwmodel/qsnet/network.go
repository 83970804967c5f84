package qsnet

import (
	"math"

	"github.com/gangsim/gangsim/model"
)

// MiB is the thesis's "MB" in Table 4.3 and the launch model: 2^20 bytes.
// (Chapter 2's MB/s are 10^6 bytes per second; see the package doc.)
const MiB = 1 << 20

// AsymptoticBandwidth returns BW_QsNet of Eq. 4.3 (4.3.2.2, p. 46), in
// bytes per second: the bandwidth of a stream of packets whose worst path
// has cable meters of cable and crosses switches switches,
//
//	BW = PacketBytes / max(T_packet, T_base + 2 cable T_cable + switches T_switch)
//
// QsNet sends the next packet of a message only once the previous one's
// acknowledgment has come back, so long wires and many switches open gaps
// in the pipeline (4.3.2.2, Fig. 4.10). The switch term is switches
// T_switch, as in Eq. 4.6, not the 2 switches T_switch printed in Eq. 4.3:
// T_switch is already the sum of the forward data delay and the ACK delay
// (Table 4.2), and only this form reproduces Table 4.3 (see the package
// doc). Negative arguments count as 0.
func (c Cluster) AsymptoticBandwidth(cable, switches float64) float64 {
	delay := c.BaseNanos + 2*max(cable, 0)*c.CableNanosPerMeter + max(switches, 0)*c.SwitchNanos
	return float64(c.PacketBytes) / (max(c.PacketNanos, delay) * 1e-9)
}

// PeakBandwidth returns PacketBytes / T_packet in bytes per second, the
// bandwidth of Eq. 4.3 when no gaps open: 320 B / 953 ns = 335.8e6 B/s =
// 320.2 MiB/s, the 335 MB/s peak of 2.4.1.1 (p. 15) and the 320 MB/s
// cells of Table 4.3 (p. 47).
func (c Cluster) PeakBandwidth() float64 {
	return float64(c.PacketBytes) / (c.PacketNanos * 1e-9)
}

// Diameter returns Eq. 4.4's conservative estimate, in meters, of the
// longest cable between two of nodes nodes laid out on a square floor:
// the diagonal sqrt(2 nodes A) of a square of nodes A square meters, A
// being FloorSquareMetersPerNode (1 m^2, giving sqrt(2 nodes); 4.3.2.2,
// p. 47). nodes below 1 count as 1.
func (c Cluster) Diameter(nodes int) float64 { return c.diameterAt(float64(max(nodes, 1))) }

func (c Cluster) diameterAt(nodes float64) float64 {
	return math.Sqrt(2 * nodes * c.FloorSquareMetersPerNode)
}

// Stages returns log4(nodes), the number of stages (levels) of a
// quaternary fat tree with nodes leaves (2.2.2, p. 10; Table 4.3). It is
// fractional when nodes is not a power of 4; nodes below 1 count as 1.
func Stages(nodes int) float64 { return stagesAt(float64(max(nodes, 1))) }

func stagesAt(nodes float64) float64 { return math.Log2(nodes) / 2 }

// Switches returns Eq. 4.5, 2 log4(nodes) - 1, the most switches a packet
// crosses in a quaternary fat tree of nodes nodes (4.3.2.2, p. 47): up to
// a nearest common ancestor and down again (2.2.2.1, p. 12). As in the
// thesis it is fractional when nodes is not a power of 4; it is 0 below 2
// nodes (no switch is crossed).
func Switches(nodes int) float64 { return switchesAt(float64(max(nodes, 1))) }

func switchesAt(nodes float64) float64 { return max(2*stagesAt(nodes)-1, 0) }

// BroadcastBandwidth returns BW_QsNet(nodes) of Eq. 4.6 (4.3.2.2, p. 48),
// in bytes per second: AsymptoticBandwidth with Diameter(nodes) of cable
// and Switches(nodes) switches. The thesis uses it as the hardware
// broadcast bandwidth BW_broadcast of the launch model (Eqs. 4.8, 4.9),
// since a multicast packet is acknowledged only when every destination
// has it (4.3.2.2, p. 45).
func (c Cluster) BroadcastBandwidth(nodes int) float64 {
	return c.broadcastBandwidthAt(float64(max(nodes, 1)))
}

// broadcastBandwidthAt is BroadcastBandwidth for a real number of nodes
// (at least 1), for extrapolating beyond the range of int.
func (c Cluster) broadcastBandwidthAt(nodes float64) float64 {
	return c.AsymptoticBandwidth(c.diameterAt(nodes), switchesAt(nodes))
}

// HardwareBarrierBound is QsNet's hardware global comparison (barrier)
// latency, "< 10" us for n nodes (Table 2.1, p. 19) and 10 us measured on
// 1,024 nodes of ASCI Q (2.4.2.2, Fig. 2.6(b), p. 18). StrobeLatency stays
// within it up to 1,024 nodes.
const HardwareBarrierBound = 10 * model.Microsecond

// StrobeLatency returns the latency of a hardware-multicast strobe
// (STORM's heartbeat, a global context-switch message; 3.5, p. 28; 4.1.3,
// p. 33) to nodes nodes: StrobeBaseMicros + StrobePerStageMicros
// log4(nodes). It is modelled on the hardware barrier, which uses the same
// multicast with combined acknowledgments: about 10 us on 1,024 nodes,
// roughly doubling over a 1,024-fold increase in nodes (2.4.2.2, p. 18;
// 4.3.2.2, p. 45). nodes below 1 count as 1.
func (c Cluster) StrobeLatency(nodes int) model.Time {
	return micros(c.StrobeBaseMicros + c.StrobePerStageMicros*Stages(nodes))
}

// GangSwitch returns the time of a STORM gang switch on nodes nodes: the
// machine manager's strobe reaches every node (StrobeLatency) and each
// node manager stops the running process and resumes the next
// (LocalSwitchMicros; 4.2.1, p. 33). Nothing else is paid: QsNet keeps
// every job's communication context alive in the NIC, so STORM need not
// drain the network or save and restore buffers as SCore-D and ParPar do
// (3.5, p. 28; 4.4.2, p. 56). nodes below 1 count as 1.
func (c Cluster) GangSwitch(nodes int) model.Time {
	return c.StrobeLatency(nodes) + micros(c.LocalSwitchMicros)
}

// MessageBandwidth returns the sustained point-to-point bandwidth in bytes
// per second between buffers in main memory (nicMemory false: what MPI
// applications see, HostBytesPerSecond) or in NIC memory (nicMemory true:
// NICBytesPerSecond), measured with a unidirectional ping on Wolverine
// (2.4.1.1, p. 15).
func (c Cluster) MessageBandwidth(nicMemory bool) float64 {
	if nicMemory {
		return c.NICBytesPerSecond
	}
	return c.HostBytesPerSecond
}
