package procsim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestSkipAcrossStrobes drives two simulators as a gang scheduler with a
// matrix of one row does (jobs on processors of their own, arriving at
// random times and waiting for free processors; a strobe every quantum
// naming every job; Steady up to the next arrival), one moving the jobs
// that run alone across the strobes and one simulating every iteration,
// and compares every completion, and every landed job's state and
// measurements at every strobe. Under GS, FCS (with thresholds that put
// jobs in every class, and near them), BCS and PBCS.
func TestSkipAcrossStrobes(t *testing.T) {
	n := uint64(80)
	if testing.Short() {
		n = 24
	}
	var crossed int64
	for seed := uint64(1); seed <= n; seed++ {
		c, err := steadyTwin(t, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		crossed += c
	}
	if crossed < 100000 {
		t.Errorf("only %d iterations skipped across strobes: the test checks too little", crossed)
	}
	t.Logf("%d iterations skipped across strobes", crossed)
}

// TestSkipAcrossStrobesCatchesSlip: a skip across strobes that lands one
// iteration off (the job's iterations moved on by one more than its time)
// is caught by steadyTwin.
func TestSkipAcrossStrobesCatchesSlip(t *testing.T) {
	defer func(f int) { crossFault = f }(crossFault)
	for _, fault := range []int{1, -1} {
		crossFault = fault
		caught := 0
		for seed := uint64(1); seed <= 8; seed++ {
			if _, err := steadyTwin(t, seed); err != nil {
				caught++
			}
		}
		if caught == 0 {
			t.Errorf("a skip across strobes %d iteration off: no seed of 8 differs", fault)
		}
	}
}

// steadyTwin runs seed's steady workload in lockstep with and without
// skips, and returns the iterations the skipping one moved over across
// strobes, or the first difference.
func steadyTwin(t *testing.T, seed uint64) (int64, error) {
	const procs = 16
	r := rand.New(rand.NewPCG(seed, 11))
	kind := []Kind{GS, FCS, BCS, PBCS}[seed%4]
	q := model.Time(2+r.IntN(30)) * model.Millisecond
	cfg := Config{Kind: kind, Machine: model.Machine{Nodes: procs / 2, PEsPerNode: 2}, LocalSwitch: model.Time(r.IntN(100)),
		Wakeup: model.Time(r.IntN(20)), Quantum: q, SpinThreshold: model.Time(r.IntN(300)),
		MicroSlice: 250, MicroOverhead: model.Time(r.IntN(3)) * 60, Sched: SchedBoost,
		DCGranularity: []model.Time{500, 2 * model.Millisecond, q / 5}[r.IntN(3)], FWaitShare: []float64{0.3, 0.05, 0.01}[r.IntN(3)],
		Probation: model.Time(r.IntN(3)) * 100 * model.Millisecond}
	if r.IntN(3) != 0 {
		cfg.Costs = costsOf(t, "crescendo", "")
	}
	every, skipping := cfg, cfg
	every.NoSkip = true
	a, b := New(every), New(skipping)

	type pending struct {
		randomJob
		at model.Time
	}
	nj := 3 + r.IntN(8)
	var jobs []pending
	at := model.Time(0)
	for range nj {
		j := drawJob(r)
		j.cpus = j.cpus[:min(len(j.cpus), 1+r.IntN(6))]
		j.app.Granularity = model.Time(1+r.IntN(8000)) * model.Microsecond
		if r.IntN(4) == 0 {
			j.app.Granularity *= 10 // coarse: DC, or iterations longer than a slot
		}
		j.work = model.Time(1+r.IntN(30000)) * model.Millisecond
		jobs = append(jobs, pending{j, at})
		at += model.Time(r.IntN(3000)) * model.Millisecond
	}
	free := make([]bool, procs)
	for i := range free {
		free[i] = true
	}
	var queue []pending
	live := map[int]model.Time{} // job id: its From
	placed := map[int][]int{}    // job id: its processors
	var order []int
	next := 0 // the next arrival
	id := 0
	owners := func() []Owner {
		var on []Owner
		for _, x := range order {
			on = append(on, Owner{Job: x, From: live[x]})
		}
		return on
	}
	// start places the queued jobs that fit, first come first served, on
	// free processors drawn at random, and strobes them in.
	start := func(now model.Time) {
		started := false
		for len(queue) > 0 {
			j := queue[0]
			var cpus []int
			for _, c := range r.Perm(procs) {
				if free[c] && len(cpus) < len(j.cpus) {
					cpus = append(cpus, c)
				}
			}
			if len(cpus) < len(j.cpus) {
				break
			}
			queue = queue[1:]
			for _, c := range cpus {
				free[c] = false
			}
			id++
			placed[id] = cpus
			a.AddJob(id, cpus, &j.app, j.work, j.prio)
			b.AddJob(id, cpus, &j.app, j.work, j.prio)
			live[id] = now + model.Time(r.IntN(2))*model.Time(r.IntN(200))
			order = append(order, id)
			started = true
		}
		if started {
			on := owners()
			a.SetOwners(on)
			b.SetOwners(on)
		}
	}
	compare := func(now model.Time) error {
		for _, x := range order {
			ja, jb := a.jobs[a.byID[x]], b.jobs[b.byID[x]]
			if jb.landAt > now {
				continue // ahead: compared once it lands
			}
			va, vb := a.twinState(ja), b.twinState(jb)
			sa, sb := a.Stats(x), b.Stats(x)
			sa.Events, sb.Events = 0, 0
			if !slices.Equal(va, vb) || sa != sb {
				return fmt.Errorf("%v, at %v: job %d (%d iterations skipped, landed at %v) differs:\nstate %v\n   vs %v\nstats %+v\n   vs %+v",
					kind, now, x, jb.skipped, jb.landAt, va, vb, sa, sb)
			}
		}
		return nil
	}
	slot := model.Time(0) // the current slot's start
	now := model.Time(0)
	for next < len(jobs) || len(live) > 0 || len(queue) > 0 {
		for next < len(jobs) && jobs[next].at <= now {
			queue = append(queue, jobs[next])
			next++
		}
		start(now)
		event := model.Never // the engine's next event: an arrival
		if next < len(jobs) {
			event = jobs[next].at
		}
		if event == model.Never && len(live) == 0 {
			return 0, fmt.Errorf("%v: %d jobs queued that never fit", kind, len(queue))
		}
		// Slots up to the next event, or the first completion.
		for {
			strobe := slot + q
			stop := min(strobe, event)
			if strobe < event {
				b.Steady(event, strobe, q)
			}
			id1, when1, ok1 := a.Run(stop)
			id2, when2, ok2 := b.Run(stop)
			if ok1 != ok2 || id1 != id2 || when1 != when2 {
				return 0, fmt.Errorf("%v, by %v: every iteration: job %d ends at %v (%v); skipping: job %d at %v (%v)", kind, stop, id1, when1, ok1, id2, when2, ok2)
			}
			if ok1 {
				now = when1
				a.RemoveJob(id1)
				b.RemoveJob(id1)
				for _, c := range placed[id1] {
					free[c] = true
				}
				delete(live, id1)
				order = slices.DeleteFunc(order, func(x int) bool { return x == id1 })
				on := owners()
				a.SetOwners(on)
				b.SetOwners(on)
				break // the engine's event: the scheduler acts
			}
			now = stop
			if strobe > event {
				break
			}
			if err := compare(now); err != nil {
				return 0, err
			}
			slot = strobe
			for x := range live {
				live[x] = max(live[x], slot) // a job going on in the next slot: from its start
			}
			on := owners()
			a.EndSlot()
			b.EndSlot()
			a.SetOwners(on)
			b.SetOwners(on)
			if strobe == event {
				break
			}
		}
		if now > 10000*model.Second {
			return 0, fmt.Errorf("%v: not done by %v", kind, now)
		}
	}
	return b.crossed, nil
}

// twinState is job j's state as steadyTwin compares it: state's, but what
// is left to compute of a process not computing. That is read only while
// computing; afterwards it holds the length of the computation's last
// stretch on the processor, which the strobes a skip moved the job across
// cut short in the simulator that runs them (an FCS classification, which
// accounts the running process) and not in the other. Snapshots keep it:
// it tells apart periods that a process sharing the processor cut short
// (TestSkipBesideResidents).
func (s *Sim) twinState(j *job) []int64 {
	vec := s.state(j, 0, nil)
	at := 0
	if s.buffered() {
		at = 1
	}
	for _, pi := range j.procs {
		p := &s.procs[pi]
		if p.phase != phCompute {
			vec[at+4] = 0 // after the iteration, flags, round and need
		}
		at += 14 + 2*len(p.rs)
	}
	return vec
}
