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
	for _, j := range s.jobs {
		if j == nil {
			continue
		}
		senders := s.senders(j)
		for _, pi := range j.procs {
			p := &s.procs[pi]
			if p.job != j {
				return fmt.Errorf("process %d of job %d points to job %d", pi, j.id, p.job.id)
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
			// No process passes a communication step before its peers
			// have sent it: per receive slot (a round's message from one
			// partner), the steps its position in its program says it has
			// passed, the messages it has received, and those its partner's
			// position says it has sent.
			if fo := j.fo; fo != nil {
				if err := s.checkFanout(j, p); err != nil {
					return err
				}
			}
			for sl := range p.rs {
				s.collect(&p.rs[sl]) // the messages that have arrived by now
				q := senders[pi][sl]
				sent := s.sent(&s.procs[q], sl/max(p.job.prog.fan, 1))
				if passed := s.passed(p, sl); passed > p.rs[sl].recv || p.rs[sl].recv > sent {
					return fmt.Errorf("job %d: process %d (iteration %d, round %d, phase %d, tail %v) passed %d steps of receive slot %d, received %d messages, was sent %d by process %d",
						j.id, p.idx, p.iter, p.round, p.phase, p.inTail, passed, sl, p.rs[sl].recv, sent, s.procs[q].idx)
				}
			}
		}
	}
	for ci, n := range running {
		if n > 1 {
			return fmt.Errorf("processor %d runs %d processes at once", ci, n)
		}
		if c := &s.cpus[ci]; c.cur >= 0 && int(s.procs[c.cur].cpu) != ci {
			return fmt.Errorf("processor %d holds process %d, which is on processor %d", ci, c.cur, s.procs[c.cur].cpu)
		}
		if s.cpus[ci].busy > max(s.now, s.cpus[ci].skipEnd) {
			return fmt.Errorf("processor %d busy %v of %v", ci, s.cpus[ci].busy, s.now)
		}
	}
	return nil
}

// checkFanout checks process p of all-to-all job j as check does a
// receive slot's process, sender by sender, and that the message p's wait
// ends with is the latest of the record-by-record scan.
func (s *Sim) checkFanout(j *job, p *proc) error {
	fo, y := j.fo, int(p.idx)
	for x := range fo.n {
		if x == y && !fo.bcs {
			continue
		}
		q := &s.procs[j.procs[x]]
		recv, sent := fo.received(x, y, s.arrived), s.sent(q, 0)
		if passed := s.passed(p, fo.slot(x, y)); passed > recv || recv > sent || fo.sent[x] != sent {
			return fmt.Errorf("job %d: process %d (iteration %d, phase %d, tail %v) passed %d steps of process %d's messages, received %d, was sent %d (%d posted)",
				j.id, p.idx, p.iter, p.phase, p.inTail, passed, x, recv, sent, fo.sent[x])
		}
	}
	if p.idx == 0 && !j.frozen {
		// The earliest arrival still to come, receiver by receiver.
		want := model.Never
		for x := range fo.n {
			for g := fo.lo; g < fo.sent[x]; g++ {
				for y := range fo.n {
					if k := fo.key(&fo.gens[g-fo.lo].rec[x], x, y); (x != y || fo.bcs) && !s.arrived(k) {
						want = min(want, k.at)
					}
				}
			}
		}
		if got := s.fanNext(fo); got != want {
			return fmt.Errorf("job %d: its next arrival is %v, receiver by receiver %v", j.id, got, want)
		}
	}
	if g := p.need - 1; p.phase == phWait && g >= fo.lo && fo.posted(g) {
		if w, want := fo.wait(y, g), fo.scan(y, g); w != want {
			return fmt.Errorf("job %d: process %d waits for call %d until %+v, the scan says %+v", j.id, p.idx, g, w, want)
		}
	}
	return nil
}

