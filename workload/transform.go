package workload

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// ThesisGranularities are the computation granularities of the thesis'
// dynamic workload: "chosen randomly with equal probability from one of
// three values appropriate for Crescendo: fine-grained (5ms),
// medium-grained (50ms), and coarse-grained (500ms)" (Frachtenberg, PhD
// thesis, section 6.4.1).
var ThesisGranularities = [...]model.Duration{
	model.Duration(5 * model.Millisecond),
	model.Duration(50 * model.Millisecond),
	model.Duration(500 * model.Millisecond),
}

// Attributes assigns application attributes (model.App) to every job: a
// computation granularity drawn per job, and a pattern, a communication
// mode, an imbalance and a message size common to all jobs. The zero value
// is the synthetic application of the thesis' dynamic workload (section
// 6.4.1): granularity 5, 50 or 500 ms with equal probability, a
// nearest-neighbour ring, blocking calls (the "synchronous (blocking)
// communication calls" of section 6.3.2, the application 6.4.1 reuses),
// no imbalance and an unspecified message size (the thesis gives none).
//
// Apply replaces exactly these five attributes, and the memory per process
// when MemPerProcKB is set; the others (ProcCompute, Priority, Pin) are
// kept.
type Attributes struct {
	// Granularities are the per-iteration computation times to choose
	// from; empty means ThesisGranularities. Granularities are the
	// application's own and are never scaled or compressed.
	Granularities []model.Duration `json:"granularities,omitempty"`
	// Weights are the relative probabilities of Granularities, one each;
	// empty means equal probabilities.
	Weights []float64 `json:"weights,omitempty"`
	// Pattern is the communication pattern (model.ParsePattern names:
	// none, ring, all-to-all, barrier); empty means ring.
	Pattern string `json:"pattern,omitempty"`
	// Comm is "blocking" or "non-blocking"; empty means blocking.
	Comm string `json:"comm,omitempty"`
	// Imbalance is model.App.Imbalance: the slowest process computes
	// (1 + Imbalance) × granularity per iteration. Must be >= 0.
	Imbalance float64 `json:"imbalance,omitempty"`
	// MessageBytes is the size of each message a process sends per
	// iteration, in bytes; 0 leaves it unspecified. Must be >= 0.
	MessageBytes int64 `json:"message_bytes,omitempty"`
	// MemPerProcKB is the memory each process needs, in KB
	// (model.App.MemPerProcKB: what a node's memory must hold, thesis
	// 6.3.3); 0 keeps every job's own. Must be >= 0.
	MemPerProcKB int64 `json:"mem_per_proc_kb,omitempty"`
}

// withDefaults returns a with its defaults written out.
func (a Attributes) withDefaults() Attributes {
	if len(a.Granularities) == 0 {
		a.Granularities = ThesisGranularities[:]
	}
	if a.Pattern == "" {
		a.Pattern = model.PatternRing.String()
	}
	if a.Comm == "" {
		a.Comm = model.CommBlocking.String()
	}
	return a
}

// Validate reports whether a can be applied: positive granularities, as
// many non-negative finite weights (not all zero) as granularities if any,
// a known pattern and communication mode, and a non-negative imbalance and
// message size.
func (a *Attributes) Validate() error {
	var errs []error
	d := a.withDefaults()
	for _, g := range d.Granularities {
		if g <= 0 {
			errs = append(errs, fmt.Errorf("granularity %v is not positive", g))
		}
	}
	if len(a.Weights) > 0 {
		if len(a.Weights) != len(d.Granularities) {
			errs = append(errs, fmt.Errorf("%d weights for %d granularities", len(a.Weights), len(d.Granularities)))
		}
		total := 0.0
		for _, w := range a.Weights {
			if !(w >= 0) || math.IsInf(w, 0) {
				errs = append(errs, fmt.Errorf("granularity weight %v is not a non-negative number", w))
			}
			total += w
		}
		if !(total > 0) {
			errs = append(errs, errors.New("granularity weights are all zero"))
		}
	}
	if _, err := model.ParsePattern(d.Pattern); err != nil || d.Pattern == "" {
		errs = append(errs, fmt.Errorf("unknown communication pattern %q (want none, ring, all-to-all or barrier)", d.Pattern))
	}
	if c, err := model.ParseComm(d.Comm); err != nil || c == model.CommUnspecified {
		errs = append(errs, fmt.Errorf("unknown communication mode %q (want blocking or non-blocking)", d.Comm))
	}
	if !(a.Imbalance >= 0) || math.IsInf(a.Imbalance, 0) {
		errs = append(errs, fmt.Errorf("imbalance %v is not a non-negative number", a.Imbalance))
	}
	if a.MessageBytes < 0 {
		errs = append(errs, fmt.Errorf("message size %d bytes is negative", a.MessageBytes))
	}
	if a.MemPerProcKB < 0 {
		errs = append(errs, fmt.Errorf("memory per process %d KB is negative", a.MemPerProcKB))
	}
	return errors.Join(errs...)
}

