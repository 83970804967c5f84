package model

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Duration is a span of simulated time (integer microseconds, as Time)
// that reads and writes JSON as a Go duration string, "5ms", "1m30s", so
// that specs and experiments stay readable. A JSON number is read as
// seconds, by the same parser and rules (ParseDuration: whole
// microseconds, not negative, at most MaxDurationSeconds).
type Duration Time

// Time returns d as Time.
func (d Duration) Time() Time { return Time(d) }

// String formats d as a Go duration string ("5ms", "1m0s"); durations too
// long for time.Duration (about 292 years) print as a bare number of
// seconds, which ParseDuration reads back.
func (d Duration) String() string {
	if d > Duration(math.MaxInt64/int64(time.Microsecond)) || d < -Duration(math.MaxInt64/int64(time.Microsecond)) {
		return string(Time(d).AppendSeconds(nil))
	}
	return (time.Duration(d) * time.Microsecond).String()
}

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a duration string, or a number of seconds, with
// ParseDuration: 0.0000005 is refused like "500ns", 1e30 as too long.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := ParseDuration(s)
		if err != nil {
			return err
		}
		*d = Duration(v)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("duration %s: want a string such as \"5ms\" or a number of seconds", b)
	}
	v, err := ParseDuration(n.String())
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}
