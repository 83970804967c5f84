package procsim

import (
	"math"

	"github.com/gangsim/gangsim/model"
)

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
	return int(b2i(b.at < a.at) | b2i(b.at == a.at)&b2i(b.k < a.k))
}

func (a *event) before(b *event) bool {
	return keyBefore(a.at, a.k, b.at, b.k)
}

// keyBefore reports whether the event at time at with key k comes before
// the one at bt with key bk: the queue's order, (time, key), also of the
// runs' firsts and lasts that it keeps apart from their events.
func keyBefore(at model.Time, k uint64, bt model.Time, bk uint64) bool {
	return at < bt || at == bt && k < bk
}

// eventQueue is an indexed priority queue of events: sorted runs in
// front of a 4-ary min-heap.
//
// It is indexed: an event with a timer slot (a process's computation or
// spin end, its wake-up, a processor's switch end) replaces the one
// pending in that slot, and cancel takes it out, so that events made stale
// (their process preempted, their wait re-timed) never reach the top.
// Only events that would have done nothing are left out: every push still
// takes the next sequence number, so the order of the others is the one
// the stale events were ordered among.
//
// Most events are pushed a fixed delay after now (a quantum, a spin
// threshold, a switch, a message's latency, a job's computation per
// iteration), so that those of one kind mostly come in order: each of
// nRuns runs is a FIFO of events in order. An event is appended to the run
// whose last event is the latest of those before it (or to an empty run),
// and goes into the heap only if it is before the last of every run, or
// would start a run while it is the next event (as a short delay's
// events mostly are; the run would empty again at once). The
// runs are kept in order of their last events, latest first (an append
// does not change it), so that the run is the first of them the event is
// not before; they are also kept in order of their first events, so that
// a pop takes the least of the first run's and the heap's: the events of
// the runs take no sifting.
// An event taken out of a run before its turn is marked dead where it is,
// and dropped when it reaches the run's front.
type eventQueue struct {
	// The runs in order of their last events, latest first: ord[i] is a
	// run, lastAt[i] and lastK[i] its last event's time and key (perhaps
	// dead; nowhere if the run is empty).
	ord    [nRuns]uint8
	lastAt [nRuns]model.Time
	lastK  [nRuns]uint64
	// The runs in order of their first live events, least first: fo[i]
	// is a run, firstAt[i] and firstK[i] its first's time and key (never
	// if the run is empty).
	fo      [nRuns]uint8
	firstAt [nRuns]model.Time
	firstK  [nRuns]uint64
	h       []event
	runs    [nRuns]run
	n       int     // live events in the runs
	pos     []int32 // per timer slot (event.slot), its event's index in h, inRun(r, i) for runs[r].buf[i], or -1 none
	seq     uint64
}

// run is a FIFO of events in (at, k) order: buf[head:], the dead among
// them marked.
type run struct {
	buf  []event
	head int
}

// nRuns is the number of runs in front of the heap.
const (
	runBits = 3
	nRuns   = 1 << runBits
)

// never is after every event, nowhere before every one.
const (
	neverAt   = math.MaxInt64
	neverK    = math.MaxUint64
	nowhereAt = math.MinInt64
	nowhereK  = 0
)

// newEventQueue returns an empty queue.
func newEventQueue() eventQueue {
	var q eventQueue
	for r := range nRuns {
		q.ord[r], q.lastAt[r], q.lastK[r] = uint8(r), nowhereAt, nowhereK
		q.fo[r], q.firstAt[r], q.firstK[r] = uint8(r), neverAt, neverK
	}
	return q
}

// dead marks an event taken out of a run before its turn (no event has
// both its kind's third bit and its two low bits set).
const dead = 1<<slotBits | 3

func isDead(e *event) bool { return e.k&dead == dead }

// inRun is the pos of runs[r].buf[i].
func inRun(r, i int) int32 { return int32(-2 - (i<<runBits | r)) }

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
	if tracked(kind) {
		q.cancel(e.slot()) // replaced: e goes in anew
	}
	if !keyBefore(q.lastAt[nRuns-1], q.lastK[nRuns-1], at, e.k) {
		// Before the last of the run that ends first, so of every run
		// (an empty one ends nowhere): it goes into the heap, as a
		// short delay's events mostly do.
		q.heapPush(e)
		return
	}
	// The first run in order whose last event is before e.
	i := 0
	for !keyBefore(q.lastAt[i], q.lastK[i], at, e.k) {
		i++
	}
	if q.lastAt[i] == nowhereAt && q.len() > 0 && q.beforeLeast(at, e.k) {
		// Run i is empty and e is the next event: e goes on top of the
		// heap, which pops it at little cost, instead of starting a run
		// that its pop empties again (each reorders the runs' firsts).
		q.heapPush(e)
		return
	}
	q.lastAt[i], q.lastK[i] = at, e.k // the order stays: the runs before i end after e
	r := int(q.ord[i])
	ru := &q.runs[r]
	if len(ru.buf) == cap(ru.buf) && ru.head > 0 && 2*ru.head >= len(ru.buf) {
		// Compact: the run's events move to the start of its buffer.
		n := copy(ru.buf, ru.buf[ru.head:])
		ru.buf, ru.head = ru.buf[:n], 0
		for k := range n {
			if f := &ru.buf[k]; !isDead(f) {
				q.pos[f.slot()] = inRun(r, k)
			}
		}
	}
	q.pos[e.slot()] = inRun(r, len(ru.buf))
	ru.buf = append(ru.buf, e)
	q.n++
	if len(ru.buf) == 1 {
		// It was empty: its place is among the empty runs, last in the
		// order of first events.
		i := nRuns - 1
		for int(q.fo[i]) != r {
			i--
		}
		q.refirstAt(i, at, e.k)
	}
}

