package policies

import (
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// Replan is the rule by which conservative backfilling moves the waiting
// jobs' reservations earlier once processors come free sooner than planned.
type Replan uint8

// Replanning rules; see the package documentation.
const (
	// ReplanRepeat sweeps the queue in arrival order, each reservation
	// moving to its earliest feasible start, until a sweep moves none:
	// every hole goes to the earliest-arrived job that fits it.
	ReplanRepeat Replan = iota
	// ReplanSingle sweeps the queue once per job termination, as pyss
	// does (docs/engine.md, "The pyss rules", rule 5): a hole that a later job's move
	// opens for an earlier one waits for the next termination.
	ReplanSingle
)

var replanNames = [...]string{"repeat", "single"}

func (r Replan) String() string { return replanNames[r] }

// ParseReplan parses "repeat" or "single".
func ParseReplan(s string) (Replan, error) {
	for i, n := range replanNames {
		if s == n {
			return Replan(i), nil
		}
	}
	return 0, fmt.Errorf("replan=%q: want repeat or single", s)
}

// Conservative is conservative backfilling: every queued job holds a
// reservation, and a job may start early only if it delays no reservation
// (see the package documentation).
type Conservative struct {
	// Perfect makes the scheduler use actual runtimes instead of user
	// estimates.
	Perfect bool
	// Replan is how reservations move earlier when jobs end early.
	Replan Replan

	e       *sim.Engine
	queue   []waiting // in arrival order
	running runningSet
	// over holds the running jobs the plan keeps past their expected end
	// (they overran it): until when.
	over []overrun
	prof profile
	// unplaced counts the queued jobs without a reservation yet: they
	// arrived while the plan was out of date and get one in the next sweep.
	unplaced int
	// changed is set when a job ended before its planned end: its tail was
	// freed and the reservations have not been swept since.
	changed bool
	// recheck is set when a job ended after its planned end: reservations
	// placed where the plan had freed its units may have passed.
	recheck bool
	// settled is set when a sweep moved no reservation and no units have
	// come free since: another sweep would move none either.
	settled bool
	// first is the earliest reservation start in the queue (model.Never
	// when none).
	first model.Time
	// stuck is a sweep's memory of a job that could not move.
	stuck stuck
	// between spans the times where units came free since the latest sweep
	// (noSpan when none have): see sweep.
	between span
	// scanAll makes a sweep scan the plan from the start for each move, as
	// if units could have come free anywhere (for tests: the two agree).
	scanAll bool
	// owed counts the terminations whose sweep has not run (ReplanSingle).
	owed int
	// arrivals, ends and timers count the engine's calls since the last
	// pass: which pass belongs to which event (ReplanSingle). ends leaves
	// out jobs that ended exactly when planned.
	arrivals, ends, timers int
	// sweepAt is the time of the last sweep timer (ReplanSingle).
	sweepAt model.Time
	// wake is the time of the pending reservation timer (model.Never when
	// none), and wakeID its ID.
	wake   model.Time
	wakeID sim.TimerID
}

// waiting is a queued job and its reservation.
type waiting struct {
	j    *sim.Job
	res  model.Time // reservation start; model.Never while unplaced
	dur  model.Time // the runtime the scheduler assumes
	need int
	// since spans where the latest sweep freed units after it looked at
	// this job (noSpan if nowhere, or if the job came later).
	since span
}

// overrun is a running job the plan holds until a later time than its
// expected end.
type overrun struct {
	j     *sim.Job
	until model.Time
}

// span is an interval of time [lo, hi); empty when lo >= hi.
type span struct{ lo, hi model.Time }

var noSpan = span{model.Never, math.MinInt64}

// add widens s to cover [lo, hi).
func (s *span) add(lo, hi model.Time) { s.lo, s.hi = min(s.lo, lo), max(s.hi, hi) }

// Timer tags.
const (
	tagWake  = 0 // a reservation is due
	tagSweep = 1 // the pass that sweeps for a termination at its estimate
)

// NewConservative returns a conservative backfilling policy that repeats
// its sweeps (ReplanRepeat); perfect selects actual runtimes instead of user
// estimates.
func NewConservative(perfect bool) *Conservative {
	return &Conservative{Perfect: perfect, wake: model.Never, sweepAt: model.Never, first: model.Never}
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
	p.arrivals++
	p.queue = append(p.queue, waiting{j: j, res: model.Never, dur: p.duration(j), need: p.e.Need(j), since: noSpan})
	if p.overrun() {
		p.recheck = true
	}
	if p.recheck || p.changed {
		// The plan is out of date: the next sweep places it, after the
		// jobs that came before it.
		p.unplaced++
		return
	}
	p.trim()
	p.place(&p.queue[len(p.queue)-1])
}

// overrun reports whether a running job has reached its expected end
// without completing: it overran its estimate (or, with a pass after every
// event, its completion at the estimate is still to come at this instant).
// Either way the plan, which freed its processors then, must hold them.
func (p *Conservative) overrun() bool {
	return len(p.running.ends) > 0 && p.running.ends[0] <= p.e.Now()
}

// place gives w the earliest reservation the profile allows. A
// reservation past model.Horizon (the queue's estimates, each within
// model.MaxTime, add up to more than the engine represents) stops the
// run with sim.ErrHorizon instead: the profile's times stay below the
// horizon plus two estimates, so that none of its sums overflow.
func (p *Conservative) place(w *waiting) {
	t, it := p.prof.earliest(w.need, w.dur)
	if t > model.Horizon {
		p.e.Abort(fmt.Errorf("conservative backfilling: the queue's estimates add up to a reservation of job %d at %v: %w", w.j.In.ID, t, sim.ErrHorizon))
		return
	}
	w.res = t
	p.first = min(p.first, t)
	if w.dur > 0 {
		p.prof.take(t, it, w.dur, w.need)
	}
}

// planned returns until when the plan holds running job j, whose expected
// end is end, and forgets it if forget is set.
func (p *Conservative) planned(j *sim.Job, end model.Time, forget bool) model.Time {
	for k, o := range p.over {
		if o.j == j {
			if forget {
				p.over[k] = p.over[len(p.over)-1]
				p.over[len(p.over)-1] = overrun{}
				p.over = p.over[:len(p.over)-1]
			}
			return o.until
		}
	}
	return end
}

// Complete implements sim.Policy.
func (p *Conservative) Complete(j *sim.Job) {
	now := p.e.Now()
	end := j.Start + p.duration(j)
	p.running.remove(j, end)
	until := p.planned(j, end, true)
	onTime := now == end && until == end
	switch {
	case until > now:
		// It ended before the plan said: free the rest of its time.
		p.trim()
		p.prof.add(now, until, p.e.Need(j))
		p.between.add(now, until)
		p.changed = true
		p.settled = false
	case !onTime:
		// It ended after its planned end, which the plan had already
		// freed: reservations placed there may have passed.
		p.recheck = true
	}
	if p.Replan == ReplanSingle {
		p.owed++
		if onTime {
			// The plan already freed its processors. Its pass may come
			// after the arrivals of this instant (pyss's order); a timer
			// makes sure a pass comes after them all when the engine runs
			// one pass per instant.
			if p.sweepAt != now {
				p.sweepAt = now
				p.e.SetTimer(now, tagSweep)
			}
		} else {
			p.ends++
		}
	}
}

// Timer implements sim.Policy.
func (p *Conservative) Timer(tag int64) {
	p.timers++
	if tag == tagWake {
		p.wake = model.Never
	}
}

// trim drops the profile's past, so that it starts at now.
func (p *Conservative) trim() { p.prof.trim(p.e.Now()) }

// catchUp brings the plan up to date with the clock (the profile starts
// now): a job running at or past its planned end is expected at the next
// instant, so the plan holds its units until then; a reservation that
// passed without its job starting (a job overran) starts now. It returns
// the span of time where these may have over-committed the plan. The
// profile is then what it would be rebuilt from the running jobs and the
// reservations.
func (p *Conservative) catchUp() span {
	now := p.e.Now()
	hit := noSpan
	for i, end := range p.running.ends {
		if end > now {
			break
		}
		j := p.running.jobs[i]
		if p.planned(j, end, false) > now {
			continue // held until the next instant already
		}
		p.prof.add(now, now+1, -p.e.Need(j))
		hit.add(now, now+1)
		p.planned(j, end, true)
		p.over = append(p.over, overrun{j, now + 1})
	}
	if p.first < now {
		for i := range p.queue {
			w := &p.queue[i]
			if w.res == model.Never || w.res >= now {
				continue
			}
			if w.dur > 0 {
				if w.res+w.dur > now {
					p.prof.add(now, w.res+w.dur, w.need)
				}
				p.prof.add(now, now+w.dur, -w.need)
				hit.add(now, now+w.dur)
			} else {
				hit.add(now, now+1)
			}
			w.res = now
		}
		p.first = now
	}
	return hit
}

// sweep goes through the queue in arrival order and moves every reservation
// to its earliest feasible start, placing the unplaced jobs at their turn.
// It reports whether a reservation moved.
//
// A reservation that meets hit, where catchUp may have over-committed the
// plan, is lifted out of the profile and put back at its earliest fit,
// which may be later than before. Elsewhere the plan is feasible and a
// reservation can only move earlier, which earliestMove finds by scanning
// the profile before it, without lifting it: only the jobs that move touch
// the profile. A job can only move if units came free before its
// reservation since it was last placed or looked at (see earliestMove):
// in the previous sweep after its turn (its since), between the two sweeps
// (p.between), or in this sweep before its turn; a job is skipped unless
// one of these begins before its reservation. On return every job's since
// holds what this sweep freed after its turn. The last job found stuck
// (p.stuck) spares the scan the times it rules out, until units come free
// before its reservation.
func (p *Conservative) sweep(hit span) (moved bool) {
	now := p.e.Now()
	p.stuck = stuck{res: model.Never}
	between := p.between
	p.between = noSpan
	// freed spans what this sweep has freed so far: a job reserved at or
	// before its start can use none of it.
	freed := noSpan
	first := model.Never
	for i := range p.queue {
		w := &p.queue[i]
		old := w.res
		seen := w.since
		w.since = noSpan // what this sweep frees at its turn, for now
		switch {
		case old == model.Never:
			p.place(w) // takes units only: what p.stuck says still holds
		case old < hit.hi && max(old+w.dur, old+1) > hit.lo:
			if w.dur > 0 {
				p.prof.add(old, old+w.dur, w.need)
			}
			p.place(w)
			if w.res != old {
				moved = true
				w.since = span{old, old + max(w.dur, 1)}
				p.freedAt(&freed, w.since)
			}
		case old > now && (seen.lo < old || between.lo < old || freed.lo < old):
			from := p.stuck.bound(w)
			if from >= old {
				break
			}
			t, it := p.earliestMove(w, from, old, [3]span{seen, between, freed})
			if t == old {
				p.stuck = stuck{w.need, w.dur, old}
				break
			}
			if w.dur > 0 {
				p.prof.move(old, t, it, w.dur, w.need)
			}
			w.res = t
			moved = true
			// Only [max(t+dur, old), old+dur) came free.
			w.since = span{max(t+w.dur, old), old + w.dur}
			p.freedAt(&freed, w.since)
		}
		first = min(first, w.res)
	}
	// For the next sweep: what came free after each job was looked at.
	after := noSpan
	for i := len(p.queue) - 1; i >= 0; i-- {
		w := &p.queue[i]
		f := w.since
		w.since = after
		after.add(f.lo, f.hi)
	}
	p.first = first
	p.unplaced = 0
	p.changed = false
	p.settled = !moved
	return moved
}

// freedAt records that a sweep freed units over f: the remembered stuck job
// stays stuck if that is at or after its reservation.
func (p *Conservative) freedAt(freed *span, f span) {
	freed.add(f.lo, f.hi)
	if f.lo < p.stuck.res {
		p.stuck.res = model.Never
	}
}

// earliestMove returns the earliest start in [from, old) to which w,
// reserved at old, can move, and the index of its step (old and -1 if none:
// see profile.earliestBefore), given that units came free since w was last
// placed or looked at only within the spans freed. Then no start before old
// fitted w (a sweep moves a job to its earliest fit and leaves one only when
// it cannot move); taking units keeps that true, so a start t fits now only
// if units came free somewhere in its window before old, [t, min(t+dur,
// old)) (an instant for a zero duration): the window meets one of the
// spans. Only those starts are searched, not the whole plan before old. The
// earliest fit is still a step's time: a start that fits has its step's
// time fitting too (the level is the same up to t, and the rest of the
// window is t's).
func (p *Conservative) earliestMove(w *waiting, from, old model.Time, freed [3]span) (model.Time, int) {
	if p.scanAll {
		return p.prof.earliestBefore(w.need, w.dur, from, old)
	}
	// The starts whose window meets each span before old, in order of
	// their beginning, the ones that overlap merged.
	d := max(w.dur, 1)
	var r [3]span
	n := 0
	for _, f := range freed {
		g := span{max(from, f.lo-d+1), min(f.hi, old)}
		if g.lo >= g.hi {
			continue
		}
		k := n
		for ; k > 0 && r[k-1].lo > g.lo; k-- {
			r[k] = r[k-1]
		}
		r[k] = g
		n++
	}
	for k := 0; k < n; k++ {
		g := r[k]
		for k+1 < n && r[k+1].lo <= g.hi {
			k++
			g.add(r[k].lo, r[k].hi)
		}
		if t, it := p.prof.earliestIn(w.need, w.dur, g.lo, g.hi, old); it >= 0 {
			return t, it
		}
	}
	return old, -1
}

// stuck remembers the last job a sweep found could not move earlier, to rule
// out starts for the jobs after it. If a job of n units and duration d
// reserved at r cannot start at any s < r, then neither can a job of n' >= n
// units and duration d' >= d reserved at r' >= r, in the same profile: at
// every such s, [s, min(s+d, r)) has a level below n, and it lies inside
// [s, min(s+d', r')). So that job's earliest start is r or later. Taking
// units (placing a job) keeps this true; freeing them before r (a move)
// does not.
// (Batches of like jobs queue one behind the other; remembering more than
// the last one saves less than it costs on the shared traces.)
type stuck struct {
	need     int
	dur, res model.Time // res is model.Never when there is none
}

// bound returns the earliest start the remembered job leaves w.
func (s *stuck) bound(w *waiting) model.Time {
	if s.need <= w.need && s.dur <= w.dur && s.res <= w.res {
		return s.res
	}
	return model.Time(math.MinInt64)
}

// sweepsDue returns how many sweeps the terminations owe at this pass
// (ReplanSingle). Each termination gets one at its own pass: with a pass
// after every event, an arrival's pass sweeps none, a termination's one
// (an engine pass with no call before it is the deferred pass of a
// termination at its estimate); with one pass per instant, that pass
// sweeps for all the instant's terminations.
func (p *Conservative) sweepsDue() int {
	switch {
	case p.owed == 0:
		return 0
	case p.timers > 0:
		return p.owed
	case p.arrivals == 1 && p.ends == 0:
		return 0
	case p.arrivals == 0 && p.ends <= 1:
		return 1
	}
	return p.owed
}

// Schedule implements sim.Policy.
func (p *Conservative) Schedule() {
	now := p.e.Now()
	p.trim()
	// The plan is out of date when a job ran past its planned end (or
	// ended past it), or a reservation passed without its job starting.
	full := p.recheck || p.overrun() || p.first < now
	hit := noSpan
	if full {
		hit = p.catchUp()
		p.recheck = false
	}
	n := 0 // sweeps to run
	switch p.Replan {
	case ReplanRepeat:
		// One sweep is not always enough: a later job moving into a hole
		// can open one for an earlier job. Sweep until none moves; once
		// the over-committed jobs are placed again, reservations only move
		// earlier, so this ends.
		if full || p.changed || p.unplaced > 0 {
			n = -1
		}
	case ReplanSingle:
		n = p.sweepsDue()
		p.owed -= n
		if n == 0 && (full || p.changed || p.unplaced > 0) {
			n = 1
		}
	}
	if p.settled && !full && p.unplaced == 0 {
		n = 0 // no sweep would move anything
	}
	// Sweeps after one that moves nothing would move nothing either.
	for ; n != 0; n-- {
		if !p.sweep(hit) {
			break
		}
		hit = noSpan
	}
	p.arrivals, p.ends, p.timers = 0, 0, 0
	p.startDue()
	p.setWake()
}

// startDue starts the jobs whose reservation is now, in arrival order.
func (p *Conservative) startDue() {
	now := p.e.Now()
	if p.first > now {
		return
	}
	q := p.queue
	first := model.Never
	n := 0 // jobs kept
	for i := range q {
		w := &q[i]
		if w.res == now {
			if w.need <= p.e.Free() {
				p.e.Start(w.j)
				p.running.add(w.j, now+w.dur)
				continue
			}
			// The plan, up to date, never leaves a job due that does not
			// fit; should it, the next pass places it again.
			p.recheck = true
		}
		first = min(first, w.res)
		if n != i {
			q[n] = *w
		}
		n++
	}
	clear(q[n:])
	p.queue = q[:n]
	p.first = first
}

// setWake keeps one timer pending, at the earliest future reservation start. A
// reservation can start where another reservation ends, a time at which no
// arrival or completion happens. While a job overruns its estimate, starts
// at now+1 are skipped: they wait for that job, which the plan expects at the
// next instant, and its completion is an event of its own (a timer there
// would tick every microsecond until it ends).
func (p *Conservative) setWake() {
	now := p.e.Now()
	from := now + 1
	if p.overrun() {
		from = now + 2
	}
	next := p.first
	if next < from {
		// A due job that could not start, or one waiting for an overrunning
		// job: look further.
		next = model.Never
		for i := range p.queue {
			if t := p.queue[i].res; t >= from && t < next {
				next = t
			}
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
		p.wakeID = p.e.SetTimer(next, tagWake)
	}
}
