package columnar

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

type tableWriter interface {
	writeBatch(b *batch) error
	// close writes the trailer (header lines known only at the end; none
	// if empty) and ends the table.
	close(trailer []model.HeaderLine) error
}

type tableSource interface {
	header() model.Header
	// headerWhere says where line i of the header is: its line in the
	// file (CSV), or its place in the metadata (Parquet, Arrow).
	headerWhere(i int) (line int, where string)
	readBatch() (*batch, error) // io.EOF at the end
	// trailer returns the header lines that followed the rows; complete
	// once readBatch has returned io.EOF.
	trailer() []model.HeaderLine
	close() error
}

// ErrNotTabular: the format is SWF, which holds traces in the swf package's
// encoding, not this package's tables.
var ErrNotTabular = errors.New("not a Parquet, Arrow or CSV format")

// writerBatchRows is how many rows a writer collects before handing them to
// the encoding (one Arrow record batch; Parquet row groups are larger).
const writerBatchRows = arrowBatchRows

func newTableWriter(w io.Writer, f Format, k *kind, h *model.Header) (tableWriter, error) {
	switch f {
	case FormatArrow:
		return newArrowTable(w, k, h), nil
	case FormatCSV:
		return newCSVTable(w, k, h)
	case FormatParquet:
		return newParquetTable(w, k, h), nil
	}
	return nil, fmt.Errorf("writing a %s table as %v: %w", k.name, f, ErrNotTabular)
}

// newTableSource opens a table of kind k. Parquet needs random access: r
// must then be an io.ReaderAt and an io.Seeker (a file, a bytes.Reader).
func newTableSource(r io.Reader, f Format, k *kind, name string) (tableSource, error) {
	switch f {
	case FormatArrow:
		return newArrowSource(r, k)
	case FormatCSV:
		return newCSVSource(r, k, name)
	case FormatParquet:
		ra, ok := r.(io.ReaderAt)
		sk, ok2 := r.(io.Seeker)
		if !ok || !ok2 {
			return nil, errors.New("reading Parquet needs a seekable input (a file), not a stream")
		}
		size, err := sk.Seek(0, io.SeekEnd)
		if err != nil {
			return nil, err
		}
		return newParquetSource(ra, size, k)
	}
	return nil, fmt.Errorf("reading a %s table as %v: %w", k.name, f, ErrNotTabular)
}

// writer is what the three public writers share: rows collect in a batch
// that is flushed to the encoding when full.
type writer struct {
	t       tableWriter
	b       *batch
	err     error
	trailer []model.HeaderLine
}

// AppendHeader adds lines to the table's header that are known only once
// the rows are written: the digest of an input read as a stream, what
// cleaning dropped. Call it before Close. In Parquet they join the footer's
// key-value metadata like the other header lines; in CSV they are "# Key:
// value" lines after the rows; in an Arrow stream they are the custom
// metadata (key "gangsim.trailer", a JSON array of [key, value] pairs) of a
// last record batch of no rows. Readers add them to the header once the
// last row is read.
func (w *writer) AppendHeader(lines ...model.HeaderLine) {
	w.trailer = append(w.trailer, lines...)
}

func (w *writer) flushIfFull() error {
	if w.b.n < writerBatchRows {
		return nil
	}
	return w.flush()
}

func (w *writer) flush() error {
	if w.b.n == 0 {
		return nil
	}
	err := w.t.writeBatch(w.b)
	w.b.reset()
	return err
}

func (w *writer) close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.flush(); err != nil {
		return err
	}
	return w.t.close(w.trailer)
}

// TraceWriter writes a trace table (one row per job; see the package
// documentation for the columns). It implements model.JobWriter.
type TraceWriter struct{ writer }

// NewTraceWriter starts a trace table in format f (Parquet, Arrow or CSV)
// with header h as its metadata.
func NewTraceWriter(w io.Writer, f Format, h *model.Header) (*TraceWriter, error) {
	t, err := newTableWriter(w, f, traceKind, h)
	if err != nil {
		return nil, err
	}
	return &TraceWriter{writer{t: t, b: newBatch(traceKind, writerBatchRows)}}, nil
}

// Write appends one job.
func (w *TraceWriter) Write(j *model.Job) error {
	if w.err != nil {
		return w.err
	}
	if err := traceTable.appendRow(w.b, j); err != nil {
		w.err = fmt.Errorf("job %d: %w", j.ID, err)
		return w.err
	}
	if err := w.flushIfFull(); err != nil {
		w.err = err
	}
	return w.err
}

// Close writes the remaining rows and the footer; it does not close the
// underlying writer.
func (w *TraceWriter) Close() error { return w.close() }

