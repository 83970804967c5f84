package lublin

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestSpendTruncates checks the arrival arithmetic on hand-made weights: the
// model's clock keeps fractions, the submit time truncates each increment,
// as the reference program's unsigned long time_from_begin does.
func TestSpendTruncates(t *testing.T) {
	c := newClass(CombinedParams(), -1, 128, 0)
	for b := range c.weights {
		c.weights[b] = 1
	}
	c.weights[0] = 2 // bucket 0 needs twice the points

	// 100.7 s worth of points in bucket 0, weight 2: 50.35 s on the clock.
	c.spend(math.Log(100.7))
	if c.next != 50 || c.bucket != 0 {
		t.Fatalf("after 1st arrival: next %d s, bucket %d; want 50 s, bucket 0", c.next, c.bucket)
	}
	// Another 50.35 s: the clock reads 100.7 s, the submit time
	// 50 + floor(50.35) = 100 s, not round(100.7) = 101 s.
	c.spend(math.Log(100.7))
	if c.next != 100 {
		t.Fatalf("after 2nd arrival: next %d s, want 100 s", c.next)
	}
	// Points to the end of bucket 0 (2*1800 - 201.4 s worth) plus 900 s
	// in bucket 1 (weight 1): the clock reads 1800+900 = 2700 s; the
	// increment 2599.3 s truncates to 2599 s.
	c.spend(math.Log(2*1800 - 201.4 + 900))
	if c.next != 2699 || c.bucket != 1 {
		t.Fatalf("after 3rd arrival: next %d s, bucket %d; want 2699 s, bucket 1", c.next, c.bucket)
	}
}

// TestGammaSampler checks the Marsaglia-Tsang sampler against gonum's gamma
// CDF for the shapes the model uses and a shape below 1, with a KS test at
// the 0.01% level (critical value 2.226/sqrt(n)).
func TestGammaSampler(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 50000
	for _, sc := range [][2]float64{{6.57, 0.823}, {639.1, 0.0156}, {10.46, 0.4871}, {0.35, 2}, {1, 1}} {
		g := newGamma(sc[0], sc[1])
		ref := distuv.Gamma{Alpha: sc[0], Beta: 1 / sc[1]}
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = g.rand(r)
		}
		d := 0.0
		slices.Sort(xs)
		for i, x := range xs {
			f := ref.CDF(x)
			d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
		}
		if crit := 2.226 / math.Sqrt(n); d > crit {
			t.Errorf("gamma(%v, %v): KS D = %.5f > %.5f", sc[0], sc[1], d, crit)
		}
	}
}
