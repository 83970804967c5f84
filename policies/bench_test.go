package policies

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// synthetic streams n jobs for a machine of procs processors at an offered
// load near 0.85: power-of-two sizes, log-uniform runtimes from 10 s to
// about 3 h, estimates up to 5× the runtime, Poisson arrivals. It holds no
// job in memory, so it can feed arbitrarily long runs.
type synthetic struct {
	rng    *rand.Rand
	n, i   int
	procs  int
	t      model.Time
	gap    float64 // mean inter-arrival in seconds
	h      model.Header
	atOnce bool // every job submitted at time 0
}

func newSynthetic(n, procs int, seed uint64) *synthetic {
	s := &synthetic{rng: rand.New(rand.NewPCG(seed, 1)), n: n, procs: procs}
	// E[size] for size 2^k, k uniform on 0..log2 P, times E[runtime]
	// (log-uniform on 10..10^4 s), divided by (load × P).
	levels := int(math.Log2(float64(procs))) + 1
	meanSize := float64(int(1)<<levels-1) / float64(levels)
	meanRun := (1e4 - 10) / math.Log(1e3)
	s.gap = meanSize * meanRun / (0.85 * float64(procs))
	s.h.Set(model.KeyMaxProcs, "0")
	return s
}

func (s *synthetic) Header() *model.Header { return &s.h }

func (s *synthetic) Read() (model.Job, error) {
	if s.i >= s.n {
		return model.Job{}, io.EOF
	}
	s.i++
	if gap := s.rng.ExpFloat64() * s.gap; !s.atOnce {
		s.t += model.FromSecondsFloat(gap)
	}
	size := 1 << s.rng.IntN(int(math.Log2(float64(s.procs)))+1)
	run := model.FromSeconds(int64(10 * math.Pow(1e3, s.rng.Float64())))
	est := model.Time(float64(run) * (1 + 4*s.rng.Float64()))
	return model.Job{ID: int64(s.i), Submit: s.t, Runtime: run, Estimate: est,
		AllocProcs: size, ReqProcs: size, Known: model.AllFields}, nil
}

type discard struct{ n int }

func (d *discard) Write(*model.Outcome) error { d.n++; return nil }
func (d *discard) Close() error               { return nil }

func benchPolicy(b *testing.B, n int, mk func() sim.Policy) { benchStream(b, n, false, mk) }