// OutcomeWriter writes a per-job outcomes table. It implements
// model.OutcomeWriter.
type OutcomeWriter struct {
	writer
	tau          model.Time // of the bounded slowdowns: 10 s of real time
	bsld, tsBsld int        // their columns
}

// NewOutcomeWriter starts an outcomes table in format f with header h (the
// run's manifest) as its metadata. The bounded slowdown columns take
// their tau, 10 s of real time, from the compression factor h's manifests
// record (model.CompressionOf; 10 s when none does).
func NewOutcomeWriter(w io.Writer, f Format, h *model.Header) (*OutcomeWriter, error) {
	factor, err := model.CompressionOf(h)
	if err != nil {
		return nil, err
	}
	t, err := newTableWriter(w, f, outcomeKind, h)
	if err != nil {
		return nil, err
	}
	return &OutcomeWriter{writer: writer{t: t, b: newBatch(outcomeKind, writerBatchRows)},
		tau: model.RealTimeTau(factor), bsld: outcomeKind.index[colBsld], tsBsld: outcomeKind.index[colTSBsld]}, nil
}

// Tau is the tau of the table's bounded slowdown columns.
func (w *OutcomeWriter) Tau() model.Time { return w.tau }

// Write appends one outcome.
func (w *OutcomeWriter) Write(o *model.Outcome) error {
	if w.err != nil {
		return w.err
	}
	if err := outcomeTable.appendRow(w.b, o); err != nil {
		w.err = fmt.Errorf("job %d: %w", o.JobID, err)
		return w.err
	}
	if o.Completed() { // the derived bounded slowdowns, at the table's tau
		i := w.b.n - 1
		w.b.cols[w.bsld].flts[i] = o.BoundedSlowdown(w.tau)
		w.b.cols[w.tsBsld].flts[i] = o.TimeSharingBoundedSlowdown(w.tau)
	}
	if err := w.flushIfFull(); err != nil {
		w.err = err
	}
	return w.err
}

// Close writes the remaining rows and the footer.
func (w *OutcomeWriter) Close() error { return w.close() }

// SampleWriter writes a time-series table. It implements model.SampleWriter.
type SampleWriter struct{ writer }

// NewSampleWriter starts a time-series table in format f with header h.
func NewSampleWriter(w io.Writer, f Format, h *model.Header) (*SampleWriter, error) {
	t, err := newTableWriter(w, f, sampleKind, h)
	if err != nil {
		return nil, err
	}
	return &SampleWriter{writer{t: t, b: newBatch(sampleKind, writerBatchRows)}}, nil
}

// WriteSample appends one sample.
func (w *SampleWriter) WriteSample(s *model.Sample) error {
	if w.err != nil {
		return w.err
	}
	if err := sampleTable.appendRow(w.b, s); err != nil {
		w.err = fmt.Errorf("sample at %v: %w", s.At, err)
		return w.err
	}
	if err := w.flushIfFull(); err != nil {
		w.err = err
	}
	return w.err
}

// Close writes the remaining rows and the footer.
func (w *SampleWriter) Close() error { return w.close() }

// reader is what the public readers share: they walk the batches of a
// source.
type reader struct {
	src  tableSource
	h    model.Header
	b    *batch
	i    int
	row  int64 // rows returned so far
	name string
	err  error
	// problems are the header lines whose values are not usable.
	problems []model.HeaderProblem
}

func newReader(r io.Reader, f Format, k *kind, name string) (reader, error) {
	if name == "" {
		name = "<stdin>"
	}
	src, err := newTableSource(r, f, k, name)
	if err != nil {
		return reader{}, named(name, err)
	}
	rd := reader{src: src, h: src.header(), name: name}
	for i, l := range rd.h.Lines {
		if err := model.CheckHeaderLine(l); err != nil {
			line, where := src.headerWhere(i)
			if line > 0 {
				err = &ParseError{Name: name, Line: line, Err: err}
			} else {
				err = fmt.Errorf("%s: %s: %w", name, where, err)
			}
			rd.problems = append(rd.problems, model.HeaderProblem{Line: l, Err: err})
		}
	}
	return rd, nil
}

// HeaderProblems returns the header lines whose values the table's
// header cannot use (model.CheckHeaderLine: "MaxProcs: N/A", "1e30"),
// each with its error naming the file and the CSV line or the metadata
// key. The lines stay in the header, their values read as absent by its
// accessors; swf.Checker counts them, or refuses them in strict mode.
func (r *reader) HeaderProblems() []model.HeaderProblem { return r.problems }

