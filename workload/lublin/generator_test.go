package lublin_test

import (
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/lublin"
)

// TestPublishedParams pins the parameter values of the reference program
// m_lublin99.c, so that an accidental edit fails loudly.
func TestPublishedParams(t *testing.T) {
	cases := []struct {
		name string
		got  lublin.Params
		want lublin.Params
	}{
		{"batch", lublin.BatchParams(), lublin.Params{
			SerialProb: 0.2927, Pow2Prob: 0.6686, ULow: 1.2, UMed: 5, UHi: 7, UProb: 0.875,
			A1: 6.57, B1: 0.823, A2: 639.1, B2: 0.0156, PA: -0.003, PB: 0.6986,
			AArr: 6.0415, BArr: 0.8531, ARAR: 1.0519, ANum: 6.1271, BNum: 5.2740}},
		{"interactive", lublin.InteractiveParams(), lublin.Params{
			SerialProb: 0.1541, Pow2Prob: 0.625, ULow: 1, UMed: 3, UHi: 5.5, UProb: 0.705,
			A1: 3.8351, B1: 0.6605, A2: 7.073, B2: 0.6856, PA: -0.0118, PB: 0.9156,
			AArr: 6.5510, BArr: 0.6621, ARAR: 0.9797, ANum: 8.9186, BNum: 3.6680}},
		{"combined", lublin.CombinedParams(), lublin.Params{
			SerialProb: 0.244, Pow2Prob: 0.576, ULow: 0.8, UMed: 4.5, UHi: 7, UProb: 0.86,
			A1: 4.2, B1: 0.94, A2: 312, B2: 0.03, PA: -0.0054, PB: 0.78,
			AArr: 10.2303, BArr: 0.4871, ARAR: 1.0225, ANum: 8.1737, BNum: 3.9631}},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %v\nwant %v", tc.name, tc.got, tc.want)
		}
		if err := tc.got.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if tc.got.ForProcs(lublin.RefProcs) != tc.got {
			t.Errorf("%s: ForProcs(%d) changed the parameters", tc.name, lublin.RefProcs)
		}
	}
}

func TestForProcs(t *testing.T) {
	cases := []struct {
		p               lublin.Params
		procs           int
		uLow, uMed, uHi float64
	}{
		{lublin.CombinedParams(), 32, 0.8, 2.5, 5},
		{lublin.CombinedParams(), 1024, 0.8, 7.5, 10},
		{lublin.BatchParams(), 32, 1.2, 3, 5},
		{lublin.BatchParams(), 1024, 1.2, 8, 10},
		{lublin.InteractiveParams(), 32, 1, 1, 3.5},
		{lublin.InteractiveParams(), 1024, 1, 6, 8.5},
		{lublin.CombinedParams(), 8, 0.8, 0.8, 3}, // UMed would be 0.5 < ULow
		{lublin.InteractiveParams(), 2, 0, 0, 0},  // UHi would be -0.5
		{lublin.BatchParams(), 2, 1, 1, 1},        // ULow would pass UHi
		{lublin.CombinedParams(), 1, 0, 0, 0},
	}
	for _, tc := range cases {
		q := tc.p.ForProcs(tc.procs)
		if math.Abs(q.ULow-tc.uLow) > 1e-12 || math.Abs(q.UMed-tc.uMed) > 1e-12 || math.Abs(q.UHi-tc.uHi) > 1e-12 {
			t.Errorf("ForProcs(%d) of %v: ULow, UMed, UHi = %v, %v, %v, want %v, %v, %v",
				tc.procs, tc.p, q.ULow, q.UMed, q.UHi, tc.uLow, tc.uMed, tc.uHi)
		}
		q.ULow, q.UMed, q.UHi = tc.p.ULow, tc.p.UMed, tc.p.UHi
		if q != tc.p {
			t.Errorf("ForProcs(%d) changed more than ULow, UMed, UHi", tc.procs)
		}
	}
}

