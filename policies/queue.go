package policies

import "github.com/gangsim/gangsim/sim"

// fifo is a queue of jobs in arrival order that supports removal from the
// middle (backfilling starts jobs out of order). jobs is the live window of
// buf; popping from the front moves the window instead of copying, and the
// buffer is compacted once the dead prefix outgrows the live part, so every
// operation is amortized O(1) per job however long the queue grows.
type fifo struct {
	jobs []*sim.Job
	buf  []*sim.Job
	head int
}

func (q *fifo) push(j *sim.Job) {
	if q.head > 0 && q.head >= len(q.buf)-q.head {
		n := copy(q.buf, q.buf[q.head:])
		clear(q.buf[n:])
		q.buf = q.buf[:n]
		q.head = 0
	}
	q.buf = append(q.buf, j)
	q.jobs = q.buf[q.head:]
}

// removeStarted drops every job that is no longer queued, keeping order.
func (q *fifo) removeStarted() {
	out := q.jobs[:0]
	for _, j := range q.jobs {
		if j.State == sim.Queued {
			out = append(out, j)
		}
	}
	clear(q.jobs[len(out):])
	q.buf = q.buf[:q.head+len(out)]
	q.jobs = q.buf[q.head:]
}

// popFront removes the first n jobs.
func (q *fifo) popFront(n int) {
	clear(q.buf[q.head : q.head+n])
	q.head += n
	if q.head == len(q.buf) {
		q.buf, q.head = q.buf[:0], 0
	}
	q.jobs = q.buf[q.head:]
}
