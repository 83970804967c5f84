package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
	"github.com/gangsim/gangsim/sim"
)

// runSampled replays trace on a machine of procs processors under a
// process-level policy, with a time series sampled every period (0: at
// every change; -1: none), and returns the outcomes by job and the samples.
func runSampled(t *testing.T, cfg CoschedConfig, procs int, trace *model.Trace, period model.Time) (map[int64]model.Outcome, model.SampleList) {
	t.Helper()
	env := Env{Machine: model.FlatMachine(procs), Rand: rand.New(rand.NewPCG(1, 2))}
	var out model.OutcomeList
	var samples model.SampleList
	var w sim.SampleWriter = &samples
	if period < 0 {
		w, period = nil, 0
	}
	e := sim.New(sim.Config{Machine: env.Machine, SamplePeriod: period}, NewCosched(cfg, env))
	if err := e.Run(model.NewSliceReader(trace), &out, w); err != nil {
		t.Fatal(err)
	}
	return out.ByID(), samples
}

// TestProcessSamples: the process-level time series reports the processes'
// states at each sample's time, not the states the simulator reached
// running ahead to the next job event; the processors in use never exceed
// the machine; and sampling changes no outcome. Two non-communicating
// 4-process jobs gang scheduled on 4 processors always have 4 processes
// computing (the slot's) and 4 ready; under SB, ring jobs show processes
// blocked at some samples and computing at others.
func TestProcessSamples(t *testing.T) {
	const procs = 4
	gang := GangConfig{MPL: 2, Quantum: 100 * model.Millisecond, Alloc: allocFirstFit, Backfill: "none"}
	job := func(id int64, run model.Time, app model.App) model.Job {
		return model.Job{ID: id, Runtime: run, AllocProcs: procs, Estimate: run, Known: model.AllFields, App: app}
	}
	t.Run("gs", func(t *testing.T) {
		trace := &model.Trace{Jobs: []model.Job{job(1, 20*model.Second, model.App{}), job(2, 30*model.Second, model.App{})}}
		cfg := CoschedConfig{GangConfig: gang, Kind: procsim.GS}
		_, samples := runSampled(t, cfg, procs, trace, 1234567)
		if len(samples) < 40 {
			t.Fatalf("%d samples, want one every 1.234567 s over 50 s", len(samples))
		}
		for _, s := range samples {
			var want model.Sample // after 50 s: nothing left
			switch {
			case s.At < 40*model.Second: // both jobs: the slot's processes compute, the others wait
				want = model.Sample{Computing: procs, Ready: procs, BusyProcs: procs}
			case s.At > 40*model.Second && s.At < 50*model.Second: // job 2 alone
				want = model.Sample{Computing: procs, BusyProcs: procs}
			case s.At <= 50*model.Second:
				continue // at a completion
			}
			if s.Computing != want.Computing || s.Ready != want.Ready || s.BusyProcs != want.BusyProcs {
				t.Errorf("at %v: computing %v, ready %v, busy %v; want %v, %v, %v", s.At, s.Computing, s.Ready, s.BusyProcs,
					want.Computing, want.Ready, want.BusyProcs)
			}
		}
	})
	t.Run("sb", func(t *testing.T) {
		ring := model.App{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking}
		imb := ring
		imb.Imbalance = 1
		trace := &model.Trace{Jobs: []model.Job{job(1, 10*model.Second, ring), job(2, 10*model.Second, imb),
			job(3, 5*model.Second, model.App{})}}
		trace.Jobs[2].Submit = 2 * model.Second
		cfg := CoschedConfig{GangConfig: gang, Kind: procsim.SB, LocalSwitch: 50, Spin: 100, HZ: 1024, SliceTicks: 41, ProcChangePenalty: 20}
		plain, _ := runSampled(t, cfg, procs, trace, -1)
		for _, period := range []model.Time{0, 100 * model.Millisecond, 777777} {
			out, samples := runSampled(t, cfg, procs, trace, period)
			for id, o := range plain {
				if out[id] != o {
					t.Fatalf("period %v: job %d: %+v sampled, %+v not", period, id, out[id], o)
				}
			}
			blocked, computing := 0, 0
			for _, s := range samples {
				n := s.Computing + s.Spinning + s.BlockedProcs + s.Ready
				if s.BusyProcs > procs || s.BusyProcs != s.Computing+s.Spinning || n != float64(s.Running*procs) {
					t.Fatalf("period %v, at %v: busy %v of %d processors; %v processes in states for %d running jobs (%+v)",
						period, s.At, s.BusyProcs, procs, n, s.Running, s)
				}
				if s.BlockedProcs > 0 {
					blocked++
				}
				if s.Computing > 0 {
					computing++
				}
			}
			if period > 0 && (blocked == 0 || computing == 0) {
				t.Errorf("period %v: %d samples, %d with processes blocked, %d computing: the states do not move", period, len(samples), blocked, computing)
			}
		}
	})
}
