package procsim

import (
	"slices"

	"github.com/gangsim/gangsim/model"
)

// Skipping the iterations of a job that runs undisturbed.
//
// A job whose processors run nothing else (the owners of a gang slot under
// GS, or processors where it is the only resident) and
// whose messages take a time that cannot change before the next external
// action (a strobe, a job added or removed: the bound of Run) is a closed
// deterministic system: once one of its iterations repeats the previous
// one exactly, relative to the iteration's start, every later one does. At
// every start of an iteration of its process 0, the simulator writes the
// job's state relative to that moment (each process's iteration, phase,
// computation left, spin so far, messages received, its processor's
// switch, the messages in flight; under BCS and PBCS, the phase of the
// micro-timeslice); when it equals one of the last few
// (snapHistory-1) snapshots, the job is periodic, and the simulator moves
// it forward by as many whole periods as end before the bound (and before
// any process reaches its last iteration): its iterations, counts and
// pending events move on, and its measurements grow by as many times a
// period's.
//
// A period is often longer than one iteration: processes that block and
// are woken settle into cycles in which the messages in flight at process
// 0's iteration start alternate, so the state repeats every second or
// fourth iteration, never from one to the next. On the thesis' dynamic
// workload under FCS, comparing with the previous snapshot only found a
// period in 2% of the comparisons.

// snapHistory is how many snapshots a job keeps: periods of up to
// snapHistory-1 iterations are found.
const snapHistory = 5

// snap is a job's state at the start of an iteration of its process 0.
type snap struct {
	valid bool
	era   uint64 // Sim.era when taken: a snapshot of another era is stale
	at    model.Time
	iter  int
	vec   []int64
	// What a period adds, from the previous snapshot.
	cpu, spin, blocked model.Time
	procs              []procMeasures // per process of the job
}

// procMeasures is what a snapshot measures of one process of the job and
// of its processor.
type procMeasures struct {
	mCompute, mWait, busy, switching model.Time
	mCalls                           int
}

// skippable reports whether job j runs undisturbed on its processors now:
// nothing else may run there until the next external action.
//
// Under FCS a CS owner is not moved forward beside the processes of other
// jobs on its processors, though none of them runs in its slot. A skip
// pushes the job's pending events at once, so they take sequence numbers
// ahead of the events other jobs push before the job's would have been
// pushed, and events at one instant are taken in sequence order. Once the
// slot ends the job competes with those processes for its processors
// (holes and DC slots), and what runs there first at an instant decides
// the rest: on the thesis' workload at 60% load (seed 1) such skips made
// the mean time-sharing bounded slowdown 5.39 where simulating every
// iteration gives 6.90. Under GS a job runs only in its own slots, which
// the driver's strobes start; SB, BCS, PBCS and FCS move a job only where
// it is alone (SB under Linux: each of its processes alone on its node,
// nodeAlone).
func (s *Sim) skippable(j *job) bool {
	if s.cfg.NoSkip {
		return false
	}
	if j.fo != nil && j.fo.bcs {
		// A buffered all-to-all's records are not re-timed (fanout.retime):
		// such a job is simulated call by call.
		return false
	}
	for _, pi := range j.procs {
		p := &s.procs[pi]
		c := &s.cpus[p.cpu]
		switch {
		case len(c.residents) == 1 && (!s.nodeWide() || s.nodeAlone(pi, int(p.cpu))):
		case s.cfg.Kind == GS && c.owner == pi && s.now >= c.ownerFrom:
		default:
			return false
		}
	}
	return true
}

// nodeAlone reports whether process pi, alone on its processor ci, is
// the only live process of its node. Under a node-wide run queue (SB
// under Linux) the processes of a node share its processors: another
// process there, even of the same job and with a processor of its own,
// meets pi's events at one instant in an order that a skip does not keep
// (its pending events are pushed again process by process): on the
// thesis' workload at 86% load (seed 2) skips of jobs with two processes
// on a node of two changed the measurements of 483 of 1000 jobs.
func (s *Sim) nodeAlone(pi int32, ci int) bool {
	lo, hi := s.nodeCPUs(ci)
	for cj := lo; cj < hi; cj++ {
		for _, o := range s.cpus[cj].residents {
			if o != pi && s.procs[o].phase != phDone {
				return false
			}
		}
	}
	return true
}