// passed is the number of steps of receive slot sl that p's position in
// its program says it has passed: the messages of that slot it has waited
// for (blocking: those of its iterations before the current one, and of
// the current one's rounds before the one it waits in; non-blocking: those
// of the calls before the previous one, the previous one's too once its
// wait is over).
func (s *Sim) passed(p *proc, sl int) int {
	pr := p.job.prog
	switch {
	case p.phase == phDone || p.inTail:
		return pr.iters
	case !pr.blocking && p.phase == phWait && p.iter >= pr.iters:
		return pr.iters - 1 // the final wait
	case !pr.blocking:
		return max(p.iter-1, 0)
	case s.buffered() || p.phase == phCompute:
		return p.iter
	case sl/pr.fan < p.round:
		return p.iter + 1
	}
	return p.iter
}

// senders maps each receive slot of job j's processes to the process that
// sends into it: by process (index in Sim.procs), by slot. A buffered
// call's own completion, the last slot, is its process's own.
func (s *Sim) senders(j *job) map[int32][]int32 {
	out := map[int32][]int32{}
	for _, pi := range j.procs {
		out[pi] = make([]int32, len(s.procs[pi].rs))
		for sl := range out[pi] {
			out[pi][sl] = pi // the completion slot; the others are set below
		}
	}
	fan := j.prog.fan
	for i, qi := range j.procs {
		if j.fo != nil {
			break // checked by checkFanout
		}
		for r := range j.prog.rounds {
			for k, d := range j.sendTo(i, r) {
				out[d][r*fan+k] = qi
			}
		}
	}
	return out
}

// sent is the number of round r messages q's position in its program says
// it has posted to each partner (cumulative): one per iteration whose call
// it has made that far.
func (s *Sim) sent(q *proc, r int) int {
	pr := q.job.prog
	switch {
	case q.phase == phDone || q.inTail:
		return pr.iters
	case q.phase != phWait:
		return q.iter
	case !pr.blocking && q.iter >= pr.iters:
		return pr.iters // the final wait posts nothing
	case !pr.blocking || s.buffered() || q.round >= r:
		return q.iter + 1 // the call posted whole, or up to round r
	}
	return q.iter
}

// cpuTimes is the time processor ci has run processes (computing or
// spinning) and switched, up to now.
func (s *Sim) cpuTimes(ci int) (busy, switching model.Time) {
	c := &s.cpus[ci]
	busy, switching = c.busy, c.switching
	if c.cur >= 0 && s.procs[c.cur].running {
		busy += s.now - s.procs[c.cur].since
	}
	if c.switchEnd > 0 {
		switching += s.now - c.switchAt
	}
	return busy, switching
}

// ledger integrates, processor by processor, what each does from one
// change to the next, by looking at it after every event and every
// external action: computing, spinning, switching or idle.
type ledger struct {
	s     *Sim
	last  model.Time
	state []uint8
	t     [][4]model.Time // per processor: computing, spinning, switching, idle
}

const (
	cpuComputing = iota
	cpuSpinning
	cpuSwitching
	cpuIdle
)

func newLedger(s *Sim) *ledger {
	l := &ledger{s: s, state: make([]uint8, len(s.cpus)), t: make([][4]model.Time, len(s.cpus))}
	for i := range l.state {
		l.state[i] = cpuIdle
	}
	return l
}

// tick books the time since the last look to the states seen then, and
// looks again.
func (l *ledger) tick() error {
	s := l.s
	for ci, st := range l.state {
		l.t[ci][st] += s.now - l.last
	}
	l.last = s.now
	for ci := range s.cpus {
		c := &s.cpus[ci]
		switch {
		case c.switchEnd > 0:
			if c.cur < 0 || s.procs[c.cur].running {
				return fmt.Errorf("processor %d switches to %d, which runs", ci, c.cur)
			}
			l.state[ci] = cpuSwitching
		case c.cur >= 0:
			p := &s.procs[c.cur]
			if !p.running {
				return fmt.Errorf("processor %d holds process %d, which does not run, and does not switch", ci, c.cur)
			}
			l.state[ci] = cpuComputing
			if p.phase == phWait {
				l.state[ci] = cpuSpinning
			}
		default:
			l.state[ci] = cpuIdle
		}
	}
	return nil
}

