package policies

import (
	"slices"

	"github.com/gangsim/gangsim/model"
)

// profile is the number of free allocation units over future time, a step
// function: s[i].free units are free on [s[i].at, s[i+1].at), and the last
// step's from its time on. Adjacent steps have different levels (every edit
// drops the breakpoints that no longer change it), so the profile has at
// most one step per distinct start and end of the jobs it plans.
type profile struct {
	s []step
}

type step struct {
	at   model.Time
	free int
}

// reset makes the profile flat: units free from now on.
func (p *profile) reset(now model.Time, units int) {
	p.s = append(p.s[:0], step{now, units})
}

// trim drops the profile's past, so that it starts at now (now >= its
// start).
func (p *profile) trim(now model.Time) {
	if p.s[0].at >= now {
		return
	}
	i := p.search(now)
	if i == len(p.s) || p.s[i].at != now {
		// now falls inside step i-1, which becomes the first.
		i--
		p.s[i].at = now
	}
	p.s = p.s[:copy(p.s, p.s[i:])]
}

// search returns the index of the first step at or after t.
func (p *profile) search(t model.Time) int { return searchSteps(p.s, t) }

// add adds delta free units over [from, to), to > from >= the profile's
// start.
func (p *profile) add(from, to model.Time, delta int) {
	p.edit(-1, []model.Time{from, to}, []int{delta})
}

// take takes need units over [t, t+dur), dur > 0, t the time of step it.
func (p *profile) take(t model.Time, it int, dur model.Time, need int) {
	p.edit(it, []model.Time{t, t + dur}, []int{-need})
}

// move moves a reservation of need units and length dur > 0 from old to an
// earlier start t, the time of step it: need units are taken on [t, t+dur)
// and come free on [old, old+dur); where the two overlap nothing changes.
func (p *profile) move(old, t model.Time, it int, dur model.Time, need int) {
	if t+dur > old {
		p.shiftOverlap(old, t, it, dur, need)
		return
	}
	a, b := min(t+dur, old), max(t+dur, old)
	if a == b {
		p.edit(it, []model.Time{t, a, old + dur}, []int{-need, need})
		return
	}
	p.edit(it, []model.Time{t, a, b, old + dur}, []int{-need, 0, need})
}

// shiftOverlap is move for the common case, a reservation moving earlier by
// less than its length (t < old < t+dur): it takes need units on [t, old)
// and frees them on [t+dur, old+dur), in one walk over the steps it changes
// and a gallop over the ones between.
func (p *profile) shiftOverlap(old, t model.Time, it int, dur model.Time, need int) {
	s := p.s
	i := it
	for ; i < len(s) && s[i].at < old; i++ {
		s[i].free -= need
	}
	io := i // the first step at or after old
	td, e := t+dur, old+dur
	j := gallop(s, io, td)
	k := j
	for ; k < len(s) && s[k].at < e; k++ {
		s[k].free += need
	}
	// New steps where the level must change and no step is: at old (back
	// to the level before the move), at t+dur (need more than the step
	// before it in the final profile), at old+dur (need less).
	var add [3]step
	var at [3]int
	n := 0
	oldNew := io == len(s) || s[io].at != old
	if oldNew {
		add[n], at[n] = step{old, s[io-1].free + need}, io
		n++
	}
	tdNew := j == len(s) || s[j].at != td
	if tdNew {
		lv := s[j-1].free + need // a step in [old, t+dur), unchanged
		if j == io && oldNew {
			lv = add[0].free + need // the new step at old comes before
		}
		add[n], at[n] = step{td, lv}, j
		n++
	}
	eNew := k == len(s) || s[k].at != e
	if eNew {
		lv := s[k-1].free - need // a step in [t+dur, old+dur), which got need
		if k == j {
			lv = add[n-1].free - need // the new step at t+dur comes before
		}
		add[n], at[n] = step{e, lv}, k
		n++
	}
	// The steps that were there at t, old, t+dur and old+dur may now repeat
	// the level before them (a new step never does: it changes the level).
	// prev is the level before step i in the final profile.
	prev := func(i int) int {
		lv := s[i-1].free
		for m := 0; m < n; m++ {
			if at[m] == i {
				lv = add[m].free // the last new step placed right before i
			}
		}
		return lv
	}
	var drop [4]int
	nd := 0
	if it > 0 && s[it].free == prev(it) {
		drop[nd] = it
		nd++
	}
	if !oldNew && s[io].free == prev(io) {
		drop[nd] = io
		nd++
	}
	if !tdNew && s[j].free == prev(j) {
		drop[nd] = j
		nd++
	}
	if !eNew && s[k].free == prev(k) {
		drop[nd] = k
		nd++
	}
	if n+nd > 0 {
		p.s = splice(s, add[:n], at[:n], drop[:nd])
	}
}

