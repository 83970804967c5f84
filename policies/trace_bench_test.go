package policies_test

import (
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
)

// BenchmarkSharedTraces replays every shared trace from the gzipped SWF to
// the written per-job results (Arrow), the way the replay command does
// (parsing and encoding on their own goroutines), under EASY and
// conservative backfilling, with --compat pyss (conservative then sweeps once
// per termination) and with gangsim's default engine rules (conservative
// repeats its sweeps). The target: conservative within 3 times EASY
// on every trace. Run it with
//
//	go test -run '^$' -bench SharedTraces ./policies
func BenchmarkSharedTraces(b *testing.B) {
	for _, name := range sharedtraces.Names {
		for _, compat := range []pipelines.Compat{pipelines.CompatPyss, pipelines.CompatNone} {
			mode := "pyss"
			if compat == pipelines.CompatNone {
				mode = "default"
			}
			for _, pol := range []string{"easy", "conservative"} {
				b.Run(name+"/"+mode+"/"+pol, func(b *testing.B) {
					trace := sharedtraces.Trace(b, name)
					out := filepath.Join(b.TempDir(), "out.arrow")
					r := pipelines.Replay{Policy: policies.Spec{Name: pol}, Compat: compat}
					b.ReportAllocs()
					jobs := 0
					for i := 0; i < b.N; i++ {
						jobs += replayToFile(b, &r, trace, out)
					}
					b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
				})
			}
		}
	}
}

// replayToFile runs r on the trace file and writes the outcomes to out,
// returning the number of outcomes.
func replayToFile(b *testing.B, r *pipelines.Replay, trace, out string) int {
	b.Helper()
	in, err := fileio.Open(trace, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	raw, err := in.Trace(false)
	if err != nil {
		b.Fatal(err)
	}
	src := fileio.Prefetch(raw)
	defer src.Close()
	params, err := r.Params(src.Header())
	if err != nil {
		b.Fatal(err)
	}
	header := src.Header().Clone()
	man := model.Manifest{Tool: "bench", Params: params, Inputs: []model.Input{in.Manifest()}}
	man.Apply(&header)
	o, err := fileio.Create(out, columnar.FormatArrow, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer o.Abort()
	w, err := o.OutcomeWriter(&header)
	if err != nil {
		b.Fatal(err)
	}
	async := fileio.NewAsyncOutcomes(w)
	res, err := r.Run(src, async, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := async.Close(); err != nil {
		b.Fatal(err)
	}
	if err := o.Commit(); err != nil {
		b.Fatal(err)
	}
	return res.Summary.Jobs
}
