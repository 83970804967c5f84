package calypso

import "github.com/gangsim/gangsim/model"

// Experiment is one of the paper's two timing experiments, the ray tracer
// on the Calypso NT cluster (M&D 5.2 Result B), with what the paper's
// switch-cost estimate (Result C) uses. Times are in simulated
// microseconds; a zero time is one the paper does not state.
type Experiment struct {
	Number   int // 1 or 2
	Tasks    int // parallel tasks
	Machines int // machines running them
	// Quantum is the round-robin quantum of the estimate, 5 s.
	Quantum model.Time
	// RoundRobin is the run time of round robin at Quantum (stated for
	// experiment 1 only).
	RoundRobin model.Time
	// Optimal is the run time of the optimal distributed context switching
	// schedule.
	Optimal model.Time
	// Estimate is the paper's pessimistic switch overhead, as printed (two
	// decimals of a second).
	Estimate model.Time
}

// Experiments returns the paper's two experiments:
//
//   - 1: 3 tasks on 2 machines; round robin at a 5 s quantum 600 s,
//     optimal 400 s; estimate 1.67 s (M&D 5.2 Results B, C).
//   - 2: 5 tasks on 3 machines; optimal 278 s; estimate 1.53 s (M&D 5.2
//     Results B, C). The round-robin time at 5 s behind the estimate was
//     in the missing Fig. 6 and is not in the text.
func Experiments() []Experiment {
	return []Experiment{
		{Number: 1, Tasks: 3, Machines: 2, Quantum: 5 * model.Second,
			RoundRobin: 600 * model.Second, Optimal: 400 * model.Second,
			Estimate: 1670 * model.Millisecond},
		{Number: 2, Tasks: 5, Machines: 3, Quantum: 5 * model.Second,
			Optimal: 278 * model.Second, Estimate: 1530 * model.Millisecond},
	}
}

// PessimisticOverhead is the paper's estimate of the cost of one switch
// (M&D 5.2 Result C): a round-robin run of length roundRobin at the given
// quantum makes roundRobin/quantum switches, and all the time it takes
// beyond the optimal schedule is charged to them:
//
//	(roundRobin - optimal) / (roundRobin / quantum)
//
// For experiment 1, (600 s - 400 s) / 120 = 1.667 s. quantum must be
// positive.
func PessimisticOverhead(roundRobin, optimal, quantum model.Time) model.Time {
	if quantum <= 0 {
		panic("calypso: PessimisticOverhead needs a positive quantum")
	}
	switches := roundRobin.Seconds() / quantum.Seconds()
	return model.FromSecondsFloat((roundRobin - optimal).Seconds() / switches)
}

// ImpliedRoundRobin inverts PessimisticOverhead: the round-robin run time
// at quantum for which the estimate is overhead, quantum*optimal/(quantum
// - overhead). For experiment 2 (optimal 278 s, 1.53 s at 5 s) it is
// 400.6 s, the value the missing Fig. 6 must have shown. It returns
// model.Never when overhead is not below quantum.
func ImpliedRoundRobin(optimal, quantum, overhead model.Time) model.Time {
	if overhead >= quantum {
		return model.Never
	}
	return model.FromSecondsFloat(quantum.Seconds() * optimal.Seconds() / (quantum - overhead).Seconds())
}

// FitSwitchOverhead returns the least-squares constant through the given
// switch-cost estimates, their mean; with the paper's two, 1.60 s. It is
// how the preset's switch_overhead_us is obtained. It returns 0 for no
// estimates.
func FitSwitchOverhead(estimates ...model.Time) model.Time {
	if len(estimates) == 0 {
		return 0
	}
	var sum model.Time
	for _, e := range estimates {
		sum += e
	}
	return model.FromSecondsFloat(sum.Seconds() / float64(len(estimates)))
}
