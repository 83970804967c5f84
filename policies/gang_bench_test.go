package policies_test

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

// BenchmarkGangLANL replays LANL-CM5 (122,055 jobs, 1024 processors)
// under gang scheduling with MPL 6, a 1 s quantum, DHC placement and EASY
// backfilling: the SWF text in memory (uncompressed) parsed and replayed,
// the outcomes discarded. cmd/replay's BenchmarkGangLANL measures the
// issue's target, from the gzipped file to the written Parquet results.
func BenchmarkGangLANL(b *testing.B) {
	path := sharedtraces.Trace(b, "LANL-CM5-1994-4.1-cln")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	spec, _ := policies.ParseSpec("gs:mpl=6,quantum=1s,alloc=dhc,backfill=easy")
	b.ReportAllocs()
	for b.Loop() {
		r := swf.NewReader(bytes.NewReader(data))
		rp := pipelines.Replay{Policy: spec}
		if _, err := rp.Run(r, discard{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(*model.Outcome) error { return nil }
func (discard) Close() error               { return nil }

// BenchmarkAllToAllLANL replays a 120-job window of LANL-CM5 (after the
// first 5,000 jobs; 1,024 processors, jobs of up to 1,024 processes) with
// the thesis' application attributes (5, 50 or 500 ms iterations, blocking
// calls) and time divided by 100, as the dynamic-real-logs items make
// their windows, under each process-level policy (MPL 6, EASY in front,
// DHC, Crescendo), once with a ring and once with all-to-all
// communication, and reports each replay's seconds and their ratio: the
// target is all-to-all within 3x ring.
func BenchmarkAllToAllLANL(b *testing.B) {
	path := sharedtraces.Trace(b, "LANL-CM5-1994-4.1-cln")
	window := func(pattern string) *model.Trace {
		return specTrace(b, workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: path,
			Clean: &workload.Cleaning{Preset: workload.CleanDefault}, Skip: 5000, Jobs: 120}},
			Attributes: &workload.Attributes{Pattern: pattern}, Compress: 100, Seed: 1})
	}
	ring, a2a := window("ring"), window("all-to-all")
	for _, name := range []string{"fcs", "bcs", "pbcs", "local", "sb", "gs:level=process"} {
		b.Run(name, func(b *testing.B) {
			spec, err := policies.ParseSpec(name)
			if err != nil {
				b.Fatal(err)
			}
			var took [2]time.Duration
			for b.Loop() {
				for i, tr := range []*model.Trace{ring, a2a} {
					start := time.Now()
					rp := pipelines.Replay{Policy: spec, Hardware: "crescendo", Seed: 1}
					if _, err := rp.Run(model.NewSliceReader(tr), discard{}, nil); err != nil {
						b.Fatal(err)
					}
					took[i] += time.Since(start)
				}
			}
			b.ReportMetric(took[0].Seconds()/float64(b.N), "ring-s")
			b.ReportMetric(took[1].Seconds()/float64(b.N), "all-to-all-s")
			b.ReportMetric(took[1].Seconds()/took[0].Seconds(), "all-to-all/ring")
		})
	}
}
