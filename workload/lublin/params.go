package lublin

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mathext"
)

// RefProcs is the machine size, in processors, that the published parameters
// describe: the reference program sets UHI = 7, "SYSTEM SIZE is 2^UHI ==
// 128" (m_lublin99.c, constants UHI and UHI_BATCH).
const RefProcs = 128

// Params are the parameters of one job class of the model: the size
// distribution (a serial probability, a power-of-two probability and a
// two-stage uniform distribution of log2(size)), the runtime distribution (a
// hyper-gamma distribution of ln(runtime)) and the arrival process (a gamma
// distribution of ln(inter-arrival time) modulated by a daily cycle).
//
// BatchParams, InteractiveParams and CombinedParams return the published
// values for a machine of RefProcs processors; ForProcs adapts them to
// another machine size.
type Params struct {
	// SerialProb is the probability that a job is serial (1 processor).
	SerialProb float64

	// Pow2Prob is the probability, among all jobs (not among parallel
	// jobs), that a job is parallel and its log2(size) is rounded to an
	// integer, which makes its size a power of two. A job is such a job
	// when a uniform draw u satisfies SerialProb < u <= SerialProb+Pow2Prob.
	Pow2Prob float64

	// ULow, UMed and UHi bound the two-stage uniform distribution of
	// log2(size) of parallel jobs, in log2 processors: uniform on
	// [ULow, UMed] with probability UProb, else uniform on [UMed, UHi]. UHi
	// is log2 of the largest job size.
	ULow, UMed, UHi float64

	// UProb is the probability of the lower interval [ULow, UMed].
	UProb float64

	// A1, B1, A2 and B2 are the shapes (A) and scales (B, in ln seconds) of
	// the two gamma components of the hyper-gamma distribution of
	// ln(runtime in seconds).
	A1, B1, A2, B2 float64

	// PA (per processor) and PB give the probability of the first gamma
	// component for a job of n processors: p = PA*n + PB, clamped to
	// [0, 1]. n is the number of processors itself, not its logarithm.
	PA, PB float64

	// AArr and BArr are the shape and the scale (in ln seconds) of the
	// gamma distribution of ln(inter-arrival time in seconds) fitted to the
	// rush hours.
	AArr, BArr float64

	// ARAR is the arrive-rush-to-all ratio: the generator draws
	// ln(inter-arrival) from a gamma of shape AArr*ARAR and scale BArr, which
	// spreads the rush-hour fit over the whole day.
	ARAR float64

	// ANum and BNum are the shape and the scale (in half-hour buckets) of
	// the gamma density that gives the relative number of arrivals in each
	// half hour of the day; see DailyWeights.
	ANum, BNum float64
}

// BatchParams returns the published parameters of batch jobs for a machine of
// RefProcs processors. Source: the reference program m_lublin99.c
// (Lublin & Feitelson, JPDC 63(11), 2003), constants *_BATCH.
func BatchParams() Params {
	return Params{
		// m_lublin99.c: SERIAL_PROB_BATCH 0.2927, POW2_PROB_BATCH 0.6686.
		SerialProb: 0.2927,
		Pow2Prob:   0.6686,
		// m_lublin99.c: ULOW_BATCH 1.2, UMED_BATCH 5, UHI_BATCH 7,
		// UPROB_BATCH 0.875 ("smallest parallel batch job has 2 nodes",
		// "biggest batch job has 128 nodes").
		ULow:  1.2,
		UMed:  5,
		UHi:   7,
		UProb: 0.875,
		// m_lublin99.c: A1_BATCH 6.57, B1_BATCH 0.823, A2_BATCH 639.1,
		// B2_BATCH 0.0156, PA_BATCH -0.003, PB_BATCH 0.6986.
		A1: 6.57,
		B1: 0.823,
		A2: 639.1,
		B2: 0.0156,
		PA: -0.003,
		PB: 0.6986,
		// m_lublin99.c: AARR_BATCH 6.0415, BARR_BATCH 0.8531,
		// ARAR_BATCH 1.0519, ANUM_BATCH 6.1271, BNUM_BATCH 5.2740.
		AArr: 6.0415,
		BArr: 0.8531,
		ARAR: 1.0519,
		ANum: 6.1271,
		BNum: 5.2740,
	}
}

