package workload

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gangsim/gangsim/model"
)

// Duration is a span of simulated time (integer microseconds, as
// model.Time) that reads and writes JSON as a Go duration string, "5ms",
// "1m30s", so that specs stay readable. A JSON number is read as seconds.
type Duration model.Time

// DurationSyntax describes what ParseDuration accepts, for flag help
// texts: every duration flag and spec field of gangsim reads the same way.
const DurationSyntax = "a duration such as 10s, 100ms, 1.5h or 1h30m (us, ms, s, m, h; a number alone is seconds), in whole microseconds"

// ParseDuration parses a duration: a Go duration string ("500ms", "1h",
// "2.5s", "1h30m") or a number alone, which is seconds ("10", "0.25"). It
// is the one parser of every duration flag and spec field. Simulated time
// has a resolution of one microsecond: a duration that is not a whole
// number of microseconds ("500ns", "1.0000005") is an error, never
// rounded or ignored, and so is a negative one.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if isDecimal(s) {
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
	return Duration(d / time.Microsecond), nil
}

// isDecimal reports whether s is digits with at most one point and an
// optional leading "+".
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "+")
	digits, points := 0, 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

// parseSeconds parses a decimal number of seconds exactly.
func parseSeconds(s string) (Duration, error) {
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "+"), ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 6 {
		return 0, fmt.Errorf("duration %q is not a whole number of microseconds (the resolution of simulated time)", s)
	}
	frac += strings.Repeat("0", 6-len(frac))
	w, err := strconv.ParseInt("0"+whole, 10, 64)
	if err != nil || w > math.MaxInt64/int64(model.Second)-1 {
		return 0, fmt.Errorf("duration %q is too long", s)
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	return Duration(w*int64(model.Second) + f), nil
}

// Time returns d as model.Time.
func (d Duration) Time() model.Time { return model.Time(d) }

// String formats d as a Go duration string ("5ms", "1m0s"); durations too
// long for time.Duration (about 292 years) print as seconds.
func (d Duration) String() string {
	if d > Duration(math.MaxInt64/int64(time.Microsecond)) || d < -Duration(math.MaxInt64/int64(time.Microsecond)) {
		return model.Time(d).String()
	}
	return (time.Duration(d) * time.Microsecond).String()
}

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a duration string, or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := ParseDuration(s)
		if err != nil {
			return err
		}
		*d = v
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("duration %s: want a string such as \"5ms\" or a number of seconds", b)
	}
	if secs < 0 || math.IsNaN(secs) || math.IsInf(secs, 0) {
		return fmt.Errorf("duration %s: want a non-negative number of seconds", b)
	}
	*d = Duration(model.FromSecondsFloat(secs))
	return nil
}
