package procsim

import (
	"slices"

	"github.com/gangsim/gangsim/model"
)

// Linux 2.4's scheduler (SchedLinux), which shares a processor among the
// processes that time-share it at the kernel's discretion: under SB, and
// under FCS outside a prioritized owner's claim. Citations are to
// kernel/sched.c and kernel/timer.c of Linux 2.4 (2.4.17-2.4.20, the
// kernels of Red Hat Linux 7.x; the thesis' clusters ran Red Hat 7.1-7.3,
// Table 1.1).
//
//   - Every process has a counter of timer ticks left in its time slice. The
//     timer interrupts HZ times a second; at each tick the running process
//     loses one, and at 0 it is rescheduled (update_process_times).
//   - schedule() picks the runnable process of highest goodness: its
//     counter, plus 20 - nice, plus PROC_CHANGE_PENALTY if it last ran on
//     this processor and 1 if it shares the previous process's memory map;
//     0 if its counter is 0. Ties go to the first in the run queue, where a
//     process is put at the head when it wakes up (add_to_runqueue).
//   - When every runnable process's counter is 0, every process's counter,
//     sleeping ones too, is recalculated as counter/2 + NICE_TO_TICKS(nice)
//     (an epoch): a process that sleeps keeps part of its slice and gains.
//   - A woken process does not get a fresh slice: it keeps its counter, and
//     it preempts the running process only if its goodness is higher, with
//     the running one's memory-map bonus counted (reschedule_idle,
//     preemption_goodness > 0): if its counter exceeds the running one's by
//     more than 1. Otherwise it waits until that one's slice ends or it
//     blocks.
//
// A spinning process is a running process to the kernel: it runs its
// counter down. New processes start with NICE_TO_TICKS(0), about what
// fork gives a child of a node manager that sleeps most of the time (half
// the parent's counter, near 2 NICE_TO_TICKS after its epochs).
//
// SMP: the thesis' clusters have 2-PE nodes (Table 1.1), and Linux 2.4
// has one run queue per node: a processor picks from every runnable
// process of the node that is not running elsewhere, giving the processes
// that last ran on it PROC_CHANGE_PENALTY more goodness (15 on i386, 20
// on ia64 and alpha, include/asm-*/smp.h), and a woken process goes to its
// last processor if that is idle, else to an idle processor of the node,
// else preempts where its goodness exceeds the running process's most
// (there, without the penalty on another processor: reschedule_idle).
// Under SB, processes therefore move between the processors of their node
// (placement gives each its first processor). With one processor per node
// this is the per-processor scheduler. Measured on the thesis' static
// scenarios (Accelerando, 2-PE nodes), per-processor run queues gave SB
// 145 s in Table 6.1 where the node's queue gives 124 s (thesis 124.09 s),
// and a run of Table 6.2 at 247 s where the node's gives 184 s (183.43 s).
//
// Simplifications, and why:
//
//   - Under FCS the run queues are per processor: the node manager gives
//     each processor its slot's owner (its claims, placement and
//     measurements are per processor), so the processes of a job stay on
//     the processors the matrix places them on.
//   - Ticks are exact: processor ci's timer ticks at tickPhase + k/HZ s
//     (a phase drawn per processor: the nodes' timers are not in step),
//     and a running process's counter is charged with the ticks since it
//     began running, computed when needed rather than stepped; the only
//     event is the tick at which its counter reaches 0.
//   - The counter runs down only while the process competes for a
//     processor at the kernel's discretion: under SB while its node holds
//     more live processes than processors, under FCS while its processor
//     holds another, and not while FCS's node manager runs it by its claim
//     (a CS owner, or an F owner in its slot; the node manager stops the
//     others, 6.2.1). Otherwise nothing competes with it, or the node
//     manager decides, and the kernel's epochs only refill it. What is
//     lost is the kernel refilling the others' counters at the epochs such
//     a process would have run into. It also keeps a job that runs alone
//     or coscheduled in a steady state that the skips find (skip.go).
//   - An epoch recalculates the counters of the node's processes (under
//     FCS, the processor's), not of every process of the system
//     (for_each_task): the nodes' kernels are independent, and a
//     processor's daemons are not modelled.

// linux reports whether the local scheduler is Linux's: SchedLinux under
// SB or FCS.
func (s *Sim) linux() bool {
	return s.cfg.Sched == SchedLinux && s.cfg.Kind.KernelShared()
}

// nodeWide reports whether a node's processors share one run queue: Linux
// under SB.
func (s *Sim) nodeWide() bool { return s.cfg.Kind == SB && s.cfg.Sched == SchedLinux }

// nodeCPUs is the range of processors of processor ci's node: itself
// alone unless the run queue is the node's.
func (s *Sim) nodeCPUs(ci int) (lo, hi int) {
	if !s.nodeWide() {
		return ci, ci + 1
	}
	n := s.cfg.Machine.PEsPerNode
	lo = ci / n * n
	return lo, lo + n
}

