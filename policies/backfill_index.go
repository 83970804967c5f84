package policies

import (
	"math"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// backlog is a queue of waiting jobs in arrival order, indexed by size (the
// allocation units a job needs) and by duration (the runtime the scheduler
// assumes), so that backfilling finds the jobs that can start without
// visiting those that cannot. Every job gets an arrival number, its
// position in the queue; the jobs of each size are kept in arrival order
// under a tree of their least durations, and a tree over the sizes keeps
// each size's least duration and earliest arrival. The queries a
// backfilling pass makes cost O(log n) each (n the queued jobs), plus one
// per size that has a short enough job, whatever n is.
type backlog struct {
	slots []*sim.Job // job of arrival number base+i; nil once it left
	at    []slotRef  // where slots[i] is in the index
	base  int64      // arrival number of slots[0]
	head  int        // slots before head are nil
	n     int        // jobs queued
	next  int64      // arrival number of the next job

	sizes []*sizeList // by size; nil for sizes never queued
	// The tree over sizes, leaves at [w, 2w): leaf w+s is size s's least
	// duration and earliest arrival (noDur, noSeq when it has no job), and
	// with long set its greatest duration (noLong when it has no job).
	w      int
	minDur []model.Time
	first  []int64
	maxDur []model.Time
	// long makes the backlog keep the greatest durations too, for the
	// queries on long jobs (longSizes, longFrom).
	long bool
}

// slotRef is where a queued job is in the index: its size and its entry in
// that size's list (entry -1: not indexed).
type slotRef struct{ size, entry int32 }

const (
	noDur  = model.Time(math.MaxInt64) // no job, or a job that left
	noLong = model.Time(math.MinInt64) // no job, or a job that left (greatest durations)
	noSeq  = int64(math.MaxInt64)      // no job
)

// sizeList is the queued jobs of one size in arrival order: entry i is the
// job of arrival number seq[i], and dur[c+i] its duration (noDur once it
// left, and past the entries), where c = len(dur)/2 is a power of two: dur
// is a tree whose inner node k holds the least of its children 2k and
// 2k+1. hi, when the backlog is long, is the same tree of the greatest
// (noLong once left).
type sizeList struct {
	seq  []int64
	dur  []model.Time
	hi   []model.Time
	head int // entries before head have left
	live int
}

func (l *sizeList) leaves() int { return len(l.dur) / 2 }

// least is the least duration of the list's jobs (noDur when none).
func (l *sizeList) least() model.Time {
	if len(l.dur) == 0 {
		return noDur
	}
	return l.dur[1]
}

// earliest is the arrival number of the list's first job (noSeq when none).
func (l *sizeList) earliest() int64 {
	if l.live == 0 {
		return noSeq
	}
	return l.seq[l.head]
}

// gone reports whether entry i's job has left.
func (l *sizeList) gone(i int) bool { return l.dur[l.leaves()+i] == noDur }

// greatest is the greatest duration of the list's jobs (noLong when none;
// long backlogs only).
func (l *sizeList) greatest() model.Time {
	if len(l.hi) == 0 {
		return noLong
	}
	return l.hi[1]
}

// set gives entry i duration d (noDur: the job left) and updates the trees
// above it.
func (l *sizeList) set(i int, d model.Time) {
	k := l.leaves() + i
	l.dur[k] = d
	for k > 1 {
		k >>= 1
		m := min(l.dur[2*k], l.dur[2*k+1])
		if l.dur[k] == m {
			break
		}
		l.dur[k] = m
	}
	if l.hi == nil {
		return
	}
	if d == noDur {
		d = noLong
	}
	k = l.leaves() + i
	l.hi[k] = d
	for k > 1 {
		k >>= 1
		m := max(l.hi[2*k], l.hi[2*k+1])
		if l.hi[k] == m {
			break
		}
		l.hi[k] = m
	}
}

// rebuild sets every inner node of the trees from the leaves.
func (l *sizeList) rebuild() {
	for k := l.leaves() - 1; k >= 1; k-- {
		l.dur[k] = min(l.dur[2*k], l.dur[2*k+1])
	}
	for k := len(l.hi)/2 - 1; k >= 1; k-- {
		l.hi[k] = max(l.hi[2*k], l.hi[2*k+1])
	}
}

// after returns the index of the first entry whose arrival number is after
// seq.
func (l *sizeList) after(seq int64) int {
	lo, hi := l.head, len(l.seq)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l.seq[m] <= seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// shortFrom returns the first entry at or after i whose job is still queued
// and of duration at most d, or -1 if there is none.
func (l *sizeList) shortFrom(i int, d model.Time) int {
	c := l.leaves()
	if i >= len(l.seq) || l.least() > d {
		return -1
	}
	k := c + i
	if l.dur[k] > d {
		for {
			if k&1 == 0 && l.dur[k+1] <= d {
				k++
				break
			}
			k >>= 1
			if k <= 1 {
				return -1
			}
		}
		for k < c {
			k <<= 1
			if l.dur[k] > d {
				k++
			}
		}
	}
	return k - c
}

// longFrom returns the first entry at or after i whose job is still queued
// and longer than d, or -1 if there is none (long backlogs only).
func (l *sizeList) longFrom(i int, d model.Time) int {
	c := l.leaves()
	if i >= len(l.seq) || l.hi[1] <= d {
		return -1
	}
	// Climb from leaf i until a node to its right (or itself) holds a long
	// job, then descend to the leftmost such leaf.
	k := c + i
	if l.hi[k] <= d {
		for {
			if k&1 == 0 && l.hi[k+1] > d {
				k++
				break
			}
			k >>= 1
			if k <= 1 {
				return -1
			}
		}
		for k < c {
			k <<= 1
			if l.hi[k] <= d {
				k++
			}
		}
	}
	return k - c
}

// shortFirst returns the entry of the list's first job whose duration is at
// most d, or -1 if none is.
func (l *sizeList) shortFirst(d model.Time) int {
	if l.least() > d {
		return -1
	}
	c := l.leaves()
	k := 1
	for k < c {
		k <<= 1
		if l.dur[k] > d {
			k++
		}
	}
	return k - c
}

// push queues job j, whose size is need and duration dur; a job of negative
// need is queued but left out of the index (found only through front). It
// returns j's arrival number.
func (b *backlog) push(j *sim.Job, need int, dur model.Time) int64 {
	if b.head > 0 && b.head >= len(b.slots)-b.head {
		// The dead prefix outgrew the live part: move the live part down.
		n := copy(b.slots, b.slots[b.head:])
		copy(b.at, b.at[b.head:])
		clear(b.slots[n:])
		b.slots, b.at = b.slots[:n], b.at[:n]
		b.base += int64(b.head)
		b.head = 0
	}
	seq := b.next
	b.next++
	if need < 0 {
		b.slots = append(b.slots, j)
		b.at = append(b.at, slotRef{-1, -1})
		b.n++
		return seq
	}
	for need >= len(b.sizes) {
		b.sizes = append(b.sizes, nil)
	}
	if need >= b.w {
		b.grow(need)
	}
	l := b.sizes[need]
	if l == nil {
		l = &sizeList{}
		if b.long {
			l.hi = []model.Time{}
		}
		b.sizes[need] = l
	}
	if l.live == 0 {
		// Empty: start over at the front of its storage.
		l.seq, l.head = l.seq[:0], 0
	}
	if len(l.seq) == l.leaves() {
		b.makeRoom(l)
	}
	i := len(l.seq)
	l.seq = append(l.seq, seq)
	l.live++
	l.set(i, dur)
	b.slots = append(b.slots, j)
	b.at = append(b.at, slotRef{int32(need), int32(i)})
	b.n++
	b.update(need)
	return seq
}

// makeRoom makes room for one more entry in l: it moves the live entries
// down over the dead prefix if that is at least half of the list, else
// doubles the list's storage.
func (b *backlog) makeRoom(l *sizeList) {
	c := l.leaves()
	if l.head > 0 && l.head >= c/2 {
		n := copy(l.seq, l.seq[l.head:])
		l.seq = l.seq[:n]
		copy(l.dur[c:], l.dur[c+l.head:c+l.head+n])
		for k := c + n; k < 2*c; k++ {
			l.dur[k] = noDur
		}
		if l.hi != nil {
			copy(l.hi[c:], l.hi[c+l.head:c+l.head+n])
			for k := c + n; k < 2*c; k++ {
				l.hi[k] = noLong
			}
		}
		l.head = 0
		for i, s := range l.seq {
			if !l.gone(i) {
				b.at[s-b.base].entry = int32(i)
			}
		}
		l.rebuild()
		return
	}
	nc := max(2*c, 4)
	dur := make([]model.Time, 2*nc)
	copy(dur[nc:], l.dur[c:])
	for k := nc + c; k < 2*nc; k++ {
		dur[k] = noDur
	}
	l.dur = dur
	if l.hi != nil {
		hi := make([]model.Time, 2*nc)
		copy(hi[nc:], l.hi[c:])
		for k := nc + c; k < 2*nc; k++ {
			hi[k] = noLong
		}
		l.hi = hi
	}
	l.rebuild()
}

// grow widens the tree over sizes to hold size need.
func (b *backlog) grow(need int) {
	w := max(b.w, 8)
	for w <= need {
		w *= 2
	}
	minDur := make([]model.Time, 2*w)
	first := make([]int64, 2*w)
	for k := range minDur {
		minDur[k], first[k] = noDur, noSeq
	}
	copy(minDur[w:], b.minDur[b.w:])
	copy(first[w:], b.first[b.w:])
	var maxDur []model.Time
	if b.long {
		maxDur = make([]model.Time, 2*w)
		for k := range maxDur {
			maxDur[k] = noLong
		}
		copy(maxDur[w:], b.maxDur[b.w:])
	}
	b.w, b.minDur, b.first, b.maxDur = w, minDur, first, maxDur
	for k := w - 1; k >= 1; k-- {
		minDur[k] = min(minDur[2*k], minDur[2*k+1])
		first[k] = min(first[2*k], first[2*k+1])
		if maxDur != nil {
			maxDur[k] = max(maxDur[2*k], maxDur[2*k+1])
		}
	}
}

// update brings the tree over sizes up to date with size need's list.
func (b *backlog) update(need int) {
	l := b.sizes[need]
	k := b.w + need
	d, f := l.least(), l.earliest()
	if b.minDur[k] != d || b.first[k] != f {
		b.minDur[k], b.first[k] = d, f
		for k > 1 {
			k >>= 1
			d, f := min(b.minDur[2*k], b.minDur[2*k+1]), min(b.first[2*k], b.first[2*k+1])
			if b.minDur[k] == d && b.first[k] == f {
				break
			}
			b.minDur[k], b.first[k] = d, f
		}
	}
	if !b.long {
		return
	}
	k = b.w + need
	if g := l.greatest(); b.maxDur[k] != g {
		b.maxDur[k] = g
		for k > 1 {
			k >>= 1
			g := max(b.maxDur[2*k], b.maxDur[2*k+1])
			if b.maxDur[k] == g {
				break
			}
			b.maxDur[k] = g
		}
	}
}

// job returns the queued job of arrival number seq.
func (b *backlog) job(seq int64) *sim.Job { return b.slots[seq-b.base] }

// front returns the first queued job and its arrival number (nil when the
// queue is empty).
func (b *backlog) front() (*sim.Job, int64) {
	if b.n == 0 {
		return nil, noSeq
	}
	return b.slots[b.head], b.base + int64(b.head)
}

// remove takes the job of arrival number seq out of the queue.
func (b *backlog) remove(seq int64) {
	i := int(seq - b.base)
	b.slots[i] = nil
	if e := int(b.at[i].entry); e >= 0 {
		need := int(b.at[i].size)
		l := b.sizes[need]
		l.set(e, noDur)
		l.live--
		for l.head < len(l.seq) && l.gone(l.head) {
			l.head++
		}
		b.update(need)
	}
	b.n--
	if b.n == 0 {
		clear(b.slots)
		b.slots, b.at, b.head = b.slots[:0], b.at[:0], 0
		b.base = b.next
	} else {
		for b.slots[b.head] == nil {
			b.head++
		}
	}
}

// longSizes appends to out every size of at most need that has a job of
// duration over d, in increasing order (long backlogs only).
func (b *backlog) longSizes(need int, d model.Time, out []int) []int {
	if need < 0 || b.w == 0 || b.maxDur[1] <= d {
		return out
	}
	return b.longIn(1, 0, b.w, min(need, b.w-1), d, out)
}

func (b *backlog) longIn(k, lo, width, need int, d model.Time, out []int) []int {
	if b.maxDur[k] <= d || lo > need {
		return out
	}
	if width == 1 {
		return append(out, lo)
	}
	half := width / 2
	out = b.longIn(2*k, lo, half, need, d, out)
	return b.longIn(2*k+1, lo+half, half, need, d, out)
}

// firstUpTo returns the arrival number of the first queued job of size at
// most need (noSeq if there is none).
func (b *backlog) firstUpTo(need int) int64 {
	if need < 0 || b.w == 0 {
		return noSeq
	}
	lo, hi := b.w, b.w+min(need, b.w-1)+1 // leaves [lo, hi)
	f := noSeq
	for lo < hi {
		if lo&1 == 1 {
			f = min(f, b.first[lo])
			lo++
		}
		if hi&1 == 1 {
			hi--
			f = min(f, b.first[hi])
		}
		lo >>= 1
		hi >>= 1
	}
	return f
}

// shortSizes appends to out every size of at most need that has a job of
// duration at most d, in increasing order.
func (b *backlog) shortSizes(need int, d model.Time, out []int) []int {
	if need < 0 || b.w == 0 || b.minDur[1] > d {
		return out
	}
	return b.shortIn(1, 0, b.w, min(need, b.w-1), d, out)
}

// shortIn is shortSizes below node k, which covers sizes [lo, lo+width).
func (b *backlog) shortIn(k, lo, width, need int, d model.Time, out []int) []int {
	if b.minDur[k] > d || lo > need {
		return out
	}
	if width == 1 {
		return append(out, lo)
	}
	half := width / 2
	out = b.shortIn(2*k, lo, half, need, d, out)
	return b.shortIn(2*k+1, lo+half, half, need, d, out)
}

// candidate is the first job short enough to backfill of one size.
type candidate struct {
	seq  int64
	need int
}

// candidates is a heap of candidates, the earliest arrival on top.
type candidates []candidate

func (h candidates) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].seq < h[c].seq {
			c++
		}
		if h[i].seq <= h[c].seq {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

func (h candidates) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].seq <= h[i].seq {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h candidates) heapify() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// pop removes the top.
func (h *candidates) pop() {
	old := *h
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	h.down(0)
}

// backfill starts, in arrival order, every queued job but the first that
// fits in the free units and either has a duration of at most short or
// needs at most extra units, taking each started job of duration over
// short out of extra, exactly as walking the queue in order would; it
// visits only the jobs it starts, and the first short enough job of each
// size that fits at the start. startJob starts a job (which must lower
// e.Free() by need).
func (b *backlog) backfill(e *sim.Engine, short model.Time, extra int, dur func(*sim.Job) model.Time, heap *candidates, sizes *[]int, startJob func(*sim.Job)) {
	// Free units and extra only fall during the pass, so a job passed over
	// once cannot start later in it: the next job to start is always the
	// earliest queued one that qualifies at that moment. It is either a
	// short job (the first short one of its size, on the heap) or one that
	// needs at most extra units.
	*sizes = b.shortSizes(e.Free(), short, (*sizes)[:0])
	h := (*heap)[:0]
	for _, s := range *sizes {
		l := b.sizes[s]
		h = append(h, candidate{l.seq[l.shortFirst(short)], s})
	}
	h.heapify()
	for {
		free := e.Free()
		for len(h) > 0 && h[0].need > free {
			h.pop() // free only falls: this size is out for the pass
		}
		seq := noSeq
		if len(h) > 0 {
			seq = h[0].seq
		}
		seq = min(seq, b.firstUpTo(min(free, extra)))
		if seq == noSeq {
			break
		}
		j := b.job(seq)
		need := e.Need(j)
		if dur(j) > short {
			extra -= need // runs past the shadow time on spare processors
		}
		b.remove(seq)
		startJob(j)
		if len(h) > 0 && h[0].seq == seq {
			l := b.sizes[need]
			if i := l.shortFirst(short); i >= 0 {
				h[0].seq = l.seq[i]
				h.down(0)
			} else {
				h.pop()
			}
		}
	}
	*heap = h
}
