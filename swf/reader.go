package swf

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// bufferBytes is the size of the Reader's input buffers.
const bufferBytes = 64 << 10

// Reader reads an SWF file: the header first, then one job per Read. It
// implements model.JobReader. Input that starts with the gzip magic bytes
// (0x1f 0x8b) is decompressed on the fly.
//
// Set Name and Lenient before the first call to Header or Read.
type Reader struct {
	// Name is the file name used in errors ("<stdin>" for standard
	// input). Empty errors print "line N".
	Name string

	// Strict makes every value outside SWF 2.2 an error (a *ParseError),
	// and so a repeated job number. It takes precedence over Lenient.
	Strict bool

	// Lenient makes Read skip lines whose needed fields (Needed) are not
	// usable, instead of failing on the first one. Every skipped line is
	// counted by cause in Anomalies.
	Lenient bool

	// EmptyIsError makes Read fail with ErrEmpty (after the Name) instead
	// of returning io.EOF when the input had no header line, no job line
	// and no line skipped: nothing to replay is more likely a mistake (an
	// empty pipe) than a workload.
	EmptyIsError bool

	// Needed are the fields the replay uses, whose unusable values stop a
	// job (see NeededFields, the default when 0): a replay whose policy
	// never reads estimates leaves FieldEstimate out, so that a bad
	// estimate is counted like any unused field's.
	Needed model.FieldSet

	src     io.Reader
	br      *bufio.Reader
	started bool
	header  model.Header
	pending bool   // line holds the first job line, read ahead with the header
	line    []byte // the current line, without its terminator
	long    []byte // buffer for lines longer than br's buffer
	lineNo  int    // number of the current line
	jobLine int    // line of the job last returned
	err     error  // sticky: returned by every Read after the first failure
	// endExpected: the first line promised a closing KeyEnd line
	// (Writer.MarkEnd), which must give jobLines, the job lines read
	// (malformed ones included); unterminated: the last line read had no
	// newline.
	endExpected  bool
	endChecked   bool
	jobLines     int
	unterminated bool
	hdrErr       error // the error that stopped the header (also in err), for HeaderErr

	checker // the rules on values and the anomaly counts, shared with Checker
	// comments after the last job so far: the header's trailer if no job
	// follows them, ErrCommentAfterJobs anomalies if one does.
	comments []trailing
}

type trailing struct {
	l    model.HeaderLine
	line int
}

// NewReader returns a Reader that reads SWF from r, plain or gzipped.
func NewReader(r io.Reader) *Reader { return &Reader{src: r} }

// Header returns the header: the ";" comment lines before the first job
// line, in file order, and, once Read has returned io.EOF, those after the
// last job line (a trailer; see Writer.AppendHeader). The first call reads ahead to the first job line; if
// that fails, Header returns what it read and the next Read returns the
// error.
func (r *Reader) Header() *model.Header {
	r.start()
	return &r.header
}

// emptyError is ErrEmpty for the input name.
func emptyError(name string) error {
	if name == "" {
		return ErrEmpty
	}
	return fmt.Errorf("%s: %w", name, ErrEmpty)
}

// HeaderErr returns the error that stopped the reader while it read the
// header (a bad integer value such as "MaxProcs: 1e30", a corrupt gzip
// header, a read error), which the next Read returns too; nil if the
// header was read whole. See model.HeaderErr.
func (r *Reader) HeaderErr() error {
	r.start()
	return r.hdrErr
}

// Line returns the 1-based line number of the job last returned by Read, 0
// before the first job.
func (r *Reader) Line() int { return r.jobLine }

