package lublin

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// Rejection bounds of the reference program.
const (
	// MaxLnRuntime bounds ln(runtime in seconds): a larger hyper-gamma draw
	// is redrawn, component choice included (m_lublin99.c, TOO_MUCH_TIME
	// 12, "no more than two days").
	MaxLnRuntime = 12

	// MaxLnInterarrival bounds ln(inter-arrival time in seconds) before the
	// daily cycle stretches it: a larger gamma draw is redrawn
	// (m_lublin99.c, TOO_MUCH_ARRIVE_TIME 13, "no more than 5 days").
	MaxLnInterarrival = 13

	// MaxRuntimeSeconds is the longest runtime the model produces, in
	// seconds: exp(MaxLnRuntime) truncated, as the reference program's
	// header line "MaxRuntime" gives it.
	MaxRuntimeSeconds = 162754
)

// gammaDist samples a gamma distribution with the method of Marsaglia and
// Tsang, "A simple method for generating gamma variables", ACM TOMS 26(3),
// 2000. The reference program uses another exact method (a sum of
// exponentials plus Johnk's beta method, after Jain 1991); both draw from
// the same distribution, and this one costs O(1) for any shape (batch jobs
// have a shape of 639.1).
type gammaDist struct {
	d, c  float64 // shape-1/3 and 1/sqrt(9d), for the boosted shape when shape < 1
	scale float64
	boost float64 // 1/shape when shape < 1, else 0
}

func newGamma(shape, scale float64) gammaDist {
	g := gammaDist{scale: scale}
	if shape < 1 {
		// Gamma(a) = Gamma(a+1) * U^(1/a).
		g.boost = 1 / shape
		shape++
	}
	g.d = shape - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	return g
}

func (g *gammaDist) rand(r *rand.Rand) float64 {
	for {
		x := r.NormFloat64()
		v := 1 + g.c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+g.d*(1-v+math.Log(v)) {
			y := g.d * v * g.scale
			if g.boost != 0 {
				y *= math.Pow(r.Float64(), g.boost)
			}
			return y
		}
	}
}

// class is one arrival stream of the model (batch, interactive or the
// single combined class) with its parameters and arrival state.
type class struct {
	p     Params // scaled to the machine
	queue int    // SWF queue number of its jobs, or -1 for none
	procs int    // machine size, processors

	run1, run2  gammaDist // components of the hyper-gamma of ln(runtime)
	arr         gammaDist // ln(inter-arrival in seconds), before the daily cycle
	weights     [Buckets]float64
	startBucket int // bucket of time 0

	// Arrival state, as the reference program's globals and statics
	// (time_from_begin, current, points, reminder).
	next     uint64  // next arrival, whole seconds from the start
	bucket   int     // bucket of the model's clock
	points   float64 // points not yet spent in bucket
	reminder float64 // fraction of bucket already elapsed at the last arrival
}

func newClass(p Params, queue, procs, startHour int) *class {
	return &class{
		p:           p,
		queue:       queue,
		procs:       procs,
		run1:        newGamma(p.A1, p.B1),
		run2:        newGamma(p.A2, p.B2),
		arr:         newGamma(p.AArr*p.ARAR, p.BArr),
		weights:     p.DailyWeights(),
		bucket:      startHour * Buckets / 24,
		startBucket: startHour * Buckets / 24,
	}
}

// restart sets the arrival state back to where newClass puts it: time 0,
// at the start hour's bucket.
func (c *class) restart() {
	c.next, c.points, c.reminder, c.bucket = 0, 0, 0, c.startBucket
}

// advance moves next to the class's following arrival (m_lublin99.c,
// calc_next_arrive). A gamma draw g (redrawn while above MaxLnInterarrival)
// buys exp(g)/BucketSeconds points; crossing bucket b costs weights[b] points
// and BucketSeconds seconds, so arrivals are denser where the weight is high.
// The leftover points place the arrival inside its bucket.
//
// As in the program, the increment is computed in floating point and added
// to an integer count of seconds, which truncates it: submit times are whole
// seconds, and they fall behind the model's own clock (which keeps the
// fraction) by about half a second per arrival of the class.
func (c *class) advance(r *rand.Rand) {
	var g float64
	for {
		g = c.arr.rand(r)
		if g <= MaxLnInterarrival {
			break
		}
	}
	c.spend(g)
}

// spend moves the arrival state on by the ln(inter-arrival) draw g.
func (c *class) spend(g float64) {
	c.points += math.Exp(g) / BucketSeconds
	dt := 0.0
	b := c.bucket
	for c.points > c.weights[b] {
		c.points -= c.weights[b]
		b++
		if b == Buckets {
			b = 0
		}
		dt += BucketSeconds
	}
	rem := c.points / c.weights[b]
	dt += BucketSeconds * (rem - c.reminder)
	c.reminder = rem
	c.bucket = b
	c.next = uint64(float64(c.next) + dt)
}

// size draws a job size in processors (m_lublin99.c, calc_number_of_nodes).
// One uniform u decides: u <= SerialProb gives 1; otherwise x is drawn from
// the two-stage uniform and, when u <= SerialProb+Pow2Prob, rounded to an
// integer; the size is 2^x rounded to the nearest integer (halves up).
//
// Where the program would exceed the machine (only on a machine whose size
// is not a power of two, where a rounded x can pass log2(procs)), a
// power-of-two size becomes the largest power of two within the machine and
// any other size becomes procs.
func (c *class) size(r *rand.Rand) int {
	u := r.Float64()
	if u <= c.p.SerialProb {
		return 1
	}
	branch := r.Float64()
	return c.sizeFrom(u, branch, r.Float64())
}

// sizeFrom is the size of a job that is not serial, given the three uniform
// draws of the program in its order: u decides power of two or not, branch
// the interval of the two-stage uniform, at the position within it.
func (c *class) sizeFrom(u, branch, at float64) int {
	p := &c.p
	lo, hi := p.ULow, p.UMed
	if branch > p.UProb {
		lo, hi = p.UMed, p.UHi
	}
	x := lo + at*(hi-lo)
	pow2 := u <= p.SerialProb+p.Pow2Prob
	if pow2 {
		x = math.Floor(x + 0.5)
	}
	n := int(math.Floor(math.Exp2(x) + 0.5))
	if n > c.procs {
		if pow2 {
			n = 1 << (bits.Len(uint(c.procs)) - 1)
		} else {
			n = c.procs
		}
	}
	return n
}

// runtime draws the runtime in whole seconds of a job of n processors
// (m_lublin99.c, time_from_nodes and hyper_gamma): ln(runtime) is the first
// gamma with probability p = PA*n + PB clamped to [0, 1], else the second;
// draws above MaxLnRuntime are redrawn from the start; the runtime is
// exp(ln(runtime)) truncated to whole seconds.
func (c *class) runtime(r *rand.Rand, n int) uint64 {
	p := c.p.PA*float64(n) + c.p.PB
	p = math.Min(math.Max(p, 0), 1)
	for {
		var h float64
		if r.Float64() <= p {
			h = c.run1.rand(r)
		} else {
			h = c.run2.rand(r)
		}
		if h <= MaxLnRuntime {
			return uint64(math.Exp(h))
		}
	}
}
