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