// balance compares the ledger with the simulator's own accounting: per
// processor, computing and spinning make its busy time, switching its
// switching time, and busy + switching + idle the time elapsed; over the
// machine, computing and spinning are what the jobs were charged.
func (l *ledger) balance(jobs []int) error {
	s := l.s
	var compute, spin model.Time
	for ci := range s.cpus {
		t := l.t[ci]
		busy, switching := s.cpuTimes(ci)
		idle := s.now - busy - switching
		if t[cpuComputing]+t[cpuSpinning] != busy || t[cpuSwitching] != switching || t[cpuIdle] != idle || idle < 0 {
			return fmt.Errorf("processor %d at %v: seen computing %v, spinning %v, switching %v, idle %v; accounted busy %v, switching %v, so idle %v",
				ci, s.now, t[cpuComputing], t[cpuSpinning], t[cpuSwitching], t[cpuIdle], busy, switching, idle)
		}
		compute += t[cpuComputing]
		spin += t[cpuSpinning]
	}
	var cpu, spun model.Time
	for _, id := range jobs {
		st := s.Stats(id)
		cpu += st.CPU
		spun += st.Spin
	}
	if cpu != compute || spun != spin {
		return fmt.Errorf("at %v: jobs charged %v computing and %v spinning, processors spent %v and %v", s.now, cpu, spun, compute, spin)
	}
	return nil
}

