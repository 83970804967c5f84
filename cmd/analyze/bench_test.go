package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkPipeline10M is the memory target of analyze: the outcomes of a
// 10-million-job Lublin trace replayed under EASY, summarized from
// replay's stream in at most 512 MB peak RSS. It builds the three
// commands, runs
//
//	genwork lublin --jobs 10000000 | replay --policy easy | analyze ARGS
//
// for the default table and for --all (every per-job metric kept), and
// reports analyze's peak resident set (getrusage's ru_maxrss) and the
// wall time of the whole pipe. Run it with
// go test -run '^$' -bench Pipeline10M -benchtime 1x ./cmd/analyze.
func BenchmarkPipeline10M(b *testing.B) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go tool not on PATH")
	}
	dir := b.TempDir()
	build := exec.Command(goTool, "build", "-o", dir, "github.com/gangsim/gangsim/cmd/genwork",
		"github.com/gangsim/gangsim/cmd/replay", "github.com/gangsim/gangsim/cmd/analyze")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building: %v\n%s", err, out)
	}
	const jobs = 10_000_000
	for _, mode := range []struct {
		name string
		args []string
	}{{"default", nil}, {"all", []string{"--all"}}} {
		b.Run(mode.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gen := exec.Command(filepath.Join(dir, "genwork"), "lublin", "--jobs", strconv.Itoa(jobs), "--procs", "128", "--seed", "1", "-q")
				rep := exec.Command(filepath.Join(dir, "replay"), "--policy", "easy", "-q")
				ana := exec.Command(filepath.Join(dir, "analyze"), append([]string{"-q", "-o", filepath.Join(dir, "summary.csv")}, mode.args...)...)
				r1, w1, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				r2, w2, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				gen.Stdout, rep.Stdin, rep.Stdout, ana.Stdin = w1, r1, w2, r2
				var genErr, repErr, anaErr bytes.Buffer
				gen.Stderr, rep.Stderr, ana.Stderr = &genErr, &repErr, &anaErr
				start := time.Now()
				for _, c := range []*exec.Cmd{gen, rep, ana} {
					if err := c.Start(); err != nil {
						b.Fatal(err)
					}
				}
				for _, f := range []*os.File{r1, w1, r2, w2} {
					f.Close()
				}
				for _, c := range []struct {
					cmd    *exec.Cmd
					stderr *bytes.Buffer
				}{{gen, &genErr}, {rep, &repErr}, {ana, &anaErr}} {
					if err := c.cmd.Wait(); err != nil {
						b.Fatalf("%s: %v\n%s", filepath.Base(c.cmd.Path), err, c.stderr.Bytes())
					}
				}
				elapsed := time.Since(start)
				ru, ok := ana.ProcessState.SysUsage().(*syscall.Rusage)
				rss := math.NaN()
				if ok {
					rss = float64(ru.Maxrss) / 1024 // KB on Linux
				}
				b.ReportMetric(rss, "analyze-peak-RSS-MB")
				b.ReportMetric(elapsed.Seconds(), "pipe-s")
				if rss > 512 {
					b.Errorf("analyze peaked at %.0f MB RSS, above the 512 MB target", rss)
				}
			}
		})
	}
}
