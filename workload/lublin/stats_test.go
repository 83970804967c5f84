package lublin_test

// Statistical tests of the generator against the published parameters.
//
// Every expected distribution here is derived from the parameters by the
// test itself (two-stage uniform CDF, gamma CDFs from gonum's distuv), not
// taken from the generator. Samples are large (200,000 jobs) and seeded, so
// the tests are deterministic; their tolerances are what the sampling error
// allows, set so that the whole file (about 70 KS tests, 22 fractions and 3
// daily cycles) fails by chance with a probability near 1% when a change
// reshuffles the random draws:
//
//   - a fraction p estimated from n jobs must lie within 4 standard errors
//     sqrt(p(1-p)/n) of its expected value (two-sided false alarm 6e-5);
//   - a Kolmogorov-Smirnov distance D between n draws and a distribution
//     must stay below 2.226/sqrt(n), the asymptotic critical value at the
//     0.01% level (the 1% value, 1.628/sqrt(n), is logged for reference).
//     For integer-valued data (sizes, whole seconds) D is computed exactly
//     against the discrete CDF that the model implies, and the continuous
//     critical value is conservative;
//   - the shares of arrivals per half hour must deviate from the daily cycle
//     by an RMS below 1.6 standard errors, estimated from 20 blocks, and
//     none by more than 7.

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/lublin"
)

const bigSample = 200000

// ksCritical is the asymptotic critical value at the 0.01% level of the
// one-sample Kolmogorov-Smirnov distance for n draws: P(sqrt(n) D > 2.226)
// = 2 exp(-2 * 2.226^2) = 1e-4.
func ksCritical(n int) float64 { return 2.226 / math.Sqrt(float64(n)) }

// ks1Percent is the asymptotic 1% critical value, logged for reference.
func ks1Percent(n int) float64 { return 1.628 / math.Sqrt(float64(n)) }

// checkKS fails when d exceeds the critical value for n draws and logs it
// otherwise.
func checkKS(t *testing.T, what string, d float64, n int) {
	t.Helper()
	if crit := ksCritical(n); d > crit {
		t.Errorf("%s: KS D = %.5f > %.5f (0.01%%, n = %d)", what, d, crit, n)
	} else {
		t.Logf("%s: KS D = %.5f (critical %.5f at 0.01%%, %.5f at 1%%; n = %d)", what, d, crit, ks1Percent(n), n)
	}
}

func generate(t testing.TB, cfg lublin.Config, seed uint64) []model.Job {
	t.Helper()
	return lublin.Generate(cfg, rand.New(rand.NewPCG(seed, 0x1ab1))).Jobs
}

// tsuCDF is the CDF of the two-stage uniform distribution of log2(size).
func tsuCDF(p lublin.Params, x float64) float64 {
	uniform := func(lo, hi float64) float64 {
		if hi == lo {
			if x >= lo {
				return 1
			}
			return 0
		}
		return math.Min(math.Max((x-lo)/(hi-lo), 0), 1)
	}
	return p.UProb*uniform(p.ULow, p.UMed) + (1-p.UProb)*uniform(p.UMed, p.UHi)
}

// sizeCDF is P(size <= k), k >= 1, for a machine whose size is a power of
// two: serial jobs, power-of-two jobs 2^round(U) and other jobs round(2^U),
// U two-stage uniform, with halves rounded up.
func sizeCDF(p lublin.Params, k int) float64 {
	floorLog2 := float64(bits.Len(uint(k)) - 1)
	other := 1 - p.SerialProb - p.Pow2Prob
	return p.SerialProb + p.Pow2Prob*tsuCDF(p, floorLog2+0.5) + other*tsuCDF(p, math.Log2(float64(k)+0.5))
}

func sizePMF(p lublin.Params, k int) float64 {
	if k == 1 {
		return sizeCDF(p, 1)
	}
	return sizeCDF(p, k) - sizeCDF(p, k-1)
}

// hyperGamma is the distribution of ln(runtime) of one class.
type hyperGamma struct {
	g1, g2 distuv.Gamma
	pa, pb float64
	cache  map[int64][2]float64 // component CDFs at ln(t+1) by t
}

func newHyperGamma(p lublin.Params) *hyperGamma {
	// distuv.Gamma's Beta is a rate; the model's B is a scale.
	return &hyperGamma{
		g1: distuv.Gamma{Alpha: p.A1, Beta: 1 / p.B1},
		g2: distuv.Gamma{Alpha: p.A2, Beta: 1 / p.B2},
		pa: p.PA, pb: p.PB,
		cache: map[int64][2]float64{},
	}
}

