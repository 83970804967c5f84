package swf

import (
	"errors"
	"strconv"
	"strings"
)

// MaxAnomalyLines is how many line numbers an Anomaly keeps: the first ones
// of its cause.
const MaxAnomalyLines = 10

// Anomaly counts the lines of one cause that a Reader did not turn into
// jobs.
type Anomaly struct {
	// Cause is the sentinel: ErrFieldCount, ErrNumber, ErrFraction,
	// ErrRange or ErrLineTooLong for a malformed line that lenient mode
	// skipped, ErrCommentAfterJobs for an ignored comment line.
	Cause error

	// Count is the number of lines with this cause.
	Count int

	// Lines are the 1-based numbers of the first lines with this cause, at
	// most MaxAnomalyLines of them, in increasing order.
	Lines []int

	// First is the full error of the first malformed line with this
	// cause; nil for ErrCommentAfterJobs.
	First *ParseError
}

// causeIndex places a sentinel cause in the order a summary prints them.
func causeIndex(cause error) int {
	switch cause {
	case ErrFieldCount:
		return 0
	case ErrNumber:
		return 1
	case ErrFraction:
		return 2
	case ErrRange:
		return 3
	case ErrLineTooLong:
		return 4
	}
	return 5 // ErrCommentAfterJobs
}

const numCauses = 6

// note counts one line under the sentinel that cause wraps.
func (r *Reader) note(cause error, perr *ParseError) {
	for _, s := range []error{ErrFieldCount, ErrNumber, ErrFraction, ErrRange, ErrLineTooLong} {
		if errors.Is(cause, s) {
			cause = s
			break
		}
	}
	a := &r.anomalies[causeIndex(cause)]
	a.Cause = cause
	a.Count++
	if len(a.Lines) < MaxAnomalyLines {
		a.Lines = append(a.Lines, r.lineNo)
	}
	if a.First == nil {
		a.First = perr
	}
}

// Anomalies returns the lines the reader skipped (lenient mode) or ignored
// (comments after the first job), one Anomaly per cause in a fixed order:
// ErrFieldCount, ErrNumber, ErrFraction, ErrRange, ErrLineTooLong,
// ErrCommentAfterJobs. It covers the lines read so far; call it after Read
// returns io.EOF for the whole file.
func (r *Reader) Anomalies() Anomalies {
	var out Anomalies
	for _, a := range r.anomalies {
		if a.Count > 0 {
			a.Lines = append([]int(nil), a.Lines...)
			out = append(out, a)
		}
	}
	return out
}

// Anomalies is a Reader's summary of the lines it did not turn into jobs.
type Anomalies []Anomaly

// Skipped is the number of malformed lines skipped (every cause except
// ErrCommentAfterJobs).
func (as Anomalies) Skipped() int {
	n := 0
	for _, a := range as {
		if a.Cause != ErrCommentAfterJobs {
			n += a.Count
		}
	}
	return n
}

// Count is the number of lines counted under cause.
func (as Anomalies) Count(cause error) int {
	for _, a := range as {
		if a.Cause == cause {
			return a.Count
		}
	}
	return 0
}

// String formats the summary, one line per cause, e.g.
//
//	2 malformed lines skipped, 1 comment line after the first job ignored
//	  wrong number of fields: 2 lines: 4, 9 (first: line 4: wrong number of fields: 17, want 18)
//
// It is "no anomalies" when there are none.
func (as Anomalies) String() string {
	if len(as) == 0 {
		return "no anomalies"
	}
	var b strings.Builder
	skipped := as.Skipped()
	comments := as.Count(ErrCommentAfterJobs)
	if skipped > 0 {
		b.WriteString(plural(skipped, "malformed line") + " skipped")
	}
	if comments > 0 {
		if skipped > 0 {
			b.WriteString(", ")
		}
		b.WriteString(plural(comments, "comment line") + " after the first job ignored")
	}
	for _, a := range as {
		b.WriteString("\n  ")
		b.WriteString(a.Cause.Error())
		b.WriteString(": ")
		b.WriteString(plural(a.Count, "line"))
		b.WriteString(": ")
		for i, l := range a.Lines {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(l))
		}
		if a.Count > len(a.Lines) {
			b.WriteString(", ...")
		}
		if a.First != nil {
			b.WriteString(" (first: ")
			b.WriteString(a.First.Error())
			b.WriteString(")")
		}
	}
	return b.String()
}

func plural(n int, what string) string {
	s := strconv.Itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}
