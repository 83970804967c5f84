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
	// skipped (Skipped), or for a value outside SWF 2.2 whose job was
	// kept; ErrDuplicateID for a repeated job number (kept);
	// ErrCommentAfterJobs for an ignored comment line.
	Cause error

	// Field is the SWF field of the value (Cause ErrNumber, ErrFraction,
	// ErrRange or ErrDuplicateID), whether its job was kept or its line
	// skipped; 0 for a cause of the whole line (ErrFieldCount,
	// ErrLineTooLong) or an ignored comment line.
	Field model.Field

	// Skipped is true for lines that lenient mode skipped (the value in
	// Field was needed and unusable, or the whole line was malformed),
	// false for kept jobs and ignored comments.
	Skipped bool

	// Count is the number of lines with this cause.
	Count int

	// Unknown is how many of the Count values were marked unknown (the
	// field left out of the job's Known set) because the field cannot
	// hold them (not a number, a fraction, too large); the others were
	// kept as read.
	Unknown int

	// Lines are the 1-based numbers of the first lines with this cause, at
	// most MaxAnomalyLines of them, in increasing order (rows of a table,
	// for a Checker's).
	Lines []int

	// First is the full error of the first malformed line with this
	// cause; nil for ErrCommentAfterJobs and header values.
	First *ParseError

	// Header is the header key of values counted under ErrHeaderValue
	// (Field is 0), and HeaderErr the first one's error, which names the
	// file and the line or metadata key.
	Header    string
	HeaderErr error
}

// Whole-line causes, in the order a summary prints them.
const (
	lineFieldCount = iota
	lineTooLong
	lineAttribute
	lineComment
	numCauses
)

// numOddCauses: odd values are counted under ErrNumber, ErrRange or
// ErrFraction (numStatus - 1).
const numOddCauses = 3

var oddCauses = [numOddCauses]error{ErrNumber, ErrRange, ErrFraction}

// oddIndex places ErrNumber, ErrRange or ErrFraction in oddCauses.
func oddIndex(cause error) int {
	for i, c := range oddCauses {
		if c == cause {
			return i
		}
	}
	return 0
}

// noteOdd counts a value outside SWF 2.2 in field f whose job is kept.
func (c *checker) noteOdd(f model.Field, st numStatus, perr *ParseError, kept bool) {
	c.noteValue(&c.odd[f][st-1], oddCauses[st-1], perr, !kept)
}

// noteValue counts a kept job's odd value in a.
func (c *checker) noteValue(a *Anomaly, cause error, perr *ParseError, unknown bool) {
	a.Cause = cause
	a.Field = model.Field(perr.Field)
	a.Count++
	if unknown {
		a.Unknown++
	}
	if len(a.Lines) < MaxAnomalyLines {
		a.Lines = append(a.Lines, c.at)
	}
	if a.First == nil {
		a.First = perr
	}
}

// note counts the current line as skipped under the sentinel that cause
// wraps, by the field of perr when it names one.
func (c *checker) note(cause error, perr *ParseError) { c.noteAt(cause, perr, c.at) }

// noteAt counts line as skipped (or, for ErrCommentAfterJobs, ignored)
// under the sentinel that cause wraps.
func (c *checker) noteAt(cause error, perr *ParseError, line int) {
	for _, s := range []error{ErrFieldCount, ErrNumber, ErrFraction, ErrRange, ErrLineTooLong, ErrAttribute} {
		if errors.Is(cause, s) {
			cause = s
			break
		}
	}
	var a *Anomaly
	switch {
	case cause == ErrCommentAfterJobs:
		a = &c.anomalies[lineComment]
	case cause == ErrFieldCount:
		a = &c.anomalies[lineFieldCount]
	case cause == ErrLineTooLong:
		a = &c.anomalies[lineTooLong]
	case cause == ErrAttribute:
		a = &c.anomalies[lineAttribute]
	case perr != nil && perr.Field > 0 && perr.Field <= model.NumFields:
		a = &c.skipped[perr.Field][oddIndex(cause)]
		a.Field = model.Field(perr.Field)
	default:
		a = &c.anomalies[lineFieldCount] // no other cause skips a line
	}
	a.Cause = cause
	a.Skipped = cause != ErrCommentAfterJobs
	a.Count++
	if len(a.Lines) < MaxAnomalyLines {
		a.Lines = append(a.Lines, line)
	}
	if a.First == nil {
		a.First = perr
	}
}

// Anomalies returns the lines the reader skipped (lenient mode), kept with
// odd values or ignored (comments after the first job), one Anomaly per
// cause in a fixed order: lines skipped as a whole (ErrFieldCount, then
// ErrLineTooLong); lines skipped for a needed field's value, by field (and
// cause: ErrNumber, ErrRange, ErrFraction); then the odd values of kept
// jobs by field and cause; then repeated job numbers; then
// ErrCommentAfterJobs. It covers the lines read so far; call it after Read
// returns io.EOF for the whole file.
func (r *Reader) Anomalies() Anomalies { return r.checker.anomalyList() }