// refirst gives run r its new first event's time and key (never: it is
// empty), and moves it to its place in the order of first events: most
// often no farther than the next one, a pop taking the first of a run
// that holds the rest of the instant's events.
func (q *eventQueue) refirst(r int, at model.Time, k uint64) {
	i := 0
	for int(q.fo[i]) != r {
		i++
	}
	q.refirstAt(i, at, k)
}

// refirstAt is refirst of the run at place i in the order of first
// events.
func (q *eventQueue) refirstAt(i int, at model.Time, k uint64) {
	r := q.fo[i]
	for i+1 < nRuns && keyBefore(q.firstAt[i+1], q.firstK[i+1], at, k) {
		q.fo[i], q.firstAt[i], q.firstK[i] = q.fo[i+1], q.firstAt[i+1], q.firstK[i+1]
		i++
	}
	for i > 0 && keyBefore(at, k, q.firstAt[i-1], q.firstK[i-1]) {
		q.fo[i], q.firstAt[i], q.firstK[i] = q.fo[i-1], q.firstAt[i-1], q.firstK[i-1]
		i--
	}
	q.fo[i], q.firstAt[i], q.firstK[i] = r, at, k
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
		v := int(-2 - i)
		r := v & (nRuns - 1)
		ru := &q.runs[r]
		q.n--
		if f := v >> runBits; f == ru.head {
			ru.head++
			q.drop(r)
		} else {
			ru.buf[f].k |= dead
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

// drop moves run r's head past dead events after its first was taken, and
// empties the run when none is left: it goes last in order.
func (q *eventQueue) drop(r int) {
	ru := &q.runs[r]
	for ru.head < len(ru.buf) && isDead(&ru.buf[ru.head]) {
		ru.head++
	}
	if ru.head < len(ru.buf) {
		q.refirst(r, ru.buf[ru.head].at, ru.buf[ru.head].k)
		return
	}
	ru.buf, ru.head = ru.buf[:0], 0
	q.refirst(r, neverAt, neverK)
	i := 0
	for int(q.ord[i]) != r {
		i++
	}
	for ; i+1 < nRuns; i++ {
		q.ord[i], q.lastAt[i], q.lastK[i] = q.ord[i+1], q.lastAt[i+1], q.lastK[i+1]
	}
	q.ord[nRuns-1], q.lastAt[nRuns-1], q.lastK[nRuns-1] = uint8(r), nowhereAt, nowhereK
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

// least is the run whose first event is the least of the queue, or -1
// for the heap's least.
func (q *eventQueue) least() int {
	if len(q.h) > 0 && keyBefore(q.h[0].at, q.h[0].k, q.firstAt[0], q.firstK[0]) {
		return -1
	}
	return int(q.fo[0])
}

func (q *eventQueue) pop() event {
	if r := q.least(); r >= 0 {
		ru := &q.runs[r]
		e := ru.buf[ru.head]
		ru.head++
		q.n--
		q.pos[e.slot()] = -1
		if ru.head == len(ru.buf) || isDead(&ru.buf[ru.head]) {
			q.drop(r)
			return e
		}
		// Most often the run goes on: its new first moves back past the
		// runs whose firsts are before it (none, when the run holds the
		// rest of the instant's events).
		q.refirstAt(0, ru.buf[ru.head].at, ru.buf[ru.head].k) // r is the first in order
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

// beforeLeast reports whether (at, k) is before the least event of the
// queue, which must not be empty.
func (q *eventQueue) beforeLeast(at model.Time, k uint64) bool {
	if q.least() >= 0 {
		return keyBefore(at, k, q.firstAt[0], q.firstK[0])
	}
	return keyBefore(at, k, q.h[0].at, q.h[0].k)
}

func (q *eventQueue) len() int { return len(q.h) + q.n }

func (q *eventQueue) peek() model.Time {
	if q.least() >= 0 {
		return q.firstAt[0]
	}
	return q.h[0].at
}
