package workload

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/lublin"
)

func TestProfile(t *testing.T) {
	s := model.Second
	// Submit times 0, 10, 20, 40, 40, 100 s: gaps 10, 10, 20, 0, 60
	// (mean 20, sample sd sqrt((100+100+0+400+1600)/4) = sqrt(550)).
	// Sizes 1, 2, 3, 4, 8, 6: sorted 1 2 3 4 6 8, median (3+4)/2 = 3.5;
	// parallel 2 3 4 8 6, powers of two 2 4 8: 3/5. Runtimes 100 s each:
	// work 2400 processor-seconds over 4 × 100 s: load 6.
	subs := []model.Time{0, 10 * s, 20 * s, 40 * s, 40 * s, 100 * s}
	sizes := []int{1, 2, 3, 4, 8, 6}
	var m ProfileMeter
	for i := range subs {
		j := model.Job{Submit: subs[i], Runtime: 100 * s, AllocProcs: sizes[i], ReqProcs: sizes[i],
			Known: model.AllFields}
		m.Add(&j)
	}
	got := m.Profile(4)
	want := Profile{Jobs: 6, SpanDays: 100.0 / 86400, MedianSize: 3.5, PowerOfTwoShare: 0.6, Load: 6,
		InterarrivalCV: math.Sqrt(550) / 20}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if got.Jobs != want.Jobs || !near(got.SpanDays, want.SpanDays) || got.MedianSize != want.MedianSize ||
		!near(got.PowerOfTwoShare, want.PowerOfTwoShare) || !near(got.Load, want.Load) || !near(got.InterarrivalCV, want.InterarrivalCV) {
		t.Errorf("Profile = %+v\nwant      %+v", got, want)
	}
	// An odd count takes the middle size.
	j := model.Job{Submit: 100 * s, Runtime: s, AllocProcs: 1, ReqProcs: 1, Known: model.AllFields}
	m.Add(&j)
	if p := m.Profile(4); p.MedianSize != 3 {
		t.Errorf("median of 1 1 2 3 4 6 8 = %v, want 3", p.MedianSize)
	}
	var empty ProfileMeter
	if p := empty.Profile(4); !math.IsNaN(p.MedianSize) || !math.IsNaN(p.Load) || !math.IsNaN(p.PowerOfTwoShare) {
		t.Errorf("empty profile %+v, want NaNs", p)
	}
}

func TestSelection(t *testing.T) {
	w := Window{Min: 3, Max: 4}
	for x, in := range map[float64]bool{2.99: false, 3: true, 3.5: true, 3.999: true, 4: false, math.NaN(): false} {
		if w.Contains(x) != in {
			t.Errorf("[3, 4) contains %v: %v", x, !in)
		}
	}
	sel := Selection{MedianSize: &w, Load: &Window{Min: 0.9, Max: 1}}
	if !sel.Accepts(Profile{MedianSize: 3, Load: 0.95, SpanDays: 100}) || sel.Accepts(Profile{MedianSize: 3, Load: 1}) {
		t.Error("Accepts ignores a window or checks one not given")
	}
	if got := sel.String(); got != "median_size in [3, 4), load in [0.9, 1)" {
		t.Errorf("String = %q", got)
	}
	bad := Selection{SpanDays: &Window{Min: 9, Max: 7}, Load: &Window{Min: math.NaN(), Max: 1}, MaxDraws: -1}
	err := bad.Validate()
	for _, part := range []string{"span_days window [9, 7): want finite min < max", "load window", "max_draws -1 is negative"} {
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("Validate = %v, want it to say %q", err, part)
		}
	}
	spec := Spec{Source: Source{Lublin: &LublinSource{Jobs: 10, Select: &bad}}}
	if err := spec.Validate(); err == nil || !strings.Contains(err.Error(), "selection: span_days") {
		t.Errorf("Spec.Validate = %v, want the selection's error", err)
	}
}