// InteractiveParams returns the published parameters of interactive jobs for
// a machine of RefProcs processors. Source: the reference program
// m_lublin99.c (Lublin & Feitelson, JPDC 63(11), 2003), constants *_ACTIVE.
func InteractiveParams() Params {
	return Params{
		// m_lublin99.c: SERIAL_PROB_ACTIVE 0.1541, POW2_PROB_ACTIVE 0.625.
		SerialProb: 0.1541,
		Pow2Prob:   0.625,
		// m_lublin99.c: ULOW_ACTIVE 1, UMED_ACTIVE 3, UHI_ACTIVE 5.5,
		// UPROB_ACTIVE 0.705 ("biggest interactive job has 45 nodes").
		ULow:  1,
		UMed:  3,
		UHi:   5.5,
		UProb: 0.705,
		// m_lublin99.c: A1_ACTIVE 3.8351, B1_ACTIVE 0.6605,
		// A2_ACTIVE 7.073, B2_ACTIVE 0.6856, PA_ACTIVE -0.0118,
		// PB_ACTIVE 0.9156.
		A1: 3.8351,
		B1: 0.6605,
		A2: 7.073,
		B2: 0.6856,
		PA: -0.0118,
		PB: 0.9156,
		// m_lublin99.c: AARR_ACTIVE 6.5510, BARR_ACTIVE 0.6621,
		// ARAR_ACTIVE 0.9797, ANUM_ACTIVE 8.9186, BNUM_ACTIVE 3.6680.
		AArr: 6.5510,
		BArr: 0.6621,
		ARAR: 0.9797,
		ANum: 8.9186,
		BNum: 3.6680,
	}
}

// CombinedParams returns the published single-class ("whole sample", no
// batch/interactive distinction) parameters for a machine of RefProcs
// processors. Source: the reference program m_lublin99.c (Lublin &
// Feitelson, JPDC 63(11), 2003), the constants without suffix, used when
// INCLUDE_JOBS_TYPE is 0.
func CombinedParams() Params {
	return Params{
		// m_lublin99.c: SERIAL_PROB 0.244, POW2_PROB 0.576.
		SerialProb: 0.244,
		Pow2Prob:   0.576,
		// m_lublin99.c: ULOW 0.8, UMED 4.5, UHI 7, UPROB 0.86.
		ULow:  0.8,
		UMed:  4.5,
		UHi:   7,
		UProb: 0.86,
		// m_lublin99.c: A1 4.2, B1 0.94, A2 312, B2 0.03, PA -0.0054,
		// PB 0.78.
		A1: 4.2,
		B1: 0.94,
		A2: 312,
		B2: 0.03,
		PA: -0.0054,
		PB: 0.78,
		// m_lublin99.c: AARR 10.2303, BARR 0.4871, ARAR 1.0225,
		// ANUM 8.1737, BNUM 3.9631.
		AArr: 10.2303,
		BArr: 0.4871,
		ARAR: 1.0225,
		ANum: 8.1737,
		BNum: 3.9631,
	}
}

// ForProcs returns p adapted to a machine of procs processors, where p
// describes a machine of RefProcs processors.
//
// The reference program has no machine-size option: its instructions are to
// set UHi to log2 of the system size and UMed to UHi-2.5 (anywhere in
// [UHi-3.5, UHi-1.5]). ForProcs applies this by shifting UHi and UMed by
// log2(procs) - log2(RefProcs), which keeps each class's published distance
// between UMed and UHi (2 for batch, 2.5 for interactive and combined) and
// its published UHi below log2 of the machine (0 for batch and combined, 1.5
// for interactive): for 32 processors the combined class gets UHi = 5 and
// UMed = 2.5, the interactive class UHi = 3.5 and UMed = 1. ULow, the
// smallest parallel size, does not move. On machines so small that the shift
// would cross the bounds, UHi stops at 0, ULow at UHi, and UMed stays within
// [ULow, UHi]. At RefProcs processors ForProcs returns p unchanged.
//
// It panics if procs < 1.
func (p Params) ForProcs(procs int) Params {
	if procs < 1 {
		panic(fmt.Sprintf("lublin: ForProcs with %d processors", procs))
	}
	shift := math.Log2(float64(procs)) - math.Log2(RefProcs)
	if shift == 0 {
		return p
	}
	q := p
	q.UHi = math.Max(p.UHi+shift, 0)
	q.ULow = math.Min(p.ULow, q.UHi)
	q.UMed = math.Min(math.Max(p.UMed+shift, q.ULow), q.UHi)
	return q
}

// minAcceptance is the smallest probability, for a gamma the generator
// samples by rejection, of a value at or below the bound; lower would make
// generation hang in practice.
const minAcceptance = 1e-6

