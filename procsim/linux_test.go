package procsim

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// linuxConfig is an SB configuration under sched on machine m, with no
// switch or wake-up costs and no spin (a waiting process blocks at once).
func linuxConfig(sched Sched, m model.Machine, hz, ticks int) Config {
	return Config{Kind: SB, Sched: sched, Machine: m, Quantum: 25 * model.Millisecond,
		HZ: hz, SliceTicks: ticks, ProcChangePenalty: 20, Rand: rand.New(rand.NewPCG(1, 2))}
}

// procOf is process i of job id.
func (s *Sim) procOf(id, i int) *proc { return &s.procs[s.jobs[s.byID[id]].procs[i]] }

// TestLinuxWokenWaits: under Linux a woken (or new) process does not get a
// fresh slice and does not take the processor from a process with as much
// of its slice left: it preempts only if its counter exceeds the running
// one's by more than 1 (reschedule_idle's preemption_goodness > 0, the
// running process's own memory map counting 1), and otherwise waits for
// that one's slice to end. A hog runs with a counter of 40 or 39 ticks
// (1 s each: nothing is charged to speak of in the 2 s observed); a
// 2-process ring job's process joins its processor with 41. At 40 it waits
// the hog's whole slice, its partner blocked waiting for it, and the ring
// computes only its partner's first millisecond; at 39 it preempts, and
// every time it is woken again, and the ring runs (1.5 s of the 4 s its
// processes could compute). The boost preempts either way, a whole quantum
// given back to the woken process (0.3 s).
func TestLinuxWokenWaits(t *testing.T) {
	m := model.Machine{Nodes: 2, PEsPerNode: 1}
	hog := model.App{}
	ring := model.App{Granularity: model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking}
	for _, c := range []struct {
		sched   Sched
		hogLeft int32
		runs    bool
	}{
		{SchedLinux, 40, false},
		{SchedLinux, 39, true},
		{SchedBoost, 40, true},
		{SchedBoost, 39, true},
	} {
		s := New(linuxConfig(c.sched, m, 1, 41))
		s.AddJob(1, []int{0}, &hog, 100*model.Second, false)
		s.procOf(1, 0).ctr = c.hogLeft
		s.AddJob(2, []int{0, 1}, &ring, 10*model.Second, false)
		s.Run(2 * model.Second)
		cpu := s.Stats(2).CPU
		if runs := cpu > 100*model.Millisecond; runs != c.runs || !c.runs && cpu > 2*model.Millisecond {
			t.Errorf("%v, hog with %d ticks left: the ring computed %v in 2 s, want it to run: %v", c.sched, c.hogLeft, cpu, c.runs)
		}
	}
}

// TestLinuxEpochs: when every runnable process's counter is 0, every
// process's counter, sleeping ones too, becomes counter/2 + the slice: a
// process that sleeps gains, up to 2 slices less a tick (here 10-tick
// slices at 1000 Hz: 19). A hog shares a processor with a ring job's fast
// process, which computes 1 ms and then sleeps 300 ms waiting for its slow
// partner; alone runnable, the hog runs into an epoch every 10 ms, and the
// sleeper's counter grows from 9 to 19. The boost has no counters.
func TestLinuxEpochs(t *testing.T) {
	m := model.Machine{Nodes: 2, PEsPerNode: 1}
	hog := model.App{}
	ring := model.App{ProcCompute: []model.Time{model.Millisecond, 300 * model.Millisecond},
		Pattern: model.PatternRing, Comm: model.CommBlocking}
	for _, sched := range []Sched{SchedLinux, SchedBoost} {
		s := New(linuxConfig(sched, m, 1000, 10))
		s.AddJob(1, []int{0}, &hog, 100*model.Second, false)
		s.AddJob(2, []int{0, 1}, &ring, 10*model.Second, false)
		sleeper, h := s.procOf(2, 0), s.procOf(1, 0)
		s.Run(250 * model.Millisecond)
		if !sleeper.blocked || !h.running {
			t.Fatalf("%v: at 250 ms the sleeper is blocked %v, the hog running %v", sched, sleeper.blocked, h.running)
		}
		if want := int32(19); (sched == SchedLinux) != (sleeper.ctr == want) {
			t.Errorf("%v: the sleeper's counter is %d after 24 epochs (Linux: %d)", sched, sleeper.ctr, want)
		}
		if c := s.counter(h); sched == SchedLinux && (c < 1 || c > 10) {
			t.Errorf("%v: the hog's counter %d, want 1 to 10", sched, c)
		}
	}
}

