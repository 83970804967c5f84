package policies

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

var twinSeed = flag.Uint64("gang-seed", 0, "run the gang twin test on this seed only")

// stepped is the naive twin of the planned round robin: it steps the
// round robin slot by slot with engine timers, switching jobs' rates
// between 0 and their rate (jobs are always on: no duties), and counts
// switches as they happen. It shares the matrix, the queue, the run sets,
// the switch costs and the settling of the current slot at changes with
// the policy; what it checks is the planning: duties, their lead-in and
// cycle, the slot arithmetic of sync, and the switch marks.
type stepped struct {
	*Gang
	boundary  sim.TimerID
	armed     bool
	switches  map[*gangJob]int64
	loss      map[*gangJob]model.Time
	counted   map[*gangJob]model.Time // when a job's last switch was counted
	rowsInUse int
}

const tagBoundary, tagSwitchEnd = 1, 2

func newStepped(cfg GangConfig, env Env) *Gang {
	p := NewGang(cfg, env)
	p.rr = &stepped{Gang: p, switches: map[*gangJob]int64{}, loss: map[*gangJob]model.Time{},
		counted: map[*gangJob]model.Time{}}
	return p
}

// sync processes the slot boundaries due by now, one by one.
func (s *stepped) sync() {
	q := s.cfg.Quantum
	for s.cur != nil && s.m.index(s.cur) >= 0 && s.e.Now() >= s.slotStart+q {
		at := s.slotStart + q
		rows := len(s.m.rows)
		next := s.m.rows[(s.m.index(s.cur)+1)%rows]
		sl := slotPlan{row: next, run: s.runSet(next)}
		sl.cost = s.switchCost(s.running(), sl.run, rows, false)
		if !s.checkCost(sl.cost) {
			s.cur = nil // aborted: stop stepping
			return
		}
		s.enter(&sl, nil, at)
		s.count()
		s.apply()
	}
}

// count adds the switches of the slot just entered.
func (s *stepped) count() {
	for _, g := range s.all() {
		if g.switchedAt != model.Never && s.counted[g] != g.switchedAt+1 {
			s.counted[g] = g.switchedAt + 1
			s.switches[g]++
			s.loss[g] += g.onFrom - g.switchedAt
		}
	}
}

// apply sets every job's rate for the current instant and the timers of
// the switch ends and the next boundary.
func (s *stepped) apply() {
	now := s.e.Now()
	for _, g := range s.all() {
		if g.j.State != sim.Running {
			continue // completing
		}
		r := sim.Rate(0)
		if g.on && g.onFrom <= now {
			r = commRate(&g.j.In.App, g.j.Size, s.env.Hardware.Costs, netContexts(s.cfg))
		}
		if g.on && g.onFrom > now {
			s.e.SetTimer(g.onFrom, tagSwitchEnd)
		}
		s.e.SetRate(g.j, r)
	}
	if s.armed {
		s.e.CancelTimer(s.boundary)
		s.armed = false
	}
	if s.cur != nil {
		s.boundary, s.armed = s.e.SetTimer(s.slotStart+s.cfg.Quantum, tagBoundary), true
	}
}

func (s *stepped) replan() {
	if s.settle() {
		s.rowsInUse = len(s.m.rows)
		s.count()
	}
	s.apply()
}

func (s *stepped) timer(tag int64) {
	s.sync()
	if tag == tagSwitchEnd {
		s.apply()
	}
}

func (s *stepped) outcome(g *gangJob, o *model.Outcome) {
	o.Sharing, o.Switches, o.SwitchLoss = model.JobLevel, s.switches[g], s.loss[g]
}
func (s *stepped) placed(*gangJob)    {}
func (s *stepped) removed(*gangJob)   {}
func (s *stepped) after()             {}
func (s *stepped) sample(*sim.Sample) {}

type twinOutcome struct {
	start, end, loss model.Time
	switches         int64
}

type collect map[int64]twinOutcome

