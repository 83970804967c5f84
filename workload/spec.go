package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Spec describes completely how a workload is made: where its jobs come
// from, the transforms applied to them, and the seed of every random
// choice. The same Spec gives the same jobs, whether genwork runs it from
// its flags or a program builds it and calls Open, and it round-trips
// through JSON (snake_case field names, durations as strings such as
// "5ms"), so experiment files can embed it.
//
// The transforms apply to each job in this order: Attributes, Estimates,
// Load, Compress. Nil transforms (and Compress 0) are left out.
type Spec struct {
	// Preset names a spec (PresetNames; "thesis" is ThesisPreset) that
	// gives every field this one leaves unset: the source when no source
	// is set, each transform that is nil, Compress when 0. Resolved
	// writes the preset's fields out and keeps the name.
	Preset string `json:"preset,omitempty"`
	// Source is where the jobs come from; exactly one of its fields is
	// set (or none, with a Preset).
	Source Source `json:"source"`
	// Attributes, when set, assigns application attributes.
	Attributes *Attributes `json:"attributes,omitempty"`
	// Estimates, when set, replaces the users' runtime estimates.
	Estimates *Estimates `json:"estimates,omitempty"`
	// Load, when set, scales runtimes or arrivals to an offered load.
	Load *Load `json:"load,omitempty"`
	// Compress, when not 0, divides every time by this factor (> 0; the
	// thesis used 100, section 6.4.1). 0 and 1 leave times alone.
	Compress float64 `json:"compress,omitempty"`
	// Seed seeds every random choice. Each purpose (the generator, the
	// attributes, the estimates) draws from its own stream derived from
	// it, so adding a transform does not change the others' draws.
	Seed uint64 `json:"seed"`
}

// Source is the origin of a workload's jobs: a trace file, the Lublin
// model, one of the thesis' scenarios, or a synthetic workload whose
// saturation point is known. Exactly one field is set.
type Source struct {
	Trace     *TraceSource     `json:"trace,omitempty"`
	Lublin    *LublinSource    `json:"lublin,omitempty"`
	Scenario  *ScenarioSource  `json:"scenario,omitempty"`
	Synthetic *SyntheticSource `json:"synthetic,omitempty"`
}

// TraceSource reads a trace file in any format gangsim reads (SWF, gzipped
// SWF, Parquet, Arrow stream, CSV; detected from its first bytes) and
// cleans it.
type TraceSource struct {
	// Path is the file; "-" is standard input (Open's stdin argument).
	Path string `json:"path"`
	// Lenient skips malformed SWF lines (counted in Reader.Anomalies)
	// instead of failing.
	Lenient bool `json:"lenient,omitempty"`
	// Strict refuses every SWF value outside SWF 2.2 (swf.Reader.Strict);
	// by default such a value in a field replay does not use is kept and
	// counted.
	Strict bool `json:"strict,omitempty"`
	// Clean, when set, normalizes the jobs before the transforms.
	Clean *Cleaning `json:"clean,omitempty"`
	// Skip and Jobs take a window of the trace: the Jobs jobs (0: all)
	// after the first Skip, counted after cleaning, before the transforms
	// (so an offered load is the window's). A process-level replay of a
	// whole production log is out of reach; a window of the thesis'
	// workload's size is not.
	Skip int `json:"skip,omitempty"`
	Jobs int `json:"jobs,omitempty"`
	// Needed are the fields the replay uses (swf.Reader.Needed; 0 for
	// swf.NeededFields): a replay whose policy never reads estimates
	// leaves them out, so that a bad estimate is counted, not refused. It
	// is not part of the spec's JSON: the replay sets it.
	Needed model.FieldSet `json:"-"`
}

// ScenarioSource builds one of the thesis' static scenarios or a Calypso
// experiment (package workload/scenario) by name.
type ScenarioSource struct {
	// Name is the scenario (see genwork scenario --list).
	Name string `json:"name"`
	// Comm overrides the scenario's communication mode: "blocking" or
	// "non-blocking"; empty keeps the scenario's.
	Comm string `json:"comm,omitempty"`
	// Tasks and Machines size the Calypso experiments (p tasks on m
	// machines); 0 keeps the scenario's.
	Tasks    int `json:"tasks,omitempty"`
	Machines int `json:"machines,omitempty"`
	// TaskLength is a Calypso task's length; 0 keeps the scenario's.
	TaskLength model.Duration `json:"task_length,omitempty"`
}

// kind names the source that s sets, or "" when none or several are.
func (s *Source) kind() string {
	var kinds []string
	if s.Trace != nil {
		kinds = append(kinds, "trace")
	}
	if s.Lublin != nil {
		kinds = append(kinds, "lublin")
	}
	if s.Scenario != nil {
		kinds = append(kinds, "scenario")
	}
	if s.Synthetic != nil {
		kinds = append(kinds, "synthetic")
	}
	if len(kinds) != 1 {
		return ""
	}
	return kinds[0]
}

