package procsim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestEventQueueOrder: pushes, cancels and pops interleaved at random come
// out in (time, push order), as a sorted list of the pending events says;
// an event pushed in a timer slot replaces the one pending there, and a
// canceled one never comes out.
func TestEventQueueOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	const slots = 16
	q.grow(slots + 1)
	var pending []event // the reference, sorted
	drop := func(slot int32) {
		pending = slices.DeleteFunc(pending, func(e event) bool { return slot != 0 && e.slot == slot })
	}
	now := model.Time(0)
	for step := 0; step < 200000; step++ {
		if r.IntN(100) < 10 {
			slot := int32(1 + r.IntN(slots))
			q.cancel(slot)
			drop(slot)
			continue
		}
		if len(pending) == 0 || r.IntN(100) < 52 {
			// Times near now, many equal: ties are broken by push order.
			// Half the events have no slot (0), the others one of a few.
			e := event{at: now + model.Time(r.IntN(50)), who: int32(step)}
			if r.IntN(2) == 0 {
				e.slot = int32(1 + r.IntN(slots))
			}
			drop(e.slot)
			q.push(e)
			e.seq = q.seq - 1
			// Stated here, not with event.before: the reference must not
			// share the queue's comparison.
			i, _ := slices.BinarySearchFunc(pending, e, func(a, b event) int {
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
		if got != want {
			t.Fatalf("step %d: popped %+v, want %+v", step, got, want)
		}
		now = got.at
		if q.len() != len(pending) {
			t.Fatalf("step %d: %d queued, want %d", step, q.len(), len(pending))
		}
	}
}
