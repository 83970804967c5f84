package swf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// ErrHeader: a header line cannot be written so that it reads back: its
// key is not a word of letters, digits and underscores, or a key or value
// holds a newline.
var ErrHeader = errors.New("header line cannot be written as SWF")

// errClosed is returned by Write after Close.
var errClosed = errors.New("swf: write after Close")

// Writer writes an SWF file: the header as ";" comment lines, then one line
// per job with the 18 fields separated by single spaces. It implements
// model.JobWriter. Its output is a pure function of the header and jobs.
//
// Times are written in seconds as the shortest exact decimal ("12",
// "0.5"), missing fields as -1. A known time of exactly -1 s is written as
// -1 and reads back as missing: SWF cannot tell them apart.
//
// SWF has no place for application attributes (model.App): the writer
// drops them and counts the jobs that had any in DroppedApps, so that a
// tool can warn.
type Writer struct {
	// MarkEnd makes a cut of the output detectable: its first line,
	// "; GangsimEnd: expected after the jobs", promises the closing line
	// "; GangsimEnd: N jobs" that Close writes last, without which a
	// Reader fails with ErrTruncated. Set it before the first Write.
	MarkEnd bool

	w           *bufio.Writer
	header      model.Header
	started     bool // header written
	closed      bool
	err         error // sticky
	buf         []byte
	jobs        int
	droppedApps int
	trailer     []model.HeaderLine
}

// AppendHeader adds header lines known only at the end (the digest of an
// input read as a stream, what cleaning dropped): Close writes them as ";"
// lines after the jobs, and a Reader adds them to its header when it
// reaches the end. Call it before Close.
func (w *Writer) AppendHeader(lines ...model.HeaderLine) {
	w.trailer = append(w.trailer, lines...)
}

// NewWriter returns a Writer to w with header h (nil for none). The header
// is copied, and written with the first Write or at Close.
func NewWriter(w io.Writer, h *model.Header) *Writer {
	wr := &Writer{w: bufio.NewWriterSize(w, bufferBytes)}
	if h != nil {
		wr.header = h.Clone()
	}
	return wr
}

// Write appends job j. It fails with an error wrapping ErrRange when a
// known field holds a value the Reader would reject (a negative count or
// ID, a status outside 0..5), and with ErrHeader when the header cannot be
// written. After an error, Write and Close return it again.
func (w *Writer) Write(j *model.Job) error {
	if w.closed {
		return errClosed
	}
	if !w.started {
		w.writeHeader()
	}
	if w.err != nil {
		return w.err
	}
	if err := checkJob(j); err != nil {
		return err // the file stays valid: nothing of j was written
	}
	b := w.buf[:0]
	k := j.Known
	b = appendCount(b, k, model.FieldJobID, j.ID)
	b = appendTime(b, k, model.FieldSubmit, j.Submit)
	b = appendTime(b, k, model.FieldWait, j.Wait)
	b = appendTime(b, k, model.FieldRuntime, j.Runtime)
	b = appendCount(b, k, model.FieldAllocProcs, int64(j.AllocProcs))
	b = appendTime(b, k, model.FieldAvgCPU, j.AvgCPU)
	b = appendCount(b, k, model.FieldUsedMem, j.UsedMemKB)
	b = appendCount(b, k, model.FieldReqProcs, int64(j.ReqProcs))
	b = appendTime(b, k, model.FieldEstimate, j.Estimate)
	b = appendCount(b, k, model.FieldReqMem, j.ReqMemKB)
	b = appendCount(b, k, model.FieldStatus, int64(j.Status))
	b = appendCount(b, k, model.FieldUser, int64(j.User))
	b = appendCount(b, k, model.FieldGroup, int64(j.Group))
	b = appendCount(b, k, model.FieldExecutable, int64(j.Executable))
	b = appendCount(b, k, model.FieldQueue, int64(j.Queue))
	b = appendCount(b, k, model.FieldPartition, int64(j.Partition))
	b = appendCount(b, k, model.FieldPreceding, j.Preceding)
	b = appendTime(b, k, model.FieldThinkTime, j.ThinkTime)
	b[len(b)-1] = '\n' // replaces the last separator
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("writing SWF: %w", err)
		return w.err
	}
	w.jobs++
	if !j.App.IsZero() {
		w.droppedApps++
	}
	return nil
}

// Close writes the header if no job was written, and flushes. It does not
// close the underlying io.Writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if !w.started {
		w.writeHeader()
	}
	if w.err == nil && len(w.trailer) > 0 {
		w.writeLines(w.trailer)
	}
	if w.err == nil && w.MarkEnd {
		w.writeLines([]model.HeaderLine{{Key: KeyEnd, Value: strconv.Itoa(w.jobs) + " jobs"}})
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("writing SWF: %w", err)
	}
	return w.err
}

// Jobs is the number of jobs written.
func (w *Writer) Jobs() int { return w.jobs }

