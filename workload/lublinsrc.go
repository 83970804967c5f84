package workload

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/lublin"
)

// LublinSource generates the workload with the Lublin-Feitelson model
// (package lublin), the thesis' dynamic workload model (section 6.4.1: 1000
// jobs on 32 processors).
type LublinSource struct {
	// Jobs is the number of jobs to generate, > 0.
	Jobs int64 `json:"jobs"`
	// Procs is the machine size in processors; 0 means lublin.RefProcs
	// (128).
	Procs int `json:"procs,omitempty"`
	// ModelProcs, when set, is the machine size the model draws for
	// instead of Procs: its size parameters adapt to ModelProcs
	// (lublin.Params.ForProcs) and each job's runtime follows its size
	// drawn there; then every size above Procs is cut to Procs (a job of
	// 64 processors drawn for 128 runs on all 32 of a 32-processor
	// machine), and the offered load and statistics are those on Procs.
	// 0 draws for Procs.
	ModelProcs int `json:"model_procs,omitempty"`
	// Mix is the job classes (lublin.ParseMix names: both, combined,
	// batch, interactive); empty means both.
	Mix string `json:"mix,omitempty"`
	// StartHour is the hour of the day, 0 to 23, at which time 0 falls.
	StartHour int `json:"start_hour"`
	// Batch, Interactive and Combined override parameters of the classes:
	// each maps a parameter's snake_case name (LublinParamNames:
	// "serial_prob", "u_hi", "a_arr"...) to its value, which replaces the
	// published value adapted to Procs (lublin.Params.ForProcs). Empty
	// maps keep the published values.
	Batch       map[string]float64 `json:"batch,omitempty"`
	Interactive map[string]float64 `json:"interactive,omitempty"`
	Combined    map[string]float64 `json:"combined,omitempty"`
	// Select, when set, keeps the first workload drawn from the seed's
	// generator stream whose profile (arrival span, median size,
	// power-of-two share, offered load on Procs) falls in its windows; see
	// Selection.
	Select *Selection `json:"select,omitempty"`
}

// lublinParams lists the snake_case names of lublin.Params' fields.
var lublinParams = []struct {
	name  string
	field func(*lublin.Params) *float64
}{
	{"serial_prob", func(p *lublin.Params) *float64 { return &p.SerialProb }},
	{"pow2_prob", func(p *lublin.Params) *float64 { return &p.Pow2Prob }},
	{"u_low", func(p *lublin.Params) *float64 { return &p.ULow }},
	{"u_med", func(p *lublin.Params) *float64 { return &p.UMed }},
	{"u_hi", func(p *lublin.Params) *float64 { return &p.UHi }},
	{"u_prob", func(p *lublin.Params) *float64 { return &p.UProb }},
	{"a1", func(p *lublin.Params) *float64 { return &p.A1 }},
	{"b1", func(p *lublin.Params) *float64 { return &p.B1 }},
	{"a2", func(p *lublin.Params) *float64 { return &p.A2 }},
	{"b2", func(p *lublin.Params) *float64 { return &p.B2 }},
	{"pa", func(p *lublin.Params) *float64 { return &p.PA }},
	{"pb", func(p *lublin.Params) *float64 { return &p.PB }},
	{"a_arr", func(p *lublin.Params) *float64 { return &p.AArr }},
	{"b_arr", func(p *lublin.Params) *float64 { return &p.BArr }},
	{"arar", func(p *lublin.Params) *float64 { return &p.ARAR }},
	{"a_num", func(p *lublin.Params) *float64 { return &p.ANum }},
	{"b_num", func(p *lublin.Params) *float64 { return &p.BNum }},
}

// LublinParamNames returns the snake_case names of the Lublin model's
// parameters, in lublin.Params field order (SerialProb is "serial_prob",
// UHi "u_hi", AArr "a_arr", ARAR "arar").
func LublinParamNames() []string {
	names := make([]string, len(lublinParams))
	for i, p := range lublinParams {
		names[i] = p.name
	}
	return names
}

// ParseLublinParams parses "name=value,name=value" (names from
// LublinParamNames) into an override map.
func ParseLublinParams(s string) (map[string]float64, error) {
	m := map[string]float64{}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("lublin parameter %q: want name=value", kv)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("lublin parameter %q: %q is not a number", k, v)
		}
		m[strings.TrimSpace(k)] = f
	}
	return m, checkLublinParams(m)
}

