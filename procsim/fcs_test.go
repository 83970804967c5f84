package procsim

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func fcsConfig() Config {
	return Config{Kind: FCS, Machine: model.Machine{Nodes: 1, PEsPerNode: 2}, Quantum: 10 * model.Millisecond,
		DCGranularity: 5 * model.Millisecond, FWaitShare: 0.3, HZ: 1024, SliceTicks: 41, ProcChangePenalty: 20}
}

// classAs gives job id's processes class c, as if classified.
func (s *Sim) classAs(id int, c Class) {
	for _, pi := range s.jobs[s.byID[id]].procs {
		s.procs[pi].class, s.procs[pi].classified = c, true
	}
}

// TestFCSPriorityInOwnSlot: an F process is prioritized only when its own
// slot is the active one (thesis 6.2.1, 6.3.2.2): in a DC process's slot
// it takes its turns with the DC processes under the kernel's time slices
// (three epochs of three 41-tick slices: a third each), in its own it runs
// without being rotated out.
func TestFCSPriorityInOwnSlot(t *testing.T) {
	cfg := fcsConfig()
	s := New(cfg)
	var app model.App // pure computation
	for id := 1; id <= 3; id++ {
		s.AddJob(id, []int{0}, &app, 100*model.Second, false)
	}
	s.classAs(1, F)
	s.classAs(2, DC)
	s.classAs(3, DC)
	s.SetOwners([]Owner{{Job: 3}}) // a DC slot: no one prioritized
	epochs := model.Time(3 * 3 * int64(cfg.SliceTicks) * int64(model.Second) / int64(cfg.HZ))
	s.Run(epochs)
	for id := 1; id <= 3; id++ {
		if cpu := s.Stats(id).CPU; cpu < epochs/3-model.Millisecond || cpu > epochs/3+model.Millisecond {
			t.Errorf("DC slot: job %d (%v) computed %v of %v, want a third", id, []Class{F, DC, DC}[id-1], cpu, epochs)
		}
	}
	before := s.Stats(1).CPU
	s.EndSlot()
	s.classAs(1, F) // whatever it measured: its slot's priority is what is checked
	s.SetOwners([]Owner{{Job: 1, From: s.Now()}})
	s.Run(s.Now() + 300*model.Millisecond)
	if got := s.Stats(1).CPU - before; got != 300*model.Millisecond {
		t.Errorf("its own slot: the F process computed %v of 300ms", got)
	}
}

// TestFCSNewJobCoscheduled: a new job is coscheduled until classified
// (6.2.1): its processes do not fill other slots' holes before their first
// classification, at the end of their own slot; afterwards they do.
func TestFCSNewJobCoscheduled(t *testing.T) {
	s := New(fcsConfig())
	var app model.App
	s.AddJob(1, []int{0}, &app, 10*model.Second, false)
	s.classAs(1, DC)
	s.SetOwners([]Owner{{Job: 1}})
	s.Run(50 * model.Millisecond)
	s.AddJob(2, []int{0}, &app, 10*model.Second, false) // new: CS, unclassified
	s.Run(200 * model.Millisecond)
	if cpu := s.Stats(2).CPU; cpu != 0 {
		t.Fatalf("the new job computed %v in another job's slot before its first classification", cpu)
	}
	s.EndSlot()
	s.SetOwners([]Owner{{Job: 2, From: s.Now()}})
	s.Run(300 * model.Millisecond)
	if cpu := s.Stats(2).CPU; cpu != 100*model.Millisecond {
		t.Fatalf("the new job computed %v of its own 100ms slot", cpu)
	}
	if p := &s.procs[s.jobs[s.byID[2]].procs[0]]; p.classified {
		t.Fatalf("classified (%v) before its slot ended", p.class)
	}
	s.EndSlot() // its slot ends: it computed without communicating, DC
	s.SetOwners([]Owner{{Job: 1, From: s.Now()}})
	s.Run(600 * model.Millisecond)
	if cpu := s.Stats(2).CPU; cpu < 200*model.Millisecond {
		t.Fatalf("classified %v, it computed only %v in 300ms of the other slot", s.procs[s.jobs[s.byID[2]].procs[0]].class, cpu-100*model.Millisecond)
	}
}

