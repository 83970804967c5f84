package policies

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gangsim/gangsim/sim"
)

// A Spec names a policy and its parameters, as given on a command line.
type Spec struct {
	Name   string            // e.g. "easy"
	Params map[string]string // policy parameters, e.g. {"estimates": "actual"}
}

type entry struct {
	doc    string
	params map[string]string // parameter -> doc
	make   func(p map[string]string) (sim.Policy, error)
}

// registry lists the policies by name. Built once, never modified.
var registry = map[string]entry{
	"fcfs": {
		doc:  "first-come first-served batch scheduling",
		make: func(map[string]string) (sim.Policy, error) { return NewFCFS(), nil },
	},
	"easy": {
		doc:    "FCFS with EASY backfilling (reservation for the first queued job)",
		params: map[string]string{"estimates": "user (default) or actual: the runtimes the scheduler plans with"},
		make: func(p map[string]string) (sim.Policy, error) {
			perfect, err := estimates(p)
			return NewEASY(perfect), err
		},
	},
	"conservative": {
		doc: "conservative backfilling (a reservation for every queued job)",
		params: map[string]string{
			"estimates": "user (default) or actual: the runtimes the scheduler plans with",
			"replan": "repeat (default) or single: when jobs end early, sweep the queue until no reservation moves, " +
				"or once per termination as pyss does (--compat pyss sets single)",
		},
		make: func(p map[string]string) (sim.Policy, error) {
			perfect, err := estimates(p)
			if err != nil {
				return nil, err
			}
			c := NewConservative(perfect)
			if r := p["replan"]; r != "" {
				c.Replan, err = ParseReplan(r)
			}
			return c, err
		},
	},
}

func estimates(p map[string]string) (perfect bool, err error) {
	switch p["estimates"] {
	case "", "user":
		return false, nil
	case "actual":
		return true, nil
	}
	return false, fmt.Errorf("estimates=%q: want user or actual", p["estimates"])
}

// Names lists the registered policies, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Describe returns a one-paragraph description of each policy and its
// parameters, for usage messages.
func Describe() string {
	var b strings.Builder
	for _, n := range Names() {
		e := registry[n]
		fmt.Fprintf(&b, "  %-14s %s\n", n, e.doc)
		keys := make([]string, 0, len(e.params))
		for k := range e.params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-14s   %s=%s\n", "", k, e.params[k])
		}
	}
	return b.String()
}

// ParseSpec parses "name" or "name:key=value,key=value".
func ParseSpec(s string) (Spec, error) {
	name, rest, _ := strings.Cut(s, ":")
	spec := Spec{Name: name, Params: map[string]string{}}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return Spec{}, fmt.Errorf("policy %q: parameter %q is not key=value", s, kv)
			}
			spec.Params[k] = v
		}
	}
	return spec, nil
}

// String formats the spec canonically, parameters sorted: "easy:estimates=actual".
func (s Spec) String() string {
	keys := make([]string, 0, len(s.Params))
	for k := range s.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(s.Name)
	for i, k := range keys {
		if i == 0 {
			b.WriteByte(':')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + s.Params[k])
	}
	return b.String()
}

// New makes the policy a spec names, checking its parameters.
func New(s Spec) (sim.Policy, error) {
	e, ok := registry[s.Name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (known: %s)", s.Name, strings.Join(Names(), ", "))
	}
	for k := range s.Params {
		if _, ok := e.params[k]; !ok {
			return nil, fmt.Errorf("policy %s has no parameter %q", s.Name, k)
		}
	}
	p, err := e.make(s.Params)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", s.Name, err)
	}
	return p, nil
}
