package policies

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
)

func TestRegistry(t *testing.T) {
	for _, tt := range []struct {
		in, canon, err string
	}{
		{"fcfs", "fcfs", ""},
		{"easy", "easy", ""},
		{"easy:estimates=actual", "easy:estimates=actual", ""},
		{"conservative:estimates=user", "conservative:estimates=user", ""},
		{"conservative:replan=single,estimates=actual", "conservative:estimates=actual,replan=single", ""},
		{"conservative:replan=repeat", "conservative:replan=repeat", ""},
		{"conservative:replan=twice", "", `policy conservative: replan="twice": want repeat or single`},
		{"easy:replan=single", "", `policy easy has no parameter "replan"`},
		{"easy:estimates=psychic", "", `policy easy: estimates="psychic": want user or actual`},
		{"fcfs:estimates=actual", "", `policy fcfs has no parameter "estimates"`},
		{"sjf", "", `unknown policy "sjf" (known: bcs, conservative, dcs, easy, fcfs, fcs, gs, local, pbcs, sb)`},
		{"easy:estimates", "", `policy "easy:estimates": parameter "estimates" is not key=value`},
	} {
		spec, err := ParseSpec(tt.in)
		if err == nil {
			err = Check(spec)
		}
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.in, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && spec.String() != tt.canon:
			t.Errorf("%s: canonical %q, want %q", tt.in, spec.String(), tt.canon)
		}
	}
	if d := Describe(); !strings.Contains(d, "estimates=user (default) or actual") || !strings.Contains(d, "replan=repeat (default) or single") {
		t.Errorf("Describe lacks the parameter docs:\n%s", d)
	}
}

// presetHardware returns the Hardware of an embedded preset and mechanism,
// named as pipelines names it.
func presetHardware(t *testing.T, name, mech string) Hardware {
	t.Helper()
	p, err := presets.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs(mech)
	if err != nil {
		t.Fatal(err)
	}
	if mech == "" {
		mech = p.DefaultVariant()
	}
	return Hardware{Costs: costs, Preset: name, Family: p.Family, Mechanism: mech}
}

// TestHardwareParamErrors: with the hardware known, New refuses what
// cannot run with it as a parameter error (exit 2 in replay): a gs quantum
// no longer than the cheapest gang switch (ParPar's full buffer copy,
// 85.001 ms on 16 nodes in the preset's model), dcs charged by another
// family than calypso, and a dcs round-robin quantum no longer than
// Calypso's 1.6 s switch. What can run is accepted: one row never
// switches, and a longer quantum.
func TestHardwareParamErrors(t *testing.T) {
	parpar := presetHardware(t, "parpar", "switching-full")
	for _, tc := range []struct {
		spec string
		hw   Hardware
		want string // "" for none
	}{
		{"gs:mpl=2,quantum=10ms", parpar, "every gang switch on parpar (myrinet, switching-full) costs at least 0.085001s, no shorter than the quantum"},
		{"gs:mpl=6,quantum=85001us", parpar, "costs at least 0.085001s"},
		{"gs:mpl=2,quantum=85002us", parpar, ""},
		{"gs:mpl=1,quantum=10ms", parpar, ""},
		{"gs:mpl=2,quantum=10ms", Hardware{}, ""},
		{"dcs", presetHardware(t, "crescendo", ""), "hardware crescendo (qsnet, es40): dcs charges a distributed context switch, which only the calypso family models"},
		{"dcs:mode=rr,quantum=1600ms", presetHardware(t, "calypso-nt", ""), "quantum=1.6s: a distributed context switch costs 1.6s on calypso-nt"},
		{"dcs:mode=rr,quantum=1601ms", presetHardware(t, "calypso-nt", ""), ""},
		{"dcs:mode=optimal", presetHardware(t, "calypso-nt", ""), ""},
	} {
		spec, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		_, err = New(spec, Env{Machine: model.FlatMachine(16), Hardware: tc.hw})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s on %v: %v", tc.spec, tc.hw, err)
		case tc.want != "" && (!errors.Is(err, ErrParam) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s on %v: error %v, want a parameter error saying %q", tc.spec, tc.hw, err, tc.want)
		}
	}
}

