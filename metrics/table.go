package metrics

import (
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// RunSummary is one row of a table of runs: the run metrics and the
// distributions of the per-job metrics of its completed jobs. Build it with
// Summarize; print it with RunColumns and Values or Record.
type RunSummary struct {
	Jobs        int        // completed jobs
	Rejected    int        // jobs rejected at submission
	Makespan    model.Time // first submit to last completion (turnaround)
	Utilization float64    // Σ Procs × Td / (procs × makespan)
	Throughput  float64    // completed jobs per second of makespan

	Wait                       Distribution // seconds
	Response                   Distribution // seconds
	BoundedSlowdown            Distribution // classic form
	TimeSharingBoundedSlowdown Distribution // thesis' form, against Td
}

// Summarize computes a run's RunSummary from all its outcomes (rejected ones
// are counted, not measured), on a machine of procs processors, with tau
// the short-job bound of the bounded slowdowns. Trim the outcomes first
// (TrimBySubmit) to leave out warm-up and drain. It panics if procs <= 0 or
// tau <= 0.
func Summarize(outcomes []model.Outcome, procs int, tau model.Time) RunSummary {
	a := NewRunAccumulator(tau, AllJobMetrics()...)
	for i := range outcomes {
		a.Add(&outcomes[i])
	}
	return a.Summary(procs)
}

// distributionColumns returns the suffixes of the column names of the
// statistics each distribution contributes to a row, in the order of
// Distribution.values.
func distributionColumns() [9]string {
	return [...]string{"mean", "sd", "min", "p5", "p25", "median", "p75", "p95", "max"}
}

func (d *Distribution) values() [9]float64 {
	return [...]float64{d.Mean, d.StdDev, d.Min, d.P5, d.P25, d.Median, d.P75, d.P95, d.Max}
}

// RunColumns returns the names of the columns of a RunSummary row, in the
// order of Values and Record: "jobs", "rejected", "makespan_s",
// "utilization", "throughput_per_s", then for each of "wait_s",
// "response_s", "bsld" and "ts_bsld" nine columns named by a suffix:
// "_mean", "_sd", "_min", "_p5", "_p25", "_median", "_p75", "_p95", "_max"
// (so "wait_s_p95" is the 95th percentile of the wait in seconds).
// Columns describes each.
func RunColumns() []string {
	qs := Columns()
	cols := make([]string, len(qs))
	for i, q := range qs {
		cols[i] = q.Name
	}
	return cols
}

// Values returns the row as numbers, in the order of RunColumns; times in
// seconds. Statistics of an empty distribution are NaN.
func (r *RunSummary) Values() []float64 {
	v := []float64{float64(r.Jobs), float64(r.Rejected), r.Makespan.Seconds(), r.Utilization, r.Throughput}
	for _, d := range [...]*Distribution{&r.Wait, &r.Response, &r.BoundedSlowdown, &r.TimeSharingBoundedSlowdown} {
		dv := d.values()
		v = append(v, dv[:]...)
	}
	return v
}

// Record returns the row as text, in the order of RunColumns: counts as
// integers, the makespan as exact seconds, other numbers in the shortest
// form that reads back to the same float64 ("NaN" for a statistic of no
// values).
func (r *RunSummary) Record() []string {
	v := r.Values()
	rec := make([]string, len(v))
	rec[0], rec[1] = strconv.Itoa(r.Jobs), strconv.Itoa(r.Rejected)
	rec[2] = string(r.Makespan.AppendSeconds(nil))
	for i := 3; i < len(v); i++ {
		rec[i] = strconv.FormatFloat(v[i], 'g', -1, 64)
	}
	return rec
}
