// Package procsim simulates parallel jobs process by process: the
// processes of bulk-synchronous (BSP) programs on processors, what each
// processor runs from moment to moment under a local scheduling discipline,
// and the messages between processes. It is the engine below gangsim's
// process-level coscheduling policies (GS, local, SB, FCS, BCS, PBCS in
// package policies), which place jobs in an Ousterhout matrix and strobe
// the processors at every slot; procsim decides, processor by processor,
// what runs in between.
//
// # The application model
//
// A job of p processes runs the BSP loop of its model.App: in every
// iteration process i computes for
//
//	c_i = App.ComputePerIteration(i, p)
//
// and then makes one communication call of R rounds; in each round it
// sends the same message of m bytes to each of its partners and receives
// one from each (Rounds): a ring is one round with both neighbours, an
// all-to-all one round with the p-1 others, a barrier ceil(log2 p)
// rounds of a zero-byte message (dissemination), and a job without
// communication has R = 0. A process's NIC sends one message at a time: a
// round's messages, b bytes in all (ring 2m, all-to-all (p-1)m, barrier 0),
// posted at t leave once the process's previous round is through, at
// s = max(t, n) with n when that one arrived, and arrive at
//
//	s + L(b, k)
//
// where L is the one-way time of the hardware model (hwmodel.Costs.Message)
// with k the contexts each NIC is configured for (Config.Contexts: the gang
// scheduler's MPL, as FM's buffer division fixes it, Etsion and Feitelson
// 3.1; k = 1 for the dedicated runtime); no cost model means L = 0. With
// blocking calls a process posts round r once it has received round r-1's
// messages, and the call is over when it has received round R-1's; with
// non-blocking calls it posts every round of the call at once (one after
// another on its NIC) and goes on computing, and waits for them
// (MPI_Waitall) at the end of the next iteration's computation.
//
// Alone on its processors, a balanced job (every c_i = c) settles into
// iterations of
//
//	λ = c + R × L(b, 1)             (blocking)
//	λ = max(c, R × L(b, 1))         (non-blocking: computing overlaps the
//	                                 previous call, which the NIC bounds)
//
// (TestIterationTime); an imbalanced one into what the max-plus
// recurrences of program.fit give. A job whose dedicated runtime is R_d
// runs the most iterations N that end by R_d (with non-blocking calls, the
// last call waited for), E(N) <= R_d, and then a tail in which every
// process computes ρ = R_d - E(N) without communicating, so that alone it
// ends at R_d exactly (TestAloneRunsDedicated). The job-level model of
// package policies charges G + C(k) per iteration (G = max_i c_i, C(k) =
// R L(b, k)): the blocking λ of a balanced job.
//
// # Processors
//
// Every processor runs at most one process at a time. A process is
// computing, waiting for a message (spinning: it keeps its processor and
// burns it; or blocked: it has yielded it), ready (runnable, not running)
// or done. Switching a processor from one process to another costs the
// local context switch (LocalSwitch, the hardware model's figure); a global
// strobe (a gang switch of the policy's round robin) costs the processors
// it switches the hardware model's gang switch instead, during which
// nothing on them progresses.
//
// With a hardware model that knows a node's memory and paging
// (hwmodel.MemoryCosts), a node whose processes need more memory than it
// has (model.App.MemPerProcKB) pages: a process a local switch brings back
// to a processor pages back what the processes that ran on the processors
// of its run queue since it last ran displaced (its processor's; under
// SB's node-wide run queue, where it may come back on another processor,
// its node's), as much as they touched in the time they ran or switched
// there (MemoryCosts.Displace), at most the smaller of its memory and the
// node's excess, at the paging rate, on top of the local switch; nothing
// at its first start. A gang switch's paging is the gang
// scheduler's, in the strobe's start times (package policies).
//
// The disciplines (Kind):
//
//   - GS: only the slot's process runs on a processor (its owner, given at
//     every strobe); a waiting process spins. A job switched out keeps its
//     messages in flight where they are and receives them once switched
//     back in, as network preemption does (Hori et al.), so that a job
//     progresses exactly as much as its windows allow: GS at process level
//     equals GS at job level.
//   - Local: uncoordinated round robin of the ready processes on each
//     processor, a quantum each from a phase drawn at random per
//     processor; a waiting process spins.
//   - SB: spin-block implicit coscheduling (Arpaci-Dusseau): a waiting
//     process spins at most SpinThreshold and then blocks until a message
//     wakes it, and the node's operating system shares the processors
//     (Sched). Under SchedLinux, the default, it is Linux 2.4's scheduler,
//     which the thesis' clusters ran (linux.go): one run queue per node,
//     a counter of timer ticks per process that running (or spinning)
//     runs down, the process of highest counter run (a little higher on
//     the processor it last ran on), every counter refilled when no
//     runnable process has ticks left (counter/2 + the slice: sleepers
//     gain); a woken process keeps its counter, takes its processor or
//     another of its node if idle, and otherwise preempts only a process
//     with at least 2 ticks less, or waits for that one's slice to end or
//     for it to block. A fine-grained job's woken process therefore often
//     waits behind another job's (thesis 6.3.2.4). Under SchedBoost, an
//     idealised scheduler per processor: round robin as Local, each
//     process with a time slice of Quantum kept across preemptions; a
//     woken process gets a whole slice back and takes the processor from
//     a process that only spins or has less of its slice left.
//   - FCS: flexible coscheduling (Frachtenberg, thesis 6.2.1, Fig. 6.1):
//     strobes as GS; at the end of every timeslice (EndSlot, also when its
//     job goes on in the next slot) each process of the slot is classified
//     CS, F or DC from what it did in the slot; a new job's processes are
//     CS and run only in their own slot until first classified, at the
//     end of their first slot that ends after the job's probation
//     (Config.Probation: FCS "always coschedules a job in its first few
//     seconds of running", thesis 6.4.4). A CS owner
//     runs alone and blocks when it waits; an F owner is prioritized in its
//     slot (it runs whenever it is ready) but spin-blocks, and the others
//     fill its holes. Outside a prioritized owner's slot (an owner that is
//     DC, a blocked F one, or none) the classified processes that may run
//     there share the processor as under SB ("effectively the same as
//     SB's, with the exception that F processes are prioritized when their
//     assigned slot is the active one", 6.3.2.2): a strobe into such a
//     slot leaves the running process on it, and a woken process competes
//     under the local scheduler (Sched) as under SB, with a run queue per
//     processor (the node manager keeps each process on its column's
//     processor); the policies' default for FCS is SchedBoost.
//   - BCS and PBCS: buffered coscheduling (thesis 5.3, 6.2.2): strobes as
//     GS; every communication posted during a micro-timeslice is performed
//     from the start of the next one (or, its NIC performing one transfer
//     at a time, once the process's previous transfer is through) and
//     completes at the end of the micro-timeslice in which the transfer
//     ends (1.5 micro-timeslices on average for a short message); a blocking call blocks its process at once and the
//     processor switches to the next ready process, round robin, the
//     owner first when it is ready. PBCS runs a prioritized job
//     (App.Priority > 0) whenever it is ready.
//
// # Events and speed
//
// The simulation is event by event: a process's computation ends, the
// message that completes a waiting process's wait arrives, a spin gives
// up, a processor's switch ends, a local quantum ends. Idle time is never
// stepped. Events at the same time are taken in the order they were
// scheduled (a sequence number).
//
// A message's arrival is not an event of its own. The message keeps its
// arrival time and the sequence number its arrival event would have had in
// its receiver's receive slot, and counts as received once anything looks
// at the slot after that point of the simulation; a process that waits
// (spinning or blocked) gets one event, at the arrival of the last message
// its wait needs, once all of them are on their way. The order of
// same-time events, and so every outcome, is the one of a simulation in
// which every arrival is an event. An all-to-all round's messages all
// leave their sender's NIC at once and take consecutive sequence numbers:
// they are kept as one record per sender and call, from which a
// receiver's wait finds the last message it needs in O(1) (the latest of
// the call's two latest records that is not its own; fanout.go), so that
// a replay's work grows linearly with job size, not with the p(p-1)
// messages of a round. Events made stale (a preempted
// process's computation end, a spin its message cut short, a wake-up whose
// messages were re-timed) are taken out of the queue instead of being
// popped and ignored. The queue is indexed (a timer slot per process and
// processor): a radix heap of the events' times, as the simulator never
// schedules into the past. A push puts its event, unsorted, into the
// bucket of the highest bit in which its time differs from the last
// event's; a pop takes the first of the events at that time (kept in the
// order of their sequence numbers), or else moves on to the least time of
// the lowest bucket that holds events and spreads that bucket over the
// ones below. No event is ever sifted. Any correct priority queue pops
// the same events in the same order, as no two events have the same time
// and sequence number. (How many events a replay takes, and how many
// it would take counting every message's arrival, policies'
// BenchmarkCoschedThesis reports.)
//
// A job whose processes all run without competition (the owners of a
// gang slot under GS, a job alone on its processors under every
// discipline, and under SB's node-wide run queue each of its processes
// alone on its node) settles into a periodic pattern; once its state at the start
// of an iteration repeats one of its last four exactly (periods of one to
// four iterations; under BCS and PBCS at the same phase of the
// micro-timeslice, so that a period is whole micro-timeslices and the
// transfers meet the same boundaries), the simulator moves it forward by
// whole periods up to the next moment anything else could happen, without
// simulating those iterations (checked against the iteration-by-iteration
// simulation in TestSkipEqualsIterations, at every strobe in
// TestSkipLockstep, and on gang matrices in TestSkipBesideResidents and
// TestSkipBeforeResidents). The job's pending events are pushed again
// at once, so they take sequence numbers ahead of events that other jobs
// push before the job would have pushed its own: at an instant they share,
// the order differs from the iteration-by-iteration simulation's. That is
// harmless while the job meets no other process on its processors, and
// under GS, where it meets them only through the gang scheduler's
// strobes. FCS's CS owners compete with the other jobs' processes there
// once their slot ends, and were seen to end otherwise: FCS moves an owner
// only when it is alone on its processors. A job moved while alone that
// later meets a job arriving on its processors differs only if its
// re-ordered events meet that job's at one microsecond twice over, which
// the matrices with arrivals (TestSkipBeforeResidents) have not shown.
//
// A strobe that names the same owners changes nothing on the processors
// of a job that owns them alone, but FCS's classification of its
// processes. When the gang scheduler says that its strobes name the same
// owners until its next event (Steady: one row, all of whose jobs run),
// such a job is moved forward across the strobes, up to the last one
// before that event: under FCS only once every classification up to the
// strobe after its landing is proved to keep its processes' classes,
// from the bounds its period puts on what a slot measures (skip.go,
// classKept); those classifications then only restart the measurements.
// Until it lands, the strobes leave the job alone (checked against the
// iteration-by-iteration simulation under a one-row gang scheduler in
// TestSkipAcrossStrobes).
package procsim