// TestGangAllocAlias: alloc=firstfit is first fit, as alloc=ff.
func TestGangAllocAlias(t *testing.T) {
	for _, v := range []string{"ff", "firstfit"} {
		c, err := gangConfig(Params{"alloc": v}, Env{})
		if err != nil || c.Alloc != allocFirstFit {
			t.Errorf("alloc=%s: %+v, %v; want first fit", v, c, err)
		}
	}
	if _, err := gangConfig(Params{"alloc": "first"}, Env{}); err == nil || !strings.Contains(err.Error(), "want ff, firstfit or dhc") {
		t.Errorf("alloc=first: %v", err)
	}
	if d := Describe(); !strings.Contains(d, "or ff or firstfit (first fit)") {
		t.Errorf("Describe does not document the alias:\n%s", d)
	}
}

// TestUsesEstimates: only the policies that plan with the user's estimates
// say so, so that a trace's bad estimates stop only their replays.
func TestUsesEstimates(t *testing.T) {
	for _, tt := range []struct {
		spec string
		want bool
	}{
		{"fcfs", false}, {"easy", true}, {"easy:estimates=actual", false}, {"conservative", true},
		{"conservative:estimates=actual", false}, {"gs", true}, {"gs:backfill=easy", true},
		{"gs:backfill=none", false}, {"fcs:mpl=6,backfill=easy", true}, {"sb", true}, {"sb:backfill=none", false},
		{"dcs", false}, {"dcs:history=static", true},
	} {
		s, err := ParseSpec(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := UsesEstimates(s); got != tt.want {
			t.Errorf("UsesEstimates(%s) = %v, want %v", tt.spec, got, tt.want)
		}
	}
	if s := (Spec{Name: "nosuch"}); !UsesEstimates(s) {
		t.Errorf("UsesEstimates(%s) = false, want true (an unknown policy is taken to use them)", s)
	}
}

// TestProcessLevel checks which policies simulate every process: a sweep
// starts those first.
func TestProcessLevel(t *testing.T) {
	for spec, want := range map[string]bool{
		"fcfs": false, "easy": false, "conservative": false, "dcs": false, "gs": false, "gs:level=job": false,
		"gs:level=process": true, "local": true, "sb": true, "fcs:backfill=easy": true, "bcs": true, "pbcs": true,
	} {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := ProcessLevel(s); got != want {
			t.Errorf("ProcessLevel(%s) = %v, want %v", spec, got, want)
		}
	}
	// The discipline an entry states is the one its policy simulates.
	for spec, want := range map[string]procsim.Kind{
		"gs:level=process": procsim.GS, "local": procsim.Local, "sb": procsim.SB,
		"fcs": procsim.FCS, "bcs": procsim.BCS, "pbcs": procsim.PBCS,
	} {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		kind, _ := registry[s.Name].process(s.Params)
		pol, err := New(s, Env{Machine: model.FlatMachine(4), Rand: rand.New(rand.NewPCG(1, 0))})
		if err != nil {
			t.Fatal(err)
		}
		if got := pol.(*Gang).rr.(*cosched).kind; kind != want || got != want {
			t.Errorf("%s: its entry says %v, it simulates %v; want %v", spec, kind, got, want)
		}
	}
}

// TestMaxProcs checks the largest machine each kind of policy accepts:
// the process-level ones (gs at process level among them) the smallest.
func TestMaxProcs(t *testing.T) {
	for spec, want := range map[string]int{
		"fcfs": model.MaxProcs, "easy:reserve=2": model.MaxProcs, "conservative": model.MaxProcs,
		"gs": MaxProcsGang, "gs:level=job": MaxProcsGang, "gs:level=process": MaxProcsProcessLevel,
		"dcs": MaxProcsDCS, "local": MaxProcsProcessLevel, "sb": MaxProcsProcessLevel,
		"fcs": MaxProcsProcessLevel, "bcs": MaxProcsProcessLevel, "pbcs": MaxProcsProcessLevel,
	} {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := MaxProcs(s); got != want {
			t.Errorf("MaxProcs(%s) = %d, want %d", spec, got, want)
		}
	}
	if s := (Spec{Name: "nosuch"}); MaxProcs(s) != MaxProcsProcessLevel {
		t.Errorf("MaxProcs(%s) = %d, want %d (an unknown policy is bounded as the process-level ones)", s, MaxProcs(s), MaxProcsProcessLevel)
	}
	for _, n := range Names() { // every entry states its bound
		if registry[n].maxProcs <= 0 {
			t.Errorf("policy %s: no maxProcs in its registry entry", n)
		}
	}
}
