package fileio

import (
	"io"

	"github.com/gangsim/gangsim/model"
)

// chunkJobs is how many jobs or outcomes cross between goroutines at once.
const chunkJobs = 4096

type jobChunk struct {
	jobs []model.Job
	err  error // after the jobs: io.EOF at the end, or the reader's error
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
	i     int
	err   error
	spent []model.Job // the chunk being read, recycled when exhausted
}

// Prefetch starts reading r ahead. The header is read first, as
// model.JobReader promises. Call Close to stop early.
func Prefetch(r model.JobReader) *Prefetcher {
	p := &Prefetcher{h: r.Header(), ch: make(chan jobChunk, 2), free: make(chan []model.Job, 3), stop: make(chan struct{})}
	go p.fill(r)
	return p
}

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
		for len(buf) < chunkJobs {
			var j model.Job
			if j, err = r.Read(); err != nil {
				break
			}
			buf = append(buf, j)
		}
		select {
		case p.ch <- jobChunk{jobs: buf, err: err}:
		case <-p.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Header returns the trace header.
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
		p.cur, p.i, p.err, p.spent = c.jobs, 0, c.err, c.jobs
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
// order given. An error of w is returned by Close (the writing goroutine
// stops writing at its first error).
type AsyncOutcomes struct {
	w    model.OutcomeWriter
	buf  []model.Outcome
	ch   chan []model.Outcome
	free chan []model.Outcome
	done chan error
	err  error
}

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

// Write queues a copy of o.
func (a *AsyncOutcomes) Write(o *model.Outcome) error {
	if a.err != nil {
		return a.err
	}
	a.buf = append(a.buf, *o)
	if len(a.buf) == chunkJobs {
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
	if len(a.buf) > 0 {
		a.ch <- a.buf
	}
	close(a.ch)
	a.ch = nil
	if a.err != nil {
		return a.err
	}
	return <-a.done
}
