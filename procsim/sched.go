package procsim

import "github.com/gangsim/gangsim/model"

// The program of a process, from its current position: startPhase sets up
// the computation of its current iteration (or tail); advance moves it
// past what it has finished (a computation, a satisfied wait) as far as it
// can go without time passing.

// startPhase sets p to compute its current iteration's computation, or
// the tail if it has none.
func (s *Sim) startPhase(p *proc) {
	pr := p.job.prog
	if p.iter >= pr.iters {
		s.startTail(p)
		return
	}
	p.inTail = false
	p.phase, p.rem = phCompute, pr.compute[p.idx]
	if p.idx == 0 {
		p.newIter = true // advance takes the job's snapshot once p is settled
	}
}

func (s *Sim) startTail(p *proc) {
	p.phase, p.rem, p.inTail = phCompute, p.job.prog.tail, true
}

// nextIteration moves p past a finished iteration.
func (s *Sim) nextIteration(p *proc) {
	pr := p.job.prog
	p.iter++
	switch {
	case p.iter < pr.iters:
		s.startPhase(p)
	case !pr.blocking && pr.rounds > 0:
		// Non-blocking: the last iteration's messages before the tail.
		p.phase, p.waitAll, p.need = phWait, true, pr.iters
	default:
		s.startTail(p)
	}
}

// advance moves p on from a finished computation or a satisfied wait. If p
// runs, it goes on running its next computation or spinning in its next
// wait (or blocks, as its discipline says). When p is its job's process 0
// and has started an iteration, the job's snapshot is taken (skip.go).
func (s *Sim) advance(p *proc) {
	s.advanceProc(p)
	if p.newIter {
		// Its job's snapshot waits until every event of this instant is
		// done: the processes that start the iteration at the same moment
		// as process 0 must all have started it.
		p.newIter = false
		if j := p.job; !j.snapDue {
			j.snapDue = true
			s.due = append(s.due, j)
		}
	}
}

func (s *Sim) advanceProc(p *proc) {
	pr := p.job.prog
	for {
		switch p.phase {
		case phCompute:
			if p.rem > 0 {
				if p.running {
					s.q.push(s.now+p.rem, p.id, evCompute)
				}
				return
			}
			if p.inTail {
				s.finish(p)
				return
			}
			if pr.rounds == 0 {
				s.nextIteration(p)
				continue
			}
			if pr.blocking && s.buffered() {
				// BCS performs the whole call, every round, in the NIC in
				// the next micro-timeslices (5.3.5): post it all, wait for it all.
				for r := range pr.rounds {
					s.sendRound(p, r)
				}
				p.waitAll, p.need = true, p.iter+1
			} else if pr.blocking {
				// The iteration's call, round by round: this round's messages
				// out, then wait for this iteration's of the round.
				p.round, p.waitAll, p.need = 0, false, p.iter+1
				s.sendRound(p, 0)
			} else {
				// Post the whole call, then wait for the previous one.
				for r := range pr.rounds {
					s.sendRound(p, r)
				}
				p.waitAll, p.need = true, p.iter
			}
			p.phase = phWait
		case phWait:
			if !s.satisfied(p) {
				s.waitStarts(p)
				return
			}
			if s.cpus[p.cpu].owner == s.index(p) {
				p.mCalls++ // a call while coscheduled in its slot
			}
			p.spun = 0
			if pr.blocking && !p.waitAll && p.round+1 < pr.rounds {
				p.round++
				s.sendRound(p, p.round)
				continue
			}
			if !pr.blocking && p.iter >= pr.iters {
				s.startTail(p) // the final wait is over
				continue
			}
			s.nextIteration(p)
		case phDone:
			return
		}
	}
}

// finish ends p's program; the job completes with its last process.
func (s *Sim) finish(p *proc) {
	j := p.job
	if p.running {
		s.account(p)
		p.running = false
		s.cancelTimer(p)
		c := &s.cpus[p.cpu]
		c.cur = -1
		defer s.dispatch(int(p.cpu))
	}
	j.stats.Class[p.class] += s.now - p.classSince
	p.phase = phDone
	if s.nodeWide() {
		defer s.rebaseNode(int(p.cpu)) // one process fewer competes there
	}
	j.left--
	if j.left == 0 {
		j.done, j.doneAt = true, s.now
		s.fin = append(s.fin, s.byID[j.id])
	}
}

