package procsim

import "github.com/gangsim/gangsim/model"

// Event kinds. The two low bits are the kind's timer slot (see
// event.slot): a process's computation and spin end share one.
const (
	evCompute uint8 = 0 // a process's computation phase ends
	evArrive  uint8 = 1 // the message that satisfies a process's wait reaches it (seq: the message's; valid while the process's wakeKey)
	evCPU     uint8 = 2 // a processor's switch ends
	evQuantum uint8 = 3 // a processor's local quantum ends (valid while it is the one armed)
	evSpin    uint8 = 4 // a process's spin gives up
)

// event is one entry of the queue, compared by (at, seq): 16 bytes, the
// sequence number, the process or processor and the kind packed into one
// word whose order is the sequence numbers' (they are unique). The low
// bits are the timer slot, who << 2 | kind & 3, so that the queue finds
// an event's slot with one mask; the kind's third bit (a spin's end,
// sharing its slot with a computation's end) is above them.
type event struct {
	at model.Time
	k  uint64 // seq << seqShift | kind>>2 << slotBits | who << 2 | kind & 3
}

const (
	kindBits = 3
	whoBits  = 23
	slotBits = whoBits + 2
	seqShift = kindBits + whoBits
	maxWho   = 1<<whoBits - 1
	maxSeq   = 1<<(64-seqShift) - 1
)

func eventKey(seq uint64, who int32, kind uint8) uint64 {
	return seq<<seqShift | uint64(kind>>2)<<slotBits | uint64(who)<<2 | uint64(kind&3)
}

func (e *event) kind() uint8  { return uint8(e.k>>slotBits&1)<<2 | uint8(e.k&3) }
func (e *event) who() int32   { return int32(e.k >> 2 & maxWho) }
func (e *event) seq() uint64  { return e.k >> seqShift }
func (e *event) slot() uint32 { return uint32(e.k & (1<<slotBits - 1)) }

// kindClass is the timer slot of a kind of event, with its process's or
// processor's index.
func kindClass(kind uint8) uint32 { return uint32(kind & 3) }

// tracked reports whether events of kind have a timer slot (the others
// may be pending several at once, and are never replaced or canceled).
func tracked(kind uint8) bool { return kind != evQuantum }

// minOf is 1 if b is before a, else 0.
func minOf(a, b *event) int {
	lt := b2u(b.at < a.at) | b2u(b.at == a.at)&b2u(b.k < a.k)
	return int(lt)
}

func b2u(b bool) uint8 {
	var x uint8
	if b {
		x = 1
	}
	return x
}

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.k < b.k
}

// eventQueue is a 4-ary min-heap of events: shallower than a binary heap,
// so fewer cache misses per operation on the simulator's hottest path.
//
// It is indexed: an event with a timer slot (a process's computation or
// spin end, its wake-up, a processor's switch end) replaces the one
// pending in that slot, and cancel takes it out, so that events made stale
// (their process preempted, their wait re-timed) never reach the top.
// Only events that would have done nothing are left out: every push still
// takes the next sequence number, so the order of the others is the one
// the stale events were ordered among.
//
// The least events may be held apart, in front of the heap: an event
// pushed before every event of the heap (a switch's end a few
// microseconds ahead, the wake-up of a message about to arrive, a spin's
// end) is usually popped before anything in the heap, and then costs no
// sifting at all; most of the heap is computations' and quanta's ends
// milliseconds ahead. Up to frontCap such events wait in front, sorted,
// every one before every event of the heap; one more pushes the latest of
// them into the heap.
type eventQueue struct {
	h     []event
	front [frontCap]event // before every event of h; sorted latest first, the least at nf-1
	nf    int
	pos   []int32 // per timer slot (event.slot), its event's index in h, inFront(i) for front[i], or -1 none
	seq   uint64
}

// frontCap is how many events wait in front of the heap at most.
const frontCap = 8

// inFront is the pos of front[i].
func inFront(i int) int32 { return int32(-2 - i) }

// frontIndex is the index in front of an event whose pos is p (< -1).
func frontIndex(p int32) int { return int(-2 - p) }

// grow makes room for the timer slots of processes or processors up to
// who.
func (q *eventQueue) grow(who int32) {
	if who > maxWho {
		panic("procsim: too many processes or processors for the event queue")
	}
	for len(q.pos) < 4*int(who+1) {
		q.pos = append(q.pos, -1)
	}
}

// push pushes an event of kind for who at at, with the next sequence
// number.
func (q *eventQueue) push(at model.Time, who int32, kind uint8) {
	q.pushKeyed(at, q.newSeq(), who, kind)
}

// newSeq reserves the next sequence number without pushing an event: a
// message takes the place in the order of same-time events that its
// arrival event would have had.
func (q *eventQueue) newSeq() uint64 {
	if q.seq == maxSeq {
		panic("procsim: event sequence numbers exhausted")
	}
	q.seq++
	return q.seq - 1
}

