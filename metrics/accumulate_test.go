package metrics

import (
	"flag"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/gangsim/gangsim/model"
)

var accSeed = flag.Uint64("values-seed", 0, "seed of the randomized accumulator tests (0: several fixed seeds)")

// naiveDistribution is the reference: sort a copy, read the order
// statistics off it, and gonum's mean and standard deviation.
func naiveDistribution(x []float64) Distribution {
	s := slices.Clone(x)
	slices.Sort(s)
	d := Distribution{N: len(s), Mean: stat.Mean(s, nil), StdDev: math.NaN(), Min: s[0], Max: s[len(s)-1],
		P5: Quantile(0.05, s), P25: Quantile(0.25, s), Median: Quantile(0.5, s), P75: Quantile(0.75, s), P95: Quantile(0.95, s)}
	if len(s) > 1 {
		d.StdDev = stat.StdDev(s, nil)
	}
	return d
}

func relClose(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// TestValuesAgainstSortedCopy checks the chunked, streaming Values against
// the sorted-slice reference on samples that span several chunks, with
// many ties and zeros (waits), and on tiny ones: the quantiles, minimum
// and maximum must be identical, the mean and standard deviation equal to
// floating-point rounding.
func TestValuesAgainstSortedCopy(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if *accSeed != 0 {
		seeds = []uint64{*accSeed}
	}
	for _, seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 7))
		for _, n := range []int{1, 2, 3, 10, 1000, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 12345} {
			x := make([]float64, n)
			for i := range x {
				switch rng.IntN(4) {
				case 0:
					x[i] = 0 // jobs that did not wait
				case 1:
					x[i] = float64(rng.IntN(50)) // ties
				default:
					x[i] = math.Exp(rng.NormFloat64()*3) * 100 // heavy tail
				}
			}
			v := Values{Keep: true}
			for _, e := range x {
				v.Add(e)
			}
			got, want := v.Distribution(), naiveDistribution(x)
			if got.N != want.N || got.Min != want.Min || got.Max != want.Max || got.P5 != want.P5 || got.P25 != want.P25 ||
				got.Median != want.Median || got.P75 != want.P75 || got.P95 != want.P95 {
				t.Fatalf("seed %d, n %d: order statistics differ:\n got %+v\nwant %+v", seed, n, got, want)
			}
			if !relClose(got.Mean, want.Mean, 1e-12) {
				t.Errorf("seed %d, n %d: mean %v, want %v", seed, n, got.Mean, want.Mean)
			}
			if n > 1 && !relClose(got.StdDev, want.StdDev, 1e-9) {
				t.Errorf("seed %d, n %d: sd %v, want %v", seed, n, got.StdDev, want.StdDev)
			}
			if n == 1 && !math.IsNaN(got.StdDev) {
				t.Errorf("n 1: sd %v, want NaN", got.StdDev)
			}
			for _, p := range []float64{0, 0.01, 0.333, 0.5, 0.9, 0.999, 1} {
				s := slices.Clone(x)
				slices.Sort(s)
				if q, w := v.Quantile(p), Quantile(p, s); q != w {
					t.Fatalf("seed %d, n %d: quantile %v is %v, want %v", seed, n, p, q, w)
				}
			}
		}
	}
}

// TestValuesNotKept: without Keep, count, mean, minimum and maximum are
// those of the kept form, the rest NaN, and the memory is not spent.
func TestValuesNotKept(t *testing.T) {
	kept, lean := Values{Keep: true}, Values{}
	for i := range 100000 {
		v := float64(i%977) * 1.5
		kept.Add(v)
		lean.Add(v)
	}
	k, l := kept.Distribution(), lean.Distribution()
	if l.N != k.N || l.Mean != k.Mean || l.Min != k.Min || l.Max != k.Max {
		t.Errorf("lean %+v differs from kept %+v in N, mean, min or max", l, k)
	}
	if !math.IsNaN(l.Median) || !math.IsNaN(l.StdDev) || !math.IsNaN(l.P95) {
		t.Errorf("lean distribution has quantiles it cannot know: %+v", l)
	}
	if len(lean.chunks) != 0 {
		t.Errorf("lean values kept %d chunks", len(lean.chunks))
	}
}

// TestValuesEmpty: no values give N 0 and NaN everywhere else.
func TestValuesEmpty(t *testing.T) {
	d := (&Values{Keep: true}).Distribution()
	if d.N != 0 || !math.IsNaN(d.Mean) || !math.IsNaN(d.Min) || !math.IsNaN(d.Median) {
		t.Errorf("empty: %+v", d)
	}
}

// TestRunAccumulatorMatchesFunctions: streaming outcomes through a
// RunAccumulator gives the run metrics of the slice functions (Makespan,
// Utilization, Throughput) exactly, and the distributions of PerJob's
// slices.
func TestRunAccumulatorMatchesFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	var outs []model.Outcome
	for i := range 5000 {
		submit := model.Time(rng.IntN(1_000_000_000))
		start := submit + model.Time(rng.IntN(3)*rng.IntN(50_000_000))
		run := model.Time(rng.IntN(100_000_000))
		o := model.Outcome{JobID: int64(i + 1), Submit: submit, Start: start, End: start + run, Procs: 1 + rng.IntN(32),
			Runtime: run, Dedicated: run - run/4}
		if i%97 == 0 {
			o.Reason = model.RejectTooWide
		}
		outs = append(outs, o)
	}
	const procs, tau = 64, 10 * model.Second
	a := NewRunAccumulator(tau, AllJobMetrics()...)
	for i := range outs {
		a.Add(&outs[i])
	}
	got := a.Summary(procs)
	if got.Makespan != Makespan(outs) || got.Utilization != Utilization(outs, procs) || got.Throughput != Throughput(outs) {
		t.Errorf("run metrics %v %v %v, want %v %v %v", got.Makespan, got.Utilization, got.Throughput,
			Makespan(outs), Utilization(outs, procs), Throughput(outs))
	}
	m := PerJob(outs, tau)
	if got.Jobs != len(m.ID) || got.Rejected != len(outs)-len(m.ID) {
		t.Errorf("jobs %d rejected %d, want %d %d", got.Jobs, got.Rejected, len(m.ID), len(outs)-len(m.ID))
	}
	for _, c := range []struct {
		name string
		got  Distribution
		x    []float64
	}{{"wait", got.Wait, m.Wait}, {"response", got.Response, m.Response}, {"bsld", got.BoundedSlowdown, m.BoundedSlowdown},
		{"ts_bsld", got.TimeSharingBoundedSlowdown, m.TimeSharingBoundedSlowdown}} {
		want := naiveDistribution(c.x)
		if c.got.Median != want.Median || c.got.P95 != want.P95 || c.got.Min != want.Min || !relClose(c.got.Mean, want.Mean, 1e-12) {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, want)
		}
	}
}
