// Package sim is gangsim's deterministic discrete-event engine.
//
// An Engine replays a stream of jobs (a model.JobReader) against a Policy.
// Time is simulated integer microseconds (model.Time); the engine never reads
// the wall clock, so the same inputs give the same run, event for event.
//
// # Events and their order
//
// Three kinds of events exist: a job's arrival, a job's completion, and a
// timer the policy set. They are kept in one heap ordered by
// (time, rank, sequence number): the rank comes from the Order rule, and the
// sequence number (creation order) breaks the remaining ties, so arrivals at
// the same time keep their input order. The rules:
//
//   - OrderEndsFirst (default): at a time t, completions, then arrivals, then
//     timers. A job that ends at t frees its processors for every job that
//     arrives at t. This is the usual choice of simulators.
//   - OrderPyss: emulates pyss, whose event queue puts every submission at t
//     before every termination at t but whose reservation profile already
//     frees a job that ends at t exactly at its estimate. So: completions
//     exactly at the job's estimate free their processors first, then come
//     the arrivals, then the terminations in creation order (the order the
//     jobs started): the other completions, and the deferred passes of the
//     completions at the estimate; then timers. See
//     docs/engine.md, "The pyss rules", rule 2.
//
// After events, the engine asks the policy for a scheduling pass. The Passes
// rule says how often: PassPerTime (default) runs one pass once every event
// at a time has been applied; PassPerEvent runs one after every event, as
// pyss does (under OrderPyss, a completion at its estimate frees its
// processors early but has its pass at its place among the terminations).
//
// # Range
//
// Every time the engine reads lies within ±model.MaxTime (10^10 s): a job
// beyond it, or with application attributes out of range
// (model.App.Check), stops the run with ErrTimeRange (the readers refuse
// such values first, with their position). A run whose next event would
// come after model.Horizon (2^62 µs) stops with ErrHorizon. Between them
// the sums a policy forms of the current time and a few such values stay
// below model.Never: none of them wraps.
//
// # Streaming
//
// The engine reads the next job only when the previous arrival has been
// processed, and recycles a job's state when it completes, so memory grows
// with the jobs in the system (queued or running), not with the trace.
// Outcomes and time-series samples are handed to writers as they happen.
//
// # Progress and time sharing
//
// A job carries an amount of work (its dedicated runtime) and, while it
// runs, holds its processors and progresses at a Rate (FullRate is
// dedicated speed) during the windows of its Duty (always on unless a
// time-sharing policy sets one). Batch policies only Start jobs, which then
// run at FullRate to completion. Time-sharing policies also Suspend (release
// the processors), Resume, SetRate (0 holds the processors without
// progress, as during a context switch) and SetDuty: a periodic duty says
// that a job progresses only in some windows of every cycle, as a gang
// scheduler's round robin of time slots does. The engine accounts the work
// done at every change and computes the completion from the rate and the
// duty directly, so a job in a stable round robin costs no event per
// quantum. Timers let a policy act when something other than the round
// robin changes.
//
// A policy may notice completions late (Noticer): a job whose work is done
// then keeps its processors, without progress, until the time the policy
// gives, and completes there (its End). STORM's machine manager, which
// learns of terminations only at its heartbeats, is the case in point.
//
// The engine checks that the running jobs together hold at most the machine
// times the policy's Slots (TimeSharing: the multiprogramming level; 1 for
// space sharing).
// The time series' busy processors count each running job's processors
// times the share of time its duty has it on.
package sim
