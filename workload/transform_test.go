package workload

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// fixedSource makes rand.Float64 return a chosen u: Float64 takes the low
// 53 bits of Uint64 over 2^53.
type fixedSource uint64

func (f fixedSource) Uint64() uint64 { return uint64(f) }

func fixedU(u float64) *rand.Rand { return rand.New(fixedSource(uint64(u * (1 << 53)))) }

const s = model.Second

func job(submit, runtime, estimate model.Time, size int) model.Job {
	return model.Job{ID: 1, Submit: submit, Runtime: runtime, Estimate: estimate, AllocProcs: size, ReqProcs: size,
		Known: model.AllFields}
}

func TestAttributesApply(t *testing.T) {
	ms := model.Millisecond
	tests := []struct {
		name string
		a    Attributes
		u    float64
		want model.App
	}{
		{"thesis default, u=0", Attributes{}, 0, model.App{Granularity: 5 * ms, Pattern: model.PatternRing, Comm: model.CommBlocking}},
		{"thesis default, u=0.5", Attributes{}, 0.5, model.App{Granularity: 50 * ms, Pattern: model.PatternRing, Comm: model.CommBlocking}},
		{"thesis default, u=0.999", Attributes{}, 0.999, model.App{Granularity: 500 * ms, Pattern: model.PatternRing, Comm: model.CommBlocking}},
		// Weights 1, 0, 3: u*4 = 1.2 passes the first (cumulative 1),
		// skips the zero weight, lands in the third (cumulative 4).
		{"weights", Attributes{Weights: []float64{1, 0, 3}}, 0.3, model.App{Granularity: 500 * ms, Pattern: model.PatternRing, Comm: model.CommBlocking}},
		{"weights, first", Attributes{Weights: []float64{1, 0, 3}}, 0.2, model.App{Granularity: 5 * ms, Pattern: model.PatternRing, Comm: model.CommBlocking}},
		{"explicit", Attributes{Granularities: []model.Duration{model.Duration(3 * ms)}, Pattern: "all-to-all", Comm: "non-blocking", Imbalance: 0.5, MessageBytes: 4096}, 0.7,
			model.App{Granularity: 3 * ms, Pattern: model.PatternAllToAll, Comm: model.CommNonBlocking, Imbalance: 0.5, MessageBytes: 4096, MemPerProcKB: 7}},
		{"memory", Attributes{MemPerProcKB: 520 << 10}, 0,
			model.App{Granularity: 5 * ms, Pattern: model.PatternRing, Comm: model.CommBlocking, MemPerProcKB: 520 << 10}},
	}
	for _, tt := range tests {
		j := job(0, 10*s, 0, 4)
		j.App.Priority = 2 // not an attribute Apply sets: kept
		tt.want.Priority = 2
		j.App.MemPerProcKB = 7 // kept unless the attributes set it
		if tt.want.MemPerProcKB == 0 {
			tt.want.MemPerProcKB = 7
		}
		tt.a.Apply(&j, fixedU(tt.u))
		if !appEqual(j.App, tt.want) {
			t.Errorf("%s: App = %+v, want %+v", tt.name, j.App, tt.want)
		}
	}
}

func appEqual(a, b model.App) bool {
	return a.Granularity == b.Granularity && a.Pattern == b.Pattern && a.Comm == b.Comm &&
		a.Imbalance == b.Imbalance && a.MessageBytes == b.MessageBytes && a.Priority == b.Priority &&
		a.MemPerProcKB == b.MemPerProcKB
}

// TestAttributesFrequencies: the thesis' three granularities come out with
// equal probability. Over n = 30000 draws each count is binomial(n, 1/3)
// with standard deviation sqrt(n/3 × 2/3) = 81.6; the test allows 4 of
// them (a false failure about once in 10,000 runs).
func TestAttributesFrequencies(t *testing.T) {
	const seed, n = 42, 30000
	t.Logf("seed %d", seed)
	rnd := NewStream(seed, StreamAttributes)
	var a Attributes
	counts := map[model.Time]int{}
	for range n {
		j := job(0, s, 0, 1)
		a.Apply(&j, rnd)
		counts[j.App.Granularity]++
	}
	sd := math.Sqrt(n * (1.0 / 3) * (2.0 / 3))
	for _, g := range ThesisGranularities {
		if c := counts[g.Time()]; math.Abs(float64(c)-n/3.0) > 4*sd {
			t.Errorf("granularity %v drawn %d times of %d, want %d ± %.0f", g, c, n, n/3, 4*sd)
		}
	}
	if len(counts) != 3 {
		t.Errorf("granularities drawn: %v", counts)
	}
}

