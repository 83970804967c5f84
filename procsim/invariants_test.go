package procsim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// check verifies the simulator's invariants at the current instant.
func (s *Sim) check() error {
	running := make([]int, len(s.cpus))
	for ji, j := range s.jobs {
		if j == nil {
			continue
		}
		for _, pi := range j.procs {
			p := &s.procs[pi]
			if p.job != int32(ji) {
				return fmt.Errorf("process %d of job %d points to job %d", pi, j.id, p.job)
			}
			if p.running {
				running[p.cpu]++
				c := &s.cpus[p.cpu]
				if c.cur != pi || c.switchEnd > s.now {
					return fmt.Errorf("process %d runs on processor %d, which runs %d (switching until %v)", pi, p.cpu, c.cur, c.switchEnd)
				}
			}
			if p.running && p.blocked {
				return fmt.Errorf("process %d both runs and is blocked", pi)
			}
			// No process passes a call before its peers have made it: in
			// blocking programs it is at most one iteration ahead of any
			// process it receives from.
			if j.prog.blocking && !p.inTail && p.phase != phDone {
				for r := range j.prog.rounds {
					for _, f := range j.prog.receives(int(p.idx), r, nil) {
						q := &s.procs[j.procs[f]]
						if !q.inTail && q.phase != phDone && p.iter > q.iter+1 {
							return fmt.Errorf("job %d: process %d in iteration %d, ahead of process %d in %d", j.id, p.idx, p.iter, f, q.iter)
						}
					}
				}
			}
		}
	}
	for ci, n := range running {
		if n > 1 {
			return fmt.Errorf("processor %d runs %d processes at once", ci, n)
		}
		if s.cpus[ci].busy > max(s.now, s.cpus[ci].skipEnd) {
			return fmt.Errorf("processor %d busy %v of %v", ci, s.cpus[ci].busy, s.now)
		}
	}
	return nil
}

// TestInvariants runs random jobs under every discipline, with random
// strobes, and checks after every event that a processor runs one process
// at a time, a running process holds its processor, no process runs ahead
// of its peers' calls, and processor time is conserved: what the jobs were
// charged (CPU and spin) is what the processors spent running them, never
// more than the time elapsed.
func TestInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		kind := Kind(r.IntN(6))
		m := model.Machine{Nodes: 4, PEsPerNode: 2}
		cfg := Config{Kind: kind, Machine: m, LocalSwitch: model.Time(r.IntN(100)), Wakeup: 5,
			Quantum: model.Time(1+r.IntN(20)) * model.Millisecond, SpinThreshold: model.Time(r.IntN(300)),
			MicroSlice: 250, DCGranularity: 4 * model.Millisecond, FWaitShare: 0.3, Rand: rand.New(rand.NewPCG(seed, 4))}
		if r.IntN(2) == 0 {
			cfg.Costs = costsOf(t, "crescendo", "")
		}
		s := New(cfg)
		var bad error
		s.afterEvent = func() {
			if bad == nil {
				bad = s.check()
			}
		}
		nj := 2 + r.IntN(5)
		for id := 1; id <= nj; id++ {
			procs := 1 + r.IntN(8)
			cpus := r.Perm(8)[:procs]
			app := model.App{Granularity: model.Time(1+r.IntN(6000)) * model.Microsecond, Imbalance: float64(r.IntN(3)),
				Pattern: []model.Pattern{model.PatternNone, model.PatternRing, model.PatternAllToAll, model.PatternBarrier}[r.IntN(4)],
				Comm:    []model.Comm{model.CommBlocking, model.CommNonBlocking}[r.IntN(2)], MessageBytes: int64(r.IntN(4096))}
			s.AddJob(id, cpus, &app, model.Time(1+r.IntN(3000))*model.Millisecond, r.IntN(4) == 0)
		}
		done := map[int]bool{}
		for at := model.Time(0); len(done) < nj && at < 100*model.Second; at += model.Time(5+r.IntN(40)) * model.Millisecond {
			for {
				id, _, ok := s.Run(at)
				if !ok {
					break
				}
				done[id] = true
			}
			var on []Owner
			for id := 1; id <= nj; id++ {
				if !done[id] && r.IntN(2) == 0 {
					on = append(on, Owner{Job: id, From: at + model.Time(r.IntN(200))})
				}
			}
			// Owners must not share a processor: keep the first of each.
			used := map[int]bool{}
			on = slices.DeleteFunc(on, func(o Owner) bool {
				for _, pi := range s.jobs[s.byID[o.Job]].procs {
					if used[int(s.procs[pi].cpu)] {
						return true
					}
				}
				for _, pi := range s.jobs[s.byID[o.Job]].procs {
					used[int(s.procs[pi].cpu)] = true
				}
				return false
			})
			s.EndSlot()
			s.SetOwners(on)
			if bad != nil {
				t.Fatalf("seed %d (%v): t=%v: %v", seed, kind, s.now, bad)
			}
		}
		if bad != nil {
			t.Fatalf("seed %d (%v): %v", seed, kind, bad)
		}
		var charged, spent model.Time
		for id := 1; id <= nj; id++ {
			st := s.Stats(id)
			charged += st.CPU + st.Spin
		}
		for _, c := range s.cpus {
			spent += c.busy
		}
		if charged != spent {
			t.Fatalf("seed %d (%v): jobs charged %v of processor time, processors spent %v", seed, kind, charged, spent)
		}
	}
}

