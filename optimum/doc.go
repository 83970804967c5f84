// Package optimum computes what an ideal scheduler achieves on a static
// workload (all jobs present from the start, each on fixed processors):
// the least turnaround time and the least mean response time, the
// "performance that would be obtained by an optimal scheduler, derived
// analytically" that Frachtenberg's thesis sets beside its algorithms in
// Fig. 6.7 (section 6.3.2.5), where "even overhead resulting from context
// switches is not factored into the optimal figure".
//
// # The model
//
// The ideal scheduler is fluid: at every moment it gives each job a rate
// r_j in [0, 1], the share of its dedicated speed at which all its
// processes progress together (a BSP job is only as fast as its slowest
// process), and a processor may be shared by any number of processes
// without cost. Job j's process on processor p needs, over the whole job,
//
//	d_jp = R_j × c_i / max_k c_k
//
// of that processor's time, where R_j is the job's dedicated run time and
// c_i the computation per iteration of its process i on p
// (model.App.ComputePerIteration): the slowest process computes all the
// time, a faster one only its share, and the time a process spends
// waiting for its peers or for messages is a hole another job may fill
// (communication is taken to overlap with other work). A job without
// computation attributes needs R_j on each of its processors.
//
// Turnaround: every job can run at the constant rate that ends it at T,
// so the least turnaround is the busiest processor's total demand,
//
//	T* = max_p Σ_j d_jp.
//
// Mean response: for an order in which the jobs complete, let the
// intervals between consecutive completions last Δ_1, ..., Δ_n, and let
// y_jk be the share of job j's work done in interval k (0 once j has
// completed). The sum of response times Σ_k (n - k + 1) Δ_k is minimized
// subject to Σ_k y_jk = 1 for every job, job π(k) done by the end of
// interval k, and Σ_j y_jk d_jp ≤ Δ_k on every processor in every
// interval: a linear program (solved with gonum's simplex). The optimum
// is the least over all completion orders (n! of them; Optimize accepts
// up to MaxJobs jobs).
//
// Jobs are placed by model.App.Pin; a job without one is taken to run on
// processors 0 to size-1 (where a first-fit gang scheduler puts the jobs
// of the static workloads, which all start together).
package optimum