func (h *hyperGamma) p(size int) float64 {
	return math.Min(math.Max(h.pa*float64(size)+h.pb, 0), 1)
}

// components returns the two gamma CDFs at min(ln(t+1), MaxLnRuntime).
func (h *hyperGamma) components(t int64) (float64, float64) {
	if c, ok := h.cache[t]; ok {
		return c[0], c[1]
	}
	x := math.Min(math.Log(float64(t)+1), lublin.MaxLnRuntime)
	c := [2]float64{h.g1.CDF(x), h.g2.CDF(x)}
	h.cache[t] = c
	return c[0], c[1]
}

// ksRuntimes returns the KS distance between the runtimes (whole seconds) of
// jobs and the model: a runtime r = floor(exp(H)), H hyper-gamma with
// p = PA*size+PB truncated to H <= 12, so P(r <= t) = P(H < ln(t+1) | H <= 12).
// Each job's own size sets its mixture; the expected CDF of the group is the
// average of the jobs' CDFs.
func ksRuntimes(h *hyperGamma, jobs []model.Job) float64 {
	bySize := map[int]int{}
	rts := make([]int64, len(jobs))
	for i, j := range jobs {
		bySize[j.AllocProcs]++
		rts[i] = j.Runtime.WholeSeconds()
	}
	m := float64(len(jobs))
	c1, c2 := h.g1.CDF(lublin.MaxLnRuntime), h.g2.CDF(lublin.MaxLnRuntime)
	var alpha, beta float64 // weights of the two components' CDFs
	for n, count := range bySize {
		p := h.p(n)
		z := p*c1 + (1-p)*c2
		alpha += float64(count) / m * p / z
		beta += float64(count) / m * (1 - p) / z
	}
	cdf := func(t int64) float64 {
		if t < 0 {
			return 0
		}
		f1, f2 := h.components(t)
		return alpha*f1 + beta*f2
	}
	return ksIntegers(rts, cdf)
}

// ksIntegers is the KS distance between integer data and a CDF of an
// integer-valued variable: the supremum over integers t of |Fn(t) - F(t)|,
// found at each observed value and just before it.
func ksIntegers(xs []int64, cdf func(int64) float64) float64 {
	slices.Sort(xs)
	n := float64(len(xs))
	d := 0.0
	below := 0.0 // Fn just before the current value
	for i := 0; i < len(xs); {
		v := xs[i]
		for i < len(xs) && xs[i] == v {
			i++
		}
		d = math.Max(d, math.Abs(below-cdf(v-1)))
		below = float64(i) / n
		d = math.Max(d, math.Abs(below-cdf(v)))
	}
	return d
}

// fraction checks an observed fraction k/n against its expected value p
// within 4 standard errors.
func fraction(t *testing.T, what string, k, n int, p float64) {
	t.Helper()
	got := float64(k) / float64(n)
	se := math.Sqrt(p * (1 - p) / float64(n))
	if math.Abs(got-p) > 4*se {
		t.Errorf("%s: %.5f of %d, want %.5f ± %.5f (4 standard errors)", what, got, n, p, 4*se)
	} else {
		t.Logf("%s: %.5f of %d, want %.5f ± %.5f", what, got, n, p, 4*se)
	}
}

// classJobs splits jobs by class: the queue number when the mix has one,
// else all jobs under the class's name.
func classJobs(cfg lublin.Config, jobs []model.Job) map[string][]model.Job {
	out := map[string][]model.Job{}
	for _, cl := range cfg.Classes() {
		for _, j := range jobs {
			if cl.Queue < 0 || j.Queue == cl.Queue {
				out[cl.Name] = append(out[cl.Name], j)
			}
		}
	}
	return out
}

var distributionCases = []struct {
	name string
	cfg  lublin.Config
	seed uint64
	long bool // skipped under -short
}{
	{"combined/128", lublin.Config{Mix: lublin.Combined}, 1, false},
	{"both/128", lublin.Config{}, 2, false},
	{"batch/128", lublin.Config{Mix: lublin.BatchOnly}, 3, true},
	{"interactive/128", lublin.Config{Mix: lublin.InteractiveOnly}, 4, true},
	{"combined/32", lublin.Config{Mix: lublin.Combined, Procs: 32}, 5, false},
	{"both/32", lublin.Config{Procs: 32}, 6, true},
	{"combined/1024", lublin.Config{Mix: lublin.Combined, Procs: 1024}, 7, false},
	{"both/1024", lublin.Config{Procs: 1024}, 8, true},
}

