package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseDuration: one syntax for every duration flag and spec field;
// a number alone is seconds; whole microseconds or an error.
func TestParseDuration(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Time
		err  bool
	}{
		{"10s", 10 * Second, false},
		{"500ms", 500 * Millisecond, false},
		{"1h30m", 90 * 60 * Second, false},
		{"1.5h", 90 * 60 * Second, false},
		{"7us", 7, false},
		{"10", 10 * Second, false},
		{" 0.25 ", 250 * Millisecond, false},
		{"0.000001", 1, false},
		{"1.000000000", Second, false},
		{"0", 0, false},
		{"500ns", 0, true},
		{"1.0000005", 0, true},
		{"1500ns", 0, true},
		{"-1s", 0, true},
		{"-3", 0, true},
		{"ten", 0, true},
		{"1e3", 1000 * Second, false},
		{"5e-3", 5 * Millisecond, false},
		{"1e-7", 0, true},
		{"0.0000005", 0, true},
		{"1e30", 0, true},
		{"1e999999999", 0, true},
		{"10000000000", 10000000000 * Second, false},
		{"10000000000.000001", 0, true},
		{"9223372036853", 0, true},
		{"", 0, true},
		{"99999999999999999", 0, true},
		{"100000000h", 0, true},
		{"1e", 0, true},
		{"1.2.3", 0, true},
	} {
		d, err := ParseDuration(tt.in)
		if (err != nil) != tt.err || err == nil && d != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v (error %v)", tt.in, d, err, tt.want, tt.err)
		}
	}
}

// TestDurationJSON: a JSON number of seconds is read by the same parser
// as a string (0.0000005 is refused like "500ns", 1e30 as too long, never
// clamped), and every duration read writes back as a string that reads
// back to it, the longest included.
func TestDurationJSON(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Time
		err  string
	}{
		{`0.5`, 500 * Millisecond, ""},
		{`5e-3`, 5 * Millisecond, ""},
		{`"5ms"`, 5 * Millisecond, ""},
		{`0.0000005`, 0, "not a whole number of microseconds"},
		{`1e30`, 0, "too long"},
		{`1e300`, 0, "out of range"},
		{`9223372036854`, 0, "too long"},
		{`-1`, 0, "negative"},
		{`true`, 0, "want a string"},
		{`9999999999.999999`, 9999999999999999, ""},
		{`10000000000`, MaxTime, ""},
		{`10000000000.000001`, 0, "too long"},
	} {
		var d Duration
		err := json.Unmarshal([]byte(tt.in), &d)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, %v; want an error saying %q", tt.in, d.Time(), err, tt.err)
			}
			continue
		}
		if err != nil || d.Time() != tt.want {
			t.Errorf("%s: %v, %v; want %v", tt.in, d.Time(), err, tt.want)
		}
		b, _ := json.Marshal(d)
		var back Duration
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Errorf("%s: written as %s, read back as %v, %v", tt.in, b, back.Time(), err)
		}
	}
}
