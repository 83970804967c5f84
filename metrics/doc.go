// Package metrics computes the performance metrics of scheduling studies
// from per-job outcomes (model.Outcome) and time series (model.Sample): the
// per-job metrics, their distributions, run metrics, the short and long job
// groups of Frachtenberg's thesis, confidence intervals across seeds, and an
// automatic test of whether a finite run was past saturation.
//
// Functions take plain values or slices, in the manner of gonum's stat
// package; preconditions are documented, and a broken one panics with a
// "metrics: " prefix. Summary accumulates a run's aggregates from a stream
// of outcomes in constant memory; RunAccumulator accumulates a whole
// RunSummary from a stream, keeping (in Values) only the per-job values
// whose quantiles are asked for, 8 bytes a job each, so that a table of a
// 10-million-job run needs a few hundred megabytes; everything else works
// on slices. Columns and Label describe every column, per-job metric and
// known run parameter for a reader (label, unit, meaning): the one label
// table that tables, figures and documentation use.
//
// # Per-job and run metrics
//
// For a completed job with wait Tw (start - submit), time running Tr (end -
// start, including time descheduled) and dedicated runtime Td
// (model.Outcome.Dedicated):
//
//   - response time Tw + Tr; slowdown (Tw + Tr) / Tr;
//   - bounded slowdown max((Tw + Tr) / max(Tr, tau), 1) (Feitelson et al.
//     1997), BoundedSlowdown;
//   - the thesis' time-sharing bounded slowdown
//     max((Tw + Tr) / max(Td, tau), 1) (Frachtenberg, section 6.4.1),
//     TimeSharingBoundedSlowdown.
//
// tau is 10 s of real time, DefaultTau; for a workload whose time is
// compressed by a factor F, use CompressedTau(F) (the thesis: F = 100,
// tau = 0.1 s). PerJob gives all of them as parallel slices. Run metrics:
// Makespan (first submit to last completion, the turnaround), Utilization
// (Σ procs × Td over machine capacity × makespan), Throughput (completed
// jobs per second of makespan) and GangOverhead, Hori et al.'s (1998)
// O = (T_gang - T_nogang) / T_nogang. Summarize collects a run into a
// RunSummary, one row of a table (RunColumns, Values, Record).
//
// # Statistics
//
// Quantiles are Hyndman and Fan's type 7 (linear interpolation between
// order statistics, the default of R and NumPy): with n sorted values and
// h = (n-1)p, Q(p) = x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋]). Describe gives
// the mean, standard deviation and the 5/25/50/75/95 percentiles the
// thesis' box plots use (Figs. 6.9, 6.10); ECDF gives step points for CDF
// plots (Fig. 6.13); Values gives the same Distribution from a stream,
// its quantiles found by bisecting the float64 order over sorted chunks,
// so they are the exact order statistics of a sorted copy, and its mean a
// compensated (Neumaier) sum; MeanCI gives a Student t confidence interval of a
// mean across independent runs (seeds). TrimBySubmit drops a fraction of
// the first and last jobs by submit order, to leave out warm-up and drain.
//
// # Short and long jobs
//
// The thesis splits its 1000-job workload into the 500 jobs with the
// shortest execution time and the rest, "always using the execution time
// as measured with FCFS (batch) scheduling, so that the job groups remain
// the same" across schedulers (section 6.4.1). ClassifyFCFS (or
// ClassifyLengths, for any count) makes the groups once from the FCFS run;
// Lengths.Select splits any other run of the same workload. Ties are broken
// by job ID, so the groups are deterministic.
//
// # Saturation
//
// A finite workload hides saturation: "the queues would only grow until the
// workload is exhausted, and then the queues would slowly clear", and the
// metrics of such a run are meaningless (Frachtenberg, section 6.4.4). The
// thesis decided by eye, from plots of the jobs in the system over time
// (Fig. 6.11), that a load was past saturation when "the system does not
// manage to clear enough jobs before the last arrival burst".
//
// Saturated makes that decision automatic. Over the arrival period (first
// to last arrival), with N(t) the backlog — by default the jobs waiting to
// start (model.Sample.Queued, a step function), the queues that "would keep
// on growing on a saturated system" in the thesis' own definition; or, with
// SaturationTest.Measure = BacklogInSystem, every job in the system, what
// Fig. 6.11 plots:
//
//  1. The clearing level is the lower quartile of N over the arrival
//     period, time weighted (the smallest level at or below which the
//     system spent a quarter of the period): a level the backlog returns to
//     when the system keeps up.
//  2. ClearedAt is the fraction of the arrival period at which N was last at
//     or below that level.
//  3. The run is saturated if ClearedAt < 0.625.
//
// Why this works: below saturation N is stationary, so it returns to its
// lower quartile again and again, and ClearedAt tends to 1 as the workload
// grows (the excursions above the quartile are short against the arrival
// period). Past saturation the backlog grows roughly linearly, N(t) ≈ c t;
// its lower quartile is then c span / 4, which N last visits at a quarter of
// the period, so ClearedAt tends to 0.25 whatever the overload. The cutoff
// 0.625 is midway between the two limits. The test is scale-free (no job
// counts, machine sizes or times enter it), and it is robust to bursty
// arrivals: a burst raises N for a while, but as long as the backlog it
// leaves clears before the last 37.5% of the arrival period, the decision
// does not change, whereas a trend fitted over the whole period, or the
// backlog at the last arrival, swing with where the bursts fall. The
// evidence returned with the decision also holds the backlog at the last
// arrival, the median level, the fitted trend and the drain time after the
// last arrival, for plots and reports.
//
// Validation (the tests): single-processor jobs with Poisson arrivals and
// exponential runtimes on P processors under FCFS form an M/M/P queue,
// which saturates at offered load 1. Over 100 seeds on 8 processors
// (TestSaturationErrorRates, run with -rates), the test errs (saturated
// below 1, or not above it) at load 0.9 / 1.1 in 1% / 17% of 1000-job
// runs, 0% / 1% of 3000-job runs and 0% / 0% of 10,000-job runs; loads 0.8
// and 1.2 were never misjudged, even at 1000 jobs. The saturation point
// detected from a sweep of loads in steps of 0.02 approaches 1 as the
// workload grows: 0.92 to 1.16 (mean 1.03) over 8 seeds at 1000 jobs, 0.98
// to 1.00 over 5 seeds at 10,000 jobs, 1.00 for 3 seeds at 100,000 jobs
// (TestSaturationPointConverges logs them). Both measures give these
// numbers: in an M/M/P queue under FCFS the queue is the jobs in the
// system less P whenever positive. Bursty arrivals and heavy-tailed
// runtimes are much harder at 1000 jobs: with the Lublin model's arrivals
// and runtimes on 8 servers, a single run is called saturated at 0.9 in
// 21% of seeds and not saturated at 1.1 in 53%, and the majority of 30
// seeds reads 1.05 to 1.1 (results/method/saturation-heavy; Saturated
// gives the other measured errors).
//
// Assumptions and known failure modes:
//
//   - Short workloads near saturation are ambiguous: within ±10% of the
//     true point (with bursty arrivals and heavy-tailed runtimes, ±40%), a
//     1000-job run's backlog is as much noise as trend, and decisions
//     there are noisy (so SaturationPoint reports non-monotone sweeps).
//     Use more jobs, or several seeds and a majority, and mind that the
//     majority of short bursty workloads reads high.
//   - A change of load level within the workload (a quiet first part and a
//     busier but stable second part) can look saturated: the quartile is
//     set by the quiet part, and the busy part never returns to it.
//   - A burst at the very end of the arrival period, from which a stable
//     system has not recovered by the last arrival, pushes ClearedAt down,
//     though only if the system stays above its quartile for the last
//     37.5% of the period; a workload whose final bursts are that long
//     cannot be told from saturation by its backlog alone, by eye either.
//   - A workload so light that the system is mostly empty has a clearing
//     level of 0 and is judged by its last empty moment, which is right.
//   - Samples taken at a fixed period (sim.Config.SamplePeriod) miss
//     clearings shorter than the period; keep it far below the arrival
//     period, or judge from the outcomes (SaturatedOutcomes), which are
//     exact.
//   - Policies that admit every job at once (time sharing with no
//     multiprogramming limit) never queue: their saturation shows only as
//     growth of the jobs in the system, so judge them with
//     BacklogInSystem. The thesis bounds the multiprogramming level (6 in
//     6.4), and a bounded time-sharing system queues like a batch one.
//   - With BacklogInSystem, a heavy-tailed workload (the Lublin model's)
//     can look saturated: after a burst, a few long jobs keep running for
//     the rest of the arrival period and the count never returns to its
//     lower quartile, though nothing waits. This is why the default
//     watches the queue.
package metrics
