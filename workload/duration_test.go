package workload

import (
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestParseDuration: one syntax for every duration flag and spec field;
// a number alone is seconds; whole microseconds or an error.
func TestParseDuration(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want model.Time
		err  bool
	}{
		{"10s", 10 * model.Second, false},
		{"500ms", 500 * model.Millisecond, false},
		{"1h30m", 90 * 60 * model.Second, false},
		{"1.5h", 90 * 60 * model.Second, false},
		{"7us", 7, false},
		{"10", 10 * model.Second, false},
		{" 0.25 ", 250 * model.Millisecond, false},
		{"0.000001", 1, false},
		{"1.000000000", model.Second, false},
		{"0", 0, false},
		{"500ns", 0, true},
		{"1.0000005", 0, true},
		{"1500ns", 0, true},
		{"-1s", 0, true},
		{"-3", 0, true},
		{"ten", 0, true},
		{"1e3", 0, true},
		{"", 0, true},
		{"99999999999999999", 0, true},
		{"100000000h", 0, true},
	} {
		d, err := ParseDuration(tt.in)
		if (err != nil) != tt.err || err == nil && d.Time() != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v (error %v)", tt.in, d.Time(), err, tt.want, tt.err)
		}
	}
}
