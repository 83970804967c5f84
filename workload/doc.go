// Package workload makes the workloads gangsim replays: it reads a trace
// or generates one (the Lublin-Feitelson model, package lublin; the
// thesis' static scenarios, package workload/scenario; a synthetic
// workload whose saturation point is known by construction,
// SyntheticSource), then transforms the
// jobs the way E. Frachtenberg's PhD thesis built its dynamic workload
// (section 6.4.1): application attributes, user estimates, load scaling
// and time compression.
//
// # Spec
//
// A Spec is the whole recipe as data: the source (a trace file and its
// cleaning, a Lublin configuration, or a scenario name and options), the
// transforms and the seed. It round-trips through JSON with snake_case
// names, and Spec.Params lists it for a manifest. Spec.Open returns a
// Reader, a model.JobReader of the transformed jobs; the genwork command
// only turns flags into a Spec and writes what the Reader yields, so a
// program that builds the same Spec gets the same jobs.
//
// # Presets and selection
//
// A Spec may name a preset (Spec.Preset) that gives every field it leaves
// unset. "thesis" (ThesisPreset) is the thesis' dynamic workload as the
// thesis describes it: 1000 jobs of the Lublin model's single class for 32
// processors, application attributes, loose estimates and time divided by
// 100, with no load target (the experiments set one). Its Lublin source
// carries a Selection: of the workloads drawn one after another from the
// seed's generator stream, it keeps the first whose Profile (arrival span,
// median size, power-of-two share, offered load) falls in the windows the
// thesis' words give (ThesisSpanDays, ThesisMedianSize, ThesisRawLoad).
// The same seed always keeps the same workload; the draw kept is in the
// header's notes and the manifest ("result.selection_draw").
//
// # Transforms
//
// They apply to each job in this order:
//
//  1. Attributes: a computation granularity drawn per job (5, 50 or 500 ms
//     with equal probability by default, thesis 6.4.1), the communication
//     pattern (ring), mode (blocking), imbalance and message size.
//  2. Estimates: "trace" keeps the source's, "exact" sets them to the
//     runtime, "loose" to the runtime times a factor drawn uniformly on
//     [1, MaxFactor], MaxFactor 5 by default (the thesis' "loose
//     estimates that are up to 5 times longer"; it does not give the
//     distribution, the uniform one is this package's choice).
//  3. Load: every runtime (with its estimate) is multiplied by
//     target/load, the thesis' method ("divide the execution times by
//     another factor"); or, with scale "arrivals", every submit time is
//     multiplied by load/target.
//  4. Compress: every time is divided by a factor (the thesis used 100).
//
// Times are rounded to the microsecond after each step. Granularities are
// the application's own and are never scaled.
//
// # Offered load
//
// The offered load of a workload on a machine of P processors is
//
//	load = sum over jobs of (size × runtime) / (P × span)
//
// where size is model.Job.Size, runtime the job's runtime, and span the
// arrival span: the latest submit time minus the earliest. Jobs with an
// unknown size or runtime add no work; jobs with an unknown submit time
// take no part in the span. P is the header's MaxProcs unless Load.Procs
// says otherwise. Because the arrival span does not depend on the
// runtimes, multiplying every runtime by f multiplies the load by exactly
// f, and multiplying every submit time by g divides it by g (up to the
// rounding of times to the microsecond), so one factor reaches the target;
// compression divides work and span alike and leaves the load unchanged.
// The span leaves out the last jobs' runtimes, so a short trace with long
// jobs can have a load above 1 that the machine could still serve.
//
// The factor is measured on the source's jobs (after cleaning) in a first
// pass, and the load reached, after every transform, in a second; the jobs
// are returned from a third. A trace file is read again for each pass and
// the generator re-seeded, so memory stays constant; only the "sort"
// cleaning rule holds a trace in memory.
//
// # Randomness
//
// Every random choice comes from the Spec's seed, through one stream per
// purpose (NewStream with StreamGenerator, StreamAttributes,
// StreamEstimates): adding loose estimates does not change the jobs'
// sizes, runtimes or arrivals, and adding attributes does not change the
// estimates. The same Spec gives byte-identical outputs.
package workload
