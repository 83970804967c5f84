package analysis

import (
	"testing"
)

// TestClaimKindsValidate: every kind refuses a spec without what it needs,
// with the message that names it, and an unknown kind lists them all.
func TestClaimKindsValidate(t *testing.T) {
	want := map[string]string{
		"less":            `claim "t": kind less needs rows a and b`,
		"less-everywhere": `claim "t": kind less-everywhere needs rows a and b`,
		"ratio-at-least":  `claim "t": kind ratio-at-least needs rows a and b`,
		"linear":          `claim "t": kind linear needs rows a, a coordinate over and a minimum R^2 value`,
		"less-all":        `claim "t": kind less-all needs rows a and b`,
		"at-most":         `claim "t": kind at-most needs rows a`,
		"at-least":        `claim "t": kind at-least needs rows a`,
		"in-window":       `claim "t": kind in-window needs rows a and a window value < max`,
		"ratio-between":   `claim "t": kind ratio-between needs rows a and b and bounds value <= max`,
		"increasing":      `claim "t": kind increasing needs rows a and a coordinate over`,
		"decreasing":      `claim "t": kind decreasing needs rows a and a coordinate over`,
		"spread-at-most":  `claim "t": kind spread-at-most needs rows a`,
		"least":           `claim "t": kind least needs rows a and b`,
	}
	if len(claimKinds) != len(want) {
		t.Errorf("%d claim kinds, %d checked", len(claimKinds), len(want))
	}
	for _, k := range claimKinds {
		err := (&ClaimSpec{Text: "t", Kind: k.name}).validate()
		if err == nil || err.Error() != want[k.name] {
			t.Errorf("%s without rows: %v, want %s", k.name, err, want[k.name])
		}
		full := &ClaimSpec{Text: "t", Kind: k.name, A: map[string]string{"x": "1"}, B: map[string]string{"x": "2"},
			Over: "load", Value: 0.5, Max: 1}
		if err := full.validate(); err != nil {
			t.Errorf("%s with everything: %v", k.name, err)
		}
	}
	err := (&ClaimSpec{Text: "t", Kind: "more"}).validate()
	const unknown = `claim "t": unknown kind "more" (want less, less-everywhere, ratio-at-least, linear, less-all, at-most, at-least, in-window, ratio-between, increasing, decreasing, spread-at-most or least)`
	if err == nil || err.Error() != unknown {
		t.Errorf("unknown kind: %v", err)
	}
}
