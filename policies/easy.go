package policies

import (
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// EASY is FCFS with EASY backfilling: only the first waiting job holds a
// reservation (see the package documentation).
type EASY struct {
	// Perfect makes the scheduler use actual runtimes instead of user
	// estimates ("perfect EASY").
	Perfect bool

	e       *sim.Engine
	queue   backlog
	running runningSet
	// Scratch buffers of backfill.
	heap  candidates
	sizes []int
	begin func(*sim.Job)
	dur   func(*sim.Job) model.Time
}

// NewEASY returns an EASY backfilling policy; perfect selects actual
// runtimes instead of user estimates.
func NewEASY(perfect bool) *EASY { return &EASY{Perfect: perfect} }

// Attach implements sim.Policy.
func (p *EASY) Attach(e *sim.Engine) { p.e = e }

// Arrive implements sim.Policy.
func (p *EASY) Arrive(j *sim.Job) { p.queue.push(j, p.e.Need(j), p.duration(j)) }

// Timer implements sim.Policy.
func (p *EASY) Timer(int64) {}

// Complete implements sim.Policy.
func (p *EASY) Complete(j *sim.Job) { p.running.remove(j, j.Start+p.duration(j)) }

// duration is the runtime the scheduler assumes for j.
func (p *EASY) duration(j *sim.Job) model.Time {
	if p.Perfect {
		return j.Work
	}
	return j.Estimate
}

func (p *EASY) start(j *sim.Job) {
	p.e.Start(j)
	p.running.add(j, j.Start+p.duration(j))
}

// Schedule implements sim.Policy. Jobs start in order while they fit; the
// first that does not gets a reservation at the shadow time, and every later
// job that fits starts if it ends by then or needs no more than the
// processors left over then (which it takes). The backlog finds those jobs
// in arrival order without visiting the others.
func (p *EASY) Schedule() {
	q := &p.queue
	for j, seq := q.front(); j != nil && p.e.Need(j) <= p.e.Free(); j, seq = q.front() {
		q.remove(seq)
		p.start(j)
	}
	if q.n < 2 {
		return
	}
	head, _ := q.front()
	shadow, extra := p.reservation(head)
	if p.begin == nil {
		p.begin, p.dur = p.start, p.duration
	}
	// A job of duration at most shadow-now ends before the head's
	// reservation: it cannot delay it.
	q.backfill(p.e, shadow-p.e.Now(), extra, p.dur, &p.heap, &p.sizes, p.begin)
}

// reservation returns the head's shadow time (the earliest time enough
// processors are expected to be free for it) and the processors that will
// be left over at that time once it starts.
func (p *EASY) reservation(head *sim.Job) (shadow model.Time, extra int) {
	now := p.e.Now()
	free := p.e.Free()
	need := p.e.Need(head)
	r := &p.running
	for i := 0; i < len(r.jobs); i++ {
		free += p.e.Need(r.jobs[i])
		if free < need {
			continue
		}
		shadow = expectedEnd(r.ends[i], now)
		// Jobs expected to end at the shadow time are free then too.
		for i+1 < len(r.jobs) && expectedEnd(r.ends[i+1], now) == shadow {
			i++
			free += p.e.Need(r.jobs[i])
		}
		return shadow, free - need
	}
	// Unreachable for jobs that fit the machine, which the engine ensures.
	return model.Never, 0
}

// expectedEnd is when a running job whose estimate runs out at end is
// expected to free its processors, seen at time now: at end, or, once it has
// run past its estimate, at the next instant.
func expectedEnd(end, now model.Time) model.Time {
	if end <= now {
		return now + 1
	}
	return end
}