// Resolved returns a copy of s with every default written out (a preset's
// fields, the Lublin machine size and mix, the thesis' granularities, the
// loose estimates' maximum factor, the load scaling mode, a cleaning
// preset's rules), so that it reads the same in any later version. It does
// not validate s.
func (s Spec) Resolved() Spec {
	s = s.withPreset()
	r := s
	switch {
	case s.Source.Trace != nil:
		t := *s.Source.Trace
		if t.Clean != nil {
			c := *t.Clean
			if opt, err := c.Rules(); err == nil {
				c.Options = opt.Compact()
			}
			t.Clean = &c
		}
		r.Source.Trace = &t
	case s.Source.Lublin != nil:
		l := s.Source.Lublin.withDefaults()
		r.Source.Lublin = &l
	case s.Source.Scenario != nil:
		c := *s.Source.Scenario
		r.Source.Scenario = &c
	case s.Source.Synthetic != nil:
		c := s.Source.Synthetic.withDefaults()
		r.Source.Synthetic = &c
	}
	if s.Attributes != nil {
		a := s.Attributes.withDefaults()
		a.Granularities = append([]model.Duration(nil), a.Granularities...)
		r.Attributes = &a
	}
	if s.Estimates != nil {
		e := s.Estimates.withDefaults()
		r.Estimates = &e
	}
	if s.Load != nil {
		l := s.Load.withDefaults()
		r.Load = &l
	}
	if s.Compress == 1 {
		r.Compress = 0
	}
	return r
}

// Validate reports every problem of s: an unknown preset, not exactly one
// source (after the preset's), an invalid source or transform.
func (s *Spec) Validate() error {
	var errs []error
	add := func(what string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
	}
	if s.Preset != "" {
		if _, err := Preset(s.Preset); err != nil {
			return err
		}
		p := s.withPreset()
		s = &p
	}
	switch s.Source.kind() {
	case "trace":
		t := s.Source.Trace
		if t.Path == "" {
			add("trace source", errors.New("no path"))
		}
		if t.Strict && t.Lenient {
			add("trace source", errors.New("strict and lenient contradict each other"))
		}
		if t.Clean != nil {
			_, err := t.Clean.Rules()
			add("cleaning", err)
		}
		if t.Skip < 0 || t.Jobs < 0 {
			add("trace source", fmt.Errorf("window skip %d, jobs %d: want counts >= 0", t.Skip, t.Jobs))
		}
	case "lublin":
		_, err := s.Source.Lublin.Config()
		add("lublin source", err)
	case "scenario":
		add("scenario source", s.Source.Scenario.validate())
	case "synthetic":
		add("synthetic source", s.Source.Synthetic.Validate())
	default:
		errs = append(errs, errors.New("source: set exactly one of trace, lublin, scenario and synthetic"))
	}
	if s.Attributes != nil {
		add("attributes", s.Attributes.Validate())
	}
	if s.Estimates != nil {
		add("estimates", s.Estimates.Validate())
	}
	if s.Load != nil {
		add("load", s.Load.Validate())
	}
	if !(s.Compress >= 0) || math.IsInf(s.Compress, 0) {
		add("compress", fmt.Errorf("factor %v is not a positive number", s.Compress))
	}
	return errors.Join(errs...)
}

// validate checks what does not need the scenario package.
func (s *ScenarioSource) validate() error {
	var errs []error
	if s.Name == "" {
		errs = append(errs, errors.New("no scenario name"))
	}
	if s.Comm != "" {
		if c, err := model.ParseComm(s.Comm); err != nil || c == model.CommUnspecified {
			errs = append(errs, fmt.Errorf("unknown communication mode %q (want blocking or non-blocking)", s.Comm))
		}
	}
	if s.Tasks < 0 || s.Machines < 0 || s.TaskLength < 0 {
		errs = append(errs, fmt.Errorf("tasks %d, machines %d and task length %v must not be negative", s.Tasks, s.Machines, s.TaskLength))
	}
	return errors.Join(errs...)
}

// UsesRandomness reports whether s draws random numbers: a generated
// source, attributes (granularity draws) or loose estimates. Outputs
// record the seed only then.
func (s *Spec) UsesRandomness() bool {
	p := s.withPreset()
	s = &p
	return s.Source.Lublin != nil || s.Source.Synthetic != nil || s.Attributes != nil ||
		(s.Estimates != nil && s.Estimates.withDefaults().Mode == EstimatesLoose)
}

// Params returns s, resolved (see Resolved), as manifest parameters: one
// per JSON leaf, named by its path ("source.lublin.procs",
// "estimates.mode", "load.target"), lists joined by commas, sorted by name.
// The seed is left out: the manifest records it on its own.
func (s *Spec) Params() []model.Param {
	r := s.Resolved()
	r.Seed = 0
	b, err := json.Marshal(r)
	if err != nil {
		panic("workload: a Spec does not marshal: " + err.Error())
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var tree map[string]any
	if err := d.Decode(&tree); err != nil {
		panic("workload: a Spec does not unmarshal: " + err.Error())
	}
	delete(tree, "seed")
	var ps []model.Param
	flatten("", tree, &ps)
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	return ps
}

func flatten(prefix string, v any, ps *[]model.Param) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			name := k
			if prefix != "" {
				name = prefix + "." + k
			}
			flatten(name, x, ps)
		}
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = scalar(x)
		}
		*ps = append(*ps, model.Param{Name: prefix, Value: strings.Join(parts, ",")})
	default:
		*ps = append(*ps, model.Param{Name: prefix, Value: scalar(v)})
	}
}

func scalar(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return fmt.Sprint(v)
}

// ParseSpec reads a Spec from JSON, rejecting unknown fields, and
// validates it.
func ParseSpec(r io.Reader) (*Spec, error) {
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	var s Spec
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("workload spec: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("workload spec: %w", err)
	}
	return &s, nil
}
