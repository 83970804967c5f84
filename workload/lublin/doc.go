// Package lublin generates synthetic parallel workloads with the model of
// U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers:
// modeling the characteristics of rigid jobs", J. Parallel Distrib. Comput.
// 63(11):1105-1122, 2003, as its authors' reference program m_lublin99.c
// implements it. Every parameter value comes from that program (see
// BatchParams, InteractiveParams and CombinedParams); where the program and
// a description differ, the program wins.
//
// # The model
//
// Jobs belong to a class: batch or interactive, each with its own
// parameters and its own arrival stream (the program's default, merged by
// arrival time), or a single combined class. For each class:
//
//   - Size. With probability SerialProb a job is serial. Otherwise x is
//     drawn from a two-stage uniform distribution, uniform on [ULow, UMed]
//     with probability UProb and on [UMed, UHi] otherwise; x is rounded to
//     an integer for the fraction Pow2Prob of all jobs (a probability among
//     all jobs, not among parallel ones), and the size is 2^x rounded to the
//     nearest integer.
//   - Runtime. ln(runtime in seconds) is hyper-gamma: gamma(A1, B1) with
//     probability p = PA*size+PB (size in processors, clamped to [0, 1]),
//     else gamma(A2, B2); draws above 12 are redrawn; the runtime is
//     exp(draw) truncated to whole seconds (1 s to 162754 s).
//   - Arrivals. ln(inter-arrival in seconds) is gamma(AArr*ARAR, BArr),
//     redrawn above 13. The daily cycle stretches it: the day has 48
//     half-hour buckets whose weights (DailyWeights, mean 1) come from a
//     gamma(ANum, BNum) density over half-hour units starting at 05:00; a
//     draw g buys exp(g)/1800 points and a bucket costs its weight in points
//     for its 1800 s, so busy half hours receive proportionally more jobs.
//     Time 0 is midnight (Config.StartHour moves it).
//
// Times are whole seconds, as in the program. Like the program, the
// generator adds each inter-arrival increment, in floating point, to an
// integer count of seconds, which truncates it: submit times lag the
// model's own clock (which keeps the fraction for the daily cycle) by about
// half a second per arrival of a class. Over long traces this slowly moves
// the arrivals' daily peak earlier on the wall clock, by about 0.5 s times
// the number of jobs, exactly as the program's output does.
//
// # Machine size
//
// The published parameters describe 128 processors (UHi = log2(128)). The
// program has no machine-size option; its instructions are to set UHi to
// log2 of the machine and UMed to UHi-2.5 (within [UHi-3.5, UHi-1.5]).
// Params.ForProcs, applied to the defaults by Config.Procs, shifts UHi and
// UMed by log2(P)-7, which keeps each class's published distances: on P
// processors the combined class has UHi = log2(P) and UMed = log2(P)-2.5,
// batch jobs UHi = log2(P) and UMed = log2(P)-2, interactive jobs
// UHi = log2(P)-1.5 and UMed = log2(P)-4. ULow does not move; on very small
// machines the bounds are clamped to 0 <= ULow <= UMed <= UHi. No size
// exceeds P: on a machine that is not a power of two, a power-of-two size
// rounded above P becomes the largest power of two below P. The runtime
// and arrival parameters do not depend on P.
//
// # Use
//
// A Generator streams jobs in constant memory (Read, or the Jobs iterator)
// and implements model.JobReader; Generate builds a whole model.Trace. Jobs
// have an ID, a submit time, a runtime, a size (AllocProcs and ReqProcs),
// the status "completed" and, when classes are distinguished, the SWF queue
// (1 batch, 0 interactive, as the program writes them); every other field is
// missing. Randomness comes from the caller's *rand.Rand: the same Config
// and seed give the same jobs.
//
// # Validation
//
// The tests check, on samples of 200,000 jobs with tolerances from the
// sampling error (4 standard errors for fractions, the 0.01%
// Kolmogorov-Smirnov critical value 2.226/sqrt(n) for distributions): the
// serial and power-of-two fractions; the distribution of sizes against the
// discrete CDF that the two-stage uniform implies; ln(runtime) against the
// hyper-gamma computed with gonum's distuv.Gamma, within bands of sizes;
// the arrivals, mapped through the daily cycle, against the truncated gamma
// of ln(inter-arrival), and the share of arrivals in each half hour against
// the weights; the rejection bounds; machine sizes from 1 to 4096
// processors. The daily weights match values printed by the reference
// program. A one-off comparison with the compiled reference program (not
// part of the repository) replayed its gamma draws and uniforms through
// this package's arrival and size arithmetic with identical results, and
// found two-sample KS distances below the 1% critical value for sizes,
// runtimes and inter-arrival times on samples of a million jobs.
package lublin
