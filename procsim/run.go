package procsim

import (
	"fmt"
	"slices"

	"github.com/gangsim/gangsim/model"
)

// AddJob places a job of len(cpus) processes, process i on processor
// cpus[i], with attributes app and dedicated runtime work; prio marks a job
// PBCS runs whenever it is ready. Under the strobed disciplines its
// processes run once SetOwners names it (or, FCS and BCS, to fill idle
// processors); under Local and SB they join the round robins at once. It
// panics if id is in use or a processor is out of range.
func (s *Sim) AddJob(id int, cpus []int, app *model.App, work model.Time, prio bool) {
	if _, ok := s.byID[id]; ok {
		panic(fmt.Sprintf("procsim: job %d added twice", id))
	}
	s.era++ // what a job was doing before is no guide to what it does now
	j := &job{id: id, prog: newProgram(app, len(cpus), work, s.cfg.Costs), prio: prio, left: len(cpus), added: s.now}
	slots := j.prog.rounds * j.prog.fan
	if s.buffered() && j.prog.rounds > 0 {
		if j.prog.pattern == model.PatternBarrier {
			// BCS-MPI performs collectives in the NIC (5.3.5): a barrier
			// completes for everyone once everyone has entered it, as an
			// all-to-all of zero bytes does.
			j.prog.pattern = model.PatternAllToAll
			j.prog.bytes = 0
			j.prog.rounds, j.prog.fan, j.prog.nic = Rounds(model.PatternAllToAll, len(cpus), 0)
			slots = j.prog.rounds * j.prog.fan
		}
		slots++ // the call's own completion (see sendRound)
	}
	if j.prog.pattern == model.PatternAllToAll && j.prog.rounds > 0 {
		// One record per sender and call instead of p-1 receive slots per
		// process (fanout.go).
		j.fo = newFanout(len(cpus), s.buffered())
		slots = 0
	}
	if s.cfg.Costs != nil {
		j.lat, _ = s.cfg.Costs.Message(j.prog.nic, max(s.cfg.Contexts, 1))
	}
	ji := int32(len(s.jobs))
	if n := len(s.freeJobs); n > 0 {
		ji = s.freeJobs[n-1]
		s.freeJobs = s.freeJobs[:n-1]
		s.jobs[ji] = j
	} else {
		s.jobs = append(s.jobs, j)
	}
	s.byID[id] = ji
	for i, c := range cpus {
		if c < 0 || c >= len(s.cpus) {
			panic(fmt.Sprintf("procsim: job %d: processor %d out of range", id, c))
		}
		for _, x := range s.cpus[c].residents {
			if o := s.procs[x].job; o.landAt > s.now {
				panic(fmt.Sprintf("procsim: job %d added at %v on processor %d, whose job %d a skip moved ahead to %v (Steady)", id, s.now, c, o.id, o.landAt))
			}
		}
		pi := s.newProc()
		p := &s.procs[pi]
		*p = proc{id: pi, job: j, idx: int32(i), cpu: int32(c), fan: int32(j.prog.fan), rs: p.rs[:0], classSince: s.now,
			ctr: int32(s.cfg.SliceTicks), enqAt: s.now}
		if s.mem != nil && app.MemPerProcKB > 0 {
			p.mem = app.MemPerProcKB << 10
			s.nodeUse[s.node(c)] += p.mem
		}
		for k := range slots {
			if k < cap(p.rs) {
				p.rs = p.rs[:k+1]
				p.rs[k] = recvSlot{in: p.rs[k].in[:0]} // its buffer reused
			} else {
				p.rs = append(p.rs, recvSlot{})
			}
		}
		j.procs = append(j.procs, pi)
		s.cpus[c].residents = append(s.cpus[c].residents, pi)
		s.occ.add(c)
	}
	// Who receives each process's messages in each round (sendTo), once
	// for all its sends.
	var dsts []int
	for i := range cpus {
		if j.fo != nil {
			break // its partners follow from its rank
		}
		for r := range j.prog.rounds {
			dsts = j.prog.sends(i, r, dsts)
			for _, d := range dsts {
				j.to = append(j.to, j.procs[d])
			}
		}
	}
	wakeOneByOne := s.linux() && s.cfg.Kind == SB
	for _, pi := range j.procs {
		s.startPhase(&s.procs[pi])
		if wakeOneByOne {
			// Not in the run queue until woken below, one after the other
			// as the kernel creates them: a processor that schedules
			// meanwhile does not see the ones still to come.
			s.procs[pi].blocked = true
		}
	}
	if s.linux() {
		// The processes running alone there so far now share their
		// processors: the kernel charges them from now on.
		for _, c := range cpus {
			s.rebaseNode(c)
		}
	}
	if s.cfg.Kind != GS {
		for _, pi := range j.procs {
			if wakeOneByOne {
				s.procs[pi].blocked = false
				s.wake(&s.procs[pi]) // a new process preempts as a woken one does
				continue
			}
			s.dispatch(int(s.procs[pi].cpu))
		}
	}
}

