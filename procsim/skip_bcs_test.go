package procsim

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestBufferedAllToAllSkips: under BCS and PBCS a job alone on its
// processors is moved forward by periods, except an all-to-all one, whose
// buffered calls' records are not re-timed (fanout.retime): it is
// simulated call by call, and ends when it does with skipping off. The
// skip once re-timed such a job's records and panicked ("a buffered call
// re-timed").
func TestBufferedAllToAllSkips(t *testing.T) {
	costs := costsOf(t, "crescendo", "")
	for _, kind := range []Kind{BCS, PBCS} {
		for _, pat := range []model.Pattern{model.PatternAllToAll, model.PatternBarrier, model.PatternRing} {
			app := model.App{Granularity: 2 * model.Millisecond, Pattern: pat, Comm: model.CommBlocking, MessageBytes: 256}
			var ends [2]model.Time
			for i, noSkip := range []bool{false, true} {
				cfg := Config{Kind: kind, Machine: model.Machine{Nodes: 2, PEsPerNode: 2}, Costs: costs,
					LocalSwitch: 50, Wakeup: 5, Quantum: 25 * model.Millisecond, MicroSlice: 250,
					Rand: rand.New(rand.NewPCG(1, 2)), NoSkip: noSkip}
				s := New(cfg)
				s.AddJob(1, []int{0, 1, 2, 3}, &app, 2*model.Second, false)
				s.SetOwners([]Owner{{Job: 1, From: 0}})
				id, at, done := s.Run(model.Never)
				if !done || id != 1 {
					t.Fatalf("%v %v (skip off %v): not done", kind, pat, noSkip)
				}
				ends[i] = at
			}
			if ends[0] != ends[1] {
				t.Errorf("%v %v: ends at %v skipping, %v call by call", kind, pat, ends[0], ends[1])
			}
		}
	}
}
