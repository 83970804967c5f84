package policies

import (
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// Conservative is conservative backfilling: every queued job holds a
// reservation, and a job may start early only if it delays no reservation
// (see the package documentation).
type Conservative struct {
	// Perfect makes the scheduler use actual runtimes instead of user
	// estimates.
	Perfect bool

	e       *sim.Engine
	queue   fifo
	res     map[*sim.Job]model.Time // reservation start of every queued job
	running runningSet
	prof    profile
	// dirty is set when the profile no longer matches the jobs: a job ended
	// before its expected end, or one ran past it. The next pass rebuilds
	// the profile and compresses the reservations.
	dirty bool
	// wake is the time of the pending timer (model.Never when none), and
	// wakeID its ID.
	wake   model.Time
	wakeID sim.TimerID
	// rebuiltAt is the time of the last rebuild. A job still running at a
	// rebuild at or after its expected end was taken to be overrunning.
	rebuiltAt model.Time
}

// NewConservative returns a conservative backfilling policy; perfect
// selects actual runtimes instead of user estimates.
func NewConservative(perfect bool) *Conservative {
	return &Conservative{Perfect: perfect, res: make(map[*sim.Job]model.Time), wake: model.Never}
}

// Attach implements sim.Policy.
func (p *Conservative) Attach(e *sim.Engine) {
	p.e = e
	p.prof.reset(0, e.Capacity())
}

func (p *Conservative) duration(j *sim.Job) model.Time {
	if p.Perfect {
		return j.Work
	}
	return j.Estimate
}

// Arrive implements sim.Policy.
func (p *Conservative) Arrive(j *sim.Job) {
	p.queue.push(j)
	if p.dirty || p.overrun() {
		p.dirty = true
		return // the next pass places it after compressing the others
	}
	p.trim()
	p.reserve(j)
}

// overrun reports whether a running job has reached its expected end
// without completing: it overran its estimate (or, with a pass after every
// event, its completion at the estimate is still to come at this instant).
// Either way the profile, which freed its processors then, is stale.
func (p *Conservative) overrun() bool {
	now := p.e.Now()
	for _, end := range p.running.ends {
		if end <= now {
			return true
		}
	}
	return false
}

// reserve gives j the earliest reservation the profile allows.
func (p *Conservative) reserve(j *sim.Job) {
	d := p.duration(j)
	t := p.prof.earliest(p.e.Need(j), d)
	p.res[j] = t
	if d > 0 {
		p.prof.add(t, t+d, -p.e.Need(j))
	}
}

// Complete implements sim.Policy.
func (p *Conservative) Complete(j *sim.Job) {
	end := j.Start + p.duration(j)
	p.running.remove(j, end)
	if p.e.Now() != end || p.rebuiltAt >= end {
		// It ended early (its reserved tail is wrong) or late, or a rebuild
		// at its expected end took it for overrunning: the profile is stale.
		p.dirty = true
	}
}

// Timer implements sim.Policy: a reservation is due.
func (p *Conservative) Timer(int64) { p.wake = model.Never }

// trim drops the profile's past, so that it starts at now.
func (p *Conservative) trim() {
	now := p.e.Now()
	if p.prof.at[0] >= now {
		return
	}
	i := p.prof.split(now)
	p.prof.at = p.prof.at[i:]
	p.prof.free = p.prof.free[i:]
}

// rebuild recomputes the profile from the running jobs and the current
// reservations, then compresses the reservations: sweeping in arrival order,
// each is lifted out and put back at its earliest feasible time, until a
// sweep moves none.
func (p *Conservative) rebuild() {
	now := p.e.Now()
	p.rebuiltAt = now
	p.prof.reset(now, p.e.Capacity())
	for i, j := range p.running.jobs {
		p.prof.add(now, expectedEnd(p.running.ends[i], now), -p.e.Need(j))
	}
	for _, j := range p.queue.jobs {
		if t, ok := p.res[j]; ok {
			if d := p.duration(j); d > 0 {
				// A reservation in the past (its start failed because a job
				// overran) is treated as starting now.
				t = max(t, now)
				p.res[j] = t
				p.prof.add(t, t+d, -p.e.Need(j))
			}
		}
	}
	// One sweep is not always enough: a later job moving into a hole can
	// open one for an earlier job. Sweep until nothing moves; reservations
	// only move earlier, so this ends.
	for moved := true; moved; {
		moved = false
		for _, j := range p.queue.jobs {
			old, had := p.res[j]
			if had {
				if d := p.duration(j); d > 0 {
					p.prof.add(old, old+d, p.e.Need(j))
				}
			}
			p.reserve(j)
			if p.res[j] != old {
				moved = moved || had
			}
		}
	}
	p.dirty = false
}

// Schedule implements sim.Policy.
func (p *Conservative) Schedule() {
	now := p.e.Now()
	if p.dirty || p.overrun() {
		p.rebuild()
	} else {
		p.trim()
	}
	started := false
	for _, j := range p.queue.jobs {
		if p.res[j] != now {
			continue
		}
		if p.e.Need(j) > p.e.Free() {
			// Only possible when a job overran: its processors are still
			// held. Re-place the reservations at the next pass.
			p.dirty = true
			continue
		}
		p.e.Start(j)
		delete(p.res, j)
		p.running.add(j, now+p.duration(j))
		started = true
	}
	if started {
		p.queue.removeStarted()
	}
	p.setWake()
}

// setWake keeps one timer pending, at the earliest future reservation start. A
// reservation can start where another reservation ends, a time at which no
// arrival or completion happens. Starts at now+1 are skipped: they come only
// from a job that overran its estimate and is expected at the next instant,
// and its completion is an event of its own (a timer there would tick every
// microsecond until it ends).
func (p *Conservative) setWake() {
	now := p.e.Now()
	next := model.Never
	for _, j := range p.queue.jobs {
		if t := p.res[j]; t > now+1 && t < next {
			next = t
		}
	}
	if next == p.wake {
		return
	}
	if p.wake != model.Never {
		p.e.CancelTimer(p.wakeID)
	}
	p.wake = next
	if next != model.Never {
		p.wakeID = p.e.SetTimer(next, 0)
	}
}
