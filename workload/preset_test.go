package workload

import (
	"encoding/json"
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

// TestThesisPresetRate measures what ThesisPreset's documentation says of
// the draws it selects from (the Lublin model's single class for 32
// processors, 1000 jobs): over 1000 seeds, the median span and load, how
// often the median size is just under 4, the power-of-two share, and the
// share of draws with all three statistics of the thesis. The shares must
// stay near the documented ones (within 4 standard errors).
func TestThesisPresetRate(t *testing.T) {
	base := ThesisPreset().Source.Lublin
	cfg, err := (&LublinSource{Jobs: base.Jobs, Procs: base.Procs, Mix: base.Mix}).Config()
	if err != nil {
		t.Fatal(err)
	}
	sel := base.Select
	const n = 1000
	var spans, loads, pow2 []float64
	medianOK, all := 0, 0
	for seed := uint64(1); seed <= n; seed++ {
		p, err := MeasureProfile(lublin.New(cfg, NewStream(seed, StreamGenerator)), 32)
		if err != nil {
			t.Fatal(err)
		}
		spans, loads, pow2 = append(spans, p.SpanDays), append(loads, p.Load), append(pow2, p.PowerOfTwoShare)
		if sel.MedianSize.Contains(p.MedianSize) {
			medianOK++
		}
		if sel.Accepts(p) {
			all++
		}
	}
	for _, xs := range [][]float64{spans, loads, pow2} {
		slices.Sort(xs)
	}
	t.Logf("%d draws: median span %.1f days, median load %.2f, median power-of-two share %.2f, median size in [3, 4) in %.1f%%, all three statistics in %.1f%%",
		n, spans[n/2], loads[n/2], pow2[n/2], 100*float64(medianOK)/n, 100*float64(all)/n)
	check := func(what string, k int, p float64) {
		if se := math.Sqrt(p * (1 - p) / n); math.Abs(float64(k)/n-p) > 4*se {
			t.Errorf("%s in %.1f%% of draws, documented %.1f%% (± %.1f%%)", what, 100*float64(k)/n, 100*p, 400*se)
		}
	}
	check("median size just under 4", medianOK, 0.60)
	check("all three statistics", all, 0.011)
	if spans[n/2] < 9 || spans[n/2] > 11 || loads[n/2] < 0.5 || loads[n/2] > 0.7 || pow2[n/2] < 0.84 || pow2[n/2] > 0.9 {
		t.Errorf("median span %.1f days, load %.2f, power-of-two share %.2f: not the documented 10, 0.6, 0.87",
			spans[n/2], loads[n/2], pow2[n/2])
	}
}
