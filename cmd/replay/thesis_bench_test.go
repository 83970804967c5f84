package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/workload"
)

// BenchmarkProcessLevel times process-level replays against one
// yardstick measured beside them: EASY over all of CTC-SP2 (77,205 jobs
// under pyss's cleaning), from the gzipped log to written Parquet, as
// BenchmarkCTCEasy does. Each sub-benchmark reports the replay's CPU
// seconds, the yardstick's, and their ratio (x-ctc-easy):
//
//   - thesis/fcs: the thesis' dynamic workload at 74% load (seed 1) under
//     FCS as the thesis set it up (MPL 6, EASY in front, DHC), on
//     Crescendo's 16 nodes of 2 processors;
//   - whole/LOG/POLICY (with GANGSIM_BENCH_ALL=1: minutes each): a whole
//     archive log with the thesis' application attributes and time / 100,
//     under SB and FCS, on the log's machine.
func BenchmarkProcessLevel(b *testing.B) {
	ctc := sharedtraces.Trace(b, "CTC-SP2-1996-3.1-cln")
	dir := b.TempDir()
	thesis := workload.ThesisPreset()
	thesis.Load = &workload.Load{Target: 0.74}
	thesis.Seed = 1
	thesisPath := filepath.Join(dir, "thesis.parquet")
	writeSpec(b, thesis, thesisPath)
	b.Run("thesis/fcs", func(b *testing.B) {
		benchAgainstCTC(b, ctc, thesisPath, "fcs", "--hw", "crescendo", "--machine", "16x2")
	})
	if os.Getenv("GANGSIM_BENCH_ALL") == "" {
		return
	}
	for _, name := range []string{"KTH-SP2-1996-2.1-cln", "LANL-CM5-1994-4.1-cln"} {
		spec := workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: sharedtraces.Trace(b, name)}},
			Attributes: &workload.Attributes{}, Compress: 100}
		path := filepath.Join(dir, name+".parquet")
		writeSpec(b, spec, path)
		for _, policy := range []string{"sb", "fcs"} {
			b.Run("whole/"+name+"/"+policy, func(b *testing.B) {
				benchAgainstCTC(b, ctc, path, policy, "--hw", "crescendo")
			})
		}
	}
}

// benchAgainstCTC replays trace under policy (with the further flags) to
// Parquet and EASY over CTC-SP2 beside it, and reports both CPU times and
// their ratio.
func benchAgainstCTC(b *testing.B, ctc, trace, policy string, flags ...string) {
	out := filepath.Join(b.TempDir(), "out.parquet")
	var yard, cost time.Duration
	for b.Loop() {
		yard += replayCPU(b, out, "--compat", "pyss", "-p", "easy", ctc)
		cost += replayCPU(b, out, append([]string{"-p", policy, trace}, flags...)...)
	}
	n := float64(b.N)
	b.ReportMetric(cost.Seconds()/n, "cpu-s")
	b.ReportMetric(yard.Seconds()/n, "ctc-easy-cpu-s")
	b.ReportMetric(cost.Seconds()/yard.Seconds(), "x-ctc-easy")
}

// writeSpec writes the workload spec's jobs to path, in Parquet.
func writeSpec(b *testing.B, spec workload.Spec, path string) {
	b.Helper()
	r, err := spec.Open(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	header := r.Header().Clone()
	out, err := fileio.Create(path, columnar.FormatParquet, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Abort()
	w, err := out.TraceWriter(&header)
	if err != nil {
		b.Fatal(err)
	}
	for {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Write(&j); err != nil {
			b.Fatal(err)
		}
	}
	if err := out.Commit(); err != nil {
		b.Fatal(err)
	}
}