func (s *Sim) newProc() int32 {
	if n := len(s.free); n > 0 {
		pi := s.free[n-1]
		s.free = s.free[:n-1]
		return pi
	}
	s.procs = append(s.procs, proc{})
	pi := int32(len(s.procs) - 1)
	s.q.grow(pi)
	return pi
}

// Done reports whether job id has completed, and when.
func (s *Sim) Done(id int) (at model.Time, ok bool) {
	j := s.jobs[s.byID[id]]
	return j.doneAt, j.done
}

// Stats returns what was measured of job id so far.
func (s *Sim) Stats(id int) Stats {
	j := s.jobs[s.byID[id]]
	st := j.stats
	for _, pi := range j.procs {
		p := &s.procs[pi]
		if p.running {
			d := s.now - p.since
			if p.phase == phCompute {
				st.CPU += d
			} else if p.phase == phWait {
				st.Spin += d
			}
		}
		if p.blocked {
			st.Blocked += s.now - p.blockedAt
		}
		if p.phase != phDone {
			st.Class[p.class] += s.now - p.classSince
		}
	}
	return st
}

// RemoveJob forgets a completed job. It panics if the job has not
// completed.
func (s *Sim) RemoveJob(id int) {
	s.era++
	ji := s.byID[id]
	j := s.jobs[ji]
	if !j.done {
		panic(fmt.Sprintf("procsim: job %d removed before it completed", id))
	}
	for _, pi := range j.procs {
		ci := int(s.procs[pi].cpu)
		c := &s.cpus[ci]
		if m := s.procs[pi].mem; m > 0 {
			s.nodeUse[s.node(ci)] -= m
		}
		c.residents = slices.DeleteFunc(c.residents, func(x int32) bool { return x == pi })
		if len(c.residents) == 0 {
			s.occ.remove(ci)
		}
		lo, hi := s.nodeCPUs(ci) // it may have run on any of them
		for cj := lo; cj < hi; cj++ {
			if s.cpus[cj].last == pi {
				s.cpus[cj].last = -1
			}
		}
		if c.owner == pi {
			c.owner = -1
		}
		s.free = append(s.free, pi)
	}
	delete(s.byID, id)
	s.jobs[ji] = nil
	s.freeJobs = append(s.freeJobs, ji)
}

// Owner is a job that runs in a slot, from a time on (after the gang
// switch into the slot).
type Owner struct {
	Job  int
	From model.Time
}

