package policies

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// sjf is a newcomer's policy, shortest job first: the queued jobs start in
// order of their estimates (with estimates=actual, of their runtimes), each
// as soon as it fits, the shortest that does not fit blocking the others.
// It is a sim.Policy and nothing else.
type sjf struct {
	e      *sim.Engine
	actual bool
	queue  []*sim.Job
}

func (p *sjf) Attach(e *sim.Engine) { p.e = e }
func (p *sjf) Arrive(j *sim.Job)    { p.queue = append(p.queue, j) }
func (p *sjf) Complete(*sim.Job)    {}
func (p *sjf) Timer(int64)          {}

func (p *sjf) Schedule() {
	slices.SortStableFunc(p.queue, func(a, b *sim.Job) int { return cmp.Compare(p.length(a), p.length(b)) })
	n := 0
	for _, j := range p.queue {
		if p.e.Need(j) > p.e.Free() {
			break
		}
		p.e.Start(j)
		n++
	}
	p.queue = p.queue[n:]
}

func (p *sjf) length(j *sim.Job) model.Time {
	if p.actual {
		return j.Work
	}
	return j.Estimate
}

// sjfEntry is all a newcomer adds to the registry's literal for sjf: its
// description, its parameters, how to make it, and its facts.
var sjfEntry = entry{
	doc:    "shortest job first: queued jobs start in order of their estimates, each as soon as it fits",
	params: map[string]string{"estimates": "user (default) or actual: the runtimes the scheduler orders the queue by"},
	make: func(p Params, _ Env) (sim.Policy, error) {
		actual, err := estimates(p)
		return &sjf{actual: actual}, err
	},
	maxProcs:  model.MaxProcs, // no state per processor
	estimates: userEstimates,
}

// TestNewcomerPolicy: a policy is one registry entry. With sjfEntry
// registered (as a newcomer would write it in registry.go's literal; the
// test adds it and takes it out again) and nothing else changed, every
// reader of the registry knows sjf: Names, Describe, Check and New with its
// parameter (an unknown one refused, a bad value too), UsesEstimates,
// MaxProcs, ProcessLevel; and the engine replays a trace under it.
func TestNewcomerPolicy(t *testing.T) {
	if err := Check(Spec{Name: "sjf"}); err == nil {
		t.Fatal("sjf is known before its entry is added")
	}
	registry["sjf"] = sjfEntry
	t.Cleanup(func() { delete(registry, "sjf") })

	if !slices.Contains(Names(), "sjf") || !slices.IsSorted(Names()) {
		t.Errorf("Names() = %v, want sjf among them, sorted", Names())
	}
	d := Describe()
	for _, want := range []string{
		"\n  sjf            " + sjfEntry.doc + "\n",
		"\n                   estimates=" + sjfEntry.params["estimates"] + "\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q:\n%s", want, d)
		}
	}
	for spec, want := range map[string]string{
		"sjf":                   "",
		"sjf:estimates=actual":  "",
		"sjf:estimates=psychic": `policy sjf: estimates="psychic": want user or actual`,
		"sjf:reserve=2":         `policy sjf has no parameter "reserve"`,
		"sfj":                   `unknown policy "sfj" (known: bcs, conservative, dcs, easy, fcfs, fcs, gs, local, pbcs, sb, sjf)`,
	} {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		err = Check(s)
		switch {
		case want == "" && err != nil:
			t.Errorf("Check(%s): %v", spec, err)
		case want != "" && (err == nil || err.Error() != want || !errors.Is(err, ErrParam)):
			t.Errorf("Check(%s) = %v, want the parameter error %q", spec, err, want)
		}
	}
	for spec, want := range map[string]bool{"sjf": true, "sjf:estimates=user": true, "sjf:estimates=actual": false} {
		s, _ := ParseSpec(spec)
		if got := UsesEstimates(s); got != want {
			t.Errorf("UsesEstimates(%s) = %v, want %v", spec, got, want)
		}
		if got := MaxProcs(s); got != model.MaxProcs {
			t.Errorf("MaxProcs(%s) = %d, want %d", spec, got, model.MaxProcs)
		}
		if ProcessLevel(s) {
			t.Errorf("ProcessLevel(%s) = true, want false", spec)
		}
	}

	// Four jobs of the whole machine: the first runs 10 s; the three
	// queued behind it start in order of their estimates (20 s, 60 s,
	// 100 s), or of their runtimes with estimates=actual (5 s, 20 s, 50
	// s), one after the other.
	s := model.Second
	jobs := []model.Job{
		{ID: 1, Submit: 0, Runtime: 10 * s, Estimate: 10 * s},
		{ID: 2, Submit: 1 * s, Runtime: 50 * s, Estimate: 60 * s},
		{ID: 3, Submit: 2 * s, Runtime: 5 * s, Estimate: 100 * s},
		{ID: 4, Submit: 3 * s, Runtime: 20 * s, Estimate: 20 * s},
	}
	for i := range jobs {
		jobs[i].AllocProcs, jobs[i].ReqProcs, jobs[i].Known = 4, 4, model.AllFields
	}
	for spec, starts := range map[string][]model.Time{
		"sjf":                  {0, 30 * s, 80 * s, 10 * s},
		"sjf:estimates=actual": {0, 35 * s, 10 * s, 15 * s},
	} {
		sp, _ := ParseSpec(spec)
		env := Env{Machine: model.FlatMachine(4)}
		pol, err := New(sp, env)
		if err != nil {
			t.Fatal(err)
		}
		var out model.OutcomeList
		if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &out, nil); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if len(out) != len(jobs) {
			t.Fatalf("%s: %d outcomes, want %d", spec, len(out), len(jobs))
		}
		for _, o := range out {
			j := jobs[o.JobID-1]
			if o.Start != starts[o.JobID-1] || o.End != o.Start+j.Runtime || o.Procs != 4 || o.Reason != model.Accepted {
				t.Errorf("%s: job %d started %v, ended %v on %d processors (%v); want %v, %v on 4",
					spec, o.JobID, o.Start, o.End, o.Procs, o.Reason, starts[o.JobID-1], starts[o.JobID-1]+j.Runtime)
			}
		}
	}
}
