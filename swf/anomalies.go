package swf

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// MaxAnomalyLines is how many line numbers an Anomaly keeps: the first ones
// of its cause.
const MaxAnomalyLines = 10

// Anomaly counts the lines of one cause that a Reader did not turn into
// jobs, or whose job it kept with an odd value.
type Anomaly struct {
	// Cause is the sentinel: ErrFieldCount, ErrNumber, ErrFraction,
	// ErrRange or ErrLineTooLong for a malformed line that lenient mode
	// skipped (Field 0), or for a value outside SWF 2.2 in a field that is
	// not needed (Field > 0), whose job was kept; ErrDuplicateID for a
	// repeated job number (kept); ErrCommentAfterJobs for an ignored
	// comment line.
	Cause error

	// Field is the SWF field of a value kept (Cause ErrNumber,
	// ErrFraction, ErrRange or ErrDuplicateID), 0 for a skipped or
	// ignored line.
	Field model.Field

	// Count is the number of lines with this cause.
	Count int

	// Unknown is how many of the Count values were marked unknown (the
	// field left out of the job's Known set) because the field cannot
	// hold them (not a number, a fraction, too large); the others were
	// kept as read.
	Unknown int

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

// numOddCauses: odd values are counted under ErrNumber, ErrFraction or
// ErrRange (numStatus - 1).
const numOddCauses = 3

var oddCauses = [numOddCauses]error{ErrNumber, ErrRange, ErrFraction}

// noteOdd counts a value outside SWF 2.2 in field f whose job is kept.
func (r *Reader) noteOdd(f model.Field, st numStatus, perr *ParseError, kept bool) {
	r.noteValue(&r.odd[f][st-1], oddCauses[st-1], perr, !kept)
}

// noteValue counts a kept job's odd value in a.
func (r *Reader) noteValue(a *Anomaly, cause error, perr *ParseError, unknown bool) {
	a.Cause = cause
	a.Field = model.Field(perr.Field)
	a.Count++
	if unknown {
		a.Unknown++
	}
	if len(a.Lines) < MaxAnomalyLines {
		a.Lines = append(a.Lines, r.lineNo)
	}
	if a.First == nil {
		a.First = perr
	}
}

// seenIDs remembers job numbers: a bitmap for the dense low range real
// logs and generators use (a bit a job), a map for the rest.
type seenIDs struct {
	bits []uint64
	rest map[int64]bool
}

// maxIDBits bounds the bitmap: job numbers up to 2^27 (16 MB).
const maxIDBits = 1 << 27

// seen records id and reports whether it was recorded before.
func (s *seenIDs) seen(id int64) bool {
	if id >= 0 && id < maxIDBits {
		w := int(id >> 6)
		if w >= len(s.bits) {
			s.bits = append(s.bits, make([]uint64, max(w+1-len(s.bits), len(s.bits)))...)
		}
		m := uint64(1) << (id & 63)
		dup := s.bits[w]&m != 0
		s.bits[w] |= m
		return dup
	}
	if s.rest == nil {
		s.rest = map[int64]bool{}
	}
	dup := s.rest[id]
	s.rest[id] = true
	return dup
}

// note counts the current line under the sentinel that cause wraps.
func (r *Reader) note(cause error, perr *ParseError) { r.noteAt(cause, perr, r.lineNo) }

// noteAt counts line under the sentinel that cause wraps.
func (r *Reader) noteAt(cause error, perr *ParseError, line int) {
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
		a.Lines = append(a.Lines, line)
	}
	if a.First == nil {
		a.First = perr
	}
}

// Anomalies returns the lines the reader skipped (lenient mode) or ignored
// (comments after the first job), one Anomaly per cause in a fixed order:
// ErrFieldCount, ErrNumber, ErrFraction, ErrRange, ErrLineTooLong; then the
// odd values of kept jobs by field (and cause: ErrNumber, ErrRange,
// ErrFraction); then repeated job numbers; then ErrCommentAfterJobs. It
// covers the lines read so far; call it after Read returns io.EOF for the
// whole file.
func (r *Reader) Anomalies() Anomalies {
	var out Anomalies
	add := func(a Anomaly) {
		if a.Count > 0 {
			a.Lines = append([]int(nil), a.Lines...)
			out = append(out, a)
		}
	}
	for _, a := range r.anomalies[:numCauses-1] {
		add(a)
	}
	for f := range r.odd {
		for _, a := range r.odd[f] {
			add(a)
		}
	}
	add(r.dupID)
	add(r.anomalies[numCauses-1])
	return out
}

