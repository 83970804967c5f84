package policies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// overloadTrace makes a random trace that keeps a long queue: n jobs on m
// processors arriving faster than the machine serves them, their estimates
// far above their runtimes (so that reservations move often), some jobs
// overrunning them and some of zero length or estimate when overruns is set.
func overloadTrace(rng *rand.Rand, overruns bool) (m int, jobs []model.Job) {
	m = 4 + rng.IntN(60)
	n := 50 + rng.IntN(200)
	submit := model.Time(0)
	for i := 0; i < n; i++ {
		submit += model.Time(rng.IntN(4))
		run := model.Time(1 + rng.IntN(40))
		est := run + model.Time(rng.IntN(60))
		switch r := rng.IntN(10); {
		case r == 0:
			est = run
		case r == 1 && overruns:
			est = model.Time(1 + rng.IntN(int(run)))
		case r == 2 && overruns:
			run = 0
		case r == 3 && overruns:
			est = 0
			if rng.IntN(2) == 0 {
				run = 0
			}
		}
		size := 1 + rng.IntN(m)
		if rng.IntN(2) == 0 {
			size = 1 + rng.IntN(max(1, m/8))
		}
		jobs = append(jobs, model.Job{
			ID: int64(i + 1), Submit: submit, Runtime: run, Estimate: est,
			AllocProcs: size, ReqProcs: size,
			Known: model.AllFields,
		})
	}
	return m, jobs
}

// TestConservativeEqualsScanAll replays random overloaded traces under
// conservative backfilling twice, once searching for moves only around where
// units came free (the default) and once scanning the whole plan before
// each reservation (scanAll, the search as it was before the narrowing),
// under both replanning rules, both estimates, and both event semantics:
// the outcomes must be the same, in the same order.
func TestConservativeEqualsScanAll(t *testing.T) {
	for _, replan := range []Replan{ReplanRepeat, ReplanSingle} {
		for _, perfect := range []bool{false, true} {
			for _, pyss := range []bool{false, true} {
				name := fmt.Sprintf("%v/perfect=%v/pyss=%v", replan, perfect, pyss)
				t.Run(name, func(t *testing.T) {
					forSeedsN(t, max(1, *traceRuns/4), func(t *testing.T, rng *rand.Rand) {
						m, jobs := overloadTrace(rng, !pyss && !perfect)
						cfg := sim.Config{Machine: model.FlatMachine(m)}
						if pyss {
							cfg.Order, cfg.Passes = sim.OrderPyss, sim.PassPerEvent
						}
						run := func(scanAll bool) []model.Outcome {
							c := NewConservative(perfect)
							c.Replan, c.scanAll = replan, scanAll
							var rec model.OutcomeList
							if err := sim.New(cfg, c).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &rec, nil); err != nil {
								t.Fatal(err)
							}
							return rec
						}
						got, want := run(false), run(true)
						if !slices.Equal(got, want) {
							for i := range min(len(got), len(want)) {
								if got[i] != want[i] {
									t.Fatalf("machine %d, %d jobs: outcome %d differs:\n got %+v\nwant %+v", m, len(jobs), i, got[i], want[i])
								}
							}
							t.Fatalf("machine %d: %d outcomes, want %d", m, len(got), len(want))
						}
					})
				})
			}
		}
	}
}
