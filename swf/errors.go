package swf

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Causes of a *ParseError, and of the lines a lenient Reader skips. Test
// for them with errors.Is.
var (
	// ErrFieldCount: a job line does not have exactly 18 fields.
	ErrFieldCount = errors.New("wrong number of fields")

	// ErrNumber: a field is not a decimal number.
	ErrNumber = errors.New("invalid number")

	// ErrFraction: a count or ID field (processors, memory, status, user...)
	// has a nonzero fractional part, e.g. "32.5". An integral decimal such
	// as "32.00" is accepted.
	ErrFraction = errors.New("fractional value in an integer field")

	// ErrRange: a field's value is outside what the field can hold: a
	// negative count or ID other than the missing-value marker -1, a status
	// outside 0..5, or a number too large for its type (a time beyond
	// about 292,000 years in microseconds).
	ErrRange = errors.New("value out of range")

	// ErrLineTooLong: a line is longer than MaxLineBytes.
	ErrLineTooLong = errors.New("line too long")

	// ErrDuplicateID: a job number repeats an earlier job's. An error in
	// strict mode; otherwise both jobs are kept and the repeat counted.
	ErrDuplicateID = errors.New("repeated job number")

	// ErrEmpty: the input has no header line, no job line and nothing
	// skipped (an empty file or standard input, blank lines only, a CSV
	// of column names only): an error when the reader's EmptyIsError is
	// set, which package fileio sets for every trace it opens.
	ErrEmpty = errors.New("empty input: no header and no job lines")

	// ErrAttribute: an application attribute of a table's row (its
	// granularity_s, imbalance, message_bytes, proc_compute_s...) is
	// outside its range (model.App.Check) or not readable as its column's
	// type (a NaN, a word). A Checker refuses the row in every mode but
	// Lenient, which skips it and counts it.
	ErrAttribute = errors.New("bad application attribute")

	// ErrTruncated: an SWF file whose first line promises a closing line
	// (Writer.MarkEnd) ends without it, or with one giving another number
	// of job lines: it was cut short, at a line boundary or not.
	ErrTruncated = errors.New("truncated: the input ends without its end marker")

	// ErrHeaderValue: a header line's value is not usable: an integer key
	// (MaxProcs, MaxRuntime...) whose value is unknown (N/A, empty, a word,
	// -1) or garbled (model.HeaderValueError), or a line that names an SWF
	// 2.2 key but is not "Key: value" (";MaxProcs=64"). An error in strict
	// mode; otherwise the line is kept, the field read as unknown, and
	// counted (Anomaly.Header).
	ErrHeaderValue = errors.New("header value not usable")

	// ErrCommentAfterJobs is not a parse error: it is the cause under
	// which Reader.Anomalies counts the ";" comment lines that come after
	// the first job line. They are not part of the header and are
	// otherwise ignored, in strict and lenient mode alike.
	ErrCommentAfterJobs = errors.New("comment line after the first job")
)

// MaxLineBytes is the longest line a Reader accepts, in bytes (without the
// line terminator). SWF job lines are about 100 bytes; the limit keeps a
// Reader's memory bounded on corrupt input.
const MaxLineBytes = 1 << 20

// ParseError is a malformed line of an SWF file: where it is and why.
type ParseError struct {
	Name  string // file name as given to the Reader; "" prints as "line N"
	Line  int    // 1-based line number, or row of a table (Row)
	Row   bool   // Line is a row of a table (Parquet, Arrow) read by a Checker
	Field int    // 1-based SWF field number (model.Field); 0 means the whole line
	// Column names the application attribute of an ErrAttribute (Field 0).
	Column string
	Err    error // the cause, wrapping one of ErrFieldCount, ErrNumber, ErrFraction, ErrRange, ErrLineTooLong, ErrAttribute
}

// Error formats the error as "name:12: field 4 (run time): invalid number
// "abc"", or "name:12: wrong number of fields: 17, want 18" for a
// whole-line error, or "name: row 12: field 11 (status): ..." for a row of
// a table.
func (e *ParseError) Error() string {
	var b strings.Builder
	switch {
	case e.Row && e.Name != "":
		b.WriteString(e.Name)
		b.WriteString(": row ")
	case e.Row:
		b.WriteString("row ")
	case e.Name != "":
		b.WriteString(e.Name)
		b.WriteByte(':')
	default:
		b.WriteString("line ")
	}
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteString(": ")
	if e.Field > 0 {
		b.WriteString("field ")
		b.WriteString(strconv.Itoa(e.Field))
		b.WriteString(" (")
		b.WriteString(model.Field(e.Field).String())
		b.WriteString("): ")
	} else if e.Column != "" {
		b.WriteString("column ")
		b.WriteString(e.Column)
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause, so errors.Is(err, ErrNumber) works.
func (e *ParseError) Unwrap() error { return e.Err }

// detailError is a sentinel cause with the offending text, e.g.
// `invalid number "abc"`.
type detailError struct {
	cause  error  // one of the sentinels
	detail string // printed after the cause's text
}

func (e *detailError) Error() string { return e.cause.Error() + e.detail }
func (e *detailError) Unwrap() error { return e.cause }