// Read returns the next job, or io.EOF after the last one. In strict mode
// (the default) a malformed line stops the reader with a *ParseError; in
// lenient mode it is skipped and counted in Anomalies. Read returns the
// same error again after any failure.
func (r *Reader) Read() (model.Job, error) {
	r.start()
	for r.err == nil {
		if r.pending {
			r.pending = false
		} else if !r.next() {
			break
		}
		text := trimLeftSpace(r.line)
		switch {
		case len(text) == 0:
			continue // blank line
		case text[0] == ';':
			r.comments = append(r.comments, trailing{parseComment(text[1:]), r.lineNo})
			continue
		}
		for _, c := range r.comments { // not a trailer: a job follows
			r.noteAt(ErrCommentAfterJobs, nil, c.line)
		}
		r.comments = r.comments[:0]
		r.jobLines++
		j, perr := r.parseJob(text)
		if perr == nil {
			perr = r.checkID(&j)
		}
		if perr == nil {
			r.jobLine = r.lineNo
			return j, nil
		}
		if !r.Lenient || r.Strict {
			r.err = perr
			break
		}
		r.note(perr.Err, perr)
	}
	if r.err == io.EOF {
		r.err = r.checkEnd()
	}
	if r.err == io.EOF && r.EmptyIsError && r.jobLine == 0 && len(r.header.Lines) == 0 && len(r.comments) == 0 &&
		len(r.anomalyList()) == 0 {
		r.err = emptyError(r.Name)
	}
	if r.err == io.EOF && len(r.comments) > 0 {
		// The comment lines after the last job are the trailer a Writer
		// wrote (AppendHeader): they join the header.
		for _, c := range r.comments {
			r.header.Lines = append(r.header.Lines, c.l)
		}
		r.comments = nil
	}
	return model.Job{}, r.err
}

// checkEnd checks, at the end of the input, the closing KeyEnd line
// (Writer.MarkEnd): it must be the last line but blank ones if the first
// line promised it, and give the number of job lines read. It removes it
// from the comments after the jobs (it is no header line) and returns
// io.EOF, or an error wrapping ErrTruncated. A file without the promise,
// the archive's or another tool's, is read as it is.
func (r *Reader) checkEnd() error {
	if r.endChecked {
		return io.EOF
	}
	r.endChecked = true
	closing := -1
	for i, c := range r.comments {
		if c.l.Key == KeyEnd {
			closing = i
		}
	}
	if closing < 0 {
		if r.endExpected {
			return &ParseError{Name: r.Name, Line: r.lineNo, Err: &detailError{ErrTruncated,
				" (after " + strconv.Itoa(r.jobLines) + " job lines: no closing \"; " + KeyEnd + ": N jobs\" line, which its first line promises)"}}
		}
		return io.EOF
	}
	c := r.comments[closing]
	if closing != len(r.comments)-1 {
		return &ParseError{Name: r.Name, Line: r.comments[closing+1].line, Err: fmt.Errorf("a line after the closing %q line (files joined, or a file cut and continued)", "; "+KeyEnd+": "+c.l.Value)}
	}
	r.comments = r.comments[:closing]
	n, ok := strings.CutSuffix(c.l.Value, " jobs")
	if jobs, err := strconv.Atoi(n); !ok || err != nil || jobs != r.jobLines {
		return &ParseError{Name: r.Name, Line: c.line, Err: &detailError{ErrTruncated,
			": the closing line says \"" + c.l.Value + "\", " + strconv.Itoa(r.jobLines) + " job lines read (cut short, or edited)"}}
	}
	return io.EOF
}

// Position returns the file name (as in errors) and the 1-based line of
// the job last returned by Read.
func (r *Reader) Position() (name string, line int) { return r.Name, r.jobLine }

// start opens the input (detecting gzip) and reads the header, once.
func (r *Reader) start() {
	if r.started {
		return
	}
	r.started = true
	r.checker.name, r.checker.strict, r.checker.lenient, r.checker.needed = r.Name, r.Strict, r.Lenient, r.Needed
	r.readHeader()
	if r.err == io.EOF {
		r.err = r.checkEnd()
	}
	if r.err == io.EOF && r.EmptyIsError && len(r.header.Lines) == 0 && len(r.anomalyList()) == 0 {
		r.err = emptyError(r.Name) // known before the header is used
	}
	if r.err != nil && r.err != io.EOF {
		r.hdrErr = r.err
	}
}

