package metrics

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// mustPanic checks that f panics with a message starting "metrics: ".
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s did not panic", name)
			return
		}
		if s, ok := r.(string); !ok || !strings.HasPrefix(s, "metrics: ") {
			t.Errorf("%s panicked with %v, want a \"metrics: \" message", name, r)
		}
	}()
	f()
}

func TestQuantileType7(t *testing.T) {
	// By hand, h = (n-1)p, Q = x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1]-x[⌊h⌋]); R's
	// quantile(c(1,2,4,8), c(.05,.25,.5,.75,.95), type = 7) prints
	// 1.15 1.75 3 5 7.4.
	x := []float64{1, 2, 4, 8}
	tests := []struct {
		p, want float64
	}{
		{0, 1},
		{0.05, 1.15}, // h = 0.15
		{0.25, 1.75}, // h = 0.75
		{1.0 / 3, 2}, // h = 1: an order statistic
		{0.5, 3},     // h = 1.5: mean of the middle two
		{0.75, 5},    // h = 2.25
		{0.95, 7.4},  // h = 2.85
		{1, 8},
	}
	for _, tt := range tests {
		if got := Quantile(tt.p, x); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tt.p, x, got, tt.want)
		}
	}
	if got := Percentile(10, []float64{10, 20, 30, 40, 50}); math.Abs(got-14) > 1e-12 { // h = 0.4
		t.Errorf("Percentile(10) = %v, want 14", got)
	}
	if got := Median([]float64{10, 20, 30, 40, 50}); got != 30 {
		t.Errorf("Median = %v, want 30", got)
	}
	for _, p := range []float64{0, 0.3, 1} {
		if got := Quantile(p, []float64{7}); got != 7 {
			t.Errorf("Quantile(%v) of one value = %v, want 7", p, got)
		}
	}
	if got := Mean([]float64{1, 2, 4, 8}); got != 3.75 {
		t.Errorf("Mean = %v, want 3.75", got)
	}
}

func TestStatisticsPanics(t *testing.T) {
	mustPanic(t, "Quantile of no values", func() { Quantile(0.5, nil) })
	mustPanic(t, "Quantile of unsorted values", func() { Quantile(0.5, []float64{2, 1}) })
	mustPanic(t, "Quantile with a NaN", func() { Quantile(0.5, []float64{1, math.NaN()}) })
	mustPanic(t, "Quantile(1.5)", func() { Quantile(1.5, []float64{1}) })
	mustPanic(t, "Quantile(NaN)", func() { Quantile(math.NaN(), []float64{1}) })
	mustPanic(t, "Mean of no values", func() { Mean(nil) })
	mustPanic(t, "Describe with a NaN", func() { Describe([]float64{math.NaN(), 1}) })
	mustPanic(t, "MeanCI of one value", func() { MeanCI([]float64{1}, 0.95) })
	mustPanic(t, "MeanCI at confidence 1", func() { MeanCI([]float64{1, 2}, 1) })
}

func TestDescribe(t *testing.T) {
	x := []float64{4, 1, 8, 2}
	orig := slices.Clone(x)
	d := Describe(x)
	if !slices.Equal(x, orig) {
		t.Errorf("Describe modified its input: %v", x)
	}
	// Mean 15/4; squared deviations 0.0625 + 7.5625 + 18.0625 + 3.0625 =
	// 28.75, sd = sqrt(28.75/3); quantiles as in TestQuantileType7.
	want := Distribution{N: 4, Mean: 3.75, StdDev: math.Sqrt(28.75 / 3), Min: 1, P5: 1.15, P25: 1.75, Median: 3, P75: 5, P95: 7.4, Max: 8}
	got := []float64{d.Mean, d.StdDev, d.Min, d.P5, d.P25, d.Median, d.P75, d.P95, d.Max}
	exp := []float64{want.Mean, want.StdDev, want.Min, want.P5, want.P25, want.Median, want.P75, want.P95, want.Max}
	if d.N != 4 {
		t.Errorf("N = %d", d.N)
	}
	for i := range got {
		if math.Abs(got[i]-exp[i]) > 1e-12 {
			t.Errorf("Describe = %+v, want %+v", d, want)
			break
		}
	}
	e := Describe(nil)
	if e.N != 0 || !math.IsNaN(e.Mean) || !math.IsNaN(e.Median) || !math.IsNaN(e.Max) {
		t.Errorf("Describe(nil) = %+v, want N 0 and NaNs", e)
	}
	if one := Describe([]float64{5}); one.Mean != 5 || one.P95 != 5 || !math.IsNaN(one.StdDev) {
		t.Errorf("Describe of one value = %+v, want 5s and a NaN deviation", one)
	}
}

func TestECDF(t *testing.T) {
	x := []float64{3, 1, 3, 2}
	v, f := ECDF(x)
	if !slices.Equal(v, []float64{1, 2, 3}) || !slices.Equal(f, []float64{0.25, 0.5, 1}) {
		t.Errorf("ECDF(%v) = %v, %v; want [1 2 3], [0.25 0.5 1]", x, v, f)
	}
	if !slices.Equal(x, []float64{3, 1, 3, 2}) {
		t.Errorf("ECDF modified its input: %v", x)
	}
	if v, f := ECDF(nil); len(v) != 0 || len(f) != 0 {
		t.Errorf("ECDF(nil) = %v, %v", v, f)
	}
}

func TestMeanCI(t *testing.T) {
	// x = 1..5: mean 3, s = sqrt(2.5), s/sqrt(5) = sqrt(0.5). Student t
	// quantiles with 4 degrees of freedom from a printed table (and R's
	// qt): 0.95 -> 2.131847, 0.975 -> 2.776445, 0.995 -> 4.604095. The
	// tolerance is the tables' last digit.
	x := []float64{1, 2, 3, 4, 5}
	for _, tt := range []struct{ conf, t float64 }{{0.90, 2.131847}, {0.95, 2.776445}, {0.99, 4.604095}} {
		iv := MeanCI(x, tt.conf)
		want := tt.t * math.Sqrt(0.5)
		if iv.N != 5 || iv.Mean != 3 || math.Abs(iv.HalfWidth-want) > 1e-6 || iv.Confidence != tt.conf {
			t.Errorf("MeanCI(%v) = %+v, want mean 3 ± %.6f", tt.conf, iv, want)
		}
		if iv.Low() != iv.Mean-iv.HalfWidth || iv.High() != iv.Mean+iv.HalfWidth {
			t.Errorf("Low/High = %v/%v", iv.Low(), iv.High())
		}
	}
	// Two values: 1 degree of freedom, t(0.975, 1) = 12.706205; mean 1,
	// s = sqrt(2), s/sqrt(2) = 1.
	if iv := MeanCI([]float64{0, 2}, 0.95); math.Abs(iv.HalfWidth-12.706205) > 1e-6 {
		t.Errorf("MeanCI of two values: half width %v, want 12.706205", iv.HalfWidth)
	}
}
