package sim

import (
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// Window is an interval [From, To) of a Duty's cycle, in simulated
// microseconds from the cycle's start.
type Window struct{ From, To model.Time }

// Duty is when a running job progresses under time sharing: during the
// windows On of every cycle of length Period, cycles starting at Origin +
// k×Period, and not in between. Under gang scheduling a job's window is
// its row's time slot less the switch into it; with alternative scheduling
// it has one window per slot in which it runs.
//
// The zero Duty is "always on": the job progresses all the time, as under
// batch scheduling. The engine computes where a job stands and when it
// completes from its Duty and Rate directly, without stepping cycle by
// cycle.
type Duty struct {
	// Period is the cycle length in simulated microseconds; 0 means always
	// on (On is then ignored).
	Period model.Time
	// Origin is a time at which a cycle starts; it must not be after the
	// time the Duty is set.
	Origin model.Time
	// On lists the windows of a cycle in which the job progresses: sorted,
	// disjoint, non-empty, within [0, Period). The engine keeps the slice:
	// the caller must not modify it afterwards (several jobs may share it).
	On []Window

	on model.Time // Σ window lengths, set by check
}

// AlwaysOn is the duty of a job that progresses all the time.
var AlwaysOn = Duty{}

// Periodic reports whether d switches the job on and off.
func (d *Duty) Periodic() bool { return d.Period > 0 }

// OnTime is the time the job progresses per cycle (Period for AlwaysOn).
func (d *Duty) OnTime() model.Time {
	if !d.Periodic() {
		return d.Period
	}
	return d.on
}

// check validates d and caches its on-time per cycle.
func (d *Duty) check() error {
	if d.Period < 0 {
		return fmt.Errorf("negative period %d", d.Period)
	}
	if d.Period == 0 {
		return nil
	}
	if len(d.On) == 0 {
		return fmt.Errorf("periodic duty with no window")
	}
	d.on = 0
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

// cumulative is the on-time in [Origin, t), for t >= Origin.
func (d *Duty) cumulative(t model.Time) model.Time {
	x := t - d.Origin
	if !d.Periodic() {
		return x
	}
	k, r := x/d.Period, x%d.Period
	c := k * d.on
	for _, w := range d.On {
		if r <= w.From {
			break
		}
		c += min(r, w.To) - w.From
	}
	return c
}

// reach is the earliest time t with cumulative(t) >= y (for a periodic
// duty, t >= Origin).
func (d *Duty) reach(y model.Time) model.Time {
	if !d.Periodic() {
		return d.Origin + y
	}
	if y <= 0 {
		return d.Origin
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

// fraction is the share of time d is on, as a fixed-point number with
// fracOne for 1.
func (d *Duty) fraction() int64 {
	if !d.Periodic() {
		return fracOne
	}
	return int64(math.Round(float64(d.on) / float64(d.Period) * fracOne))
}

// fracOne is 1 in the fixed-point duty fractions that busy-processor
// accounting sums exactly.
const fracOne = 1 << 20