// awaited is the range of receive slots p's wait needs p.need messages in.
func (s *Sim) awaited(p *proc) (lo, hi int) {
	if p.job.fo != nil {
		return 0, 0 // no receive slots: its fanout's records
	}
	if p.waitAll {
		return 0, len(p.rs)
	}
	return p.round * int(p.fan), (p.round + 1) * int(p.fan)
}

// satisfied reports whether the messages p waits for have arrived.
func (s *Sim) satisfied(p *proc) bool {
	if fo := p.job.fo; fo != nil {
		g := p.need - 1 // the call whose messages it waits for (and, blocking, the ones before)
		if g < fo.lo {
			return true
		}
		return fo.posted(g) && s.arrived(fo.wait(int(p.idx), g))
	}
	lo, hi := s.awaited(p)
	awaited := p.rs[lo:hi]
	for i := range awaited {
		if rs := &awaited[i]; rs.recv < p.need {
			s.collect(rs)
			if rs.recv < p.need {
				return false
			}
		}
	}
	return true
}

// arrived reports whether message m has reached its receiver by the current
// point of the instant: it arrived before now, or now and its arrival
// comes before the event being handled (or, between events, before the
// last one handled; the messages sent since have not).
func (s *Sim) arrived(m msg) bool {
	return m.at < s.now || m.at == s.now && m.seq < s.hz
}

// collect counts the messages of receive slot rs that have arrived as
// received. Arrivals are not events: a message is in flight until
// something looks at its receive slot after it arrived.
func (s *Sim) collect(rs *recvSlot) {
	in := rs.in
	k := 0
	for k < len(in) && s.arrived(in[k]) {
		k++
	}
	if k == 0 {
		return
	}
	rs.recv += k
	// The ones still in flight move to the front: slicing them off the
	// front instead would shrink the slot's capacity, and the next sends
	// would allocate anew (with all-to-all's p-1 slots per process, most
	// of a replay's time went to allocating and collecting garbage).
	rs.in = in[:copy(in, in[k:])]
}

// armWait schedules the wake-up of waiting process p (running or blocked):
// an event at the arrival of the last message its wait needs, with that
// message's place in the order of the instant, once every message it needs
// is on its way. The event does what that message's arrival did when every
// arrival was an event.
func (s *Sim) armWait(p *proc, pi int32) {
	var last msg
	found := false
	if fo := p.job.fo; fo != nil {
		g := p.need - 1
		if g < fo.lo || !fo.posted(g) {
			return // received, or not all sent yet: the last send arms the wake-up
		}
		if last = fo.wait(int(p.idx), g); last.at == model.Never || s.arrived(last) {
			return // held (its job switched out), or received
		}
		found = true
	}
	lo, hi := s.awaited(p)
	for sl := lo; sl < hi; sl++ {
		i := p.need - p.rs[sl].recv - 1 // the message it needs, among those in flight
		if i < 0 {
			continue
		}
		in := p.rs[sl].in
		if i >= len(in) {
			return // not sent yet: its sending arms the wake-up
		}
		if m := in[i]; !found || m.at > last.at || m.at == last.at && m.seq > last.seq {
			last, found = m, true
		}
	}
	if !found || p.wakeKey == last.seq+1 {
		return
	}
	if !(last.at > s.now || last.at == s.now && last.seq >= s.hz) {
		panic("procsim: a wait satisfied in the past")
	}
	p.wakeKey = last.seq + 1
	s.q.pushKeyed(last.at, last.seq, pi, evArrive)
}

// waitStarts decides what a running process does as its wait begins:
// spin, spin up to the threshold, or block.
func (s *Sim) waitStarts(p *proc) {
	if !p.running {
		return
	}
	pi := s.index(p)
	switch s.waitMode(p) {
	case spinForever:
		s.armWait(p, pi)
	case spinThenBlock:
		s.q.push(s.now+max(s.cfg.SpinThreshold-p.spun, 0), pi, evSpin)
		s.armWait(p, pi)
	case blockAtOnce:
		s.account(p)
		s.block(p)
		s.armWait(p, pi)
		s.cpus[p.cpu].cur = -1
		s.dispatch(int(p.cpu))
	}
}

type waitMode uint8

const (
	spinForever waitMode = iota
	spinThenBlock
	blockAtOnce
)

// waitMode is how p waits under its discipline.
func (s *Sim) waitMode(p *proc) waitMode {
	switch s.cfg.Kind {
	case SB:
		return spinThenBlock
	case FCS:
		if p.class == CS {
			return blockAtOnce // coscheduled, so blocking loses nothing (6.2.1)
		}
		return spinThenBlock
	case BCS, PBCS:
		return blockAtOnce // the call completes a micro-timeslice later (6.2.2)
	}
	return spinForever
}

