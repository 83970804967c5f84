package qsnet

import (
	"embed"
	"io"
	"io/fs"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Cluster is a QsNet cluster running STORM and BCS-MPI: the common preset
// description and the parameters of the network, launch, gang-switch and
// BCS models. Every field is stored in the preset's JSON file; Assumed and
// Fitted name the fields that are not measurements. Citations are to
// Frachtenberg's thesis (section, table, equation, page).
type Cluster struct {
	hwmodel.PresetInfo

	// ClockHz is the host CPU clock in hertz (Table 1.1, p. 6).
	ClockHz float64 `json:"clock_hz"`
	// MemoryBytes is each node's main memory in bytes (Table 1.1, p. 6).
	MemoryBytes int64 `json:"memory_bytes"`
	// Rails is the number of independent QsNet networks, one Elan3 NIC per
	// node on each (Table 1.1, p. 6). STORM sends its system messages on a
	// rail of their own when there are two (3.5, p. 28); the cost model
	// charges application messages one rail.
	Rails int `json:"rails"`

	// PacketBytes is the largest packet payload in bytes, 320 (2.2.2.1,
	// p. 11; Table 4.2, p. 46).
	PacketBytes int `json:"packet_bytes"`
	// PacketNanos is T_packet, the minimum packet delay at peak bandwidth
	// in nanoseconds, 953 (Table 4.2, p. 46).
	PacketNanos float64 `json:"packet_ns"`
	// BaseNanos is T_base, the base delay of packet processing in
	// nanoseconds, 580 (Table 4.2, p. 46).
	BaseNanos float64 `json:"base_ns"`
	// CableNanosPerMeter is T_cable, the cable delay in nanoseconds per
	// meter, 3.94 (Table 4.2, p. 46).
	CableNanosPerMeter float64 `json:"cable_ns_per_m"`
	// SwitchNanos is T_switch, the forward data delay plus the ACK delay of
	// one switch in nanoseconds, 73 (Table 4.2, p. 46).
	SwitchNanos float64 `json:"switch_ns"`
	// FloorSquareMetersPerNode is the floor area a node takes in square
	// meters, rack and aisles: four ES40 nodes in a 1 m^2 rack surrounded
	// by 3 m^2 of floor, so 1 m^2 per node, giving Eq. 4.4's diameter
	// sqrt(2 nodes) (4.3.2.2, p. 47).
	FloorSquareMetersPerNode float64 `json:"floor_m2_per_node"`

	// NICBytesPerSecond is the peak unidirectional ping bandwidth between
	// buffers in NIC (Elan) memory in bytes per second, 335 MB/s with
	// MB = 10^6 bytes (2.4.1.1, Fig. 2.4(a), p. 15).
	NICBytesPerSecond float64 `json:"nic_bytes_per_second"`
	// HostBytesPerSecond is the asymptotic ping bandwidth between buffers
	// in main memory in bytes per second, the bandwidth MPI applications
	// see: 200 MB/s on Wolverine, limited by its 33 MHz PCI bus (2.4.1.1,
	// p. 15).
	HostBytesPerSecond float64 `json:"host_bytes_per_second"`
	// MPILatencyMicros is the one-way MPI latency of a short message in
	// microseconds, 5.5 (2.4.1.1, Fig. 2.4(b), p. 15).
	MPILatencyMicros float64 `json:"mpi_latency_us"`

	// StrobeBaseMicros is the latency in microseconds of a hardware
	// multicast strobe (heartbeat) on one node; each stage of the
	// quaternary fat tree adds StrobePerStageMicros. Fitted to the
	// hardware barrier, the same mechanism: about 10 us on 1,024 nodes,
	// about doubling over a 1,024-fold increase in nodes (2.4.2.2, Fig.
	// 2.6(b), p. 18; 4.3.2.2, p. 45; Table 2.1, p. 19: < 10 us).
	StrobeBaseMicros float64 `json:"strobe_base_us"`
	// StrobePerStageMicros is the strobe latency each fat-tree stage
	// (log4 nodes) adds, in microseconds (see StrobeBaseMicros).
	StrobePerStageMicros float64 `json:"strobe_per_stage_us"`
	// LocalSwitchMicros is the node manager's local context switch in
	// microseconds: on a strobe it stops the running process with SIGSTOP
	// and resumes the next one (4.2.1, p. 34). The thesis gives no time.
	LocalSwitchMicros float64 `json:"local_switch_us"`
	// WakeupMicros is the time a process blocked in a communication call
	// takes to run again on its processor, idle meanwhile, once the call
	// completes, in microseconds: the kernel's wake-up and switch to it.
	// The thesis gives no time (its CS processes block, 6.2.1).
	WakeupMicros float64 `json:"wakeup_us"`
	// SBSpinMicros is how long a process waiting in a blocking MPI call
	// spins before it blocks under SB, in microseconds; 0 if not given. The
	// thesis gives no value ("the short polling interval", 6.3.2.2, p. 79);
	// it is fitted on Accelerando to the SB cells of Tables 6.1-6.4 under
	// Linux's scheduler (procsim.SchedLinux).
	SBSpinMicros float64 `json:"sb_spin_us"`
	// KernelHZ is the nodes' Linux kernel's timer interrupt rate in ticks
	// per second, HZ of the architecture's include/asm-*/param.h in Linux
	// 2.4: 100 on i386 (Crescendo), 1024 on ia64 (Accelerando) and alpha
	// (Wolverine); 0 for a cluster whose nodes do not run Linux (ASCI Q).
	// The thesis does not name the kernels, only Red Hat Linux 7.1-7.3
	// (Table 1.1, p. 6), whose kernels are 2.4.
	KernelHZ int `json:"kernel_hz"`
	// KernelSliceTicks is a nice-0 process's time slice in ticks, Linux
	// 2.4's NICE_TO_TICKS(0) = TICK_SCALE(20) + 1 (kernel/sched.c), with
	// TICK_SCALE(x) = x >> 2 below 200 Hz and x << 1 from 800 to 1600 Hz:
	// 6 ticks (60 ms) at 100 Hz, 41 (40 ms) at 1024 Hz.
	KernelSliceTicks int `json:"kernel_slice_ticks"`
	// KernelProcChangePenalty is Linux 2.4's PROC_CHANGE_PENALTY, the
	// goodness a process has on the processor it last ran on over the
	// node's others (include/asm-*/smp.h): 15 on i386, 20 on ia64 and
	// alpha.
	KernelProcChangePenalty int `json:"kernel_proc_change_penalty"`
	// MinQuantumMicros is the shortest gang-scheduling timeslice the node
	// managers can follow in microseconds: 300 on Crescendo, below which
	// they cannot process the strobes at the rate they arrive (4.3.3.1,
	// p. 50).
	MinQuantumMicros float64 `json:"min_quantum_us"`

	// TransferBytesPerSecond is the bandwidth in bytes per second of
	// STORM's binary-transfer protocol when the host side limits it: 131
	// MB/s on Wolverine's ES40s (MB = 2^20 bytes, as in Table 4.3), the
	// cap of Eq. 4.8 (4.3.2.1, p. 44; 4.3.2.2, p. 48).
	TransferBytesPerSecond float64 `json:"transfer_bytes_per_second"`
	// ExecMicros is T_exec of Eq. 4.7, the execution overhead of a launch
	// in microseconds: fork and run the job, collect its termination in
	// the machine manager, about 10 ms (4.3.2.1, p. 43; 4.3.2.2, p. 48).
	ExecMicros float64 `json:"exec_us"`
	// LaunchTimesliceMicros is T_timeslice of Eq. 4.7, the launch time
	// spent in OS overhead and waiting for STORM's timeslices, in
	// microseconds. Fitted to the 110 ms launch of a 12 MB binary on 64
	// nodes (4.3.1.1, p. 38).
	LaunchTimesliceMicros float64 `json:"launch_timeslice_us"`

	// BCSTimesliceMicros is BCS-MPI's micro-timeslice, the interval of its
	// global strobes, in microseconds: 500 in chapter 5 (5.4, p. 65), 250
	// in the 6.3.2 runs (1.5 micro-timeslices = 375 us, p. 78).
	BCSTimesliceMicros float64 `json:"bcs_timeslice_us"`
	// BCSOverheadMicros is the descriptor exchange and message scheduling
	// micro-phases of each BCS-MPI timeslice in microseconds, about 125
	// (5.3.4, p. 63).
	BCSOverheadMicros float64 `json:"bcs_overhead_us"`
	// BCSSwitchMicros is the local context switch of BCS job scheduling in
	// microseconds: "whenever a process blocks for a synchronous
	// communication call, the NM will perform an immediate local context
	// switch to the next runnable (non-blocked) process" (6.2.2, p. 76),
	// and back when the call completes; the thesis names "the
	// context-switch overhead" as what BCS costs highly-synchronous
	// applications (6.2.2) without timing it. Fitted to the balanced
	// jobs' BCS turnaround, 131.72 s (Table 6.1, p. 79).
	BCSSwitchMicros float64 `json:"bcs_switch_us"`
	// BCSGangSwitchMicros is what a gang switch costs a job switched in
	// under BCS beyond the gang switch, in microseconds. The thesis' BCS
	// runs with non-blocking calls, which never block, take 2.57 s longer
	// than its GS runs on the balanced jobs (Table 6.5, p. 83: 122.65 s;
	// Table 6.1: 120.08 s), about 0.5 ms (two micro-timeslices) per 25 ms
	// slot, while BCS-MPI alone costs nothing against Quadrics MPI with
	// non-blocking calls (Table 5.1, p. 69: SAGE -0.42%). Fitted to Table
	// 6.5's balanced turnaround.
	BCSGangSwitchMicros float64 `json:"bcs_gang_switch_us"`

	// PageInBytesPerSecond is the rate at which a node pages back the
	// memory of a process switched in after other processes displaced it,
	// when the processes placed on the node need more than MemoryBytes
	// (hwmodel.MemoryCosts); 0 models no paging. Fitted to Table 6.6's
	// SAGE pair under GS (p. 85: 527 s against 448 s in batch, SAGE
	// taking 520 MB per process, 4 x 520 MB on a 2 GB node), an effective
	// rate: see the preset's sources.
	PageInBytesPerSecond float64 `json:"page_in_bytes_per_second"`
	// TouchBytesPerSecond is the rate at which a running process touches
	// memory, and so displaces the memory of the processes that share its
	// node when the node's memory is short (hwmodel.MemoryCosts); 0 models
	// no paging. A process switched in pages back what the others
	// displaced while it was out: at a gang switch on Table 6.6's runs,
	// all it can (the node's excess), at the short local switches of SB,
	// FCS and BCS only what the processes that ran meanwhile touched.
	// Fitted to Table 6.6's SAGE pair under FCS and BCS (p. 85: 554 s and
	// 633 s).
	TouchBytesPerSecond float64 `json:"touch_bytes_per_second"`
}

//go:embed presets/*.json
var presetFiles embed.FS

// presetDir is the package's embedded presets.
func presetDir() hwmodel.PresetDir[Cluster] {
	return hwmodel.PresetDir[Cluster]{Family: "qsnet", FS: presetFiles, Dir: "presets"}
}

// PresetFiles returns the embedded preset files, one "<name>.json" per
// preset at the root, byte for byte as they are in the source tree.
func PresetFiles() fs.FS { return presetDir().Files() }

// Presets returns the embedded presets sorted by name. It panics if an
// embedded file is broken, which the package's tests rule out.
func Presets() []Cluster { return presetDir().All() }

// Preset returns the embedded preset called name ("accelerando", "asci-q", "crescendo" or "wolverine"), or
// an error wrapping hwmodel.ErrUnknownPreset.
func Preset(name string) (Cluster, error) { return presetDir().Find(name) }

// Crescendo returns the "crescendo" preset: 32 dual Pentium-III nodes on
// one QsNet rail, the cluster of most of the thesis's experiments.
func Crescendo() Cluster { return presetDir().Must("crescendo") }

// Accelerando returns the "accelerando" preset: 32 dual Itanium-II nodes
// on two rails.
func Accelerando() Cluster { return presetDir().Must("accelerando") }

// Wolverine returns the "wolverine" preset: 64 four-way AlphaServer ES40
// nodes on two rails, where the network and launch measurements were made.
func Wolverine() Cluster { return presetDir().Must("wolverine") }

// ASCIQ returns the "asci-q" preset: LANL's ASCI Q as far as the thesis
// describes it.
func ASCIQ() Cluster { return presetDir().Must("asci-q") }

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of one of them. Unknown fields are errors
// (they are most likely misspelt), and so are values the models cannot
// use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) { return hwmodel.LoadPreset[Cluster]("qsnet", r) }

// Validate reports the first value of c that the models cannot use, as an
// error wrapping hwmodel.ErrInvalidPreset (see hwmodel.CheckPreset for the
// checks every preset gets).
func (c Cluster) Validate() error {
	ck := hwmodel.CheckPreset("qsnet", c)
	ck.Positive("clock_hz", c.ClockHz)
	ck.Positive("memory_bytes", float64(c.MemoryBytes))
	ck.Positive("rails", float64(c.Rails))
	ck.Positive("packet_bytes", float64(c.PacketBytes))
	ck.Positive("packet_ns", c.PacketNanos)
	ck.Positive("floor_m2_per_node", c.FloorSquareMetersPerNode)
	ck.Positive("nic_bytes_per_second", c.NICBytesPerSecond)
	ck.Positive("host_bytes_per_second", c.HostBytesPerSecond)
	ck.Positive("min_quantum_us", c.MinQuantumMicros)
	ck.Positive("transfer_bytes_per_second", c.TransferBytesPerSecond)
	ck.Positive("bcs_timeslice_us", c.BCSTimesliceMicros)
	ck.NonNegative("base_ns", c.BaseNanos)
	ck.NonNegative("cable_ns_per_m", c.CableNanosPerMeter)
	ck.NonNegative("switch_ns", c.SwitchNanos)
	ck.NonNegative("mpi_latency_us", c.MPILatencyMicros)
	ck.NonNegative("strobe_base_us", c.StrobeBaseMicros)
	ck.NonNegative("strobe_per_stage_us", c.StrobePerStageMicros)
	ck.NonNegative("local_switch_us", c.LocalSwitchMicros)
	ck.NonNegative("wakeup_us", c.WakeupMicros)
	ck.NonNegative("exec_us", c.ExecMicros)
	ck.NonNegative("launch_timeslice_us", c.LaunchTimesliceMicros)
	ck.NonNegative("bcs_overhead_us", c.BCSOverheadMicros)
	ck.NonNegative("bcs_switch_us", c.BCSSwitchMicros)
	ck.NonNegative("bcs_gang_switch_us", c.BCSGangSwitchMicros)
	ck.NonNegative("page_in_bytes_per_second", c.PageInBytesPerSecond)
	ck.NonNegative("touch_bytes_per_second", c.TouchBytesPerSecond)
	ck.NonNegative("sb_spin_us", c.SBSpinMicros)
	ck.NonNegative("kernel_hz", float64(c.KernelHZ))
	ck.Require(c.KernelHZ <= 1e6, "kernel_hz", c.KernelHZ, "at most 1000000 (a tick of at least 1 us)")
	ck.NonNegative("kernel_slice_ticks", float64(c.KernelSliceTicks))
	ck.Require((c.KernelHZ == 0) == (c.KernelSliceTicks == 0), "kernel_slice_ticks", c.KernelSliceTicks, "positive with kernel_hz, 0 without")
	ck.NonNegative("kernel_proc_change_penalty", float64(c.KernelProcChangePenalty))
	ck.Require(c.BCS().Validate() == nil, "bcs_overhead_us", c.BCSOverheadMicros, "below bcs_timeslice_us (whole microseconds)")
	return ck.Err()
}

// micros converts a preset's microsecond parameter to simulated time,
// rounding to the nearest microsecond.
func micros(us float64) model.Time { return model.FromSecondsFloat(us * 1e-6) }

// MinQuantum returns the shortest gang-scheduling quantum the cluster's
// node managers can follow (MinQuantumMicros).
func (c Cluster) MinQuantum() model.Time { return micros(c.MinQuantumMicros) }

// BCS returns the cluster's BCS-MPI timeslice model.
func (c Cluster) BCS() BCS {
	return BCS{Timeslice: micros(c.BCSTimesliceMicros), Overhead: micros(c.BCSOverheadMicros)}
}