// SetOwners strobes the processors (strobed disciplines): from now on the
// processes of the jobs named own their processors, each from its From
// (until then its processors switch, and nothing on them progresses); the
// processors whose owner changes give up their process; the others go on.
// Under GS a job that no longer owns its processors is switched out whole:
// its messages in flight are held until it owns them again. Under FCS the
// processes whose slot ends are classified.
func (s *Sim) SetOwners(on []Owner) {
	if !s.cfg.Kind.Strobed() {
		return
	}
	s.strobes++
	changed := false // a processor whose owner changes
	// Only the processors that had an owner or get one can change: the
	// others are idle or run what the local scheduler gave them, and this
	// strobe costs them nothing.
	prev := s.inSlot
	s.inSlot, s.prevSlot = s.prevSlot[:0], prev
	for _, ci := range s.owned {
		s.strobing.add(int(ci))
	}
	for _, o := range on {
		ji, ok := s.byID[o.Job]
		if !ok || s.jobs[ji].done {
			continue
		}
		j := s.jobs[ji]
		if j.inSlot != s.strobes {
			j.inSlot = s.strobes
			s.inSlot = append(s.inSlot, ji)
		}
		j.slotFrom = o.From
		from := max(o.From, s.now)
		for _, pi := range j.procs {
			c := &s.cpus[s.procs[pi].cpu]
			c.nextAt, c.nextP, c.nextFrom = s.strobes, pi, from
			s.strobing.add(int(c.id))
		}
	}
	// Jobs leaving the slot: only the jobs the previous call named can own
	// processors (RemoveJob takes a removed job's away, and a job added
	// since in its place owns none), taken in the order of s.jobs.
	slices.Sort(prev)
	for _, ji := range prev {
		j := s.jobs[ji]
		if j == nil || j.done {
			continue
		}
		stays := j.inSlot == s.strobes
		owned := false
		for _, pi := range j.procs {
			if s.cpus[s.procs[pi].cpu].owner == pi {
				owned = true
				break
			}
		}
		if owned && !stays {
			if s.cfg.Kind.Classifies() {
				for _, pi := range j.procs {
					s.classify(&s.procs[pi])
				}
			}
			if s.cfg.Kind == GS {
				s.freeze(j)
			}
		}
	}
	owned := s.owned[:0]
	for ci := s.strobing.next(0); ci >= 0; ci = s.strobing.next(ci + 1) {
		s.strobing.remove(ci)
		c := &s.cpus[ci]
		n := owner{-1, s.now}
		if c.nextAt == s.strobes {
			n = owner{c.nextP, c.nextFrom}
			owned = append(owned, int32(ci))
		}
		if n.p == c.owner {
			continue
		}
		changed = true
		for _, x := range [2]int32{c.owner, n.p} {
			if x >= 0 && s.procs[x].job.landAt > s.now {
				panic(fmt.Sprintf("procsim: a strobe at %v changes the owner of processor %d, whose job %d a skip moved ahead to %v (Steady)", s.now, ci, s.procs[x].job.id, s.procs[x].job.landAt))
			}
		}
		c.owner, c.ownerFrom = n.p, n.from
		if n.p >= 0 {
			// Its slot's measurements (FCS) start when it may run.
			p := &s.procs[n.p]
			p.mCompute, p.mWait, p.mCalls, p.mStart = 0, 0, 0, n.from
		}
		if s.cfg.Kind == FCS && !s.claims(n.p) && c.cur >= 0 && c.switchEnd <= s.now {
			// FCS: a slot whose owner does not claim the processor (DC, or
			// an F owner blocked, or no owner) leaves it to the local
			// scheduler (6.2.1: DC processes run "non-prioritized"): the
			// process running goes on, after the switch if one is charged.
			if n.from <= s.now {
				s.dispatch(ci)
				continue
			}
			keep := c.cur
			s.stop(c)
			c.cur, c.switchEnd, c.switchAt = keep, n.from, s.now
			s.q.push(n.from, int32(ci), evCPU)
			continue
		}
		if c.cur >= 0 {
			s.stop(c)
		}
		s.cancelSwitch(c)
		if n.from > s.now {
			// Switching: nothing runs until n.from.
			c.cur, c.switchEnd, c.switchAt = n.p, n.from, s.now
			if n.p >= 0 {
				c.last = n.p
			}
			s.q.push(n.from, int32(ci), evCPU)
			continue
		}
		s.dispatch(ci)
	}
	s.owned = owned
	for _, ji := range s.inSlot {
		if j := s.jobs[ji]; j.frozen {
			s.thaw(j, max(j.slotFrom, s.now))
		}
	}
	if s.linux() {
		// A process the node manager claimed its processor for, or no
		// longer does, goes on running: the kernel's charging follows.
		// A processor without residents runs nothing.
		for ci := s.occ.next(0); ci >= 0; ci = s.occ.next(ci + 1) {
			s.rebase(ci)
		}
	}
	if changed || s.cfg.Kind.Classifies() {
		// What a job was doing before is no guide to what it does now.
		// A strobe that names the same owners changes nothing (but FCS's
		// measurements, which EndSlot restarted): the snapshots stay.
		s.era++
	}
}

