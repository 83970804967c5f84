package swf

import (
	"math"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// numStatus is the outcome of parsing one field; the hot path returns it
// instead of an error so that a good line allocates nothing.
type numStatus uint8

const (
	numOK       numStatus = iota
	numSyntax             // ErrNumber
	numRange              // ErrRange
	numFraction           // ErrFraction
)

// maxWholeSeconds is the largest whole number of seconds a time field
// holds: model.MaxSeconds, the range of every time read.
const maxWholeSeconds = model.MaxSeconds

// decimal is a number as written in an SWF field: sign, integer part and
// the first six fractional digits (microseconds when the field is a time).
type decimal struct {
	neg      bool
	whole    uint64 // integer part
	micro    int64  // first six fractional digits, in millionths
	roundUp  bool   // the seventh fractional digit is >= 5
	fraction bool   // some fractional digit is nonzero
	overflow bool   // the integer part does not fit in a uint64
}

// parseDecimal parses [+-]digits[.digits] (at least one digit), or, as a
// fallback, a number with an exponent ("1e3"). It never allocates for the
// plain form.
func parseDecimal(tok []byte) (d decimal, st numStatus) {
	i := 0
	if len(tok) > 0 && (tok[0] == '-' || tok[0] == '+') {
		d.neg = tok[0] == '-'
		i++
	}
	digits := 0
	for ; i < len(tok); i++ {
		c := tok[i] - '0'
		if c > 9 {
			break
		}
		digits++
		if d.whole > (math.MaxUint64-uint64(c))/10 {
			d.overflow = true
			continue
		}
		d.whole = d.whole*10 + uint64(c)
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		scale := int64(100000)
		for k := 0; i < len(tok); i, k = i+1, k+1 {
			c := tok[i] - '0'
			if c > 9 {
				break
			}
			digits++
			if c != 0 {
				d.fraction = true
			}
			switch {
			case k < 6:
				d.micro += int64(c) * scale
				scale /= 10
			case k == 6:
				d.roundUp = c >= 5
			}
		}
	}
	if i == len(tok) && digits > 0 {
		if d.overflow {
			return d, numRange
		}
		return d, numOK
	}
	return parseExponent(tok)
}

// parseExponent parses a decimal with an exponent, such as "1.5e3", through
// strconv. Only digits, signs, '.', 'e' and 'E' are accepted: no "inf",
// "nan", hexadecimal or underscores.
func parseExponent(tok []byte) (d decimal, st numStatus) {
	exp := false
	for _, c := range tok {
		switch {
		case c >= '0' && c <= '9', c == '+', c == '-', c == '.':
		case c == 'e' || c == 'E':
			exp = true
		default:
			return d, numSyntax
		}
	}
	if !exp {
		return d, numSyntax
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return d, numRange
		}
		return d, numSyntax
	}
	d.neg = math.Signbit(f)
	f = math.Abs(f)
	if f >= 1<<64 {
		d.overflow = true
		return d, numRange
	}
	w := math.Trunc(f)
	d.whole = uint64(w)
	rest := (f - w) * 1e6
	d.fraction = rest != 0
	d.micro = int64(rest)
	d.roundUp = rest-float64(d.micro) >= 0.5
	return d, numOK
}

// parseCount parses a count or ID field: an integer in [0, max], or -1 for
// a missing value (returned as -1). An integral decimal ("32.00") is
// accepted; a nonzero fraction is numFraction.
func parseCount(tok []byte, max int64) (int64, numStatus) {
	// Fast path: plain digits, and the missing-value marker.
	if n := len(tok); n > 0 && n <= 18 {
		var v int64
		i := 0
		for ; i < n; i++ {
			c := tok[i] - '0'
			if c > 9 {
				break
			}
			v = v*10 + int64(c)
		}
		if i == n {
			if v > max {
				return 0, numRange
			}
			return v, numOK
		}
		if n == 2 && tok[0] == '-' && tok[1] == '1' {
			return -1, numOK
		}
	}
	d, st := parseDecimal(tok)
	if st != numOK {
		return 0, st
	}
	if d.fraction {
		return 0, numFraction
	}
	if d.neg {
		if d.whole == 0 {
			return 0, numOK // "-0"
		}
		if d.whole == 1 {
			return -1, numOK
		}
		return 0, numRange
	}
	if d.whole > uint64(max) {
		return 0, numRange
	}
	return int64(d.whole), numOK
}

// parseTime parses a time field in seconds to microseconds, exactly for up
// to six decimals and rounding half away from zero beyond that. missing
// reports the marker -1 (in any spelling whose value is exactly -1 s).
// Negative times are data.
func parseTime(tok []byte) (t model.Time, missing bool, st numStatus) {
	// Fast path: plain whole seconds.
	if n := len(tok); n > 0 && n <= 12 {
		var v int64
		i := 0
		for ; i < n; i++ {
			c := tok[i] - '0'
			if c > 9 {
				break
			}
			v = v*10 + int64(c)
		}
		if i == n {
			if v > maxWholeSeconds {
				return 0, false, numRange
			}
			return model.Time(v) * model.Second, false, numOK
		}
		if n == 2 && tok[0] == '-' && tok[1] == '1' {
			return 0, true, numOK
		}
	}
	d, st := parseDecimal(tok)
	if st != numOK {
		return 0, false, st
	}
	if d.whole > uint64(maxWholeSeconds) {
		return 0, false, numRange
	}
	us := d.whole*uint64(model.Second) + uint64(d.micro) // < 2^63: whole <= maxWholeSeconds
	if d.roundUp {
		us++
	}
	if us > uint64(model.MaxTime) {
		return 0, false, numRange
	}
	if d.neg {
		if us == uint64(model.Second) {
			return 0, true, numOK
		}
		return model.Time(-int64(us)), false, numOK
	}
	return model.Time(us), false, numOK
}
