package procsim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestCPUSet checks the processor set against a plain one: members walked
// in ascending order across words and summary words, after random adds
// and removes.
func TestCPUSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 63, 64, 65, 4095, 4096, 4097, 20000} {
		set, want := newCPUSet(n), map[int]bool{}
		for range 3 * n {
			i := r.IntN(n)
			if r.IntN(3) == 0 {
				set.remove(i)
				delete(want, i)
			} else {
				set.add(i)
				want[i] = true
			}
			if r.IntN(n/8+1) == 0 {
				var got, exp []int
				for ci := set.next(0); ci >= 0; ci = set.next(ci + 1) {
					got = append(got, ci)
				}
				for ci := range n {
					if want[ci] {
						exp = append(exp, ci)
					}
				}
				if !slices.Equal(got, exp) {
					t.Fatalf("%d processors: walked %v, want %v", n, got, exp)
				}
			}
		}
	}
}

// setOwnersMachine and endSlotMachine are SetOwners and EndSlot as they
// were when a strobe looked at every processor and every job of the
// machine: the reference that TestStrobeTwin holds the strobes that touch
// only the processors they concern to.
func (s *Sim) setOwnersMachine(on []Owner) {
	if !s.cfg.Kind.Strobed() {
		return
	}
	next := make([]owner, len(s.cpus))
	for i := range next {
		next[i] = owner{-1, s.now}
	}
	s.strobes++
	changed := false // a processor whose owner changes
	s.inSlot = s.inSlot[:0]
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
		for _, pi := range j.procs {
			next[s.procs[pi].cpu] = owner{pi, max(o.From, s.now)}
		}
	}
	for _, j := range s.jobs {
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
			if s.cfg.Kind == FCS {
				for _, pi := range j.procs {
					s.classify(&s.procs[pi])
				}
			}
			if s.cfg.Kind == GS {
				s.freeze(j)
			}
		}
	}
	for ci := range s.cpus {
		c := &s.cpus[ci]
		n := next[ci]
		if n.p == c.owner {
			continue
		}
		changed = true
		c.owner, c.ownerFrom = n.p, n.from
		if n.p >= 0 {
			p := &s.procs[n.p]
			p.mCompute, p.mWait, p.mCalls, p.mStart = 0, 0, 0, n.from
		}
		if s.cfg.Kind == FCS && !s.claims(n.p) && c.cur >= 0 && c.switchEnd <= s.now {
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
			c.cur, c.switchEnd, c.switchAt = n.p, n.from, s.now
			if n.p >= 0 {
				c.last = n.p
			}
			s.q.push(n.from, int32(ci), evCPU)
			continue
		}
		s.dispatch(ci)
	}
	for _, ji := range s.inSlot {
		if j := s.jobs[ji]; j.frozen {
			s.thaw(j, max(j.slotFrom, s.now))
		}
	}
	if s.linux() {
		for ci := range s.cpus {
			s.rebase(ci)
		}
	}
	if changed || s.cfg.Kind == FCS {
		// What a job was doing before is no guide to what it does now.
		// A strobe that names the same owners changes nothing (but FCS's
		// measurements, which EndSlot restarted): the snapshots stay.
		s.era++
	}
}

func (s *Sim) endSlotMachine() {
	if s.cfg.Kind != FCS {
		return
	}
	s.era++
	for ci := range s.cpus {
		if o := s.cpus[ci].owner; o >= 0 && s.now >= s.cpus[ci].ownerFrom {
			s.classify(&s.procs[o])
		}
	}
}

