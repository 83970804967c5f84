package workload

import (
	"errors"
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// ErrNoLoad: the offered load is undefined, because the workload's arrival
// span is zero (fewer than two distinct submit times), it has no work, or
// the machine size is unknown.
var ErrNoLoad = errors.New("offered load undefined")

// LoadMeter accumulates what the offered load needs from a stream of jobs.
// The zero value is an empty meter.
type LoadMeter struct {
	Jobs        int        // jobs added
	Work        float64    // sum of size × runtime, in processor-seconds
	First, Last model.Time // earliest and latest known submit time
	Widest      int        // the largest job size (model.Job.Size)
	submits     int        // jobs with a known submit time
}

// Add counts j.
func (m *LoadMeter) Add(j *model.Job) {
	m.Jobs++
	m.Widest = max(m.Widest, j.Size())
	if size := j.Size(); size > 0 && j.Has(model.FieldRuntime) && j.Runtime > 0 {
		m.Work += float64(size) * j.Runtime.Seconds()
	}
	if !j.Has(model.FieldSubmit) {
		return
	}
	if m.submits == 0 || j.Submit < m.First {
		m.First = j.Submit
	}
	if m.submits == 0 || j.Submit > m.Last {
		m.Last = j.Submit
	}
	m.submits++
}

// Span is the arrival span Last - First, 0 with fewer than two submit
// times.
func (m *LoadMeter) Span() model.Time {
	if m.submits < 2 {
		return 0
	}
	return m.Last - m.First
}

// Load returns the offered load on procs processors (see the package
// documentation), or an error wrapping ErrNoLoad when the span is zero or
// procs is not positive.
func (m *LoadMeter) Load(procs int) (float64, error) {
	if procs <= 0 {
		return 0, fmt.Errorf("%w: machine size unknown (no MaxProcs in the header)", ErrNoLoad)
	}
	span := m.Span()
	if span <= 0 {
		return 0, fmt.Errorf("%w: the arrival span is zero (%d jobs with a submit time)", ErrNoLoad, m.submits)
	}
	return m.Work / (float64(procs) * span.Seconds()), nil
}

// OfferedLoad returns the offered load of jobs on procs processors (see
// LoadMeter.Load).
func OfferedLoad(jobs []model.Job, procs int) (float64, error) {
	var m LoadMeter
	for i := range jobs {
		m.Add(&jobs[i])
	}
	return m.Load(procs)
}

// Load scaling modes (Load.Scale).
const (
	// ScaleRuntimes multiplies every runtime (and estimate) by
	// target/load, the thesis' method (section 6.4.1).
	ScaleRuntimes = "runtimes"
	// ScaleArrivals multiplies every submit time by load/target, which
	// stretches or squeezes the inter-arrival times.
	ScaleArrivals = "arrivals"
)

// Load scales a workload to a target offered load (see the package
// documentation for the definition), by its runtimes or by its
// inter-arrival times. The factor is measured on the source's jobs after
// cleaning, before any other transform.
type Load struct {
	// Target is the offered load to reach, > 0 (0.74 for the thesis'
	// experiments of sections 6.4.2 and 6.4.3).
	Target float64 `json:"target"`
	// Scale is ScaleRuntimes (the default when empty) or ScaleArrivals.
	Scale string `json:"scale,omitempty"`
	// Procs is the machine size of the load formula in processors; 0
	// takes the source header's MaxProcs.
	Procs int `json:"procs,omitempty"`
}

func (l Load) withDefaults() Load {
	if l.Scale == "" {
		l.Scale = ScaleRuntimes
	}
	return l
}

// Validate reports whether l has a positive finite target, a known scaling
// mode and a non-negative machine size.
func (l *Load) Validate() error {
	var errs []error
	if !(l.Target > 0) || math.IsInf(l.Target, 0) {
		errs = append(errs, fmt.Errorf("target load %v is not a positive number", l.Target))
	}
	if s := l.withDefaults().Scale; s != ScaleRuntimes && s != ScaleArrivals {
		errs = append(errs, fmt.Errorf("unknown load scaling %q (want runtimes or arrivals)", l.Scale))
	}
	if err := model.CheckProcs(int64(l.Procs)); err != nil {
		errs = append(errs, fmt.Errorf("machine size %w", err))
	}
	return errors.Join(errs...)
}

// Factor returns the factor that takes a workload of offered load before
// to the target: target/before for runtimes, before/target for arrivals.
func (l *Load) Factor(before float64) float64 {
	if l.withDefaults().Scale == ScaleArrivals {
		return before / l.Target
	}
	return l.Target / before
}

// LoadScaling reports what load scaling did.
type LoadScaling struct {
	Procs   int     // machine size of the load formula, processors
	Scale   string  // ScaleRuntimes or ScaleArrivals
	Before  float64 // offered load of the source
	Target  float64 // the load asked for
	Factor  float64 // the factor applied to runtimes or to submit times
	Reached float64 // offered load of the output (all transforms applied)
}
