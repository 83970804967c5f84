package procsim

import "github.com/gangsim/gangsim/model"

// Event kinds.
const (
	evCompute uint8 = iota // a process's computation phase ends (gen: the process's)
	evSpin                 // a process's spin gives up (gen: the process's)
	evArrive               // the message that satisfies a process's wait reaches it (seq: the message's; valid while the process's wakeKey)
	evCPU                  // a processor's switch ends (gen: the processor's)
	evQuantum              // a processor's local quantum ends (valid while it is the one armed)
)

// event is one entry of the queue, compared by (at, seq).
type event struct {
	at   model.Time
	seq  uint64
	kind uint8
	who  int32 // process or processor
	arg  int32
	gen  uint32
}

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

// eventQueue is a 4-ary min-heap of events: shallower than a binary heap,
// so fewer cache misses per operation on the simulator's hottest path.
type eventQueue struct {
	h   []event
	seq uint64
}

func (q *eventQueue) push(e event) {
	e.seq = q.seq
	q.seq++
	q.h = append(q.h, e)
	h := q.h
	// Sift the hole up from the end: parents move down into it, and the
	// new event goes where it stops (no swaps).
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// newSeq reserves the next sequence number without pushing an event: a
// message takes the place in the order of same-time events that its
// arrival event would have had.
func (q *eventQueue) newSeq() uint64 {
	q.seq++
	return q.seq - 1
}

// pushKeyed pushes e with the sequence number it carries (one newSeq
// reserved).
func (q *eventQueue) pushKeyed(e event) {
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func (q *eventQueue) pop() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	q.h = h
	if n == 0 {
		return top
	}
	// Sift the hole down from the root: the least child moves up into it,
	// and the last event goes where it stops.
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if h[k].before(&h[m]) {
				m = k
			}
		}
		if !h[m].before(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = last
	return top
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) peek() model.Time { return q.h[0].at }
