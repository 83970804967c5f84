package lublin_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/lublin"
)

// TestRuntimes checks that the runtime distribution alone is
// deterministic, stays within the model's bounds, ignores the size and
// arrival parameters, and gives the runtimes the generator gives its jobs
// of the same size: over 20,000 runtimes of serial jobs, the lower
// quartile and the median within 5% of those of a generator whose jobs are
// all serial, and the share above 1000 s (the second, longer gamma
// component's; the distribution is bimodal, so its upper quartile falls
// between the modes and moves with that share) within 4 standard errors;
// and 32-processor jobs longer (the first, shorter component is less
// likely for larger jobs: PA < 0).
func TestRuntimes(t *testing.T) {
	p := lublin.CombinedParams()
	a := lublin.NewRuntimes(p, rand.New(rand.NewPCG(3, 4)))
	b := lublin.NewRuntimes(lublin.Params{A1: p.A1, B1: p.B1, A2: p.A2, B2: p.B2, PA: p.PA, PB: p.PB}, rand.New(rand.NewPCG(3, 4)))
	const n = 20000
	var alone, wide []float64
	for i := range n {
		x, y := a.Next(1), b.Next(1)
		if x != y {
			t.Fatalf("runtime %d: %v and %v from the same seed and runtime parameters", i, x, y)
		}
		if x < model.Second || x > lublin.MaxRuntimeSeconds*model.Second {
			t.Fatalf("runtime %d: %v outside [1 s, %d s]", i, x, lublin.MaxRuntimeSeconds)
		}
		alone = append(alone, x.Seconds())
	}
	for range n {
		wide = append(wide, a.Next(32).Seconds())
	}
	serial := p
	serial.SerialProb, serial.Pow2Prob = 1, 0
	g := lublin.New(lublin.Config{Mix: lublin.Combined, Combined: serial, Jobs: n}, rand.New(rand.NewPCG(7, 8)))
	var gen []float64
	for j := range g.Jobs() {
		gen = append(gen, j.Runtime.Seconds())
	}
	for _, xs := range [][]float64{alone, wide, gen} {
		slices.Sort(xs)
	}
	for _, q := range []int{n / 4, n / 2} {
		t.Logf("quantile %d/%d: %.0f s alone, %.0f s in the generator, %.0f s for 32 processors", q, n, alone[q], gen[q], wide[q])
		if r := alone[q] / gen[q]; r < 0.95 || r > 1.05 {
			t.Errorf("quantile %d/%d: %.0f s alone, %.0f s in the generator (ratio %.3f)", q, n, alone[q], gen[q], r)
		}
	}
	long := func(xs []float64) float64 {
		k, _ := slices.BinarySearch(xs, 1000)
		return float64(len(xs)-k) / float64(len(xs))
	}
	pa, pg := long(alone), long(gen)
	if se := math.Sqrt(pg * (1 - pg) * 2 / n); math.Abs(pa-pg) > 4*se {
		t.Errorf("share above 1000 s: %.4f alone, %.4f in the generator (4 standard errors %.4f)", pa, pg, 4*se)
	}
	if wide[n/2] <= alone[n/2] {
		t.Errorf("median runtime %.0f s for 32 processors, %.0f s for 1: want longer", wide[n/2], alone[n/2])
	}
}
