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
// never replaced. Times drawn at random fit the sorted runs in front of
// the heap often but not always: both hold events, and canceled events
// are marked dead in the runs.
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
	live := 0
	seen := 0
	for i := range nRuns {
		r := int(q.ord[i])
		seen |= 1 << r
		ru := &q.runs[r]
		if i > 0 && keyBefore(q.lastAt[i-1], q.lastK[i-1], q.lastAt[i], q.lastK[i]) {
			return "runs out of order of their last events"
		}
		if len(ru.buf) == 0 {
			if q.lastAt[i] != nowhereAt || q.lastK[i] != nowhereK {
				return "an empty run's first or last"
			}
			continue
		}
		if l := ru.buf[len(ru.buf)-1]; q.lastAt[i] != l.at || q.lastK[i]>>seqShift != l.seq() {
			return "a run's first or last"
		}
		if ru.head > 0 && ru.head == len(ru.buf) {
			return "an empty run not reset"
		}
		if isDead(&ru.buf[ru.head]) {
			return "a dead event at a run's front"
		}
		for i := ru.head; i < len(ru.buf); i++ {
			if i+1 < len(ru.buf) && !ru.buf[i].before(&ru.buf[i+1]) {
				return "a run out of order"
			}
			if isDead(&ru.buf[i]) {
				continue
			}
			live++
			if ru.buf[i].kind() != evQuantum && q.pos[ru.buf[i].slot()] != inRun(r, i) {
				return "slot of an event in a run"
			}
		}
	}
	if seen != 1<<nRuns-1 {
		return "runs missing from their order"
	}
	fseen := 0
	for i := range nRuns {
		r := int(q.fo[i])
		fseen |= 1 << r
		if i > 0 && keyBefore(q.firstAt[i], q.firstK[i], q.firstAt[i-1], q.firstK[i-1]) {
			return "runs out of order of their first events"
		}
		if ru := &q.runs[r]; len(ru.buf) == 0 && (q.firstAt[i] != neverAt || q.firstK[i] != neverK) || len(ru.buf) > 0 && (q.firstAt[i] != ru.buf[ru.head].at || q.firstK[i] != ru.buf[ru.head].k) {
			return "a run's first event"
		}
	}
	if fseen != 1<<nRuns-1 {
		return "runs missing from the order of first events"
	}
	if live != q.n {
		return "live events in the runs miscounted"
	}
	for i := 1; i < len(q.h); i++ {
		if q.h[i].before(&q.h[(i-1)/4]) {
			return "heap out of order"
		}
	}
	for i := range q.h {
		if q.h[i].kind() != evQuantum && q.pos[q.h[i].slot()] != int32(i) {
			return "slot of an event in the heap"
		}
	}
	return ""
}