// Anomalies is a Reader's summary of the lines it did not turn into jobs.
type Anomalies []Anomaly

// Skipped is the number of malformed lines skipped (lenient mode).
func (as Anomalies) Skipped() int {
	n := 0
	for _, a := range as {
		if a.Field == 0 && a.Cause != ErrCommentAfterJobs {
			n += a.Count
		}
	}
	return n
}

// Kept is the number of odd values and repeated job numbers in jobs that
// were kept.
func (as Anomalies) Kept() int {
	n := 0
	for _, a := range as {
		if a.Field != 0 {
			n += a.Count
		}
	}
	return n
}

// Count is the number of lines counted under cause, in any field.
func (as Anomalies) Count(cause error) int {
	n := 0
	for _, a := range as {
		if a.Cause == cause {
			n += a.Count
		}
	}
	return n
}

// what describes an Anomaly's lines: "wrong number of fields" for a
// skipped line, "field 11 (status): value out of range" for kept values.
func (a *Anomaly) what() string {
	if a.Field == 0 {
		return a.Cause.Error()
	}
	return "field " + strconv.Itoa(int(a.Field)) + " (" + a.Field.String() + "): " + a.Cause.Error()
}

// Summary is the anomalies on one line, e.g. "2 malformed lines skipped;
// kept with odd values: 12 in field 11 (status), 3 repeated job numbers;
// 1 comment line after the first job ignored", "" when there are none.
func (as Anomalies) Summary() string {
	var parts []string
	if n := as.Skipped(); n > 0 {
		parts = append(parts, plural(n, "malformed line")+" skipped")
	}
	var kept []string
	byField := map[model.Field]int{}
	var fields []model.Field
	for _, a := range as {
		if a.Field == 0 || a.Cause == ErrDuplicateID {
			continue
		}
		if byField[a.Field] == 0 {
			fields = append(fields, a.Field)
		}
		byField[a.Field] += a.Count
	}
	for _, f := range fields {
		kept = append(kept, strconv.Itoa(byField[f])+" in field "+strconv.Itoa(int(f))+" ("+f.String()+")")
	}
	if n := as.Count(ErrDuplicateID); n > 0 {
		kept = append(kept, plural(n, "repeated job number"))
	}
	if len(kept) > 0 {
		parts = append(parts, "jobs kept with values outside SWF 2.2: "+strings.Join(kept, ", "))
	}
	if n := as.Count(ErrCommentAfterJobs); n > 0 {
		parts = append(parts, plural(n, "comment line")+" after the first job ignored")
	}
	return strings.Join(parts, "; ")
}

// KeyAnomaly is the manifest key under which an output records the
// anomalies of its SWF input, one line per Anomaly: "12 field 11 (status):
// value out of range (1 marked unknown)".
const KeyAnomaly = model.KeyGangsimPrefix + "Anomaly"

// HeaderLines returns the anomalies as manifest lines (KeyAnomaly).
func (as Anomalies) HeaderLines() []model.HeaderLine {
	var lines []model.HeaderLine
	for _, a := range as {
		v := strconv.Itoa(a.Count) + " " + a.what()
		if a.Field == 0 && a.Cause != ErrCommentAfterJobs {
			v += " (skipped)"
		}
		if a.Unknown > 0 {
			v += " (" + strconv.Itoa(a.Unknown) + " marked unknown)"
		}
		lines = append(lines, model.HeaderLine{Key: KeyAnomaly, Value: v})
	}
	return lines
}

// String formats the summary, then one line per cause, e.g.
//
//	2 malformed lines skipped; 1 comment line after the first job ignored
//	  wrong number of fields: 2 lines: 4, 9 (first: line 4: wrong number of fields: 17, want 18)
//
// It is "no anomalies" when there are none.
func (as Anomalies) String() string {
	if len(as) == 0 {
		return "no anomalies"
	}
	var b strings.Builder
	b.WriteString(as.Summary())
	for _, a := range as {
		b.WriteString("\n  ")
		b.WriteString(a.what())
		b.WriteString(": ")
		b.WriteString(plural(a.Count, "line"))
		if a.Field != 0 {
			switch {
			case a.Unknown == a.Count:
				b.WriteString(" (value marked unknown)")
			case a.Unknown > 0:
				b.WriteString(" (" + strconv.Itoa(a.Unknown) + " marked unknown, the others kept as read)")
			case a.Cause != ErrDuplicateID:
				b.WriteString(" (value kept as read)")
			}
		}
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