func (c collect) Write(o *model.Outcome) error {
	c[o.JobID] = twinOutcome{o.Start, o.End, o.SwitchLoss, o.Switches}
	return nil
}
func (c collect) Close() error { return nil }

// randomGangTrace draws a small workload with communication attributes.
func randomGangTrace(r *rand.Rand, procs int) *model.Trace {
	var jobs []model.Job
	at := model.Time(0)
	for i := range 5 + r.IntN(30) {
		at += model.Time(r.IntN(400)) * model.Millisecond
		size := 1 + r.IntN(procs)
		if r.IntN(3) == 0 {
			size = 1 << r.IntN(4)
			size = min(size, procs)
		}
		run := model.Time(1+r.IntN(3000)) * model.Millisecond
		j := model.Job{ID: int64(i + 1), Submit: at, Runtime: run, AllocProcs: size,
			Estimate: run * model.Time(1+r.IntN(4)), Known: model.AllFields}
		if r.IntN(2) == 0 {
			j.App = model.App{Granularity: model.Time(1+r.IntN(50)) * model.Millisecond,
				Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: int64(r.IntN(1 << 16))}
		}
		jobs = append(jobs, j)
	}
	return &model.Trace{Jobs: jobs}
}

// TestGangPlannedEqualsStepped: the planned round robin gives every job the
// same start, end, switches and switch loss, to the microsecond, as
// stepping slot by slot, on random workloads under random configurations
// and hardware models.
func TestGangPlannedEqualsStepped(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	hws := []struct{ preset, mech string }{{"", ""}, {"crescendo", ""}, {"parpar", "division"},
		{"parpar", "switching-full"}, {"rwc-pc2", "signal"}, {"rwc-pc2", "voluntary"}}
	aborted, compared := 0, 0
	defer func() {
		t.Logf("%d jobs compared; %d runs aborted (a switch as long as the quantum)", compared, aborted)
		if *twinSeed == 0 && aborted > seeds/4 {
			t.Errorf("%d of %d runs aborted: the test checks too little", aborted, seeds)
		}
	}()
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		if *twinSeed != 0 && seed != *twinSeed {
			continue
		}
		r := rand.New(rand.NewPCG(seed, 7))
		procs := []int{4, 8, 16, 32}[r.IntN(4)]
		cfg := GangConfig{MPL: 1 + r.IntN(4), Quantum: model.Time(50+r.IntN(400)) * model.Millisecond,
			Alloc: []string{allocFirstFit, allocDHC}[r.IntN(2)], Alternate: r.IntN(2) == 0,
			Backfill: []string{"none", "easy"}[r.IntN(2)]}
		env := Env{Machine: model.FlatMachine(procs)}
		hw := hws[r.IntN(len(hws))]
		if hw.preset != "" {
			p, err := presets.Get(hw.preset)
			if err != nil {
				t.Fatal(err)
			}
			costs, err := p.Costs(hw.mech)
			if err != nil {
				t.Fatal(err)
			}
			env.Hardware = Hardware{Costs: costs, Preset: hw.preset, Mechanism: hw.mech}
		}
		trace := randomGangTrace(r, procs)
		run := func(pol sim.Policy) (collect, error) {
			out := collect{}
			err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), out, nil)
			return out, err
		}
		fast, errFast := run(NewGang(cfg, env))
		slow, errSlow := run(newStepped(cfg, env))
		desc := fmt.Sprintf("seed %d (-gang-seed %d): %d procs, %+v, hw %v", seed, seed, procs, cfg, hw)
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("%s: planned error %v, stepped error %v", desc, errFast, errSlow)
		}
		if errFast != nil {
			aborted++
			continue
		}
		compared += len(trace.Jobs)
		for _, j := range trace.Jobs {
			if fast[j.ID] != slow[j.ID] {
				t.Fatalf("%s: job %d: planned %+v, stepped %+v", desc, j.ID, fast[j.ID], slow[j.ID])
			}
		}
	}
}
