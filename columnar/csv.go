package columnar

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// ParseError is a malformed CSV row: the file, the line and the column.
type ParseError struct {
	Name   string // file name, "<stdin>" for standard input
	Line   int    // 1-based line
	Column string // column name, "" for the whole line
	Err    error
}

func (e *ParseError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: column %s: %v", e.Name, e.Line, e.Column, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// csvTable writes batches as CSV: "# Key: value" metadata lines (free-form
// header lines as "# text"), the column names, then one line per row; an
// empty cell is a null, list cells join their values with ";".
type csvTable struct {
	w    *CSVWriter
	rec  []string
	buf  []byte
	rows int
}

// endPromise is the value of the KeyEnd line at the start of a CSV table,
// which promises the closing KeyEnd line ("N rows") after the rows.
const endPromise = "expected after the rows"

func newCSVTable(out io.Writer, k *kind, h *model.Header) (*csvTable, error) {
	w := NewCSVWriter(out)
	w.Comment(model.HeaderLine{Key: KeySchema, Value: k.schema})
	w.Comment(model.HeaderLine{Key: KeyEnd, Value: endPromise})
	w.Comments(h.Lines)
	if err := w.Flush(); err != nil {
		return nil, err
	}
	t := &csvTable{w: w, rec: make([]string, len(k.cols))}
	for i, c := range k.cols {
		t.rec[i] = c.name
	}
	return t, t.w.Record(t.rec)
}

func (t *csvTable) writeBatch(b *batch) error {
	for i := 0; i < b.n; i++ {
		for c, spec := range b.k.cols {
			d := &b.cols[c]
			if !d.valid[i] {
				t.rec[c] = ""
				continue
			}
			t.buf = t.buf[:0]
			switch spec.typ {
			case tInt64, tInt32:
				t.buf = strconv.AppendInt(t.buf, d.ints[i], 10)
			case tFloat64:
				t.buf = strconv.AppendFloat(t.buf, d.flts[i], 'f', -1, 64)
			case tString:
				t.rec[c] = d.strs[i]
				continue
			case tFloat64List:
				for k, v := range d.flists[i] {
					if k > 0 {
						t.buf = append(t.buf, ';')
					}
					t.buf = strconv.AppendFloat(t.buf, v, 'f', -1, 64)
				}
			case tInt32List:
				for k, v := range d.ilists[i] {
					if k > 0 {
						t.buf = append(t.buf, ';')
					}
					t.buf = strconv.AppendInt(t.buf, int64(v), 10)
				}
			}
			t.rec[c] = string(t.buf)
		}
		if err := t.w.Record(t.rec); err != nil {
			return err
		}
		t.rows++
	}
	return nil
}

// close writes the trailer, then the closing line that the start
// promised: "# gangsim.end: N rows", so that a reader tells a table cut
// short, even at a row boundary, from a whole one.
func (t *csvTable) close(trailer []model.HeaderLine) error {
	if err := t.w.Flush(); err != nil {
		return err
	}
	t.w.Comments(trailer)
	t.w.Comment(model.HeaderLine{Key: KeyEnd, Value: fmt.Sprintf("%d rows", t.rows)})
	return t.w.Flush()
}

// parseCSVComment parses the text of a "#" line.
func parseCSVComment(line string) model.HeaderLine {
	text := strings.TrimPrefix(strings.TrimPrefix(strings.TrimRight(line, "\r\n"), "#"), " ")
	if key, value, ok := headerKey(text); ok {
		return model.HeaderLine{Key: key, Value: value}
	}
	return model.HeaderLine{Value: text}
}

// csvSource reads batches from CSV.
type csvSource struct {
	k    *kind
	name string
	r    *csv.Reader
	h    model.Header
	// hLines are the file lines of h's lines.
	hLines []int
	cols   []int // cols[c] = position of kind column c in the file, or -1
	b      *batch
	// lineOffset turns the csv.Reader's line numbers (from the column-name
	// line) into file line numbers.
	lineOffset int
	comments   *commentFilter
	// endExpected: the start promised a closing KeyEnd line (gangsim
	// writes one); rows counts the rows read, which it must give.
	endExpected bool
	rows        int
}

func newCSVSource(in io.Reader, k *kind, name string) (*csvSource, error) {
	br := bufio.NewReader(in)
	if bom, _ := br.Peek(len(utf8BOM)); bytes.Equal(bom, utf8BOM) {
		br.Discard(len(utf8BOM)) // as a spreadsheet saves UTF-8 CSV
	}
	var h model.Header
	var lines []int // of h's lines in the file
	schema := ""
	endExpected := false
	line := 0
	var first string
	for {
		s, err := br.ReadString('\n')
		if err != nil && (err != io.EOF || s == "") {
			if err == io.EOF {
				return nil, &ParseError{Name: name, Line: line + 1, Err: errors.New("no column names")}
			}
			return nil, err
		}
		line++
		trimmed := strings.TrimRight(s, "\r\n")
		if !strings.HasPrefix(trimmed, "#") {
			first = s
			break
		}
		l := parseCSVComment(trimmed)
		if l.Key == KeySchema {
			schema = l.Value
			continue
		}
		if l.Key == KeyEnd {
			endExpected = true
			continue
		}
		h.Lines = append(h.Lines, l)
		lines = append(lines, line)
	}
	lookup := func(key string) (string, bool) {
		if key == KeySchema && schema != "" {
			return schema, true
		}
		return "", false
	}
	if _, _, err := headerFrom(k, lookup, nil); err != nil {
		return nil, err
	}
	comments := &commentFilter{r: bufio.NewReader(io.MultiReader(strings.NewReader(first), br)), start: true}
	r := csv.NewReader(comments)
	r.ReuseRecord = true
	names, err := r.Read()
	if err != nil {
		return nil, &ParseError{Name: name, Line: line, Err: err}
	}
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	idx, err := matchColumns(k, len(names), func(i int) string { return names[i] },
		func(int, colType) (string, bool) { return "", true })
	if err != nil {
		return nil, &ParseError{Name: name, Line: line, Err: err}
	}
	s := &csvSource{k: k, name: name, r: r, h: h, hLines: lines, cols: idx, b: newBatch(k, 4096), comments: comments, endExpected: endExpected}
	// The csv.Reader counts lines from the column-name line.
	s.r.FieldsPerRecord = len(names)
	s.lineOffset = line - 1
	return s, nil
}

// headerKey splits "Key: value" where Key is one word of letters, digits,
// underscores or dots followed by ':' and a blank or the end.
func headerKey(text string) (key, value string, ok bool) {
	i := strings.IndexByte(text, ':')
	if i <= 0 {
		return "", "", false
	}
	for _, r := range text[:i] {
		if !(r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", "", false
		}
	}
	rest := text[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return text[:i], strings.TrimSpace(rest), true
}

func (s *csvSource) header() model.Header { return s.h }

func (s *csvSource) headerWhere(i int) (int, string) { return s.hLines[i], "" }

func (s *csvSource) readBatch() (*batch, error) {
	b := s.b
	b.reset()
	for b.n < cap(b.cols[0].valid) {
		rec, err := s.r.Read()
		if err == io.EOF {
			if err := s.checkEnd(); err != nil {
				return nil, err
			}
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &ParseError{Name: s.name, Line: pe.Line + s.lineOffset, Err: pe.Err}
			}
			return nil, err
		}
		line, _ := s.r.FieldPos(0)
		line += s.lineOffset
		for c, spec := range s.k.cols {
			cell := ""
			if s.cols[c] >= 0 {
				cell = strings.TrimSpace(rec[s.cols[c]])
			}
			if err := parseCell(&b.cols[c], spec.typ, cell); err != nil {
				switch {
				case spec.swf != 0:
					// An SWF value the SWF rules judge (swf.Checker).
					b.cols[c].null(spec.typ)
					b.unread = append(b.unread, unreadCell{row: b.n, v: model.UnreadValue{Field: spec.swf, Text: cell}})
				case spec.app:
					// An application attribute swf.Checker refuses.
					b.cols[c].null(spec.typ)
					b.unread = append(b.unread, unreadCell{row: b.n, v: model.UnreadValue{Column: spec.name, Text: err.Error()}})
				default:
					// The row is an error when read (a *RowError of
					// OutcomeReader, which goes on past it).
					b.cols[c].null(spec.typ)
					b.bad = append(b.bad, badCell{row: b.n, column: spec.name, err: err})
				}
			}
		}
		b.lines = append(b.lines, line)
		b.n++
		s.rows++
	}
	if b.n == 0 {
		return nil, io.EOF
	}
	return b, nil
}

// parseCell appends a cell's value to a column of type t; an empty cell
// is a null.
func parseCell(d *colData, t colType, cell string) error {
	if cell == "" {
		d.null(t)
		return nil
	}
	switch t {
	case tInt64, tInt32:
		v, err := parseInt(cell, t)
		if err != nil {
			return err
		}
		d.int(v, true)
	case tFloat64:
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return fmt.Errorf("invalid number %q", cell)
		}
		d.flt(v, true)
	case tString:
		d.str(cell, true)
	case tFloat64List:
		parts := strings.Split(cell, ";")
		v := make([]float64, len(parts))
		for i, p := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return fmt.Errorf("invalid number %q in list", p)
			}
			v[i] = f
		}
		d.flist(v, true)
	case tInt32List:
		parts := strings.Split(cell, ";")
		v := make([]int32, len(parts))
		for i, p := range parts {
			n, err := parseInt(strings.TrimSpace(p), tInt32)
			if err != nil {
				return err
			}
			v[i] = int32(n)
		}
		d.ilist(v, true)
	}
	return nil
}

