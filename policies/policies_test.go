package policies

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

var (
	seedFlag  = flag.Uint64("seed", 0, "run the randomized tests with only this seed")
	traceRuns = flag.Int("traces", 400, "random traces per randomized test")
)

// randomTrace makes a small trace with many same-time events: n jobs on m
// processors, integer-tick times. With overruns, some jobs run longer than
// their estimate; otherwise estimate >= runtime, as after pyss cleaning.
func randomTrace(rng *rand.Rand, overruns bool) (m int, jobs []model.Job) {
	m = 1 + rng.IntN(12)
	n := 2 + rng.IntN(30)
	submit := model.Time(0)
	for i := 0; i < n; i++ {
		if rng.IntN(3) == 0 {
			submit += model.Time(rng.IntN(8))
		}
		run := model.Time(1 + rng.IntN(12))
		est := run
		switch r := rng.IntN(4); {
		case r == 0:
		case r == 1 && overruns:
			est = model.Time(1 + rng.IntN(int(run)))
		default:
			est = run + model.Time(rng.IntN(10))
		}
		size := 1 + rng.IntN(m)
		jobs = append(jobs, model.Job{
			ID: int64(i + 1), Submit: submit, Runtime: run, Estimate: est,
			AllocProcs: size, ReqProcs: size,
			Known: model.AllFields,
		})
	}
	return m, jobs
}

// simulate runs the real engine and returns each job's start time in input
// order.
func simulate(t *testing.T, pol sim.Policy, cfg sim.Config, jobs []model.Job) []model.Time {
	t.Helper()
	var rec model.OutcomeList
	e := sim.New(cfg, pol)
	if err := e.Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &rec, nil); err != nil {
		t.Fatal(err)
	}
	byID := rec.ByID()
	starts := make([]model.Time, len(jobs))
	for i, j := range jobs {
		o, ok := byID[j.ID]
		if !ok {
			t.Fatalf("job %d has no outcome", j.ID)
		}
		starts[i] = o.Start
	}
	return starts
}

func toNaive(jobs []model.Job, perfect bool) []*naiveJob {
	out := make([]*naiveJob, len(jobs))
	for i, j := range jobs {
		est := j.Estimate
		if perfect {
			est = j.Runtime
		}
		out[i] = &naiveJob{id: j.ID, submit: j.Submit, run: j.Runtime, est: est, size: j.AllocProcs}
	}
	return out
}

// forSeeds runs f for *traceRuns seeds, or only for -seed, and names the
// failing seed so it can be re-run.
func forSeeds(t *testing.T, f func(t *testing.T, rng *rand.Rand)) { forSeedsN(t, *traceRuns, f) }

// forSeedsN is forSeeds with n seeds (for tests whose traces are larger).
func forSeedsN(t *testing.T, n int, f func(t *testing.T, rng *rand.Rand)) {
	seeds := make([]uint64, 0, n)
	if *seedFlag != 0 {
		seeds = append(seeds, *seedFlag)
	} else {
		for i := 1; i <= n; i++ {
			seeds = append(seeds, uint64(i))
		}
	}
	for _, s := range seeds {
		ok := t.Run(fmt.Sprintf("seed=%d", s), func(t *testing.T) {
			f(t, rand.New(rand.NewPCG(s, 0x9a9e)))
		})
		if !ok {
			t.Logf("re-run with: go test ./policies -run '%s' -seed %d -v", t.Name(), s)
			return
		}
	}
}

func TestAgainstNaive(t *testing.T) {
	cases := []struct {
		name     string
		kind     naiveKind
		policy   func() sim.Policy
		perfect  bool
		pyss     bool
		overruns bool
	}{
		{"fcfs", naiveFCFS, func() sim.Policy { return NewFCFS() }, false, false, true},
		{"fcfs-pyss", naiveFCFS, func() sim.Policy { return NewFCFS() }, false, true, false},
		{"easy", naiveEASY, func() sim.Policy { return NewEASY(false) }, false, false, true},
		{"easy-perfect", naiveEASY, func() sim.Policy { return NewEASY(true) }, true, false, false},
		{"easy-pyss", naiveEASY, func() sim.Policy { return NewEASY(false) }, false, true, false},
		{"conservative", naiveConservative, func() sim.Policy { return NewConservative(false) }, false, false, true},
		{"conservative-perfect", naiveConservative, func() sim.Policy { return NewConservative(true) }, true, false, false},
		{"conservative-pyss", naiveConservative, func() sim.Policy { return NewConservative(false) }, false, true, false},
		{"conservative-single", naiveConservativeSingle, func() sim.Policy { return newSingle(false) }, false, false, true},
		{"conservative-single-perfect", naiveConservativeSingle, func() sim.Policy { return newSingle(true) }, true, false, false},
		{"conservative-single-pyss", naiveConservativeSingle, func() sim.Policy { return newSingle(false) }, false, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forSeeds(t, func(t *testing.T, rng *rand.Rand) {
				m, jobs := randomTrace(rng, c.overruns)
				cfg := sim.Config{Machine: model.FlatMachine(m)}
				if c.pyss {
					cfg.Order, cfg.Passes = sim.OrderPyss, sim.PassPerEvent
				}
				got := simulate(t, c.policy(), cfg, jobs)
				want := naiveRun(c.kind, m, toNaive(jobs, c.perfect), c.pyss)
				if !slices.Equal(got, want) {
					for i := range jobs {
						mark := ""
						if got[i] != want[i] {
							mark = "  <-- differs"
						}
						t.Logf("job %2d submit %3d run %2d est %2d size %2d: engine start %v, naive start %v%s",
							jobs[i].ID, jobs[i].Submit, jobs[i].Runtime, jobs[i].Estimate, jobs[i].AllocProcs,
							int64(got[i]), int64(want[i]), mark)
					}
					t.Fatalf("machine %d: schedules differ", m)
				}
			})
		})
	}
}

func newSingle(perfect bool) *Conservative {
	c := NewConservative(perfect)
	c.Replan = ReplanSingle
	return c
}