// TestSelectionDraws checks how a selection draws: the first draw is the
// unselected workload of the same seed; the workload kept is the first
// draw that passes, its jobs the same on every pass and every opening; a
// selection that nothing passes fails with the number of draws.
func TestSelectionDraws(t *testing.T) {
	src := LublinSource{Jobs: 200, Procs: 32, Mix: "combined"}
	plain := Spec{Source: Source{Lublin: &src}, Seed: 4}
	_, first := readAll(t, plain)

	// Accept anything: draw 1, the plain workload.
	anything := src
	anything.Select = &Selection{}
	r, jobs := readAll(t, Spec{Source: Source{Lublin: &anything}, Seed: 4})
	if sel, ok := r.Selection(); !ok || sel.Draw != 1 || !reflect.DeepEqual(jobs, first) {
		t.Fatalf("empty selection: draw %+v, same jobs %v", sel, reflect.DeepEqual(jobs, first))
	}

	// An offered load of at least 1: find the first such draw by hand.
	four := src
	four.Select = &Selection{Load: &Window{Min: 1, Max: 100}}
	pcg := rand.NewPCG(4, StreamGenerator)
	rnd := rand.New(pcg)
	cfg, _ := four.Config()
	wantDraw := 0
	var want []model.Job
	for d := 1; wantDraw == 0; d++ {
		g := lublin.Generate(cfg, rnd)
		p, _ := MeasureProfile(model.NewSliceReader(g), 32)
		if p.Load >= 1 {
			wantDraw, want = d, g.Jobs
		}
	}
	spec := Spec{Source: Source{Lublin: &four}, Load: &Load{Target: 0.5}, Seed: 4}
	r, got := readAll(t, spec)
	sel, _ := r.Selection()
	if sel.Draw != wantDraw || wantDraw == 1 {
		t.Fatalf("selected draw %d, want %d (> 1 for the test to mean something)", sel.Draw, wantDraw)
	}
	for i := range got {
		if got[i].Submit != want[i].Submit || got[i].Size() != want[i].Size() {
			t.Fatalf("job %d: %+v, want the selected draw's %+v", i+1, got[i], want[i])
		}
	}
	if sc, _ := r.LoadScaling(); sc.Reached < 0.499 || sc.Reached > 0.501 {
		t.Errorf("load scaling of the selected draw reached %v", sc.Reached)
	}
	if p := r.Params(); p[len(p)-1] != (model.Param{Name: "result.selection_draw", Value: itoa(wantDraw)}) {
		t.Errorf("last manifest parameter %v, want the draw", p[len(p)-1])
	}
	_, again := readAll(t, spec)
	if !reflect.DeepEqual(got, again) {
		t.Error("the same selection gave different jobs")
	}

	never := src
	never.Select = &Selection{Load: &Window{Min: 50, Max: 60}, MaxDraws: 3}
	_, err := (&Spec{Source: Source{Lublin: &never}, Seed: 4}).Open(nil)
	if err == nil || err.Error() != "lublin source: none of 3 workloads drawn with seed 4 has load in [50, 60) (raise max_draws or widen the windows)" {
		t.Errorf("impossible selection: %v", err)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestThesisPreset checks the preset's workloads against the thesis'
// statistics (section 6.4.1), seeds 1 to 10, and the preset's resolution:
// set fields win, the rest come from the preset, the name is kept.
func TestThesisPreset(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		spec := Spec{Preset: PresetThesis, Seed: seed}
		spec.Compress = 1 // the raw workload, to measure the span in days
		r, jobs := readAll(t, spec)
		p, _ := MeasureProfile(model.NewSliceReader(&model.Trace{Header: *r.Header(), Jobs: jobs}), 0)
		sel, _ := r.Selection()
		t.Logf("seed %2d: draw %3d, span %.2f days, median %v, power-of-two share %.2f, load %.3f, inter-arrival CV %.1f",
			seed, sel.Draw, p.SpanDays, p.MedianSize, p.PowerOfTwoShare, p.Load, p.InterarrivalCV)
		if len(jobs) != 1000 || r.Header().MaxProcs() != 32 || !ThesisSpanDays.Contains(p.SpanDays) ||
			!ThesisMedianSize.Contains(p.MedianSize) || !ThesisRawLoad.Contains(p.Load) || p != sel.Profile {
			t.Errorf("seed %d: %d jobs on %d processors, profile %+v (selection measured %+v)", seed, len(jobs),
				r.Header().MaxProcs(), p, sel.Profile)
		}
		if p.InterarrivalCV <= 1 {
			t.Errorf("seed %d: inter-arrival CV %.2f, want bursty (> 1)", seed, p.InterarrivalCV)
		}
		if p.PowerOfTwoShare < 0.75 {
			t.Errorf("seed %d: power-of-two share %.2f, want a strong bias", seed, p.PowerOfTwoShare)
		}
	}

	own := Spec{Preset: PresetThesis, Estimates: &Estimates{Mode: EstimatesExact}, Load: &Load{Target: 0.8}, Seed: 3}
	res := own.Resolved()
	if res.Preset != PresetThesis || res.Estimates.Mode != EstimatesExact || res.Load.Target != 0.8 || res.Compress != 100 ||
		res.Source.Lublin == nil || res.Source.Lublin.Mix != "combined" || res.Attributes == nil {
		t.Errorf("Resolved = %+v", res)
	}
	if err := own.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	params := map[string]string{}
	for _, p := range own.Params() {
		params[p.Name] = p.Value
	}
	if params["preset"] != "thesis" || params["source.lublin.select.median_size.max"] != "4" || params["estimates.mode"] != "exact" {
		t.Errorf("Params = %v", params)
	}
	if err := (&Spec{Preset: "nope"}).Validate(); err == nil || err.Error() != `unknown workload preset "nope" (want thesis)` {
		t.Errorf("unknown preset: %v", err)
	}
	back, err := ParseSpec(strings.NewReader(`{"preset": "thesis", "seed": 2}`))
	if err != nil || back.Preset != PresetThesis || !back.UsesRandomness() {
		t.Errorf("ParseSpec: %+v, %v", back, err)
	}
}

// profileRates draws n workloads of src (its selection ignored) with
// seeds 1 to n and returns the median span, raw load and power-of-two
// share, and how many draws have a median size within ThesisMedianSize,
// a median of 4, and all of src.Select's statistics.
func profileRates(t *testing.T, src LublinSource, n int) (span, load, pow2 float64, medianOK, median4, all int) {
	t.Helper()
	sel := src.Select
	src.Select = nil
	cfg, err := src.Config()
	if err != nil {
		t.Fatal(err)
	}
	s := &lublinSource{cfg: cfg, procs: src.withDefaults().Procs}
	var spans, loads, shares []float64
	for seed := uint64(1); seed <= uint64(n); seed++ {
		p, err := MeasureProfile(s.cut(lublin.New(cfg, NewStream(seed, StreamGenerator))), s.procs)
		if err != nil {
			t.Fatal(err)
		}
		spans, loads, shares = append(spans, p.SpanDays), append(loads, p.Load), append(shares, p.PowerOfTwoShare)
		if ThesisMedianSize.Contains(p.MedianSize) {
			medianOK++
		}
		if p.MedianSize == 4 {
			median4++
		}
		if sel != nil && sel.Accepts(p) {
			all++
		}
	}
	for _, xs := range [][]float64{spans, loads, shares} {
		slices.Sort(xs)
	}
	return spans[n/2], loads[n/2], shares[n/2], medianOK, median4, all
}

// checkShare fails unless k of n is within 4 standard errors of the
// documented share p, on both sides (n must be large enough that p - 4
// standard errors is above 0, or the check is one-sided).
func checkShare(t *testing.T, what string, k, n int, p float64) {
	t.Helper()
	se := math.Sqrt(p * (1 - p) / float64(n))
	if p-4*se <= 0 && p > 0 {
		t.Fatalf("%s: %d draws are too few for a two-sided check of %.2f%% (4 standard errors %.2f%%)", what, n, 100*p, 400*se)
	}
	if got := float64(k) / float64(n); math.Abs(got-p) > 4*se {
		t.Errorf("%s in %.2f%% of %d draws, documented %.2f%% (± %.2f%%)", what, 100*got, n, 100*p, 400*se)
	}
}

// TestThesisPresetRate measures what ThesisPreset's documentation says of
// the draws it selects from (the Lublin model's single class for 32
// processors, 1000 jobs): over 4000 seeds, the median span and load, how
// often the median size is just under 4, the power-of-two share, and the
// share of draws with all three statistics of the thesis. The shares must
// stay within 4 standard errors of the documented ones, on either side.
func TestThesisPresetRate(t *testing.T) {
	const n = 4000
	span, load, pow2, medianOK, _, all := profileRates(t, *ThesisPreset().Source.Lublin, n)
	t.Logf("%d draws: median span %.1f days, median load %.2f, median power-of-two share %.2f, median size in [3, 4) in %.1f%%, all three statistics in %.2f%%",
		n, span, load, pow2, 100*float64(medianOK)/n, 100*float64(all)/n)
	checkShare(t, "median size just under 4", medianOK, n, 0.59)
	checkShare(t, "all three statistics", all, n, 0.007)
	if span < 9 || span > 11 || load < 0.5 || load > 0.7 || pow2 < 0.84 || pow2 > 0.9 {
		t.Errorf("median span %.1f days, load %.2f, power-of-two share %.2f: not the documented 10, 0.6, 0.87",
			span, load, pow2)
	}
}

// TestSizeLevers measures the levers ThesisPreset's documentation says
// were tried and not kept, 1000 draws each of 1000 jobs on 32 processors:
// the program's default two classes, and sizes drawn for 64 or 128
// processors and cut to 32 (LublinSource.ModelProcs). The shares of draws
// whose median size is in [3, 4) or is 4 must stay within 4 standard
// errors of the documented ones, and the median raw loads near them.
func TestSizeLevers(t *testing.T) {
	const n = 1000
	for _, c := range []struct {
		mix               string
		model             int
		medianOK, median4 float64 // documented shares of draws
		loadLow, loadHigh float64 // documented median raw load, bounds
	}{
		{"both", 0, 0, 0, 0.4, 0.5},
		{"both", 64, 0.10, 0.90, 0.65, 0.85},
		{"combined", 64, 0, 1, 0.95, 1.15},
		{"combined", 128, 0, 0.97, 1.6, 1.9},
	} {
		src := LublinSource{Jobs: 1000, Procs: 32, ModelProcs: c.model, Mix: c.mix}
		span, load, _, medianOK, median4, _ := profileRates(t, src, n)
		what := fmt.Sprintf("mix %s drawn for %d processors", c.mix, max(c.model, 32))
		t.Logf("%s: median span %.1f days, median load %.2f, median size in [3, 4) in %.1f%%, 4 in %.1f%%",
			what, span, load, 100*float64(medianOK)/n, 100*float64(median4)/n)
		checkShare(t, what+": median size in [3, 4)", medianOK, n, c.medianOK)
		checkShare(t, what+": median size 4", median4, n, c.median4)
		if load < c.loadLow || load > c.loadHigh {
			t.Errorf("%s: median raw load %.2f, documented in [%v, %v]", what, load, c.loadLow, c.loadHigh)
		}
	}
}

// TestModelProcs checks the size-mapping lever: sizes drawn for a larger
// machine and cut to the machine, the runtimes and submit times those of
// the generator for the larger machine, the header the machine's and
// saying so, and the profile on the machine.
func TestModelProcs(t *testing.T) {
	src := LublinSource{Jobs: 2000, Procs: 32, ModelProcs: 128, Mix: "combined"}
	r, jobs := readAll(t, Spec{Source: Source{Lublin: &src}, Seed: 6})
	cfg, err := (&LublinSource{Jobs: 2000, Procs: 128, Mix: "combined"}).Config()
	if err != nil {
		t.Fatal(err)
	}
	g := lublin.Generate(cfg, NewStream(6, StreamGenerator))
	cut := 0
	for i, j := range jobs {
		w := g.Jobs[i]
		if j.Submit != w.Submit || j.Runtime != w.Runtime || j.Size() != min(w.Size(), 32) || j.ReqProcs != j.AllocProcs {
			t.Fatalf("job %d: %+v, want the 128-processor draw %+v cut to 32", i+1, j, w)
		}
		if w.Size() > 32 {
			cut++
		}
	}
	if cut == 0 {
		t.Fatal("no size above 32 drawn for 128 processors: the test means nothing")
	}
	if h := r.Header(); h.MaxProcs() != 32 {
		t.Errorf("MaxProcs %d, want 32", h.MaxProcs())
	}
	if !slices.ContainsFunc(r.Header().Lines, func(l model.HeaderLine) bool {
		return l.Key == model.KeyNote && strings.Contains(l.Value, "drawn by gangsim (package workload) for 128 processors and cut to the machine's 32")
	}) {
		t.Error("no header note on the cut")
	}
	bad := LublinSource{Jobs: 10, Procs: 32, ModelProcs: -1}
	if _, err := bad.Config(); err == nil || !strings.Contains(err.Error(), "model machine size -1") {
		t.Errorf("negative model size: %v", err)
	}
}
