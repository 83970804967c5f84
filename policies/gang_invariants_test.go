package policies

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// probed wraps the gang scheduler and checks its invariants at every call
// and at probe timers spread over the run.
type probed struct {
	*Gang
	t      *testing.T
	desc   string
	probes int
	seen   int
}

const tagProbe = 1 << 40

func (p *probed) Attach(e *sim.Engine) {
	p.Gang.Attach(e)
	for i := range p.probes {
		e.SetTimer(model.Time(i)*7919*model.Microsecond*101, tagProbe)
	}
}

func (p *probed) Timer(tag int64) {
	if tag == tagProbe {
		p.check()
		return
	}
	p.Gang.Timer(tag)
}

func (p *probed) Schedule() {
	p.Gang.Schedule()
	p.check()
}

func (p *probed) Complete(j *sim.Job) {
	if got := p.e.WorkDone(j); got != j.Work {
		p.t.Fatalf("%s: job %d completed with %v of work done, want %v", p.desc, j.In.ID, got, j.Work)
	}
	p.Gang.Complete(j)
}

// check: at most mpl rows, each within the machine and its jobs on columns
// of their own; at this instant, the jobs progressing hold disjoint
// columns (a processor runs one process at a time).
func (p *probed) check() {
	p.seen++
	if p.aborted {
		return // the run stops with an error (checked by the caller)
	}
	now := p.e.Now()
	if len(p.m.rows) > p.cfg.MPL {
		p.t.Fatalf("%s: t=%v: %d rows, mpl %d", p.desc, now, len(p.m.rows), p.cfg.MPL)
	}
	for ri, rw := range p.m.rows {
		union := newColumns(p.m.cols)
		n := 0
		for _, g := range rw.jobs {
			if union.overlapsJob(g.cols) {
				p.t.Fatalf("%s: t=%v: row %d: job %d overlaps another", p.desc, now, ri, g.j.In.ID)
			}
			union.addJob(g.cols)
			n += g.need
		}
		if n > p.m.cols || union.count() != n || !equalColumns(union, rw.taken) {
			p.t.Fatalf("%s: t=%v: row %d holds %d of %d columns, taken %d", p.desc, now, ri, n, p.m.cols, rw.taken.count())
		}
	}
	busy := newColumns(p.m.cols)
	for _, g := range p.all() {
		d := g.j.Duty()
		if g.j.State != sim.Running || g.j.Rate() == 0 || !d.OnAt(now) {
			continue
		}
		if busy.overlapsJob(g.cols) {
			p.t.Fatalf("%s: t=%v: job %d runs on a processor another job runs on", p.desc, now, g.j.In.ID)
		}
		busy.addJob(g.cols)
	}
}

func equalColumns(a, b columns) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGangInvariants runs random workloads (half the jobs communicating,
// model.App) under random gang configurations, with free switches or
// charged by a hardware preset and mechanism, and checks the matrix and
// the processors at every pass and at probes between them, work
// conservation at every completion, that no job ends before its
// submission plus its dedicated runtime, and that switch losses are
// charged only with switches.
func TestGangInvariants(t *testing.T) {
	hws := []struct{ preset, mech string }{{"", ""}, {"crescendo", ""}, {"parpar", "division"},
		{"parpar", "switching-full"}, {"parpar", "switching-valid"}, {"rwc-pc2", "signal"}, {"rwc-pc2", "voluntary"}}
	const seeds = 150
	charged, aborted := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		procs := []int{4, 8, 16, 32, 48}[r.IntN(5)]
		cfg := GangConfig{MPL: 1 + r.IntN(6), Quantum: model.Time(20+r.IntN(300)) * model.Millisecond,
			Alloc: []string{allocFirstFit, allocDHC}[r.IntN(2)], Alternate: r.IntN(2) == 0,
			Backfill: []string{"none", "easy"}[r.IntN(2)]}
		cfg.Storm = randomStorm(seed)
		env := Env{Machine: model.FlatMachine(procs)}
		hw := hws[r.IntN(len(hws))]
		if hw.preset != "" {
			env.Hardware = presetHardware(t, hw.preset, hw.mech)
		}
		for cfg.checkSwitch(env) != nil {
			cfg.Quantum *= 2 // New refuses it: every switch would take the quantum
		}
		trace := randomGangTrace(r, procs)
		desc := fmt.Sprintf("seed %d: %d procs, %+v, hw %v", seed, procs, cfg, env.Hardware)
		pol := &probed{Gang: NewGang(cfg, env), t: t, desc: desc, probes: 300}
		var l model.OutcomeList
		if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), &l, nil); err != nil {
			if cfg.checkSwitch(env) == nil && strings.Contains(err.Error(), "no shorter than the quantum") {
				aborted++ // a dearer switch of this run's state than the cheapest
				continue
			}
			t.Fatalf("%s: %v", desc, err)
		}
		out := twinOutcomes(l)
		lost := false
		for _, j := range trace.Jobs {
			o := out[j.ID]
			if o.end < j.Submit+j.Runtime || o.start < j.Submit {
				t.Fatalf("%s: job %d submitted %v, %v of work, started %v, ended %v", desc, j.ID, j.Submit, j.Runtime, o.start, o.end)
			}
			if o.loss < 0 || o.switches == 0 && o.loss != 0 || !env.Hardware.Charged() && o.loss != 0 {
				t.Fatalf("%s: job %d lost %v in %d switches", desc, j.ID, o.loss, o.switches)
			}
			lost = lost || o.loss > 0
		}
		if lost {
			charged++
		}
		if pol.seen < 300 {
			t.Fatalf("%s: only %d checks", desc, pol.seen)
		}
	}
	t.Logf("%d of %d runs charged switch costs; %d aborted", charged, seeds, aborted)
	if charged < seeds/4 || aborted > seeds/10 {
		t.Errorf("%d of %d runs charged switch costs, %d aborted: the test checks too little with hardware costs", charged, seeds, aborted)
	}
}