// TestDailyWeights compares the weights with the test's own computation
// (stats_test.go) and with values printed by the reference program.
func TestDailyWeights(t *testing.T) {
	// Printed by m_lublin99.c's arrive_init (weights[j][b], %.17g) for
	// buckets 0, 10 (05:00, the minimum) and 27 (13:30, near the maximum).
	fromProgram := []struct {
		p       lublin.Params
		b0, b10 float64
		b27     float64
	}{
		{lublin.CombinedParams(), 0.50782072472080009, 0.16491787324109236, 1.8331139004134183},
		{lublin.InteractiveParams(), 0.51350543855508368, 0.11869380263618964, 1.8711067085072692},
		{lublin.BatchParams(), 0.54615866412959957, 0.34715449125860265, 1.6607396517451012},
	}
	for _, fp := range fromProgram {
		w := fp.p.DailyWeights()
		for _, c := range []struct {
			b    int
			want float64
		}{{0, fp.b0}, {10, fp.b10}, {27, fp.b27}} {
			if math.Abs(w[c.b]-c.want) > 1e-9 {
				t.Errorf("weight of bucket %d = %.12f, the program gives %.12f", c.b, w[c.b], c.want)
			}
		}
	}
	for _, p := range []lublin.Params{lublin.BatchParams(), lublin.InteractiveParams(), lublin.CombinedParams()} {
		w := p.DailyWeights()
		want := dailyWeights(p)
		sum := 0.0
		for b := range w {
			sum += w[b]
			if math.Abs(w[b]-want[b]) > 1e-9 {
				t.Errorf("ANum=%v: bucket %d weight %v, want %v", p.ANum, b, w[b], want[b])
			}
			if w[b] <= 0 {
				t.Errorf("ANum=%v: bucket %d weight %v is not positive", p.ANum, b, w[b])
			}
		}
		if math.Abs(sum-lublin.Buckets) > 1e-9 {
			t.Errorf("ANum=%v: weights sum to %v, want %d", p.ANum, sum, lublin.Buckets)
		}
	}
}

func TestJobs(t *testing.T) {
	for _, mix := range []lublin.Mix{lublin.BatchAndInteractive, lublin.Combined, lublin.BatchOnly, lublin.InteractiveOnly} {
		cfg := lublin.Config{Mix: mix, Jobs: 5000, Procs: 64}
		jobs := generate(t, cfg, 11)
		if len(jobs) != 5000 {
			t.Fatalf("%v: %d jobs, want 5000", mix, len(jobs))
		}
		want := model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
			With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldStatus)
		queues := map[int]bool{}
		for _, cl := range cfg.Classes() {
			if cl.Queue >= 0 {
				queues[cl.Queue] = true
			}
		}
		if len(queues) > 0 {
			want = want.With(model.FieldQueue)
		}
		seen := map[int]int{}
		for i, j := range jobs {
			if j.ID != int64(i+1) {
				t.Fatalf("%v: job %d has ID %d", mix, i, j.ID)
			}
			if j.Known != want {
				t.Fatalf("%v: job %d knows fields %b, want %b", mix, j.ID, j.Known, want)
			}
			if j.Status != model.StatusCompleted || j.AllocProcs != j.ReqProcs || j.AllocProcs < 1 {
				t.Fatalf("%v: job %+v", mix, j)
			}
			if j.Submit%model.Second != 0 || j.Runtime%model.Second != 0 {
				t.Fatalf("%v: job %d times are not whole seconds: %v, %v", mix, j.ID, j.Submit, j.Runtime)
			}
			if i > 0 && j.Submit < jobs[i-1].Submit {
				t.Fatalf("%v: job %d submitted before job %d", mix, j.ID, j.ID-1)
			}
			if i == 0 && j.Submit <= 0 {
				t.Errorf("%v: first job submitted at %v, want after time 0", mix, j.Submit)
			}
			if j.Has(model.FieldQueue) {
				if !queues[j.Queue] {
					t.Fatalf("%v: job %d in queue %d", mix, j.ID, j.Queue)
				}
				seen[j.Queue]++
			}
			if !j.App.IsZero() {
				t.Fatalf("%v: job %d has application attributes", mix, j.ID)
			}
		}
		if len(seen) != len(queues) {
			t.Errorf("%v: jobs in queues %v, want all of %v", mix, seen, queues)
		}
	}
}

