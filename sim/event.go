package sim

import "github.com/gangsim/gangsim/model"

type eventKind uint8

const (
	evArrival eventKind = iota
	evCompletion
	evTimer
	evPass // OrderPyss: the pass of a completion at its estimate, in creation order
)

// event is one entry of the engine's heap.
type event struct {
	at   model.Time
	rank uint8  // position of the kind at equal times, from the Order rule
	seq  uint64 // creation order: the final tie-breaker
	kind eventKind
	gen  uint32 // for completions: the job's gen when scheduled; stale if different
	job  *Job
	tag  int64 // for timers: the policy's tag
}

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.seq < b.seq
}

// eventHeap is a binary min-heap of events by (at, rank, seq). It is written
// out rather than built on container/heap to avoid interface calls on the
// engine's hottest path.
type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].before(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s[n] = event{}
	s = s[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].before(&s[l]) {
			m = r
		}
		if !s[m].before(&s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

func (h eventHeap) peek() *event { return &h[0] }
