package policies_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/workload"
)

// gangScaleSizes are the machine sizes of BenchmarkGangScale's generated
// workloads, in processors.
var gangScaleSizes = []int{1024, 4096, 16384, 65536, 131072}

// BenchmarkGangScale measures job-level gang scheduling (MPL 6, EASY in
// front, DHC, Crescendo's costs) against EASY on the same input, in the
// same run: every shared log, and 20,000 jobs of the Lublin model (seed 1,
// as genwork lublin --seed 1 --jobs 20000 --procs N generates them) on
// machines of 1,024 to 131,072 processors. Each iteration replays the
// input, in memory, under EASY then under GS, into writers that discard
// the outcomes, and the benchmark reports the CPU time of each (the
// process's user and system time, the garbage collector's included) and
// gs/easy, their ratio: the target is at most 12 whatever the machine's
// size. Run it alone with
//
//	go test -run '^$' -bench GangScale -benchtime 1x ./policies
func BenchmarkGangScale(b *testing.B) {
	for _, name := range sharedtraces.Names {
		b.Run("log="+name, func(b *testing.B) {
			trace := specTrace(b, workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: sharedtraces.Trace(b, name)}}})
			benchGangVsEASY(b, trace)
		})
	}
	for _, n := range gangScaleSizes {
		b.Run(fmt.Sprintf("procs=%d", n), func(b *testing.B) {
			benchGangVsEASY(b, lublinTrace(b, 20000, n, 1))
		})
	}
}

// lublinTrace generates jobs jobs of the Lublin model on procs processors
// from seed, into memory.
func lublinTrace(b *testing.B, jobs int64, procs int, seed uint64) *model.Trace {
	b.Helper()
	return specTrace(b, workload.Spec{Source: workload.Source{Lublin: &workload.LublinSource{Jobs: jobs, Procs: procs}}, Seed: seed})
}

// specTrace reads the workload spec describes into memory.
func specTrace(b *testing.B, spec workload.Spec) *model.Trace {
	b.Helper()
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

// benchGangVsEASY replays trace under EASY and under gang scheduling
// (MPL 6, EASY, DHC) on Crescendo's costs, and reports the CPU time of
// each per iteration and their ratio.
func benchGangVsEASY(b *testing.B, trace *model.Trace) {
	b.Helper()
	replay := func(policy string) time.Duration {
		spec, err := policies.ParseSpec(policy)
		if err != nil {
			b.Fatal(err)
		}
		r := pipelines.Replay{Policy: spec, Hardware: "crescendo"}
		start := policies.CPUNow()
		if _, err := r.Run(model.NewSliceReader(trace), discardOutcomes{}, nil); err != nil {
			b.Fatal(err)
		}
		return policies.CPUNow() - start
	}
	b.ReportAllocs()
	var easy, gs time.Duration
	for b.Loop() {
		easy += replay("easy")
		gs += replay("gs:mpl=6,backfill=easy,alloc=dhc")
	}
	n := float64(b.N)
	b.ReportMetric(easy.Seconds()/n, "easy-cpu-s")
	b.ReportMetric(gs.Seconds()/n, "gs-cpu-s")
	b.ReportMetric(gs.Seconds()/easy.Seconds(), "gs/easy")
}
