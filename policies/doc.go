// Package policies holds gangsim's scheduling policies. Each is a
// sim.Policy: the engine tells it about arrivals, completions and timers, and
// asks it for scheduling passes; it starts (and, for time-sharing policies,
// suspends and resumes) jobs through the engine.
//
// Batch (space-sharing) policies:
//
//   - FCFS starts queued jobs in arrival order while the first one fits.
//   - EASY is FCFS plus backfilling (Lifka 1995; Mu'alem and Feitelson 2001):
//     the first queued job that does not fit gets a reservation at the
//     earliest time enough processors are expected to be free (the shadow
//     time), and later jobs may start now if they fit and do not delay it:
//     they end (by their estimate) no later than the shadow time, or they use
//     only processors left over at the shadow time. With Perfect set, the
//     scheduler uses actual runtimes instead of user estimates.
//   - Conservative is backfilling in which every queued job holds a
//     reservation, made at its arrival at the earliest time it fits without
//     delaying any earlier reservation; when jobs end early the reservations
//     are compressed: sweeping in arrival order, each moves to its earliest
//     feasible time (never later than before), until a sweep moves none.
//
// A running job's expected end is its start plus its estimate; a job that
// runs past its estimate is expected to end at the next instant (now + 1 µs):
// it may end at any moment.
package policies
