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

// An entry is a policy's every fact: what it is, its parameters, how it
// is made, and what the commands and pipelines ask of it before making it
// (MaxProcs, ProcessLevel, UsesEstimates). A new policy is one entry in
// registry (newcomer_test.go shows one).
type entry struct {
	doc    string
	params map[string]string // parameter -> doc
	make   func(p Params, env Env) (sim.Policy, error)
	// maxProcs is the largest machine, in processors, the policy can
	// simulate when it schedules whole jobs (MaxProcs; a process-level
	// form is bounded by MaxProcsProcessLevel).
	maxProcs int
	// process gives the discipline (package procsim) under which the
	// policy simulates every process with parameters p, ok false when it
	// schedules whole jobs (ProcessLevel); nil: never.
	process func(p Params) (kind procsim.Kind, ok bool)
	// estimates reports whether the policy, with parameters p, plans with
	// the jobs' estimates (UsesEstimates); nil: never.
	estimates func(p Params) bool
}

// registry lists the policies by name. Built once, never modified (but by
// TestNewcomerPolicy, for its own duration).
var registry = map[string]entry{
	"fcfs": {
		doc:      "first-come first-served batch scheduling",
		make:     func(Params, Env) (sim.Policy, error) { return NewFCFS(), nil },
		maxProcs: model.MaxProcs,
	},
	"easy": {
		doc:    "FCFS with EASY backfilling (reservation for the first queued job)",
		params: map[string]string{"estimates": "user (default) or actual: the runtimes the scheduler plans with"},
		make: func(p Params, _ Env) (sim.Policy, error) {
			perfect, err := estimates(p)
			return NewEASY(perfect), err
		},
		maxProcs:  model.MaxProcs,
		estimates: userEstimates,
	},
	"gs": {
		doc:       "gang scheduling: an Ousterhout matrix of up to mpl rows served round robin, a quantum each; switches charged by --hw",
		params:    gsParams,
		maxProcs:  MaxProcsGang,
		process:   func(p Params) (procsim.Kind, bool) { return procsim.GS, p["level"] == "process" },
		estimates: backfillEstimates,
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
	"local": coschedEntry(procsim.Local, "uncoordinated local scheduling at process level: each processor round-robins its processes a quantum each, from a random phase; waiting processes spin",
		map[string]string{"csw": cswDoc, "quantum": quantumLocalDoc}),
	"sb": coschedEntry(procsim.SB, "spin-block implicit coscheduling at process level (Arpaci-Dusseau): a waiting process spins, then blocks until its message wakes it; the node's kernel shares each processor (sched=linux: Linux 2.4's counters and goodness, a woken process preempting only one with less of its slice left)",
		map[string]string{"csw": cswDoc, "wake": wakeDoc, "quantum": quantumSBDoc,
			"spin":  "spin before blocking (default under sched=linux: the hardware preset's sb_spin_us, fitted to the thesis' static scenarios; else twice the local switch, the competitive choice)",
			"sched": schedDoc, "hz": hzDoc, "ticks": ticksDoc}),
	"fcs": coschedEntry(procsim.FCS, "flexible coscheduling at process level (thesis 6.2.1): gang strobes; every process classified CS, F or DC at the end of each of its timeslices (new jobs coscheduled until then); CS run alone in their slot, F first in theirs; elsewhere the classified processes share the processors as under sb",
		map[string]string{
			"csw":     cswDoc,
			"wake":    wakeDoc,
			"quantum": "time slice of each row, and each process's in the round robin outside prioritized slots, e.g. 25ms (default 100ms, thesis 6.4.1)",
			"spin":    "spin of F and DC processes before blocking (default: twice the local switch)",
			"dc":      "DC when the mean computation per communication call is at least this (default: quantum / 5, between the thesis' 3 ms CS and 6 ms DC processes at 25 ms, 6.3.2)",
			"f":       "F when waiting takes more than this share of a coscheduled slot (default 0.3)",
			"probation": "how long a new job is coscheduled before its processes are first classified (default " + fcsProbation.String() +
				", fitted on thesis Tables 6.2-6.4's FCS cells; 0: at its first slot's end)",
			"sched": fcsSchedDoc, "hz": hzDoc, "ticks": ticksDoc,
		}),
	"bcs": coschedEntry(procsim.BCS, "buffered coscheduling at process level (thesis 5.3, 6.2.2): gang strobes; communication done at micro-timeslice boundaries; a blocking call yields to the next ready process",
		map[string]string{"csw": bcsSwitchDoc, "wake": wakeDoc, "slice": bcsSliceDoc, "overhead": bcsOverheadDoc, "gang": bcsGangDoc}),
	"pbcs": coschedEntry(procsim.PBCS, "prioritized BCS (thesis 6.3.2.3): as bcs, and a job with priority > 0 runs whenever it is ready",
		map[string]string{"csw": bcsSwitchDoc, "wake": wakeDoc, "slice": bcsSliceDoc, "overhead": bcsOverheadDoc, "gang": bcsGangDoc}),
	"dcs": {
		doc:       "distributed context switching of one-processor tasks, parallel step by parallel step (McLaughlin and Dasgupta): eager, round robin or the optimal recursive allocation; migrations charged by --hw (calypso-nt)",
		params:    dcsParams,
		maxProcs:  MaxProcsDCS,
		estimates: func(p Params) bool { return p["history"] == HistoryStatic },
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
		maxProcs:  model.MaxProcs,
		estimates: userEstimates,
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

// userEstimates is the backfilling policies' entry.estimates: they plan
// with the user's estimates unless estimates=actual.
func userEstimates(p Params) bool { return p["estimates"] != "actual" }

// backfillEstimates is the time-sharing policies' entry.estimates: EASY
// in front of the matrix (their default) plans with them.
func backfillEstimates(p Params) bool { return p["backfill"] != "none" }

// UsesEstimates reports whether the policy s names plans with the jobs'
// estimates (the user's runtime estimates, SWF field 9), as its registry
// entry says: EASY and conservative backfilling unless estimates=actual,
// the time-sharing policies unless backfill=none (EASY in front is their
// default), and dcs with history=static. A policy that does not lets a
// trace's unusable estimates be counted rather than refused. Unknown
// policies are taken to use them.
func UsesEstimates(s Spec) bool {
	e, ok := registry[s.Name]
	if !ok {
		return true
	}
	return e.estimates != nil && e.estimates(s.Params)
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
// Unknown policies are bounded as the process-level ones.
func MaxProcs(s Spec) int {
	e, ok := registry[s.Name]
	if !ok || ProcessLevel(s) {
		return MaxProcsProcessLevel
	}
	return e.maxProcs
}

// ProcessLevel reports whether the policy s names simulates every process
// (procsim), which takes one to two orders of magnitude longer than
// scheduling whole jobs on the same workload.
func ProcessLevel(s Spec) bool {
	e, ok := registry[s.Name]
	if !ok || e.process == nil {
		return false
	}
	_, ok = e.process(s.Params)
	return ok
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
