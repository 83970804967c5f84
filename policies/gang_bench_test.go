package policies_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/swf"
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
