// Package policies holds gangsim's scheduling policies. Each is a
// sim.Policy: the engine tells it about arrivals, completions and timers, and
// asks it for scheduling passes; it starts (and, for time-sharing policies,
// suspends and resumes) jobs through the engine.
//
// Batch (space-sharing) policies:
//
//   - FCFS starts queued jobs in arrival order while the first one fits.
//
//   - EASY is FCFS plus backfilling (Lifka 1995; Mu'alem and Feitelson 2001):
//     the first queued job that does not fit gets a reservation at the
//     earliest time enough processors are expected to be free (the shadow
//     time), and later jobs may start now if they fit and do not delay it:
//     they end (by their estimate) no later than the shadow time, or they use
//     only processors left over at the shadow time. With Perfect set, the
//     scheduler uses actual runtimes instead of user estimates.
//
//   - Conservative is backfilling in which every queued job holds a
//     reservation, made at its arrival at the earliest time it fits without
//     delaying any earlier reservation. When a job ends before its estimate
//     the reservations are compressed: sweeping the queue in arrival order,
//     each is lifted out and put back at its earliest feasible time (never
//     later than before). The Replan rule says how often:
//
//     ReplanRepeat (replan=repeat, the default) sweeps until a sweep moves
//     none. A later job's move can open a hole for an earlier one; the next
//     sweep gives it to the earliest-arrived job that fits, so every hole
//     goes to jobs in arrival order, and the plan after a termination does
//     not depend on when the next event happens to come.
//
//     ReplanSingle (replan=single, set by --compat pyss) sweeps once per
//     termination, including terminations at the estimate, as pyss does
//     (docs/engine.md, "The pyss rules", rule 5): a hole a sweep opens for an earlier
//     job stays open until the next termination, and a job arriving
//     meanwhile may take it. Each termination's sweep runs at its own
//     scheduling pass (under pyss's order, after the arrivals of the same
//     instant); with one pass per instant, that pass runs them all.
//
//     On a five-job case (TestConservativeReplanFiveJobs) the rules
//     differ: repeat starts job 3 at 60 s and job 5 at 160 s, single job 3
//     at 90 s and job 5 at 50 s.
//
//     A sweep does not search the whole plan before every reservation: a
//     reservation can move earlier only to a start whose window meets a
//     time where units came free since its job was last placed or looked
//     at, so only those starts are searched, and a job with nothing freed
//     before its reservation is passed over (TestConservativeEqualsScanAll
//     checks this against the whole-plan search).
//
// A running job's expected end is its start plus its estimate; a job that
// runs past its estimate is expected to end at the next instant (now + 1 µs):
// it may end at any moment.
//
// # Gang scheduling
//
// Gang (gs, GangConfig) is gang scheduling at job level. Jobs wait in a
// queue in front of an Ousterhout matrix whose rows are time slots and
// whose columns are processors (nodes under node allocation); all of a
// job's processes sit in one row, on columns of their own, and the matrix
// has at most MPL rows. A job's Start is when it leaves the queue for the
// matrix (the thesis' T_w, "the time the job spends in the queue", 6.4.1,
// ends there); its row's slot may come later.
//
// Defaults. Without parameters gs (and sb, fcs, bcs, pbcs, local, which
// share its matrix and queue) is the set-up of the thesis' dynamic
// experiments (6.4.1): MPL 6, a 100 ms quantum, EASY in front (backfill=
// easy) and DHC placement (alloc=dhc), STORM's mechanics on with a STORM
// cluster's hardware; DefaultGangConfig and DefaultsDoc say it.
//
// Placement (alloc=). First fit (ff, alias firstfit) takes the first row,
// a new one last, with enough free columns, and its lowest-numbered free
// columns. DHC (dhc: the buddy system of distributed hierarchical control,
// Feitelson and Rudolph, which ParPar and STORM use, thesis 4.2.1) gives a
// job of n columns a block of the smallest power of two b >= n columns,
// aligned on b (it starts at a multiple of b; the last block may be cut
// short by the machine's edge if it still holds n), of which the job takes
// the first n. Of the blocks, the least loaded (the fewest rows in which
// any of its columns is taken) wins, the leftmost on ties; the job goes
// into the first row where that block is wholly free, a new row if none is
// and the MPL allows. A hand-placed job (model.App.Pin, the thesis' static
// scenarios) takes its given columns in the first row where they are all
// free. A job that fits nowhere waits.
//
// Departures. When a job ends its columns are freed, and a row left empty
// is removed: the round robin never serves an empty row. At the next
// scheduling pass, once every job that ended at that time has left (so
// that their order does not matter), the matrix is repacked (slot
// unification, Feitelson and Rudolph, job by job): in
// row order, and in placement order within a row, every job of rows 1 and
// on moves to the earliest earlier row in which all of its columns are
// free, keeping its columns (processes do not migrate); a row the repack
// empties still receives later rows' jobs in the same repack, and the rows
// left empty are removed at its end, so the rows in use fall whenever all
// of a row's jobs find their columns free in earlier rows
// (TestRepackIntoEmptiedRow). A repack never changes who runs in the
// current slot: a job repacked out of the served row runs on to the
// slot's end (TestRepackKeepsServedSlot); a job repacked into it joins it
// as a placed job does (below). The repack counts no switch: a job is
// switched in when a slot it runs in begins and it did not run in the one
// before.
//
// Alternative scheduling (alternate=true, thesis 6.2, footnote 1). In a
// row's slot, jobs of other rows whose columns are all idle in it also
// run: the other rows are gone over in round-robin order from the slot's
// row, each row's jobs in placement order, and a job runs if none of its
// columns is taken by the row or by an alternate chosen before it.
//
// The round robin. The rows in use are served in matrix order, Quantum
// each, from the start of the current slot on; the slots of a cycle are
// planned again only when the matrix changes. At a slot's start every job
// that runs in it and did not run in the slot before is switched in: it
// holds its processors but makes no progress for the gang switch's cost,
// and counts one switch (Outcome.Switches, SwitchLoss). Jobs that ran in
// the slot before (alternates, or every job when one row is in use) go on
// without a switch, so with one row nothing is switched and nothing
// charged. The cost is the hardware model's
//
//	Costs.Switch(SwitchState{Nodes, Jobs: rows in use, Occupancy})
//
// (hwmodel.SwitchState; 0 without --hw), the same for every job switched
// in at that slot start. A run aborts if a switch of the cycle planned at
// a change would cost the whole quantum (New refuses a quantum no longer
// than the cheapest switch the run could make: Jobs from 2 to MPL,
// Occupancy 0 or 1).
//
// Memory. On a hardware model that knows a node's memory and paging
// (hwmodel.MemoryCosts: the qsnet presets), a switch into a slot also costs
// a job paging when the processes placed on one of its nodes, every row's
// (they all stay resident), need more memory than the node has
// (model.App.MemPerProcKB; jobs without it need none): while it was
// switched out the other jobs' processes there displaced part of its
// memory, which it pages back. It pages the smallest of its own processes'
// memory on the node, the node's excess, and what the other jobs'
// processes there touch in a quantum each (MemoryCosts.Displace), at the
// paging rate (MemoryCosts.PageIn); its processes synchronize, so the
// slowest of its nodes counts. The paging is computed from the matrix at
// every change, and is added to the gang switch of the jobs switched in,
// not to first starts; a run aborts if a charged switch with the longest
// paging of a job in the matrix would cost the whole quantum. At process
// level local switches page too (package procsim). Under bcs and pbcs every
// charged gang switch also costs the preset's BCS gang-switch loss
// (hwmodel.NodeCosts.BCSGangLoss).
//
// Occupancy is the share of the NIC buffers in use when the outgoing slot
// is switched out, estimated from the jobs that ran in it: each job counts
// its columns times the share of its running time it spends communicating,
// C(k) / (G + C(k)) below, here with k the rows in use, and the sum is divided
// by the matrix's columns (idle columns and jobs without communication
// count for nothing).
//
// Settling at changes. When a job is placed or leaves, the current slot
// goes on if its row still has a job to run: the jobs of that row that do
// not run in it, placed or repacked into it, join it at once, or when the
// switch into the slot ends if it has not, unless a job of another row
// (an alternate, or one kept running) holds one of their columns (they
// then wait for their row's next slot) (TestRepackJoinsServedRow). If the
// served row emptied, or nothing of it runs (TestRepackNothingLeftToRun),
// or the machine was idle, the slot
// of the next row still in the matrix (in the order before the change;
// the first row if none) starts now with a full quantum; its switch is
// charged unless it only starts jobs for the first time on an idle
// machine (jobs run for the first time then wait for a charged switch
// like the others but do not count it). A job that ran in the slot before
// goes on; if it was still being switched in (a change at the very
// instant its slot began, say), it goes on with its switch, counted once.
// A job the new slot leaves out loses only the part of its switch that
// passed: a switch replaced at its first instant does not count. Jobs
// placed in other rows wait for their row's slot, whose switch they count.
//
// Backfilling (backfill=). With none the queue is FCFS: a job that cannot
// be placed blocks those behind it. With easy (the default), the first job that cannot
// be placed gets a reservation at the shadow time: matrix jobs are
// expected to end at their start plus their estimate times the MPL (Zhang
// et al., as the thesis does in 6.4.1), or at the next instant once that
// has passed, and the shadow time is the first of those ends by which
// enough of them have left (their columns freed in a projected copy of
// the matrix, empty rows kept) for the head to be placed. A later job is
// placed now if it can be placed and either it is expected to end by the
// shadow time or the head can still be placed at the shadow time with it
// in its row. With mpl=1 and first fit, gs is FCFS or EASY exactly
// (TestGangMPL1IsBatch, on the shared logs).
//
// STORM's mechanics (GangConfig.Storm; storm=on|off, each of tick,
// launch and keep switchable, on by default with a STORM cluster's
// hardware: the qsnet presets). The thesis' experiments ran on STORM
// (Frachtenberg 4.2), whose managers add three things to the rules above.
// Tick: the machine manager acts only at its heartbeats, every quantum from
// time 0: arrivals are queued and jobs placed (and the matrix repacked)
// there, and a job's termination is noticed there (sim.Noticer): a job
// whose processes end between heartbeats keeps its columns and processors
// until the next one, which is its End. Slots then begin and end on
// heartbeats. Launch: a job placed at t has its binary sent, then is
// executed, each step ending at a heartbeat at least a quantum later
// (4.3.1.1); its processes exist from the first heartbeat at or after t +
// max(quantum, transfer) plus T_exec (hwmodel.ManagerCosts; without Tick,
// from t + transfer + T_exec). Until then it holds its columns and
// makes no progress, and no switch into its slot is counted for it. Keep:
// at a strobe a node manager deschedules a processor's process only if
// another process occupies the next slot there (4.2.1); at job level, a
// job that ran in the slot before goes on, without a switch, in a slot
// whose row leaves all its columns free, and stops whole otherwise (its
// processes left running would only wait for the others). What runs in a
// slot then depends on what ran before it: the row's jobs, the jobs of the
// slot before whose columns are all free in the row (in that slot's
// order), then alternates; the planned cycle lets a whole cycle pass
// before it repeats.
//
// Progress: the job-level communication model. A job with application
// attributes (model.App) is a BSP program: every iteration its slowest
// process computes for
//
//	G = max_i ComputePerIteration(i, p)
//
// and then the job makes one communication call, taking
//
//	C(k) = procsim.CallTime(pattern, p, m, costs, k)
//
// the rounds of the call (a ring: one, with both neighbours; all-to-all:
// one, with every other process; a barrier: ceil(log2 p) zero-byte
// rounds) times the hardware model's one-way time of a round's m bytes
// with k contexts configured on each NIC (hwmodel.Costs.Message), the same
// call the process-level simulator makes. k is the MPL, the size of the
// slot table, whatever the rows in use: FM divides a NIC's buffers "based
// on the fixed maximal number of contexts to be supported, and is not
// adapted according to the number that are currently active", set under
// gang scheduling to "the size of the time slot table" (Etsion and
// Feitelson 3.1, 4.1; netContexts). Its dedicated runtime is measured
// alone (k = 1), so under time sharing it progresses, while it runs in its
// slots and is not switching, at
//
//	rate = (G + C(1)) / (G + C(k))
//
// of dedicated speed: below 1 only where the hardware model's messages
// slow down with contexts (Myrinet's buffer division, Etsion and Feitelson
// 2.2), 1 with buffer switching or QsNet's per-job contexts, and 0 where
// no message gets through (no credits left): the run then stops with an
// error. A job without attributes, or a run without a cost model, is pure
// computation: rate 1.
//
// Where the rate is 1, gang scheduling at process level equals it at job
// level job by job, to the microsecond, whatever the pattern and mode
// (TestProcessGSEqualsJobGS). Below 1 the two levels differ slightly: the
// process-level job communicates only in its iterations, not in the tail
// of computation that ends its dedicated runtime, which the rate stretches
// here too, and a non-blocking or imbalanced multi-round job's iteration
// is the simulator's recurrence, not G + C(k) (TestProcessGSNearJobGS).
//
// The round robin is not stepped: from the planned cycle, every job gets a
// sim.Duty (the windows of the cycle in which it progresses) and the engine
// computes its completion directly; TestGangPlannedEqualsStepped checks
// every job's start, end, switches and switch loss against a twin that
// steps slot by slot.
package policies
