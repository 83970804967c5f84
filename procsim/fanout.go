package procsim

import "github.com/gangsim/gangsim/model"

// All-to-all messages as one record per sender and call.
//
// In an all-to-all round every process sends the same message to each of
// the p-1 others, and they all leave its NIC at once: they arrive at the
// same instant, and the message to the k-th partner takes the k-th
// sequence number of the block the send reserved (its receive slot k of
// the round). Kept one by one in the receivers' slots, a round is p(p-1)
// messages and every wait looks at p-1 slots: a replay's work grows with
// the square of job size. A fanout keeps one record per sender and call
// instead (its arrival and its block), so that a send costs O(1), and a
// receiver's wait finds what it needs from the call's two latest records:
// the wait ends at the latest arrival among the p-1 others', the receiver's
// own excluded, and among records of one instant the one of the latest
// block comes last, at its first number plus the receiver's index among
// the sender's partners. Nothing about the order of events changes: every
// message keeps the arrival and the sequence number it had in its slot.
//
// A job switched out (GS) or moved on by a skip has its messages in flight
// re-timed, and each message takes a new sequence number in the order the
// receivers' slots were once walked (receiver by receiver, slot by slot,
// the messages of a slot in order): an epoch. A re-timed record keeps its
// place among its sender's records in flight, from which, with the
// epoch's counts in flight per sender, each receiver's number follows in
// O(1). Among re-timed records of one instant the latest for a receiver is
// the one of the sender that comes first after it (its last slot): the
// epoch keeps, per call, the senders of its latest instant in circular
// order.
//
// A record arrived for a receiver when its message did (arrived). A call
// whose messages have all arrived, at every receiver, before now is
// dropped: every receiver has received it. At the strobes and skips that
// re-time them (between instants), the messages in flight are those that
// arrive after now, at every receiver alike.

// fanout is an all-to-all job's messages.
type fanout struct {
	n    int    // processes
	span uint64 // sequence numbers a send takes: one per partner, one more for a buffered call's completion
	bcs  bool   // a send also completes its sender's call (its own last receive slot)
	lo   int    // the calls below lo have arrived everywhere (dropped)
	gens []*fcall
	pool []*fcall
	sent []int        // per sender: the calls it has posted
	last []model.Time // per sender: the arrival of its last message (in every slot it feeds)
	ep   fepoch       // the numbering of the last re-timing
	tmp  []int        // scratch: per sender, its records in flight
}

// frec is a sender's message of one call, to every partner.
type frec struct {
	at   model.Time // model.Never while its job is switched out (held)
	seq  uint64     // fresh: the first number of its block; re-timed: its place among its sender's records then in flight
	left model.Time // held: the time it had left when its job was switched out
	ep   uint32     // 0: fresh; else the epoch that re-timed it
}

// fcall is one call (an iteration's round) of every sender.
type fcall struct {
	rec []frec // by sender
	cnt int    // senders that posted it
	top [2]int32
	// The epoch's latest instant in this call, and its senders: next[x]
	// is the first sender at or after x, circularly, that the epoch
	// re-timed to epAt (-1: none).
	epoch uint32
	epAt  model.Time
	next  []int32
}

// fepoch is the numbering of a re-timing: base is its first sequence
// number, pc the prefix sums of the records in flight per sender then,
// tot their sum.
type fepoch struct {
	id   uint32
	base uint64
	pc   []uint64
	tot  uint64
}

func newFanout(n int, bcs bool) *fanout {
	f := &fanout{n: n, span: uint64(n - 1), bcs: bcs, sent: make([]int, n), last: make([]model.Time, n)}
	if bcs {
		f.span++
	}
	return f
}

// call returns call g, which must not be dropped, adding it (and those
// before it) if no sender has posted it yet.
func (f *fanout) call(g int) *fcall {
	for g-f.lo >= len(f.gens) {
		var c *fcall
		if n := len(f.pool); n > 0 {
			c = f.pool[n-1]
			f.pool = f.pool[:n-1]
		} else {
			c = &fcall{rec: make([]frec, f.n)}
		}
		c.cnt, c.top, c.epoch, c.epAt = 0, [2]int32{-1, -1}, 0, 0
		f.gens = append(f.gens, c)
	}
	return f.gens[g-f.lo]
}

// drop drops the calls whose messages have all arrived, everywhere, before
// now.
func (f *fanout) drop(now model.Time) {
	k := 0
	for k < len(f.gens) {
		c := f.gens[k]
		if c.cnt < f.n || c.rec[c.top[0]].at >= now {
			break
		}
		f.pool = append(f.pool, c)
		k++
	}
	if k > 0 {
		f.gens = f.gens[:copy(f.gens, f.gens[k:])]
		f.lo += k
	}
}

