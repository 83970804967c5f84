package hwmodel

import "github.com/gangsim/gangsim/model"

// SwitchState describes a global (gang) context switch: what the machine
// looks like when every node switches from one job to another.
type SwitchState struct {
	Nodes int // nodes taking part in the switch
	Jobs  int // jobs time-sharing the machine (the multiprogramming level)
	// Occupancy is the fraction, 0 to 1, of the NIC's communication
	// buffers holding packets in flight at the switch; buffers that must be
	// saved and restored cost in proportion.
	Occupancy float64
}

// Costs is a hardware cost model: what time sharing costs on one cluster.
// Every method is a pure function of its arguments.
type Costs interface {
	// Switch is the time the machine spends switching gangs: from the
	// moment the running job is told to stop until the next one runs.
	Switch(s SwitchState) model.Time

	// Message returns the one-way latency and the sustained bandwidth, in
	// bytes per second, of a point-to-point message of the given size
	// when contexts communication contexts (jobs) share each node's NIC.
	Message(bytes int64, contexts int) (latency model.Time, bytesPerSecond float64)

	// Launch is the time to launch a job on nodes nodes whose binary is
	// binaryBytes long, from the launch command until every process runs.
	Launch(nodes int, binaryBytes int64) model.Time
}

// PresetInfo is the common part of a preset: a named cluster from one of
// the papers, where its numbers come from, and the parameters every model
// family shares. Each model subpackage embeds it in its own preset type,
// stored as an embedded JSON data file that users can copy and edit.
type PresetInfo struct {
	Name string `json:"name"` // e.g. "crescendo"
	// Model names the model family the preset is for, the hwmodel
	// subpackage that reads it: "myrinet", "pm", "qsnet" or "calypso".
	// A family's loader rejects another family's preset by it, and
	// hwmodel/presets loads an edited file with the family it names.
	Model       string   `json:"model"`
	Description string   `json:"description"`  // one line: the cluster and its role in the papers
	Sources     []string `json:"sources"`      // where the numbers come from: paper, table, section
	Nodes       int      `json:"nodes"`        // compute nodes
	PEsPerNode  int      `json:"pes_per_node"` // processors per node
	CPU         string   `json:"cpu"`          // e.g. "Pentium Pro 200 MHz"
	Network     string   `json:"network"`      // e.g. "Myrinet, LANai 4.3, 512 KB; Illinois Fast Messages 2.0"
	OS          string   `json:"os"`           // e.g. "BSDI"

	// RefillPenaltyMicros is the time in microseconds that a job loses
	// after it is switched back in, while it refills its caches and
	// working set, charged once per gang switch on top of the family's
	// switch cost by Refill (the presets registry applies it). It is 0 in
	// every embedded preset: the papers name the effect without measuring
	// it (Frachtenberg's thesis 4.3.3.3 and 6.4.3; Hori et al. 1996, 4.2;
	// Hori et al. 1998, 5), and the PM presets' fitted
	// quantum_overhead_us already contains it.
	RefillPenaltyMicros float64 `json:"refill_penalty_us"`

	// Assumed lists the JSON names of parameters that are neither measured
	// nor fitted (the papers do not give them).
	Assumed []string `json:"assumed"`
	// Fitted lists the JSON names of parameters fitted to the papers'
	// numbers.
	Fitted []string `json:"fitted"`
}

// RefillPenalty returns RefillPenaltyMicros as simulated time, rounded to
// the microsecond.
func (p PresetInfo) RefillPenalty() model.Time {
	return model.FromSecondsFloat(p.RefillPenaltyMicros * 1e-6)
}

// NodeCosts is implemented by the cost models that know what a node's own
// scheduling costs, besides the gang switch: process-level simulation asks
// for them (the qsnet family: STORM's node manager and BCS-MPI).
type NodeCosts interface {
	// LocalSwitch is the time a node takes to switch its processor from
	// one process to another.
	LocalSwitch() model.Time
	// Wakeup is the time a process blocked in a communication call takes
	// to run again on its processor, idle meanwhile, once the call
	// completes.
	Wakeup() model.Time
	// MicroTimeslice is BCS-MPI's micro-timeslice, the interval between
	// its communication strobes.
	MicroTimeslice() model.Time
	// SpinBlock is how long a process waiting in a blocking communication
	// call spins before it blocks under spin-block (SB), the MPI library's
	// threshold; 0 if the preset does not give one.
	SpinBlock() model.Time
	// MicroOverhead is the part of each micro-timeslice BCS-MPI's NICs
	// spend exchanging and scheduling descriptors before they transfer
	// anything (the descriptor exchange and message scheduling
	// micro-phases); the host processors keep computing meanwhile.
	MicroOverhead() model.Time
	// BCSSwitch is the local context switch BCS's node manager makes when
	// a process blocks in a BCS-MPI call (to the next ready process) and
	// when the call completes (back to the slot's owner), in place of
	// LocalSwitch: the node manager must first learn of the block from
	// the communication library.
	BCSSwitch() model.Time
	// BCSGangLoss is what a gang switch costs a job switched in under BCS
	// beyond the cluster's gang switch (Costs.Switch).
	BCSGangLoss() model.Time
}

