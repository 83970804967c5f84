package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gangsim/gangsim/model"
)

// JobMetrics holds the per-job metrics of the completed jobs of a run as
// parallel slices, one element per completed job, in the order of the
// outcomes they come from. Rejected jobs have no element.
type JobMetrics struct {
	ID       []int64   // job IDs
	Wait     []float64 // Tw = start - submit, seconds
	Response []float64 // Tw + Tr = end - submit, seconds
	// Slowdown is the unbounded slowdown response / runtime
	// (model.Outcome.Slowdown: 0 for a job of zero runtime).
	Slowdown []float64
	// BoundedSlowdown is the classic form, BoundedSlowdown(Tw, Tr, tau).
	BoundedSlowdown []float64
	// TimeSharingBoundedSlowdown is the thesis' form against the dedicated
	// runtime, TimeSharingBoundedSlowdown(Tw, Tr, Td, tau).
	TimeSharingBoundedSlowdown []float64
}

// PerJob computes the per-job metrics of the completed outcomes, with tau
// the short-job bound of both bounded slowdowns (DefaultTau, or
// CompressedTau(f) for a workload whose time is compressed by f). It panics
// if tau <= 0.
func PerJob(outcomes []model.Outcome, tau model.Time) JobMetrics {
	if tau <= 0 {
		panic(fmt.Sprintf("metrics: bounded slowdown with tau %v <= 0", tau))
	}
	n := 0
	for i := range outcomes {
		if outcomes[i].Completed() {
			n++
		}
	}
	m := JobMetrics{
		ID: make([]int64, 0, n), Wait: make([]float64, 0, n), Response: make([]float64, 0, n),
		Slowdown: make([]float64, 0, n), BoundedSlowdown: make([]float64, 0, n),
		TimeSharingBoundedSlowdown: make([]float64, 0, n),
	}
	for i := range outcomes {
		o := &outcomes[i]
		if !o.Completed() {
			continue
		}
		m.ID = append(m.ID, o.JobID)
		m.Wait = append(m.Wait, o.Wait().Seconds())
		m.Response = append(m.Response, o.Response().Seconds())
		m.Slowdown = append(m.Slowdown, o.Slowdown())
		m.BoundedSlowdown = append(m.BoundedSlowdown, BoundedSlowdown(o.Wait(), o.Runtime, tau))
		m.TimeSharingBoundedSlowdown = append(m.TimeSharingBoundedSlowdown,
			TimeSharingBoundedSlowdown(o.Wait(), o.Runtime, o.Dedicated, tau))
	}
	return m
}

// Makespan is the time from the first submit to the last completion of the
// completed outcomes (the run's turnaround); 0 with none.
func Makespan(outcomes []model.Outcome) model.Time {
	first, last, seen := model.Time(0), model.Time(0), false
	for i := range outcomes {
		o := &outcomes[i]
		if !o.Completed() {
			continue
		}
		if !seen {
			first, last, seen = o.Submit, o.End, true
		}
		first, last = min(first, o.Submit), max(last, o.End)
	}
	return last - first
}

// work is the processor-seconds of work a completed job did. At process
// level (o.Sharing == model.ProcessLevel) it is the time its processes
// computed (o.CPU), the work itself, whatever the schedule. Otherwise it is
// Procs × Td, the processors it holds for its dedicated runtime, which
// under batch policies equals its runtime (an outcome without a dedicated
// runtime, 0 as from a file that lacks the column, counts its runtime
// instead). The two differ by what the job's processes wait for alone
// (messages, slower peers): a job holding its processors counts those
// holes as used, and time sharing at process level fills them with other
// jobs' work, so Procs × Td can add up to more than the machine. On the
// thesis' complementing scenario (Table 6.3), whose 4-process job computes
// a quarter of the time on two of its processors, even the optimal
// schedule has Σ Procs × Td = 1.37 × 4 processors × its makespan, while
// what the processes compute fits in it (0.995).
func work(o *model.Outcome) float64 {
	if o.Sharing == model.ProcessLevel {
		return o.CPU.Seconds()
	}
	d := o.Dedicated
	if d <= 0 {
		d = o.Runtime
	}
	return float64(o.Procs) * d.Seconds()
}

