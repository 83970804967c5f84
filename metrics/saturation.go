package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gangsim/gangsim/model"
)

// Defaults of SaturationTest; the package documentation explains them.
const (
	// DefaultClearQuantile is the clearing level: the lower quartile of
	// the jobs in the system over the arrival period, time weighted.
	DefaultClearQuantile = 0.25
	// DefaultClearCutoff is the decision threshold on ClearedAt, midway
	// between its limits for long workloads: 1 below saturation and
	// DefaultClearQuantile above it.
	DefaultClearCutoff = 0.625
)

// SaturationTest decides whether a finite run was past saturation by when
// its backlog last cleared; see the package documentation. The zero value
// uses the defaults.
type SaturationTest struct {
	// Quantile q in (0, 1) sets the clearing level, the time-weighted
	// q-quantile of the jobs in the system over the arrival period; 0
	// means DefaultClearQuantile.
	Quantile float64
	// Cutoff in (0, 1]: the run is saturated when ClearedAt < Cutoff; 0
	// means DefaultClearCutoff.
	Cutoff float64
	// Measure is the backlog the test watches: the jobs waiting to start
	// (BacklogQueued, the zero value) or all jobs in the system
	// (BacklogInSystem).
	Measure Backlog
}

// Backlog names the count of jobs a SaturationTest watches.
type Backlog uint8

// Backlogs.
const (
	// BacklogQueued is the jobs waiting to start (model.Sample.Queued):
	// the queue that "would keep on growing on a saturated system"
	// (Frachtenberg 6.4.4). Jobs that run long do not count, so a
	// heavy-tailed workload whose few long jobs outlast a burst is not
	// taken for saturated.
	BacklogQueued Backlog = iota
	// BacklogInSystem is every job arrived and not finished
	// (model.Sample.InSystem), what the thesis' Fig. 6.11 plots.
	BacklogInSystem
)

func (b Backlog) String() string {
	if b == BacklogInSystem {
		return "in-system"
	}
	return "queued"
}

// Saturation is a saturation decision and its evidence. Fractions of the
// arrival period are measured from the first arrival: 0 is the first
// arrival, 1 the last.
type Saturation struct {
	// Saturated is the decision: ClearedAt < the test's cutoff.
	Saturated bool
	// ClearedAt is the fraction of the arrival period at which the
	// measured backlog (the test's Measure) was last at or below
	// ClearLevel (the end of the last such stretch). A run that keeps up clears until the end (near 1); a
	// saturated one stops clearing early: its backlog grows from then on.
	ClearedAt float64
	// ClearLevel is the clearing level: the time-weighted quantile of the
	// measured backlog over the arrival period (the smallest level at or
	// below which the backlog spent that fraction of the period).
	ClearLevel int
	// MedianInSystem is the time-weighted median of the jobs in the system
	// over the arrival period.
	MedianInSystem int
	// AtLastArrival is the number of jobs in the system just after the
	// last arrival.
	AtLastArrival int
	// Trend is the least-squares slope of the jobs in the system against
	// time over the arrival period (time weighted), in jobs per arrival
	// period: about 0 when the system keeps up, about the backlog growth
	// when it does not.
	Trend float64
	// Drain is the time from the last arrival until the system is empty,
	// as a fraction of the arrival period; NaN if the samples never show
	// an empty system after the last arrival. A saturated batch run needs
	// about (offered load - 1) arrival periods to drain.
	Drain float64
	// Span is the arrival period, last arrival minus first.
	Span model.Time
}

// Saturated is SaturationTest{}.Judge: the default test. Its error where
// the answer is known (workloads of one job size that saturate at offered
// load 1, with Poisson, daily-cycle or Lublin arrivals, exponential or the
// Lublin model's runtimes) is measured by results/method/saturation-check,
// saturation-seeds and saturation-heavy. From 3000 jobs on, a majority of
// five or more seeds finds the point within one step of 0.05 (0.1 once).
// At the thesis' 1000 jobs with the Lublin model's bursts a single run is
// unreliable: within 0.1 of the truth it is wrong in 20% to 60% of runs,
// and a single seed's point is off by 0.25 or more (some seeds are never
// called saturated up to 1.25 or 1.4); the majority of 20 to 30 seeds
// reads high, by 0.05 with exponential runtimes (by the tie rule: a strict
// majority reads 0.1) and by 0.05 to 0.15 with heavy-tailed ones; five
// seeds can be off by 0.4 or more.
func Saturated(samples []model.Sample, first, last model.Time) Saturation {
	return SaturationTest{}.Judge(samples, first, last)
}