func TestDeterminism(t *testing.T) {
	cfg := lublin.Config{Jobs: 3000, Procs: 256}
	a := generate(t, cfg, 42)
	b := generate(t, cfg, 42)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same configuration and seed gave different jobs")
	}
	if c := generate(t, cfg, 43); reflect.DeepEqual(a, c) {
		t.Fatal("different seeds gave the same jobs")
	}

	// Read, the iterator (resumed after a break) and Generate agree.
	g := lublin.New(cfg, rand.New(rand.NewPCG(42, 0x1ab1)))
	var streamed []model.Job
	for range 1000 {
		j, err := g.Read()
		if err != nil {
			t.Fatal(err)
		}
		streamed = append(streamed, j)
	}
	for j := range g.Jobs() {
		streamed = append(streamed, j)
		if len(streamed) == 2000 {
			break
		}
	}
	for j := range g.Jobs() {
		streamed = append(streamed, j)
	}
	if _, err := g.Read(); !errors.Is(err, io.EOF) {
		t.Fatalf("Read after the last job: %v, want io.EOF", err)
	}
	if !reflect.DeepEqual(streamed, a) {
		t.Fatal("streamed jobs differ from Generate's")
	}

	// An endless stream starts with the same jobs.
	cfg.Jobs = 0
	g = lublin.New(cfg, rand.New(rand.NewPCG(42, 0x1ab1)))
	for i := range 3100 {
		j, err := g.Read()
		if err != nil {
			t.Fatal(err)
		}
		if i < len(a) && !reflect.DeepEqual(j, a[i]) {
			t.Fatalf("endless stream job %d differs", i+1)
		}
	}
}