// laterRec reports whether record a comes after record b in the order of a
// receiver's events, whoever the receiver (neither sent by it): by arrival;
// at one instant a fresh record after a re-timed one, and a fresh one
// after those of earlier blocks. Two records re-timed to one instant rank
// alike: which comes last depends on the receiver.
func laterRec(a, b *frec) bool {
	if a.at != b.at {
		return a.at > b.at
	}
	if (a.ep == 0) != (b.ep == 0) {
		return a.ep == 0
	}
	return a.ep == 0 && a.seq > b.seq
}

// rank puts sender x's record of call c among c's two latest.
func (c *fcall) rank(x int32) {
	r := &c.rec[x]
	switch {
	case c.top[0] < 0 || laterRec(r, &c.rec[c.top[0]]):
		c.top[0], c.top[1] = x, c.top[0]
	case c.top[1] < 0 || laterRec(r, &c.rec[c.top[1]]):
		c.top[1] = x
	}
}

// rerank finds the two latest records of call g (c) anew.
func (f *fanout) rerank(c *fcall, g int) {
	c.top = [2]int32{-1, -1}
	for x := range f.n {
		if f.sent[x] > g {
			c.rank(int32(x))
		}
	}
}

// post records sender x's next call, its messages arriving at at (no
// earlier than its previous ones: each receive slot delivers in order),
// with first sequence number seq. It returns the call's number, and
// whether every sender has now posted it.
func (f *fanout) post(x int, at model.Time, seq uint64) (g int, complete bool) {
	g = f.sent[x]
	c := f.call(g)
	at = max(at, f.last[x])
	f.last[x] = at
	c.rec[x] = frec{at: at, seq: seq}
	c.cnt++
	c.rank(int32(x))
	f.sent[x]++
	return g, c.cnt == f.n
}

// slot is receiver y's receive slot of sender x's messages (x != y): the
// index of y among x's partners. A buffered call's completion, x's own, is
// its last slot.
func (f *fanout) slot(x, y int) int {
	if x == y {
		return f.n - 1
	}
	return ((y-x-1)%f.n + f.n) % f.n
}

// key is when receiver y receives sender x's message of record r, and its
// sequence number (0 for a message re-timed by an earlier epoch: it has
// arrived long since).
func (f *fanout) key(r *frec, x, y int) msg {
	switch {
	case r.at == model.Never:
		return msg{at: r.at}
	case r.ep == 0:
		return msg{at: r.at, seq: r.seq + uint64(f.slot(x, y))}
	case r.ep != f.ep.id:
		return msg{at: r.at}
	}
	// Receiver by receiver, slot by slot: the receivers before y took tot
	// less their own each; y's slots before x's hold the messages in
	// flight of the senders y-1, y-2, ... down to x+1.
	pc, n := f.ep.pc, f.n
	seq := f.ep.base + uint64(y)*f.ep.tot - pc[y] + r.seq
	sl := f.slot(x, y)
	if y-sl >= 0 {
		seq += pc[y] - pc[y-sl]
	} else {
		seq += pc[y] + pc[n] - pc[n+y-sl]
	}
	return msg{at: r.at, seq: seq}
}

func laterMsg(a, b msg) bool { return a.at > b.at || a.at == b.at && a.seq > b.seq }

// wait is the message receiver y waits for last in call g, which every
// sender has posted: the latest of the others' (and, buffered, its own
// call's completion).
func (f *fanout) wait(y, g int) msg {
	c := f.gens[g-f.lo]
	x := c.top[0]
	if int(x) == y {
		x = c.top[1]
	}
	r := &c.rec[x]
	var w msg
	switch {
	case r.at == model.Never || r.ep == 0 || r.ep != f.ep.id:
		w = f.key(r, int(x), y)
	case c.epoch == f.ep.id && r.at == c.epAt && c.next[(y+1)%f.n] != int32(y):
		// Re-timed to the epoch's latest instant: the first such sender
		// after y comes last for y.
		z := int(c.next[(y+1)%f.n])
		w = f.key(&c.rec[z], z, y)
	default:
		w = f.scan(y, g)
	}
	if f.bcs {
		if own := f.key(&c.rec[y], y, y); laterMsg(own, w) {
			w = own
		}
	}
	return w
}

// scan is wait's answer, record by record.
func (f *fanout) scan(y, g int) msg {
	c := f.gens[g-f.lo]
	var w msg
	found := false
	for x := range f.n {
		if x == y {
			continue
		}
		if k := f.key(&c.rec[x], x, y); !found || laterMsg(k, w) {
			w, found = k, true
		}
	}
	if f.bcs {
		if own := f.key(&c.rec[y], y, y); laterMsg(own, w) {
			w = own
		}
	}
	return w
}

// posted reports whether every sender has posted call g (dropped calls
// included).
func (f *fanout) posted(g int) bool {
	return g < f.lo || g-f.lo < len(f.gens) && f.gens[g-f.lo].cnt == f.n
}