func (c *checker) anomalyList() Anomalies {
	var out Anomalies
	add := func(a Anomaly) {
		if a.Count > 0 {
			a.Lines = append([]int(nil), a.Lines...)
			out = append(out, a)
		}
	}
	for _, a := range c.headers {
		add(a)
	}
	add(c.anomalies[lineFieldCount])
	add(c.anomalies[lineTooLong])
	add(c.anomalies[lineAttribute])
	for f := range c.skipped {
		for _, a := range c.skipped[f] {
			add(a)
		}
	}
	for f := range c.odd {
		for _, a := range c.odd[f] {
			add(a)
		}
	}
	add(c.dupID)
	add(c.anomalies[lineComment])
	return out
}

// Anomalies is a Reader's summary of the lines it did not turn into jobs.
type Anomalies []Anomaly

// Skipped is the number of malformed lines skipped (lenient mode).
func (as Anomalies) Skipped() int {
	n := 0
	for _, a := range as {
		if a.Skipped {
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
		if a.Field != 0 && !a.Skipped {
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
// skipped line, "field 11 (status): value out of range" for kept values,
// "header MaxRuntime: header value not usable" for a header's.
func (a *Anomaly) what() string {
	if a.Header != "" {
		return "header " + a.Header + ": " + a.Cause.Error()
	}
	if a.Field == 0 {
		return a.Cause.Error()
	}
	return "field " + strconv.Itoa(int(a.Field)) + " (" + a.Field.String() + "): " + a.Cause.Error()
}

// Summary is the anomalies on one line, e.g. "2 malformed lines skipped
// (1 wrong number of fields, 1 in field 4 (run time)); jobs kept with values
// outside SWF 2.2: 12 in field 11 (status), 3 repeated job numbers; 1
// comment line after the first job ignored", "" when there are none.
func (as Anomalies) Summary() string {
	var parts []string
	if n := as.Skipped(); n > 0 {
		var why []string
		for _, a := range as {
			if a.Skipped && a.Field == 0 {
				why = append(why, strconv.Itoa(a.Count)+" "+a.Cause.Error())
			}
		}
		why = append(why, byField(as, func(a *Anomaly) bool { return a.Skipped })...)
		parts = append(parts, plural(n, "malformed line")+" skipped ("+strings.Join(why, ", ")+")")
	}
	kept := byField(as, func(a *Anomaly) bool { return !a.Skipped && a.Cause != ErrDuplicateID })
	if n := as.Count(ErrDuplicateID); n > 0 {
		kept = append(kept, plural(n, "repeated job number"))
	}
	if len(kept) > 0 {
		parts = append(parts, "jobs kept with values outside SWF 2.2: "+strings.Join(kept, ", "))
	}
	if n := as.Count(ErrCommentAfterJobs); n > 0 {
		parts = append(parts, plural(n, "comment line")+" after the first job ignored")
	}
	var keys []string
	for _, a := range as {
		if a.Header != "" {
			keys = append(keys, a.Header)
		}
	}
	if len(keys) > 0 {
		parts = append([]string{"header values read as unknown: " + strings.Join(keys, ", ")}, parts...)
	}
	return strings.Join(parts, "; ")
}

// byField counts the anomalies that match by field, in order: "12 in
// field 11 (status)".
func byField(as Anomalies, match func(*Anomaly) bool) []string {
	count := map[model.Field]int{}
	var fields []model.Field
	for i := range as {
		a := &as[i]
		if a.Field == 0 || !match(a) {
			continue
		}
		if count[a.Field] == 0 {
			fields = append(fields, a.Field)
		}
		count[a.Field] += a.Count
	}
	var out []string
	for _, f := range fields {
		out = append(out, strconv.Itoa(count[f])+" in field "+strconv.Itoa(int(f))+" ("+f.String()+")")
	}
	return out
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
		if a.Header != "" && a.HeaderErr != nil {
			v += " (" + headerCause(a.HeaderErr) + ")"
		}
		if a.Skipped {
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
		if a.Field != 0 && !a.Skipped {
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
		} else if a.HeaderErr != nil {
			b.WriteString(" (first: ")
			b.WriteString(a.HeaderErr.Error())
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

// noteHeader counts a header line whose value is not usable (err, which
// says where) under its key: the line is kept, the field read as unknown.
// line is its line in the file, 0 for a table's metadata.
func (c *checker) noteHeader(key string, line int, err error) {
	for i := range c.headers {
		if a := &c.headers[i]; a.Header == key {
			a.Count++
			if line > 0 && len(a.Lines) < MaxAnomalyLines {
				a.Lines = append(a.Lines, line)
			}
			return
		}
	}
	a := Anomaly{Cause: ErrHeaderValue, Header: key, Count: 1, HeaderErr: err}
	if line > 0 {
		a.Lines = []int{line}
	}
	c.headers = append(c.headers, a)
}

// headerCause is the cause of a header value's error without where it
// is: `unknown value "N/A" in header MaxRuntime (want an integer)`.
func headerCause(err error) string {
	var he *model.HeaderValueError
	if errors.As(err, &he) {
		return he.Error()
	}
	return err.Error()
}