func TestHeader(t *testing.T) {
	tr := lublin.Generate(lublin.Config{Procs: 32, Jobs: 10}, rand.New(rand.NewPCG(1, 2)))
	h := &tr.Header
	if h.MaxProcs() != 32 || h.MaxNodes() != 32 {
		t.Errorf("MaxProcs, MaxNodes = %d, %d, want 32", h.MaxProcs(), h.MaxNodes())
	}
	for key, want := range map[string]int64{model.KeyMaxJobs: 10, model.KeyMaxRecords: 10, model.KeyMaxRuntime: lublin.MaxRuntimeSeconds} {
		if n, ok := h.Int(key); !ok || n != want {
			t.Errorf("%s = %d (%v), want %d", key, n, ok, want)
		}
	}
	if c, _ := h.Get(model.KeyComputer); !strings.Contains(c, "Lublin-Feitelson model") {
		t.Errorf("Computer = %q", c)
	}
	var notes []string
	for _, l := range h.Lines {
		if l.Key == model.KeyNote {
			notes = append(notes, l.Value)
		}
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{"63(11)", "Lublin", "Feitelson", "m_lublin99.c", "batch jobs: SerialProb=0.2927", "interactive jobs: SerialProb=0.1541", "UHi=5 "} {
		if !strings.Contains(all, want) {
			t.Errorf("Notes lack %q:\n%s", want, all)
		}
	}
	if !reflect.DeepEqual(*lublin.New(lublin.Config{Procs: 32, Jobs: 10}, rand.New(rand.NewPCG(1, 2))).Header(), *h) {
		t.Error("Generator.Header differs from Generate's header")
	}
	if h := (lublin.Config{}).Header(); slices.ContainsFunc(h.Lines, func(l model.HeaderLine) bool { return l.Key == model.KeyMaxJobs }) {
		t.Error("endless stream header has MaxJobs")
	}

	ps := lublin.Config{Mix: lublin.Combined, Jobs: 7}.ManifestParams()
	names := []string{}
	for _, p := range ps {
		names = append(names, p.Name+"="+p.Value)
	}
	got := strings.Join(names, ";")
	for _, want := range []string{"procs=128", "mix=combined", "jobs=7", "start-hour=0", "combined=SerialProb=0.244 "} {
		if !strings.Contains(got, want) {
			t.Errorf("manifest parameters %q lack %q", got, want)
		}
	}
}

func TestMix(t *testing.T) {
	for _, m := range []lublin.Mix{lublin.BatchAndInteractive, lublin.Combined, lublin.BatchOnly, lublin.InteractiveOnly} {
		got, err := lublin.ParseMix(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMix(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := lublin.ParseMix("batch+interactive"); err == nil {
		t.Error("ParseMix accepted an unknown name")
	}
}

func TestValidate(t *testing.T) {
	bad := func(f func(*lublin.Params)) lublin.Params {
		p := lublin.CombinedParams()
		f(&p)
		return p
	}
	cases := []struct {
		name string
		cfg  lublin.Config
		want string // a fragment of the error
	}{
		{"negative procs", lublin.Config{Procs: -1}, "negative"},
		{"negative jobs", lublin.Config{Jobs: -5}, "negative"},
		{"start hour", lublin.Config{StartHour: 24}, "start hour"},
		{"mix", lublin.Config{Mix: 9}, "mix"},
		{"too big for machine", lublin.Config{Mix: lublin.Combined, Procs: 64, Combined: lublin.CombinedParams()}, "exceeds log2"},
		{"serial prob", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.SerialProb = 1.2 })}, "SerialProb"},
		{"probs sum", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.Pow2Prob = 0.9 })}, "exceeds 1"},
		{"u order", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.UMed = 0.5 })}, "ULow <= UMed"},
		{"gamma", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.B2 = 0 })}, "B2"},
		{"runtime bound", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.A2 = 1e5 })}, "ln(runtime)"},
		{"arrival bound", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.BArr = 20 })}, "ln(inter-arrival)"},
		{"pa", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.PA = math.NaN() })}, "PA"},
		{"cycle", lublin.Config{Mix: lublin.Combined, Combined: bad(func(p *lublin.Params) { p.BNum = -1 })}, "BNum"},
	}
	for _, tc := range cases {
		err := tc.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error about %q", tc.name, err, tc.want)
			continue
		}
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "lublin: ") {
					t.Errorf("%s: New panicked with %v, want a \"lublin: \" message", tc.name, r)
				}
			}()
			lublin.New(tc.cfg, rand.New(rand.NewPCG(1, 1)))
		}()
	}
	for _, cfg := range []lublin.Config{{}, {Procs: 1}, {Procs: 3}, {Procs: 100000, Mix: lublin.BatchOnly, StartHour: 23}} {
		if err := cfg.Validate(); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

func TestPanics(t *testing.T) {
	cases := map[string]func(){
		"nil rand":           func() { lublin.New(lublin.Config{}, nil) },
		"endless trace":      func() { lublin.Generate(lublin.Config{}, rand.New(rand.NewPCG(1, 1))) },
		"ForProcs(0)":        func() { lublin.CombinedParams().ForProcs(0) },
		"ForProcs(-128)":     func() { lublin.CombinedParams().ForProcs(-128) },
		"arrivals, nil rand": func() { lublin.NewArrivals(lublin.CombinedParams(), 0, nil) },
		"arrivals at hour 24": func() {
			lublin.NewArrivals(lublin.CombinedParams(), 24, rand.New(rand.NewPCG(1, 1)))
		},
		"arrivals, BArr 0": func() {
			p := lublin.CombinedParams()
			p.BArr = 0
			lublin.NewArrivals(p, 0, rand.New(rand.NewPCG(1, 1)))
		},
	}
	for name, f := range cases {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "lublin: ") {
					t.Errorf("%s: panicked with %v, want a \"lublin: \" message", name, r)
				}
			}()
			f()
		}()
	}
}

// A Generator is a model.JobReader.
var _ model.JobReader = (*lublin.Generator)(nil)

// TestReset: a reset generator gives the jobs a new generator would give
// from the same point of the random stream, for every mix and a start hour
// other than midnight, trace after trace.
func TestReset(t *testing.T) {
	for _, mix := range []lublin.Mix{lublin.BatchAndInteractive, lublin.Combined, lublin.BatchOnly} {
		cfg := lublin.Config{Procs: 64, Mix: mix, Jobs: 500, StartHour: 9}
		pa, pb := rand.NewPCG(8, 9), rand.NewPCG(8, 9)
		ra, rb := rand.New(pa), rand.New(pb)
		reused := lublin.New(cfg, ra)
		for trace := range 4 {
			if trace > 0 {
				reused.Reset()
			}
			fresh := lublin.New(cfg, rb)
			var a, b []model.Job
			for j := range reused.Jobs() {
				a = append(a, j)
			}
			for j := range fresh.Jobs() {
				b = append(b, j)
			}
			if len(a) != 500 || !reflect.DeepEqual(a, b) {
				t.Fatalf("%v, trace %d: the reset generator's %d jobs differ from a new generator's", mix, trace+1, len(a))
			}
		}
	}
}
