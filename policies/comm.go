package policies

import (
	"math"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
	"github.com/gangsim/gangsim/sim"
)

// The job-level communication model. A job with application attributes
// (model.App) is a BSP program: every iteration its slowest process
// computes for
//
//	G = max_i ComputePerIteration(i, p)
//
// and then the job makes one communication call, taking
//
//	C(k) = procsim.CallTime(pattern, p, m, costs, k)
//
// the rounds of the call (a ring: one, with both neighbours; all-to-all:
// one, with every other process; a barrier: ceil(log2 p) zero-byte rounds)
// times the hardware model's one-way time of a round's bytes with k jobs'
// contexts configured on each NIC (hwmodel.Costs.Message) -- the same call
// the process-level simulator makes. k is the MPL, the size of the slot
// table, whatever the rows in use: FM divides a NIC's buffers "based on the
// fixed maximal number of contexts to be supported, and is not adapted
// according to the number that are currently active", set under gang
// scheduling to "the size of the time slot table" (Etsion and Feitelson
// 3.1, 4.1; netContexts). Its dedicated runtime is measured alone (k = 1),
// so under time sharing it progresses, while it runs, at
//
//	rate = (G + C(1)) / (G + C(k))
//
// of dedicated speed: below 1 only where the hardware model's messages slow
// down with contexts (Myrinet's buffer division, Etsion and Feitelson 2.2),
// 1 with buffer switching or QsNet's per-job contexts, and 0 where no
// message gets through (no credits left): the run stops with an error. A
// job without attributes, or without a cost model, is pure computation:
// rate 1.
//
// Where the rate is 1, gang scheduling at process level equals it at job
// level job by job, to the microsecond, whatever the pattern and mode
// (TestProcessGSEqualsJobGS). Below 1 the two levels differ slightly: the
// process-level job communicates only in its iterations, not in the tail
// of computation that ends its dedicated runtime (procsim), which the rate
// stretches here too, and a non-blocking or imbalanced multi-round job's
// iteration is the simulator's recurrence, not G + C(k), once messages
// take longer than its dedicated fit assumed.
//
// The share of its time a running job spends communicating, C(k) / (G +
// C(k)), is also what the gang scheduler takes as the occupancy of the
// NIC buffers it leaves when it is switched out (hwmodel.SwitchState).

// netContexts is the number of communication contexts each node's NIC is
// configured for under a gang scheduler of cfg: its MPL (see above).
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