// TestStrobeTwin drives two simulators of the same random workload and
// strobes on a machine mostly idle (5,000 processors, jobs of up to 8
// processes scattered over it, so that a strobe's processors span words
// and summary words of the processor sets), one strobing every processor
// and job of the machine as the simulator once did (setOwnersMachine) and
// one strobing only the processors that had or get an owner, and
// compares every live job's state and measurements (its events included)
// at every strobe, and the events, messages and completions of the
// whole: a strobe that touches fewer processors does exactly the same.
// Under every strobed discipline, FCS under both local schedulers; jobs
// come and go, and some strobes name jobs that share processors (the
// later one owns them).
func TestStrobeTwin(t *testing.T) {
	n := uint64(60)
	if testing.Short() {
		n = 16
	}
	for seed := uint64(1); seed <= n; seed++ {
		if err := strobeTwin(t, seed); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func strobeTwin(t *testing.T, seed uint64) error {
	const procs = 5000
	r := rand.New(rand.NewPCG(seed, 7))
	kind := []Kind{GS, FCS, BCS, PBCS}[seed%4]
	cfg := Config{Kind: kind, Machine: model.Machine{Nodes: procs / 2, PEsPerNode: 2}, LocalSwitch: model.Time(r.IntN(100)), Wakeup: 5,
		Quantum: model.Time(1+r.IntN(20)) * model.Millisecond, SpinThreshold: model.Time(r.IntN(300)),
		MicroSlice: 250, MicroOverhead: model.Time(r.IntN(3)) * 60, DCGranularity: 4 * model.Millisecond, FWaitShare: 0.3,
		Probation: model.Time(r.IntN(3)) * 50 * model.Millisecond, NoSkip: seed%3 == 0}
	withKernel(&cfg, seed/4)
	if r.IntN(2) == 0 {
		cfg.Costs = costsOf(t, "crescendo", "")
	}
	ca, cb := cfg, cfg
	ca.Rand, cb.Rand = rand.New(rand.NewPCG(seed, 8)), rand.New(rand.NewPCG(seed, 8))
	a, b := New(ca), New(cb)
	// Jobs on a few clusters of processors spread over the machine, so
	// that jobs share processors (rows) and most processors stay idle.
	bases := []int{0, 61, 64*64 - 3, procs - 9}
	draw := func() randomJob {
		j := drawJob(r)
		base := bases[r.IntN(len(bases))]
		for i := range j.cpus {
			j.cpus[i] += base
		}
		return j
	}
	add := func(id int, j randomJob) {
		a.AddJob(id, j.cpus, &j.app, j.work, j.prio)
		b.AddJob(id, j.cpus, &j.app, j.work, j.prio)
	}
	strobe := func(on []Owner) {
		a.endSlotMachine()
		b.EndSlot()
		a.setOwnersMachine(on)
		b.SetOwners(on)
	}
	nj := 2 + r.IntN(5)
	for id := 1; id <= nj; id++ {
		add(id, draw())
	}
	ended := map[int]bool{}
	owners := func(at model.Time) []Owner {
		var on []Owner
		for id := 1; id <= nj; id++ {
			if !ended[id] && r.IntN(3) != 0 {
				on = append(on, Owner{Job: id, From: at + model.Time(r.IntN(100))})
			}
		}
		if r.IntN(4) != 0 {
			// Owners sharing no processor, as a gang scheduler's row has
			// them: keep the first of each.
			used := map[int32]bool{}
			on = slices.DeleteFunc(on, func(o Owner) bool {
				j := b.jobs[b.byID[o.Job]]
				for _, pi := range j.procs {
					if used[b.procs[pi].cpu] {
						return true
					}
				}
				for _, pi := range j.procs {
					used[b.procs[pi].cpu] = true
				}
				return false
			})
		}
		return on
	}
	for at := model.Time(0); len(ended) < nj && at < 1000*model.Second; at += model.Time(20+r.IntN(200)) * model.Millisecond {
		for {
			id, when, ok := a.Run(at)
			id2, when2, ok2 := b.Run(at)
			if ok != ok2 || id != id2 || when != when2 {
				return fmt.Errorf("%v, by %v: machine-wide strobes: job %d ends at %v (%v); strobes of the processors concerned: job %d at %v (%v)", kind, at, id, when, ok, id2, when2, ok2)
			}
			if !ok {
				break
			}
			ended[id] = true
			if r.IntN(2) == 0 {
				a.RemoveJob(id)
				b.RemoveJob(id)
			}
			if r.IntN(2) == 0 {
				nj++
				add(nj, draw())
			}
			if r.IntN(2) == 0 {
				strobe(owners(when))
			}
		}
		for id := 1; id <= nj; id++ {
			if ended[id] {
				continue
			}
			ja, jb := a.jobs[a.byID[id]], b.jobs[b.byID[id]]
			va, vb := a.state(ja, 0, nil), b.state(jb, 0, nil)
			if sa, sb := a.Stats(id), b.Stats(id); !slices.Equal(va, vb) || sa != sb {
				return fmt.Errorf("%v, at %v: job %d differs:\nstate %v\n   vs %v\nstats %+v\n   vs %+v", kind, at, id, va, vb, sa, sb)
			}
		}
		if a.ev != b.ev || a.msgs != b.msgs || a.skipped != b.skipped || a.q.seq != b.q.seq {
			return fmt.Errorf("%v, at %v: machine-wide strobes: %d events, %d messages, %d skipped, seq %d; the processors concerned: %d, %d, %d, %d",
				kind, at, a.ev, a.msgs, a.skipped, a.q.seq, b.ev, b.msgs, b.skipped, b.q.seq)
		}
		strobe(owners(at))
	}
	if len(ended) < nj {
		return fmt.Errorf("%v: %d of %d jobs ended", kind, len(ended), nj)
	}
	return nil
}