// edit adds ds[k] free units over [xs[k], xs[k+1]) for each k, the xs (at
// most 4) strictly increasing from the profile's start on; i0 is the index
// of the step at xs[0], or -1 if unknown. It inserts the breakpoints it
// needs and drops the ones it makes redundant, shifting the later steps once
// each way, and searches only the unchanged gaps: the ranges it changes it
// walks anyway.
func (p *profile) edit(i0 int, xs []model.Time, ds []int) {
	s := p.s
	var idx [4]int // first step at or after xs[k]
	var add [4]step
	var addAt [4]int
	n := 0 // steps to insert
	for k, x := range xs {
		i := 0
		switch {
		case k == 0 && i0 >= 0:
			i = i0
		case k == 0:
			i = p.search(x)
		case ds[k-1] != 0:
			i = idx[k-1]
			for ; i < len(s) && s[i].at < x; i++ {
				s[i].free += ds[k-1]
			}
		default:
			i = gallop(s, idx[k-1], x)
		}
		idx[k] = i
		if i == len(s) || s[i].at != x {
			// x falls inside step i-1; its level there, before this edit,
			// is that step's, less what this edit already added to it.
			level := s[i-1].free
			for j := k - 1; j >= 0; j-- {
				if s[i-1].at >= xs[j] {
					level -= ds[j]
					break
				}
			}
			if k < len(ds) {
				level += ds[k]
			}
			add[n], addAt[n] = step{x, level}, i
			n++
		}
	}
	// Only the existing steps at the xs can have become redundant: inside
	// each range the levels moved together, and a new step differs from
	// the one before it (consecutive ds differ, ds[0] is not 0).
	var drop [4]int
	nd, m := 0, 0
	for k, x := range xs {
		for m < n && add[m].at < x {
			m++
		}
		i := idx[k]
		if m < n && add[m].at == x || i == 0 {
			continue
		}
		prev := s[i-1].free
		if m > 0 && addAt[m-1] == i {
			prev = add[m-1].free // a new step comes right before it
		}
		if s[i].free == prev {
			drop[nd] = i
			nd++
		}
	}
	if n+nd > 0 {
		p.s = splice(s, add[:n], addAt[:n], drop[:nd])
		return
	}
	p.s = s
}

// splice inserts each add[j] before s[at[j]] and removes the steps at the
// indices drop (both in increasing order; a step inserted at i goes before
// a removed s[i]), moving each run of kept steps once, straight to its
// place, rather than the whole tail once per change.
func splice(s []step, add []step, at []int, drop []int) []step {
	n := len(s) + len(add) - len(drop)
	switch {
	case len(add) == 1 && len(drop) == 0:
		s = append(s, step{})
		copy(s[at[0]+1:], s[at[0]:])
		s[at[0]] = add[0]
		return s
	case len(add) == 0 && len(drop) == 1:
		return append(s[:drop[0]], s[drop[0]+1:]...)
	case len(add) == 1 && len(drop) == 1 && at[0] <= drop[0]:
		// The steps in between move right by one, into the dropped one's
		// place.
		copy(s[at[0]+1:], s[at[0]:drop[0]])
		s[at[0]] = add[0]
		return s
	case len(add) == 1 && len(drop) == 1:
		// The steps in between move left by one.
		copy(s[drop[0]:], s[drop[0]+1:at[0]])
		s[at[0]-1] = add[0]
		return s
	}
	// The runs of kept steps between changes and how far each moves.
	var from, to, by [9]int
	runs := 0
	next, shift := -1, 0 // start of the current run (-1 before the first change), its shift
	for a, d := 0, 0; a < len(add) || d < len(drop); {
		var pos int
		ins := d == len(drop) || a < len(add) && at[a] <= drop[d]
		if ins {
			pos = at[a]
		} else {
			pos = drop[d]
		}
		if next >= 0 && pos > next && shift != 0 {
			from[runs], to[runs], by[runs] = next, pos, shift
			runs++
		}
		if next < pos {
			next = pos
		}
		if ins {
			shift++
			a++
		} else {
			shift--
			next = pos + 1
			d++
		}
	}
	if next < len(s) && shift != 0 {
		from[runs], to[runs], by[runs] = next, len(s), shift
		runs++
	}
	if n > len(s) {
		s = slices.Grow(s, n-len(s))[:n]
	}
	// Runs moving right go first, the last of them first; then those
	// moving left, the first first. Final places are in order, so no run
	// lands on one that has yet to move.
	for r := runs - 1; r >= 0; r-- {
		if by[r] > 0 {
			copy(s[from[r]+by[r]:], s[from[r]:to[r]])
		}
	}
	for r := 0; r < runs; r++ {
		if by[r] < 0 {
			copy(s[from[r]+by[r]:], s[from[r]:to[r]])
		}
	}
	for j, st := range add {
		dropped := 0
		for dropped < len(drop) && drop[dropped] < at[j] {
			dropped++
		}
		s[at[j]+j-dropped] = st
	}
	return s[:n]
}

