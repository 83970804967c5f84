package metrics

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Mean is the arithmetic mean of x. It panics if x is empty.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		panic("metrics: mean of no values")
	}
	return stat.Mean(x, nil)
}

// Quantile is the p-quantile (0 <= p <= 1) of the values in sorted, by
// linear interpolation between order statistics: Hyndman and Fan's type 7,
// the default of R and NumPy. With n values x[0] <= ... <= x[n-1],
// h = (n-1)p and
//
//	Q(p) = x[⌊h⌋] + (h - ⌊h⌋) (x[⌊h⌋+1] - x[⌊h⌋]),
//
// so Q(0) is the minimum, Q(1) the maximum, and the median of an even count
// is the mean of the two middle values.
//
// It panics if sorted is empty, not sorted in increasing order, holds a NaN,
// or if p is outside [0, 1].
func Quantile(p float64, sorted []float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("metrics: quantile %v outside [0, 1]", p))
	}
	checkSorted(sorted)
	return quantile(p, sorted)
}

// quantile is Quantile without the checks.
func quantile(p float64, sorted []float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Percentile is Quantile(pct/100, sorted): pct in [0, 100].
func Percentile(pct float64, sorted []float64) float64 { return Quantile(pct/100, sorted) }

// Median is Quantile(0.5, sorted).
func Median(sorted []float64) float64 { return Quantile(0.5, sorted) }

func checkSorted(sorted []float64) {
	if len(sorted) == 0 {
		panic("metrics: quantile of no values")
	}
	for i, v := range sorted {
		if math.IsNaN(v) {
			panic(fmt.Sprintf("metrics: NaN at index %d", i))
		}
		if i > 0 && v < sorted[i-1] {
			panic(fmt.Sprintf("metrics: values not sorted at index %d (%v after %v)", i, v, sorted[i-1]))
		}
	}
}

// Distribution describes a sample of values: its size, moments and the
// quantiles the thesis' box plots show (Frachtenberg, section 6.4.3, Figs.
// 6.9 and 6.10: median, 25% and 75% box edges, 5% and 95% whiskers), all
// Quantile's type 7.
type Distribution struct {
	N      int     // number of values
	Mean   float64 // arithmetic mean
	StdDev float64 // sample standard deviation (n-1 denominator); NaN for N < 2
	Min    float64 // smallest value
	P5     float64 // 5th percentile
	P25    float64 // 25th percentile (lower quartile)
	Median float64 // 50th percentile
	P75    float64 // 75th percentile (upper quartile)
	P95    float64 // 95th percentile
	Max    float64 // largest value
}

// Describe computes the Distribution of x without modifying it, as
// Values does (keeping every value): the mean a compensated sum in the
// order of x, the quantiles Quantile's, the standard deviation the
// corrected two-pass one. With no values, N is 0 and every other field is
// NaN. It panics if x holds a NaN.
func Describe(x []float64) Distribution {
	v := Values{Keep: true}
	for _, e := range x {
		v.Add(e)
	}
	return v.Distribution()
}

// ECDF is the empirical cumulative distribution function of x, as points
// for a step plot: values are the distinct values of x in increasing order
// and fractions[i] is the fraction of x that is <= values[i], so the last
// fraction is 1. Plot it as a step that rises at each value. x is not
// modified; with no values both slices are empty. It panics if x holds a
// NaN.
func ECDF(x []float64) (values, fractions []float64) {
	if len(x) == 0 {
		return nil, nil
	}
	s := slices.Clone(x)
	slices.Sort(s)
	checkSorted(s)
	n := float64(len(s))
	for i, v := range s {
		if i+1 < len(s) && s[i+1] == v {
			continue
		}
		values = append(values, v)
		fractions = append(fractions, float64(i+1)/n)
	}
	return values, fractions
}

// Interval is a confidence interval of a mean: Mean ± HalfWidth.
type Interval struct {
	N          int     // number of values (e.g. seeds)
	Mean       float64 // sample mean
	HalfWidth  float64 // half the interval's width
	Confidence float64 // confidence level, e.g. 0.95
}

// Low is the lower end of the interval, Mean - HalfWidth.
func (iv Interval) Low() float64 { return iv.Mean - iv.HalfWidth }

// High is the upper end of the interval, Mean + HalfWidth.
func (iv Interval) High() float64 { return iv.Mean + iv.HalfWidth }

// MeanCI is the two-sided Student t confidence interval of the mean of x at
// the given confidence level (e.g. 0.95): mean ± t(1-(1-c)/2, n-1) s/√n,
// with s the sample standard deviation. It assumes the values are
// independent (one per seed, say) and their mean close to normal. It
// panics if x has fewer than 2 values or confidence is not in (0, 1).
func MeanCI(x []float64, confidence float64) Interval {
	if len(x) < 2 {
		panic(fmt.Sprintf("metrics: confidence interval of %d values (need at least 2)", len(x)))
	}
	if !(confidence > 0 && confidence < 1) {
		panic(fmt.Sprintf("metrics: confidence level %v outside (0, 1)", confidence))
	}
	n := float64(len(x))
	mean, sd := stat.MeanStdDev(x, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-confidence)/2)
	return Interval{N: len(x), Mean: mean, HalfWidth: t * sd / math.Sqrt(n), Confidence: confidence}
}