// next positions the reader on the next row, reading a batch if needed.
func (r *reader) next() error {
	if r.err != nil {
		return r.err
	}
	for r.b == nil || r.i >= r.b.n {
		b, err := r.src.readBatch()
		if err != nil {
			if errors.Is(err, io.EOF) {
				r.h.Lines = append(r.h.Lines, r.src.trailer()...)
			} else {
				err = named(r.name, err)
			}
			r.err = err
			return err
		}
		r.b, r.i = b, 0
	}
	r.row++
	r.i++
	return nil
}

// RowsHint returns how many rows the table says it holds, for a caller
// that reads them all into one slice, when its format says it (Parquet's
// footer); otherwise 0. A hint only: reading can still fail before that.
func (r *reader) RowsHint() int {
	if c, ok := r.src.(interface{ rows() int64 }); ok {
		return int(min(c.rows(), maxRowsHint))
	}
	return 0
}

// maxRowsHint bounds RowsHint, so that a crafted footer cannot make a
// caller allocate more than the rows it can really read.
const maxRowsHint = 1 << 16

// named prefixes err with the file name unless it is a *ParseError, which
// names the file itself.
func named(name string, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// rowErr reports a conversion error of the current row.
func (r *reader) rowErr(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		r.err = err
	} else {
		r.err = fmt.Errorf("%s: %w", r.Where(), err)
	}
	return r.err
}

// TraceReader reads a trace table. It implements model.JobReader.
//
// A value of an SWF column it cannot read as the column's type (a word in
// a CSV's status, 2.5 in alloc_procs, a number beyond the column's type,
// a NaN of seconds) does not stop it: the job comes with the field unknown
// and the value's text in UnreadValues, for swf.Checker to judge as an SWF
// value; package fileio reads every trace table through one. Position
// says where the job came from: its CSV line, or its row.
type TraceReader struct {
	reader
	job    model.Job
	unread []model.UnreadValue
}

// NewTraceReader opens a trace table in format f; name is used in errors.
// Parquet input must be seekable (a file or a bytes.Reader).
func NewTraceReader(r io.Reader, f Format, name string) (*TraceReader, error) {
	rd, err := newReader(r, f, traceKind, name)
	if err != nil {
		return nil, err
	}
	return &TraceReader{reader: rd}, nil
}

// Header returns the trace header. Lines of the table's trailer (see
// AppendHeader) are added to it when Read returns io.EOF.
func (r *TraceReader) Header() *model.Header { return &r.h }

// Read returns the next job, or io.EOF.
func (r *TraceReader) Read() (model.Job, error) {
	if err := r.next(); err != nil {
		return model.Job{}, err
	}
	r.unread = r.unread[:0]
	for _, u := range r.b.unread {
		if u.row == r.i-1 {
			r.unread = append(r.unread, u.v)
		}
	}
	if err := traceTable.rowAt(r.b, r.i-1, &r.job, &r.unread); err != nil {
		return model.Job{}, r.rowErr(err)
	}
	return r.job, nil
}

// UnreadValues returns the text of the SWF fields of the job Read returned
// last that could not be read as their column's type (see
// model.UnreadValue); those fields are unknown in the job.
func (r *TraceReader) UnreadValues() []model.UnreadValue { return r.unread }

// Position returns the name (as in errors) and where the row Read returned
// last came from: its 1-based line in a CSV file, its 1-based row in a
// Parquet file or Arrow stream (RowPositions); 0 before the first.
func (r *reader) Position() (name string, line int) {
	if r.b == nil || r.i == 0 {
		return r.name, 0
	}
	if r.i-1 < len(r.b.lines) {
		return r.name, r.b.lines[r.i-1]
	}
	return r.name, int(r.row)
}

// RowPositions reports whether Position gives rows (Parquet, Arrow)
// rather than lines (CSV).
func (r *reader) RowPositions() bool {
	_, isCSV := r.src.(*csvSource)
	return !isCSV
}

// Where formats the position of the row Read returned last as errors
// give it: "name:12" for a CSV line, "name: row 12" for a row.
func (r *reader) Where() string {
	name, at := r.Position()
	if r.RowPositions() {
		return name + ": row " + strconv.Itoa(at)
	}
	return name + ":" + strconv.Itoa(at)
}

// RowError is a row whose values do not convert to the table's types (a
// NaN or infinite time, a time beyond any simulation, an unknown reason),
// positioned by Where. The reader stays usable: the next Read goes on with
// the next row, so that a caller may skip such rows and count them.
type RowError struct {
	Where  string // "name:12" or "name: row 12"
	Column string // the column whose value does not convert
	Err    error
}

func (e *RowError) Error() string { return e.Where + ": column " + e.Column + ": " + e.Err.Error() }
func (e *RowError) Unwrap() error { return e.Err }

// Close releases the reader; it does not close the underlying reader.
func (r *TraceReader) Close() error { return r.src.close() }

