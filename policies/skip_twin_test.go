package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
	"github.com/gangsim/gangsim/sim"
)

// TestSkipEqualsIterationsThesis replays the thesis' dynamic workload
// under each process-level policy as the thesis set them up (MPL 6, EASY
// in front, Crescendo's 16 nodes of 2 processors; SB under the nodes'
// Linux) twice, moving jobs forward by periods and simulating every
// iteration, and requires the same outcome for every job. Two of these
// replays found skips that were not exact: FCS moved a CS owner forward
// beside other jobs' processes (seed 1 at 60%: the mean time-sharing
// bounded slowdown came out 5.39 where every iteration gives 6.90), and
// SB moved jobs with two processes on a node of two, which share its run
// queue (seed 2 at 86%: 483 of 1000 jobs measured otherwise).
func TestSkipEqualsIterationsThesis(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the thesis workload twice per policy")
	}
	hw := crescendo(t)
	for _, c := range []struct {
		kind procsim.Kind
		load float64
		seed uint64
	}{
		{procsim.FCS, 0.6, 1}, {procsim.SB, 0.86, 2}, {procsim.GS, 0.74, 1}, {procsim.BCS, 0.74, 1}, {procsim.PBCS, 0.74, 1},
	} {
		tr := thesisSeed(t, c.load, c.seed)
		var outs [2]map[int64]model.Outcome
		for i, noSkip := range []bool{false, true} {
			// The replay seed's source as pipelines.Replay makes it.
			env := Env{Machine: model.Machine{Nodes: 16, PEsPerNode: 2}, Hardware: hw, Rand: rand.New(rand.NewPCG(0, 0x67616e6773696d))}
			spec, err := ParseSpec(c.kind.String() + ":mpl=6,backfill=easy,alloc=dhc")
			if err != nil {
				t.Fatal(err)
			}
			if c.kind == procsim.GS {
				spec.Params["level"] = "process"
			}
			cfg, err := coschedConfig(c.kind, spec.Params, env)
			if err != nil {
				t.Fatal(err)
			}
			cfg.NoSkip = noSkip
			var out model.OutcomeList
			if err := sim.New(sim.Config{Machine: env.Machine}, NewCosched(cfg, env)).Run(model.NewSliceReader(tr), &out, nil); err != nil {
				t.Fatal(err)
			}
			outs[i] = out.ByID()
		}
		if len(outs[0]) != len(outs[1]) {
			t.Fatalf("%v at %.2f seed %d: %d outcomes with skips, %d without", c.kind, c.load, c.seed, len(outs[0]), len(outs[1]))
		}
		differ := 0
		for id, o := range outs[0] {
			if o != outs[1][id] {
				if differ == 0 {
					t.Errorf("%v at %.2f seed %d: job %d: with skips %+v, every iteration %+v", c.kind, c.load, c.seed, id, o, outs[1][id])
				}
				differ++
			}
		}
		if differ > 0 {
			t.Errorf("%v at %.2f seed %d: %d of %d jobs differ", c.kind, c.load, c.seed, differ, len(outs[0]))
		}
	}
}