// pushKeyed pushes an event with sequence number seq (reserved by newSeq).
func (q *eventQueue) pushKeyed(at model.Time, seq uint64, who int32, kind uint8) {
	e := event{at: at, k: eventKey(seq, who, kind)}
	toFront := len(q.h) == 0 || e.before(&q.h[0])
	if tracked(kind) {
		if i := q.pos[e.slot()]; i >= 0 && !toFront {
			// The slot's pending event is replaced in place.
			if e.before(&q.h[i]) {
				q.up(int(i), e)
			} else {
				q.down(int(i), e)
			}
			return
		} else if i != -1 {
			q.cancel(e.slot()) // replaced: e goes in anew
			toFront = len(q.h) == 0 || e.before(&q.h[0])
		}
	}
	if !toFront {
		q.heapPush(e)
		return
	}
	if q.nf == frontCap {
		// The latest of those in front and e goes to the heap: it is before
		// every event there, and after every other in front.
		if q.front[0].before(&e) {
			q.heapPush(e)
			return
		}
		last := q.front[0]
		copy(q.front[:], q.front[1:])
		q.nf--
		for i := range q.nf {
			q.pos[q.front[i].slot()] = inFront(i)
		}
		q.heapPush(last)
	}
	i := q.nf
	for i > 0 && q.front[i-1].before(&e) {
		q.front[i] = q.front[i-1]
		q.pos[q.front[i].slot()] = inFront(i)
		i--
	}
	q.front[i] = e
	q.pos[e.slot()] = inFront(i)
	q.nf++
}

func (q *eventQueue) heapPush(e event) {
	q.h = append(q.h, e)
	q.up(len(q.h)-1, e)
}

// cancel takes the event pending in timer slot slot, if any, out of the
// queue. Most calls find none: that is checked inline.
func (q *eventQueue) cancel(slot uint32) {
	if q.pos[slot] != -1 {
		q.remove(slot)
	}
}

// remove takes the event pending in timer slot slot out of the queue.
func (q *eventQueue) remove(slot uint32) {
	i := q.pos[slot]
	if i < -1 {
		q.pos[slot] = -1
		f := frontIndex(i)
		copy(q.front[f:q.nf], q.front[f+1:q.nf])
		q.nf--
		for k := f; k < q.nf; k++ {
			q.pos[q.front[k].slot()] = inFront(k)
		}
		return
	}
	if i < 0 {
		return
	}
	q.pos[slot] = -1
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if int(i) == n {
		return
	}
	if last.before(&q.h[i]) {
		q.up(int(i), last)
	} else {
		q.down(int(i), last)
	}
}

// up puts e at index i or above, sifting the hole up: parents move down
// into it, and e goes where it stops (no swaps).
func (q *eventQueue) up(i int, e event) {
	h, pos := q.h, q.pos
	for i > 0 {
		p := (i - 1) / 4
		hp := &h[p]
		if !e.before(hp) {
			break
		}
		h[i] = *hp
		pos[hp.slot()] = int32(i)
		i = p
	}
	h[i] = e
	pos[e.slot()] = int32(i)
}

// down puts e at index i or below, sifting the hole down: the least child
// moves up into it, and e goes where it stops.
func (q *eventQueue) down(i int, e event) {
	h, pos := q.h, q.pos
	n := len(h)
	for {
		c := 4*i + 1
		var m int
		if c+3 < n {
			// Four children: the least of each pair, then of the two,
			// without branches the processor could mispredict.
			ch := (*[4]event)(h[c : c+4])
			m = minOf(&ch[0], &ch[1])
			m2 := 2 + minOf(&ch[2], &ch[3])
			if ch[m2].before(&ch[m]) {
				m = m2
			}
			m += c
		} else if c < n {
			m = c
			for k := c + 1; k < n; k++ {
				if h[k].before(&h[m]) {
					m = k
				}
			}
		} else {
			break
		}
		hm := &h[m]
		if !hm.before(&e) {
			break
		}
		h[i] = *hm
		pos[hm.slot()] = int32(i)
		i = m
	}
	h[i] = e
	pos[e.slot()] = int32(i)
}

func (q *eventQueue) pop() event {
	if q.nf > 0 {
		q.nf--
		e := q.front[q.nf]
		q.pos[e.slot()] = -1
		return e
	}
	h := q.h
	top := h[0]
	q.pos[top.slot()] = -1
	n := len(h) - 1
	last := h[n]
	q.h = h[:n]
	if n > 0 {
		q.down(0, last)
	}
	return top
}

func (q *eventQueue) len() int { return len(q.h) + q.nf }

func (q *eventQueue) peek() model.Time {
	if q.nf > 0 {
		return q.front[q.nf-1].at
	}
	return q.h[0].at
}
