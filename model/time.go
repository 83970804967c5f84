package model

import (
	"fmt"
	"math"
	"math/big"
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

// MaxSeconds is the largest magnitude, in seconds, of every time gangsim
// reads: a trace's times in every format (submit, wait, run time, CPU
// time, estimate, think time, and the application attributes' times) and
// every duration (ParseDuration). 10^10 s is about 317 years, far beyond
// any log of the Parallel Workloads Archive (their submit times stay below
// 1.1e8 s), and small enough that the sums the engines form from such
// values (a submit time plus a run time or an estimate, a reservation's
// end, a process's next event) stay far below Never: MaxTime is 2^-10 of
// it, and a simulation stops with an error at Horizon (package sim).
const MaxSeconds = 10_000_000_000

// MaxTime is MaxSeconds in microseconds: every time read lies in
// [-MaxTime, MaxTime] (see InRange).
const MaxTime = MaxSeconds * Second

// Horizon is the latest simulated time a replay reaches: an engine whose
// next event would come later stops with an error instead of forming
// times that overflow. 2^62 µs is about 146,000 years, and Horizon plus
// 460 times MaxTime still fits below Never.
const Horizon Time = 1 << 62

// InRange reports whether t lies in the range of a time read from an
// input, [-MaxTime, MaxTime].
func InRange(t Time) bool { return t >= -MaxTime && t <= MaxTime }

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

// DurationSyntax describes what ParseDuration accepts, for flag help and
// error messages.
const DurationSyntax = "a duration such as 10s, 100ms, 1.5h or 1h30m (us, ms, s, m, h; a number alone is seconds), in whole microseconds"

// ParseDuration parses a span of simulated time: a Go duration string with
// units ("100ms", "1h30m", "250us" or "250µs") or a bare number of seconds
// ("10", "0.5", "5e-3": a JSON number in a spec too), in whole microseconds
// (the resolution of simulated time), not negative and at most
// MaxDurationSeconds. It is the one parser of durations of every command,
// flag and spec field.
func ParseDuration(s string) (Time, error) {
	s = strings.TrimSpace(s)
	if isNumber(s) {
		return parseSeconds(s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("duration %q: want %s", s, DurationSyntax)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	if d%time.Microsecond != 0 {
		return 0, fmt.Errorf("duration %q is not a whole number of microseconds (the resolution of simulated time)", s)
	}
	return Time(d / time.Microsecond), nil
}

// MaxDurationSeconds is the longest duration ParseDuration reads, in
// seconds: MaxSeconds, the range of every time read.
const MaxDurationSeconds = MaxSeconds

// isNumber reports whether s is a signed decimal number, with at most one
// point and an optional exponent ("1e30", "5E-3").
func isNumber(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	digits, points := 0, 0
	for _, c := range mant {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	if digits == 0 || points > 1 {
		return false
	}
	if !hasExp {
		return true
	}
	exp = strings.TrimLeft(exp, "+-")
	for _, c := range exp {
		if c < '0' || c > '9' {
			return false
		}
	}
	return exp != ""
}

// parseSeconds parses a number of seconds exactly (isNumber's form).
func parseSeconds(s string) (Time, error) {
	// An exponent beyond the range of a duration is refused before
	// big.Rat spends memory on it.
	if _, exp, ok := strings.Cut(strings.ToLower(s), "e"); ok {
		if e, err := strconv.Atoi(exp); err != nil || e > 30 || e < -30 {
			return 0, fmt.Errorf("duration %q is out of range (0 to %d s, in whole microseconds)", s, int64(MaxDurationSeconds))
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, fmt.Errorf("duration %q: want %s", s, DurationSyntax)
	}
	if r.Sign() < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	us := r.Mul(r, big.NewRat(int64(Second), 1))
	if !us.IsInt() {
		return 0, fmt.Errorf("duration %q is not a whole number of microseconds (the resolution of simulated time)", s)
	}
	if us.Num().Cmp(big.NewInt(int64(MaxTime))) > 0 {
		return 0, fmt.Errorf("duration %q is too long (at most %d s)", s, int64(MaxDurationSeconds))
	}
	return Time(us.Num().Int64()), nil
}
