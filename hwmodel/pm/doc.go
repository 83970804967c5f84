// Package pm models gang scheduling with network preemption under SCore-D
// on Myrinet clusters running the PM communication library, from two
// papers (cited below with the paper's section, table and figure):
//
//   - hori98: A. Hori, H. Tezuka and Y. Ishikawa, "Overhead Analysis of
//     Preemptive Gang Scheduling" (1998), on RWC PC Cluster II: 64 Pentium
//     Pro 200 MHz PCs, PCI, NetBSD 1.2 (preset "rwc-pc2").
//   - hori96: A. Hori et al., "Implementation of Gang-Scheduling on
//     Workstation Cluster" (1996), on 9 SPARCstation 20s, S-Bus, SunOS
//     4.1.4, one of them the dedicated SCore-D server (preset "ss20", 8
//     compute nodes).
//
// # Network preemption
//
// A PM channel is a pair of receive and send FIFO buffers mapped into the
// user process (hori98 3.2). To switch gangs, SCore-D runs four phases
// (hori98 4, Fig. 4; the ten steps of hori96 3.4), each a broadcast down
// and a barrier up its control tree, whose fan-out is 16 (hori98 3.1):
//
//	freeze   FREEZE/FROZEN: SIGSTOP the process (hori96: or let it yield),
//	         wait() for the stop, wait for the channel's steady state
//	save     SAVE/STOPPED: save the outgoing channel context
//	restore  RESTORE/RESTORED: restore the incoming channel context
//	run      RUN/RUNNING: SIGCONT
//
// The model charges each phase one tree round,
//
//	round(N) = 2 * sum over levels of (hop + (k-1) perChild)
//
// with k the widest fan-in at each of the ceil(log16 N) levels
// (TreeFanIns), plus the phase's local work: a process switch of 40 µs
// (hori98 5) to stop and another to resume; the steady state (hori98 3.2:
// every sent message answered by an Ack or a Nack), taken as the send
// buffer draining at PM's bandwidth plus one round trip of PM latency;
// and the channel save and restore below. The papers give no breakdown of
// the steady state; that form is this model's.
//
// # Channel save and restore
//
// Saving or restoring a channel costs a fixed part plus each buffer's
// bytes at its own rate across the I/O bus (ChannelCost),
//
//	t = fixed + receiveBytes/receiveRate + sendBytes/sendRate
//
// fitted by least squares, separately for save and restore, to hori98
// Table 3 (PCI; full buffers 511 messages = 65,408 bytes and 255 messages
// = 61,200 bytes) and to hori96 Table 2 (S-Bus; full buffers 2,730
// messages in 32 KB and 511 in 12 KB) (FitChannel). A table of four cells
// leaves one degree of freedom, the interaction d = FF - FE - EF + EE that
// no additive model expresses; the fit leaves ±d/4 in every cell:
//
//	hori98 Table 3 (PCI):   save 0.570 ms + 39.9 MB/s recv + 42.5 MB/s send, d = 0.20 ms
//	                        restore 0.125 ms + 43.0 MB/s + 41.1 MB/s,   d = 0.22 ms
//	                        every cell within 0.055 ms (held to 0.06 ms)
//	hori96 Table 2 (S-Bus): save 0.1275 ms + 10.04 MB/s + 7.00 MB/s,   d = 0.01 ms
//	                        restore 0.115 ms + 17.91 MB/s + 9.60 MB/s,  d = -0.02 ms
//	                        every cell within 0.005 ms (held to 0.01 ms)
//
// On the S-Bus the save rates are slower than the restore rates, as hori96
// 4.1 explains (reads from S-Bus memory are slower). On PCI the per-byte
// rates are nearly equal, and the fit puts the save's extra cost in its
// fixed part (0.57 against 0.125 ms). A switch state's Occupancy fills
// both buffers by that fraction.
//
// # Stop skew: SIGSTOP against voluntary gang scheduling
//
// On SunOS 4.1.4 SIGSTOP is delivered late, by a delay that "varies up to
// 50 msec" (hori96 4.2). The model draws each node's delay uniformly from
// [0, D]. The freeze phase waits for the last node, D N/(N+1) on average
// (ExpectedLast, Breakdown.StopWait), but a node computes until it stops;
// what a tightly coupled program loses is the time between its first
// node's stop and its last's, D (N-1)/(N+1) (ExpectedRange,
// Breakdown.Skew), nothing on one node. Under voluntary gang scheduling
// (hori96 4.3) the runtime yields at the quantum's end; the same form with
// a smaller fitted spread describes the nodes' yields, and a yield costs a
// fitted constant more than a signal. SampleStop draws the delays of one
// switch from a caller's *rand.Rand for a simulation that wants the
// variation.
//
// # Overhead per switch and slowdown
//
// What an application loses per switch is
//
//	T_overhead = freeze + save + restore + run + skew + other
//
// with other a fitted per-switch cost outside SCore-D (cache refill, UNIX
// and daemon activity: hori96 4.2 and hori98 5 list these causes without
// measuring them). With a quantum T_q a program slows down as hori96 4.2
// gives, T_elapsed = T_q/(T_q - T_overhead) T_process (Slowdown).
// Model.Switch returns T_overhead, so a simulation that charges it once a
// quantum reproduces the papers' slowdowns; Breakdown.Preemption is the
// gang scheduling time SCore-D itself measures (hori98 Fig. 5).
//
// On the SPARCstation 20s, quantum_overhead_us (0.40 ms), yield_us
// (1.42 ms) and yield_skew_max_us (13.5 ms) are fitted by least squares,
// weighted 1/T_q² (the paper's T_overhead inherits the elapsed times'
// error times T_q), to all 64 cells of hori96 Tables 4 and 5 together,
// with D held at the paper's 50 ms (FitOverheads). Fitting D as well
// gives 51.2 ms (FitOverheadsFree): the tables bear out the 50 ms
// independently. The model does not depend on the program or the
// quantum; the paper's cells scatter over both. Each cell is held to 3.5%
// of its quantum (OverheadTolerance): hori96 Table 3 runs under SCore-D
// with an infinite quantum and prints elapsed-time ratios from 0.97 to
// 1.01, noise of up to 3.5% at two decimals that T_overhead = T_q (1 -
// T_process/T_elapsed) multiplies by T_q. The largest misses are, in
// Table 4, 6.06 ms (rt on 8 processors at 1 s: 34.5 ms against 40.6) and,
// relative to the quantum, 3.0% (fib on 8 at 200 ms: 46.6 against 40.6);
// in Table 5, 4.77 ms (rt on 8 at 1 s: 8.8 against 13.6) and 1.3% (fib
// on 4 at 200 ms: 13.4 against 10.8).
//
// On RWC PC Cluster II hori98 gives no overhead table, only that the
// slowdown is below 9% at a 100 ms slice, below 7% for EP, and halves as
// the slice doubles (hori98 5, 6; Fig. 6 is missing from the text).
// quantum_overhead_us (4.64 ms) is fitted so that EP, with empty buffers,
// on 64 processors at 100 ms slows down 6.5%, reading "less than 7%" as a
// largest value in [6%, 7%) (FitQuantumOverhead); the buffer occupancy at
// which the model reaches 8.5% there, 0.262, stands for CG, the slowest
// application (InferOccupancy). Both agree with the bounds by
// construction; the halving (ratios 2.06 to 2.19), the phases' growth
// with processors, save and restore taking more than two thirds of the
// gang scheduling time on 64 processors (82% for EP, 88% for CG; hori98
// abstract, though hori98 5 says "more than one third") and the other
// statements are claims that the tests check. The model cannot say why
// CG slows down more than FT, whose gang scheduling time is the longest
// (hori98 5 does not know either).
//
// # Constants
//
// Measured (from the papers): RWC PC Cluster II: 64 nodes, PM latency
// 7.5 µs and bandwidth 117.6 MB/s (hori98 Table 2), buffers (hori98 5),
// process switch 40 µs (hori98 5), fan-out 16 (hori98 3.1). SS20: 8
// compute nodes (hori96 2, 3), PM latency 24 µs (hori96 3.3), a remote
// thread invocation about 35 µs including it (hori96 4.1, the tree hop),
// buffers (hori96 4.1), SIGSTOP delay up to 50 ms (hori96 4.2).
//
// Fitted: the channel rates and fixed costs of both presets (Tables 3 and
// 2); quantum_overhead_us, yield_us and yield_skew_max_us of ss20 (Tables
// 4 and 5); quantum_overhead_us of rwc-pc2 (the 7% bound).
//
// Assumed: ss20: 11 µs per extra child (the remote invocation's 35 µs less
// the 24 µs PM latency), a 40 µs process switch (hori98's PC figure), PM
// bandwidth 30 MB/s (not given). rwc-pc2: tree hop 10.94 µs and 3.44 µs
// per extra child (the SS20's scaled by the PM latencies, 7.5/24), no
// SIGSTOP delay (hori96 4.2 saw none on FreeBSD 2.0.0 or IRIX; hori98 5
// mentions a possible delay before a stop is detected but gives no
// figure), no voluntary mode parameters (hori98 measures only SIGSTOP). The presets list them under "assumed" and "fitted".
//
// Message is PM's latency plus the message's bytes at PM's bandwidth,
// independent of the contexts: network preemption gives the running gang
// the whole channel. Neither paper times a job launch; Launch returns 0.
//
// Presets are embedded JSON files (presets/*.json) that users can copy
// and edit; LoadPreset reads an edited one. The Curve functions give the
// model as plottable series. The papers' tables and figures (hori98
// table-3 and fig-6, hori96 table-2, table-4 and table-5) are reproduced
// above the model, in repro/hardware, from the data and tolerances here.
package pm