// DroppedApps is the number of jobs written whose application attributes
// (model.App) were not all unspecified: SWF cannot hold them, so they were
// lost.
func (w *Writer) DroppedApps() int { return w.droppedApps }

// writeHeader writes "; Key: Value" for keyed lines, "; text" for free
// lines and ";" for empty ones.
func (w *Writer) writeHeader() {
	w.started = true
	if w.MarkEnd {
		w.writeLines([]model.HeaderLine{{Key: KeyEnd, Value: endPromise}})
	}
	w.writeLines(w.header.Lines)
}

// KeyEnd is the key of the lines that open and close an SWF file written
// with Writer.MarkEnd.
const KeyEnd = "GangsimEnd"

// endPromise is the value of the first KeyEnd line.
const endPromise = "expected after the jobs"

// promiseLine is the first line of a file written with MarkEnd.
const promiseLine = "; " + KeyEnd + ": " + endPromise

// writeLines writes header lines as ";" comment lines.
func (w *Writer) writeLines(lines []model.HeaderLine) {
	for i, l := range lines {
		if l.Key != "" && !validKey(l.Key) || strings.ContainsAny(l.Key+l.Value, "\n") {
			w.err = fmt.Errorf("header line %d %q: %w", i+1, l.Key+": "+l.Value, ErrHeader)
			return
		}
		b := append(w.buf[:0], ';')
		switch {
		case l.Key != "":
			b = append(b, ' ')
			b = append(b, l.Key...)
			b = append(b, ':')
			if l.Value != "" {
				b = append(b, ' ')
				b = append(b, l.Value...)
			}
		case l.Value != "":
			b = append(b, ' ')
			b = append(b, l.Value...)
		}
		b = append(b, '\n')
		w.buf = b
		if _, err := w.w.Write(b); err != nil {
			w.err = fmt.Errorf("writing SWF header: %w", err)
			return
		}
	}
}

// checkJob rejects known count and ID fields that the Reader would not
// read back: a needed field (NeededFields) outside SWF 2.2 (unless the
// other processors field gives the size), or -1 (the missing-value marker)
// in any field. Other values outside SWF 2.2 (a
// status of 9, a negative user) are written as they are, as the Reader
// keeps them outside strict mode.
func checkJob(j *model.Job) error {
	vals := [...]struct {
		f model.Field
		v int64
	}{
		{model.FieldJobID, j.ID}, {model.FieldAllocProcs, int64(j.AllocProcs)}, {model.FieldUsedMem, j.UsedMemKB},
		{model.FieldReqProcs, int64(j.ReqProcs)}, {model.FieldReqMem, j.ReqMemKB}, {model.FieldStatus, int64(j.Status)},
		{model.FieldUser, int64(j.User)}, {model.FieldGroup, int64(j.Group)}, {model.FieldExecutable, int64(j.Executable)},
		{model.FieldQueue, int64(j.Queue)}, {model.FieldPartition, int64(j.Partition)}, {model.FieldPreceding, j.Preceding},
	}
	for _, c := range vals {
		if !j.Has(c.f) {
			continue
		}
		if NeededFields.Has(c.f) && (c.v < 0 || c.v > fieldMax(c.f)) && !otherSize(j, c.f) {
			return fmt.Errorf("writing job %d: field %d (%s): %w: %d (want 0 to %d)",
				j.ID, c.f, c.f, ErrRange, c.v, fieldMax(c.f))
		}
		if c.v == -1 {
			return fmt.Errorf("writing job %d: field %d (%s): %w: -1, which SWF reads as missing", j.ID, c.f, c.f, ErrRange)
		}
	}
	return nil
}

// otherSize reports whether the processors field other than f gives job
// j its size, so that a Reader keeps an odd value in f (see NeededFields):
// a known field 8, or a positive field 5, within SWF 2.2.
func otherSize(j *model.Job, f model.Field) bool {
	switch f {
	case model.FieldAllocProcs:
		return j.Has(model.FieldReqProcs) && j.ReqProcs >= 0 && int64(j.ReqProcs) <= fieldMax(model.FieldReqProcs)
	case model.FieldReqProcs:
		return j.Has(model.FieldAllocProcs) && j.AllocProcs > 0 && int64(j.AllocProcs) <= fieldMax(model.FieldAllocProcs)
	}
	return false
}

func appendCount(b []byte, k model.FieldSet, f model.Field, v int64) []byte {
	if !k.Has(f) {
		return append(b, '-', '1', ' ')
	}
	return append(strconv.AppendInt(b, v, 10), ' ')
}

func appendTime(b []byte, k model.FieldSet, f model.Field, t model.Time) []byte {
	if !k.Has(f) {
		return append(b, '-', '1', ' ')
	}
	return append(t.AppendSeconds(b), ' ')
}

var _ model.JobWriter = (*Writer)(nil)
