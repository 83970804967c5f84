package policies

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
	"github.com/gangsim/gangsim/sim"
)

// A Spec names a policy and its parameters, as given on a command line.
type Spec struct {
	Name   string // e.g. "easy"
	Params Params // policy parameters, e.g. {"estimates": "actual"}
}

type entry struct {
	doc    string
	params map[string]string // parameter -> doc
	make   func(p Params, env Env) (sim.Policy, error)
}

// registry lists the policies by name. Built once, never modified.
var registry = map[string]entry{
	"fcfs": {
		doc:  "first-come first-served batch scheduling",
		make: func(Params, Env) (sim.Policy, error) { return NewFCFS(), nil },
	},
	"easy": {
		doc:    "FCFS with EASY backfilling (reservation for the first queued job)",
		params: map[string]string{"estimates": "user (default) or actual: the runtimes the scheduler plans with"},
		make: func(p Params, _ Env) (sim.Policy, error) {
			perfect, err := estimates(p)
			return NewEASY(perfect), err
		},
	},
	"gs": {
		doc:    "gang scheduling: an Ousterhout matrix of up to mpl rows served round robin, a quantum each; switches charged by --hw",
		params: gsParams,
		make: func(p Params, env Env) (sim.Policy, error) {
			level, err := p.Choice("level", "job", "job", "process")
			if err != nil {
				return nil, err
			}
			if level == "process" {
				c, err := coschedConfig(procsim.GS, p, env)
				if err != nil {
					return nil, err
				}
				return NewCosched(c, env), nil
			}
			for k := range coschedParams {
				if _, ok := p[k]; ok {
					return nil, paramErrorf("%s=%q: only at level=process", k, p[k])
				}
			}
			c, err := gangConfig(p, env)
			if err != nil {
				return nil, err
			}
			if err := c.checkSwitch(env); err != nil {
				return nil, err
			}
			return NewGang(c, env), nil
		},
	},
	"local": coschedEntry("local"),
	"sb":    coschedEntry("sb"),
	"fcs":   coschedEntry("fcs"),
	"bcs":   coschedEntry("bcs"),
	"pbcs":  coschedEntry("pbcs"),
	"dcs": {
		doc:    "distributed context switching of one-processor tasks, parallel step by parallel step (McLaughlin and Dasgupta): eager, round robin or the optimal recursive allocation; migrations charged by --hw (calypso-nt)",
		params: dcsParams,
		make: func(p Params, env Env) (sim.Policy, error) {
			c, err := dcsConfig(p)
			if err != nil {
				return nil, err
			}
			if err := c.checkHardware(env); err != nil {
				return nil, err
			}
			return NewDCS(c, env), nil
		},
	},
	"conservative": {
		doc: "conservative backfilling (a reservation for every queued job)",
		params: map[string]string{
			"estimates": "user (default) or actual: the runtimes the scheduler plans with",
			"replan": "repeat (default) or single: when jobs end early, sweep the queue until no reservation moves, " +
				"or once per termination as pyss does (--compat pyss sets single)",
		},
		make: func(p Params, _ Env) (sim.Policy, error) {
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

func estimates(p Params) (perfect bool, err error) {
	v, err := p.Choice("estimates", "user", "user", "actual")
	return v == "actual", err
}

// UsesEstimates reports whether the policy s names plans with the jobs'
// estimates (the user's runtime estimates, SWF field 9): EASY and
// conservative backfilling unless estimates=actual, the time-sharing
// policies unless backfill=none (EASY in front is their default), and dcs with history=static. A policy that
// does not lets a trace's unusable estimates be counted rather than
// refused. Unknown policies are taken to use them.
func UsesEstimates(s Spec) bool {
	switch s.Name {
	case "fcfs":
		return false
	case "easy", "conservative":
		return s.Params["estimates"] != "actual"
	case "gs", "local", "sb", "fcs", "bcs", "pbcs":
		return s.Params["backfill"] != "none"
	case "dcs":
		return s.Params["history"] == HistoryStatic
	}
	return true
}

// Largest machines, in processors, the policies are sized for: the batch
// policies keep no state per processor (model.MaxProcs, what the tables
// hold); gang scheduling at job level keeps about a bit per processor and
// row; distributed context switching about 80 bytes; the process-level
// policies (procsim) simulate every processor, with about 300 bytes and
// some work each.
const (
	MaxProcsGang         = 1 << 26
	MaxProcsDCS          = 1 << 20
	MaxProcsProcessLevel = 1 << 20
)

// MaxProcs returns the largest machine, in processors, the policy s names
// can simulate: its per-processor structures stay within a few hundred
// megabytes. A larger machine is refused before anything is allocated
// (pipelines.Replay), rather than the process running out of memory.
func MaxProcs(s Spec) int {
	switch {
	case ProcessLevel(s):
		return MaxProcsProcessLevel
	case s.Name == "fcfs" || s.Name == "easy" || s.Name == "conservative":
		return model.MaxProcs
	case s.Name == "gs":
		return MaxProcsGang
	case s.Name == "dcs":
		return MaxProcsDCS
	}
	return MaxProcsProcessLevel // any other
}

// ProcessLevel reports whether the policy s names simulates every process
// (procsim), which takes one to two orders of magnitude longer than
// scheduling whole jobs on the same workload.
func ProcessLevel(s Spec) bool {
	switch s.Name {
	case "local", "sb", "fcs", "bcs", "pbcs":
		return true
	case "gs":
		return s.Params["level"] == "process"
	}
	return false
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

// DefaultsDoc says what the time-sharing policies' names mean without
// parameters; Describe prints it first.
const DefaultsDoc = `One name, one configuration: without parameters the time-sharing policies
(gs, sb, fcs, bcs, pbcs, local) run as Frachtenberg's thesis ran them in its
dynamic experiments (6.4.1): mpl=6, quantum=100ms, EASY backfilling in front
of the matrix (backfill=easy, reservations from estimates x mpl) and DHC
placement (alloc=dhc), with STORM's mechanics (storm=on: tick, launch, keep)
on a STORM cluster's hardware (--hw crescendo and the other qsnet presets).
Batch scheduling on the same machine is gs:mpl=1; gang scheduling without
backfilling, first fit, is gs:backfill=none,alloc=ff.
`

// Describe returns a one-paragraph description of each policy and its
// parameters, for usage messages, after DefaultsDoc.
func Describe() string {
	var b strings.Builder
	b.WriteString(DefaultsDoc + "\n")
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
	spec := Spec{Name: name, Params: Params{}}
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

// New makes the policy a spec names for the run env describes, checking its
// parameters. Errors about the spec (an unknown policy or parameter, a bad
// value) wrap ErrParam: they are the user's to fix.
func New(s Spec, env Env) (sim.Policy, error) {
	if err := env.Validate(); err != nil {
		return nil, fmt.Errorf("policy %s: %w", s.Name, err)
	}
	e, ok := registry[s.Name]
	if !ok {
		return nil, paramErrorf("unknown policy %q (known: %s)", s.Name, strings.Join(Names(), ", "))
	}
	for k := range s.Params {
		if _, ok := e.params[k]; !ok {
			return nil, paramErrorf("policy %s has no parameter %q", s.Name, k)
		}
	}
	p, err := e.make(s.Params, env)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", s.Name, err)
	}
	return p, nil
}

// Check reports what New would about s alone: an unknown policy or
// parameter, or a value its policy cannot take. It needs no machine, so a
// command line can be checked before the trace is read.
func Check(s Spec) error {
	_, err := New(s, Env{Machine: model.FlatMachine(1), Rand: rand.New(rand.NewPCG(0, 0))})
	return err
}