// block takes a waiting process off its processor until a message wakes
// it. The caller has accounted its time and clears the processor.
func (s *Sim) block(p *proc) {
	p.occMark = s.occupied(int(p.cpu))
	if s.linux() {
		s.charge(p)
	}
	p.running, p.blocked = false, true
	p.blockedAt = s.now
	p.spun = 0
	s.cancelTimer(p)
	p.woke = false
}

// wake makes a woken process run as its discipline allows: under SB as
// its node's kernel places it (wakeNode; under SchedBoost, it takes over
// its processor, the priority boost of a process that slept), if it owns
// the processor's slot (FCS, BCS) or is prioritized (PBCS); otherwise it
// waits its turn.
func (s *Sim) wake(p *proc) {
	if s.nodeWide() {
		s.wakeNode(p)
		return
	}
	c := &s.cpus[p.cpu]
	pi := s.index(p)
	if c.cur >= 0 && c.switchEnd <= s.now {
		cur := &s.procs[c.cur]
		take := false
		switch s.cfg.Kind {
		case SB:
			take = s.wins(p, cur)
		case Local:
			take = cur.phase == phWait
		case FCS:
			// Its slot's owner takes the processor back if it is CS or F
			// (prioritized in their slot, 6.2.1; a DC owner is not).
			// Otherwise the woken process is scheduled as under SB ("the
			// resulting scheduling is effectively the same as SB's, with
			// the exception that F processes are prioritized when their
			// assigned slot is the active one", 6.3.2.2): it takes over as
			// it would under SB, unless the running process is the slot's
			// prioritized owner.
			prio := c.owner == c.cur && cur.class != DC
			take = c.owner == pi && p.class != DC ||
				!prio && s.candidate(int(p.cpu), pi) && s.wins(p, cur)
		case BCS:
			take = c.owner == pi
		case PBCS:
			take = c.owner == pi || p.job.prio && !cur.job.prio
		}
		if take {
			if i := indexOf(c.residents, c.cur); i >= 0 {
				c.rr = i + 1 // the round robin moves past the process preempted
			}
			s.stop(c)
			s.switchTo(int(p.cpu), pi)
			return
		}
	}
	s.dispatch(int(p.cpu))
}

// wins reports whether woken process p takes the processor from cur under
// the local scheduler (SB, and FCS outside a prioritized owner's slot):
// Linux's preemption test, or the boost.
func (s *Sim) wins(p, cur *proc) bool {
	if s.linux() {
		return s.preempts(p, cur)
	}
	return s.boosts(cur)
}

// boosts reports whether a woken process takes the processor from cur
// under an idealised time-sharing local scheduler (SchedBoost). The woken
// process has slept, and gets a whole time slice back (see the evArrive
// case of handle); it goes first if cur only spins, or has less of its own
// slice left, having run since the slice began: the priority an idealised
// time-sharing scheduler gives a process that sleeps often over one that
// uses up its time (Solaris TS raises it on return from sleep), on which
// Arpaci-Dusseau's implicit coscheduling relies; Linux 2.4 gives less
// (SchedLinux, linux.go). A process without a slice armed (it was alone
// when it got the processor) began one then.
func (s *Sim) boosts(cur *proc) bool {
	if cur.phase == phWait {
		return true
	}
	left := s.cfg.Quantum - (s.now - cur.runStart)
	if cur.sliceEnd > s.now {
		left = cur.sliceEnd - s.now
	}
	return left < s.cfg.Quantum
}

// sendRound sends p's messages of round r.
func (s *Sim) sendRound(p *proc, r int) {
	j := p.job
	var at model.Time
	switch {
	case s.buffered():
		at, p.nicFree = bcsTransfer(s.now, p.nicFree, j.lat, s.cfg.MicroSlice, s.cfg.MicroOverhead)
	case s.cfg.Costs != nil:
		// The NIC sends one message at a time: this round's after the
		// process's previous one is through.
		at = max(s.now, p.nicFree) + j.lat
		p.nicFree = at
	default:
		at = s.now
	}
	// The k-th message of a round arrives in its receiver's k-th receive
	// slot of the round (a ring's message to the right is the receiver's
	// from the left, and so on): calls match per partner.
	if fo := j.fo; fo != nil {
		// One record for the round's messages to every partner (and a
		// buffered call's own completion), their sequence numbers a block.
		fo.drop(s.now)
		g, complete := fo.post(int(p.idx), at, s.q.reserve(fo.span))
		s.msgs += int64(fo.span)
		if complete {
			s.armCall(j, g)
		}
		return
	}
	fan := j.prog.fan
	for k, d := range j.sendTo(int(p.idx), r) {
		s.deliver(j, d, r*fan+k, at)
	}
	if s.buffered() && r == 0 {
		// A buffered call is done when the micro-timeslice that performs
		// it ends, for the poster too, whatever has arrived (6.2.2): its
		// own completion is the process's last receive slot.
		s.deliver(j, s.index(p), j.prog.rounds*fan, at)
	}
}

