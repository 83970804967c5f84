package lublin_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/workload/lublin"
)

// TestArrivals checks that the arrival process is deterministic, starts
// after time 0, never goes back, ignores the size and runtime parameters,
// and has the mean inter-arrival time of the generator's jobs of the same
// class (the generator interleaves size and runtime draws with the arrival
// draws, so single times differ).
func TestArrivals(t *testing.T) {
	p := lublin.CombinedParams()
	a := lublin.NewArrivals(p, 0, rand.New(rand.NewPCG(3, 4)))
	b := lublin.NewArrivals(p, 0, rand.New(rand.NewPCG(3, 4)))
	const n = 20000
	var last float64
	var gaps []float64
	for i := range n {
		x, y := a.Next(), b.Next()
		if x != y {
			t.Fatalf("arrival %d: %v and %v from the same seed", i, x, y)
		}
		if i == 0 && x <= 0 {
			t.Fatalf("first arrival at %v, want after time 0", x)
		}
		if s := x.Seconds(); s < last {
			t.Fatalf("arrival %d at %v s before the previous one at %v s", i, s, last)
		} else {
			gaps = append(gaps, s-last)
			last = s
		}
	}
	// The generator's combined class: median gaps within 5% of each other
	// (the gaps are heavy-tailed, up to days, so their means converge
	// slowly; the medians of 20,000 gaps agree to about 2%).
	g := lublin.New(lublin.Config{Mix: lublin.Combined, Jobs: n}, rand.New(rand.NewPCG(7, 8)))
	var genGaps []float64
	last = 0
	for j := range g.Jobs() {
		genGaps = append(genGaps, j.Submit.Seconds()-last)
		last = j.Submit.Seconds()
	}
	slices.Sort(gaps)
	slices.Sort(genGaps)
	r := gaps[n/2] / genGaps[n/2]
	t.Logf("median inter-arrival %.1f s alone, %.1f s in the generator", gaps[n/2], genGaps[n/2])
	if r < 0.95 || r > 1.05 {
		t.Errorf("median inter-arrival %.1f s alone, %.1f s in the generator: ratio %.3f", gaps[n/2], genGaps[n/2], r)
	}
	// Size and runtime parameters do not matter.
	only := lublin.Params{AArr: p.AArr, BArr: p.BArr, ARAR: p.ARAR, ANum: p.ANum, BNum: p.BNum}
	c := lublin.NewArrivals(only, 0, rand.New(rand.NewPCG(3, 4)))
	d := lublin.NewArrivals(p, 0, rand.New(rand.NewPCG(3, 4)))
	for range 100 {
		if c.Next() != d.Next() {
			t.Fatal("arrivals depend on the size or runtime parameters")
		}
	}
}
