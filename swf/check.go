package swf

import (
	"errors"
	"io"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// checker holds SWF 2.2's rules on field values, which values stop a job
// (strict mode; a needed field that is not usable), and the counts of
// what did not: what Reader applies to the lines of an SWF file and
// Checker to the rows of a table, so that every input format keeps, marks
// and counts the same values.
type checker struct {
	name    string         // file name in errors
	row     bool           // positions are rows of a table, not lines
	strict  bool           // every value outside SWF 2.2 stops the job
	lenient bool           // a job with an unusable needed field is skipped, not an error
	needed  model.FieldSet // the fields a replay uses (NeededFields if 0)
	at      int            // line (or row) of the job being checked

	anomalies [numCauses]Anomaly                         // lines skipped or ignored as a whole
	skipped   [model.NumFields + 1][numOddCauses]Anomaly // lines skipped for a needed field's value, by field and cause
	odd       [model.NumFields + 1][numOddCauses]Anomaly // values kept (or marked unknown), by field and cause
	ids       model.IDSet
	dupID     Anomaly   // repeated job numbers
	headers   []Anomaly // header values not usable, by key
}

// oddValues collects the values of a job outside SWF 2.2, in field order,
// until the job's fate is settled.
type oddValues struct {
	n int
	v [model.NumFields]struct {
		f    model.Field
		st   numStatus
		tok  []byte
		kept bool // kept as read; else marked unknown
	}
}

func (o *oddValues) add(f model.Field, st numStatus, tok []byte, kept bool) {
	o.v[o.n].f, o.v[o.n].st, o.v[o.n].tok, o.v[o.n].kept = f, st, tok, kept
	o.n++
}

func (o *oddValues) has(f model.Field) bool {
	for k := 0; k < o.n; k++ {
		if o.v[k].f == f {
			return true
		}
	}
	return false
}

// settle decides the fate of job j, whose values outside SWF 2.2 are odd
// (the unusable ones already left out of j.Known): in strict mode the
// first stops it; otherwise the first in a needed field that leaves the
// job without a usable value does (stops), and if none does, every one is
// counted and the job kept. It returns the error that stops the job.
func (c *checker) settle(j *model.Job, odd *oddValues) *ParseError {
	if odd.n == 0 {
		return nil
	}
	for k := 0; k < odd.n; k++ {
		if o := &odd.v[k]; c.strict || c.stops(j, o.f, o.kept, odd) {
			return c.fieldError(o.f, o.st, o.tok)
		}
	}
	for k := 0; k < odd.n; k++ {
		o := &odd.v[k]
		c.noteOdd(o.f, o.st, c.fieldError(o.f, o.st, o.tok), o.kept)
	}
	return nil
}

// stops reports whether an odd value in field f (kept as read, or marked
// unknown) leaves job j without a value the replay needs. A negative time
// kept as read is usable: cleaning's rules judge it (a negative submit
// time or run time is dropped). The processors are usable when either
// field gives the job's size: a positive field 5 (allocated) or a field 8
// (requested) read as it is.
func (c *checker) stops(j *model.Job, f model.Field, kept bool, odd *oddValues) bool {
	needed := c.needed
	if needed == 0 {
		needed = NeededFields
	}
	if !needed.Has(f) {
		return false
	}
	switch f {
	case model.FieldAllocProcs:
		return !(j.Has(model.FieldReqProcs) && !odd.has(model.FieldReqProcs))
	case model.FieldReqProcs:
		return !(j.Has(model.FieldAllocProcs) && !odd.has(model.FieldAllocProcs) && j.AllocProcs > 0)
	}
	return !kept
}

// checkID counts a repeated job number, or in strict mode returns it as
// the error that stops the job.
func (c *checker) checkID(j *model.Job) *ParseError {
	if !j.Has(model.FieldJobID) || !c.ids.Seen(j.ID) {
		return nil
	}
	perr := &ParseError{Name: c.name, Line: c.at, Row: c.row, Field: int(model.FieldJobID),
		Err: &detailError{ErrDuplicateID, " " + strconv.FormatInt(j.ID, 10)}}
	if c.strict {
		return perr
	}
	c.noteValue(&c.dupID, ErrDuplicateID, perr, false)
	return nil
}

func (c *checker) fieldError(f model.Field, st numStatus, tok []byte) *ParseError {
	var err error
	q := " " + strconv.Quote(string(tok))
	switch st {
	case numSyntax:
		err = &detailError{ErrNumber, q}
	case numFraction:
		err = &detailError{ErrFraction, q}
	default:
		switch {
		case timeFields.Has(f) && tooLarge(tok):
			err = &detailError{ErrRange, q + " (more than " + strconv.FormatInt(maxWholeSeconds, 10) + " s)"}
		case timeFields.Has(f) && len(tok) > 0 && tok[0] == '-':
			err = &detailError{ErrRange, q + " (want 0 or more, or -1 for missing)"}
		case timeFields.Has(f):
			err = &detailError{ErrRange, q + " (more than " + strconv.FormatInt(maxWholeSeconds, 10) + " s)"}
		case f == model.FieldStatus:
			err = &detailError{ErrRange, q + " (want 0 to 5, or -1 for missing)"}
		case tok == nil:
			err = ErrRange
		default:
			err = &detailError{ErrRange, q + " (want 0 to " + strconv.FormatInt(fieldMax(f), 10) + ", or -1 for missing)"}
		}
	}
	return &ParseError{Name: c.name, Line: c.at, Row: c.row, Field: int(f), Err: err}
}

// checkTable judges the values of job j, read from a table: the text of
// the fields its reader could not read as their column's type (unread) is
// parsed as an SWF token is, and the values it did read are held to SWF
// 2.2's ranges (-1 is the missing-value marker in every field, as in SWF).
// A value is kept as read when its field can hold it, else marked unknown;
// the odd ones are collected in odd.
func (c *checker) checkTable(j *model.Job, unread []model.UnreadValue, odd *oddValues) {
	for f := model.Field(1); f <= model.NumFields; f++ {
		text, isUnread := "", false
		for _, u := range unread {
			if u.Field == f {
				text, isUnread = u.Text, true
			}
		}
		if isUnread {
			j.Known = j.Known.Without(f)
			c.checkToken(j, f, []byte(text), odd)
			continue
		}
		if !j.Has(f) {
			continue
		}
		if timeFields.Has(f) {
			t := *timeOf(j, f)
			switch {
			case t == -model.Second:
				j.Known = j.Known.Without(f)
			case !model.InRange(t):
				odd.add(f, numRange, t.AppendSeconds(nil), false)
				j.Known = j.Known.Without(f)
			case t < 0:
				odd.add(f, numRange, t.AppendSeconds(nil), true)
			}
			continue
		}
		v := countOf(j, f)
		switch {
		case v == -1:
			j.Known = j.Known.Without(f)
		case v < 0 || v > fieldMax(f):
			odd.add(f, numRange, strconv.AppendInt(nil, v, 10), holds(f, v))
			if !holds(f, v) {
				j.Known = j.Known.Without(f)
			}
		}
	}
}

// tooLarge reports whether tok, a time whose parse was out of range, is
// beyond model.MaxSeconds in magnitude rather than a negative time in
// range.
func tooLarge(tok []byte) bool {
	t, _, st := parseTime(tok)
	if st == numOK {
		return !model.InRange(t)
	}
	d, st := parseDecimal(tok)
	return st != numOK || d.overflow || d.whole > uint64(maxWholeSeconds) ||
		d.whole == uint64(maxWholeSeconds) && (d.micro > 0 || d.roundUp)
}

// checkApp returns the error that stops job j, read from a table, for an
// application attribute its reader could not read (unread with a Column)
// or one outside its range (model.App.Check).
func (c *checker) checkApp(j *model.Job, unread []model.UnreadValue) *ParseError {
	perr := func(column string, detail string) *ParseError {
		return &ParseError{Name: c.name, Line: c.at, Row: c.row, Column: column, Err: &detailError{ErrAttribute, detail}}
	}
	for _, u := range unread {
		if u.Field == 0 && u.Column != "" {
			return perr(u.Column, ": "+u.Text)
		}
	}
	var re *model.AppRangeError
	if err := j.App.Check(); errors.As(err, &re) {
		return perr(re.Column, " "+strconv.Quote(re.Value)+" (want "+re.Want+")")
	}
	return nil
}

// checkToken reads tok as SWF field f of j, as Reader reads a field, and
// collects it in odd if it is outside SWF 2.2.
func (c *checker) checkToken(j *model.Job, f model.Field, tok []byte, odd *oddValues) {
	if timeFields.Has(f) {
		t, missing, st := parseTime(tok)
		switch {
		case st != numOK:
			odd.add(f, st, tok, false)
		case missing:
		default:
			if t < 0 {
				odd.add(f, numRange, tok, true)
			}
			*timeOf(j, f) = t
			j.Known = j.Known.With(f)
		}
		return
	}
	v, st := parseCount(tok, fieldMax(f))
	if st != numOK {
		lv, ok := looseCount(tok)
		ok = ok && st == numRange && holds(f, lv)
		odd.add(f, st, tok, ok)
		if ok {
			setCount(j, f, lv)
		}
		return
	}
	if v != -1 {
		setCount(j, f, v)
	}
}

// timeOf returns the address of time field f of j.
func timeOf(j *model.Job, f model.Field) *model.Time {
	switch f {
	case model.FieldSubmit:
		return &j.Submit
	case model.FieldWait:
		return &j.Wait
	case model.FieldRuntime:
		return &j.Runtime
	case model.FieldAvgCPU:
		return &j.AvgCPU
	case model.FieldEstimate:
		return &j.Estimate
	}
	return &j.ThinkTime
}

// countOf returns count or ID field f of j.
func countOf(j *model.Job, f model.Field) int64 {
	switch f {
	case model.FieldJobID:
		return j.ID
	case model.FieldAllocProcs:
		return int64(j.AllocProcs)
	case model.FieldUsedMem:
		return j.UsedMemKB
	case model.FieldReqProcs:
		return int64(j.ReqProcs)
	case model.FieldReqMem:
		return j.ReqMemKB
	case model.FieldStatus:
		return int64(j.Status)
	case model.FieldUser:
		return int64(j.User)
	case model.FieldGroup:
		return int64(j.Group)
	case model.FieldExecutable:
		return int64(j.Executable)
	case model.FieldQueue:
		return int64(j.Queue)
	case model.FieldPartition:
		return int64(j.Partition)
	}
	return j.Preceding
}

// setCount sets count or ID field f of j to v, which the field holds, and
// marks it known.
func setCount(j *model.Job, f model.Field, v int64) {
	switch f {
	case model.FieldJobID:
		j.ID = v
	case model.FieldAllocProcs:
		j.AllocProcs = int(v)
	case model.FieldUsedMem:
		j.UsedMemKB = v
	case model.FieldReqProcs:
		j.ReqProcs = int(v)
	case model.FieldReqMem:
		j.ReqMemKB = v
	case model.FieldStatus:
		j.Status = model.Status(v)
	case model.FieldUser:
		j.User = int(v)
	case model.FieldGroup:
		j.Group = int(v)
	case model.FieldExecutable:
		j.Executable = int(v)
	case model.FieldQueue:
		j.Queue = int(v)
	case model.FieldPartition:
		j.Partition = int(v)
	case model.FieldPreceding:
		j.Preceding = v
	}
	j.Known = j.Known.With(f)
}

// Checker applies to the jobs of a table (CSV, Parquet, Arrow: any
// model.JobReader) the rules a Reader applies to SWF lines, so that every
// input format keeps, marks unknown, counts and refuses the same values:
// -1 is the missing-value marker in every field; a value outside SWF 2.2
// (a status of 9, a negative user, a negative wait time, a word the table
// reader could not read) in a field the replay does not need keeps its
// job, kept as read when the field can hold it and marked unknown
// otherwise, and is counted by field in Anomalies; a repeated job number
// is counted. Strict refuses all of these; a job whose needed fields
// (Needed) are not usable is an error, or skipped and counted under
// Lenient. Errors are *ParseError, positioned by the source's Position
// (a CSV line, or a Parquet or Arrow row) when it has one.
//
// The source may report the text of the fields it could not read as
// their column's type through a method UnreadValues() []model.UnreadValue
// (columnar's TraceReader does); such a text is judged as an SWF token.
//
// Set the fields before the first call to Header or Read.
type Checker struct {
	// Name is the file name in errors ("<stdin>" for standard input);
	// empty takes the source's Position name.
	Name string
	// Strict and Lenient are as Reader's.
	Strict, Lenient bool
	// Needed are the fields a replay uses, as Reader's.
	Needed model.FieldSet
	// EmptyIsError is as Reader's: no header line, no row, nothing
	// skipped is ErrEmpty rather than io.EOF.
	EmptyIsError bool

	src     model.JobReader
	c       checker
	started bool
	n       int // jobs read from src
	err     error
	ahead   *readAhead // read by HeaderErr, for the next Read
}

// NewChecker returns a Checker of the jobs of src.
func NewChecker(src model.JobReader) *Checker { return &Checker{src: src} }

func (k *Checker) start() {
	if k.started {
		return
	}
	k.started = true
	k.c.name, k.c.strict, k.c.lenient, k.c.needed = k.Name, k.Strict, k.Lenient, k.Needed
	if p, ok := k.src.(Positioner); ok && k.c.name == "" {
		k.c.name, _ = p.Position()
	}
	if r, ok := k.src.(interface{ RowPositions() bool }); ok {
		k.c.row = r.RowPositions()
	}
	// The header's unusable values (a table reader finds them): an error
	// in strict mode, else kept, read as unknown and counted.
	if p, ok := k.src.(interface{ HeaderProblems() []model.HeaderProblem }); ok {
		for _, hp := range p.HeaderProblems() {
			err := &causeError{[]error{ErrHeaderValue}, hp.Err}
			if k.Strict {
				k.err = err
				return
			}
			line := 0
			var perr *ParseError
			if errors.As(hp.Err, &perr) {
				line = perr.Line
			}
			k.c.noteHeader(hp.Line.Key, line, err)
		}
	}
}

// Header returns the source's header.
func (k *Checker) Header() *model.Header { k.start(); return k.src.Header() }

// HeaderErr returns the source's model.HeaderErr, or, under EmptyIsError,
// ErrEmpty for a source without header lines whose first Read ends it (the
// job read ahead is returned by the next Read).
func (k *Checker) HeaderErr() error {
	k.start()
	if err := model.HeaderErr(k.src); err != nil {
		return err
	}
	if k.err != nil && k.n == 0 {
		return k.err // a header value strict mode refuses
	}
	if !k.EmptyIsError || k.n > 0 || k.ahead != nil || len(k.src.Header().Lines) > 0 {
		return nil
	}
	j, err := k.Read()
	if errors.Is(err, ErrEmpty) {
		return err
	}
	k.ahead = &readAhead{j, err}
	return nil
}

// readAhead is a Read's result kept for the next Read.
type readAhead struct {
	j   model.Job
	err error
}

// Read returns the next job that passes the rules, or the error that
// stops the reader (returned again by every later Read), or io.EOF.
func (k *Checker) Read() (model.Job, error) {
	k.start()
	if a := k.ahead; a != nil {
		k.ahead = nil
		return a.j, a.err
	}
	for k.err == nil {
		j, err := k.src.Read()
		if err != nil {
			if err == io.EOF && k.EmptyIsError && k.n == 0 && len(k.src.Header().Lines) == 0 && len(k.c.anomalyList()) == 0 {
				err = emptyError(k.c.name)
			}
			if err != io.EOF {
				k.err = err
			}
			return model.Job{}, err
		}
		k.n++
		k.c.at = k.n
		if p, ok := k.src.(Positioner); ok {
			if _, line := p.Position(); line > 0 {
				k.c.at = line
			}
		}
		var unread []model.UnreadValue
		if u, ok := k.src.(interface{ UnreadValues() []model.UnreadValue }); ok {
			unread = u.UnreadValues()
		}
		var odd oddValues
		k.c.checkTable(&j, unread, &odd)
		perr := k.c.settle(&j, &odd)
		if perr == nil {
			perr = k.c.checkID(&j)
		}
		if perr == nil {
			perr = k.c.checkApp(&j, unread)
		}
		if perr == nil {
			return j, nil
		}
		if !k.Lenient || k.Strict {
			k.err = perr
			break
		}
		k.c.note(perr.Err, perr)
	}
	return model.Job{}, k.err
}

// Position returns the source's position of the job Read returned last
// (see Positioner): the name and the line, or row.
func (k *Checker) Position() (name string, line int) {
	k.start()
	if p, ok := k.src.(Positioner); ok {
		_, line = p.Position()
	}
	return k.c.name, line
}

// RowPositions reports whether Position's lines are rows of a table.
func (k *Checker) RowPositions() bool { k.start(); return k.c.row }

// Anomalies returns what the rules counted so far, as Reader's.
func (k *Checker) Anomalies() Anomalies { return k.c.anomalyList() }

// Close closes the source if it has a Close method.
func (k *Checker) Close() error {
	if c, ok := k.src.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

var _ model.JobReader = (*Checker)(nil)
