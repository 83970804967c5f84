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
//     (../shared/oracle/SEMANTICS.md): a hole a sweep opens for an earlier
//     job stays open until the next termination, and a job arriving
//     meanwhile may take it. Each termination's sweep runs at its own
//     scheduling pass (under pyss's order, after the arrivals of the same
//     instant); with one pass per instant, that pass runs them all.
//
//     On issue 17's five-job case (TestConservativeReplanFiveJobs) the rules
//     differ: repeat starts job 3 at 60 s and job 5 at 160 s, single job 3
//     at 90 s and job 5 at 50 s.
//
// A running job's expected end is its start plus its estimate; a job that
// runs past its estimate is expected to end at the next instant (now + 1 µs):
// it may end at any moment.
package policies