// EndSlot ends the timeslice of the processes that own their processors
// (the gang scheduler's strobe; SetOwners names the next slot's owners):
// under FCS each is classified from its measurements in the slot (thesis
// 6.2.1, "evaluated at the end of its timeslice"), whether its job goes on
// in the next slot (a job alone in the matrix) or not. Other disciplines
// measure nothing.
func (s *Sim) EndSlot() {
	if !s.cfg.Kind.Classifies() {
		return
	}
	s.era++
	for _, ci := range s.owned {
		if o := s.cpus[ci].owner; o >= 0 && s.now >= s.cpus[ci].ownerFrom {
			p := &s.procs[o]
			if j := p.job; j.pinTo > 0 && s.now <= j.pinTo {
				// A skip across strobes proved that every classification
				// up to pinTo keeps the classes (skip.go, classKept): once
				// the job has landed, its measurements start again, as
				// classify's would.
				if s.now >= j.landAt {
					s.restartMeasures(p)
				}
				continue
			}
			s.classify(p)
		}
	}
}

// Steady tells the simulator, for the next Run only, that the strobes
// (EndSlot and SetOwners) at next, next+every, next+2×every, ... before
// until name the same owners as the last SetOwners did, and that nothing
// else reaches the simulator before until but the completions that Run
// returns: the gang scheduler's matrix has one row, whose jobs all run,
// and its next event is at until. A job that owns all its processors
// alone, in a state that repeats, is then moved forward across those
// strobes (skip.go), up to the last of them before until. SetOwners
// panics if a strobe changes the owners of a job so moved while it is
// ahead.
func (s *Sim) Steady(until, next, every model.Time) {
	if every > 0 && next > s.now && until > next {
		s.steady = steady{until: until, next: next, every: every}
	}
}

// steady is what Steady said: no strobe changes an owner before until;
// the strobes are at next + k × every.
type steady struct{ until, next, every model.Time }

// freeze switches a GS job out: its messages in flight are held.
func (s *Sim) freeze(j *job) {
	j.frozen = true
	for _, pi := range j.procs {
		p := &s.procs[pi]
		p.wakeKey = 0
		s.q.cancel(s.wakeSlot(pi))
		for sl := range p.rs { // none under a fanout
			s.collect(&p.rs[sl])
			for _, m := range p.rs[sl].in {
				j.held = append(j.held, heldMsg{dst: pi, slot: sl, left: m.at - s.now})
			}
			p.rs[sl].in = p.rs[sl].in[:0]
		}
		p.nicFree = max(p.nicFree-s.now, 0) // its NIC stops with it
	}
	if j.fo != nil {
		j.fo.hold(s.now)
	}
}

// thaw switches a GS job back in at from: its held messages resume.
func (s *Sim) thaw(j *job, from model.Time) {
	j.frozen = false
	for _, pi := range j.procs {
		s.procs[pi].nicFree += from
	}
	for _, h := range j.held {
		s.deliver(j, h.dst, h.slot, from+h.left)
	}
	j.held = j.held[:0]
	if fo := j.fo; fo != nil {
		// Each held message arrives after the time it had left, and no
		// earlier than the one before it in its receive slot.
		s.msgs += int64(fo.retime(s.now, func(_ int, r *frec, prev model.Time) model.Time {
			return max(from+r.left, prev)
		}, s.q.reserve))
		s.armAll(j)
	}
}

// Run processes the events up to until (those at until included), and
// returns early with the first job that completes. With no completion it
// leaves the simulator at until.
func (s *Sim) Run(until model.Time) (id int, at model.Time, done bool) {
	s.until = until
	defer func() { s.until, s.hz, s.steady = 0, s.q.seq, steady{} }()
	for {
		if len(s.fin) > 0 {
			ji := s.fin[0]
			s.fin = s.fin[1:]
			return s.jobs[ji].id, s.jobs[ji].doneAt, true
		}
		if len(s.due) > 0 && (s.q.len() == 0 || s.q.peek() > s.now) {
			s.hz = s.q.seq // the instant is over: every message due now has arrived
			s.snapshots()
			continue
		}
		if s.q.len() == 0 || s.q.peek() > until {
			s.now = max(s.now, until)
			return 0, 0, false
		}
		e := s.q.pop()
		s.now = e.at
		s.hz = e.seq() + 1
		s.handle(&e)
		if s.afterEvent != nil {
			s.afterEvent()
		}
	}
}