// bcsTransfer times a BCS transfer taking d on the NIC, posted at post by a
// process whose NIC is busy with its previous transfer until free: it is
// buffered until the next micro-timeslice, performed in the transmit
// windows of the micro-timeslices (each after the overhead micro-phases of
// ov, 5.3.3-5.3.4), from the first that starts after post and once the
// previous transfer is through (the NIC performs one at a time), a long
// one chunked over the following windows, and delivered at the end of the
// micro-timeslice in which it ends (5.3.1): at least one micro-timeslice
// later, 1.5 on average for a short message (6.3.2). It returns the
// delivery and the transfer's end.
func bcsTransfer(post, free, d, ms, ov model.Time) (at, end model.Time) {
	start := max((post/ms+1)*ms+ov, free)
	if off := start % ms; off < ov {
		start += ov - off // the NIC is busy with the overhead micro-phases
	}
	sliceEnd := (start/ms + 1) * ms
	if d <= sliceEnd-start {
		return sliceEnd, start + d
	}
	d -= sliceEnd - start
	w := ms - ov
	more := (d + w - 1) / w // the windows of the next micro-timeslices it needs
	return sliceEnd + more*ms, sliceEnd + (more-1)*ms + ov + d - (more-1)*w
}

// deliver schedules the arrival of a message in dst's receive slot, no
// earlier than the one before it in the same slot (from the same partner).
func (s *Sim) deliver(j *job, dst int32, slot int, at model.Time) {
	d := &s.procs[dst]
	rs := &d.rs[slot]
	at = max(at, rs.last)
	rs.last = at
	rs.in = append(rs.in, msg{at: at, seq: s.q.newSeq()})
	s.msgs++
	if d.phase == phWait && (d.running || d.blocked) && rs.recv+len(rs.in) == d.need {
		if lo, hi := s.awaited(d); slot >= lo && slot < hi {
			s.armWait(d, dst) // it may have all it needs on its way now
		}
	}
}

// index is p's index in s.procs.
func (s *Sim) index(p *proc) int32 { return p.id }

// account brings a running process's time up to now.
func (s *Sim) account(p *proc) {
	d := s.now - p.since
	p.since = s.now
	if d == 0 {
		return
	}
	j := p.job
	own := s.cpus[p.cpu].owner == s.index(p)
	switch p.phase {
	case phCompute:
		p.rem -= d
		j.stats.CPU += d
		s.cpus[p.cpu].busy += d
		if own {
			p.mCompute += d
		}
	case phWait:
		p.spun += d
		j.stats.Spin += d
		s.cpus[p.cpu].busy += d
		if own {
			p.mWait += d
		}
	}
}

// eligible reports whether process pi may run now: it is not done and not
// blocked.
func (s *Sim) eligible(pi int32) bool {
	p := &s.procs[pi]
	return p.phase != phDone && !p.blocked
}

// stop takes processor c's process off it (its time accounted).
func (s *Sim) stop(c *cpu) {
	if c.cur >= 0 {
		p := &s.procs[c.cur]
		if p.running {
			s.account(p)
			if s.linux() {
				s.charge(p)
			}
			p.running = false
			s.cancelTimer(p)
			p.budget = max(p.sliceEnd-s.now, 0) // kept for its next turn
			p.occMark = s.occupied(int(c.id))
		}
	}
	if c.switchEnd > 0 {
		c.switching += s.now - c.switchAt // a switch cut short, or ending now
	}
	c.cur = -1
	c.switchEnd = 0
	s.cancelSwitch(c)
	c.qEnd = 0
}

