package metrics

import (
	"fmt"

	"github.com/gangsim/gangsim/model"
)

// DefaultTau is the usual short-job bound of bounded slowdown, 10 s
// (Feitelson et al. 1997; also the thesis' "10 seconds of real time", 6.4.1).
const DefaultTau = 10 * model.Second

// BoundedSlowdown is the classic bounded slowdown
// max((Tw + Tr) / max(Tr, tau), 1), with Tw the wait and Tr the runtime. It
// panics if tau <= 0.
func BoundedSlowdown(wait, runtime, tau model.Time) float64 {
	if tau <= 0 {
		panic(fmt.Sprintf("metrics: bounded slowdown with tau %v <= 0", tau))
	}
	return max(float64(wait+runtime)/float64(max(runtime, tau)), 1)
}

// TimeSharingBoundedSlowdown is the thesis' bounded slowdown for
// time-sharing systems (Frachtenberg, section 6.4.1):
// max((Tw + Tr) / max(Td, tau), 1), where Tw is the time in the queue, Tr the
// time running (including time descheduled), and Td the runtime in dedicated
// (batch) mode. With time compressed by a factor F, pass tau = 10 s / F (the
// thesis used 0.1 s at F = 100). It panics if tau <= 0.
func TimeSharingBoundedSlowdown(wait, runtime, dedicated, tau model.Time) float64 {
	if tau <= 0 {
		panic(fmt.Sprintf("metrics: bounded slowdown with tau %v <= 0", tau))
	}
	return max(float64(wait+runtime)/float64(max(dedicated, tau)), 1)
}

// CompressedTau is DefaultTau, 10 s of real time, in the time of a workload
// compressed by factor (runtimes and inter-arrival times divided by it),
// rounded to the microsecond and at least 1 µs: the thesis compressed time
// by 100 and used 0.1 s (Frachtenberg, section 6.4.1). It is
// model.RealTimeTau, the tau of the outcome tables' bsld_rt10s and
// ts_bsld_rt10s columns. It panics unless factor > 0.
func CompressedTau(factor float64) model.Time {
	if !(factor > 0) {
		panic(fmt.Sprintf("metrics: time compression factor %v <= 0", factor))
	}
	return model.RealTimeTau(factor)
}
