package policies

import (
	"strings"
	"testing"
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

// TestUsesEstimates: only the policies that plan with the user's estimates
// say so, so that a trace's bad estimates stop only their replays.
func TestUsesEstimates(t *testing.T) {
	for _, tt := range []struct {
		spec string
		want bool
	}{
		{"fcfs", false}, {"easy", true}, {"easy:estimates=actual", false}, {"conservative", true},
		{"conservative:estimates=actual", false}, {"gs", false}, {"gs:backfill=easy", true},
		{"fcs:mpl=6,backfill=easy", true}, {"sb", false}, {"dcs", false}, {"dcs:history=static", true},
	} {
		s, err := ParseSpec(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := UsesEstimates(s); got != tt.want {
			t.Errorf("UsesEstimates(%s) = %v, want %v", tt.spec, got, tt.want)
		}
	}
	// Every registered policy is judged, none by the fallback.
	for _, n := range Names() {
		switch n {
		case "fcfs", "easy", "conservative", "gs", "local", "sb", "fcs", "bcs", "pbcs", "dcs":
		default:
			t.Errorf("policy %s: UsesEstimates does not know it", n)
		}
	}
}