func checkLublinParams(m map[string]float64) error {
	var bad []string
	for k := range m {
		if !knownLublinParam(k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("unknown lublin parameter(s) %s (want %s)", strings.Join(bad, ", "), strings.Join(LublinParamNames(), ", "))
}

func knownLublinParam(name string) bool {
	for _, p := range lublinParams {
		if p.name == name {
			return true
		}
	}
	return false
}

func (s LublinSource) withDefaults() LublinSource {
	if s.Procs == 0 {
		s.Procs = lublin.RefProcs
	}
	if s.Mix == "" {
		s.Mix = lublin.BatchAndInteractive.String()
	}
	if s.Select != nil {
		sel := s.Select.withDefaults()
		s.Select = &sel
	}
	return s
}

// Config returns the lublin.Config that s describes, validated: for a
// machine of ModelProcs processors when that is set.
func (s *LublinSource) Config() (lublin.Config, error) {
	d := s.withDefaults()
	var errs []error
	if d.Jobs <= 0 {
		errs = append(errs, fmt.Errorf("number of jobs %d: want at least 1", d.Jobs))
	}
	if d.Procs < 1 {
		errs = append(errs, fmt.Errorf("machine size %d: want at least 1 processor", d.Procs))
	} else if err := model.CheckProcs(int64(d.Procs)); err != nil {
		errs = append(errs, fmt.Errorf("machine size %w", err))
	}
	if d.ModelProcs < 0 {
		errs = append(errs, fmt.Errorf("model machine size %d: want at least 1 processor, or 0 for the machine's", d.ModelProcs))
	}
	mix, err := lublin.ParseMix(d.Mix)
	if err != nil {
		errs = append(errs, err)
	}
	for _, m := range []map[string]float64{d.Batch, d.Interactive, d.Combined} {
		if err := checkLublinParams(m); err != nil {
			errs = append(errs, err)
		}
	}
	if d.Select != nil {
		if err := d.Select.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("selection: %w", err))
		}
	}
	if len(errs) > 0 {
		return lublin.Config{}, errors.Join(errs...)
	}
	drawn := d.Procs
	if d.ModelProcs > 0 {
		drawn = d.ModelProcs
	}
	cfg := lublin.Config{Procs: drawn, Mix: mix, Jobs: d.Jobs, StartHour: d.StartHour}
	override := func(m map[string]float64, def func() lublin.Params) lublin.Params {
		if len(m) == 0 {
			return lublin.Params{}
		}
		p := def().ForProcs(drawn)
		for _, lp := range lublinParams {
			if v, ok := m[lp.name]; ok {
				*lp.field(&p) = v
			}
		}
		return p
	}
	cfg.Batch = override(d.Batch, lublin.BatchParams)
	cfg.Interactive = override(d.Interactive, lublin.InteractiveParams)
	cfg.Combined = override(d.Combined, lublin.CombinedParams)
	if err := cfg.Validate(); err != nil {
		return lublin.Config{}, err
	}
	return cfg, nil
}

// lublinSource regenerates the same jobs on every pass: from the seed's
// generator stream, or, under a Selection, from the state that stream had
// when it began the workload selected.
type lublinSource struct {
	cfg      lublin.Config
	procs    int // the machine; sizes above it are cut when the model draws for a larger one
	seed     uint64
	h        model.Header
	state    []byte    // the stream's state at the start of the selected draw; nil without a selection
	selected *Selected // nil without a selection
}

func openLublin(l *LublinSource, seed uint64) (*lublinSource, error) {
	cfg, err := l.Config()
	if err != nil {
		return nil, err
	}
	d := l.withDefaults()
	s := &lublinSource{cfg: cfg, procs: d.Procs, seed: seed, h: cfg.Header()}
	if cfg.Procs != d.Procs {
		p := strconv.Itoa(d.Procs)
		s.h.Set(model.KeyMaxNodes, p)
		s.h.Set(model.KeyMaxProcs, p)
		s.h.Add(model.KeyNote, fmt.Sprintf("Sizes drawn by gangsim (package workload) for %d processors and cut to the machine's %d: "+
			"a size above %d becomes %d; runtimes follow the sizes drawn", cfg.Procs, d.Procs, d.Procs, d.Procs))
	}
	if l.Select == nil {
		return s, nil
	}
	sel := l.Select.withDefaults()
	pcg := rand.NewPCG(seed, StreamGenerator)
	var g *lublin.Generator
	for draw := 1; draw <= sel.MaxDraws; draw++ {
		state, err := pcg.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("lublin source: saving the random stream: %w", err)
		}
		if g == nil {
			g = lublin.New(cfg, rand.New(pcg))
		} else {
			g.Reset()
		}
		p, err := MeasureProfile(s.cut(g), s.procs)
		if err != nil {
			return nil, err
		}
		if sel.Accepts(p) {
			s.state, s.selected = state, &Selected{Draw: draw, Profile: p}
			s.h.Add(model.KeyNote, fmt.Sprintf("Selected by gangsim (package workload): draw %d of the generator stream of seed %d, "+
				"the first whose profile has %s: arrival span %.2f days, median size %s, power-of-two share of parallel jobs %.2f, "+
				"offered load %.3f on %d processors", draw, seed, sel.String(), p.SpanDays, formatFloat(p.MedianSize),
				p.PowerOfTwoShare, p.Load, s.procs))
			return s, nil
		}
	}
	return nil, fmt.Errorf("lublin source: none of %d workloads drawn with seed %d has %s (raise max_draws or widen the windows)",
		sel.MaxDraws, seed, sel.String())
}

func (s *lublinSource) header() *model.Header { return &s.h }
func (s *lublinSource) inputs() []model.Input { return nil }
func (s *lublinSource) close() error          { return nil }
func (s *lublinSource) pass() (sourcePass, error) {
	if s.state == nil {
		return sourcePass{jobs: s.cut(lublin.New(s.cfg, NewStream(s.seed, StreamGenerator)))}, nil
	}
	var pcg rand.PCG
	if err := pcg.UnmarshalBinary(s.state); err != nil {
		return sourcePass{}, fmt.Errorf("lublin source: restoring the random stream: %w", err)
	}
	return sourcePass{jobs: s.cut(lublin.New(s.cfg, rand.New(&pcg)))}, nil
}

// cut returns g's jobs with their sizes cut to the machine, when the
// model draws for a larger one; g itself otherwise.
func (s *lublinSource) cut(g *lublin.Generator) model.JobReader {
	if s.cfg.Procs <= s.procs {
		return g
	}
	return &cutSizes{g: g, procs: s.procs}
}

// cutSizes reads a generator's jobs with every size above procs cut to
// procs.
type cutSizes struct {
	g     *lublin.Generator
	procs int
}

func (c *cutSizes) Header() *model.Header { return c.g.Header() }

func (c *cutSizes) Read() (model.Job, error) {
	j, err := c.g.Read()
	j.AllocProcs, j.ReqProcs = min(j.AllocProcs, c.procs), min(j.ReqProcs, c.procs)
	return j, err
}