// TestLinuxNodeRunQueue: a node's processors share one run queue. Two hogs
// placed on the same processor of a 2-PE node run side by side under
// Linux, the second taking the idle processor as it starts
// (reschedule_idle); with per-processor round robins (the boost) they
// share the one processor. A third waits for a slice to end and then
// takes turns on both.
func TestLinuxNodeRunQueue(t *testing.T) {
	m := model.Machine{Nodes: 1, PEsPerNode: 2}
	hog := model.App{}
	for _, c := range []struct {
		sched Sched
		hogs  int
		each  model.Time // what each computed in 1.2 s, to 1% (2 hogs) or 5% (3: 40 ms slices)
	}{
		{SchedLinux, 2, 1200 * model.Millisecond},
		{SchedLinux, 3, 800 * model.Millisecond},
		{SchedBoost, 2, 600 * model.Millisecond},
	} {
		s := New(linuxConfig(c.sched, m, 1024, 41))
		for id := 1; id <= c.hogs; id++ {
			s.AddJob(id, []int{0}, &hog, 100*model.Second, false)
		}
		moved := s.procOf(2, 0).cpu == 1
		s.Run(1200 * model.Millisecond)
		tol := c.each / 100
		if c.hogs == 3 {
			tol *= 5
		}
		for id := 1; id <= c.hogs; id++ {
			if cpu := s.Stats(id).CPU; cpu < c.each-tol || cpu > c.each+tol {
				t.Errorf("%v, %d hogs: hog %d computed %v of 1.2 s, want %v", c.sched, c.hogs, id, cpu, c.each)
			}
		}
		if moved != (c.sched == SchedLinux) {
			t.Errorf("%v, %d hogs: the second took the other processor: %v", c.sched, c.hogs, moved)
		}
	}
}

// TestLinuxAddedJobPlacedOnce: a job added while another runs (a launch
// under STORM) has its processes join the node's run queue one after the
// other, as the kernel creates them. A hog near the end of its slice runs
// on processor 0 of a 2-PE node when a 2-process ring job is added on
// processors 0 and 1: the first process, its processor busy, takes the
// idle processor 1, and the second then preempts the hog. When all of
// them were in the run queue at once, processor 1's schedule() picked the
// second, which as it was then woken also preempted the hog: one process
// held by two processors, and later a processor left holding a process
// that ran elsewhere, which stalled a whole run.
func TestLinuxAddedJobPlacedOnce(t *testing.T) {
	m := model.Machine{Nodes: 1, PEsPerNode: 2}
	hog := model.App{}
	ring := model.App{Granularity: model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking}
	s := New(linuxConfig(SchedLinux, m, 1024, 41))
	s.AddJob(1, []int{0}, &hog, 100*model.Second, false)
	s.procOf(1, 0).ctr = 5 // the hog near its slice's end: a new process preempts it
	s.AddJob(2, []int{0, 1}, &ring, 200*model.Millisecond, false)
	if err := s.check(); err != nil {
		t.Fatalf("after the ring job was added: %v", err)
	}
	var bad error
	s.afterEvent = func() {
		if bad == nil {
			bad = s.check()
		}
	}
	for {
		id, at, ok := s.Run(10 * model.Second)
		if bad != nil {
			t.Fatal(bad)
		}
		if !ok {
			t.Fatalf("the ring job did not complete by 10 s (at %v)", s.now)
		}
		if id == 2 {
			if at > 2*model.Second {
				t.Errorf("the ring job (100 ms a process) completed at %v", at)
			}
			break
		}
	}
}

// TestLinuxTicks: processor ci's ticks are at tickPhase + floor(k 1 s/HZ),
// and a running process's counter loses one at each.
func TestLinuxTicks(t *testing.T) {
	s := New(linuxConfig(SchedLinux, model.Machine{Nodes: 1, PEsPerNode: 1}, 1024, 41))
	s.cpus[0].tickPhase = 100
	for _, c := range []struct {
		at   model.Time
		tick int64
	}{{99, -1}, {100, 0}, {1075, 0}, {1076, 1}, {100 + 976, 1}, {100 + 1953, 2}, {100 + 1000000, 1024}, {100 + 999999, 1023}} {
		if got := s.tickIndex(0, c.at); got != c.tick {
			t.Errorf("tickIndex(%v) = %d, want %d", c.at, got, c.tick)
		}
		if at := s.tickAt(0, c.tick); c.tick >= 0 && (at > c.at || s.tickIndex(0, at) != c.tick) {
			t.Errorf("tickAt(%d) = %v, after %v", c.tick, at, c.at)
		}
	}
	var app model.App
	s.AddJob(1, []int{0}, &app, model.Second, false)
	s.AddJob(2, []int{0}, &app, model.Second, false) // shared: charged
	p := s.procOf(1, 0)
	s.Run(100 + 976*10) // ticks 1-10 of the slice, the 10th at 9865
	if c := s.counter(p); !p.running || c != 31 {
		t.Errorf("after 10 ticks: running %v, counter %d, want 31", p.running, c)
	}
}
