package fileio

import (
	"io"
	"sync/atomic"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// chunkJobs is how many jobs or outcomes cross between goroutines at once.
const chunkJobs = 4096

type jobChunk struct {
	jobs  []model.Job
	lines []int // lines[i]: the source's position of jobs[i], for a swf.Positioner source
	err   error // after the jobs: io.EOF at the end, or the reader's error
}

// Prefetcher reads a trace on its own goroutine, a chunk ahead of its
// consumer, so that parsing (and decompression) overlaps with simulation.
// It returns the same jobs in the same order as the reader it wraps.
type Prefetcher struct {
	h     *model.Header
	ch    chan jobChunk
	free  chan []model.Job
	stop  chan struct{}
	cur   []model.Job
	lines []int
	i     int
	err   error
	spent []model.Job // the chunk being read, recycled when exhausted
	pos   swf.Positioner
	rows  bool // pos gives rows of a table
	name  string
	hdr   error // the wrapped reader's model.HeaderErr, taken before reading starts
}

// Prefetch starts reading r ahead. The header is read first, as
// model.JobReader promises. Call Close to stop early.
func Prefetch(r model.JobReader) *Prefetcher {
	// The header is copied: a reader adds its table's trailer to its own
	// header at the end, on the reading goroutine.
	h := r.Header().Clone()
	p := &Prefetcher{h: &h, ch: make(chan jobChunk, 2), free: make(chan []model.Job, 3), stop: make(chan struct{}),
		hdr: model.HeaderErr(r)}
	p.pos, _ = r.(swf.Positioner)
	if p.pos != nil {
		p.name, _ = p.pos.Position()
	}
	if rp, ok := r.(interface{ RowPositions() bool }); ok {
		p.rows = rp.RowPositions()
	}
	go p.fill(r)
	return p
}

// HeaderErr returns the error the wrapped reader met in its header (see
// model.HeaderErr), which Read returns too.
func (p *Prefetcher) HeaderErr() error { return p.hdr }

// Position returns the source's position of the job Read returned last,
// when the source is a swf.Positioner (a trace reader of package fileio:
// its file name and line, or row); line 0 otherwise. Errors about a job
// (the out-of-order submit time of cleaning or of the engine) name it
// through Position.
func (p *Prefetcher) Position() (name string, line int) {
	if p.i == 0 || p.i > len(p.lines) {
		return p.name, 0
	}
	return p.name, p.lines[p.i-1]
}

// RowPositions reports whether Position gives rows of a table.
func (p *Prefetcher) RowPositions() bool { return p.rows }

func (p *Prefetcher) fill(r model.JobReader) {
	defer close(p.ch)
	for {
		var buf []model.Job
		select {
		case buf = <-p.free:
		default:
			buf = make([]model.Job, 0, chunkJobs)
		}
		var err error
		var lines []int
		for len(buf) < chunkJobs {
			var j model.Job
			if j, err = r.Read(); err != nil {
				break
			}
			buf = append(buf, j)
			if p.pos != nil {
				_, l := p.pos.Position()
				lines = append(lines, l)
			}
		}
		select {
		case p.ch <- jobChunk{jobs: buf, lines: lines, err: err}:
		case <-p.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Header returns the trace header as it was when Prefetch started: the
// wrapped reader's trailer (header lines after its jobs) is read from the
// wrapped reader once Read has returned io.EOF.
func (p *Prefetcher) Header() *model.Header { return p.h }

// Read returns the next job, or io.EOF, or the wrapped reader's error.
func (p *Prefetcher) Read() (model.Job, error) {
	for p.i >= len(p.cur) {
		if p.err != nil {
			return model.Job{}, p.err
		}
		if p.spent != nil {
			select {
			case p.free <- p.spent[:0]:
			default:
			}
			p.spent = nil
		}
		c, ok := <-p.ch
		if !ok {
			p.err = io.EOF
			return model.Job{}, io.EOF
		}
		p.cur, p.lines, p.i, p.err, p.spent = c.jobs, c.lines, 0, c.err, c.jobs
	}
	j := p.cur[p.i]
	p.cur[p.i] = model.Job{}
	p.i++
	return j, nil
}

// Close stops the reading goroutine.
func (p *Prefetcher) Close() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
}

// AsyncOutcomes hands outcomes to another goroutine that writes them to w,
// so that encoding overlaps with simulation. Outcomes are written in the
// order given. The writing goroutine stops at w's first error; Write
// returns it from the next chunk on (so the producer stops early), and
// Close returns it.
type AsyncOutcomes struct {
	w      model.OutcomeWriter
	buf    []model.Outcome
	ch     chan []model.Outcome
	free   chan []model.Outcome
	done   chan error
	err    error        // the first error, once the producer has seen it
	failed atomic.Value // the writing goroutine's error (an errorBox), set once
}

type errorBox struct{ err error }

// NewAsyncOutcomes starts the writing goroutine.
func NewAsyncOutcomes(w model.OutcomeWriter) *AsyncOutcomes {
	a := &AsyncOutcomes{w: w, buf: make([]model.Outcome, 0, chunkJobs), ch: make(chan []model.Outcome, 2),
		free: make(chan []model.Outcome, 3), done: make(chan error, 1)}
	go a.drain(a.ch) // the channel is passed: Close clears the field
	return a
}

func (a *AsyncOutcomes) drain(ch <-chan []model.Outcome) {
	var err error
	for chunk := range ch {
		if err == nil {
			for i := range chunk {
				if err = a.w.Write(&chunk[i]); err != nil {
					a.failed.Store(errorBox{err})
					break
				}
			}
		}
		select {
		case a.free <- chunk[:0]:
		default:
		}
	}
	a.done <- err
}

// Write queues a copy of o. It returns the writing goroutine's error once
// it has failed.
func (a *AsyncOutcomes) Write(o *model.Outcome) error {
	if a.err != nil {
		return a.err
	}
	a.buf = append(a.buf, *o)
	if len(a.buf) == chunkJobs {
		if f, ok := a.failed.Load().(errorBox); ok {
			a.err = f.err
			return a.err
		}
		a.ch <- a.buf
		select {
		case a.buf = <-a.free:
		default:
			a.buf = make([]model.Outcome, 0, chunkJobs)
		}
	}
	return nil
}

// Close writes the queued outcomes, waits for the writer and returns its
// first error. It does not close w.
func (a *AsyncOutcomes) Close() error {
	if a.ch == nil {
		return a.err
	}
	if len(a.buf) > 0 && a.err == nil {
		a.ch <- a.buf
	}
	close(a.ch)
	a.ch = nil
	if err := <-a.done; a.err == nil {
		a.err = err
	}
	return a.err
}