// inFlight calls fn with every record posted and not yet arrived at now
// (between instants: arriving after now), sender by sender, in order.
func (f *fanout) inFlight(now model.Time, fn func(x int, r *frec)) {
	for x := range f.n {
		for g := f.lo; g < f.sent[x]; g++ {
			if r := &f.gens[g-f.lo].rec[x]; r.at > now {
				fn(x, r)
			}
		}
	}
}

// hold switches the records in flight out (a GS job switched out at now):
// each keeps the time it has left.
func (f *fanout) hold(now model.Time) {
	f.inFlight(now, func(_ int, r *frec) { r.left, r.at = r.at-now, model.Never })
	for k, c := range f.gens {
		f.rerank(c, f.lo+k)
	}
}

// retime re-times the records in flight at now, sender by sender in order
// (to is given the sender, the record and the arrival of the sender's
// message before it in its slots, and returns the record's new arrival),
// and numbers them as an epoch from the sequence numbers reserve hands
// out. It returns the messages re-timed.
func (f *fanout) retime(now model.Time, to func(x int, r *frec, prev model.Time) model.Time, reserve func(uint64) uint64) uint64 {
	if f.bcs {
		panic("procsim: a buffered call re-timed")
	}
	n := f.n
	if cap(f.ep.pc) < n+1 {
		f.ep.pc = make([]uint64, n+1)
	}
	f.ep.pc = f.ep.pc[:n+1]
	if cap(f.tmp) < n {
		f.tmp = make([]int, n)
	}
	cnt := f.tmp[:n]
	clear(cnt)
	f.ep.id++
	id := f.ep.id
	f.inFlight(now, func(x int, r *frec) {
		r.at = to(x, r, f.last[x])
		f.last[x] = r.at
		r.seq, r.ep = uint64(cnt[x]), id
		cnt[x]++
	})
	for x := range n {
		f.ep.pc[x+1] = f.ep.pc[x] + uint64(cnt[x])
	}
	f.ep.tot = f.ep.pc[n]
	total := f.ep.tot * uint64(n-1) // every receiver but the sender
	f.ep.base = reserve(total)
	for k, c := range f.gens {
		g := f.lo + k
		f.rerank(c, g)
		c.epoch, c.epAt = id, 0
		found := false
		for x := range n {
			if r := &c.rec[x]; f.sent[x] > g && r.ep == id && (!found || r.at > c.epAt) {
				c.epAt, found = r.at, true
			}
		}
		if !found {
			c.epoch = 0
			continue
		}
		if cap(c.next) < n {
			c.next = make([]int32, n)
		}
		c.next = c.next[:n]
		first := int32(-1)
		for x := 2*n - 1; x >= 0; x-- { // twice round: the circular successor
			if r := &c.rec[x%n]; f.sent[x%n] > g && r.ep == id && r.at == c.epAt {
				first = int32(x % n)
			}
			if x < n {
				c.next[x] = first
			}
		}
	}
	return total
}

// shift moves every call number on by dk (a skip over dk iterations).
func (f *fanout) shift(dk int) {
	f.lo += dk
	for x := range f.sent {
		f.sent[x] += dk
	}
}

// received is how many of sender x's messages receiver y has received
// (arrived by now: arrived tells).
func (f *fanout) received(x, y int, arrived func(msg) bool) int {
	k := f.lo
	for g := f.lo; g < f.sent[x]; g++ {
		if !arrived(f.key(&f.gens[g-f.lo].rec[x], x, y)) {
			break
		}
		k++
	}
	return k
}

// armCall arms the wake-ups of job j's waiting processes whose wait the
// last send of call g completed: they have all they need on its way now.
func (s *Sim) armCall(j *job, g int) {
	for _, pi := range j.procs {
		if q := &s.procs[pi]; q.phase == phWait && (q.running || q.blocked) && q.need-1 == g {
			s.armWait(q, pi)
		}
	}
}

// armAll arms the wake-ups of job j's waiting processes, its messages in
// flight just re-timed.
func (s *Sim) armAll(j *job) {
	for _, pi := range j.procs {
		if q := &s.procs[pi]; q.phase == phWait && (q.running || q.blocked) {
			s.armWait(q, pi)
		}
	}
}

// fanNext is the earliest arrival of a message of fo still in flight.
func (s *Sim) fanNext(fo *fanout) model.Time {
	next := model.Never
	for x := range fo.n {
		for g := fo.lo; g < fo.sent[x]; g++ {
			r := &fo.gens[g-fo.lo].rec[x]
			if r.at < s.now || r.at >= next {
				continue
			}
			if r.at > s.now {
				next = r.at
				continue
			}
			for y := range fo.n { // arriving now: for every receiver yet?
				if (y != x || fo.bcs) && !s.arrived(fo.key(r, x, y)) {
					next = r.at
					break
				}
			}
		}
	}
	return next
}
