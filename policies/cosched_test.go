package policies

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// TestProcessGSEqualsJobGS: gang scheduling simulated process by process
// gives every job the same start, end, switches and switch loss as gang
// scheduling at job level, to the microsecond, on random workloads with
// communicating jobs, under random configurations, free switches or
// Crescendo's (whose messages do not slow down with the jobs sharing the
// network, so the job-level rate is 1).
func TestProcessGSEqualsJobGS(t *testing.T) {
	seeds := 80
	if testing.Short() {
		seeds = 20
	}
	p, err := presets.Get("crescendo")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs("")
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		r := rand.New(rand.NewPCG(seed, 21))
		procs := []int{4, 8, 16}[r.IntN(3)]
		cfg := GangConfig{MPL: 1 + r.IntN(4), Quantum: model.Time(50+r.IntN(400)) * model.Millisecond,
			Alloc: []string{allocFirstFit, allocDHC}[r.IntN(2)], Alternate: r.IntN(2) == 0,
			Backfill: []string{"none", "easy"}[r.IntN(2)]}
		env := Env{Machine: model.FlatMachine(procs), Rand: rand.New(rand.NewPCG(seed, 1))}
		if r.IntN(2) == 0 {
			env.Hardware = Hardware{Costs: costs, Preset: "crescendo"}
		}
		trace := randomGangTrace(r, procs)
		desc := fmt.Sprintf("seed %d: %d procs, %+v, hw %v", seed, procs, cfg, env.Hardware)
		run := func(pol sim.Policy) collect {
			out := collect{}
			if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), out, nil); err != nil {
				t.Fatalf("%s: %v", desc, err)
			}
			return out
		}
		job := run(NewGang(cfg, env))
		proc := run(NewCosched(CoschedConfig{GangConfig: cfg, Kind: 0}, env))
		for _, j := range trace.Jobs {
			if job[j.ID] != proc[j.ID] {
				t.Fatalf("%s: job %d: job level %+v, process level %+v", desc, j.ID, job[j.ID], proc[j.ID])
			}
			compared++
		}
	}
	t.Logf("%d jobs compared", compared)
}
