package procsim

import (
	"math/bits"

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

// eventQueue is an indexed priority queue of events, ordered by (at, k): a
// radix heap of their times (Ahuja, Mehlhorn, Orlin and Tarjan), whose
// lowest bucket, the events at the time of the last pop, is kept in the
// order of their keys.
//
// Events are never pushed before the last one popped (the simulator never
// schedules into the past), which is what a radix heap needs: bucket b >=
// 1 holds, unsorted, the events whose time first differs from last's in
// bit b-1 (counted from the least significant), and bucket 0 those at
// last itself. A push puts its event straight into its bucket (into
// bucket 0 most often last, as it takes the latest sequence number). A pop
// takes the first of bucket 0 if it holds any; otherwise it finds the
// lowest bucket that holds events (a bit mask), makes the least time among
// them the new last, and spreads them over the buckets below it, where
// their times now first differ from last's (those at last into bucket 0).
// An event only moves down, so it moves at most once per bit of its delay
// (on the thesis' workload at 74% load under FCS, 1.7 times on average),
// and no event is ever sifted. A heap of all pending events sifted each
// pop through them all: on a 1000-job window of the SDSC SP2 log (128
// processors) under FCS, 151 on average, a quarter of the replay's time.
//
// It is indexed: an event with a timer slot (a process's computation or
// spin end, its wake-up, a processor's switch end) replaces the one
// pending in that slot, and cancel takes it out, so that events made stale
// (their process preempted, their wait re-timed) never reach the top.
// Only events that would have done nothing are left out: every push still
// takes the next sequence number, so the order of the others is the one
// the stale events were ordered among. Any correct priority queue pops
// the same events in the same order: no two have the same time and key.
type eventQueue struct {
	last model.Time // the time of the last pop: no event is before it
	// h[hd:] is bucket 0, the events at last in the order of their keys,
	// the dead among them (canceled) marked; its first is live. b[i] is
	// bucket i, unsorted (b[0] is unused).
	h    []event
	hd   int
	b    [nBuckets][]event
	full uint64 // bit i set: bucket i >= 1 holds events
	// lowAt is the least time of the lowest bucket >= 1 that holds events,
	// if lowOK.
	lowAt model.Time
	lowOK bool
	pos   []int32 // per timer slot (event.slot), its event's index in h, inBucket(i, j) for b[i][j], or -1 none
	n     int     // events queued
	seq   uint64
}

// nBuckets is the number of buckets: event times are not negative, so the
// times of two differ at most in their 63 low bits.
const nBuckets = 64

// dead marks an event of bucket 0 taken out before its turn (no event has
// both its kind's third bit and its two low bits set).
const dead = 1<<slotBits | 3

func isDead(e *event) bool { return e.k&dead == dead }

// inBucket is the pos of b[i][j].
func inBucket(i, j int) int32 { return int32(-2 - (j<<6 | i)) }

// newEventQueue returns an empty queue.
func newEventQueue() eventQueue { return eventQueue{} }

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

// reserve reserves the next k sequence numbers, as k calls of newSeq
// would, and returns the first.
func (q *eventQueue) reserve(k uint64) uint64 {
	if k > maxSeq-q.seq {
		panic("procsim: event sequence numbers exhausted")
	}
	q.seq += k
	return q.seq - k
}

// bucket is the bucket of an event at at: the number of its time's bits
// up to the highest that differs from last's.
func (q *eventQueue) bucket(at model.Time) int {
	return bits.Len64(uint64(at ^ q.last))
}

// pushKeyed pushes an event with sequence number seq (reserved by newSeq).
func (q *eventQueue) pushKeyed(at model.Time, seq uint64, who int32, kind uint8) {
	if at < q.last {
		panic("procsim: an event pushed into the past")
	}
	e := event{at: at, k: eventKey(seq, who, kind)}
	if tracked(kind) {
		q.cancel(e.slot()) // replaced: e goes in anew
	}
	q.n++
	q.put(e)
}

// put puts e into its bucket.
func (q *eventQueue) put(e event) {
	i := q.bucket(e.at)
	if i == 0 {
		q.now(e)
		return
	}
	q.pos[e.slot()] = inBucket(i, len(q.b[i]))
	q.b[i] = append(q.b[i], e)
	q.full |= 1 << i
	q.lowOK = false
}

// now puts e, an event at last, into bucket 0 in the order of keys: most
// often after the others (a later push takes a later sequence number), else
// the later ones move up by one.
func (q *eventQueue) now(e event) {
	h := append(q.h, e)
	i := len(h) - 1
	for i > q.hd && e.k < h[i-1].k {
		h[i] = h[i-1]
		if !isDead(&h[i]) {
			q.pos[h[i].slot()] = int32(i)
		}
		i--
	}
	h[i] = e
	q.pos[e.slot()] = int32(i)
	q.h = h
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
	p := q.pos[slot]
	q.pos[slot] = -1
	q.n--
	switch {
	case p < -1:
		v := int(-2 - p)
		q.takeOut(v&(nBuckets-1), v>>6)
	case int(p) == q.hd:
		q.front()
	default:
		// Out of bucket 0 behind its front: marked dead where it is, and
		// passed over when it reaches the front.
		q.h[p].k |= dead
	}
}

// takeOut takes event j out of bucket i >= 1: the last one of the bucket
// takes its place.
func (q *eventQueue) takeOut(i, j int) event {
	bk := q.b[i]
	e := bk[j]
	n := len(bk) - 1
	if j != n {
		m := bk[n]
		bk[j] = m
		q.pos[m.slot()] = inBucket(i, j)
	}
	q.b[i] = bk[:n]
	q.lowOK = false
	if n == 0 {
		q.full &^= 1 << i
	}
	return e
}

// front takes the first event out of bucket 0, which must hold one, and
// moves its front past the dead events behind it (emptying it when none is
// left).
func (q *eventQueue) front() event {
	e := q.h[q.hd]
	q.hd++
	for q.hd < len(q.h) && isDead(&q.h[q.hd]) {
		q.hd++
	}
	if q.hd == len(q.h) {
		q.h, q.hd = q.h[:0], 0
	}
	return e
}

// pop takes the least event out of the queue, which must not be empty.
func (q *eventQueue) pop() event {
	var e event
	if q.hd < len(q.h) {
		e = q.front()
	} else if i := bits.TrailingZeros64(q.full); len(q.b[i]) == 1 {
		// Alone in the lowest bucket: it is the least, and goes without
		// passing through bucket 0.
		e = q.takeOut(i, 0)
		q.last = e.at
	} else {
		q.advance()
		e = q.front()
	}
	q.pos[e.slot()] = -1
	q.n--
	return e
}

// advance moves last on to the least time of the lowest bucket that holds
// events, bucket 0 being empty, and spreads that bucket's events over the
// buckets below it: at least one goes into bucket 0.
func (q *eventQueue) advance() {
	i := bits.TrailingZeros64(q.full)
	bk := q.b[i]
	q.last = q.low()
	q.b[i] = bk[:0]
	q.full &^= 1 << i
	q.lowOK = false
	for k := range bk {
		q.put(bk[k])
	}
}

func (q *eventQueue) len() int { return q.n }

// peek is the time of the least event; the queue must not be empty.
func (q *eventQueue) peek() model.Time {
	if q.hd < len(q.h) {
		return q.last
	}
	return q.low()
}

// low is the least time in the lowest bucket that holds events, bucket 0
// being empty: the least time of the queue, remembered until a bucket
// changes.
func (q *eventQueue) low() model.Time {
	if !q.lowOK {
		bk := q.b[bits.TrailingZeros64(q.full)]
		least := bk[0].at
		for k := 1; k < len(bk); k++ {
			least = min(least, bk[k].at)
		}
		q.lowAt, q.lowOK = least, true
	}
	return q.lowAt
}
