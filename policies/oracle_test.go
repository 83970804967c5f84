package policies_test

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/swf"
)

// readOracle reads <trace>.<policy>.jobs.csv.gz, by job.
func readOracle(t *testing.T, path string) map[int64]sharedtraces.OracleJob {
	t.Helper()
	rows := map[int64]sharedtraces.OracleJob{}
	for _, j := range sharedtraces.OracleJobs(t, path) {
		rows[j.ID] = j
	}
	return rows
}

// readMetrics reads the oracle's aggregate metrics for one trace and policy.
func readMetrics(t *testing.T, trace, policy string) map[string]float64 {
	t.Helper()
	m := map[string]float64{}
	for name, text := range sharedtraces.OracleMetrics(t, trace, policy) {
		if v, err := strconv.ParseFloat(text, 64); err == nil {
			m[name] = v // skips the text rows (peer, policy)
		}
	}
	return m
}

// TestPyssOracle replays every shared trace, cleaned as the oracle's were,
// with the pyss-compatible engine rules, and requires every job's start time
// to equal pyss's, for FCFS, EASY and conservative backfilling (with pyss's
// single sweep per termination); the aggregate metrics must match too.
func TestPyssOracle(t *testing.T) {
	for _, name := range sharedtraces.Names {
		for _, pol := range []string{"fcfs", "easy", "conservative"} {
			t.Run(name+"/"+pol, func(t *testing.T) {
				if testing.Short() && name != "KTH-SP2-1996-2.1-cln" {
					t.Skip("only KTH in -short mode")
				}
				tracePath := sharedtraces.Trace(t, name)
				oracle := readOracle(t, sharedtraces.Oracle(t, name+"."+pol+".jobs.csv.gz"))
				f, err := os.Open(tracePath)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				r := swf.NewReader(f)
				r.Name = tracePath
				n, err := swf.NewNormalizer(r, swf.PyssOptions(0))
				if err != nil {
					t.Fatal(err)
				}
				var p sim.Policy
				switch pol {
				case "fcfs":
					p = policies.NewFCFS()
				case "easy":
					p = policies.NewEASY(false)
				case "conservative":
					c := policies.NewConservative(false)
					c.Replan = policies.ReplanSingle
					p = c
				}
				cfg := sim.Config{Machine: model.FlatMachine(n.Header().MaxProcs()), Order: sim.OrderPyss, Passes: sim.PassPerEvent}
				var out model.OutcomeList
				if err := sim.New(cfg, p).Run(n, &out, nil); err != nil {
					t.Fatal(err)
				}
				byID := out.ByID()
				if len(byID) != len(oracle) {
					t.Fatalf("%d outcomes, oracle has %d jobs", len(byID), len(oracle))
				}
				mismatches := 0
				var sumWait, sumBsld, work float64
				var first, last int64 = math.MaxInt64, math.MinInt64
				for id, want := range oracle {
					got, ok := byID[id]
					if !ok {
						t.Fatalf("job %d: no outcome", id)
					}
					if got.Start != model.FromSeconds(want.Start) || got.Submit != model.FromSeconds(want.Submit) {
						if mismatches < 5 {
							t.Errorf("job %d: start %v, oracle %ds (submit %ds)", id, got.Start, want.Start, want.Submit)
						}
						mismatches++
					}
					sumWait += got.Wait().Seconds()
					sumBsld += got.BoundedSlowdown(10 * model.Second)
					work += float64(got.Procs) * got.Runtime.Seconds()
					first = min(first, got.Submit.WholeSeconds())
					last = max(last, got.End.WholeSeconds())
				}
				if mismatches > 0 {
					t.Fatalf("%d of %d start times differ from pyss", mismatches, len(oracle))
				}
				jobs := float64(len(oracle))
				util := work / (float64(cfg.Machine.Procs()) * float64(last-first))
				m := readMetrics(t, name, pol)
				if len(m) == 0 {
					// metrics.csv has no aggregates for this policy: take
					// them from the oracle's own rows, by metrics.csv's
					// definitions.
					m = rowMetrics(oracle, cfg.Machine.Procs())
				}
				for metric, got := range map[string]float64{"mean_wait": sumWait / jobs, "mean_bsld_tau10": sumBsld / jobs, "utilization": util} {
					want, ok := m[metric]
					if !ok {
						t.Fatalf("metrics.csv has no %s", metric)
					}
					if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Errorf("%s = %v, oracle %v", metric, got, want)
					}
				}
				t.Logf("%d jobs, all start times equal; mean wait %.1f s, mean bsld %.2f, utilization %.4f",
					len(oracle), sumWait/jobs, sumBsld/jobs, util)
			})
		}
	}
}

// rowMetrics computes metrics.csv's aggregates from oracle rows: mean wait
// and mean bounded slowdown (tau = 10 s) over all jobs, and utilization, the
// sum of procs × run over M × (max end - min submit).
func rowMetrics(rows map[int64]sharedtraces.OracleJob, procs int) map[string]float64 {
	var sumWait, sumBsld, work float64
	var first, last int64 = math.MaxInt64, math.MinInt64
	for _, r := range rows {
		wait, run := float64(r.Start-r.Submit), float64(r.End-r.Start)
		sumWait += wait
		sumBsld += max((wait+run)/max(run, 10), 1)
		work += float64(r.Procs) * run
		first, last = min(first, r.Submit), max(last, r.End)
	}
	n := float64(len(rows))
	return map[string]float64{"mean_wait": sumWait / n, "mean_bsld_tau10": sumBsld / n,
		"utilization": work / (float64(procs) * float64(last-first))}
}