func parseInt(s string, t colType) (int64, error) {
	bits := 64
	if t == tInt32 {
		bits = 32
	}
	v, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s does not fit in %d bits", s, bits)
		}
		return 0, fmt.Errorf("invalid integer %q", s)
	}
	return v, nil
}

// checkEnd checks, at the end of the rows, the closing KeyEnd line: it
// must be there if the start promised it, the last line but blank ones,
// and give the number of rows read. A table cut short, at a row boundary
// or not, fails with ErrTruncated. A table without the promise (another
// tool's) is read as it is.
func (s *csvSource) checkEnd() error {
	f := s.comments
	switch {
	case f.end == nil && s.endExpected:
		return fmt.Errorf("CSV after row %d: %w (the closing \"# %s: N rows\" line its start promises)", s.rows, ErrTruncated, KeyEnd)
	case f.end == nil:
		return nil
	case f.afterEnd:
		return fmt.Errorf("CSV: lines after its closing %q line (tables joined, or a table cut and continued)", "# "+KeyEnd+": "+*f.end)
	}
	n, ok := strings.CutSuffix(*f.end, " rows")
	if rows, err := strconv.Atoi(n); !ok || err != nil || rows != s.rows {
		return fmt.Errorf("CSV: its closing line says %q, %d rows read: %w, or edited", *f.end, s.rows, ErrTruncated)
	}
	return nil
}