// TestDistributions checks, per class, on 200,000 jobs:
//
//   - the serial fraction and the power-of-two fraction among parallel jobs
//     (within 4 standard errors);
//   - the distribution of sizes, log2(size) two-stage uniform and then
//     rounded, with a KS test against the discrete CDF it implies;
//   - runtimes within [1, MaxRuntimeSeconds], that is ln(runtime) <= 12;
//   - ln(runtime) against the hyper-gamma, within bands of sizes (the
//     mixing probability depends on the size), with a KS test.
func TestDistributions(t *testing.T) {
	for _, tc := range distributionCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("large sample skipped in -short mode")
			}
			t.Parallel()
			cfg := tc.cfg
			cfg.Jobs = bigSample
			groups := classJobs(cfg, generate(t, cfg, tc.seed))
			for _, cl := range cfg.Classes() {
				checkSizes(t, cfg, cl, groups[cl.Name])
				checkRuntimes(t, cl, groups[cl.Name])
			}
		})
	}
}

func checkSizes(t *testing.T, cfg lublin.Config, cl lublin.Class, jobs []model.Job) {
	procs := cfg.Procs
	if procs == 0 {
		procs = lublin.RefProcs
	}
	p := cl.Params
	serial, parallel, pow2 := 0, 0, 0
	sizes := make([]int64, len(jobs))
	for i, j := range jobs {
		n := j.AllocProcs
		sizes[i] = int64(n)
		switch {
		case n < 1 || n > procs:
			t.Fatalf("%s job %d has %d processors on a machine of %d", cl.Name, j.ID, n, procs)
		case n == 1:
			serial++
		default:
			parallel++
			if n&(n-1) == 0 {
				pow2++
			}
		}
	}
	fraction(t, cl.Name+" serial fraction", serial, len(jobs), sizePMF(p, 1))
	wantPow2 := 0.0
	for k := 2; k <= procs; k *= 2 {
		wantPow2 += sizePMF(p, k)
	}
	fraction(t, cl.Name+" power-of-two fraction of parallel jobs", pow2, parallel, wantPow2/(1-sizePMF(p, 1)))
	d := ksIntegers(sizes, func(k int64) float64 {
		if k < 1 {
			return 0
		}
		return sizeCDF(p, int(min(k, int64(procs))))
	})
	checkKS(t, cl.Name+" sizes", d, len(jobs))
}

// runtimeBands are the bands of sizes within which ln(runtime) is tested;
// above 144 processors the combined class's mixing probability is clamped
// to 0.
var runtimeBands = [][2]int{{1, 1}, {2, 4}, {5, 16}, {17, 144}, {145, 1 << 20}}

func checkRuntimes(t *testing.T, cl lublin.Class, all []model.Job) {
	h := newHyperGamma(cl.Params)
	for _, j := range all {
		if rt := j.Runtime.WholeSeconds(); rt < 1 || rt > lublin.MaxRuntimeSeconds {
			t.Fatalf("%s job %d runs %d s, outside [1, %d]", cl.Name, j.ID, rt, lublin.MaxRuntimeSeconds)
		}
	}
	for _, band := range runtimeBands {
		var jobs []model.Job
		for _, j := range all {
			if j.AllocProcs >= band[0] && j.AllocProcs <= band[1] {
				jobs = append(jobs, j)
			}
		}
		if len(jobs) < 1000 {
			continue // too few for a meaningful test
		}
		checkKS(t, fmt.Sprintf("%s, sizes %d-%d: ln(runtime)", cl.Name, band[0], band[1]), ksRuntimes(h, jobs), len(jobs))
	}
}

// dailyWeights computes the bucket weights from the description of the
// reference program: bucket b (b = 0 at 00:00) gets the mass of
// gamma(ANum, BNum) on [x-0.5, x+0.5], x = b+1 from bucket 10 (05:00) on and
// b+49 before it, normalized to mean 1.
func dailyWeights(p lublin.Params) []float64 {
	g := distuv.Gamma{Alpha: p.ANum, Beta: 1 / p.BNum}
	w := make([]float64, 48)
	sum := 0.0
	for b := range w {
		x := float64(b + 1)
		if b < 10 {
			x += 48
		}
		w[b] = g.CDF(x+0.5) - g.CDF(x-0.5)
		sum += w[b]
	}
	for b := range w {
		w[b] *= 48 / sum
	}
	return w
}

// warp maps a time in seconds to the points the arrival process spends to
// reach it: bucket after bucket from the start bucket, weight w per bucket.
type warp struct {
	start  int       // bucket at time 0
	prefix []float64 // prefix[k]: points of the first k buckets from start, k <= 48
}

func newWarp(w []float64, startHour int) warp {
	wp := warp{start: startHour * 2, prefix: make([]float64, 49)}
	for k := 0; k < 48; k++ {
		wp.prefix[k+1] = wp.prefix[k] + w[(wp.start+k)%48]
	}
	return wp
}