// SaturatedOutcomes judges a run from its outcomes alone, with the default
// test: the arrival period from ArrivalPeriod and the time series from
// JobsInSystem. It panics if fewer than two completed jobs arrived at
// different times.
func SaturatedOutcomes(outcomes []model.Outcome) Saturation {
	first, last := ArrivalPeriod(outcomes)
	return Saturated(JobsInSystem(outcomes), first, last)
}

// segment is a stretch of time with a constant number of jobs in the
// system.
type segment struct {
	from, to model.Time
	n        int // the measured backlog
	all      int // jobs in the system
}

// Judge decides whether the run whose time series is samples was past
// saturation, the arrival period being [first, last] (first and last
// arrival). Each sample holds from its At until the next sample's; time
// before the first sample is left out. samples must be sorted by At, must
// overlap the arrival period, and first < last; otherwise, or if the test's
// parameters are out of range, Judge panics.
func (t SaturationTest) Judge(samples []model.Sample, first, last model.Time) Saturation {
	q, cutoff := t.Quantile, t.Cutoff
	if q == 0 {
		q = DefaultClearQuantile
	}
	if cutoff == 0 {
		cutoff = DefaultClearCutoff
	}
	if !(q > 0 && q < 1) || !(cutoff > 0 && cutoff <= 1) {
		panic(fmt.Sprintf("metrics: saturation test with quantile %v and cutoff %v", q, cutoff))
	}
	if last <= first {
		panic(fmt.Sprintf("metrics: arrival period from %v to %v is empty", first, last))
	}
	for i := 1; i < len(samples); i++ {
		if samples[i].At < samples[i-1].At {
			panic(fmt.Sprintf("metrics: samples not sorted by time at index %d", i))
		}
	}
	var segs []segment
	for i := range samples {
		to := last
		if i+1 < len(samples) {
			to = min(samples[i+1].At, last)
		}
		if from := max(samples[i].At, first); to > from {
			n := samples[i].Queued
			if t.Measure == BacklogInSystem {
				n = samples[i].InSystem
			}
			segs = append(segs, segment{from, to, n, samples[i].InSystem})
		}
	}
	if len(segs) == 0 {
		panic(fmt.Sprintf("metrics: no sample covers the arrival period from %v to %v", first, last))
	}
	span := last - first
	s := Saturation{Span: span, Drain: math.NaN()}
	s.ClearLevel = weightedLevel(segs, q)
	inSystem := make([]segment, len(segs))
	for i, sg := range segs {
		inSystem[i] = segment{sg.from, sg.to, sg.all, sg.all}
	}
	s.MedianInSystem = weightedLevel(inSystem, 0.5)
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i].n <= s.ClearLevel {
			s.ClearedAt = float64(segs[i].to-first) / float64(span)
			break
		}
	}
	s.Saturated = s.ClearedAt < cutoff
	s.Trend = trend(inSystem, first, span)
	// The state just after the last arrival, and the first empty system
	// at or after it.
	k, _ := slices.BinarySearchFunc(samples, last+1, func(x model.Sample, t model.Time) int { return cmp.Compare(x.At, t) })
	if k > 0 {
		s.AtLastArrival = samples[k-1].InSystem
	}
	for i := max(k-1, 0); i < len(samples); i++ {
		if samples[i].At >= last && samples[i].InSystem == 0 {
			s.Drain = float64(samples[i].At-last) / float64(span)
			break
		}
	}
	return s
}

// weightedLevel is the time-weighted lower q-quantile of the levels of segs:
// the smallest level n such that the segments at or below n last at least
// q of their total time.
func weightedLevel(segs []segment, q float64) int {
	type level struct {
		n int
		d model.Time
	}
	levels := make([]level, len(segs))
	var total model.Time
	for i, sg := range segs {
		levels[i] = level{sg.n, sg.to - sg.from}
		total += sg.to - sg.from
	}
	slices.SortFunc(levels, func(a, b level) int { return cmp.Compare(a.n, b.n) })
	need := q * float64(total)
	var acc model.Time
	for _, l := range levels {
		acc += l.d
		if float64(acc) >= need {
			return l.n
		}
	}
	return levels[len(levels)-1].n
}

// trend is the least-squares slope of the step function segs against time
// u = (t - first) / span, integrating exactly over each segment, in jobs
// per span.
func trend(segs []segment, first, span model.Time) float64 {
	var w, su, sn, suu, sun float64
	for _, sg := range segs {
		a := float64(sg.from-first) / float64(span)
		b := float64(sg.to-first) / float64(span)
		n := float64(sg.n)
		w += b - a
		su += (b*b - a*a) / 2
		suu += (b*b*b - a*a*a) / 3
		sn += n * (b - a)
		sun += n * (b*b - a*a) / 2
	}
	mu, mn := su/w, sn/w
	varU := suu/w - mu*mu
	if varU <= 0 {
		return 0
	}
	return (sun/w - mu*mn) / varU
}

