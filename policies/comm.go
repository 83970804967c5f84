package policies

import (
	"math"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
	"github.com/gangsim/gangsim/sim"
)

// The job-level communication model's equations, and the Occupancy
// estimate built on them, are in the package documentation (doc.go,
// "Gang scheduling").

// netContexts is the number of communication contexts each node's NIC is
// configured for under a gang scheduler of cfg: its MPL (package
// documentation, "Progress").
func netContexts(cfg GangConfig) int { return cfg.MPL }

// commTimes returns G and C(contexts) of a job of procs processes.
func commTimes(app *model.App, procs int, costs hwmodel.Costs, contexts int) (compute, comm model.Time) {
	if app.Granularity == 0 && len(app.ProcCompute) == 0 {
		return 0, 0
	}
	for i := range procs {
		if len(app.ProcCompute) > 0 && i >= len(app.ProcCompute) {
			break
		}
		compute = max(compute, app.ComputePerIteration(i, procs))
		if len(app.ProcCompute) == 0 && app.Imbalance == 0 {
			break // all processes alike
		}
	}
	return compute, procsim.CallTime(app.Pattern, procs, app.MessageBytes, costs, contexts)
}

// commShares returns a job's progress rate relative to dedicated speed
// with contexts jobs sharing the network (0 if its messages never get
// through), and the share of its running time spent communicating.
func commShares(app *model.App, procs int, costs hwmodel.Costs, contexts int) (rate, comm float64) {
	g, c1 := commTimes(app, procs, costs, 1)
	_, ck := commTimes(app, procs, costs, contexts)
	if ck == model.Never || c1 == model.Never {
		return 0, 1
	}
	if g+ck <= 0 {
		return 1, 0
	}
	return float64(g+c1) / float64(g+ck), float64(ck) / float64(g+ck)
}

// commRate is commShares' rate as an engine rate: 0 if the job's messages
// never get through, else at least the smallest positive rate.
func commRate(app *model.App, procs int, costs hwmodel.Costs, contexts int) sim.Rate {
	r, _ := commShares(app, procs, costs, contexts)
	if r == 0 {
		return 0
	}
	return sim.Rate(max(math.Round(min(r, 1)*float64(sim.FullRate)), 1))
}
