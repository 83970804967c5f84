package policies

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// presetVariants lists every embedded hardware preset with every variant
// of its family's cost model.
func presetVariants(t *testing.T) []Hardware {
	var out []Hardware
	for _, name := range presets.Names() {
		p, err := presets.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range presets.Families() {
			if f.Name != p.Family {
				continue
			}
			for _, v := range f.Variants {
				c, err := p.Costs(v.Name)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, Hardware{Costs: c, Preset: name, Family: f.Name, Mechanism: v.Name})
			}
		}
	}
	return out
}

// randomAppTrace draws a small workload whose jobs have every pattern and
// communication mode, imbalanced or not, and messages of any size.
func randomAppTrace(r *rand.Rand, procs int) *model.Trace {
	var jobs []model.Job
	at := model.Time(0)
	for i := range 5 + r.IntN(25) {
		at += model.Time(r.IntN(400)) * model.Millisecond
		size := 1 + r.IntN(procs)
		run := model.Time(1+r.IntN(3000)) * model.Millisecond
		j := model.Job{ID: int64(i + 1), Submit: at, Runtime: run, AllocProcs: size,
			Estimate: run * model.Time(1+r.IntN(4)), Known: model.AllFields}
		if r.IntN(4) != 0 {
			j.App = model.App{Granularity: model.Time(1+r.IntN(50)) * model.Millisecond,
				Pattern:      []model.Pattern{model.PatternRing, model.PatternAllToAll, model.PatternBarrier, model.PatternNone}[r.IntN(4)],
				Comm:         []model.Comm{model.CommBlocking, model.CommNonBlocking}[r.IntN(2)],
				MessageBytes: int64(r.IntN(1 << 16)), Imbalance: float64(r.IntN(3)) / 2}
		}
		jobs = append(jobs, j)
	}
	return &model.Trace{Jobs: jobs}
}

// TestProcessGSEqualsJobGS: gang scheduling simulated process by process
// gives every job the same start, end, switches and switch loss as gang
// scheduling at job level, to the microsecond, on random workloads with
// jobs of every pattern (ring, all-to-all, barrier, none) and mode
// (blocking, non-blocking), balanced or not, under random configurations,
// with free switches and on every hardware preset and variant whose
// messages do not slow down with the contexts a NIC is configured for (the
// job-level rate is 1): all but parpar's buffer division, which
// TestProcessGSNearJobGS compares.
func TestProcessGSEqualsJobGS(t *testing.T) {
	seeds := 160
	if testing.Short() {
		seeds = 40
	}
	var hws []Hardware
	for _, hw := range append([]Hardware{{}}, presetVariants(t)...) {
		if !contextsSlow(hw) {
			hws = append(hws, hw)
		}
	}
	compared := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		compared += compareGS(t, seed, hws[int(seed)%len(hws)], func(desc string, id int64, job, proc twinOutcome) {
			t.Fatalf("%s: job %d: job level %+v, process level %+v", desc, id, job, proc)
		})
	}
	t.Logf("%d jobs compared", compared)
}

