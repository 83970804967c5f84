// Package qsnet models the Quadrics QsNet interconnect (Elan3 NICs, Elite
// switches) with the STORM resource manager and the BCS-MPI communication
// library, from E. Frachtenberg's PhD thesis "Leveraging Modern
// Interconnects for Parallel System Software" (Hebrew University, 2003;
// cited below by section, table, equation and page).
//
// # Network bandwidth (4.3.2.2, Eqs. 4.3-4.6, Tables 4.2 and 4.3)
//
// QsNet sends a message in packets of at most 320 bytes and injects a
// packet only when the previous one's acknowledgment is back, so on long
// cables and through many switches gaps open and the asymptotic bandwidth
// falls:
//
//	BW(cable, switches) = 320 B / max(T_packet, T_base + 2 cable T_cable + switches T_switch)
//
// with T_packet = 953 ns, T_base = 580 ns, T_cable = 3.94 ns/m and T_switch
// = 73 ns, the sum of the forward data delay and the ACK delay (Table
// 4.2). For a machine of n nodes the cable is the diagonal of a square
// floor of 1 m^2 per node, sqrt(2n) m (Eq. 4.4), and a packet crosses at
// most 2 log4(n) - 1 switches of the quaternary fat tree (Eq. 4.5).
//
// Two details decide whether this reproduces Table 4.3, and the text does
// not state either:
//
//   - The table's MB is 2^20 bytes. 320 bytes per 953 ns is 335.8e6 B/s,
//     the "335 MB/s" peak of 2.4.1.1 (chapter 2's MB/s are decimal), and
//     320.2 MiB/s, the table's 320. With decimal MB every one of the 54
//     cells is 7 to 16 MB/s too high.
//   - The switch term is switches x T_switch, as written in Eq. 4.6, not
//     the 2 x switches x T_switch printed in Eq. 4.3: T_switch already
//     counts both directions. With the factor 2, 52 of the 54 cells miss,
//     by up to 79 MB/s.
//
// With both, every cell rounds to the printed value (largest difference
// 0.499 MB/s); the tests check all 54 and the two failing readings.
//
// # Launch (4.3.2, Eqs. 4.7-4.9, Fig. 4.12, Tables 4.4 and 4.5)
//
//	T_launch(n) = binary / BW_transfer(n) + T_exec + T_timeslice     (Eq. 4.7)
//	BW_transfer = min(131 MB/s, BW(n))   ES40 (Eq. 4.8)
//	BW_transfer = BW(n)                   ideal (Eq. 4.9)
//
// 131 MB/s is the file-transfer protocol measured on Wolverine's
// AlphaServer ES40s and T_exec about 10 ms (4.3.2.1). The binary and the
// bandwidths are in the same MB (2^20 bytes, as for Table 4.3; the unit
// cancels in 12 MB / 131 MB/s but not against BW(n)). T_timeslice, the
// wait for STORM's heartbeats, is fitted: the 12 MB binary launched on 64
// nodes in 110 ms (4.3.1.1) gives 110 - 10 - 12000/131 = 8.397 ms
// (FitLaunchTimeslice), close to the 4 ms of transfer skew plus 14 - 10 ms
// of execution that 4.3.1.1 reports. The model then gives 134.6 ms on
// 16,384 nodes, the "135ms" of 4.3.2.2, with ES40 and ideal equal from
// 8,192 nodes on ("both models converge with networks larger than 4,096
// nodes"). Section 4.4.1 says "under 135ms for 16,384 processors"; on
// 4,096 four-way nodes the model gives 110 ms, which is Table 4.5's STORM
// entry, so the processors there are nodes. The Table 4.5 extrapolations
// of the other launchers are the thesis's fits with their printed
// coefficients (rounded to three decimals; RMS lands 1.2 s from the
// table, within that rounding).
//
// # Gang switch and messages (chapters 2-4)
//
// STORM switches gangs with a strobe: the machine manager multicasts a
// heartbeat in hardware and each node manager stops the running process
// and resumes the next (3.5, 4.2.1). QsNet keeps every job's
// communication context alive in the NIC, so nothing is drained, saved or
// restored (3.5; 4.4.2). The switch costs
//
//	GangSwitch(n) = strobe(n) + local,  strobe(n) = 5 us + 1 us log4(n)
//
// The strobe is modelled on the hardware barrier, the same multicast with
// combined acknowledgments: about 10 us on 1,024 nodes of ASCI Q, roughly
// doubling over 1,024 times the nodes (2.4.2.2, 4.3.2.2; "< 10" us in
// Table 2.1); the two constants are fitted to these two statements. The
// node manager's local switch is not timed in the thesis: 50 us is
// assumed, keeping the switch far below the 300 us shortest usable quantum
// on Crescendo (4.3.3.1) and at 3% of a 2 ms quantum, which "little
// performance degradation" (4.3.3.1) and "no noticeable overhead" (4.4.2)
// allow. Quanta below Cluster.MinQuantum are unusable.
//
// Messages pay the MPI latency, 5.5 us, plus size over the ping bandwidth:
// 200 MB/s between main memories on Wolverine, whose 33 MHz PCI bus is the
// bottleneck, and 335 MB/s between NIC memories (2.4.1.1). The number of
// contexts does not matter. The worst-case cable and switch gaps of
// Eq. 4.3 are not charged to point-to-point messages.
//
// # BCS-MPI (chapter 5)
//
// BCS is BCS-MPI's timing: a global strobe every micro-timeslice (500 us
// in chapter 5, 250 us in the 6.3.2 runs), descriptor exchange and
// scheduling in its first 125 us (5.3.4), transfers in the rest. A
// blocking call waits 1.5 timeslices on average (5.3.1.1; 375 us in
// 6.3.2), a non-blocking one not at all (5.3.1.2); messages longer than a
// timeslice's window are chunked over several. The protocol runs on the
// NIC, so the hosts lose compute only in blocking calls (ComputeLoss).
//
// # Presets, fitted and assumed values
//
// The presets crescendo, accelerando, wolverine and asci-q (Table 1.1;
// ASCI Q from 2.4.2 and 4.4.1) are embedded JSON files (presets/*.json)
// that users can copy, edit and read with LoadPreset; each cites its
// sources and lists its assumed and fitted parameters. Fitted:
// strobe_base_us, strobe_per_stage_us (to the ASCI Q barrier),
// launch_timeslice_us (to the 110 ms launch) and, on Accelerando,
// sb_spin_us (SB's spin before blocking, to the SB cells of Tables
// 6.1-6.4). Assumed: local_switch_us and wakeup_us on every cluster, and
// on the clusters other than the one measured, the host bandwidth, MPI
// latency, launch constants, shortest quantum, BCS figures and SB's spin
// (see each preset); ASCI Q's clock, memory, rails and OS are not in the
// thesis.
//
// # The nodes' kernel
//
// Process-level simulation shares a node's processors under SB as the
// nodes' Linux 2.4 scheduler does (procsim.SchedLinux): the thesis names
// the distributions, Red Hat Linux 7.1-7.3 (Table 1.1), not the kernels,
// so the stock 2.4 scheduler is assumed. Its constants depend on the
// architecture (kernel_hz, kernel_slice_ticks, kernel_proc_change_penalty,
// hwmodel.KernelScheduler): HZ 100 on i386 (Crescendo) and 1024 on ia64
// (Accelerando) and alpha (Wolverine), include/asm-*/param.h; a nice-0
// slice NICE_TO_TICKS(0) = TICK_SCALE(20) + 1 ticks, 6 (60 ms) and 41 (40
// ms), kernel/sched.c; PROC_CHANGE_PENALTY 15 on i386 and 20 on ia64 and
// alpha, include/asm-*/smp.h. ASCI Q's nodes are assumed to run Tru64
// UNIX: none.
//
// Model implements hwmodel.Costs; the Curve functions give the same models
// as plottable series. The models reproduce Table 4.3 (54 cells within
// 0.5 MB/s), Fig. 4.12 (110 ms on 64 nodes, the fit point, and 134.6 ms
// against 135 ms on 16,384 nodes) and Table 4.5 (all six within the
// rounding of the printed fits), with the thesis's qualitative claims, as
// items built above the model, in repro/hardware.
package qsnet
