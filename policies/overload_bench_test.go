package policies_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/workload"
)

// overloadPolicies are the policies the overload benchmarks compare: FCFS,
// the baseline, and every backfilling policy.
var overloadPolicies = []string{"fcfs", "easy", "conservative", "conservative:replan=single", "gs:backfill=easy"}

// BenchmarkOverload replays every shared log scaled to offered loads 1.0,
// 1.2 and 1.5 (as genwork convert --load does: runtimes and estimates
// scaled) under FCFS and each backfilling policy, with gangsim's default
// rules, from the scaled jobs in memory to a writer that discards the
// outcomes. Above load 1 the queue grows for the whole log; a policy's cost
// is to be read against FCFS's on the same input (the same sub-benchmark
// prefix). Conservative backfilling runs by default only at load 1.0 on the
// three small logs (sharedtraces.Small), where it takes a few seconds at
// most: elsewhere its reservations move hundreds of times per job and a
// replay takes minutes to hours (README, "Speed and memory"); set
// GANGSIM_BENCH_ALL=1 for every combination.
func BenchmarkOverload(b *testing.B) {
	all := os.Getenv("GANGSIM_BENCH_ALL") == "1"
	for _, name := range sharedtraces.Names {
		for _, load := range []float64{1.0, 1.2, 1.5} {
			var trace *model.Trace
			for _, pol := range overloadPolicies {
				if strings.HasPrefix(pol, "conservative") && !all && (load != 1.0 || !slices.Contains(sharedtraces.Small, name)) {
					continue
				}
				b.Run(fmt.Sprintf("%s/load=%.1f/%s", name, load, pol), func(b *testing.B) {
					if trace == nil {
						trace = scaledTrace(b, sharedtraces.Trace(b, name), load)
					}
					benchReplay(b, trace, pol)
				})
			}
		}
	}
}

// scaledTrace reads the trace at path scaled to offered load into memory.
func scaledTrace(b *testing.B, path string, load float64) *model.Trace {
	b.Helper()
	spec := workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: path}},
		Load: &workload.Load{Target: load}}
	r, err := spec.Open(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	t, err := model.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// benchReplay replays trace under policy as the replay command does
// (default cleaning and rules), into a discarding writer.
func benchReplay(b *testing.B, trace *model.Trace, policy string) {
	b.Helper()
	spec, err := policies.ParseSpec(policy)
	if err != nil {
		b.Fatal(err)
	}
	r := pipelines.Replay{Policy: spec}
	b.ReportAllocs()
	b.ResetTimer()
	jobs := 0
	for i := 0; i < b.N; i++ {
		res, err := r.Run(model.NewSliceReader(trace), discardOutcomes{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		jobs += res.Summary.Jobs
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

type discardOutcomes struct{}

func (discardOutcomes) Write(*model.Outcome) error { return nil }
func (discardOutcomes) Close() error               { return nil }