// readHeader opens the input and reads the header lines, stopping at the
// first job line (left pending) or the first error (left in r.err).
func (r *Reader) readHeader() {
	compressed := &countingReader{r: r.src}
	r.br = bufio.NewReaderSize(compressed, bufferBytes)
	if magic, _ := r.br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(r.br)
		if err != nil {
			r.err = r.ioError(&DecompressError{Err: err})
			return
		}
		r.br = bufio.NewReaderSize(&inflateGuard{zr: zr, in: compressed}, bufferBytes)
	}
	if bom, _ := r.br.Peek(3); string(bom) == "\xef\xbb\xbf" {
		r.br.Discard(3) // a UTF-8 byte order mark
	}
	for r.next() {
		text := trimLeftSpace(r.line)
		switch {
		case len(text) == 0:
			// Blank lines neither end the header nor belong to it.
		case text[0] == ';':
			if r.lineNo == 1 && r.unterminated && len(text) < len(promiseLine) && promiseLine[:len(text)] == string(text) {
				// A file of MarkEnd cut inside its first line.
				r.err = &ParseError{Name: r.Name, Line: 1, Err: &detailError{ErrTruncated, " (inside its first line)"}}
				return
			}
			l := parseComment(text[1:])
			switch {
			case l.Key == KeyEnd && l.Value == endPromise && r.lineNo == 1:
				r.endExpected = true
				continue
			case l.Key == KeyEnd || len(r.comments) > 0:
				// The closing line of a file without jobs, and what
				// follows it, are checked at the end.
				r.comments = append(r.comments, trailing{l, r.lineNo})
				continue
			}
			err := model.CheckHeaderLine(l)
			if err == nil && l.Key == "" {
				err = unreadKey(l.Value)
			}
			if err != nil {
				perr := &ParseError{Name: r.Name, Line: r.lineNo, Err: headerError(err)}
				if r.Strict {
					r.err = perr
					return
				}
				// Kept, its value read as unknown, and counted.
				key := l.Key
				if key == "" {
					key = leadingWord(l.Value)
				}
				r.checker.noteHeader(key, r.lineNo, perr)
			}
			r.header.Lines = append(r.header.Lines, l)
		default:
			r.pending = true
			return
		}
	}
}

// next reads the next line into r.line. It returns false at the end of the
// input or on an error, which it leaves in r.err (io.EOF at the end). An
// over-long line is a *ParseError in strict mode and is skipped and counted
// in lenient mode.
func (r *Reader) next() bool {
	for r.err == nil {
		line, err := r.br.ReadSlice('\n')
		tooLong := false
		if err == bufio.ErrBufferFull {
			r.long = append(r.long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = r.br.ReadSlice('\n')
				if len(r.long)+len(line) > MaxLineBytes+2 {
					tooLong = true
				} else if !tooLong {
					r.long = append(r.long, line...)
				}
			}
			line = r.long
		}
		if err != nil && err != io.EOF {
			var de *DecompressError
			if errors.As(err, &de) {
				de.Lines = r.lineNo // complete lines read before it
			}
			r.err = r.ioError(err)
			return false
		}
		if len(line) == 0 && !tooLong { // err == io.EOF
			r.err = io.EOF
			return false
		}
		r.lineNo++
		r.at = r.lineNo
		r.unterminated = true
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			r.unterminated = false
		}
		if tooLong || len(line) > MaxLineBytes {
			perr := &ParseError{Name: r.Name, Line: r.lineNo, Err: &detailError{ErrLineTooLong,
				": more than " + strconv.Itoa(MaxLineBytes) + " bytes"}}
			if !r.Lenient {
				r.err = perr
				return false
			}
			r.note(ErrLineTooLong, perr)
			continue
		}
		r.line = line
		return true
	}
	return false
}

func (r *Reader) ioError(err error) error {
	name := r.Name
	if name == "" {
		name = "SWF input"
	}
	var de *DecompressError
	if errors.Is(err, io.ErrUnexpectedEOF) && !errors.As(err, &de) {
		// A stream cut short (a gzip stream without its trailer is a
		// DecompressError, which says so and matches ErrTruncated).
		return fmt.Errorf("reading %s: %w (the gzip stream is cut short)", name, ErrTruncated)
	}
	return fmt.Errorf("reading %s: %w", name, err)
}

// timeFields are the SWF fields that hold seconds.
const timeFields = model.FieldSet(1<<model.FieldSubmit | 1<<model.FieldWait | 1<<model.FieldRuntime |
	1<<model.FieldAvgCPU | 1<<model.FieldEstimate | 1<<model.FieldThinkTime)

// NeededFields are the fields a replay may use: submit time, run time, the
// processors (allocated and requested) and the estimate. Outside strict
// mode, a value outside SWF 2.2 in any other field does not stop the
// Reader: the job is kept, the value kept as read when the field can hold
// it and marked unknown otherwise, and counted in Anomalies. Nor does one
// in a needed field that leaves the job a usable value: the processors
// when the other processors field gives the size (a positive field 5, or
// field 8), a negative time (kept as read and counted: cleaning drops a
// negative submit or run time). Reader.Needed and Checker.Needed narrow
// the set to what a replay's policy reads.
const NeededFields = model.FieldSet(1<<model.FieldSubmit | 1<<model.FieldRuntime | 1<<model.FieldAllocProcs |
	1<<model.FieldReqProcs | 1<<model.FieldEstimate)

