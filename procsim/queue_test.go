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
// never replaced. With few processes the events in front of the heap are
// few; with many, they overflow into it.
func TestEventQueueOrder(t *testing.T) {
	for _, whos := range []int{6, 40} {
		testEventQueueOrder(t, whos)
	}
}

func testEventQueueOrder(t *testing.T, whos int) {
	r := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	q.grow(int32(whos - 1))
	type ref struct {
		at   model.Time
		seq  uint64
		who  int32
		kind uint8
	}
	kinds := []uint8{evCompute, evSpin, evArrive, evCPU, evQuantum}
	var pending []ref // the reference, sorted
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
		if r.IntN(100) < 10 {
			who, kind := int32(r.IntN(whos)), kinds[r.IntN(4)]
			q.cancel(uint32(who)<<2 | kindClass(kind))
			drop(who, kind)
			continue
		}
		if len(pending) == 0 || r.IntN(100) < 52 {
			// Times near now, many equal: ties are broken by push order.
			e := ref{at: now + model.Time(r.IntN(50)), who: int32(r.IntN(whos)), kind: kinds[r.IntN(len(kinds))]}
			drop(e.who, e.kind)
			e.seq = q.seq
			q.push(e.at, e.who, e.kind)
			// Stated here, not with event.before: the reference must not
			// share the queue's comparison.
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

// check reports a broken invariant of the queue: the events in front out
// of order, or not before the heap's; the heap out of order; an event's
// timer slot not pointing at it.
func (q *eventQueue) check() string {
	for i := 0; i+1 < q.nf; i++ {
		if !q.front[i+1].before(&q.front[i]) {
			return "events in front out of order"
		}
	}
	if q.nf > 0 && len(q.h) > 0 && !q.front[0].before(&q.h[0]) {
		return "an event in front after the heap's least"
	}
	for i := 1; i < len(q.h); i++ {
		if q.h[i].before(&q.h[(i-1)/4]) {
			return "heap out of order"
		}
	}
	for i := range q.nf {
		if q.front[i].kind() != evQuantum && q.pos[q.front[i].slot()] != inFront(i) {
			return "slot of an event in front"
		}
	}
	for i := range q.h {
		if q.h[i].kind() != evQuantum && q.pos[q.h[i].slot()] != int32(i) {
			return "slot of an event in the heap"
		}
	}
	return ""
}