// Node returns c's NodeCosts, looking through wrappers such as Refill; ok
// is false if its family does not model them.
func Node(c Costs) (n NodeCosts, ok bool) { return find[NodeCosts](c) }

// KernelScheduler is implemented by the cost models that know the process
// scheduler of the nodes' operating system, which shares a processor among
// the processes that time-share it between the gang strobes (process-level
// simulation's local scheduler, procsim.SchedLinux): Linux 2.4's on the
// clusters of Frachtenberg's thesis (the qsnet family).
type KernelScheduler interface {
	// KernelHZ is the kernel's timer interrupt rate in ticks per second
	// (HZ), at each of which the running process's time-slice counter
	// loses a tick; 0 if the preset does not give the kernel.
	KernelHZ() int
	// KernelSliceTicks is a nice-0 process's time slice in ticks, what an
	// epoch adds to every counter (Linux 2.4's NICE_TO_TICKS(0)).
	KernelSliceTicks() int
	// KernelProcChangePenalty is the goodness a process has on the
	// processor it last ran on over the node's other processors (Linux
	// 2.4's PROC_CHANGE_PENALTY, in ticks of counter).
	KernelProcChangePenalty() int
}

// Kernel returns c's KernelScheduler, looking through wrappers such as
// Refill; ok is false if its family does not model it.
func Kernel(c Costs) (k KernelScheduler, ok bool) { return find[KernelScheduler](c) }

// ManagerCosts is implemented by the cost models of clusters whose
// resource manager is STORM (the qsnet family): what its machine manager
// spends launching a job, which a gang scheduler that models STORM charges
// (package policies, launch=on). STORM launches a job in two steps, the
// binary's transfer to the nodes and the execution, each taking at least
// one timeslice because the machine manager issues commands and sees their
// completion only at its heartbeats (Frachtenberg's thesis 4.3.1.1); the
// scheduler adds that rounding.
type ManagerCosts interface {
	// BinaryTransfer is the binary transfer of Eq. 4.7 (thesis 4.3.2.2): a
	// binary of binaryBytes to nodes nodes at the transfer bandwidth; 0 for
	// binaryBytes <= 0.
	BinaryTransfer(nodes int, binaryBytes int64) model.Time
	// Exec is Eq. 4.7's execution overhead T_exec: from the launch
	// command until the processes run and their termination is reported.
	Exec() model.Time
}

// MemoryCosts is implemented by the cost models that know a node's memory
// and what paging costs: a process switched back in on a node whose
// resident processes need more memory than it has pages back what the
// others displaced while it was switched out (package policies charges it
// at gang switches, package procsim at local ones).
type MemoryCosts interface {
	// NodeMemory is the memory of a node, in bytes, that the processes
	// placed on it share.
	NodeMemory() int64
	// PageIn is the time a node takes to page back bytes of a process's
	// memory; 0 for bytes <= 0.
	PageIn(bytes int64) model.Time
	// Displace is how much of the other processes' memory a process can
	// displace from a node whose memory is short by running for d: what
	// it touches meanwhile; 0 for d <= 0.
	Displace(d model.Time) int64
}

// Memory returns c's MemoryCosts, looking through wrappers such as Refill;
// ok is false if its family does not model memory, or the model leaves
// paging out (a node memory, paging or displacement rate of 0).
func Memory(c Costs) (m MemoryCosts, ok bool) {
	m, ok = find[MemoryCosts](c)
	if ok && (m.NodeMemory() <= 0 || m.PageIn(1<<30) <= 0 || m.Displace(model.Second) <= 0) {
		return nil, false
	}
	return m, ok
}

// Manager returns c's ManagerCosts, looking through wrappers such as
// Refill; ok is false if the cluster is not run by STORM.
func Manager(c Costs) (m ManagerCosts, ok bool) { return find[ManagerCosts](c) }

// find returns the first of c and the models it wraps that is a T.
func find[T any](c Costs) (t T, ok bool) {
	for c != nil {
		if t, ok := c.(T); ok {
			return t, true
		}
		u, ok := c.(interface{ Unwrap() Costs })
		if !ok {
			return t, false
		}
		c = u.Unwrap()
	}
	return t, false
}