// Next is the time of the next pending event (model.Never if none),
// counting the arrival of every message in flight.
func (s *Sim) Next() model.Time {
	next := model.Never
	if s.q.len() > 0 {
		next = s.q.peek()
	}
	for _, j := range s.jobs {
		if j == nil || j.done {
			continue
		}
		for _, pi := range j.procs {
			p := &s.procs[pi]
			for sl := range p.rs {
				s.collect(&p.rs[sl])
				if in := p.rs[sl].in; len(in) > 0 {
					next = min(next, in[0].at)
				}
			}
		}
		if j.fo != nil && !j.frozen {
			next = min(next, s.fanNext(j.fo))
		}
	}
	return next
}

func (s *Sim) handle(e *event) {
	s.ev++

	switch e.kind() {
	case evCompute:
		p := &s.procs[e.who()]
		if !p.running || p.phase != phCompute {
			return
		}
		p.job.stats.Events++
		p.rem = 0
		s.account(p)
		s.advance(p)
	case evSpin:
		p := &s.procs[e.who()]
		if !p.running || p.phase != phWait {
			return
		}
		s.account(p)
		s.block(p)
		c := &s.cpus[p.cpu]
		c.cur = -1
		s.dispatch(int(p.cpu))
	case evArrive:
		s.wakes++
		p := &s.procs[e.who()]
		if p.wakeKey != e.seq()+1 {
			return // its wait was satisfied otherwise, or its messages re-timed
		}
		p.wakeKey = 0
		p.job.stats.Events++
		if p.phase != phWait || !s.satisfied(p) {
			return
		}
		switch {
		case p.running: // spinning: it goes on at once
			s.account(p)
			p.spun = 0
			s.cancelTimer(p) // the end of its spin, if pending, belonged to this wait only
			s.advance(p)
		case p.blocked: // woken: ready again
			p.job.stats.Blocked += s.now - p.blockedAt
			if s.cpus[p.cpu].owner == e.who() {
				p.mWait += s.now - max(p.blockedAt, p.mStart) // waiting, coscheduled
			}
			p.blocked, p.woke = false, true
			switch {
			case s.linux():
				p.enqAt = s.now // at the head of the run queue, its counter kept
			case s.cfg.Kind.KernelShared():
				// SchedBoost: a process that slept gets a whole time slice
				// back (an idealised time-sharing scheduler recharges
				// sleepers): one that sleeps often is not rotated out
				// mid-burst.
				p.budget, p.sliceEnd = s.cfg.Quantum, 0
			}
			s.wake(p)
		}
	case evCPU:
		c := &s.cpus[e.who()]
		c.switching += s.now - c.switchAt
		c.switchEnd = 0
		if cur := c.cur; cur >= 0 && s.eligible(cur) && s.preferred(int(e.who())) == cur {
			s.run(int(e.who()), cur)
			return
		}
		c.cur = -1
		s.dispatch(int(e.who()))
	case evQuantum:
		c := &s.cpus[e.who()]
		if c.qEnd != e.at {
			return // the quantum it ended was canceled, or another armed
		}
		s.rotate(int(e.who()))
	}
}

// States counts the processes of the jobs not yet completed by what they do
// now: computing on a processor, spinning on one, blocked, or ready and
// waiting for a processor (switching counts as ready).
func (s *Sim) States() (computing, spinning, blocked, ready int) {
	for _, j := range s.jobs {
		if j == nil || j.done {
			continue
		}
		for _, pi := range j.procs {
			p := &s.procs[pi]
			switch {
			case p.phase == phDone:
			case p.blocked:
				blocked++
			case p.running && p.phase == phCompute:
				computing++
			case p.running:
				spinning++
			default:
				ready++
			}
		}
	}
	return
}