// TestProcessGSNearJobGS: where messages slow down with the contexts a NIC
// is configured for (parpar's buffer division; comm.go), the levels differ
// by the tail of computation that ends each job's dedicated runtime, which
// the job-level rate stretches and the process-level job computes without
// communicating, and by the rate's rounding. A balanced blocking job alone
// ends at process level at N λ_k + ρ exactly (N iterations of λ_k = G +
// C(k), the tail ρ = R - N λ_1) and at job level at R λ_k / λ_1, to the
// rate's rounding. Non-blocking and imbalanced jobs differ further: their
// process-level iteration is the simulator's recurrence (procsim), not G +
// C(k), once messages take longer than their dedicated fit assumed.
func TestProcessGSNearJobGS(t *testing.T) {
	p, err := presets.Get("parpar")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs("division")
	if err != nil {
		t.Fatal(err)
	}
	hw := Hardware{Costs: costs, Preset: "parpar", Family: "myrinet", Mechanism: "division"}
	r := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		procs := 2 << r.IntN(3)
		app := model.App{Granularity: model.Time(1+r.IntN(20000)) * model.Microsecond,
			Pattern: []model.Pattern{model.PatternRing, model.PatternAllToAll, model.PatternBarrier}[r.IntN(3)],
			Comm:    model.CommBlocking, MessageBytes: int64(r.IntN(1 << 14))}
		work := model.Time(1+r.IntN(20000)) * model.Millisecond
		cfg := GangConfig{MPL: 1 + r.IntN(4), Quantum: 100 * model.Millisecond, Alloc: allocFirstFit, Backfill: "none"}
		g, c1 := commTimes(&app, procs, costs, 1)
		_, ck := commTimes(&app, procs, costs, netContexts(cfg))
		l1, lk := g+c1, g+ck
		n := work / l1
		want := n*lk + (work - n*l1)
		trace := &model.Trace{Jobs: []model.Job{{ID: 1, Runtime: work, AllocProcs: procs, Estimate: work, Known: model.AllFields, App: app}}}
		env := Env{Machine: model.FlatMachine(procs), Rand: rand.New(rand.NewPCG(1, 1)), Hardware: hw}
		var out [2]map[int64]twinOutcome
		for i, pol := range []sim.Policy{NewGang(cfg, env), NewCosched(CoschedConfig{GangConfig: cfg}, env)} {
			var l model.OutcomeList
			if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), &l, nil); err != nil {
				t.Fatal(err)
			}
			out[i] = twinOutcomes(l)
		}
		stretched := float64(work) * float64(lk) / float64(l1)
		if got := out[1][1].end; got != want {
			t.Fatalf("%+v on %d, %v, mpl %d: process level ends at %v, want N λ_k + ρ = %v", app, procs, work, cfg.MPL, got, want)
		}
		if got := float64(out[0][1].end); math.Abs(got-stretched) > stretched/float64(sim.FullRate)+1 {
			t.Fatalf("%+v on %d, %v, mpl %d: job level ends at %v, want R λ_k / λ_1 = %.0f", app, procs, work, cfg.MPL, got, stretched)
		}
	}
}

// contextsSlow reports whether hw's messages slow down with the contexts a
// NIC is configured for.
func contextsSlow(hw Hardware) bool {
	if hw.Costs == nil {
		return false
	}
	for _, bytes := range []int64{0, 1 << 10, 1 << 20} {
		a, _ := hw.Costs.Message(bytes, 1)
		b, _ := hw.Costs.Message(bytes, 4)
		if a != b {
			return true
		}
	}
	return false
}

// compareGS replays seed's random workload under gang scheduling at job
// and at process level on hw, and calls differ for every job whose
// outcomes differ; it returns the jobs compared.
func compareGS(t *testing.T, seed uint64, hw Hardware, differ func(desc string, id int64, job, proc twinOutcome)) int {
	r := rand.New(rand.NewPCG(seed, 21))
	procs := []int{4, 8, 16}[r.IntN(3)]
	cfg := GangConfig{MPL: 1 + r.IntN(4), Quantum: model.Time(50+r.IntN(400)) * model.Millisecond,
		Alloc: []string{allocFirstFit, allocDHC}[r.IntN(2)], Alternate: r.IntN(2) == 0,
		Backfill: []string{"none", "easy"}[r.IntN(2)]}
	if hw.Preset == "calypso-nt" {
		cfg.Quantum *= 20 // its migrations take seconds
	}
	cfg.Storm = randomStorm(seed)
	env := Env{Machine: model.FlatMachine(procs), Rand: rand.New(rand.NewPCG(seed, 1)), Hardware: hw}
	trace := randomAppTrace(r, procs)
	randomMemory(seed, trace)
	desc := fmt.Sprintf("seed %d: %d procs, %+v, hw %v", seed, procs, cfg, env.Hardware)
	run := func(pol sim.Policy) (map[int64]twinOutcome, error) {
		var out model.OutcomeList
		err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), &out, nil)
		return twinOutcomes(out), err
	}
	job, err1 := run(NewGang(cfg, env))
	proc, err2 := run(NewCosched(CoschedConfig{GangConfig: cfg, Kind: 0}, env))
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		t.Fatalf("%s: job level: %v; process level: %v", desc, err1, err2)
	}
	if err1 != nil {
		return 0 // both aborted alike (a switch as long as the quantum)
	}
	for _, j := range trace.Jobs {
		if job[j.ID] != proc[j.ID] {
			differ(desc, j.ID, job[j.ID], proc[j.ID])
		}
	}
	return len(trace.Jobs)
}
