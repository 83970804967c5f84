package policies

import (
	"sort"

	"github.com/gangsim/gangsim/model"
)

// profile is the number of free allocation units over future time, a step
// function: free[i] units are free on [at[i], at[i+1]), and free[len-1]
// from the last breakpoint on.
type profile struct {
	at   []model.Time
	free []int
}

// reset makes the profile flat: units free from now on.
func (p *profile) reset(now model.Time, units int) {
	p.at = append(p.at[:0], now)
	p.free = append(p.free[:0], units)
}

// split ensures a breakpoint at t (t >= at[0]) and returns its index.
func (p *profile) split(t model.Time) int {
	i := sort.Search(len(p.at), func(i int) bool { return p.at[i] >= t })
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

// add adds delta free units over [from, to), to > from >= at[0].
func (p *profile) add(from, to model.Time, delta int) {
	i := p.split(from)
	k := p.split(to)
	for ; i < k; i++ {
		p.free[i] += delta
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
