package metrics

import (
	"math"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// runOutcomes is a small run on 4 processors, computed by hand in the
// tests that use it:
//
//	job  submit start  end  procs  Tr  Td  wait  response  sld  bsld  ts-bsld
//	1    0      0      100  2      100 100 0     100       1    1     1
//	2    10     100    120  4      20  10  90    110       5.5  5.5   11
//	3    20     rejected (too wide)
//	4    50     60     61   1      1   1   10    11        11   1.1   1.1
//
// bsld of job 4 is 11 / max(1, 10); job 2 ran 20 s of a 10 s dedicated
// runtime (time sharing), so its ts-bsld is 110 / 10.
func runOutcomes() []model.Outcome {
	s := model.Second
	return []model.Outcome{
		{JobID: 1, Submit: 0, Start: 0, End: 100 * s, Procs: 2, Runtime: 100 * s, Dedicated: 100 * s},
		{JobID: 2, Submit: 10 * s, Start: 100 * s, End: 120 * s, Procs: 4, Runtime: 20 * s, Dedicated: 10 * s},
		{JobID: 3, Submit: 20 * s, Start: model.Never, End: model.Never, Procs: 8, Dedicated: 5 * s, Reason: model.RejectTooWide},
		{JobID: 4, Submit: 50 * s, Start: 60 * s, End: 61 * s, Procs: 1, Runtime: 1 * s, Dedicated: 1 * s},
	}
}

func closeTo(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

func TestPerJob(t *testing.T) {
	m := PerJob(runOutcomes(), DefaultTau)
	if !slices.Equal(m.ID, []int64{1, 2, 4}) {
		t.Errorf("IDs %v, want [1 2 4] (the rejected job left out)", m.ID)
	}
	for _, c := range []struct {
		name      string
		got, want []float64
	}{
		{"wait", m.Wait, []float64{0, 90, 10}},
		{"response", m.Response, []float64{100, 110, 11}},
		{"slowdown", m.Slowdown, []float64{1, 5.5, 11}},
		{"bsld", m.BoundedSlowdown, []float64{1, 5.5, 1.1}},
		{"ts-bsld", m.TimeSharingBoundedSlowdown, []float64{1, 11, 1.1}},
	} {
		if !closeTo(c.got, c.want, 1e-12) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// With the thesis' compressed tau, 0.1 s, job 4 is not short: 11 / 1.
	if got := PerJob(runOutcomes(), CompressedTau(100)).BoundedSlowdown[2]; got != 11 {
		t.Errorf("bsld of job 4 with tau 0.1 s = %v, want 11", got)
	}
	mustPanic(t, "PerJob with tau 0", func() { PerJob(nil, 0) })
}

func TestRunMetrics(t *testing.T) {
	o := runOutcomes()
	if got := Makespan(o); got != 120*model.Second {
		t.Errorf("Makespan = %v, want 120s", got)
	}
	// Work Σ procs × Td = 2×100 + 4×10 + 1×1 = 241 processor-seconds over
	// 4 × 120.
	if got := Utilization(o, 4); math.Abs(got-241.0/480) > 1e-15 {
		t.Errorf("Utilization = %v, want 241/480", got)
	}
	if got := Throughput(o); math.Abs(got-3.0/120) > 1e-15 {
		t.Errorf("Throughput = %v, want 3/120 jobs/s", got)
	}
	// A file without dedicated runtimes: the runtime stands in.
	noTd := slices.Clone(o)
	for i := range noTd {
		noTd[i].Dedicated = 0
	}
	if got := Utilization(noTd, 4); math.Abs(got-281.0/480) > 1e-15 {
		t.Errorf("Utilization without Td = %v, want (200+80+1)/480", got)
	}
	// At process level a job's work is what its processes computed, not
	// the processors it would hold alone: 2×100 would count job 1's holes.
	proc := slices.Clone(o)
	for i := range proc {
		proc[i].Sharing, proc[i].CPU = model.ProcessLevel, model.Time(i+1)*10*model.Second
	}
	if got, s := Utilization(proc, 4), summarize(proc); math.Abs(got-70.0/480) > 1e-15 || s.Utilization(4) != got {
		t.Errorf("Utilization at process level = %v (summary %v), want (10+20+40)/480 (job 3 rejected)", got, s.Utilization(4))
	}
	if Makespan(nil) != 0 || Utilization(nil, 4) != 0 || Throughput(nil) != 0 {
		t.Error("metrics of no outcomes are not 0")
	}
	mustPanic(t, "Utilization on 0 processors", func() { Utilization(o, 0) })
}

func TestGangOverhead(t *testing.T) {
	s := model.Second
	tests := []struct {
		gang, noGang model.Time
		want         float64
	}{
		{109 * s, 100 * s, 0.09}, // the paper's "< 9%" at a 100 ms slice
		{100 * s, 100 * s, 0},
		{150 * model.Millisecond, 100 * model.Millisecond, 0.5},
		{90 * s, 100 * s, -0.1},
	}
	for _, tt := range tests {
		if got := GangOverhead(tt.gang, tt.noGang); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("GangOverhead(%v, %v) = %v, want %v", tt.gang, tt.noGang, got, tt.want)
		}
	}
	mustPanic(t, "GangOverhead against 0", func() { GangOverhead(1, 0) })
}

func TestCompressedTau(t *testing.T) {
	tests := []struct {
		factor float64
		want   model.Time
	}{
		{1, 10 * model.Second},
		{100, 100 * model.Millisecond}, // the thesis, 6.4.1
		{3, 3333333},                   // 3.333333 s, rounded to the µs
		{1e12, 1},                      // never below 1 µs
	}
	for _, tt := range tests {
		if got := CompressedTau(tt.factor); got != tt.want {
			t.Errorf("CompressedTau(%v) = %v, want %v", tt.factor, got, tt.want)
		}
	}
	mustPanic(t, "CompressedTau(0)", func() { CompressedTau(0) })
	mustPanic(t, "CompressedTau(NaN)", func() { CompressedTau(math.NaN()) })
}

func TestTrimBySubmit(t *testing.T) {
	// IDs 1..10 with these submits; in submit order (ties by ID):
	// 2, 7, 3, 4, 10, 1, 9, 6, 8, 5.
	submits := []model.Time{50, 10, 30, 30, 90, 70, 20, 80, 60, 40}
	var o []model.Outcome
	for i, s := range submits {
		o = append(o, model.Outcome{JobID: int64(i + 1), Submit: s})
	}
	ids := func(o []model.Outcome) []int64 {
		var r []int64
		for _, x := range o {
			r = append(r, x.JobID)
		}
		return r
	}
	tests := []struct {
		head, tail float64
		want       []int64
	}{
		{0, 0, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{0.2, 0.3, []int64{1, 3, 4, 9, 10}}, // drop 2, 7 and 6, 8, 5
		{0.3, 0.3, []int64{1, 4, 9, 10}},    // and 3, before 4 at the same submit
		{0.25, 0, []int64{1, 3, 4, 5, 6, 8, 9, 10}},
		{0, 0.95, []int64{2}},
	}
	for _, tt := range tests {
		if got := ids(TrimBySubmit(o, tt.head, tt.tail)); !slices.Equal(got, tt.want) {
			t.Errorf("TrimBySubmit(%v, %v) = %v, want %v", tt.head, tt.tail, got, tt.want)
		}
	}
	if fractionOf(0.29, 100) != 29 || fractionOf(0.7, 10) != 7 || fractionOf(0.999, 10) != 9 {
		t.Error("fractionOf rounds decimal fractions wrong")
	}
	mustPanic(t, "TrimBySubmit(0.5, 0.5)", func() { TrimBySubmit(o, 0.5, 0.5) })
	mustPanic(t, "TrimBySubmit(-0.1, 0)", func() { TrimBySubmit(o, -0.1, 0) })
}

func summarize(outs []model.Outcome) *Summary {
	var s Summary
	for i := range outs {
		s.Add(&outs[i])
	}
	return &s
}