// Utilization is the fraction of a machine of procs processors that the
// completed jobs used over the makespan: Σ w / (procs × makespan), with w
// a job's work (see work): at process level the time its processes
// computed, which is at most the machine's capacity; otherwise Procs × Td,
// with Td the dedicated runtime, so that time-sharing runs, whose jobs
// stretch while descheduled, are not counted twice (for batch runs this
// is the pyss oracle's definition with the runtime). 0 when the makespan
// is 0. It panics if procs <= 0.
func Utilization(outcomes []model.Outcome, procs int) float64 {
	if procs <= 0 {
		panic("metrics: utilization of a machine with no processors")
	}
	span := Makespan(outcomes)
	if span <= 0 {
		return 0
	}
	var w float64
	for i := range outcomes {
		if outcomes[i].Completed() {
			w += work(&outcomes[i])
		}
	}
	return w / (float64(procs) * span.Seconds())
}

// Throughput is the number of completed jobs per second of makespan; 0
// when the makespan is 0.
func Throughput(outcomes []model.Outcome) float64 {
	span := Makespan(outcomes)
	if span <= 0 {
		return 0
	}
	n := 0
	for i := range outcomes {
		if outcomes[i].Completed() {
			n++
		}
	}
	return float64(n) / span.Seconds()
}

// GangOverhead is the gang-scheduling overhead an application observes,
// O = (T_gang - T_nogang) / T_nogang (Hori, Tezuka and Ishikawa 1998,
// "Overhead Analysis of Preemptive Gang Scheduling", section 5), with
// T_gang its execution time under the gang scheduler and T_nogang the time
// with an infinite time slice. The paper reports O under 9% at a 100 ms
// slice. It panics if noGang <= 0.
func GangOverhead(gang, noGang model.Time) float64 {
	if noGang <= 0 {
		panic(fmt.Sprintf("metrics: gang overhead against a run of %v", noGang))
	}
	return float64(gang-noGang) / float64(noGang)
}

// TrimBySubmit drops warm-up and drain: the first ⌊head × n⌋ and the last
// ⌊tail × n⌋ of the n outcomes in submit order (rejected jobs included,
// ties broken by job ID, then by position in outcomes; ⌊⌋ forgives
// the float64 rounding of decimal fractions). The kept outcomes
// are returned in their original order, in a new slice. It panics unless
// head >= 0, tail >= 0 and head + tail < 1.
func TrimBySubmit(outcomes []model.Outcome, head, tail float64) []model.Outcome {
	if !(head >= 0 && tail >= 0 && head+tail < 1) {
		panic(fmt.Sprintf("metrics: trimming fractions %v and %v (want >= 0, sum < 1)", head, tail))
	}
	n := len(outcomes)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		oa, ob := &outcomes[a], &outcomes[b]
		return cmp.Or(cmp.Compare(oa.Submit, ob.Submit), cmp.Compare(oa.JobID, ob.JobID), cmp.Compare(a, b))
	})
	dropHead := fractionOf(head, n)
	dropTail := min(fractionOf(tail, n), n-dropHead)
	keep := make([]bool, n)
	for _, i := range order[dropHead : n-dropTail] {
		keep[i] = true
	}
	kept := make([]model.Outcome, 0, n-dropHead-dropTail)
	for i := range outcomes {
		if keep[i] {
			kept = append(kept, outcomes[i])
		}
	}
	return kept
}

// fractionOf is ⌊f × n⌋, forgiving the rounding error of decimal fractions
// (0.29 × 100 is 28.999999999999996 in float64 and counts as 29).
func fractionOf(f float64, n int) int {
	return int(math.Floor(f*float64(n) + 1e-9))
}