// gallop returns the index of the first of s at or after t, searching
// forward from i (s[i-1].at < t) in steps that double, then by halves: a
// search over the distance covered, not the whole profile.
func gallop(s []step, i int, t model.Time) int {
	lo, hi, stride := i, i, 1
	for hi < len(s) && s[hi].at < t {
		lo = hi + 1
		hi += stride
		stride *= 2
	}
	hi = min(hi, len(s))
	return lo + searchSteps(s[lo:hi], t)
}

// searchSteps returns the index of the first of s at or after t.
func searchSteps(s []step, t model.Time) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m].at < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// earliest returns the earliest time t >= start at which need units stay
// free for dur (dur >= 0; a zero duration needs a start instant only), and
// the index of the step that starts at t.
func (p *profile) earliest(need int, dur model.Time) (model.Time, int) {
	s := p.s
	for i := 0; i < len(s); i++ {
		if s[i].free < need {
			continue
		}
		start := s[i].at
		end := start + dur
		ok := true
		for k := i + 1; k < len(s) && s[k].at < end; k++ {
			if s[k].free < need {
				ok = false
				i = k // resume after the step that was too full
				break
			}
		}
		if ok {
			return start, i
		}
	}
	// The last step has every unit free, so this is unreachable for a job
	// that fits the machine.
	return model.Never, -1
}

// earliestBefore returns the earliest start t in [max(from, start), res)
// to which a job of need units and duration dur, now reserved at res, could
// move, and the index of the step that starts at t: need units free over
// [t, min(t+dur, res)). Only the steps' times are candidates (the earliest
// feasible start is always one). It returns res and -1 if there is none.
// The job's own reservation is in the profile, but a start before res only
// needs what lies before res: from res on the job holds its own units, and
// the profile is feasible (no level below zero), so the rest of the window
// fits. It scans only the steps in [from, res).
func (p *profile) earliestBefore(need int, dur, from, res model.Time) (model.Time, int) {
	return p.earliestIn(need, dur, from, res, res)
}

// earliestIn is earliestBefore with the starts limited to [from, to) (to <=
// res), the windows still ending at min(t+dur, res). It returns res and -1
// if no start in [from, to) fits.
func (p *profile) earliestIn(need int, dur, from, to, res model.Time) (model.Time, int) {
	s := p.s
	i := 0
	if from > s[0].at {
		i = p.search(from)
	}
	for i < len(s) && s[i].at < to {
		if s[i].free < need {
			i++
			continue
		}
		// A run of steps with need units free starts here: it must last
		// until min(start+dur, res).
		first, start := i, s[i].at
		end := min(start+dur, res)
		for i++; i < len(s) && s[i].at < end && s[i].free >= need; i++ {
		}
		if i == len(s) || s[i].at >= end {
			return start, first
		}
		i++ // s[i] is too full: the next run starts after it
	}
	return res, -1
}
