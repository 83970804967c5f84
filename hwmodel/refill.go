package hwmodel

import "github.com/gangsim/gangsim/model"

// Refill is a cost model whose gang switches also cost a cache and
// working-set refill penalty: after a job is switched back in, it runs
// slowly for a while as it reloads the caches (and, with paging, the
// memory) that the jobs it was time-sharing with displaced. Refill counts
// that loss as Penalty of lost time per switch, on top of Costs.Switch, so
// Switch is then what the incoming job loses per switch rather than only
// the time the machine spends switching. Message and Launch are those of
// Costs.
//
// The papers give no figure for the penalty. Frachtenberg's thesis names
// the loss of cache state among the costs of a context switch (4.3.3.3)
// and cache pressure among the effects of short quanta (6.4.3), but
// measures only their sum with everything else, for SWEEP3D, whose poor
// locality hides it (4.3.3.1, footnote 7). Hori et al. list refilling the
// cache among the causes of overhead (1996, 4.2; 1998, 5), which the pm
// presets' fitted quantum_overhead_us already contains. It is therefore a
// parameter the user sets (PresetInfo.RefillPenaltyMicros, 0 by default).
type Refill struct {
	Costs
	// Penalty is the time in simulated microseconds a job loses after
	// being switched back in; it must not be negative.
	Penalty model.Time
}

var _ Costs = Refill{}

// Switch returns r.Costs.Switch(s) + r.Penalty; a switch that never ends
// (model.Never) stays model.Never. It panics if Penalty is negative.
func (r Refill) Switch(s SwitchState) model.Time {
	if r.Penalty < 0 {
		panic("hwmodel: negative refill penalty")
	}
	t := r.Costs.Switch(s)
	if t > model.Never-r.Penalty {
		return model.Never
	}
	return t + r.Penalty
}

// Unwrap returns the cost model r adds its penalty to.
func (r Refill) Unwrap() Costs { return r.Costs }
