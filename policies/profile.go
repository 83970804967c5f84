package policies

import (
	"github.com/gangsim/gangsim/model"
)

// profile is the number of free allocation units over future time, a step
// function: free[i] units are free on [at[i], at[i+1]), and free[len-1]
// from the last breakpoint on. Adjacent segments have different levels (add
// drops the breakpoints that no longer change it), so the profile has at
// most one breakpoint per distinct start and end of the jobs it plans.
type profile struct {
	at   []model.Time
	free []int
}

// reset makes the profile flat: units free from now on.
func (p *profile) reset(now model.Time, units int) {
	p.at = append(p.at[:0], now)
	p.free = append(p.free[:0], units)
}

// trim drops the profile's past, so that it starts at now (now >= at[0]).
func (p *profile) trim(now model.Time) {
	if p.at[0] >= now {
		return
	}
	i := p.split(now)
	n := copy(p.at, p.at[i:])
	copy(p.free, p.free[i:])
	p.at, p.free = p.at[:n], p.free[:n]
}

// search returns the index of the first breakpoint at or after t.
func (p *profile) search(t model.Time) int {
	lo, hi := 0, len(p.at)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.at[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// split ensures a breakpoint at t (t >= at[0]) and returns its index.
func (p *profile) split(t model.Time) int {
	i := p.search(t)
	if i < len(p.at) && p.at[i] == t {
		return i
	}
	// t falls inside segment i-1: duplicate that segment's level at t.
	p.at = append(p.at, 0)
	p.free = append(p.free, 0)
	copy(p.at[i+1:], p.at[i:])
	copy(p.free[i+1:], p.free[i:])
	p.at[i], p.free[i] = t, p.free[i-1]
	return i
}

// join removes breakpoint i (i > 0) if it no longer changes the level.
func (p *profile) join(i int) {
	if i < len(p.at) && p.free[i] == p.free[i-1] {
		p.at = append(p.at[:i], p.at[i+1:]...)
		p.free = append(p.free[:i], p.free[i+1:]...)
	}
}

// add adds delta free units over [from, to), to > from >= at[0].
func (p *profile) add(from, to model.Time, delta int) {
	i := p.split(from)
	k := p.split(to)
	for j := i; j < k; j++ {
		p.free[j] += delta
	}
	// The levels inside [from, to) moved together; only the ends can have
	// become redundant.
	p.join(k)
	if i > 0 {
		p.join(i)
	}
}

// earliest returns the earliest time t >= at[0] at which need units stay
// free for dur (dur >= 0; a zero duration needs a start instant only).
func (p *profile) earliest(need int, dur model.Time) model.Time {
	n := len(p.at)
	for i := 0; i < n; i++ {
		if p.free[i] < need {
			continue
		}
		start := p.at[i]
		end := start + dur
		ok := true
		for k := i + 1; k < n && p.at[k] < end; k++ {
			if p.free[k] < need {
				ok = false
				i = k // resume after the segment that was too full
				break
			}
		}
		if ok {
			return start
		}
	}
	// The last segment has every unit free, so this is unreachable for a
	// job that fits the machine.
	return model.Never
}

// earliestBefore returns the earliest start t in [at[0], res) to which a job
// of need units and duration dur, now reserved at res, could move: need units
// free over [t, min(t+dur, res)). It returns res if there is none. The job's
// own reservation is in the profile, but a start before res only needs what
// lies before res: from res on the job holds its own units, and the profile
// is feasible (no level below zero), so the rest of the window fits. It
// scans only the segments before res.
func (p *profile) earliestBefore(need int, dur, res model.Time) model.Time {
	start := model.Never // start of the current run of segments with need units free
	for i, at := range p.at {
		if at >= res {
			break
		}
		if p.free[i] < need {
			start = model.Never
			continue
		}
		if start == model.Never {
			start = at
		}
		end := res // where segment i ends, cut at res
		if i+1 < len(p.at) && p.at[i+1] < res {
			end = p.at[i+1]
		}
		if end-start >= dur || end == res {
			return start
		}
	}
	return res
}
