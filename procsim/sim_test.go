package procsim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
)

func costsOf(t testing.TB, preset, mech string) hwmodel.Costs {
	t.Helper()
	p, err := presets.Get(preset)
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Costs(mech)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cpusFrom(first, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = first + i
	}
	return out
}

// TestAloneRunsDedicated: a job alone on its processors, under every
// discipline, ends exactly at its dedicated runtime, whatever its pattern,
// communication mode, imbalance and size.
func TestAloneRunsDedicated(t *testing.T) {
	costs := costsOf(t, "crescendo", "")
	apps := []model.App{
		{},
		{Granularity: 3 * model.Millisecond},
		{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 4096},
		{Granularity: 5 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking, Imbalance: 1},
		{Granularity: 2 * model.Millisecond, Pattern: model.PatternAllToAll, Comm: model.CommBlocking, MessageBytes: 512},
		{Granularity: 7 * model.Millisecond, Pattern: model.PatternBarrier, Comm: model.CommBlocking},
		{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommNonBlocking, MessageBytes: 1 << 20},
		{ProcCompute: []model.Time{6000, 6000, 3000, 3000}, Pattern: model.PatternRing, Comm: model.CommBlocking},
	}
	for _, kind := range []Kind{GS, Local, SB, FCS, BCS, PBCS} {
		for ai, app := range apps {
			for _, procs := range []int{1, 2, 4, 7} {
				if len(app.ProcCompute) > 0 && procs != len(app.ProcCompute) {
					continue
				}
				for _, work := range []model.Time{0, 1, 999, 60 * model.Second, 60*model.Second + 1234} {
					name := fmt.Sprintf("%v/app%d/%dprocs/%v", kind, ai, procs, work)
					cfg := Config{Kind: kind, Machine: model.Machine{Nodes: 4, PEsPerNode: 2}, Costs: costs,
						LocalSwitch: 50, Wakeup: 5, Quantum: 25 * model.Millisecond, SpinThreshold: 100,
						MicroSlice: 250, DCGranularity: 5 * model.Millisecond, FWaitShare: 0.25,
						Rand: rand.New(rand.NewPCG(1, 2))}
					s := New(cfg)
					s.AddJob(1, cpusFrom(0, procs), &app, work, false)
					s.SetOwners([]Owner{{Job: 1, From: 0}})
					id, at, done := s.Run(model.Never)
					if !done || id != 1 {
						t.Fatalf("%s: not done", name)
					}
					communicates := app.Pattern != model.PatternUnspecified && app.Pattern != model.PatternNone && procs > 1
					if at != work && (kind == GS || kind == Local || !communicates) {
						t.Errorf("%s: ended at %v, want %v", name, at, work)
					}
					// Disciplines whose waits block lose wake-ups or
					// micro-timeslices even alone, but little.
					bound := 1.2
					if kind == BCS || kind == PBCS {
						bound = 1.5 // a micro-timeslice and a half a call
					}
					if at < work || float64(at) > bound*float64(work)+float64(model.Millisecond) {
						t.Errorf("%s: ended at %v, dedicated %v", name, at, work)
					}
				}
			}
		}
	}
}
