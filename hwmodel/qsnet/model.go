package qsnet

import (
	"math"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Model is the hwmodel.Costs of a QsNet cluster time-shared by STORM's
// gang scheduler, with the launch model's transfer variant and the
// location of message buffers as parameters. The zero value of the
// parameters is the thesis's main case: the ES40-style host-limited
// transfer (Eq. 4.8) and messages between buffers in main memory.
type Model struct {
	Cluster Cluster
	// Transfer selects Eq. 4.8 (TransferES40) or Eq. 4.9 (TransferIdeal)
	// for Launch.
	Transfer Transfer
	// NICMemory says that messages go between buffers in NIC memory
	// (peak bandwidth) rather than main memory.
	NICMemory bool
}

var _ hwmodel.Costs = Model{}

// Switch returns the time of a STORM gang switch, Cluster.GangSwitch, on
// s.Nodes nodes (the cluster's nodes when s.Nodes is not positive): a
// hardware-multicast strobe plus the node managers' local context switch.
// s.Jobs and s.Occupancy do not matter: the NIC keeps every job's
// communication context, so nothing is flushed, saved or restored (3.5,
// p. 28; 4.4.2, p. 56), and the switch work does not grow with the
// multiprogramming level (4.3.3.3, p. 51). Quanta shorter than
// Cluster.MinQuantum are not usable; that is the scheduler's business.
func (m Model) Switch(s hwmodel.SwitchState) model.Time {
	nodes := s.Nodes
	if nodes <= 0 {
		nodes = m.Cluster.Nodes
	}
	return m.Cluster.GangSwitch(nodes)
}

// Message returns the one-way latency and the sustained bandwidth in bytes
// per second of a point-to-point message of the given size: the MPI
// latency (5.5 us, 2.4.1.1, p. 15) plus bytes over
// Cluster.MessageBandwidth. contexts does not matter: every job keeps its
// own context in the NIC, with no division of buffers among them (3.5,
// p. 28). The bandwidth is returned whatever the size; a message of 0
// bytes or less costs the latency alone.
func (m Model) Message(bytes int64, contexts int) (latency model.Time, bytesPerSecond float64) {
	bw := m.Cluster.MessageBandwidth(m.NICMemory)
	seconds := m.Cluster.MPILatencyMicros * 1e-6
	if bytes > 0 {
		seconds += float64(bytes) / bw
	}
	return model.FromSecondsFloat(seconds), bw
}

// Launch returns STORM's launch time of a binary of binaryBytes on nodes
// nodes, Eq. 4.7 with m.Transfer (Cluster.LaunchTime). nodes below 1 count
// as 1.
func (m Model) Launch(nodes int, binaryBytes int64) model.Time {
	return m.Cluster.LaunchTime(m.Transfer, nodes, binaryBytes)
}

// BinaryTransfer implements hwmodel.ManagerCosts: the transfer term of Eq. 4.7,
// binaryBytes over the transfer bandwidth of m.Transfer (Eq. 4.8 or 4.9)
// on nodes nodes; nothing for a binary of 0 bytes or less.
func (m Model) BinaryTransfer(nodes int, binaryBytes int64) model.Time {
	if binaryBytes <= 0 {
		return 0
	}
	return model.FromSecondsFloat(float64(binaryBytes) / m.Cluster.TransferBandwidth(m.Transfer, nodes))
}

// Exec implements hwmodel.ManagerCosts: Eq. 4.7's execution overhead
// (Cluster.ExecMicros, about 10 ms measured on Wolverine, 4.3.2.1, p. 44).
func (m Model) Exec() model.Time { return micros(m.Cluster.ExecMicros) }

var _ hwmodel.ManagerCosts = Model{}

// LocalSwitch implements hwmodel.NodeCosts: the node manager's local
// context switch (Cluster.LocalSwitchMicros; assumed, 4.2.1, p. 33).
func (m Model) LocalSwitch() model.Time { return micros(m.Cluster.LocalSwitchMicros) }

// Wakeup implements hwmodel.NodeCosts: a blocked process's wake-up on its
// idle processor (Cluster.WakeupMicros; assumed).
func (m Model) Wakeup() model.Time { return micros(m.Cluster.WakeupMicros) }

// SpinBlock implements hwmodel.NodeCosts: the spin of a process waiting in
// a blocking MPI call under SB before it blocks (Cluster.SBSpinMicros;
// fitted on Accelerando, assumed the same on the other clusters).
func (m Model) SpinBlock() model.Time { return micros(m.Cluster.SBSpinMicros) }

// MicroTimeslice implements hwmodel.NodeCosts: BCS-MPI's micro-timeslice
// (Cluster.BCS; 5.3.3, p. 62; 250 us on Accelerando, 6.3.2, p. 78).
func (m Model) MicroTimeslice() model.Time { return m.Cluster.BCS().Timeslice }

// MicroOverhead implements hwmodel.NodeCosts: BCS-MPI's descriptor exchange
// and message scheduling micro-phases, about 125 us of every
// micro-timeslice (Cluster.BCSOverheadMicros; 5.3.4, p. 63).
func (m Model) MicroOverhead() model.Time { return m.Cluster.BCS().Overhead }

// BCSSwitch implements hwmodel.NodeCosts: the node manager's switch on a
// BCS-MPI blocking call and back (Cluster.BCSSwitchMicros; fitted to
// thesis Table 6.1's BCS runs on Accelerando).
func (m Model) BCSSwitch() model.Time { return micros(m.Cluster.BCSSwitchMicros) }

// BCSGangLoss implements hwmodel.NodeCosts: what a job switched in under
// BCS loses beyond the gang switch (Cluster.BCSGangSwitchMicros; fitted to
// thesis Table 6.5's balanced BCS run on Accelerando).
func (m Model) BCSGangLoss() model.Time { return micros(m.Cluster.BCSGangSwitchMicros) }

var _ hwmodel.MemoryCosts = Model{}

// NodeMemory implements hwmodel.MemoryCosts: a node's main memory
// (Cluster.MemoryBytes, thesis Table 1.1).
func (m Model) NodeMemory() int64 { return m.Cluster.MemoryBytes }

// PageIn implements hwmodel.MemoryCosts: bytes at the paging rate
// (Cluster.PageInBytesPerSecond; 0 when the preset does not model paging).
func (m Model) PageIn(bytes int64) model.Time {
	if bytes <= 0 || !(m.Cluster.PageInBytesPerSecond > 0) {
		return 0
	}
	return model.FromSecondsFloat(float64(bytes) / m.Cluster.PageInBytesPerSecond)
}

// Displace implements hwmodel.MemoryCosts: d at the rate a running process
// touches memory (Cluster.TouchBytesPerSecond; 0 when the preset does not
// model paging).
func (m Model) Displace(d model.Time) int64 {
	if d <= 0 || !(m.Cluster.TouchBytesPerSecond > 0) {
		return 0
	}
	return int64(math.Min(d.Seconds()*m.Cluster.TouchBytesPerSecond, math.MaxInt64/2))
}

var _ hwmodel.KernelScheduler = Model{}

// KernelHZ implements hwmodel.KernelScheduler: the nodes' Linux kernel's
// timer rate (Cluster.KernelHZ; 0 if not Linux).
func (m Model) KernelHZ() int { return m.Cluster.KernelHZ }

// KernelSliceTicks implements hwmodel.KernelScheduler: a nice-0 process's
// time slice in ticks (Cluster.KernelSliceTicks).
func (m Model) KernelSliceTicks() int { return m.Cluster.KernelSliceTicks }

// KernelProcChangePenalty implements hwmodel.KernelScheduler: Linux's
// PROC_CHANGE_PENALTY on the nodes' architecture
// (Cluster.KernelProcChangePenalty).
func (m Model) KernelProcChangePenalty() int { return m.Cluster.KernelProcChangePenalty }