// benchStream runs the synthetic stream of n jobs on 128 processors through
// the policy mk makes; atOnce submits them all at time 0.
func benchStream(b *testing.B, n int, atOnce bool, mk func() sim.Policy) {
	b.ReportAllocs()
	jobs := 0
	cpu := cpuNow()
	defer func() { lastCPU = (cpuNow() - cpu) / time.Duration(b.N) }()
	for i := 0; i < b.N; i++ {
		out := &discard{}
		e := sim.New(sim.Config{Machine: model.FlatMachine(128)}, mk())
		src := newSynthetic(n, 128, 1)
		src.atOnce = atOnce
		if err := e.Run(src, out, nil); err != nil {
			b.Fatal(err)
		}
		jobs += out.n
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkFCFS measures engine + FCFS throughput (target: at least 1
// million jobs per second), including generating the jobs.
func BenchmarkFCFS(b *testing.B) { benchPolicy(b, 1_000_000, func() sim.Policy { return NewFCFS() }) }

// BenchmarkEASY measures engine + EASY throughput on the same stream.
func BenchmarkEASY(b *testing.B) {
	benchPolicy(b, 1_000_000, func() sim.Policy { return NewEASY(false) })
}

// BenchmarkConservative measures engine + conservative backfilling on the
// same stream, with each replanning rule.
func BenchmarkConservative(b *testing.B) {
	for _, r := range []Replan{ReplanRepeat, ReplanSingle} {
		b.Run(r.String(), func(b *testing.B) {
			benchPolicy(b, 100_000, func() sim.Policy {
				c := NewConservative(false)
				c.Replan = r
				return c
			})
		})
	}
}

// cpuNow is the process's CPU time so far, user and system; the external
// test package's benchmarks read it as CPUNow.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lastCPU is the CPU time per operation of the latest benchStream.
var lastCPU time.Duration

// atOncePolicies are FCFS and the backfilling policies that the jobs
// submitted at once run through (conservative backfilling runs only with
// GANGSIM_BENCH_ALL=1: its plan holds a reservation for every queued job,
// placing one walks the plan, and each termination sweeps the queue; see
// README).
var atOncePolicies = []struct {
	name string
	mk   func() sim.Policy
}{
	{"fcfs", func() sim.Policy { return NewFCFS() }},
	{"easy", func() sim.Policy { return NewEASY(false) }},
	{"gs-easy", func() sim.Policy {
		cfg := DefaultGangConfig()
		cfg.Backfill = "easy"
		return NewGang(cfg, Env{Machine: model.FlatMachine(128)})
	}},
	{"conservative", func() sim.Policy { return NewConservative(false) }},
}

// BenchmarkAtOnce submits the synthetic stream's first 10^5 and 10^6 jobs
// all at time 0, so that the queue holds nearly all of them for the whole
// run, through FCFS and the backfilling policies: each policy's CPU per
// replay and its ratio to FCFS's on the same jobs, measured in the same run
// (x-fcfs). 10^7 jobs (FCFS and EASY; minutes, and a peak RSS near 9 GB)
// with GANGSIM_BENCH_10M=1, or BenchmarkAtOnce10M (make bench-pipe).
// Conservative backfilling runs with GANGSIM_BENCH_ALL=1, on 10^3 jobs.
func BenchmarkAtOnce(b *testing.B) {
	sizes := []int{100_000, 1_000_000}
	if os.Getenv("GANGSIM_BENCH_10M") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	if os.Getenv("GANGSIM_BENCH_ALL") == "1" {
		sizes = append([]int{1_000}, sizes...)
	}
	for _, n := range sizes {
		var fcfs time.Duration
		for _, pol := range atOncePolicies {
			switch {
			case pol.name == "conservative" && n != 1_000,
				pol.name != "conservative" && n == 1_000 && pol.name != "fcfs",
				n == 1_000_000 && pol.name != "fcfs" && pol.name != "easy":
				continue
			}
			b.Run(fmt.Sprintf("jobs=%d/%s", n, pol.name), func(b *testing.B) {
				benchStream(b, n, true, pol.mk)
				reportCPU(b, lastCPU, &fcfs, pol.name == "fcfs")
			})
		}
	}
}

// reportCPU reports cpu, a replay's CPU time, and its ratio to the FCFS
// replay's of the same input, *fcfs, which it sets when this is FCFS's.
func reportCPU(b *testing.B, cpu time.Duration, fcfs *time.Duration, isFCFS bool) {
	b.ReportMetric(cpu.Seconds(), "cpu-s/op")
	switch {
	case isFCFS:
		*fcfs = cpu
	case *fcfs > 0:
		b.ReportMetric(float64(cpu)/float64(*fcfs), "x-fcfs")
	}
}

// BenchmarkAtOnce10M is BenchmarkAtOnce with 10^7 jobs, through FCFS and
// EASY: the engine holds every job from the start (a peak RSS near 9 GB),
// and the pair takes minutes, so it runs with make bench-pipe, not make
// bench.
func BenchmarkAtOnce10M(b *testing.B) {
	var fcfs time.Duration
	for _, pol := range atOncePolicies[:2] {
		b.Run(pol.name, func(b *testing.B) {
			benchStream(b, 1_000_000, true, pol.mk)
			reportCPU(b, lastCPU, &fcfs, pol.name == "fcfs")
		})
	}
}

// BenchmarkEASYStream10M streams 10 million jobs through EASY and reports
// the peak Go heap in use (target: the whole process under 256 MB RSS; the
// replay command's benchmark measures RSS end to end).
func BenchmarkEASYStream10M(b *testing.B) {
	if testing.Short() {
		b.Skip("10M-job stream skipped in -short mode")
	}
	for i := 0; i < b.N; i++ {
		var peak uint64
		probe := &heapProbe{peak: &peak}
		e := sim.New(sim.Config{Machine: model.FlatMachine(128)}, NewEASY(false))
		if err := e.Run(newSynthetic(1_000_000, 128, 1), probe, nil); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	}
}

// heapProbe samples the heap every 100,000 outcomes.
type heapProbe struct {
	n    int
	peak *uint64
}

func (h *heapProbe) Write(*model.Outcome) error {
	h.n++
	if h.n%100_000 == 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		*h.peak = max(*h.peak, ms.HeapInuse)
	}
	return nil
}
func (h *heapProbe) Close() error { return nil }
