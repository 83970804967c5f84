package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/workload"
)

// BenchmarkGangScale is gang scheduling against EASY as a user runs them,
// from the input file to the written per-job Parquet results through the
// command: replay --policy gs:mpl=6,backfill=easy,alloc=dhc --hw crescendo
// (MPL 6, EASY in front, DHC, Crescendo's costs and STORM's mechanics)
// and replay --policy easy, on every shared log (gzipped SWF) and on
// 20,000 jobs of the Lublin model (seed 1, as genwork lublin --seed 1
// --jobs 20000 --procs N writes them, in Parquet) on machines of 1,024 to
// 131,072 processors. It reports the CPU time of each per iteration (the
// process's user and system time: parsing and encoding run on other
// goroutines) and gs/easy, their ratio, measured in the same run: the
// target is at most 12 whatever the machine's size. The policies
// package's BenchmarkGangScale measures the schedulers alone, in memory.
// Run it with
//
//	go test -run '^$' -bench GangScale -benchtime 1x ./cmd/replay
func BenchmarkGangScale(b *testing.B) {
	for _, name := range sharedtraces.Names {
		b.Run("log="+name, func(b *testing.B) {
			benchGangVsEASY(b, sharedtraces.Trace(b, name))
		})
	}
	for _, n := range []int{1024, 4096, 16384, 65536, 131072} {
		b.Run(fmt.Sprintf("procs=%d", n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "lublin.parquet")
			writeLublin(b, path, 20000, n, 1)
			benchGangVsEASY(b, path)
		})
	}
}

// benchGangVsEASY replays the trace file under EASY and under gang
// scheduling to Parquet, and reports the CPU time of each and their ratio.
func benchGangVsEASY(b *testing.B, trace string) {
	out := filepath.Join(b.TempDir(), "out.parquet")
	var easy, gs time.Duration
	for b.Loop() {
		easy += replayCPU(b, out, "-p", "easy", "--hw", "crescendo", trace)
		gs += replayCPU(b, out, "-p", "gs:mpl=6,backfill=easy,alloc=dhc", "--hw", "crescendo", trace)
	}
	n := float64(b.N)
	b.ReportMetric(easy.Seconds()/n, "easy-cpu-s")
	b.ReportMetric(gs.Seconds()/n, "gs-cpu-s")
	b.ReportMetric(gs.Seconds()/easy.Seconds(), "gs/easy")
}

// writeLublin writes jobs jobs of the Lublin model on procs processors
// from seed to path, in Parquet.
func writeLublin(b *testing.B, path string, jobs int64, procs int, seed uint64) {
	b.Helper()
	writeSpec(b, workload.Spec{Source: workload.Source{Lublin: &workload.LublinSource{Jobs: jobs, Procs: procs}}, Seed: seed}, path)
}

// replayCPU runs replay with args, its results to out, and returns the CPU
// time it took.
func replayCPU(b *testing.B, out string, args ...string) time.Duration {
	start := cpuTime(b)
	if err := run(append(args, "-o", out, "-q"), strings.NewReader(""), io.Discard, io.Discard); err != nil {
		b.Fatal(err)
	}
	return cpuTime(b) - start
}

// cpuTime is the CPU time the process has used so far (user and system).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