// TestInvariants runs random jobs under every discipline, with random
// strobes, and checks after every event that a processor runs one process
// at a time, a running process holds its processor, no process passes a
// step of its calls (blocking or not) before its peers have sent it, and
// processor time is conserved: on the seeds that simulate every
// iteration, each processor's computing, spinning, switching and idle
// time, seen from change to change, are its accounted busy and switching
// time and the rest of the time elapsed, exactly, and what the jobs were
// charged is what the processors spent; on the seeds that skip periods,
// what the jobs were charged is what the processors spent, never more than
// the time elapsed.
func TestInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 80; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		kind := Kind(r.IntN(6))
		m := model.Machine{Nodes: 4, PEsPerNode: 2}
		cfg := Config{Kind: kind, Machine: m, LocalSwitch: model.Time(r.IntN(100)), Wakeup: model.Time(r.IntN(20)),
			Quantum: model.Time(1+r.IntN(20)) * model.Millisecond, SpinThreshold: model.Time(r.IntN(300)),
			MicroSlice: 250, MicroOverhead: model.Time(r.IntN(3)) * 60, DCGranularity: 4 * model.Millisecond, FWaitShare: 0.3,
			Rand: rand.New(rand.NewPCG(seed, 4)), NoSkip: seed%2 == 0}
		withKernel(&cfg, seed)
		if r.IntN(2) == 0 {
			cfg.Costs = costsOf(t, "crescendo", "")
		}
		s := New(cfg)
		var bad error
		l := newLedger(s)
		s.afterEvent = func() {
			if bad == nil {
				bad = s.check()
			}
			if bad == nil && cfg.NoSkip {
				bad = l.tick()
			}
		}
		nj := 2 + r.IntN(5)
		// Half the seeds add their jobs after the first two while the
		// others run (a launch under STORM), each at its own time.
		late := rand.New(rand.NewPCG(seed, 5))
		arrive := make([]model.Time, nj+1)
		added := 0
		type pending struct {
			cpus []int
			app  model.App
			work model.Time
			prio bool
		}
		jobs := make([]pending, nj+1)
		for id := 1; id <= nj; id++ {
			procs := 1 + r.IntN(8)
			cpus := r.Perm(8)[:procs]
			app := model.App{Granularity: model.Time(1+r.IntN(6000)) * model.Microsecond, Imbalance: float64(r.IntN(3)),
				Pattern: []model.Pattern{model.PatternNone, model.PatternRing, model.PatternAllToAll, model.PatternBarrier}[r.IntN(4)],
				Comm:    []model.Comm{model.CommBlocking, model.CommNonBlocking}[r.IntN(2)], MessageBytes: int64(r.IntN(4096))}
			jobs[id] = pending{cpus, app, model.Time(1+r.IntN(3000)) * model.Millisecond, r.IntN(4) == 0}
			if id > 2 && seed%4 >= 2 {
				arrive[id] = model.Time(late.IntN(400)) * model.Millisecond
			}
		}
		addDue := func(now model.Time) {
			for added < nj && arrive[added+1] <= now {
				added++
				j := &jobs[added]
				s.AddJob(added, j.cpus, &j.app, j.work, j.prio)
				if bad == nil {
					bad = s.check()
				}
			}
		}
		addDue(0)
		if err := l.tick(); err != nil {
			t.Fatal(err)
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
			addDue(at)
			var on []Owner
			for id := 1; id <= added; id++ {
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
			if bad == nil && cfg.NoSkip {
				bad = l.tick()
			}
			if bad == nil && cfg.NoSkip {
				var ids []int
				for id := 1; id <= added; id++ {
					ids = append(ids, id)
				}
				bad = l.balance(ids)
			}
			if bad != nil {
				t.Fatalf("seed %d (%v): t=%v: %v", seed, kind, s.now, bad)
			}
		}
		if bad != nil {
			t.Fatalf("seed %d (%v): %v", seed, kind, bad)
		}
		var charged, spent model.Time
		for id := 1; id <= added; id++ {
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

// withKernel gives a random configuration its local scheduler by its seed
// (the draws of the rest unchanged): Linux as on ia64 or on i386, or, one
// seed in three, the boost.
func withKernel(cfg *Config, seed uint64) {
	switch seed % 3 {
	case 0:
		cfg.Sched = SchedBoost
	case 1:
		cfg.HZ, cfg.SliceTicks, cfg.ProcChangePenalty = 1024, 41, 20
	default:
		cfg.HZ, cfg.SliceTicks, cfg.ProcChangePenalty = 100, 6, 15
	}
}

// randomSetup draws seed's random configuration (its Rand left to the
// caller) and jobs, and returns the stream that goes on to draw the
// strobes.
func randomSetup(t *testing.T, seed uint64) (Config, []randomJob, *rand.Rand) {
	r := rand.New(rand.NewPCG(seed, 3))
	cfg := Config{Kind: Kind(r.IntN(6)), Machine: model.Machine{Nodes: 4, PEsPerNode: 2}, LocalSwitch: model.Time(r.IntN(100)), Wakeup: 5,
		Quantum: model.Time(1+r.IntN(20)) * model.Millisecond, SpinThreshold: model.Time(r.IntN(300)),
		MicroSlice: 250, DCGranularity: 4 * model.Millisecond, FWaitShare: 0.3}
	withKernel(&cfg, seed)
	if r.IntN(2) == 0 {
		cfg.Costs = costsOf(t, "crescendo", "")
	}
	jobs := make([]randomJob, 1+r.IntN(4))
	for i := range jobs {
		jobs[i] = drawJob(r)
	}
	return cfg, jobs, r
}

// drawJob draws a random job for the 8 processors of randomSetup's machine.
func drawJob(r *rand.Rand) randomJob {
	var j randomJob
	procs := 1 + r.IntN(8)
	j.cpus = r.Perm(8)[:procs]
	j.app = model.App{Granularity: model.Time(1+r.IntN(3000)) * model.Microsecond, Imbalance: float64(r.IntN(3)),
		Pattern: []model.Pattern{model.PatternNone, model.PatternRing, model.PatternAllToAll, model.PatternBarrier}[r.IntN(4)],
		Comm:    []model.Comm{model.CommBlocking, model.CommNonBlocking}[r.IntN(2)], MessageBytes: int64(r.IntN(4096))}
	j.work, j.prio = model.Time(1+r.IntN(20000))*model.Millisecond, r.IntN(4) == 0
	return j
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
			nj = actAtCompletion(r, when, nj, func(j randomJob) { s.AddJob(nj+1, j.cpus, &j.app, j.work, j.prio) },
				func(on []Owner) { s.EndSlot(); s.SetOwners(on) }, s, func(id int) bool { _, done := ends[id]; return done })
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
			nj = actAtCompletion(r, when, nj, func(j randomJob) {
				a.AddJob(nj+1, j.cpus, &j.app, j.work, j.prio)
				b.AddJob(nj+1, j.cpus, &j.app, j.work, j.prio)
			}, func(on []Owner) {
				a.EndSlot()
				b.EndSlot()
				a.SetOwners(on)
				b.SetOwners(on)
			}, b, func(id int) bool { return ended[id] })
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

// actAtCompletion acts at a job's completion, at when, before the Run's
// bound, as a gang scheduler does when a job leaves: with probability 1/2
// it adds a new job (add, numbered n+1) and with probability 1/2 it
// strobes (owners drawn among jobs 1 to n, from s); it returns the number
// of jobs. A job a skip moved ahead past when would have run on where it
// no longer may.
func actAtCompletion(r *rand.Rand, when model.Time, n int, add func(randomJob), strobe func([]Owner), s *Sim, done func(int) bool) int {
	if r.IntN(2) == 0 {
		add(drawJob(r))
		n++
	}
	if r.IntN(2) == 0 {
		strobe(randomOwners(r, s, when, n, done))
	}
	return n
}

// TestSkipWithoutCommunication: a job that never communicates (no pattern,
// or a ring of one process) and runs undisturbed is found periodic and
// skipped like any other, and still ends at its dedicated runtime. Its
// processes never wait, so what they would wait for must not count in its
// state: it once did, and such a job never repeated a state. Under SB the
// nodes have one processor each, as the node-wide run queue of SB under
// Linux moves only processes alone on their nodes (nodeAlone).
func TestSkipWithoutCommunication(t *testing.T) {
	for _, c := range []struct {
		name  string
		app   model.App
		procs int
	}{
		{"none-4", model.App{Granularity: 3 * model.Millisecond, Pattern: model.PatternNone}, 4},
		{"ring-1", model.App{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking}, 1},
	} {
		for _, kind := range []Kind{GS, SB} {
			m := model.Machine{Nodes: 2, PEsPerNode: 2}
			if kind == SB {
				m = model.Machine{Nodes: 4, PEsPerNode: 1}
			}
			cfg := Config{Kind: kind, Machine: m, LocalSwitch: 50, Wakeup: 5,
				Quantum: 25 * model.Millisecond, SpinThreshold: 100, Rand: rand.New(rand.NewPCG(1, 2)), HZ: 1024, SliceTicks: 41, ProcChangePenalty: 20}
			s := New(cfg)
			work := 60 * model.Second
			s.AddJob(1, cpusFrom(0, c.procs), &c.app, work, false)
			s.SetOwners([]Owner{{Job: 1, From: 0}})
			id, at, done := s.Run(model.Never)
			if !done || id != 1 || at != work {
				t.Fatalf("%s/%v: job %d done %v at %v, want job 1 at %v", c.name, kind, id, done, at, work)
			}
			iters := int64(work / c.app.Granularity)
			if s.Skipped() < iters*9/10 {
				t.Errorf("%s/%v: %d of its %d iterations skipped, want nearly all", c.name, kind, s.Skipped(), iters)
			}
		}
	}
}