// Apply sets j's granularity, pattern, communication mode, imbalance and
// message size, and its memory per process if MemPerProcKB is set. It makes exactly one draw from rnd per job (a uniform
// Float64 that picks the granularity by its weight), whatever the number of
// granularities. It panics if a is invalid (see Validate).
func (a *Attributes) Apply(j *model.Job, rnd *rand.Rand) {
	d := a.withDefaults()
	if err := d.Validate(); err != nil {
		panic("workload: Attributes.Apply: " + err.Error())
	}
	d.apply(j, rnd)
}

// apply is Apply for attributes with their defaults written out and
// already validated.
func (d *Attributes) apply(j *model.Job, rnd *rand.Rand) {
	u := rnd.Float64()
	j.App.Granularity = d.Granularities[pick(d.Granularities, d.Weights, u)].Time()
	j.App.Pattern, _ = model.ParsePattern(d.Pattern)
	j.App.Comm, _ = model.ParseComm(d.Comm)
	j.App.Imbalance = d.Imbalance
	j.App.MessageBytes = d.MessageBytes
	if d.MemPerProcKB > 0 {
		j.App.MemPerProcKB = d.MemPerProcKB
	}
}

// pick returns the index that u, uniform on [0, 1), selects among n items
// of the given weights (equal when weights is empty): the first i whose
// cumulative share exceeds u.
func pick(items []model.Duration, weights []float64, u float64) int {
	n := len(items)
	if len(weights) == 0 {
		return min(int(u*float64(n)), n-1)
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x, cum := u*total, 0.0
	last := 0
	for i, w := range weights {
		if w == 0 {
			continue
		}
		cum += w
		last = i
		if x < cum {
			return i
		}
	}
	return last // rounding: u*total may reach the sum
}

// Estimate modes (Estimates.Mode).
const (
	// EstimatesTrace keeps the estimates the source has (none, for a
	// generated workload).
	EstimatesTrace = "trace"
	// EstimatesExact sets every estimate to the job's runtime.
	EstimatesExact = "exact"
	// EstimatesLoose sets every estimate to the runtime times a factor
	// drawn uniformly on [1, MaxFactor].
	EstimatesLoose = "loose"
)

// ThesisMaxEstimateFactor is the largest overestimation of the thesis'
// loose estimates: "loose estimates that are up to 5 times longer" than the
// runtime (Frachtenberg, PhD thesis, section 6.4.1, after Mu'alem and
// Feitelson 2001).
const ThesisMaxEstimateFactor = 5.0

// Estimates sets the users' runtime estimates (SWF field 9, requested
// time). The thesis says only "up to 5 times longer" (section 6.4.1); it
// does not give the factor's distribution. Loose estimates here draw the
// factor uniformly on [1, MaxFactor], so an estimate is never below the
// runtime and is on average (1 + MaxFactor)/2 = 3 times the runtime with
// the default maximum.
type Estimates struct {
	// Mode is EstimatesTrace (the default when empty), EstimatesExact or
	// EstimatesLoose.
	Mode string `json:"mode,omitempty"`
	// MaxFactor is the largest factor of loose estimates, >= 1; 0 means
	// ThesisMaxEstimateFactor. Ignored by the other modes.
	MaxFactor float64 `json:"max_factor,omitempty"`
}

func (e Estimates) withDefaults() Estimates {
	if e.Mode == "" {
		e.Mode = EstimatesTrace
	}
	if e.Mode == EstimatesLoose && e.MaxFactor == 0 {
		e.MaxFactor = ThesisMaxEstimateFactor
	}
	if e.Mode != EstimatesLoose {
		e.MaxFactor = 0
	}
	return e
}

// Validate reports whether e has a known mode and, for loose estimates, a
// finite maximum factor of at least 1.
func (e *Estimates) Validate() error {
	d := e.withDefaults()
	switch d.Mode {
	case EstimatesTrace, EstimatesExact:
	case EstimatesLoose:
		if !(d.MaxFactor >= 1) || math.IsInf(d.MaxFactor, 0) {
			return fmt.Errorf("maximum estimate factor %v: want a number >= 1", e.MaxFactor)
		}
	default:
		return fmt.Errorf("unknown estimate mode %q (want trace, exact or loose)", e.Mode)
	}
	return nil
}

// Apply sets j's estimate. Under EstimatesExact it is the runtime; under
// EstimatesLoose it is round(runtime × f), f = 1 + u × (MaxFactor - 1) with
// u one uniform draw on [0, 1), rounded to the microsecond. Jobs without a
// known runtime keep their estimate. Loose estimates make exactly one draw
// from rnd per job, runtime known or not; the other modes make none. It
// panics if e is invalid (see Validate).
func (e *Estimates) Apply(j *model.Job, rnd *rand.Rand) {
	d := e.withDefaults()
	if err := d.Validate(); err != nil {
		panic("workload: Estimates.Apply: " + err.Error())
	}
	d.apply(j, rnd)
}

// apply is Apply for estimates with their defaults written out and already
// validated.
func (d *Estimates) apply(j *model.Job, rnd *rand.Rand) {
	switch d.Mode {
	case EstimatesExact:
		if j.Has(model.FieldRuntime) {
			j.Estimate = j.Runtime
			j.Known = j.Known.With(model.FieldEstimate)
		}
	case EstimatesLoose:
		f := 1 + rnd.Float64()*(d.MaxFactor-1)
		if j.Has(model.FieldRuntime) {
			j.Estimate = max(scaleTime(j.Runtime, f), j.Runtime)
			j.Known = j.Known.With(model.FieldEstimate)
		}
	}
}

// scaleTime returns round(t × f) (halves away from zero), saturating at
// the limits of model.Time.
func scaleTime(t model.Time, f float64) model.Time {
	return saturate(math.Round(float64(t) * f))
}

// divideTime returns round(t / f). Dividing (rather than multiplying by
// 1/f) keeps t / 100 exact whenever the quotient is a whole microsecond.
func divideTime(t model.Time, f float64) model.Time {
	return saturate(math.Round(float64(t) / f))
}

func saturate(x float64) model.Time {
	switch {
	case x >= math.MaxInt64:
		return model.Never
	case x <= math.MinInt64:
		return math.MinInt64
	}
	return model.Time(x)
}

func checkFactor(name string, f float64) {
	if !(f > 0) || math.IsInf(f, 0) {
		panic("workload: " + name + " with factor " + strconv.FormatFloat(f, 'g', -1, 64))
	}
}

// ScaleRuntime multiplies j's runtime, estimate and average CPU time by f
// (> 0), rounding to the microsecond: the thesis' way of changing the load,
// "divide the execution times by another factor" (section 6.4.1). The
// estimates scale with the runtimes, so an estimate at or above its runtime
// stays there. Other times (submit, wait, think time) do not change. It
// panics if f is not positive and finite.
func ScaleRuntime(j *model.Job, f float64) {
	checkFactor("ScaleRuntime", f)
	j.Runtime = scaleTime(j.Runtime, f)
	j.Estimate = scaleTime(j.Estimate, f)
	j.AvgCPU = scaleTime(j.AvgCPU, f)
}

// ScaleArrival multiplies j's submit time by f (> 0), rounding to the
// microsecond, which multiplies every inter-arrival time (and the first
// arrival's offset from time 0) by f. It panics if f is not positive and
// finite.
func ScaleArrival(j *model.Job, f float64) {
	checkFactor("ScaleArrival", f)
	j.Submit = scaleTime(j.Submit, f)
}

// Compress divides every time of j (submit, wait, runtime, average CPU
// time, estimate, think time) by f (> 0), rounding to the microsecond, as
// the thesis reduced "time by a factor of 100" so that 8 days of arrivals
// run in about 2 hours (section 6.4.1). It leaves the offered load
// unchanged up to rounding. Application attributes (granularity,
// per-process compute) are not times of the trace and do not change. It
// panics if f is not positive and finite.
func Compress(j *model.Job, f float64) {
	checkFactor("Compress", f)
	for _, p := range [...]*model.Time{&j.Submit, &j.Wait, &j.Runtime, &j.AvgCPU, &j.Estimate, &j.ThinkTime} {
		*p = divideTime(*p, f)
	}
}