func (wp warp) points(x float64, w []float64) float64 {
	full := math.Floor(x / 1800)
	days := math.Floor(full / 48)
	k := int(full - 48*days)
	return days*wp.prefix[48] + wp.prefix[k] + (x/1800-full)*w[(wp.start+k)%48]
}

// modelClock returns the arrival times of one class on the model's own
// clock. The generator, like the reference program, truncates every
// inter-arrival increment d to whole seconds, floor(d), so the k-th arrival
// of a class lags the model's clock by the sum of k fractional parts, about
// k/2 seconds. modelClock undoes the truncation statistically by adding an
// independent uniform in [0, 1) to every increment: floor(d)+V has nearly the
// distribution of d (exactly, where d's density is constant over the second),
// and the accumulated error is a random walk of a few tens of seconds.
func modelClock(jobs []model.Job, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0xd1))
	xs := make([]float64, len(jobs))
	x, prev := 0.0, int64(0)
	for k, j := range jobs {
		s := j.Submit.WholeSeconds()
		x += float64(s-prev) + r.Float64()
		prev = s
		xs[k] = x
	}
	return xs
}

// TestInterarrivalDistribution maps each class's arrivals through the daily
// cycle (time -> points, with weights computed here from ANum, BNum and the
// program's bucket layout) and checks the logarithm of the points between
// arrivals against gamma(AArr*ARAR, BArr) truncated at 13 with a KS test.
// This checks the inter-arrival distribution and, since a wrong weight in
// any bucket distorts the intervals that fall in it, the daily cycle's shape
// and phase. It also checks the rejection bound ln(inter-arrival) <= 13.
//
// The sample is 10 independent streams of 20,000 jobs, short enough that
// modelClock's accumulated error stays small.
func TestInterarrivalDistribution(t *testing.T) {
	cases := []struct {
		name string
		cfg  lublin.Config
	}{
		{"combined", lublin.Config{Mix: lublin.Combined}},
		{"both", lublin.Config{}},
		{"combined/start-8h", lublin.Config{Mix: lublin.Combined, StartHour: 8}},
		{"interactive/start-17h", lublin.Config{Mix: lublin.InteractiveOnly, StartHour: 17}},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Jobs = 20000
			logs := map[string][]float64{}
			for s := uint64(0); s < 10; s++ {
				groups := classJobs(cfg, generate(t, cfg, 100*uint64(ci)+s))
				for _, cl := range cfg.Classes() {
					w := dailyWeights(cl.Params)
					wp := newWarp(w, cfg.StartHour)
					prev := 0.0
					for _, x := range modelClock(groups[cl.Name], s) {
						pt := wp.points(x, w)
						logs[cl.Name] = append(logs[cl.Name], math.Log(1800*(pt-prev)))
						prev = pt
					}
				}
			}
			for _, cl := range cfg.Classes() {
				xs := logs[cl.Name]
				sort.Float64s(xs)
				if maxLn := xs[len(xs)-1]; maxLn > lublin.MaxLnInterarrival+0.01 {
					t.Errorf("%s: ln(inter-arrival) reaches %.4f, above the bound %d", cl.Name, maxLn, lublin.MaxLnInterarrival)
				}
				g := distuv.Gamma{Alpha: cl.Params.AArr * cl.Params.ARAR, Beta: 1 / cl.Params.BArr}
				z := g.CDF(lublin.MaxLnInterarrival)
				d := ksContinuous(xs, func(x float64) float64 { return math.Min(g.CDF(x)/z, 1) })
				checkKS(t, cl.Name+": ln(inter-arrival)", d, len(xs))
			}
		})
	}
}

