package metrics

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gangsim/gangsim/model"
)

// Values accumulates a sample of float64 values, one at a time, for its
// Distribution. Its count, mean, minimum and maximum take constant memory;
// its quantiles and standard deviation need every value, which it keeps
// only when Keep is set, in fixed-size chunks (8 bytes a value, never
// copied to grow), so that ten million values take 80 MB and no more.
// The zero value keeps nothing; set Keep before the first Add.
//
// The statistics are exact in the sense of Describe: the quantiles are
// order statistics of the values kept (Hyndman and Fan's type 7), not
// estimates; the mean is a compensated (Neumaier) sum in the order the
// values came, divided by their count.
type Values struct {
	// Keep keeps every value, for the quantiles and the standard
	// deviation.
	Keep bool

	n        int
	sum, c   float64 // compensated sum: sum + c
	min, max float64
	chunks   [][]float64
	sorted   bool
}

// chunkSize is the number of values in one chunk of Values: 512 KiB.
const chunkSize = 1 << 16

// Add adds v. It panics if v is NaN.
func (s *Values) Add(v float64) {
	if math.IsNaN(v) {
		panic("metrics: NaN value")
	}
	v += 0 // -0 becomes +0, as sorting treats them alike
	if s.n == 0 {
		s.min, s.max = v, v
	}
	s.n++
	s.min, s.max = min(s.min, v), max(s.max, v)
	s.sum, s.c = neumaier(s.sum, s.c, v)
	if !s.Keep {
		return
	}
	if k := len(s.chunks); k == 0 || len(s.chunks[k-1]) == chunkSize {
		s.chunks = append(s.chunks, make([]float64, 0, chunkSize))
	}
	last := &s.chunks[len(s.chunks)-1]
	*last = append(*last, v)
	s.sorted = false
}

// neumaier adds v to the compensated sum (sum, c): Neumaier's variant of
// Kahan summation, whose error does not grow with the number of terms.
func neumaier(sum, c, v float64) (float64, float64) {
	t := sum + v
	if math.Abs(sum) >= math.Abs(v) {
		c += (sum - t) + v
	} else {
		c += (v - t) + sum
	}
	return t, c
}

// Len is the number of values added.
func (s *Values) Len() int { return s.n }

// Mean is the mean of the values; NaN with none.
func (s *Values) Mean() float64 {
	if s.n == 0 {
		return math.NaN()
	}
	return (s.sum + s.c) / float64(s.n)
}

// sortChunks sorts every chunk in place, once.
func (s *Values) sortChunks() {
	if s.sorted {
		return
	}
	for _, c := range s.chunks {
		slices.Sort(c)
	}
	s.sorted = true
}

