package hardware

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload/scenario"
)

// replay is one run of a benchmark scenario (package workload/scenario)
// through the engine: gang scheduling at job level (policies' gs) charged
// by a hardware preset in one of its family's mechanisms, as `replay
// --policy POLICY --hw PRESET --mechanism MECHANISM` replays the
// scenario's trace: on the machine of the trace's header, with the default
// cleaning (swf.DefaultOptions), gangsim's engine rules and seed 0. It
// runs the engine and the policies itself, without the run layer's
// description, cache and files (package pipelines, a layer below the
// reproductions: docs/layout.md); TestReplaysAreReplays holds its outcomes
// to pipelines.Replay's of the same run.
type replay struct {
	scenario  string
	opts      scenario.Options
	policy    string         // e.g. "gs:mpl=2,quantum=0.05s"
	preset    presets.Preset // the cost model's preset
	mechanism string         // "" for the family's first
}

// gangPolicy is gs with mpl rows and the given quantum: the copies of a
// benchmark each fill a row and are served round robin.
func gangPolicy(mpl int, quantum model.Time) string {
	return fmt.Sprintf("gs:mpl=%d,quantum=%s", mpl, quantum)
}

// hardware is the cost model the replay charges.
func (r replay) hardware() (policies.Hardware, error) {
	costs, err := r.preset.Costs(r.mechanism)
	if err != nil {
		return policies.Hardware{}, fmt.Errorf("hardware preset %s: %w", r.preset.Name(), err)
	}
	mech := r.mechanism
	if mech == "" {
		mech = r.preset.DefaultVariant()
	}
	return policies.Hardware{Costs: costs, Preset: r.preset.Name(), Family: r.preset.Family, Mechanism: mech}, nil
}

// outcomes runs the replay and returns its per-job outcomes in job order.
func (r replay) outcomes() ([]model.Outcome, error) {
	out, err := r.run()
	if err != nil {
		return nil, fmt.Errorf("replaying %s (%d copies on %d processors) under %s on %s %s: %w",
			r.scenario, r.opts.Tasks, r.opts.Machines, r.policy, r.preset.Name(), r.mechanism, err)
	}
	slices.SortFunc(out, func(a, b model.Outcome) int { return int(a.JobID - b.JobID) })
	for _, o := range out {
		if !o.Completed() {
			return nil, fmt.Errorf("replaying %s under %s: job %d rejected (%s)", r.scenario, r.policy, o.JobID, o.Reason)
		}
	}
	return out, nil
}

// run builds the scenario's trace and replays it.
func (r replay) run() (model.OutcomeList, error) {
	tr, err := scenario.Build(r.scenario, r.opts)
	if err != nil {
		return nil, err
	}
	spec, err := policies.ParseSpec(r.policy)
	if err != nil {
		return nil, err
	}
	hw, err := r.hardware()
	if err != nil {
		return nil, err
	}
	src := model.NewSliceReader(tr)
	cfg := sim.Config{Machine: src.Header().Machine()}
	if !cfg.Machine.Valid() {
		return nil, fmt.Errorf("scenario %s: %v", r.scenario, src.Header().MachineErr())
	}
	env := policies.Env{Machine: cfg.Machine, Hardware: hw,
		Rand: rand.New(rand.NewPCG(0, 0x67616e6773696d))} // as replay's seed 0
	pol, err := policies.New(spec, env)
	if err != nil {
		return nil, err
	}
	norm, err := swf.NewNormalizer(src, swf.DefaultOptions())
	if err != nil {
		return nil, err
	}
	var out model.OutcomeList
	if err := sim.New(cfg, pol).Run(norm, &out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// makespan is the time the last job ends.
func makespan(out []model.Outcome) model.Time {
	var m model.Time
	for _, o := range out {
		m = max(m, o.End)
	}
	return m
}

// meanRuntime is the jobs' mean run time (end - start) in seconds.
func meanRuntime(out []model.Outcome) float64 {
	s := 0.0
	for _, o := range out {
		s += (o.End - o.Start).Seconds()
	}
	return s / float64(len(out))
}