// Validate reports whether p can drive the generator: probabilities in
// [0, 1] with SerialProb+Pow2Prob <= 1, 0 <= ULow <= UMed <= UHi, positive
// finite gamma parameters, a daily cycle whose 48 weights are positive and
// finite, and gammas that do not put almost all their mass above the
// rejection bounds MaxLnRuntime and MaxLnInterarrival.
func (p Params) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	prob := func(name string, v float64) {
		if !(v >= 0 && v <= 1) {
			bad("%s = %v is not a probability", name, v)
		}
	}
	prob("SerialProb", p.SerialProb)
	prob("Pow2Prob", p.Pow2Prob)
	prob("UProb", p.UProb)
	if !(p.SerialProb+p.Pow2Prob <= 1) {
		bad("SerialProb + Pow2Prob = %v exceeds 1", p.SerialProb+p.Pow2Prob)
	}
	if !(0 <= p.ULow && p.ULow <= p.UMed && p.UMed <= p.UHi) || math.IsInf(p.UHi, 0) {
		bad("want 0 <= ULow <= UMed <= UHi < Inf, have %v, %v, %v", p.ULow, p.UMed, p.UHi)
	}
	positive := func(name string, v float64) bool {
		if !(v > 0) || math.IsInf(v, 0) {
			bad("%s = %v is not positive and finite", name, v)
			return false
		}
		return true
	}
	runtimeOK := positive("A1", p.A1) && positive("B1", p.B1) && positive("A2", p.A2) && positive("B2", p.B2)
	for _, f := range []namedValue{{"PA", p.PA}, {"PB", p.PB}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			bad("%s = %v is not finite", f.name, f.v)
		}
	}
	if runtimeOK {
		// The hyper-gamma is redrawn while above MaxLnRuntime; each
		// component must be able to land below it.
		if c := mathext.GammaIncReg(p.A1, MaxLnRuntime/p.B1); c < minAcceptance {
			bad("gamma(A1, B1) is above ln(runtime) %d with probability 1-%g", MaxLnRuntime, c)
		}
		if c := mathext.GammaIncReg(p.A2, MaxLnRuntime/p.B2); c < minAcceptance {
			bad("gamma(A2, B2) is above ln(runtime) %d with probability 1-%g", MaxLnRuntime, c)
		}
	}
	arrOK := positive("AArr", p.AArr) && positive("ARAR", p.ARAR) && positive("BArr", p.BArr)
	if arrOK {
		if c := mathext.GammaIncReg(p.AArr*p.ARAR, MaxLnInterarrival/p.BArr); c < minAcceptance {
			bad("gamma(AArr*ARAR, BArr) is above ln(inter-arrival) %d with probability 1-%g", MaxLnInterarrival, c)
		}
	}
	if positive("ANum", p.ANum) && positive("BNum", p.BNum) {
		for b, w := range p.DailyWeights() {
			if !(w > 0) || math.IsInf(w, 0) {
				bad("daily cycle gamma(ANum, BNum) gives half hour %d the weight %v", b, w)
				break
			}
		}
	}
	return errors.Join(errs...)
}

// Daily cycle constants of the reference program.
const (
	// Buckets is the number of buckets of the daily cycle: 48 half hours
	// (m_lublin99.c, BUCKETS).
	Buckets = 48

	// BucketSeconds is the length of a bucket in seconds
	// (m_lublin99.c, SECONDS_IN_BUCKET).
	BucketSeconds = 24 * 3600 / Buckets

	// CycleStart is the abscissa, in half-hour units, that the daily-cycle
	// gamma gives to bucket CycleStart-1 (05:00-05:30): the program shifts
	// the day cyclically so that it spans [CycleStart, CycleStart+48) on the
	// gamma's axis (m_lublin99.c, CYCLIC_DAY_START 11).
	CycleStart = 11
)

// DailyWeights returns the relative arrival intensity of each half hour of
// the day, bucket 0 being 00:00-00:30. The weights have mean 1.
//
// As the reference program computes it (m_lublin99.c, arrive_init), the
// weight of bucket b is the mass that the gamma distribution of shape ANum
// and scale BNum puts on [x-0.5, x+0.5], where x = b+1 for b >= CycleStart-1
// and x = b+49 for earlier buckets, so x runs over CycleStart..CycleStart+47
// starting at 05:00; the weights are then divided by their mean.
func (p Params) DailyWeights() [Buckets]float64 {
	var w [Buckets]float64
	cdf := func(x float64) float64 { return mathext.GammaIncReg(p.ANum, x/p.BNum) }
	sum := 0.0
	for x := CycleStart; x < CycleStart+Buckets; x++ {
		b := (x - 1) % Buckets
		w[b] = cdf(float64(x)+0.5) - cdf(float64(x)-0.5)
		sum += w[b]
	}
	mean := sum / Buckets
	for b := range w {
		w[b] /= mean
	}
	return w
}

// String formats p as space-separated name=value pairs, e.g.
// "SerialProb=0.244 Pow2Prob=0.576 ...", in field order, with the shortest
// decimal that reads back exactly.
func (p Params) String() string {
	var b strings.Builder
	for i, f := range p.fields() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(f.v, 'g', -1, 64))
	}
	return b.String()
}

type namedValue struct {
	name string
	v    float64
}

func (p Params) fields() []namedValue {
	return []namedValue{
		{"SerialProb", p.SerialProb}, {"Pow2Prob", p.Pow2Prob},
		{"ULow", p.ULow}, {"UMed", p.UMed}, {"UHi", p.UHi}, {"UProb", p.UProb},
		{"A1", p.A1}, {"B1", p.B1}, {"A2", p.A2}, {"B2", p.B2}, {"PA", p.PA}, {"PB", p.PB},
		{"AArr", p.AArr}, {"BArr", p.BArr}, {"ARAR", p.ARAR}, {"ANum", p.ANum}, {"BNum", p.BNum},
	}
}