// orderKey maps a float64 (not NaN, not -0) to an unsigned key in the same
// order.
func orderKey(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func fromOrderKey(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// countAtMost is the number of kept values <= v; the chunks are sorted.
func (s *Values) countAtMost(v float64) int {
	n := 0
	for _, c := range s.chunks {
		n += sort.Search(len(c), func(i int) bool { return c[i] > v })
	}
	return n
}

// rank returns the value of rank r (0-based) among the kept values, as a
// sorted copy of all of them would hold at index r: the smallest value v
// with more than r values <= v, found by bisecting the float64 order.
func (s *Values) rank(r int) float64 {
	lo, hi := orderKey(s.min), orderKey(s.max)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if s.countAtMost(fromOrderKey(mid)) > r {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return fromOrderKey(lo)
}

// quantile is Quantile(p) of the kept values, exactly as over a sorted
// copy of them.
func (s *Values) quantile(p float64) float64 {
	h := float64(s.n-1) * p
	lo := int(math.Floor(h))
	if lo >= s.n-1 {
		return s.max
	}
	a := s.rank(lo)
	if h == float64(lo) {
		return a // Quantile's a + 0 × (next - a), for finite values
	}
	return a + (h-float64(lo))*(s.rank(lo+1)-a)
}

// Quantile is the p-quantile (0 <= p <= 1) of the values, Hyndman and
// Fan's type 7 as Quantile computes it over a sorted slice. It panics if
// no value was added, if p is outside [0, 1], or if the values were not
// kept (Keep unset) and p is neither 0 nor 1.
func (s *Values) Quantile(p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("metrics: quantile %v outside [0, 1]", p))
	}
	if s.n == 0 {
		panic("metrics: quantile of no values")
	}
	switch {
	case p == 0:
		return s.min
	case p == 1:
		return s.max
	case !s.Keep:
		panic("metrics: quantile of values not kept")
	}
	s.sortChunks()
	return s.quantile(p)
}

// Distribution describes the values: with Keep, every field as Describe
// computes it over the same values; without, N, Mean, Min and Max, the
// others NaN. Chunks are sorted in place the first time, so values added
// afterwards are still counted correctly but cost another sort.
func (s *Values) Distribution() Distribution {
	nan := math.NaN()
	d := Distribution{N: s.n, Mean: s.Mean(), StdDev: nan, Min: nan, P5: nan, P25: nan, Median: nan, P75: nan, P95: nan, Max: nan}
	if s.n == 0 {
		return d
	}
	d.Min, d.Max = s.min, s.max
	if !s.Keep {
		return d
	}
	s.sortChunks()
	d.P5, d.P25, d.Median = s.quantile(0.05), s.quantile(0.25), s.quantile(0.5)
	d.P75, d.P95 = s.quantile(0.75), s.quantile(0.95)
	if s.n > 1 {
		d.StdDev = s.stdDev(d.Mean)
	}
	return d
}

// stdDev is the sample standard deviation about mean, by the corrected
// two-pass formula (Chan, Golub and LeVeque 1983) with compensated sums.
func (s *Values) stdDev(mean float64) float64 {
	var ss, ssc, sd, sdc float64
	for _, c := range s.chunks {
		for _, v := range c {
			d := v - mean
			ss, ssc = neumaier(ss, ssc, d*d)
			sd, sdc = neumaier(sd, sdc, d)
		}
	}
	n := float64(s.n)
	sum := sd + sdc
	return math.Sqrt(max((ss+ssc-sum*sum/n)/(n-1), 0))
}

// Sorted returns the kept values in increasing order, in a new slice (for
// an ECDF or a plot). It panics if the values were not kept.
func (s *Values) Sorted() []float64 {
	if !s.Keep {
		panic("metrics: sorted values not kept")
	}
	out := make([]float64, 0, s.n)
	for _, c := range s.chunks {
		out = append(out, c...)
	}
	slices.Sort(out)
	return out
}

// JobMetric names one of the per-job metrics of a run.
type JobMetric uint8

// The per-job metrics, in the order of RunColumns.
const (
	WaitMetric                       JobMetric = iota // Tw, seconds
	ResponseMetric                                    // Tw + Tr, seconds
	BoundedSlowdownMetric                             // BoundedSlowdown
	TimeSharingBoundedSlowdownMetric                  // TimeSharingBoundedSlowdown
	numJobMetrics
)

// AllJobMetrics lists the per-job metrics in the order of RunColumns.
func AllJobMetrics() []JobMetric {
	return []JobMetric{WaitMetric, ResponseMetric, BoundedSlowdownMetric, TimeSharingBoundedSlowdownMetric}
}

var jobMetricColumns = [...]string{"wait_s", "response_s", "bsld", "ts_bsld"}

// Column is the prefix of the metric's columns in RunColumns: "wait_s",
// "response_s", "bsld" or "ts_bsld".
func (m JobMetric) Column() string {
	if int(m) < len(jobMetricColumns) {
		return jobMetricColumns[m]
	}
	return fmt.Sprintf("jobmetric(%d)", uint8(m))
}

// JobMetricOf returns the metric whose column prefix is name.
func JobMetricOf(name string) (JobMetric, bool) {
	for i, c := range jobMetricColumns {
		if c == name {
			return JobMetric(i), true
		}
	}
	return 0, false
}

// of computes the metric of a completed outcome.
func (m JobMetric) of(o *model.Outcome, tau model.Time) float64 {
	switch m {
	case WaitMetric:
		return o.Wait().Seconds()
	case ResponseMetric:
		return o.Response().Seconds()
	case BoundedSlowdownMetric:
		return BoundedSlowdown(o.Wait(), o.Runtime, tau)
	default:
		return TimeSharingBoundedSlowdown(o.Wait(), o.Runtime, o.Dedicated, tau)
	}
}

// RunAccumulator collects a run's RunSummary from its outcomes, one at a
// time: the counts, makespan, utilization and throughput in constant
// memory, and the per-job metrics in Values, which keep every value of the
// metrics Keep names (8 bytes a job each) and only the count, mean,
// minimum and maximum of the others. Create it with NewRunAccumulator.
type RunAccumulator struct {
	tau         model.Time
	jobs        int
	rejected    int
	first, last model.Time
	work        float64
	values      [numJobMetrics]Values
}

// NewRunAccumulator returns an accumulator with tau the short-job bound of
// the bounded slowdowns, keeping every value of the metrics in keep (for
// their quantiles and standard deviations). It panics if tau <= 0.
func NewRunAccumulator(tau model.Time, keep ...JobMetric) *RunAccumulator {
	if tau <= 0 {
		panic(fmt.Sprintf("metrics: bounded slowdown with tau %v <= 0", tau))
	}
	a := &RunAccumulator{tau: tau}
	for _, m := range keep {
		a.values[m].Keep = true
	}
	return a
}

// Add accounts one outcome: a rejected one is counted, a completed one
// measured.
func (a *RunAccumulator) Add(o *model.Outcome) {
	if !o.Completed() {
		a.rejected++
		return
	}
	if a.jobs == 0 {
		a.first, a.last = o.Submit, o.End
	}
	a.jobs++
	a.first, a.last = min(a.first, o.Submit), max(a.last, o.End)
	a.work += work(o)
	for m := range a.values {
		a.values[m].Add(JobMetric(m).of(o, a.tau))
	}
}

// Values returns the accumulated values of metric m (kept or not).
func (a *RunAccumulator) Values(m JobMetric) *Values { return &a.values[m] }

// Summary returns the run's RunSummary so far, its utilization that of a
// machine of procs processors. Distributions of metrics not kept have
// only N, Mean, Min and Max. It panics if procs <= 0.
func (a *RunAccumulator) Summary(procs int) RunSummary {
	if procs <= 0 {
		panic("metrics: utilization of a machine with no processors")
	}
	r := RunSummary{Jobs: a.jobs, Rejected: a.rejected}
	if a.jobs > 0 {
		r.Makespan = a.last - a.first
	}
	if r.Makespan > 0 {
		r.Utilization = a.work / (float64(procs) * r.Makespan.Seconds())
		r.Throughput = float64(a.jobs) / r.Makespan.Seconds()
	}
	r.Wait = a.values[WaitMetric].Distribution()
	r.Response = a.values[ResponseMetric].Distribution()
	r.BoundedSlowdown = a.values[BoundedSlowdownMetric].Distribution()
	r.TimeSharingBoundedSlowdown = a.values[TimeSharingBoundedSlowdownMetric].Distribution()
	return r
}