// fieldMax is the largest value SWF 2.2 allows in a count or ID field:
// processors fit in 32 bits, as every gangsim table holds them.
func fieldMax(f model.Field) int64 {
	switch f {
	case model.FieldStatus:
		return int64(model.StatusCancelled)
	case model.FieldAllocProcs, model.FieldReqProcs:
		return math.MaxInt32
	case model.FieldJobID, model.FieldUsedMem, model.FieldReqMem, model.FieldPreceding:
		return math.MaxInt64
	}
	return math.MaxInt // fields of Go type int
}

// holds reports whether field f's Go type holds v.
func holds(f model.Field, v int64) bool {
	switch f {
	case model.FieldStatus:
		return v >= math.MinInt8 && v <= math.MaxInt8
	case model.FieldJobID, model.FieldUsedMem, model.FieldReqMem, model.FieldPreceding:
		return true
	}
	return v >= math.MinInt && v <= math.MaxInt
}

// parseJob parses a job line (leading blanks already removed). It
// allocates only on error.
func (r *Reader) parseJob(line []byte) (model.Job, *ParseError) {
	// One pass splits the line and, for the common token of plain digits,
	// also computes its value; other tokens are parsed in a second step.
	var toks [model.NumFields][]byte
	var digits [model.NumFields]int64 // value of a plain-digit token
	var plain uint32                  // bit i: toks[i] is 1 to 12 plain digits
	n := 0
	for i := 0; ; {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		s := i
		var v int64
		for i < len(line) {
			d := line[i] - '0'
			if d > 9 {
				break
			}
			v = v*10 + int64(d)
			i++
		}
		isPlain := i-s <= 12
		for i < len(line) && (line[i] > ' ' || !isSpace(line[i])) {
			isPlain = false
			i++
		}
		if n < model.NumFields {
			toks[n] = line[s:i]
			if isPlain {
				digits[n] = v
				plain |= 1 << n
			}
		}
		n++
	}
	if n != model.NumFields {
		return model.Job{}, &ParseError{Name: r.Name, Line: r.lineNo, Err: &detailError{ErrFieldCount,
			": " + strconv.Itoa(n) + ", want " + strconv.Itoa(model.NumFields)}}
	}
	var vals [model.NumFields]int64
	var known model.FieldSet
	var odd oddValues // values outside SWF 2.2, judged once the line is read (settle)
	for i, tok := range toks {
		f := model.Field(i + 1)
		isTime := timeFields.Has(f)
		if plain&(1<<i) != 0 {
			v := digits[i]
			if isTime {
				if v > maxWholeSeconds {
					// Beyond the range of every time read: marked
					// unknown, as parseTime's numRange.
					odd.add(f, numRange, tok, false)
					continue
				}
				v *= int64(model.Second)
			} else if v > fieldMax(f) {
				odd.add(f, numRange, tok, holds(f, v))
				if !holds(f, v) {
					continue
				}
			}
			vals[i] = v
			known |= 1 << f
			continue
		}
		if isTime {
			t, missing, st := parseTime(tok)
			switch {
			case st != numOK:
				odd.add(f, st, tok, false) // marked unknown
			case missing:
			default:
				if t < 0 { // -1 is the only missing-value marker
					odd.add(f, numRange, tok, true)
				}
				vals[i] = int64(t)
				known |= 1 << f
			}
			continue
		}
		v, st := parseCount(tok, fieldMax(f))
		if st != numOK {
			// Kept as read if it is a number the field can hold (a
			// negative count, a status of 9), else marked unknown.
			lv, ok := looseCount(tok)
			ok = ok && st == numRange && holds(f, lv)
			odd.add(f, st, tok, ok)
			if ok {
				vals[i] = lv
				known |= 1 << f
			}
			continue
		}
		if v != -1 {
			vals[i] = v
			known |= 1 << f
		}
	}
	j := model.Job{
		ID:         vals[0],
		Submit:     model.Time(vals[1]),
		Wait:       model.Time(vals[2]),
		Runtime:    model.Time(vals[3]),
		AllocProcs: int(vals[4]),
		AvgCPU:     model.Time(vals[5]),
		UsedMemKB:  vals[6],
		ReqProcs:   int(vals[7]),
		Estimate:   model.Time(vals[8]),
		ReqMemKB:   vals[9],
		Status:     model.Status(vals[10]),
		User:       int(vals[11]),
		Group:      int(vals[12]),
		Executable: int(vals[13]),
		Queue:      int(vals[14]),
		Partition:  int(vals[15]),
		Preceding:  vals[16],
		ThinkTime:  model.Time(vals[17]),
		Known:      known,
	}
	if perr := r.settle(&j, &odd); perr != nil {
		return model.Job{}, perr
	}
	return j, nil
}

