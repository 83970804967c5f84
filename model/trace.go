package model

import (
	"errors"
	"io"
)

// JobReader yields the jobs of a trace one at a time, in file order, so a
// trace of any length streams in constant memory.
type JobReader interface {
	// Header returns the trace header. It is complete before the first
	// Read, since every format gangsim reads puts its metadata first.
	Header() *Header

	// Read returns the next job, or io.EOF after the last one. The
	// returned job owns its memory.
	Read() (Job, error)
}

// HeaderErr returns the error r met while reading its header, which its
// next Read would return, or nil. A reader that reads its header ahead and
// defers the error to Read (swf.Reader: a bad MaxProcs, a corrupt gzip
// header) reports it through a method HeaderErr() error; a caller that
// uses the header before reading a job (the machine size comes from it)
// checks this first, so that the real error, with its line, comes out
// rather than a consequence of the incomplete header.
func HeaderErr(r JobReader) error {
	if h, ok := r.(interface{ HeaderErr() error }); ok {
		return h.HeaderErr()
	}
	return nil
}

// UnreadValue is the text of a job's SWF field that a table reader could
// not read as its column's type ("hello" in status, "2.5" or 99999999999
// in alloc_procs, NaN seconds): the reader returns the job with the field
// unknown and reports the text through a method UnreadValues()
// []UnreadValue (for the job Read returned last), so that package swf's
// Checker judges it as it judges an SWF token: a value to count, or one
// that stops the job.
//
// An application attribute's value that a reader could not read (a NaN
// granularity, a word in message_bytes) is reported alike, with Field 0
// and its Column, for the Checker to refuse.
type UnreadValue struct {
	Field  Field
	Column string // the column of an application attribute (Field 0)
	Text   string
}

// JobWriter writes the jobs of a trace in order. The header is fixed when
// the writer is created.
type JobWriter interface {
	// Write appends one job.
	Write(j *Job) error

	// Close flushes buffered jobs and writes any trailer. It does not
	// close the underlying io.Writer.
	Close() error
}

// Trace is a whole trace in memory: the header and the jobs in file order.
// Most tools stream a JobReader instead; Trace serves generators, tests and
// transformations that need every job at once (sorting, load scaling).
type Trace struct {
	Header Header
	Jobs   []Job
}

// ReadAll reads every remaining job of r into a Trace.
func ReadAll(r JobReader) (*Trace, error) {
	t := &Trace{Header: r.Header().Clone()}
	for {
		j, err := r.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return t, nil
			}
			return t, err
		}
		t.Jobs = append(t.Jobs, j)
	}
}

// WriteAll writes jobs to w in order and closes w.
func WriteAll(w JobWriter, jobs []Job) error {
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			return err
		}
	}
	return w.Close()
}

// SliceReader is a JobReader over jobs held in memory.
type SliceReader struct {
	H    Header
	Jobs []Job
	next int
}

// NewSliceReader returns a JobReader over t's header and jobs.
func NewSliceReader(t *Trace) *SliceReader { return &SliceReader{H: t.Header, Jobs: t.Jobs} }

// Header returns the header.
func (r *SliceReader) Header() *Header { return &r.H }

// Read returns a copy of the next job, or io.EOF.
func (r *SliceReader) Read() (Job, error) {
	if r.next >= len(r.Jobs) {
		return Job{}, io.EOF
	}
	j := r.Jobs[r.next].Clone()
	r.next++
	return j, nil
}
