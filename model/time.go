package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Time is a point in, or a span of, simulated time in integer microseconds.
//
// The simulator never reads the wall clock. Trace formats store seconds;
// convert at the edges with FromSeconds, FromSecondsFloat, Seconds and
// WholeSeconds.
type Time int64

// Units of simulated time.
const (
	Microsecond Time = 1
	Millisecond      = 1000 * Microsecond
	Second           = 1000 * Millisecond
	Minute           = 60 * Second
	Hour             = 60 * Minute
	Day              = 24 * Hour
)

// Never is a time later than any event: a reservation that never ends, a job
// that never starts.
const Never Time = math.MaxInt64

// FromSeconds converts a whole number of seconds to Time.
func FromSeconds(s int64) Time { return Time(s) * Second }

// FromSecondsFloat converts seconds to Time, rounding to the nearest
// microsecond (halves away from zero). Values outside the representable range
// saturate; NaN converts to 0.
func FromSecondsFloat(s float64) Time {
	us := math.Round(s * 1e6)
	switch {
	case us != us: // NaN
		return 0
	case us >= math.MaxInt64:
		return Never
	case us <= math.MinInt64:
		return math.MinInt64
	}
	return Time(us)
}

// Seconds returns t in seconds as a float64.
func (t Time) Seconds() float64 { return float64(t) / 1e6 }

// WholeSeconds returns t in seconds, truncated toward zero.
func (t Time) WholeSeconds() int64 { return int64(t / Second) }

// String formats t as seconds with the shortest exact decimal fraction, e.g.
// "12s", "0.003s", "-1.5s". Never formats as "never".
func (t Time) String() string {
	if t == Never {
		return "never"
	}
	return string(t.AppendSeconds(nil)) + "s"
}

// AppendSeconds appends t in seconds, as the shortest exact decimal (no
// exponent, no trailing zeros: "12", "0.000001", "-3.25"), to b.
func (t Time) AppendSeconds(b []byte) []byte {
	u := int64(t)
	neg := u < 0
	var mag uint64
	if neg {
		b = append(b, '-')
		mag = uint64(-(u + 1)) + 1 // safe for MinInt64
	} else {
		mag = uint64(u)
	}
	b = strconv.AppendUint(b, mag/1e6, 10)
	frac := mag % 1e6
	if frac == 0 {
		return b
	}
	var digits [6]byte
	for i := 5; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 6
	for digits[n-1] == '0' {
		n--
	}
	b = append(b, '.')
	return append(b, digits[:n]...)
}

// ParseDuration parses a span of simulated time: a Go duration string with
// units ("100ms", "1h30m", "250us" or "250µs") or a bare number of seconds
// ("10", "0.5"). The result must be a whole number of microseconds, the
// resolution of simulated time, and not negative.
func ParseDuration(s string) (Time, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("duration %q: want a non-negative number of seconds or a number with a unit (100ms, 1h)", s)
		}
		us := f * 1e6
		if us != math.Trunc(us) || us >= math.MaxInt64 {
			return 0, fmt.Errorf("duration %q: simulated time counts whole microseconds", s)
		}
		return Time(us), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("duration %q: want a number with a unit (100ms, 30s, 1h) or a number of seconds", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	if d%time.Microsecond != 0 {
		return 0, fmt.Errorf("duration %q: simulated time counts whole microseconds", s)
	}
	return Time(d / time.Microsecond), nil
}
