package procsim

import "github.com/gangsim/gangsim/model"

// preferred is the process the discipline wants on processor ci now (-1:
// none), keeping the running one where the discipline does not switch.
func (s *Sim) preferred(ci int) int32 {
	c := &s.cpus[ci]
	o := c.owner
	switch s.cfg.Kind {
	case GS:
		if o >= 0 && s.eligible(o) && s.now >= c.ownerFrom {
			return o
		}
		return -1
	case FCS:
		if o >= 0 && s.now >= c.ownerFrom {
			op := &s.procs[o]
			switch {
			case op.class == CS:
				// Coscheduled and not preempted: it runs alone (6.2.1).
				if s.eligible(o) {
					return o
				}
				return -1
			case op.class == F && s.eligible(o):
				return o // prioritized in its slot
			}
		}
		return s.keepOrPick(ci)
	case BCS, PBCS:
		if s.cfg.Kind == PBCS {
			for _, pi := range c.residents {
				if s.procs[pi].job.prio && s.eligible(pi) {
					return pi
				}
			}
		}
		if o >= 0 && s.eligible(o) && s.now >= c.ownerFrom {
			return o
		}
		if c.cur >= 0 && s.candidate(ci, c.cur) {
			return c.cur // no preemption: it runs until it blocks
		}
		return s.pick(ci, -1)
	}
	return s.keepOrPick(ci) // Local, SB
}

// claims reports whether FCS's slot owner pi takes its processor from
// whatever runs there as its slot starts: a CS owner (its slot is its own,
// even while it is blocked) or an F owner that is ready (prioritized in its
// slot), not a DC one nor none (6.2.1).
func (s *Sim) claims(pi int32) bool {
	if pi < 0 {
		return false
	}
	switch s.procs[pi].class {
	case CS:
		return true
	case F:
		return s.eligible(pi)
	}
	return false
}

// keepOrPick keeps the running process while its local quantum lasts, or
// picks the next candidate in round-robin order.
func (s *Sim) keepOrPick(ci int) int32 {
	c := &s.cpus[ci]
	if c.cur >= 0 && s.candidate(ci, c.cur) {
		return c.cur
	}
	if s.linux() {
		return s.pickLinux(ci)
	}
	return s.pick(ci, -1)
}

// pick returns the first candidate of processor ci in round-robin order
// from its position, other than skip.
func (s *Sim) pick(ci int, skip int32) int32 {
	c := &s.cpus[ci]
	n := len(c.residents)
	for k := range n {
		pi := c.residents[(c.rr+k)%n]
		if pi != skip && s.candidate(ci, pi) {
			c.rr = (c.rr + k) % n
			return pi
		}
	}
	return -1
}

// candidate reports whether pi may take processor ci in the local round
// robin (apart from a slot owner's claim): it is eligible, and under FCS
// it has been classified or owns the slot (a new job is coscheduled until
// classified, 6.2.1), and the slot's owner is not CS (or is pi).
func (s *Sim) candidate(ci int, pi int32) bool {
	if !s.eligible(pi) {
		return false
	}
	if s.cfg.Kind != FCS {
		return true
	}
	c := &s.cpus[ci]
	if c.owner == pi {
		return true
	}
	// Any classified process fills the holes of a slot whose owner is not
	// CS (the thesis' mixed workload: the CS job "also receives some CPU
	// time in the DC time slots", 6.3.2.4); a CS owner's slot is its own
	// (the owner's claim is preferred's business).
	return s.procs[pi].classified && (c.owner < 0 || s.procs[c.owner].class != CS)
}

// armQuantum sets the end of the running process's local quantum on
// processor ci when another process could take its turn: at the next
// boundary of the processor's quanta (Local: phase + k × Quantum), or at
// the end of its own time slice (SB and FCS's sharing: under SchedBoost
// what it has left of a Quantum, under SchedLinux the tick at which its
// counter runs out, linux.go). Nothing is armed for a process alone:
// idle turns are never ticked.
func (s *Sim) armQuantum(ci int) {
	c := &s.cpus[ci]
	if !s.cfg.Kind.TimeSliced() {
		return
	}
	if c.cur < 0 || c.qEnd > s.now {
		return
	}
	if s.cfg.Kind == FCS {
		if o := c.owner; o == c.cur && s.procs[o].class != DC {
			return // the owner's slot: no local round robin
		}
	}
	if s.linux() {
		// The kernel's slice: it ends at the tick that takes the counter
		// to 0, if it is charged; an epoch refills the processes waiting
		// or asleep then, even if none of them can take its turn.
		if p := s.cur(ci); p.running && p.charged {
			c.qEnd = s.linuxSliceEnd(ci, p)
			s.q.push(c.qEnd, int32(ci), evQuantum)
		}
		return
	}
	others := false
	for _, pi := range c.residents {
		if pi != c.cur && s.candidate(ci, pi) {
			others = true
			break
		}
	}
	if !others {
		return
	}
	q := s.cfg.Quantum
	if s.cfg.Kind.KernelShared() {
		// A time slice of its own, as a time-sharing scheduler gives: what
		// was left of it when it last lost the processor, or a whole
		// quantum.
		p := s.cur(ci)
		if p.sliceEnd <= s.now {
			p.sliceEnd = s.now + q
		}
		c.qEnd = p.sliceEnd
	} else {
		c.qEnd = c.phase + ((s.now-c.phase)/q+1)*q
	}
	s.q.push(c.qEnd, int32(ci), evQuantum)
}

// classify puts an FCS process in its class from what it did in the slot
// that just ended (thesis 6.2.1, Fig. 6.1: "each process is evaluated at
// the end of its timeslice"): coarse-grained (computation per
// communication call at least DCGranularity) is DC; else F if it spent
// more than FWaitShare of its coscheduled time waiting, else CS. A process
// that did nothing in the slot keeps its class (a new one stays
// unclassified), and so does a process of a job still in its probation
// (Config.Probation). Its measurements start again from now.
func (s *Sim) classify(p *proc) {
	if p.phase == phDone {
		return
	}
	if !p.classified && s.now-p.job.added < s.cfg.Probation {
		if p.running {
			s.account(p)
		}
		p.mStart, p.mCompute, p.mWait, p.mCalls = s.now, 0, 0, 0
		return // still coscheduled as a new job (6.4.4)
	}
	if p.running {
		s.account(p)
	}
	if p.blocked && s.cpus[p.cpu].owner == s.index(p) {
		p.mWait += s.now - max(p.blockedAt, p.mStart)
	}
	p.mStart = s.now
	total := p.mCompute + p.mWait
	if total <= 0 {
		return
	}
	p.classified = true
	var next Class
	switch {
	case p.mCalls == 0 || p.mCompute/model.Time(p.mCalls) >= s.cfg.DCGranularity:
		next = DC
	case float64(p.mWait)/float64(total) > s.cfg.FWaitShare:
		next = F
	default:
		next = CS
	}
	if next != p.class {
		p.job.stats.Class[p.class] += s.now - p.classSince
		p.class, p.classSince = next, s.now
	}
	p.mCompute, p.mWait, p.mCalls = 0, 0, 0
}

// restartMeasures starts an FCS process's measurements again from now,
// its class kept: what classify does when the class it finds is the one
// the process has.
func (s *Sim) restartMeasures(p *proc) {
	if p.phase == phDone {
		return
	}
	if p.running {
		s.account(p)
	}
	p.mStart, p.mCompute, p.mWait, p.mCalls = s.now, 0, 0, 0
}

// cur is processor ci's running process; it must have one.
func (s *Sim) cur(ci int) *proc { return &s.procs[s.cpus[ci].cur] }