// looseCount parses an integral decimal of any sign and size that fits
// in an int64.
func looseCount(tok []byte) (int64, bool) {
	d, st := parseDecimal(tok)
	if st != numOK || d.fraction || d.overflow || d.whole > math.MaxInt64 {
		return 0, false
	}
	if d.neg {
		return -int64(d.whole), true
	}
	return int64(d.whole), true
}

// headerError turns a header line's error into a cause that matches
// ErrHeaderValue, and ErrNumber or ErrRange as before.
func headerError(err error) error {
	var he *model.HeaderValueError
	if errors.As(err, &he) && he.Range {
		return &causeError{[]error{ErrHeaderValue, ErrRange}, err}
	}
	if errors.As(err, &he) {
		return &causeError{[]error{ErrHeaderValue, ErrNumber}, err}
	}
	return &causeError{[]error{ErrHeaderValue}, err}
}

// causeError is an error of another package under some of the sentinels.
type causeError struct {
	causes []error
	err    error
}

func (e *causeError) Error() string   { return e.err.Error() }
func (e *causeError) Unwrap() []error { return append(append([]error(nil), e.causes...), e.err) }

// parseComment parses the text after a ";" into a header line: "Key:
// value" when the text, after one optional blank (space or tab), starts
// with a word of letters, digits and underscores followed by ':' (blanks
// allowed before it) and a blank or the end of the line (";\tMaxProcs:\t64",
// "; MaxProcs : 64"); an SWF 2.2 key (model.SWFHeaderKeys) is read after
// any blanks. Otherwise the line is free-form, kept as it is but for one
// leading space: an indented "Word: text" is a note's continuation.
func parseComment(text []byte) model.HeaderLine {
	text = trimRightSpace(text)
	t := text
	if len(t) > 0 && (t[0] == ' ' || t[0] == '\t') {
		t = t[1:]
	}
	deep := trimLeftSpace(t)
	if l, ok := keyLine(t); ok {
		return l
	}
	if l, ok := keyLine(deep); ok && slices.Contains(model.SWFHeaderKeys, l.Key) {
		return l
	}
	if len(text) > 0 && text[0] == ' ' {
		text = text[1:]
	}
	return model.HeaderLine{Value: string(text)}
}

// keyLine reads t as "Key: value" (blanks allowed before the colon, one
// needed after it unless the line ends there).
func keyLine(t []byte) (model.HeaderLine, bool) {
	i := 0
	for i < len(t) && isKeyByte(t[i]) {
		i++
	}
	j := i
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	if i > 0 && j < len(t) && t[j] == ':' && (j+1 == len(t) || isSpace(t[j+1])) {
		return model.HeaderLine{Key: string(t[:i]), Value: string(trimLeftSpace(t[j+1:]))}, true
	}
	return model.HeaderLine{}, false
}

// unreadKey returns an error for a free-form header line that starts with
// the name of an SWF 2.2 header field followed by something other than a
// colon (";MaxProcs=64", ";MaxProcs 64", ";MaxProcs:64"): such a line was
// meant as the field, and is not read as it; nil for any other line.
func unreadKey(text string) error {
	w := leadingWord(text)
	if w == "" || !slices.Contains(model.SWFHeaderKeys, w) {
		return nil
	}
	return fmt.Errorf("header line %q names %s but is not \"%s: value\": not read", text, w, w)
}

// leadingWord returns the word of key characters text starts with, after
// blanks.
func leadingWord(text string) string {
	t := strings.TrimLeft(text, " \t")
	i := 0
	for i < len(t) && isKeyByte(t[i]) {
		i++
	}
	return t[:i]
}

// validKey reports whether key reads back as a header key.
func validKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		if !isKeyByte(key[i]) {
			return false
		}
	}
	return true
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isSpace reports whether c separates fields: space, tab, CR, VT or FF.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func trimRightSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

var _ model.JobReader = (*Reader)(nil)