// nodeLive is the number of processes of processor ci's node (its run
// queue's) that are not done.
func (s *Sim) nodeLive(ci int) int {
	lo, hi := s.nodeCPUs(ci)
	n := 0
	for cj := lo; cj < hi; cj++ {
		for _, pi := range s.cpus[cj].residents {
			if s.procs[pi].phase != phDone {
				n++
			}
		}
	}
	return n
}

// idle reports whether processor ci runs nothing and switches to nothing.
func (s *Sim) idle(ci int) bool {
	c := &s.cpus[ci]
	return c.cur < 0 && c.switchEnd <= s.now
}

// migrate moves process pi, which does not run, to processor to of its
// node: it joins to's residents.
func (s *Sim) migrate(pi int32, to int) {
	p := &s.procs[pi]
	from := &s.cpus[p.cpu]
	from.residents = slices.DeleteFunc(from.residents, func(x int32) bool { return x == pi })
	if len(from.residents) == 0 {
		s.occ.remove(int(p.cpu))
	}
	s.cpus[to].residents = append(s.cpus[to].residents, pi)
	s.occ.add(to)
	p.cpu = int32(to)
}

// tickIndex is the index of processor ci's last timer tick at or before
// t: tick k comes at tickPhase + floor(k × 1 s / HZ).
func (s *Sim) tickIndex(ci int, t model.Time) int64 {
	// floor(k U / HZ) <= x - 1  <=>  k U < x HZ  <=>  k <= (x HZ - 1) / U
	x := int64(t-s.cpus[ci].tickPhase) + 1
	return floorDiv(x*int64(s.cfg.HZ)-1, int64(model.Second))
}