func TestAttributesValidate(t *testing.T) {
	bad := []Attributes{
		{Granularities: []model.Duration{0}},
		{Weights: []float64{1, 2}},
		{Weights: []float64{0, 0, 0}},
		{Weights: []float64{1, -1, 1}},
		{Pattern: "mesh"},
		{Comm: "async"},
		{Imbalance: -0.1},
		{Imbalance: math.NaN()},
		{MessageBytes: -1},
	}
	for _, a := range bad {
		if err := a.Validate(); err == nil {
			t.Errorf("%+v: Validate accepted it", a)
		}
	}
	if err := (&Attributes{}).Validate(); err != nil {
		t.Errorf("zero Attributes: %v", err)
	}
}

func TestEstimatesApply(t *testing.T) {
	tests := []struct {
		name  string
		e     Estimates
		u     float64
		in    model.Job
		want  model.Time
		known bool
	}{
		{"trace keeps", Estimates{}, 0.5, job(0, 100*s, 7*s, 1), 7 * s, true},
		{"exact", Estimates{Mode: EstimatesExact}, 0.5, job(0, 100*s, 7*s, 1), 100 * s, true},
		// f = 1 + 0.5 × (5 - 1) = 3.
		{"loose, u=0.5", Estimates{Mode: EstimatesLoose}, 0.5, job(0, 100*s, 0, 1), 300 * s, true},
		{"loose, u=0", Estimates{Mode: EstimatesLoose}, 0, job(0, 100*s, 0, 1), 100 * s, true},
		// f = 1 + 0.25 × (2 - 1) = 1.25; 3 µs × 1.25 = 3.75 rounds to 4.
		{"loose, max 2, rounding", Estimates{Mode: EstimatesLoose, MaxFactor: 2}, 0.25, job(0, 3, 0, 1), 4, true},
		{"loose, no runtime", Estimates{Mode: EstimatesLoose}, 0.5,
			model.Job{Known: model.AllFields.Without(model.FieldRuntime).Without(model.FieldEstimate)}, 0, false},
	}
	for _, tt := range tests {
		j := tt.in
		tt.e.Apply(&j, fixedU(tt.u))
		if j.Estimate != tt.want || j.Has(model.FieldEstimate) != tt.known {
			t.Errorf("%s: estimate %v (known %v), want %v (known %v)", tt.name, j.Estimate, j.Has(model.FieldEstimate), tt.want, tt.known)
		}
	}
}

// TestLooseNeverBelowRuntime: loose estimates are at least the runtime and
// at most MaxFactor times it, for random runtimes, also after load scaling
// and compression (rounding is monotone).
func TestLooseNeverBelowRuntime(t *testing.T) {
	const seed = 7
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewPCG(seed, 1))
	e := Estimates{Mode: EstimatesLoose}
	for i := range 100000 {
		j := job(0, model.Time(1+rnd.Int64N(int64(40*model.Hour))), 0, 1)
		e.Apply(&j, rnd)
		if j.Estimate < j.Runtime || float64(j.Estimate) > 5*float64(j.Runtime)+0.5 {
			t.Fatalf("job %d: runtime %v, estimate %v", i, j.Runtime, j.Estimate)
		}
		ScaleRuntime(&j, 0.1+rnd.Float64())
		Compress(&j, 1+99*rnd.Float64())
		if j.Estimate < j.Runtime {
			t.Fatalf("job %d after scaling: runtime %v, estimate %v", i, j.Runtime, j.Estimate)
		}
	}
}

func TestEstimatesValidate(t *testing.T) {
	for _, e := range []Estimates{{Mode: "guess"}, {Mode: EstimatesLoose, MaxFactor: 0.5}, {Mode: EstimatesLoose, MaxFactor: math.Inf(1)}} {
		if err := e.Validate(); err == nil {
			t.Errorf("%+v accepted", e)
		}
	}
	if err := (&Estimates{Mode: EstimatesExact, MaxFactor: 0.5}).Validate(); err != nil {
		t.Errorf("exact ignores MaxFactor: %v", err)
	}
}