// ksContinuous is the KS distance between sorted data and a continuous CDF.
func ksContinuous(sorted []float64, cdf func(float64) float64) float64 {
	n := float64(len(sorted))
	d := 0.0
	for i, x := range sorted {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	return d
}

// TestDailyCycle counts arrivals per half hour of the day over a long trace
// and compares each bucket's share with its expected share w_b/48. Arrivals
// come in bursts, so the counts are overdispersed; the standard error of
// each share is estimated from 20 consecutive blocks of the trace, which
// makes z = (share - w_b/48)/SE a t statistic with 19 degrees of freedom
// (standard deviation 1.05; 1.07 measured over 30 seeds, with the largest
// |z| of a trace 2.7 in the median). The root mean square of the 48 z must
// stay below 1.6 and each |z| below 7 (the blocks' shares have heavy tails,
// so a single |z| above 6 happens by chance in about one trace in ten
// thousand). Shifting the cycle by a single half hour gives an RMS of 3-4
// and |z| up to 9-12.
func TestDailyCycle(t *testing.T) {
	cases := []struct {
		name string
		cfg  lublin.Config
		long bool
	}{
		{"combined", lublin.Config{Mix: lublin.Combined}, false},
		{"interactive/start-8h", lublin.Config{Mix: lublin.InteractiveOnly, StartHour: 8}, true},
		{"batch", lublin.Config{Mix: lublin.BatchOnly}, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("large sample skipped in -short mode")
			}
			cfg := tc.cfg
			cfg.Jobs = bigSample
			cl := cfg.Classes()[0]
			xs := modelClock(generate(t, cfg, 300+uint64(ci)), 1)
			const blocks = 20
			per := len(xs) / blocks
			var share [blocks][48]float64
			var total [48]float64
			for i, x := range xs[:blocks*per] {
				b := (cfg.StartHour*2 + int(math.Floor(x/1800))) % 48
				share[i/per][b] += 1 / float64(per)
				total[b] += 1 / float64(blocks*per)
			}
			w := dailyWeights(cl.Params)
			worst, sumSq := 0.0, 0.0
			for b := range 48 {
				mean, ss := 0.0, 0.0
				for k := range blocks {
					mean += share[k][b] / blocks
				}
				for k := range blocks {
					ss += (share[k][b] - mean) * (share[k][b] - mean)
				}
				se := math.Sqrt(ss / (blocks - 1) / blocks)
				z := (total[b] - w[b]/48) / se
				worst = math.Max(worst, math.Abs(z))
				sumSq += z * z
				if math.Abs(z) > 7 {
					t.Errorf("%s bucket %02d:%02d: share %.5f, want %.5f (standard error %.5f, z = %.1f)",
						cl.Name, b/2, 30*(b%2), total[b], w[b]/48, se, z)
				}
			}
			rms := math.Sqrt(sumSq / 48)
			if rms > 1.6 {
				t.Errorf("%s: shares deviate from the daily cycle by an RMS of %.2f standard errors", cl.Name, rms)
			}
			t.Logf("%s: largest |z| over 48 buckets = %.2f, RMS %.2f", cl.Name, worst, rms)
		})
	}
}

// TestMachineScaling checks how sizes follow the machine (Params.ForProcs):
// never above the bound that the scaled UHi implies, reaching the machine
// size when the class's UHi is log2(P) and the top sizes are likely enough,
// and, on a machine that is not a power of two, power-of-two sizes within the
// largest power of two below it. The size distributions on 32 and 1024
// processors are checked in full by TestSizeDistribution.
func TestMachineScaling(t *testing.T) {
	cases := []struct {
		procs int
		mix   lublin.Mix
		bound int  // the largest size the configuration can produce
		reach bool // whether 50,000 jobs surely reach it
	}{
		{32, lublin.Combined, 32, true},
		{1024, lublin.Combined, 1024, true},
		{32, lublin.BatchOnly, 32, true},
		{1024, lublin.BatchOnly, 1024, true},
		{32, lublin.InteractiveOnly, 11, true},     // UHi = 5-1.5: round(2^3.5) = 11
		{1024, lublin.InteractiveOnly, 362, false}, // UHi = 10-1.5: round(2^8.5) = 362
		{4096, lublin.BatchAndInteractive, 4096, true},
		{100, lublin.Combined, 100, false}, // not a power of two
		{6, lublin.BatchAndInteractive, 6, false},
		{1, lublin.BatchAndInteractive, 1, true}, // every job serial
	}
	for _, tc := range cases {
		cfg := lublin.Config{Procs: tc.procs, Mix: tc.mix, Jobs: 50000}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("P=%d %v: %v", tc.procs, tc.mix, err)
		}
		largest, largestPow2 := 0, 0
		for _, j := range generate(t, cfg, uint64(tc.procs)) {
			n := j.AllocProcs
			largest = max(largest, n)
			if n&(n-1) == 0 {
				largestPow2 = max(largestPow2, n)
			}
		}
		if largest > tc.bound || tc.reach && largest != tc.bound {
			t.Errorf("P=%d %v: largest job has %d processors, want %d", tc.procs, tc.mix, largest, tc.bound)
		}
		if limit := 1 << (bits.Len(uint(tc.bound)) - 1); largestPow2 > limit {
			t.Errorf("P=%d %v: power-of-two size %d above %d", tc.procs, tc.mix, largestPow2, limit)
		}
		t.Logf("P=%d %v: largest size %d, largest power of two %d", tc.procs, tc.mix, largest, largestPow2)
	}
}