func (s *csvSource) trailer() []model.HeaderLine { return s.comments.lines }

func (s *csvSource) close() error { return nil }

// commentFilter passes CSV text through, except "#" lines outside quoted
// fields, which it keeps (the trailer) and replaces by empty lines, which
// encoding/csv skips while still counting them.
type commentFilter struct {
	r       *bufio.Reader
	pending []byte // rest of the current line, to hand out
	start   bool   // at the start of a line
	quoted  bool   // inside a quoted field
	lines   []model.HeaderLine
	// end is the value of the closing KeyEnd line once read; afterEnd
	// says that a row or comment came after it.
	end      *string
	afterEnd bool
}

func (f *commentFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			err = nil
		}
		if len(line) == 0 {
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		if f.start && !f.quoted && line[0] == '#' {
			full := string(line)
			for err == nil && full[len(full)-1] != '\n' {
				var more []byte
				more, err = f.r.ReadSlice('\n')
				if err == bufio.ErrBufferFull {
					err = nil
				}
				full += string(more)
				if len(more) == 0 {
					break
				}
			}
			l := parseCSVComment(full)
			switch {
			case f.end != nil:
				f.afterEnd = true
			case l.Key == KeyEnd:
				f.end = &l.Value
			default:
				f.lines = append(f.lines, l)
			}
			f.pending = []byte("\n")
			f.start = true
			continue
		}
		if f.end != nil && len(bytes.TrimSpace(line)) > 0 {
			f.afterEnd = true
		}
		f.quoted = f.quoted != (bytes.Count(line, []byte{'"'})%2 == 1)
		f.start = line[len(line)-1] == '\n'
		f.pending = line
		if err != nil && err != io.EOF {
			return 0, err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}
