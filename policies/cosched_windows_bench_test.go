package policies_test

import (
	"fmt"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/workload"
)

// BenchmarkCoschedWindows replays 120-job windows of every shared log
// (after the first 5,000 and the first 15,000 jobs; the thesis' dynamic
// attributes, a ring of blocking calls; time / 100, as genwork convert
// --skip N --jobs 120 --app --compress 100 makes them) on the log's own
// machine under SB, FCS, BCS and PBCS (MPL 6, EASY in front, DHC,
// Crescendo), reporting the process's CPU per replay (cpu-s/op): the
// README's speed table holds FCS, BCS and PBCS to 5x SB's on the same
// window.
func BenchmarkCoschedWindows(b *testing.B) {
	for _, name := range sharedtraces.Names {
		for _, skip := range []int{5000, 15000} {
			var trace *model.Trace
			for _, pol := range []string{"sb", "fcs", "bcs", "pbcs"} {
				b.Run(fmt.Sprintf("%s/skip=%d/%s", name, skip, pol), func(b *testing.B) {
					if trace == nil {
						trace = windowTrace(b, sharedtraces.Trace(b, name), skip)
					}
					spec, err := policies.ParseSpec(pol + ":mpl=6,backfill=easy,alloc=dhc")
					if err != nil {
						b.Fatal(err)
					}
					r := pipelines.Replay{Policy: spec, Hardware: "crescendo", Seed: 1}
					cpu := policies.CPUNow()
					for b.Loop() {
						if _, err := r.Run(model.NewSliceReader(trace), discardOutcomes{}, nil); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric((policies.CPUNow()-cpu).Seconds()/float64(b.N), "cpu-s/op")
				})
			}
		}
	}
}

// windowTrace reads the 120 jobs after the first skip of the log at path,
// with the thesis' attributes and time / 100, into memory.
func windowTrace(b *testing.B, path string, skip int) *model.Trace {
	b.Helper()
	return specTrace(b, workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: path, Skip: skip, Jobs: 120}},
		Attributes: &workload.Attributes{Pattern: "ring", Comm: "blocking"}, Compress: 100, Seed: 1})
}