// ArrivalPeriod returns the first and last submit time of the completed
// outcomes, the period over which the run's load arrived; (0, 0) with
// none.
func ArrivalPeriod(outcomes []model.Outcome) (first, last model.Time) {
	seen := false
	for i := range outcomes {
		o := &outcomes[i]
		if !o.Completed() {
			continue
		}
		if !seen {
			first, last, seen = o.Submit, o.Submit, true
		}
		first, last = min(first, o.Submit), max(last, o.Submit)
	}
	return first, last
}

// JobsInSystem reconstructs a run's time series from its completed
// outcomes: one sample at every time the state changes, holding the state
// after every arrival, start and completion at that time, as the engine
// writes it with no sample period; the last sample, at the last
// completion, shows an empty system. InSystem counts jobs submitted and not
// ended, Queued those not yet started, Running those started and not ended
// (whether progressing or suspended: outcomes do not say); Suspended and
// BusyProcs are 0. Rejected outcomes never enter the system.
func JobsInSystem(outcomes []model.Outcome) []model.Sample {
	type change struct {
		at              model.Time
		inSystem, queue int
	}
	var changes []change
	for i := range outcomes {
		o := &outcomes[i]
		if !o.Completed() {
			continue
		}
		changes = append(changes, change{o.Submit, +1, +1}, change{o.Start, 0, -1}, change{o.End, -1, 0})
	}
	slices.SortFunc(changes, func(a, b change) int { return cmp.Compare(a.at, b.at) })
	var samples []model.Sample
	inSystem, queued := 0, 0
	for i, c := range changes {
		inSystem += c.inSystem
		queued += c.queue
		if i+1 < len(changes) && changes[i+1].at == c.at {
			continue
		}
		if n := len(samples); n > 0 && samples[n-1].InSystem == inSystem && samples[n-1].Queued == queued {
			continue
		}
		samples = append(samples, model.Sample{At: c.at, InSystem: inSystem, Queued: queued, Running: inSystem - queued})
	}
	return samples
}

// SaturationBracket is where a sweep of offered loads crosses saturation.
type SaturationBracket struct {
	// Point is the saturation point in the thesis' sense (Frachtenberg,
	// section 6.4.4: "FCS supports a load of up to 88%"): the highest load
	// judged not saturated below the lowest saturated load. NaN if the
	// lowest load of the sweep is already saturated.
	Point float64
	// Above is the lowest saturated load; +Inf if no load is saturated
	// (then the saturation point is above the sweep and Point is its
	// highest load).
	Above float64
	// Monotone is false if some load above Above was judged not saturated:
	// the decisions are noisy there (a short workload, a load close to
	// saturation, a burst) and Point is the conservative answer.
	Monotone bool
}

// MajoritySaturated is the decision at one load of a sweep run with n
// seeds of which k were judged saturated: saturated when at least half
// were. A tie counts as saturated, the conservative answer: a load is
// trusted only when most of its runs kept up. It panics unless 0 <= k <= n
// and n > 0.
func MajoritySaturated(k, n int) bool {
	if n <= 0 || k < 0 || k > n {
		panic(fmt.Sprintf("metrics: %d saturated runs of %d", k, n))
	}
	return 2*k >= n
}

// SaturationPoint finds the saturation point of a load sweep: loads[i] is an
// offered load and saturated[i] the decision for the run at it (from
// Saturated, or MajoritySaturated over seeds). Loads may come in any order. With
// non-monotone decisions (not saturated at some load above a saturated
// one), the lowest saturated load wins: the point is the highest load below
// it, and Monotone is false. It panics if the slices are empty or differ in
// length, or if a load is NaN or repeats.
func SaturationPoint(loads []float64, saturated []bool) SaturationBracket {
	if len(loads) == 0 || len(loads) != len(saturated) {
		panic(fmt.Sprintf("metrics: saturation point of %d loads and %d decisions", len(loads), len(saturated)))
	}
	order := make([]int, len(loads))
	for i := range order {
		if math.IsNaN(loads[i]) {
			panic("metrics: NaN load")
		}
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(loads[a], loads[b]) })
	b := SaturationBracket{Point: math.NaN(), Above: math.Inf(1), Monotone: true}
	for r, i := range order {
		if r > 0 && loads[i] == loads[order[r-1]] {
			panic(fmt.Sprintf("metrics: load %v repeats", loads[i]))
		}
		switch {
		case math.IsInf(b.Above, 1) && !saturated[i]:
			b.Point = loads[i]
		case math.IsInf(b.Above, 1):
			b.Above = loads[i]
		case !saturated[i]:
			b.Monotone = false
		}
	}
	return b
}