// randomJob is a job of a random workload.
type randomJob struct {
	cpus []int
	app  model.App
	work model.Time
	prio bool
}

// randomSetup draws seed's random configuration (its Rand left to the
// caller) and jobs, and returns the stream that goes on to draw the
// strobes.
func randomSetup(t *testing.T, seed uint64) (Config, []randomJob, *rand.Rand) {
	r := rand.New(rand.NewPCG(seed, 3))
	cfg := Config{Kind: Kind(r.IntN(6)), Machine: model.Machine{Nodes: 4, PEsPerNode: 2}, LocalSwitch: model.Time(r.IntN(100)), Wakeup: 5,
		Quantum: model.Time(1+r.IntN(20)) * model.Millisecond, SpinThreshold: model.Time(r.IntN(300)),
		MicroSlice: 250, DCGranularity: 4 * model.Millisecond, FWaitShare: 0.3}
	if r.IntN(2) == 0 {
		cfg.Costs = costsOf(t, "crescendo", "")
	}
	jobs := make([]randomJob, 1+r.IntN(4))
	for i := range jobs {
		procs := 1 + r.IntN(8)
		jobs[i].cpus = r.Perm(8)[:procs]
		jobs[i].app = model.App{Granularity: model.Time(1+r.IntN(3000)) * model.Microsecond, Imbalance: float64(r.IntN(3)),
			Pattern: []model.Pattern{model.PatternNone, model.PatternRing, model.PatternAllToAll, model.PatternBarrier}[r.IntN(4)],
			Comm:    []model.Comm{model.CommBlocking, model.CommNonBlocking}[r.IntN(2)], MessageBytes: int64(r.IntN(4096))}
		jobs[i].work, jobs[i].prio = model.Time(1+r.IntN(20000))*model.Millisecond, r.IntN(4) == 0
	}
	return cfg, jobs, r
}

// addRandom adds the jobs to s, numbered from 1.
func addRandom(s *Sim, jobs []randomJob) {
	for i := range jobs {
		s.AddJob(i+1, jobs[i].cpus, &jobs[i].app, jobs[i].work, jobs[i].prio)
	}
}

// randomOwners draws the next strobe's slot owners among jobs 1 to n not
// done: each with probability 2/3, unless it shares a processor with one
// drawn before.
func randomOwners(r *rand.Rand, s *Sim, at model.Time, n int, done func(int) bool) []Owner {
	var on []Owner
	used := map[int]bool{}
	for id := 1; id <= n; id++ {
		if done(id) || r.IntN(3) == 0 {
			continue
		}
		clash := false
		for _, pi := range s.jobs[s.byID[id]].procs {
			clash = clash || used[int(s.procs[pi].cpu)]
		}
		if clash {
			continue
		}
		for _, pi := range s.jobs[s.byID[id]].procs {
			used[int(s.procs[pi].cpu)] = true
		}
		on = append(on, Owner{Job: id, From: at + model.Time(r.IntN(100))})
	}
	return on
}

// randomRun drives a simulator with random jobs and random strobes, as
// TestInvariants does, and returns every job's completion time and
// measurements, and the iterations it skipped.
func randomRun(t *testing.T, seed uint64, noSkip bool) (map[int]model.Time, map[int]Stats, int64) {
	cfg, jobs, r := randomSetup(t, seed)
	cfg.NoSkip, cfg.Rand = noSkip, rand.New(rand.NewPCG(seed, 4))
	s := New(cfg)
	addRandom(s, jobs)
	nj := len(jobs)
	ends, stats := map[int]model.Time{}, map[int]Stats{}
	for at := model.Time(0); len(ends) < nj && at < 1000*model.Second; at += model.Time(50+r.IntN(400)) * model.Millisecond {
		for {
			id, when, ok := s.Run(at)
			if !ok {
				break
			}
			ends[id], stats[id] = when, s.Stats(id)
			stats[id] = Stats{CPU: stats[id].CPU, Spin: stats[id].Spin, Blocked: stats[id].Blocked, Class: stats[id].Class}
		}
		s.EndSlot()
		s.SetOwners(randomOwners(r, s, at, nj, func(id int) bool { _, done := ends[id]; return done }))
	}
	var skipped int64
	for _, j := range s.jobs {
		if j != nil {
			skipped += j.skipped
		}
	}
	return ends, stats, skipped
}