// TestFCSClassifiedAtEverySlotEnd: a job alone in the matrix, whose slot
// goes on from strobe to strobe, is classified at the end of every
// timeslice (6.2.1), not only when it leaves the slot: the complementing
// scenario's imbalanced job alone has its light processes F and its heavy
// ones DC after its first slot.
func TestFCSClassifiedAtEverySlotEnd(t *testing.T) {
	cfg := fcsConfig()
	cfg.Machine = model.Machine{Nodes: 2, PEsPerNode: 2}
	cfg.Quantum = 25 * model.Millisecond
	s := New(cfg)
	app := model.App{ProcCompute: []model.Time{12 * model.Millisecond, 12 * model.Millisecond, 3 * model.Millisecond, 3 * model.Millisecond},
		Pattern: model.PatternRing, Comm: model.CommBlocking}
	s.AddJob(1, []int{0, 1, 2, 3}, &app, 10*model.Second, false)
	s.SetOwners([]Owner{{Job: 1}})
	for at := cfg.Quantum; at <= 10*cfg.Quantum; at += cfg.Quantum {
		s.Run(at)
		s.EndSlot()
		s.SetOwners([]Owner{{Job: 1, From: at}})
	}
	want := []Class{DC, DC, F, F}
	for i, pi := range s.jobs[s.byID[1]].procs {
		if p := &s.procs[pi]; !p.classified || p.class != want[i] {
			t.Errorf("process %d: %v (classified %v), want %v", i, p.class, p.classified, want[i])
		}
	}
}

// TestFCSProbation: a new job stays coscheduled, unclassified, at the ends
// of its slots within its probation (Config.Probation), and is first
// classified at the end of its first slot that ends after it.
func TestFCSProbation(t *testing.T) {
	cfg := fcsConfig()
	cfg.Quantum = 25 * model.Millisecond
	cfg.Probation = 100 * model.Millisecond
	s := New(cfg)
	var app model.App // pure computation: DC once classified
	s.AddJob(1, []int{0}, &app, 10*model.Second, false)
	s.SetOwners([]Owner{{Job: 1}})
	p := &s.procs[s.jobs[s.byID[1]].procs[0]]
	for at := cfg.Quantum; at <= 8*cfg.Quantum; at += cfg.Quantum {
		s.Run(at)
		s.EndSlot()
		if want := at >= 4*cfg.Quantum; p.classified != want { // the probation's end
			t.Fatalf("at %v: classified %v (%v), want %v", at, p.classified, p.class, want)
		}
		s.SetOwners([]Owner{{Job: 1, From: at}})
	}
	if p.class != DC {
		t.Errorf("classified %v after its probation, want DC", p.class)
	}
}

// TestWokenBoost: a woken process, which gets a whole time slice back,
// takes the processor from one that only spins or has less of its slice
// left, not from one whose slice has just begun (SB, and FCS outside a
// prioritized owner's slot).
func TestWokenBoost(t *testing.T) {
	cfg := fcsConfig()
	cfg.Kind, cfg.Rand = SB, rand.New(rand.NewPCG(1, 2))
	s := New(cfg)
	s.now = model.Second
	q := cfg.Quantum
	for _, c := range []struct {
		name string
		cur  proc
		want bool
	}{
		{"spinning", proc{phase: phWait, runStart: s.now, sliceEnd: s.now + q}, true},
		{"a fresh slice", proc{phase: phCompute, runStart: s.now, sliceEnd: s.now + q}, false},
		{"1us into its slice", proc{phase: phCompute, runStart: s.now - 1, sliceEnd: s.now + q - 1}, true},
		{"resumed with part of its slice", proc{phase: phCompute, runStart: s.now, sliceEnd: s.now + q/2}, true},
		{"no slice, just started", proc{phase: phCompute, runStart: s.now}, false},
		{"no slice, 1us in", proc{phase: phCompute, runStart: s.now - 1}, true},
	} {
		if got := s.boosts(&c.cur); got != c.want {
			t.Errorf("%s: boosted over it %v, want %v", c.name, got, c.want)
		}
	}
}
