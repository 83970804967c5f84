package hardware

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/myrinet"
	"github.com/gangsim/gangsim/hwmodel/pm"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/workload/scenario"
)

// TestReplaysAreReplays checks that a replay of the items, which runs the
// engine and the policies itself, gives every outcome of the same
// scenario replayed through pipelines.Replay, the path of "replay
// --policy gs:... --hw PRESET --mechanism M", in each family and
// mechanism the items replay.
func TestReplaysAreReplays(t *testing.T) {
	for _, r := range []replay{
		{scenario: "fm-bandwidth", opts: scenario.Options{Tasks: 2, Machines: 16, MessageBytes: 4096},
			policy: gangPolicy(2, myrinet.Fig6Quantum), preset: mustPreset(t, "parpar"), mechanism: "division"},
		{scenario: "fm-bandwidth", opts: scenario.Options{Tasks: 3, Machines: 16, MessageBytes: 256},
			policy: gangPolicy(3, myrinet.Fig6Quantum), preset: mustPreset(t, "parpar"), mechanism: "switching-full"},
		{scenario: "hori96-fib", opts: scenario.Options{Tasks: horiCopies, Machines: 4},
			policy: gangPolicy(horiCopies, 100*model.Millisecond), preset: mustPreset(t, "ss20"), mechanism: pm.Voluntary.String()},
		{scenario: "hori98-ep", opts: scenario.Options{Tasks: horiCopies, Machines: 8},
			policy: gangPolicy(horiCopies, 100*model.Millisecond), preset: mustPreset(t, "rwc-pc2"), mechanism: pm.Signal.String()},
		{scenario: "sweep3d", opts: scenario.Options{Tasks: 2, Machines: 16},
			policy: gangPolicy(2, storm433Quantum), preset: mustPreset(t, "crescendo")},
	} {
		name := fmt.Sprintf("%s on %s %s", r.scenario, r.preset.Name(), r.mechanism)
		got, err := r.outcomes()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tr, err := scenario.Build(r.scenario, r.opts)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := policies.ParseSpec(r.policy)
		if err != nil {
			t.Fatal(err)
		}
		var want model.OutcomeList
		rep := pipelines.Replay{Policy: spec, Hardware: r.preset.Name(), Mechanism: r.mechanism}
		if _, err := rep.Run(model.NewSliceReader(tr), &want, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		slices.SortFunc(want, func(a, b model.Outcome) int { return int(a.JobID - b.JobID) })
		if len(got) == 0 || !slices.EqualFunc(got, want, func(a, b model.Outcome) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
			t.Errorf("%s: %d outcomes, pipelines.Replay %d; first %+v against %+v", name, len(got), len(want), first(got), first(want))
		}
	}
}

func first(o []model.Outcome) any {
	if len(o) == 0 {
		return nil
	}
	return o[0]
}
