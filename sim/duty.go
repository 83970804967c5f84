package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/gangsim/gangsim/model"
)

// Window is an interval [From, To) of simulated time: absolute in a Duty's
// Lead, from the cycle's start in its On.
type Window struct{ From, To model.Time }

// Duty is when a running job progresses under time sharing. Before Origin
// the job progresses only in the Lead windows; from Origin on, it
// progresses all the time if Period is 0, else in the windows On of every
// cycle of length Period, cycles starting at Origin + k×Period.
//
// Under gang scheduling a job's window in each cycle is its row's time
// slot less the switch into it (with alternative scheduling, one window per
// slot in which it runs); Lead holds what is left of the current slot when
// the cycle changes in the middle of a slot or of a switch. The engine
// computes where a job stands and when it completes from its Duty and Rate
// directly, without stepping cycle by cycle.
//
// The zero Duty is always on from time 0; Start and Resume give a job a
// Duty always on from the current time.
type Duty struct {
	// Lead lists windows of absolute time before Origin in which the job
	// progresses: sorted, disjoint, non-empty, each ending by Origin.
	Lead []Window
	// Origin is when the regular part begins: always on, or the first
	// cycle.
	Origin model.Time
	// Period is the cycle length in simulated microseconds; 0 means always
	// on from Origin (On is then ignored).
	Period model.Time
	// On lists the windows of a cycle in which the job progresses: sorted,
	// disjoint, non-empty, within [0, Period).
	//
	// The engine keeps Lead and On: the caller must not modify them
	// afterwards (several jobs may share them).
	On []Window

	lead, on model.Time // Σ lengths of Lead and On, set by check
}

// AlwaysOnFrom is the duty of a job that progresses all the time from t.
func AlwaysOnFrom(t model.Time) Duty { return Duty{Origin: t} }

// Periodic reports whether d switches the job on and off from Origin on.
func (d *Duty) Periodic() bool { return d.Period > 0 }

// check validates d and caches its on-times.
func (d *Duty) check() error {
	if d.Period < 0 {
		return fmt.Errorf("negative period %d", d.Period)
	}
	d.lead, d.on = 0, 0
	for i, w := range d.Lead {
		if w.To <= w.From || (i > 0 && w.From < d.Lead[i-1].To) || w.To > d.Origin {
			return fmt.Errorf("lead window %d [%d, %d) is empty, overlaps the previous one or ends after the origin %d", i, w.From, w.To, d.Origin)
		}
		d.lead += w.To - w.From
	}
	if d.Period == 0 {
		return nil
	}
	if len(d.On) == 0 {
		return fmt.Errorf("periodic duty with no window")
	}
	prev := model.Time(0)
	for i, w := range d.On {
		if w.From < prev || w.To <= w.From || w.To > d.Period {
			return fmt.Errorf("window %d [%d, %d) is empty, overlaps the previous one or leaves the period %d", i, w.From, w.To, d.Period)
		}
		d.on += w.To - w.From
		prev = w.To
	}
	return nil
}

// cumulative is the on-time up to t, from a fixed reference: the
// difference of two values is the on-time between two times.
func (d *Duty) cumulative(t model.Time) model.Time {
	var c model.Time
	for _, w := range d.Lead {
		if t <= w.From {
			break
		}
		c += min(t, w.To) - w.From
	}
	if t <= d.Origin {
		return c
	}
	x := t - d.Origin
	if !d.Periodic() {
		return c + x
	}
	k, r := x/d.Period, x%d.Period
	c += k * d.on
	for _, w := range d.On {
		if r <= w.From {
			break
		}
		c += min(r, w.To) - w.From
	}
	return c
}

// reach is the earliest time t with cumulative(t) >= y, y > 0 (for y <= 0,
// the start of the first lead window or the origin: a time before any
// progress).
func (d *Duty) reach(y model.Time) model.Time {
	for _, w := range d.Lead {
		if y <= 0 {
			return w.From
		}
		if n := w.To - w.From; y <= n {
			return w.From + y
		} else {
			y -= n
		}
	}
	if y <= 0 || !d.Periodic() {
		return d.Origin + max(y, 0)
	}
	k := (y - 1) / d.on // full cycles before the one where y is reached
	rem := y - k*d.on   // 1..on within that cycle
	for _, w := range d.On {
		if n := w.To - w.From; rem <= n {
			return d.Origin + k*d.Period + w.From + rem
		} else {
			rem -= n
		}
	}
	panic("sim: duty windows shorter than their cached on-time")
}

// OnAt reports whether d has a job progress during [t, t+1).
func (d *Duty) OnAt(t model.Time) bool {
	return d.cumulative(t+1) > d.cumulative(t)
}

// fraction is the long-run share of time d is on, as a fixed-point number
// with fracOne for 1.
func (d *Duty) fraction() int64 {
	if !d.Periodic() {
		return fracOne
	}
	return int64(math.Round(float64(d.on) / float64(d.Period) * fracOne))
}

// fracOne is 1 in the fixed-point duty fractions that busy-processor
// accounting sums exactly.
const fracOne = 1 << 20

// SameFrom reports whether d and o have a job progress at exactly the same
// times from t on, whatever they say of earlier times: a policy that
// recomputes a duty equal to the one in force can leave the job alone. It
// is exact for duties with the same cycle (or both always on, in the end),
// however their leads and origins differ; two cycles of different periods
// are reported different even where they happen to coincide. Duties that
// are not valid (see SetDuty) are different from everything.
func (d Duty) SameFrom(o Duty, t model.Time) bool {
	if d.check() != nil || o.check() != nil {
		return false
	}
	for _, x := range []*Duty{&d, &o} {
		if x.Periodic() && x.on == x.Period {
			x.Period, x.On = 0, nil // on all the time: always on from the origin
		}
	}
	if d.Period != o.Period {
		return false
	}
	if d.Periodic() {
		if !slices.Equal(d.On, o.On) || (d.Origin-o.Origin)%d.Period != 0 {
			return false
		}
	}
	// From the later origin on, both are the same: always on, or the same
	// cycle in the same phase. Before it, compare the on-time accumulated
	// from t at every point where either switches on or off.
	end := max(d.Origin, o.Origin)
	if end <= t {
		return true
	}
	d0, o0 := d.cumulative(t), o.cumulative(t)
	same := func(p model.Time) bool {
		return p < t || p > end || d.cumulative(p)-d0 == o.cumulative(p)-o0
	}
	if !same(end) {
		return false
	}
	for _, x := range [2]*Duty{&d, &o} {
		for _, w := range x.Lead {
			if !same(w.From) || !same(w.To) {
				return false
			}
		}
		if x.Origin < end {
			if !same(x.Origin) {
				return false
			}
			if x.Periodic() {
				for k := (max(t, x.Origin) - x.Origin) / x.Period; x.Origin+k*x.Period < end; k++ {
					base := x.Origin + k*x.Period
					for _, w := range x.On {
						if !same(base+w.From) || !same(base+w.To) {
							return false
						}
					}
				}
			}
		}
	}
	return true
}
