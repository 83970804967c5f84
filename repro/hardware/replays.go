package hardware

import (
	"fmt"
	"slices"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/workload/scenario"
)

// replay is one run of a benchmark scenario (package workload/scenario)
// through the simulator: gang scheduling at job level (policies' gs)
// charged by an embedded hardware preset in one of its family's
// mechanisms, exactly as `replay --policy POLICY --hw PRESET --mechanism
// MECHANISM` replays the scenario's trace.
type replay struct {
	scenario  string
	opts      scenario.Options
	policy    string // e.g. "gs:mpl=2,quantum=0.05s"
	hw        string // the preset's name, or the path of a preset file
	mechanism string // "" for the family's first
}

// gangPolicy is gs with mpl rows and the given quantum: the copies of a
// benchmark each fill a row and are served round robin.
func gangPolicy(mpl int, quantum model.Time) string {
	return fmt.Sprintf("gs:mpl=%d,quantum=%s", mpl, quantum)
}

// outcomes runs the replay and returns its per-job outcomes in job order.
func (r replay) outcomes() ([]model.Outcome, error) {
	tr, err := scenario.Build(r.scenario, r.opts)
	if err != nil {
		return nil, err
	}
	spec, err := policies.ParseSpec(r.policy)
	if err != nil {
		return nil, err
	}
	rep := pipelines.Replay{Policy: spec, Hardware: r.hw, Mechanism: r.mechanism}
	var out outcomeList
	if _, err := rep.Run(model.NewSliceReader(tr), &out, nil); err != nil {
		return nil, fmt.Errorf("replaying %s (%d copies on %d processors) under %s on %s %s: %w",
			r.scenario, r.opts.Tasks, r.opts.Machines, r.policy, r.hw, r.mechanism, err)
	}
	slices.SortFunc(out, func(a, b model.Outcome) int { return int(a.JobID - b.JobID) })
	for _, o := range out {
		if !o.Completed() {
			return nil, fmt.Errorf("replaying %s under %s: job %d rejected (%s)", r.scenario, r.policy, o.JobID, o.Reason)
		}
	}
	return out, nil
}

// outcomeList collects a replay's outcomes.
type outcomeList []model.Outcome

func (l *outcomeList) Write(o *model.Outcome) error { *l = append(*l, *o); return nil }
func (l *outcomeList) Close() error                 { return nil }

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