// state writes job j's state relative to now into vec.
func (s *Sim) state(j *job, k int, vec []int64) []int64 {
	vec = vec[:0]
	if s.buffered() {
		// BCS times every transfer by the micro-timeslices' boundaries
		// (bcsTransfer): two states are the same only at the same phase of
		// the micro-timeslice, so that a period is whole micro-timeslices
		// and the job moved forward by periods meets the same boundaries.
		vec = append(vec, int64(s.now%s.cfg.MicroSlice))
	}
	rel := func(t model.Time) int64 { // 0: past; else 1 + how far ahead (now included)
		if t < s.now {
			return 0
		}
		return int64(t-s.now) + 1
	}
	for _, pi := range j.procs {
		p := &s.procs[pi]
		c := &s.cpus[p.cpu]
		rem, spun := p.rem, p.spun
		if p.running {
			if p.phase == phCompute {
				rem -= s.now - p.since
			} else {
				spun += s.now - p.since
			}
		}
		// Outside a computation rem is not read, but it holds minus the
		// length of the last computation's last stretch on the processor:
		// it tells apart a period in which a computation was cut short
		// from an undisturbed one.
		flags := int64(p.phase) | b2i(p.running)<<2 | b2i(p.blocked)<<3 | b2i(p.waitAll)<<4 |
			b2i(p.inTail)<<5 | b2i(p.woke)<<6 | b2i(c.last == pi)<<7 | int64(p.class)<<8 | b2i(p.classified)<<10
		// What a process needs is its wait's (set as the wait begins, read
		// only in it): outside a wait it is stale, and counting it kept a
		// job that never waits (no communication) from ever repeating.
		need := int64(0)
		if p.phase == phWait {
			need = int64(p.need - k)
		}
		vec = append(vec, int64(p.iter-k), flags, int64(p.round), need, int64(rem), int64(spun),
			rel(p.blockedAt+1), rel(c.switchEnd), rel(p.sliceEnd), int64(p.budget), rel(p.nicFree),
			int64(p.ctr), b2i(p.charged), rel(p.enqAt+1))
		for sl := range p.rs {
			rs := &p.rs[sl]
			s.collect(rs) // before the messages in flight below are written
			vec = append(vec, int64(rs.recv-k), rel(rs.last))
		}
	}
	for i, pi := range j.procs {
		for sl := range s.procs[pi].rs {
			times := s.procs[pi].rs[sl].in
			for _, m := range times {
				vec = append(vec, int64(i), int64(sl), rel(m.at))
			}
		}
	}
	if fo := j.fo; fo != nil {
		// Between instants every receiver has received as many of a
		// sender's messages, and the sender's last arrives at the same
		// time in every slot it feeds: once per sender says as much as
		// once per receive slot.
		for x := range fo.n {
			vec = append(vec, int64(fo.received(x, (x+1)%fo.n, s.arrived)-k), rel(fo.last[x]))
		}
		for x := range fo.n {
			at := len(vec)
			vec = append(vec, 0)
			for g := fo.lo; g < fo.sent[x]; g++ {
				if r := &fo.gens[g-fo.lo].rec[x]; r.at > s.now {
					vec = append(vec, rel(r.at))
				}
			}
			vec[at] = int64(len(vec) - at - 1) // how many in flight
		}
	}
	return vec
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// measures returns job j's measurements as of now (running and blocked
// time included up to now).
func (s *Sim) measures(j *job, sn *snap) (cpu, spin, blocked model.Time) {
	cpu, spin, blocked = j.stats.CPU, j.stats.Spin, j.stats.Blocked
	if len(sn.procs) != len(j.procs) {
		sn.procs = make([]procMeasures, len(j.procs))
	}
	for i, pi := range j.procs {
		p := &s.procs[pi]
		c := &s.cpus[p.cpu]
		own := c.owner == pi
		mc, mw, busy, sw := p.mCompute, p.mWait, c.busy, c.switching
		if c.switchEnd > 0 && c.switchEnd >= s.now {
			sw += s.now - c.switchAt // the switch under way
		}
		if p.running {
			d := s.now - p.since
			busy += d
			if p.phase == phCompute {
				cpu += d
				if own {
					mc += d
				}
			} else {
				spin += d
				if own {
					mw += d
				}
			}
		}
		if p.blocked {
			blocked += s.now - p.blockedAt
			if own {
				mw += s.now - max(p.blockedAt, p.mStart)
			}
		}
		sn.procs[i] = procMeasures{mCompute: mc, mWait: mw, busy: busy, switching: sw, mCalls: p.mCalls}
	}
	return
}

// snapshots takes the snapshots due at the end of an instant.
func (s *Sim) snapshots() {
	due := s.due
	s.due = s.due[:0]
	for _, j := range due {
		j.snapDue = false
		if !j.done {
			s.periodic(j, s.procs[j.procs[0]].iter, s.until)
		}
	}
}

// periodic is called as job j's process 0 starts iteration k: it takes
// the job's snapshot, and if the job repeats one of its recent states,
// moves it forward by whole periods short of until.
func (s *Sim) periodic(j *job, k int, until model.Time) {
	if !s.skippable(j) {
		j.forget()
		return
	}
	cur := &j.snaps[j.snapAt]
	cur.vec = s.state(j, k, cur.vec)
	cur.at, cur.iter = s.now, k
	cpu, spin, blocked := s.measures(j, cur)
	cur.cpu, cur.spin, cur.blocked = cpu, spin, blocked
	cur.valid, cur.era = true, s.era
	// The most recent match is the shortest period.
	for back := 1; back < snapHistory; back++ {
		prev := &j.snaps[(j.snapAt+snapHistory-back)%snapHistory]
		if !prev.valid || prev.era != s.era {
			break // older ones are older still
		}
		if cur.at > prev.at && cur.iter > prev.iter && slices.Equal(prev.vec, cur.vec) {
			if s.skip(j, prev, cur, until) {
				j.forget()
				return
			}
			break
		}
	}
	j.snapAt = (j.snapAt + 1) % snapHistory
}

// forget drops job j's snapshots: what it did before is no guide to what
// it does next.
func (j *job) forget() {
	for i := range j.snaps {
		j.snaps[i].valid = false
	}
}

// skip moves job j forward by whole periods (from prev to cur) that end
// before until and before any process's last iteration, and reports
// whether it moved.
func (s *Sim) skip(j *job, prev, cur *snap, until model.Time) bool {
	period, diter := cur.at-prev.at, cur.iter-prev.iter
	cross := false
	if b := s.crossBound(j, prev, cur, period); b > until {
		if s.cfg.Kind.Classifies() {
			// The strobe after its landing keeps its classes (EndSlot): it
			// must come before any other job's end, after which the
			// driver may change its owners (SetOwners classifies it from
			// its measurements then).
			st := s.steady
			if e := s.earliestEnd(j, b+1); e <= b {
				b = 0
				if e > st.next {
					b = st.next + (e-1-st.next)/st.every*st.every // the last strobe before e
				}
			}
		}
		if b > until {
			until, cross = b, true
		}
	}
	// Run returns early at another job's completion, where the driver may
	// strobe or add a job on j's processors: j must not be ahead of it.
	until = min(until, s.earliestEnd(j, until))
	m := int((until-s.now)/period) - 1
	maxIter := 0
	for _, pi := range j.procs {
		maxIter = max(maxIter, s.procs[pi].iter)
	}
	m = min(m, (j.prog.iters-2-maxIter)/diter)
	if cross && s.cfg.Kind.Classifies() {
		// Periodic up to the strobe after its landing (less than a slot
		// and a period later), whose classification keeps its classes:
		// not in its last iterations nor its tail by then.
		m = min(m, (j.prog.iters-2-maxIter)/diter-int(s.steady.every/period)-2)
	}
	if m < 1 {
		return false
	}
	dt, dk := model.Time(m)*period, m*diter
	if cross {
		// Ahead of the simulator until it lands; the strobes up to the
		// first one from its landing on keep its classes (crossBound).
		st := s.steady
		j.landAt, j.pinTo = s.now+dt, st.next
		if j.landAt > st.next {
			j.pinTo = st.next + (j.landAt-st.next+st.every-1)/st.every*st.every
		}
		dk += crossFault
		s.crossed += int64(dk)
	}
	j.skipped += int64(dk)
	s.skipped += int64(dk)
	// Measurements: m periods' worth.
	j.stats.CPU += model.Time(m) * (cur.cpu - prev.cpu)
	j.stats.Spin += model.Time(m) * (cur.spin - prev.spin)
	j.stats.Blocked += model.Time(m) * (cur.blocked - prev.blocked)
	for i, pi := range j.procs {
		p := &s.procs[pi]
		c := &s.cpus[p.cpu]
		later, earlier := &cur.procs[i], &prev.procs[i]
		p.mCompute += model.Time(m) * (later.mCompute - earlier.mCompute)
		p.mWait += model.Time(m) * (later.mWait - earlier.mWait)
		p.mCalls += m * (later.mCalls - earlier.mCalls)
		c.busy += model.Time(m) * (later.busy - earlier.busy)
		c.switching += model.Time(m) * (later.switching - earlier.switching)
		c.skipEnd = s.now + dt // accounted ahead, until then
		// The state moves on: dk iterations, everything pending dt later.
		if p.running {
			s.account(p)
			p.since = s.now + dt
			s.cancelTimer(p)
			switch p.phase {
			case phCompute:
				s.q.push(s.now+dt+p.rem, pi, evCompute)
			case phWait:
				if s.waitMode(p) == spinThenBlock {
					s.q.push(s.now+dt+max(s.cfg.SpinThreshold-p.spun, 0), pi, evSpin)
				}
			}
		}
		if p.blocked {
			p.blockedAt += dt
		}
		p.iter += dk
		p.need += dk
		for sl := range p.rs {
			rs := &p.rs[sl]
			s.collect(rs)
			rs.recv += dk
			if rs.last >= s.now {
				rs.last += dt
			}
		}
		if p.sliceEnd >= s.now {
			p.sliceEnd += dt
		}
		if p.enqAt >= prev.at {
			p.enqAt += dt // it joins its run queue every period: its last time, dt later
		}
		if p.nicFree >= s.now {
			p.nicFree += dt
		}
		if c.switchEnd >= s.now && c.switchEnd > 0 && c.cur == pi { // its end pending
			c.switchEnd += dt
			c.switchAt += dt
			s.q.push(c.switchEnd, p.cpu, evCPU)
		}
	}
	// Its messages in flight arrive dt later, in the same order: sent
	// again once none is left in flight (a wake-up is armed from what is).
	// They are copied out first (into scratch that the next skip reuses):
	// sending them again appends to the slots they are taken from.
	moved, counts := s.moved[:0], s.movedN[:0]
	for _, pi := range j.procs {
		p := &s.procs[pi]
		p.wakeKey = 0 // its messages are re-timed: so is its wake-up
		s.q.cancel(s.wakeSlot(pi))
		for sl := range p.rs {
			times := p.rs[sl].in
			moved = append(moved, times...)
			counts = append(counts, len(times))
			p.rs[sl].in = times[:0]
		}
	}
	s.moved, s.movedN = moved, counts
	if fo := j.fo; fo != nil {
		// As the receive slots would have it: dk more messages received in
		// each, the last arrival moved on if it is not past, and each
		// message in flight dt later, no earlier than that one.
		fo.shift(dk)
		for x := range fo.last {
			if fo.last[x] >= s.now {
				fo.last[x] += dt
			}
		}
		s.msgs += int64(fo.retime(s.now, func(_ int, r *frec, prev model.Time) model.Time {
			return max(r.at+dt, prev)
		}, s.q.reserve))
		s.armAll(j)
	}
	k, off := 0, 0
	for _, pi := range j.procs {
		for sl := range s.procs[pi].rs {
			for _, m := range moved[off : off+counts[k]] {
				s.deliver(j, pi, sl, m.at+dt)
			}
			off += counts[k]
			k++
		}
	}
	return true // the snapshots describe the job before the jump: the caller forgets them
}

// earliestEnd returns a time no later than any job but skip can complete,
// or bound if none can before it: a job cannot end before each of its
// processes has computed what its program has left, at full speed.
func (s *Sim) earliestEnd(skip *job, bound model.Time) model.Time {
	for _, j := range s.jobs {
		if j == nil || j == skip || j.done {
			continue
		}
		pr := j.prog
		var left model.Time // the most any of its processes has left to compute
		for _, pi := range j.procs {
			p := &s.procs[pi]
			if p.phase == phDone {
				continue
			}
			l := pr.tail
			if p.inTail {
				l = 0
			}
			if !p.inTail && p.iter+1 < pr.iters {
				l += model.Time(pr.iters-p.iter-1) * pr.compute[p.idx]
			}
			if p.phase == phCompute {
				rem := p.rem
				if p.running {
					rem -= s.now - p.since
				}
				l += max(rem, 0)
			}
			left = max(left, l)
			if s.now+left >= bound {
				break
			}
		}
		bound = min(bound, s.now+left)
	}
	return bound
}

// crossFault is added to the iterations of every skip across strobes:
// tests set it to check that a skip landing an iteration off is caught.
var crossFault int

// crossBound returns how far job j may be moved forward across strobes
// (0: not past the Run's bound), given its period from prev to cur: the
// last strobe before Steady's bound, if j owns every one of its
// processors alone (since before now: no switch under way) and every
// strobe up to then leaves it as it is. Strobes that name the same owners
// change nothing on its processors under GS, BCS and PBCS; under FCS
// they classify its processes, which must keep their classes (classKept),
// and the node's kernel (SchedLinux) charges them, which is not followed.
func (s *Sim) crossBound(j *job, prev, cur *snap, period model.Time) model.Time {
	st := s.steady
	if st.every <= 0 || st.next <= s.now || st.until <= st.next || s.linux() {
		return 0
	}
	for _, pi := range j.procs {
		c := &s.cpus[s.procs[pi].cpu]
		if c.owner != pi || c.ownerFrom > s.now || len(c.residents) != 1 {
			return 0
		}
	}
	last := st.next + (st.until-1-st.next)/st.every*st.every // the last strobe before until
	if s.cfg.Kind.Classifies() {
		for i, pi := range j.procs {
			if !s.classKept(&s.procs[pi], &prev.procs[i], &cur.procs[i], period, last) {
				return 0
			}
		}
	}
	return last
}

// classKept reports whether FCS process p, periodic from its snapshot
// earlier to later (period apart, owning its processor alone throughout),
// keeps its class at every strobe up to last (at Steady's next, next +
// every, ...): at the first, from what it measured so far and what it
// measures up to that strobe; at the others, from one whole slot of the
// periodic pattern.
//
// Over a stretch of length τ of the pattern, n = floor(τ / period), each
// measure (computation, waiting, calls) grows by between n and n+1
// periods' worth, as it never decreases; so does the time not spent
// computing (or not waiting), which bounds the computation (the waiting)
// from the other side: τ less n+1 periods' worth of the rest. classify's
// tests are monotone in each measure, so the class is the one classify
// gives if the corners of those ranges all give it: it is proved, not
// assumed (a process near a threshold is simulated strobe by strobe).
func (s *Sim) classKept(p *proc, earlier, later *procMeasures, period, last model.Time) bool {
	st := s.steady
	if !p.classified {
		// Still in its probation at every strobe up to last: only its
		// measurements start again.
		return last-p.job.added < s.cfg.Probation
	}
	C, W, K := later.mCompute-earlier.mCompute, later.mWait-earlier.mWait, model.Time(later.mCalls-earlier.mCalls)
	g := s.cfg.DCGranularity
	keeps := func(x0, w0, k0, tau model.Time) bool {
		n := tau / period
		xlo, xhi := x0+max(n*C, tau-(n+1)*(period-C)), x0+min((n+1)*C, tau-n*(period-C))
		wlo, whi := w0+max(n*W, tau-(n+1)*(period-W)), w0+min((n+1)*W, tau-n*(period-W))
		klo, khi := k0+n*K, k0+(n+1)*K
		if xlo+wlo <= 0 {
			return false // a slot in which it may do nothing keeps its measurements
		}
		var c Class
		switch {
		case xlo >= g*khi: // no call, or at least g of computation per call
			c = DC
		case klo >= 1 && xhi < g*klo:
			hi := float64(whi) / float64(xlo+whi) // the largest share of waiting
			lo := float64(wlo) / float64(xhi+wlo) // the least
			switch {
			case lo > s.cfg.FWaitShare:
				c = F
			case hi <= s.cfg.FWaitShare:
				c = CS
			default:
				return false
			}
		default:
			return false
		}
		return c == p.class
	}
	return keeps(later.mCompute, later.mWait, model.Time(later.mCalls), st.next-s.now) &&
		(last == st.next || keeps(0, 0, 0, st.every))
}