// OutcomeReader reads a per-job outcomes table.
type OutcomeReader struct {
	reader
	o model.Outcome
}

// NewOutcomeReader opens an outcomes table in format f.
func NewOutcomeReader(r io.Reader, f Format, name string) (*OutcomeReader, error) {
	rd, err := newReader(r, f, outcomeKind, name)
	if err != nil {
		return nil, err
	}
	return &OutcomeReader{reader: rd}, nil
}

// Header returns the table's metadata: the run's manifest and the input
// trace's header; the trailer's lines are added when Read returns io.EOF.
func (r *OutcomeReader) Header() *model.Header { return &r.h }

// Read returns the next outcome, or io.EOF. A row whose values do not
// convert is a *RowError, after which Read goes on with the next row.
func (r *OutcomeReader) Read() (model.Outcome, error) {
	if err := r.next(); err != nil {
		return model.Outcome{}, err
	}
	if err := outcomeTable.rowAt(r.b, r.i-1, &r.o, nil); err != nil {
		var ce *columnError
		if errors.As(err, &ce) {
			return model.Outcome{}, &RowError{Where: r.Where(), Column: ce.column, Err: ce.err}
		}
		return model.Outcome{}, r.rowErr(err)
	}
	return r.o, nil
}

// Close releases the reader.
func (r *OutcomeReader) Close() error { return r.src.close() }

// SampleReader reads a time-series table.
type SampleReader struct {
	reader
	s model.Sample
}

// NewSampleReader opens a time-series table in format f.
func NewSampleReader(r io.Reader, f Format, name string) (*SampleReader, error) {
	rd, err := newReader(r, f, sampleKind, name)
	if err != nil {
		return nil, err
	}
	return &SampleReader{reader: rd}, nil
}

// Header returns the table's metadata.
func (r *SampleReader) Header() *model.Header { return &r.h }

// Read returns the next sample, or io.EOF.
func (r *SampleReader) Read() (model.Sample, error) {
	if err := r.next(); err != nil {
		return model.Sample{}, err
	}
	if err := sampleTable.rowAt(r.b, r.i-1, &r.s, nil); err != nil {
		return model.Sample{}, r.rowErr(err)
	}
	return r.s, nil
}

// Close releases the reader.
func (r *SampleReader) Close() error { return r.src.close() }

// SchemaError is a file whose columns do not make a table of the kind
// read: required columns are missing, or columns have a type that does
// not convert to the documented one.
type SchemaError struct {
	Table    string   // the kind read: "trace", "outcomes" or "timeseries"
	Missing  []string // required columns absent ("a or b" for alternatives)
	Mistyped []string // "name (its type, want the documented type)"
}

func (e *SchemaError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, "missing "+plural(len(e.Missing), "column")+" "+strings.Join(e.Missing, ", "))
	}
	if len(e.Mistyped) > 0 {
		parts = append(parts, "mistyped "+plural(len(e.Mistyped), "column")+" "+strings.Join(e.Mistyped, ", "))
	}
	return fmt.Sprintf("not %s: %s", aTable(e.Table), strings.Join(parts, "; "))
}

func plural(n int, what string) string {
	if n == 1 {
		return what
	}
	return what + "s"
}

// matchColumns finds kind k's columns among a file's n columns by name
// (the first of a repeated name): idx[c] is the file's column for k's
// column c, or -1. check(i, t) describes file column i's type and says
// whether it reads as t. A required column missing, or a column of a type
// that does not read as its kind's, is a *SchemaError naming every one.
func matchColumns(k *kind, n int, name func(i int) string, check func(i int, t colType) (string, bool)) ([]int, error) {
	pos := make(map[string]int, n)
	for i := 0; i < n; i++ {
		if _, dup := pos[name(i)]; !dup {
			pos[name(i)] = i
		}
	}
	idx := make([]int, len(k.cols))
	var e SchemaError
	for c, spec := range k.cols {
		idx[c] = -1
		i, ok := pos[spec.name]
		if !ok {
			continue
		}
		if typ, ok := check(i, spec.typ); !ok {
			e.Mistyped = append(e.Mistyped, fmt.Sprintf("%s (%s, want %s)", spec.name, typ, spec.typ))
			continue
		}
		idx[c] = i
	}
	for _, alts := range k.required {
		found := false
		for _, a := range alts {
			_, ok := pos[a]
			found = found || ok
		}
		if !found {
			e.Missing = append(e.Missing, strings.Join(alts, " or "))
		}
	}
	if len(e.Missing) > 0 || len(e.Mistyped) > 0 {
		e.Table = k.name
		return nil, &e
	}
	return idx, nil
}