// run starts process pi on processor ci now.
func (s *Sim) run(ci int, pi int32) {
	c := &s.cpus[ci]
	p := &s.procs[pi]
	c.cur, c.last = pi, pi
	p.running, p.since, p.ran, p.runStart = true, s.now, true, s.now
	if s.linux() {
		p.ctrFrom, p.charged = s.now, s.chargeable(ci, p)
	} else if p.budget > 0 {
		p.sliceEnd, p.budget = s.now+p.budget, 0 // the rest of its slice
	}
	s.cancelTimer(p)
	s.armQuantum(ci)
	s.advance(p)
}

// switchTo switches processor ci to process pi: after a local context
// switch if another process ran there last, after a wake-up if pi itself
// blocked there and was woken, at once if it just goes on or starts for the
// first time on a clean processor. Under GS only gang switches cost.
func (s *Sim) switchTo(ci int, pi int32) {
	c := &s.cpus[ci]
	p := &s.procs[pi]
	cost := s.cfg.LocalSwitch
	switch {
	case s.cfg.Kind == GS:
		cost = 0
	case c.last == pi:
		cost = 0
		if p.woke {
			cost = s.cfg.Wakeup
		}
	case c.last == -1 && !p.ran:
		cost = 0
	default:
		cost += s.pageBack(p, c)
	}
	p.woke = false
	if cost == 0 {
		s.run(ci, pi)
		return
	}
	c.cur, c.last = pi, pi
	c.switchEnd, c.switchAt = s.now+cost, s.now
	s.q.push(c.switchEnd, int32(ci), evCPU)
}

// occupied is the time the processors of processor ci's run queue (itself,
// or under a node-wide run queue its node's: nodeCPUs) have run processes
// or switched between them up to now, the running processes' time and the
// switches under way included.
func (s *Sim) occupied(ci int) model.Time {
	lo, hi := s.nodeCPUs(ci)
	var t model.Time
	for cj := lo; cj < hi; cj++ {
		c := &s.cpus[cj]
		t += c.busy + c.switching
		if c.cur >= 0 && s.procs[c.cur].running {
			t += s.now - s.procs[c.cur].since // negative while a skip accounted ahead
		} else if c.switchEnd > 0 {
			t += s.now - c.switchAt
		}
	}
	return t
}

// node is the node of processor ci.
func (s *Sim) node(ci int) int { return ci / s.cfg.Machine.PEsPerNode }

// pageBack is what process p pages back when its processor c switches to
// it from another process: on a node whose processes need more memory
// than it has (hwmodel.MemoryCosts), the processes that ran on the
// processors of its run queue since p last ran (its processor; under SB's
// node-wide run queue, where p may come back on another processor, its
// node's) displaced part of its memory, as much as they touched in the
// time they ran or switched there (Displace), at most the smaller of p's
// memory and the node's excess. Nothing for a process that has not run yet
// (its memory is new) or whose size is unknown.
func (s *Sim) pageBack(p *proc, c *cpu) model.Time {
	if s.mem == nil || p.mem <= 0 || !p.ran {
		return 0
	}
	ex := s.nodeUse[s.node(int(c.id))] - s.mem.NodeMemory()
	if ex <= 0 {
		return 0
	}
	return s.mem.PageIn(min(p.mem, ex, s.mem.Displace(max(s.occupied(int(c.id))-p.occMark, 0))))
}

// dispatch gives processor ci to the process its discipline prefers now,
// if that is not the one it runs.
func (s *Sim) dispatch(ci int) {
	c := &s.cpus[ci]
	if c.switchEnd > s.now {
		return // the switch's end decides
	}
	want := s.preferred(ci)
	if want == c.cur && want >= 0 {
		s.armQuantum(ci)
		return
	}
	if c.cur >= 0 {
		s.stop(c)
	}
	if want >= 0 {
		s.switchTo(ci, want)
	}
}

// rotate ends the running process's local quantum on processor ci: the next
// ready process in round-robin order gets the processor.
func (s *Sim) rotate(ci int) {
	if s.linux() {
		s.rotateLinux(ci)
		return
	}
	c := &s.cpus[ci]
	c.qEnd = 0
	if c.cur >= 0 {
		if i := indexOf(c.residents, c.cur); i >= 0 {
			c.rr = i + 1
		}
		s.procs[c.cur].sliceEnd = s.now // its slice is used up
	}
	want := s.pick(ci, -1)
	if want == c.cur || want < 0 {
		s.armQuantum(ci)
		return
	}
	s.stop(c)
	s.switchTo(ci, want)
}

func indexOf(xs []int32, x int32) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// buffered reports whether communication is buffered coscheduling's.
func (s *Sim) buffered() bool { return s.cfg.Kind.Buffered() }