// tickAt is the time of processor ci's tick k.
func (s *Sim) tickAt(ci int, k int64) model.Time {
	return s.cpus[ci].tickPhase + model.Time(floorDiv(k*int64(model.Second), int64(s.cfg.HZ)))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// counter is p's counter now: what it had as of ctrFrom, less the ticks
// since if it is charged, not below 0.
func (s *Sim) counter(p *proc) int64 {
	c := int64(p.ctr)
	if p.running && p.charged {
		ci := int(p.cpu)
		c -= s.tickIndex(ci, s.now) - s.tickIndex(ci, p.ctrFrom)
	}
	return max(c, 0)
}

// charge brings p's counter to now.
func (s *Sim) charge(p *proc) {
	p.ctr, p.ctrFrom = int32(s.counter(p)), s.now
}

// chargeable reports whether the kernel runs p's counter down while it
// runs on processor ci: under SB, its node holds more processes that are
// not done than processors; under FCS, another process that is not done
// lives on ci, and p does not run by its slot's claim (CS, or F, owner).
func (s *Sim) chargeable(ci int, p *proc) bool {
	c := &s.cpus[ci]
	pi := s.index(p)
	if s.nodeWide() {
		lo, hi := s.nodeCPUs(ci)
		return s.nodeLive(ci) > hi-lo
	}
	if s.cfg.Kind == FCS && c.owner == pi && p.class != DC && s.now >= c.ownerFrom {
		return false
	}
	for _, o := range c.residents {
		if o != pi && s.procs[o].phase != phDone {
			return true
		}
	}
	return false
}

// rebaseNode rebases the processors of processor ci's node.
func (s *Sim) rebaseNode(ci int) {
	lo, hi := s.nodeCPUs(ci)
	for cj := lo; cj < hi; cj++ {
		s.rebase(cj)
	}
}

// rebase re-decides whether processor ci's running process is charged,
// after what can change it (a job added or done, a strobe), charging it to
// now as it was until now; its slice's end is armed anew if that changed.
func (s *Sim) rebase(ci int) {
	c := &s.cpus[ci]
	if c.cur < 0 || c.switchEnd > s.now {
		return
	}
	p := &s.procs[c.cur]
	if !p.running {
		return
	}
	if ch := s.chargeable(ci, p); ch != p.charged {
		s.charge(p)
		p.charged = ch
		c.qEnd = 0
		s.armQuantum(ci)
	}
}

// linuxSliceEnd is the tick at which running process p's counter reaches 0
// (now if it is 0 already).
func (s *Sim) linuxSliceEnd(ci int, p *proc) model.Time {
	if p.ctr <= 0 {
		return s.now
	}
	return max(s.tickAt(ci, s.tickIndex(ci, p.ctrFrom)+int64(p.ctr)), s.now)
}

// preempts reports whether woken process p takes the processor from cur
// (reschedule_idle): its goodness exceeds cur's, which counts 1 for its
// own memory map (MPI processes share none), so its counter exceeds
// cur's by more than 1.
func (s *Sim) preempts(p, cur *proc) bool {
	return s.preemption(p, cur, int(cur.cpu)) > 0
}

// preemption is preemption_goodness(cur, p, ci): what woken process p's
// goodness on processor ci exceeds that of cur, running there. Both have
// nice 0; cur gets PROC_CHANGE_PENALTY (it runs there) and 1 for its own
// memory map, p the penalty if it last ran on ci; a process whose counter
// is 0 has goodness 0.
func (s *Sim) preemption(p, cur *proc, ci int) int64 {
	pen := int64(s.cfg.ProcChangePenalty)
	g := int64(0)
	if p.ctr > 0 {
		g = int64(p.ctr) + 20
		if int(p.cpu) == ci {
			g += pen
		}
	}
	gc := int64(0)
	if c := s.counter(cur); c > 0 {
		gc = c + 20 + pen + 1
	}
	return g - gc
}

// wakeNode places woken (or new) process p under a node's run queue
// (reschedule_idle): on its last processor if that is idle, else on an
// idle processor of its node, else on the processor where its goodness
// exceeds the running process's most, if by anything; otherwise it waits
// in the run queue. One that a processor already runs, or switches to,
// stays where it is.
func (s *Sim) wakeNode(p *proc) {
	pi := s.index(p)
	own := int(p.cpu)
	if s.cpus[own].cur == pi {
		// Already placed: a processor's schedule() took it (a process of
		// a job just added, picked up while its siblings were placed).
		return
	}
	if s.idle(own) {
		s.dispatch(own)
		return
	}
	lo, hi := s.nodeCPUs(own)
	for cj := lo; cj < hi; cj++ {
		if cj != own && s.idle(cj) {
			s.migrate(pi, cj)
			s.dispatch(cj)
			return
		}
	}
	target, most := -1, int64(0)
	for cj := lo; cj < hi; cj++ {
		c := &s.cpus[cj]
		if c.cur < 0 || c.switchEnd > s.now {
			continue // switching: the switch's end decides
		}
		if g := s.preemption(p, &s.procs[c.cur], cj); g > most {
			target, most = cj, g
		}
	}
	if target < 0 {
		return
	}
	if target != own {
		s.migrate(pi, target)
	}
	s.stop(&s.cpus[target])
	s.switchTo(target, pi)
}

// pickLinux is schedule()'s choice on processor ci: among the candidates
// of its run queue that do not run elsewhere, the one of highest goodness
// (its counter, the running one's charged to now, plus
// PROC_CHANGE_PENALTY if it last ran on ci), ties to the one that joined
// the run queue last (the head of the kernel's queue; same instant: the
// later created); if every candidate's counter is 0, an epoch first. One
// that last ran on another processor of the node moves to ci. It returns
// -1 if there is no candidate.
func (s *Sim) pickLinux(ci int) int32 {
	lo, hi := s.nodeCPUs(ci)
	pen := int64(s.cfg.ProcChangePenalty)
	for {
		best, bg, bc := int32(-1), int64(-1), int64(-1)
		for cj := lo; cj < hi; cj++ {
			for _, pi := range s.cpus[cj].residents {
				if cj != ci && (s.cpus[cj].cur == pi || !s.eligible(pi)) || cj == ci && !s.candidate(ci, pi) {
					continue // running (or switched to) on another processor
				}
				p := &s.procs[pi]
				ctr := s.counter(p)
				g := ctr
				if ctr > 0 && cj == ci {
					g += pen
				}
				if best < 0 || g > bg || g == bg && later(p, &s.procs[best]) {
					best, bg, bc = pi, g, ctr
				}
			}
		}
		if best < 0 || bc > 0 {
			if best >= 0 && int(s.procs[best].cpu) != ci {
				s.migrate(best, ci)
			}
			return best
		}
		s.epoch(ci)
	}
}

// later reports whether p joined its run queue after q: it is ahead of q
// in the kernel's queue.
func later(p, q *proc) bool {
	return p.enqAt > q.enqAt || p.enqAt == q.enqAt && p.id > q.id
}

// epoch recalculates the counters of the processes of processor ci's run
// queue that are not done, asleep or not: counter/2 + NICE_TO_TICKS(0).
// A running one is charged to now first, and its slice's end is armed
// anew.
func (s *Sim) epoch(ci int) {
	lo, hi := s.nodeCPUs(ci)
	for cj := lo; cj < hi; cj++ {
		for _, pi := range s.cpus[cj].residents {
			p := &s.procs[pi]
			if p.phase == phDone {
				continue
			}
			if p.running {
				s.charge(p)
			}
			p.ctr = p.ctr>>1 + int32(s.cfg.SliceTicks)
		}
		if c := &s.cpus[cj]; cj != ci && c.cur >= 0 && s.procs[c.cur].running {
			c.qEnd = 0
			s.armQuantum(cj)
		}
	}
}

// rotateLinux ends the running process's slice on processor ci (its
// counter reached 0): schedule() picks again, an epoch first if no
// candidate has ticks left.
func (s *Sim) rotateLinux(ci int) {
	c := &s.cpus[ci]
	c.qEnd = 0
	if c.cur >= 0 && s.procs[c.cur].running {
		s.charge(&s.procs[c.cur])
	}
	want := s.pickLinux(ci)
	if want == c.cur || want < 0 {
		s.armQuantum(ci)
		return
	}
	s.stop(c)
	s.switchTo(ci, want)
}
