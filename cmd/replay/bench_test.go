package main

import (
	"bytes"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/sharedtraces"
)

// BenchmarkCTCEasy is the end-to-end target of the replay issue: EASY on
// CTC-SP2 (77,205 jobs after cleaning), from parsing the gzipped SWF to the
// written per-job results. pyss needs 42 s for it on this machine; the
// target is under 0.2 s.
func BenchmarkCTCEasy(b *testing.B) {
	trace := sharedtraces.Trace(b, "CTC-SP2-1996-3.1-cln")
	for _, mode := range []struct{ name, ext string }{{"pyss-parquet", ".parquet"}, {"pyss-arrow", ".arrow"}, {"pyss-csv", ".csv"}} {
		b.Run(mode.name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "ctc"+mode.ext)
			for i := 0; i < b.N; i++ {
				if err := run([]string{"--compat", "pyss", "-p", "easy", trace, "-o", out, "-q"}, strings.NewReader(""), io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGangLANL is the end-to-end speed target for gang
// scheduling: LANL-CM5 (122,055 jobs after cleaning, 1024 processors)
// under gs with MPL 6, a 1 s quantum, DHC placement and EASY backfilling,
// from parsing the gzipped SWF to the written per-job Parquet file,
// through run as the command does. The target is under 3 s on this
// project's 2-core machine.
func BenchmarkGangLANL(b *testing.B) {
	trace := sharedtraces.Trace(b, "LANL-CM5-1994-4.1-cln")
	out := filepath.Join(b.TempDir(), "lanl.parquet")
	for i := 0; i < b.N; i++ {
		if err := run([]string{"-p", "gs:mpl=6,quantum=1s,alloc=dhc,backfill=easy", trace, "-o", out, "-q"}, strings.NewReader(""), io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipeline10M is the memory target of the replay issue: a
// 10-million-job synthetic trace streamed through EASY in at most 256 MB
// peak RSS. It builds genwork and replay, runs
//
//	genwork lublin --jobs 10000000 | replay --policy easy -o out.arrow
//
// and reports each process's peak resident set (getrusage's ru_maxrss)
// and the jobs per second of the whole pipe. Run it with
// go test -run '^$' -bench Pipeline10M -benchtime 1x ./cmd/replay.
func BenchmarkPipeline10M(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go tool not on PATH")
	}
	dir := b.TempDir()
	build := exec.Command(goTool, "build", "-o", dir, "github.com/gangsim/gangsim/cmd/genwork", "github.com/gangsim/gangsim/cmd/replay")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building: %v\n%s", err, out)
	}
	const jobs = 10_000_000
	for i := 0; i < b.N; i++ {
		gen := exec.Command(filepath.Join(dir, "genwork"), "lublin", "--jobs", strconv.Itoa(jobs), "--procs", "128", "--seed", "1", "-q")
		rep := exec.Command(filepath.Join(dir, "replay"), "--policy", "easy", "-o", filepath.Join(dir, "out.arrow"), "-q")
		r, w, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		gen.Stdout, rep.Stdin = w, r
		var genErr, repErr bytes.Buffer
		gen.Stderr, rep.Stderr = &genErr, &repErr
		start := time.Now()
		if err := gen.Start(); err != nil {
			b.Fatal(err)
		}
		if err := rep.Start(); err != nil {
			b.Fatal(err)
		}
		w.Close()
		r.Close()
		if err := gen.Wait(); err != nil {
			b.Fatalf("genwork: %v\n%s", err, genErr.Bytes())
		}
		if err := rep.Wait(); err != nil {
			b.Fatalf("replay: %v\n%s", err, repErr.Bytes())
		}
		elapsed := time.Since(start)
		maxRSS := func(c *exec.Cmd) float64 {
			ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				return math.NaN()
			}
			return float64(ru.Maxrss) / 1024 // KB on Linux
		}
		b.ReportMetric(maxRSS(gen), "genwork-peak-RSS-MB")
		b.ReportMetric(maxRSS(rep), "replay-peak-RSS-MB")
		b.ReportMetric(jobs/elapsed.Seconds(), "jobs/s")
		if rss := maxRSS(rep); rss > 256 {
			b.Errorf("replay peaked at %.0f MB RSS, above the 256 MB target", rss)
		}
	}
}