func TestScaleAndCompress(t *testing.T) {
	base := model.Job{Submit: 1000 * s, Wait: 30 * s, Runtime: 100 * s, AvgCPU: 90 * s, Estimate: 300 * s, ThinkTime: 7 * s, Known: model.AllFields}
	tests := []struct {
		name string
		f    func(*model.Job)
		want model.Job
	}{
		{"ScaleRuntime 0.75", func(j *model.Job) { ScaleRuntime(j, 0.75) },
			model.Job{Submit: 1000 * s, Wait: 30 * s, Runtime: 75 * s, AvgCPU: 67500 * model.Millisecond, Estimate: 225 * s, ThinkTime: 7 * s}},
		{"ScaleArrival 2", func(j *model.Job) { ScaleArrival(j, 2) },
			model.Job{Submit: 2000 * s, Wait: 30 * s, Runtime: 100 * s, AvgCPU: 90 * s, Estimate: 300 * s, ThinkTime: 7 * s}},
		{"Compress 100", func(j *model.Job) { Compress(j, 100) },
			model.Job{Submit: 10 * s, Wait: 300 * model.Millisecond, Runtime: s, AvgCPU: 900 * model.Millisecond, Estimate: 3 * s, ThinkTime: 70 * model.Millisecond}},
		// 1000 s / 3 = 333.333333.. s: rounded to 333333333 µs.
		{"Compress 3", func(j *model.Job) { Compress(j, 3) },
			model.Job{Submit: 333333333, Wait: 10 * s, Runtime: 33333333, AvgCPU: 30 * s, Estimate: 100 * s, ThinkTime: 2333333}},
	}
	for _, tt := range tests {
		j := base
		tt.f(&j)
		tt.want.Known = model.AllFields
		if !reflect.DeepEqual(j, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, j, tt.want)
		}
	}
	// The application's granularity is not a trace time.
	j := base
	j.App.Granularity = 5 * model.Millisecond
	Compress(&j, 100)
	ScaleRuntime(&j, 0.5)
	if j.App.Granularity != 5*model.Millisecond {
		t.Errorf("granularity changed to %v", j.App.Granularity)
	}
	for _, f := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "workload: ") {
					t.Errorf("Compress(%v): panic %v", f, r)
				}
			}()
			Compress(&j, f)
		}()
	}
}

func TestLoadMeter(t *testing.T) {
	tests := []struct {
		name  string
		jobs  []model.Job
		procs int
		want  float64
		err   bool
	}{
		// Work 2×10 + 4×5 = 40 processor-seconds over a span of 100 s on
		// 4 processors: 40 / 400 = 0.1.
		{"two jobs", []model.Job{job(0, 10*s, 0, 2), job(100*s, 5*s, 0, 4)}, 4, 0.1, false},
		// Out of order: the span is max - min, 50 s; work 8×25 + 8×25 +
		// 1×50 = 450 over 8 × 50: 1.125.
		{"unsorted", []model.Job{job(60*s, 25*s, 0, 8), job(10*s, 25*s, 0, 8), job(30*s, 50*s, 0, 1)}, 8, 1.125, false},
		{"one job", []model.Job{job(5*s, 10*s, 0, 2)}, 4, 0, true},
		{"no procs", []model.Job{job(0, 10*s, 0, 2), job(100*s, 5*s, 0, 4)}, 0, 0, true},
	}
	// A job without size and one without runtime add no work; one without
	// a submit time takes no part in the span.
	noSize := job(0, 100*s, 0, 0)
	noRun := job(0, 0, 0, 4)
	noRun.Known = noRun.Known.Without(model.FieldRuntime)
	noSubmit := job(1000*s, 10*s, 0, 2)
	noSubmit.Known = noSubmit.Known.Without(model.FieldSubmit)
	// Work 2×10 + 4×5 + 2×10 = 60 over 4 × 100: 0.15.
	tests = append(tests, struct {
		name  string
		jobs  []model.Job
		procs int
		want  float64
		err   bool
	}{"missing fields", []model.Job{job(0, 10*s, 0, 2), job(100*s, 5*s, 0, 4), noSize, noRun, noSubmit}, 4, 0.15, false})
	for _, tt := range tests {
		got, err := OfferedLoad(tt.jobs, tt.procs)
		if (err != nil) != tt.err || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: load %v, %v; want %v (error %v)", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestLoadFactor(t *testing.T) {
	l := Load{Target: 0.74}
	if f := l.Factor(0.98); math.Abs(f-0.74/0.98) > 1e-15 {
		t.Errorf("runtime factor %v", f)
	}
	l.Scale = ScaleArrivals
	if f := l.Factor(0.98); math.Abs(f-0.98/0.74) > 1e-15 {
		t.Errorf("arrival factor %v", f)
	}
	for _, bad := range []Load{{}, {Target: -1}, {Target: 1, Scale: "both"}, {Target: 1, Procs: -2}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestSummarize(t *testing.T) {
	// Nearest rank on 1..10: p5 = rank ceil(0.5) = 1, p25 = rank 3,
	// median = rank 5, p75 = rank ceil(7.5) = 8, p95 = rank ceil(9.5) = 10.
	xs := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	got := Summarize(xs)
	want := Distribution{N: 10, Mean: 5.5, Min: 1, P5: 1, P25: 3, Median: 5, P75: 8, P95: 10, Max: 10}
	if got != want {
		t.Errorf("Summarize = %+v, want %+v", got, want)
	}
	if got := Summarize(nil); got != (Distribution{}) {
		t.Errorf("empty: %+v", got)
	}
}
