package policies

import (
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// gangFront is the queue of a gang scheduler with EASY in front: the jobs
// that arrived are moved from the Gang's queue into a backlog, indexed by
// size and by the time the scheduler expects them to take in the matrix
// (estimate x MPL), so that a pass finds the jobs to try without walking
// the queue. Hand-placed jobs (model.App.Pin) are queued but not indexed:
// they are tried in turn, as before.
type gangFront struct {
	q      backlog
	pinned []int64 // arrival numbers of the queued hand-placed jobs, in order
	// Scratch buffers of a pass.
	short, long candidates
	sizes       []int
	blocked     []int
}

// front returns the gang scheduler's EASY queue, with the jobs that arrived
// since the last pass moved into it.
func (p *Gang) front() *gangFront {
	f := p.bf
	if f == nil {
		f = &gangFront{q: backlog{long: true}}
		p.bf = f
	}
	for _, j := range p.queue.jobs {
		if pin := p.pin(j); pin != nil {
			f.pinned = append(f.pinned, f.q.push(j, -1, 0))
		} else {
			f.q.push(j, p.e.Need(j), p.inMatrix(j))
		}
	}
	p.queue.popFront(len(p.queue.jobs))
	return f
}

// inMatrix is how long the scheduler expects j to take once placed: its
// estimate times the MPL, or the next instant if that is not positive (see
// expectedEnd). j placed now is expected to end after the shadow time
// exactly when this is more than shadow - now.
func (p *Gang) inMatrix(j *sim.Job) model.Time {
	return max(j.Estimate*model.Time(p.cfg.MPL), 1)
}

// remove takes the job of arrival number seq out of the queue.
func (f *gangFront) remove(seq int64) {
	if f.q.at[seq-f.q.base].entry < 0 {
		for i, s := range f.pinned {
			if s == seq {
				f.pinned = append(f.pinned[:i], f.pinned[i+1:]...)
				break
			}
		}
	}
	f.q.remove(seq)
}

// backfillEASY tries the queued jobs after the head (of arrival number
// head, needing headNeed columns, pinned to headPin) exactly as walking the
// queue in order does: a job wider than the narrowest found not to fit is
// passed over; one that fits starts if it is expected to end by the shadow
// time, or if the head can still be placed at the shadow time with it in
// the scratch matrix (project's). Only the jobs this tries are visited. The
// matrix only fills during the pass, so a job found not to fit never fits
// later in it, and a short job that fits always starts: the short jobs to
// try are, at any moment, the first short job of each size narrower than
// the narrowest failure, anywhere in the queue. A long job that fits may
// still be refused, and stays queued: long jobs are tried after the last
// job tried, the first of each size; and once one of a size is refused, the
// next of that size would be placed in the same place and refused too,
// until the matrix changes (a start), so that size waits until then.
func (p *Gang) backfillEASY(f *gangFront, head int64, shadow model.Time, headNeed int, headPin []int) {
	q := &f.q
	now := p.e.Now()
	d := shadow - now // a job expected to take longer ends after the shadow time
	fail := p.m.cols + 1
	if n, ok := p.knownNoFit(); ok {
		// The narrowest job found not to fit since the matrix last changed
		// (the head, at the least): no wider one fits (see find), and the
		// pass only fills the matrix, so none is tried.
		fail = min(fail, n)
	}
	// The first short job of size s after the head (the head is the first
	// queued job), and the first long job of size s after the arrival
	// number after.
	nextShort := func(s int) int64 {
		l := q.sizes[s]
		if i := l.shortFrom(l.after(head), d); i >= 0 {
			return l.seq[i]
		}
		return noSeq
	}
	nextLong := func(s int, after int64) int64 {
		l := q.sizes[s]
		if i := l.longFrom(l.after(after), d); i >= 0 {
			return l.seq[i]
		}
		return noSeq
	}
	short := f.short[:0]
	f.sizes = q.shortSizes(fail-1, d, f.sizes[:0])
	for _, s := range f.sizes {
		if seq := nextShort(s); seq != noSeq {
			short = append(short, candidate{seq, s})
		}
	}
	short.heapify()
	long := f.long[:0]
	f.sizes = q.longSizes(fail-1, d, f.sizes[:0])
	for _, s := range f.sizes {
		if seq := nextLong(s, head); seq != noSeq {
			long = append(long, candidate{seq, s})
		}
	}
	long.heapify()
	blocked := f.blocked[:0]
	pinned := 0
	for pinned < len(f.pinned) && f.pinned[pinned] <= head {
		pinned++
	}
	for {
		for len(short) > 0 && short[0].need >= fail {
			short.pop()
		}
		for len(long) > 0 && long[0].need >= fail {
			long.pop()
		}
		seq := noSeq
		if len(short) > 0 {
			seq = short[0].seq
		}
		if len(long) > 0 {
			seq = min(seq, long[0].seq)
		}
		if pinned < len(f.pinned) {
			seq = min(seq, f.pinned[pinned])
		}
		if seq == noSeq {
			break
		}
		c := q.job(seq)
		need, pin := p.e.Need(c), []int(nil)
		isPinned := pinned < len(f.pinned) && f.pinned[pinned] == seq
		if isPinned {
			pin = p.pin(c)
			pinned++
		}
		isLong := !isPinned && len(long) > 0 && long[0].seq == seq
		started := false
		if pl, ok := p.find(need, pin); !ok {
			if pin == nil {
				fail = need
			}
		} else {
			started = true
			if p.expectedEnd(now, c) > shadow {
				// Runs past the shadow time: only if the head still fits then.
				p.scratch.occupyPlaced(pl)
				if !p.scratch.fits(headNeed, headPin) {
					p.scratch.vacatePlaced(pl)
					started = false
				}
			}
			if started {
				f.remove(seq)
				p.start(c, pl)
				if isPinned {
					pinned-- // the next hand-placed job moved into its place
				}
			}
		}
		switch {
		case isPinned:
		case isLong:
			if started || need >= fail {
				long[0].seq = nextLong(need, seq)
				if long[0].seq == noSeq {
					long.pop()
				} else {
					long.down(0)
				}
			} else {
				// Refused: so is the next of its size until the matrix changes.
				blocked = append(blocked, need)
				long.pop()
			}
		default:
			if started {
				short[0].seq = nextShort(need)
				if short[0].seq == noSeq {
					short.pop()
				} else {
					short.down(0)
				}
			}
		}
		if started {
			for _, s := range blocked {
				if next := nextLong(s, seq); s < fail && next != noSeq {
					long = append(long, candidate{next, s})
					long.up(len(long) - 1)
				}
			}
			blocked = blocked[:0]
		}
	}
	f.short, f.long, f.blocked = short, long, blocked
}
