package procsim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestEventQueueOrder: pushes, cancels and pops interleaved at random come
// out in (time, push order), as a sorted list of the pending events says;
// an event pushed in a timer slot (a process's computation end, its
// wake-up, a processor's switch end) replaces the one pending there, and a
// canceled one never comes out; events without one (quantum ends) are
// never replaced. Most times are drawn close to now, many equal, a tenth
// far ahead, so that events move down through many buckets; peek is
// checked at every step, between pushes and cancels too. Some events take
// a sequence number reserved earlier, as messages do.
func TestEventQueueOrder(t *testing.T) {
	for _, whos := range []int{6, 40} {
		testEventQueueOrder(t, whos)
	}
}

func testEventQueueOrder(t *testing.T, whos int) {
	r := rand.New(rand.NewPCG(1, 2))
	q := newEventQueue()
	q.grow(int32(whos - 1))
	type ref struct {
		at   model.Time
		seq  uint64
		who  int32
		kind uint8
	}
	kinds := []uint8{evCompute, evSpin, evArrive, evCPU, evQuantum}
	var pending []ref     // the reference, sorted
	var reserved []uint64 // sequence numbers reserved and not used yet
	drop := func(who int32, kind uint8) {
		pending = slices.DeleteFunc(pending, func(e ref) bool {
			return tracked(kind) && e.who == who && kindClass(e.kind) == kindClass(kind)
		})
	}
	now := model.Time(0)
	for step := 0; step < 200000; step++ {
		if m := q.check(); m != "" {
			t.Fatalf("%d processes, step %d: %s", whos, step, m)
		}
		if len(pending) > 0 && q.peek() != pending[0].at {
			t.Fatalf("%d processes, step %d: peek %v, want %v", whos, step, q.peek(), pending[0].at)
		}
		if r.IntN(100) < 10 {
			who, kind := int32(r.IntN(whos)), kinds[r.IntN(4)]
			q.cancel(uint32(who)<<2 | kindClass(kind))
			drop(who, kind)
			continue
		}
		if len(pending) == 0 || r.IntN(100) < 52 {
			// Times near now, many equal: ties are broken by push order.
			d := model.Time(r.IntN(50))
			if r.IntN(10) == 0 {
				d = model.Time(r.Int64N(1 << 40)) // far ahead: a high bucket
			}
			e := ref{at: now + d, who: int32(r.IntN(whos)), kind: kinds[r.IntN(len(kinds))]}
			drop(e.who, e.kind)
			if len(reserved) > 0 && r.IntN(4) == 0 {
				// A sequence number reserved earlier, as a message's:
				// before events pushed since, also at now.
				k := r.IntN(len(reserved))
				e.seq = reserved[k]
				reserved = slices.Delete(reserved, k, k+1)
				q.pushKeyed(e.at, e.seq, e.who, e.kind)
			} else {
				e.seq = q.seq
				q.push(e.at, e.who, e.kind)
			}
			if r.IntN(8) == 0 {
				reserved = append(reserved, q.newSeq())
			}
			// Stated here: the reference must not share the queue's
			// comparisons.
			i, _ := slices.BinarySearchFunc(pending, e, func(a, b ref) int {
				if a.at != b.at {
					return int(a.at - b.at)
				}
				return int(a.seq) - int(b.seq)
			})
			pending = slices.Insert(pending, i, e)
			continue
		}
		got := q.pop()
		want := pending[0]
		pending = pending[1:]
		if got.at != want.at || got.seq() != want.seq || got.who() != want.who || got.kind() != want.kind {
			t.Fatalf("%d processes, step %d: popped %v seq %d who %d kind %d, want %+v", whos, step, got.at, got.seq(), got.who(), got.kind(), want)
		}
		now = got.at
		if q.len() != len(pending) {
			t.Fatalf("%d processes, step %d: %d queued, want %d", whos, step, q.len(), len(pending))
		}
	}
}

// check reports a broken invariant of the queue: an event in the wrong
// bucket (bucket 0: not at the last pop's time; bucket i: its time first
// differing from it elsewhere than in bit i-1), the mask of the buckets
// holding events wrong, bucket 0 out of order or a dead event at its
// front, an event's timer
// slot not pointing at it, the events miscounted.
func (q *eventQueue) check() string {
	n := 0
	if q.hd < len(q.h) && isDead(&q.h[q.hd]) {
		return "a dead event at the front of bucket 0"
	}
	if q.hd > 0 && q.hd == len(q.h) {
		return "an empty bucket 0 not reset"
	}
	for i := q.hd; i < len(q.h); i++ {
		if i > q.hd && q.h[i].k>>seqShift <= q.h[i-1].k>>seqShift {
			return "bucket 0 out of order"
		}
		if q.h[i].at != q.last {
			return "an event of bucket 0 not at the last pop's time"
		}
		if isDead(&q.h[i]) {
			continue
		}
		n++
		if q.h[i].kind() != evQuantum && q.pos[q.h[i].slot()] != int32(i) {
			return "slot of an event in bucket 0"
		}
	}
	if len(q.b[0]) > 0 {
		return "events in the unused list of bucket 0"
	}
	for i := 1; i < nBuckets; i++ {
		if (len(q.b[i]) > 0) != (q.full&(1<<i) != 0) {
			return "the mask of buckets holding events"
		}
		for j := range q.b[i] {
			e := &q.b[i][j]
			if e.at < q.last || q.bucket(e.at) != i {
				return "an event in the wrong bucket"
			}
			if e.kind() != evQuantum && q.pos[e.slot()] != inBucket(i, j) {
				return "slot of an event in a bucket"
			}
		}
		n += len(q.b[i])
	}
	if n != q.n {
		return "events miscounted"
	}
	return ""
}