// TestSkipEqualsIterations: moving undisturbed jobs forward by whole
// periods gives every job the same end and the same measurements as
// simulating every iteration, on random workloads under every discipline.
func TestSkipEqualsIterations(t *testing.T) {
	var skipped int64
	for seed := uint64(1); seed <= 80; seed++ {
		e1, s1, _ := randomRun(t, seed, true)
		e2, s2, n := randomRun(t, seed, false)
		skipped += n
		for id, want := range e1 {
			if e2[id] != want {
				t.Fatalf("seed %d: job %d ends at %v with skips, %v without", seed, id, e2[id], want)
			}
			if s2[id] != s1[id] {
				t.Fatalf("seed %d: job %d measured %+v with skips, %+v without", seed, id, s2[id], s1[id])
			}
		}
		if len(e1) != len(e2) {
			t.Fatalf("seed %d: %d jobs ended with skips, %d without", seed, len(e2), len(e1))
		}
	}
	if skipped < 10000 {
		t.Errorf("only %d iterations skipped: the test checks too little", skipped)
	}
	t.Logf("%d iterations skipped", skipped)
}

// TestSkipLockstep drives two simulators of the same random workload and
// strobes, one skipping undisturbed periods and one simulating every
// iteration, and compares every live job's whole state and measurements
// at every strobe, not only at the end. Seeds 664 and 1455 are the ones
// that found a stale spin timer: a spin whose wait ended by a message kept
// its give-up event, which then cut a later wait of the same process short
// (a block and a wake-up the skipping simulator, which re-times the
// pending events, did not have).
func TestSkipLockstep(t *testing.T) {
	seeds := []uint64{664, 1455}
	n := uint64(150)
	if testing.Short() {
		n = 30
	}
	for s := uint64(1); s <= n; s++ {
		seeds = append(seeds, s)
	}
	for _, seed := range seeds {
		if err := skipLockstep(t, seed); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func skipLockstep(t *testing.T, seed uint64) error {
	cfg, jobs, r := randomSetup(t, seed)
	every, skipping := cfg, cfg
	every.NoSkip = true
	every.Rand, skipping.Rand = rand.New(rand.NewPCG(seed, 4)), rand.New(rand.NewPCG(seed, 4))
	a, b := New(every), New(skipping)
	addRandom(a, jobs)
	addRandom(b, jobs)
	nj := len(jobs)
	ended := map[int]bool{}
	for at := model.Time(0); len(ended) < nj && at < 1000*model.Second; at += model.Time(50+r.IntN(400)) * model.Millisecond {
		for {
			id, when, ok := a.Run(at)
			id2, when2, ok2 := b.Run(at)
			if ok != ok2 || id != id2 || when != when2 {
				return fmt.Errorf("%v, by %v: every iteration: job %d ends at %v (%v); skipping: job %d at %v (%v)", cfg.Kind, at, id, when, ok, id2, when2, ok2)
			}
			if !ok {
				break
			}
			ended[id] = true
		}
		for id := 1; id <= nj; id++ {
			if ended[id] {
				continue
			}
			ja, jb := a.jobs[a.byID[id]], b.jobs[b.byID[id]]
			va, vb := a.state(ja, 0, nil), b.state(jb, 0, nil)
			sa, sb := a.Stats(id), b.Stats(id)
			sa.Events, sb.Events = 0, 0
			if !slices.Equal(va, vb) || sa != sb {
				return fmt.Errorf("%v, at %v: job %d (%d iterations skipped) differs:\nstate %v\n   vs %v\nstats %+v\n   vs %+v", cfg.Kind, at, id, jb.skipped, va, vb, sa, sb)
			}
		}
		on := randomOwners(r, b, at, nj, func(id int) bool { return ended[id] })
		a.EndSlot()
		b.EndSlot()
		a.SetOwners(on)
		b.SetOwners(on)
	}
	return nil
}
