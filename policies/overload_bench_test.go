package policies_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/workload"
)

// overloadPolicies are the policies the overload benchmarks compare: FCFS,
// the baseline (first: the others' ratios are to it), and every
// backfilling policy.
var overloadPolicies = []string{"fcfs", "easy", "conservative", "conservative:replan=single", "gs:mpl=6,backfill=easy,alloc=dhc"}

// BenchmarkOverload replays every shared log scaled to offered loads 1.0,
// 1.2 and 1.5 (as genwork convert --load does: runtimes and estimates
// scaled) under FCFS and each backfilling policy, with gangsim's default
// rules, from the scaled jobs in memory to a writer that discards the
// outcomes. Above load 1 the queue grows for the whole log. Each replay
// reports its CPU time (cpu-s/op) and its ratio to FCFS's on the same input
// in the same run (x-fcfs). Conservative backfilling runs by default only at
// load 1.0 on the three small logs (sharedtraces.Small), where it takes a
// second or two: elsewhere its reservations move hundreds of times per job
// and a replay takes up to minutes (README, "Speed and memory"); set
// GANGSIM_BENCH_ALL=1 for every combination.
func BenchmarkOverload(b *testing.B) {
	all := os.Getenv("GANGSIM_BENCH_ALL") == "1"
	for _, name := range sharedtraces.Names {
		for _, load := range []float64{1.0, 1.2, 1.5} {
			var trace *model.Trace
			var fcfs time.Duration // FCFS's CPU per replay of this input
			for _, pol := range overloadPolicies {
				if strings.HasPrefix(pol, "conservative") && !all && (load != 1.0 || !slices.Contains(sharedtraces.Small, name)) {
					continue
				}
				b.Run(fmt.Sprintf("%s/load=%.1f/%s", name, load, pol), func(b *testing.B) {
					if trace == nil {
						trace = scaledTrace(b, sharedtraces.Trace(b, name), load)
					}
					cpu := benchReplay(b, trace, pol)
					b.ReportMetric(cpu.Seconds(), "cpu-s/op")
					switch {
					case pol == "fcfs":
						fcfs = cpu
					case fcfs > 0:
						b.ReportMetric(float64(cpu)/float64(fcfs), "x-fcfs")
					}
				})
			}
		}
	}
}

// scaledTrace reads the trace at path scaled to offered load into memory.
func scaledTrace(b *testing.B, path string, load float64) *model.Trace {
	b.Helper()
	return specTrace(b, workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: path}},
		Load: &workload.Load{Target: load}})
}

// benchReplay replays trace under policy as the replay command does
// (default cleaning and rules), into a discarding writer, and returns the
// CPU time per replay.
func benchReplay(b *testing.B, trace *model.Trace, policy string) time.Duration {
	b.Helper()
	spec, err := policies.ParseSpec(policy)
	if err != nil {
		b.Fatal(err)
	}
	r := pipelines.Replay{Policy: spec}
	b.ReportAllocs()
	b.ResetTimer()
	jobs := 0
	cpu := policies.CPUNow()
	for i := 0; i < b.N; i++ {
		res, err := r.Run(model.NewSliceReader(trace), discardOutcomes{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		jobs += res.Summary.Jobs
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
	return (policies.CPUNow() - cpu) / time.Duration(b.N)
}

type discardOutcomes struct{}

func (discardOutcomes) Write(*model.Outcome) error { return nil }
func (discardOutcomes) Close() error               { return nil }
