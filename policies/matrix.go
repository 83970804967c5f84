package policies

import (
	"cmp"
	"math/bits"
	"slices"
)

// columns is a set of matrix columns (processors, or nodes under node
// allocation) as a bitset.
type columns []uint64

func newColumns(n int) columns { return make(columns, (n+63)/64) }

func (c columns) has(i int) bool { return c[i>>6]&(1<<(i&63)) != 0 }
func (c columns) set(i int)      { c[i>>6] |= 1 << (i & 63) }

// count is the number of columns in the set.
func (c columns) count() int {
	n := 0
	for _, w := range c {
		n += bits.OnesCount64(w)
	}
	return n
}

// jobColumns are a job's columns: the words [lo, lo+len(w)) of a set of
// columns, every other word empty. A job's columns take a few words of a
// machine of thousands, and the checks of a slot's run set go over them
// for every job; this keeps each check to the job's own words.
type jobColumns struct {
	lo int
	w  columns
}

// trimmed returns the words of c that hold columns, as jobColumns.
func trimmed(c columns) jobColumns { return trimmedIn(c, 0, len(c)) }

// trimmedIn is trimmed of c whose columns all lie in the words [lo, hi).
func trimmedIn(c columns, lo, hi int) jobColumns {
	for lo < hi && c[lo] == 0 {
		lo++
	}
	for hi > lo && c[hi-1] == 0 {
		hi--
	}
	return jobColumns{lo: lo, w: slices.Clone(c[lo:hi])}
}

func (j jobColumns) has(i int) bool {
	w := i>>6 - j.lo
	return w >= 0 && w < len(j.w) && j.w[w]&(1<<(i&63)) != 0
}

func (j jobColumns) count() int { return j.w.count() }

// each calls f with every column of j, in order.
func (j jobColumns) each(f func(int)) {
	for k, w := range j.w {
		for ; w != 0; w &= w - 1 {
			f((j.lo+k)<<6 + bits.TrailingZeros64(w))
		}
	}
}

// overlapsJob reports whether c and the job's columns j share a column.
func (c columns) overlapsJob(j jobColumns) bool { return c[j.lo : j.lo+len(j.w)].overlaps(j.w) }

// addJob adds the job's columns j to c.
func (c columns) addJob(j jobColumns) { c[j.lo : j.lo+len(j.w)].add(j.w) }

// removeJob removes the job's columns j from c.
func (c columns) removeJob(j jobColumns) { c[j.lo : j.lo+len(j.w)].remove(j.w) }

// setRange adds the columns [start, end) to c.
func (c columns) setRange(start, end int) {
	for start < end {
		w, b := start>>6, start&63
		n := min(64-b, end-start)
		mask := ^uint64(0)
		if n < 64 {
			mask = (1<<n - 1) << b
		}
		c[w] |= mask
		start += n
	}
}

// clearRange removes the columns [start, end) from c.
func (c columns) clearRange(start, end int) {
	for start < end {
		w, b := start>>6, start&63
		n := min(64-b, end-start)
		mask := ^uint64(0)
		if n < 64 {
			mask = (1<<n - 1) << b
		}
		c[w] &^= mask
		start += n
	}
}

// anyIn reports whether c has a column in [start, end).
func (c columns) anyIn(start, end int) bool {
	for start < end {
		w, b := start>>6, start&63
		n := min(64-b, end-start)
		mask := ^uint64(0)
		if n < 64 {
			mask = (1<<n - 1) << b
		}
		if c[w]&mask != 0 {
			return true
		}
		start += n
	}
	return false
}

// overlaps reports whether c and d share a column.
func (c columns) overlaps(d columns) bool {
	for i, w := range c {
		if w&d[i] != 0 {
			return true
		}
	}
	return false
}

func (c columns) add(d columns) {
	for i, w := range d {
		c[i] |= w
	}
}

func (c columns) remove(d columns) {
	for i, w := range d {
		c[i] &^= w
	}
}

// Allocation rules of the Ousterhout matrix.
const (
	allocFirstFit     = "ff"       // the first row with enough free columns; its lowest free columns
	allocFirstFitLong = "firstfit" // the same, by its full name (the parameter's alias)
	allocDHC          = "dhc"      // buddy blocks of distributed hierarchical control, least loaded first
)

// matrix is an Ousterhout matrix: rows are time slots, columns processors
// (or nodes); every job sits in one row, on columns of its own. Rows that
// empty are removed, so every row holds at least one job and the rows in
// use are len(rows); their order is the round robin's.
type matrix struct {
	tmp columns // the columns of the last placement find returned
	// tmpLo, tmpHi: the words of tmp that may hold columns
	tmpLo, tmpHi int
	cols         int
	mpl          int    // at most this many rows
	alloc        string // allocFirstFit or allocDHC
	rows         []*row
	idx          *loadIndex // DHC on a wide machine: the blocks' loads, word by word
	vers         uint64     // the last row version given (bump)
}

// row is one time slot of the matrix.
type row struct {
	taken columns
	jobs  []*gangJob // in placement order
	// nz has a bit for every word of taken that is not empty, kept with
	// the matrix's loadIndex (nil without one).
	nz columns
	// ver changes with every change of the row's jobs (matrix.bump): a
	// plan of its slot holds while it is the same.
	ver uint64
}

// bump records a change of rw's jobs: a version no row of m had.
func (m *matrix) bump(rw *row) {
	m.vers++
	rw.ver = m.vers
}

// dhcIndexWords is the machine width, in words of 64 columns, from which a
// DHC matrix keeps a loadIndex: below it, scanning every word is as cheap
// as keeping the index. Tests lower it to check the index on small
// matrices.
var dhcIndexWords = 32

func newMatrix(cols, mpl int, alloc string) *matrix {
	m := &matrix{cols: cols, mpl: mpl, alloc: alloc}
	if w := (cols + 63) / 64; alloc == allocDHC && w >= dhcIndexWords {
		m.idx = newLoadIndex(w)
	}
	return m
}

// loadIndex keeps, for every block size below 64 columns and every word of
// the machine, the least load of the word's blocks of that size (the rows
// taking any of a block's columns; blocks past the machine's edge
// included, as their columns are never taken), and the least of those
// over every group of 64 words: DHC then finds the least loaded block
// without counting every word of every row. A word's least load is the
// rows that take all of it (full) and the least load of its blocks over
// the rows that take part of it (part). A job's columns are mostly whole
// words: a change of them adds one to or takes one from their full counts,
// and from the least of the groups they cover; the other words a change
// touches are recounted from the rows when the index is next read
// (matrix.flush), and so are the groups they are in. It gives exactly the
// block the scan over every word gives.
type loadIndex struct {
	full  []uint8    // full[w]: the rows taking all of word w
	part  [6][]uint8 // part[k][w]: the least load of word w's blocks of 2^k columns over the rows taking part of it
	group [6][]uint8 // group[k][g]: the least load of the words [64g, 64g+64)'s blocks of 2^k columns
	// The words to recount, and the groups, as sets and lists.
	stale, restale columns
	words, groups  []int
}

func newLoadIndex(words int) *loadIndex {
	x := &loadIndex{full: make([]uint8, words), stale: newColumns(words), restale: newColumns((words + 63) / 64)}
	for k := range x.part {
		x.part[k] = make([]uint8, words)
		x.group[k] = make([]uint8, (words+63)/64)
	}
	return x
}

// least is the least load of word w's blocks of 2^k columns.
func (x *loadIndex) least(k, w int) int { return int(x.full[w]) + int(x.part[k][w]) }

// copyFrom makes x a copy of src, which has nothing to recount.
func (x *loadIndex) copyFrom(src *loadIndex) {
	x.full = append(x.full[:0], src.full...)
	for k := range x.part {
		x.part[k] = append(x.part[k][:0], src.part[k]...)
		x.group[k] = append(x.group[k][:0], src.group[k]...)
	}
	x.stale = append(x.stale[:0], src.stale...)
	x.restale = append(x.restale[:0], src.restale...)
	x.words, x.groups = x.words[:0], x.groups[:0]
}

// newRow appends an empty row to the matrix.
func (m *matrix) newRow() *row {
	rw := &row{taken: newColumns(m.cols)}
	if m.idx != nil {
		rw.nz = newColumns((m.cols + 63) / 64)
	}
	m.rows = append(m.rows, rw)
	return rw
}

// changed follows into the loadIndex a change of rw's columns: it took
// (delta 1) or freed (delta -1) those of w, the words of a set of columns
// from the word lo, all of them free in rw before it took them, all its
// own before it freed them.
func (m *matrix) changed(rw *row, w columns, lo, delta int) {
	x := m.idx
	if x == nil {
		return
	}
	for i := 0; i < len(w); {
		switch w[i] {
		case 0:
			i++
		case ^uint64(0):
			j := i + 1
			for j < len(w) && w[j] == ^uint64(0) {
				j++
			}
			m.wholeWords(rw, lo+i, lo+j, delta)
			i = j
		default:
			if wi := lo + i; !x.stale.has(wi) {
				x.stale.set(wi)
				x.words = append(x.words, wi)
			}
			i++
		}
	}
}

// wholeWords follows rw taking (delta 1) or freeing (delta -1) all of the
// words [a, b): every block there gains or loses a row.
func (m *matrix) wholeWords(rw *row, a, b, delta int) {
	x := m.idx
	d := uint8(delta) // -1 wraps round: adding 255 takes one
	if delta > 0 {
		rw.nz.setRange(a, b)
	} else {
		rw.nz.clearRange(a, b)
	}
	for w := a; w < b; w++ {
		x.full[w] += d
	}
	for g := a >> 6; g<<6 < b; g++ {
		if a <= g<<6 && min(g<<6+64, len(x.full)) <= b {
			for k := range x.group {
				x.group[k][g] += d
			}
		} else {
			m.regroup(g)
		}
	}
}

// regroup marks group g to be counted again.
func (m *matrix) regroup(g int) {
	if x := m.idx; !x.restale.has(g) {
		x.restale.set(g)
		x.groups = append(x.groups, g)
	}
}

// flush recounts the marked words of the loadIndex, then the least load
// of the marked groups.
func (m *matrix) flush() {
	x := m.idx
	for _, w := range x.words {
		x.stale[w>>6] &^= 1 << (w & 63)
		m.recount(w)
	}
	x.words = x.words[:0]
	for _, g := range x.groups {
		x.restale[g>>6] &^= 1 << (g & 63)
		end := min(64*g+64, len(x.full))
		for k := range x.group {
			least := 255
			for w := 64 * g; w < end; w++ {
				least = min(least, x.least(k, w))
			}
			x.group[k][g] = uint8(least)
		}
	}
	x.groups = x.groups[:0]
}

// recount sets word w's counts and the rows' nz bits of it from the rows,
// and marks its group.
func (m *matrix) recount(w int) {
	x := m.idx
	full, partial := 0, false
	var planes [6][7]uint64 // per block size, counts up to 64 rows (maxMPL)
	for _, rw := range m.rows {
		occ := rw.taken[w]
		switch occ {
		case 0:
			rw.nz[w>>6] &^= 1 << (w & 63)
			continue
		case ^uint64(0):
			full++
			rw.nz[w>>6] |= 1 << (w & 63)
			continue
		}
		rw.nz[w>>6] |= 1 << (w & 63)
		partial = true
		for k := range planes {
			if k > 0 {
				occ |= occ >> (1 << (k - 1)) // a block of 2^k marks its first column
			}
			carry := occ & groupStarts[k]
			for b := 0; carry != 0; b++ {
				planes[k][b], carry = planes[k][b]^carry, planes[k][b]&carry
			}
		}
	}
	x.full[w] = uint8(full)
	for k := range planes {
		least := uint8(0)
		for partial && least < 64 && lessThan(&planes[k], int(least)+1)&groupStarts[k] == 0 {
			least++
		}
		x.part[k][w] = least
	}
	m.regroup(w >> 6)
}

// leastLoaded returns the leftmost of the blocks of size columns (a power
// of two below 64) holding need columns before the machine's edge whose
// load (the rows taking any of its columns) is least, and that load; load
// -1 if there is none (every block is taken in every row and the matrix
// has its most rows). Each word's blocks are counted together: a row
// marks the first column of every block it takes, and the marks are
// added bit-sliced (plane k holds bit k of every block's count).
func (m *matrix) leastLoaded(size, need int) (start, load int) {
	starts := groupStarts[bits.TrailingZeros(uint(size))]
	load, start = -1, 0
	// below: only loads under it can win. A block taken in every row
	// cannot when no row may be added.
	below := len(m.rows) + 1
	if len(m.rows) >= m.mpl {
		below = len(m.rows)
	}
	if m.idx != nil {
		return m.leastLoadedIndexed(size, need, below)
	}
	// Once a block no row takes is found, none further right beats it.
	for wi := 0; wi*64 < m.cols && below > 0; wi++ {
		valid := starts
		if last := m.cols - need - wi*64; last < 63 { // block starts beyond it do not hold need
			if last < 0 {
				break
			}
			valid &= 1<<(last+1) - 1
		}
		planes := m.wordPlanes(wi, size) // counts up to 64 rows (maxMPL); only valid blocks are read
		for cand := lessThan(&planes, below) & valid; cand != 0; cand &= cand - 1 {
			b := bits.TrailingZeros64(cand)
			n := 0
			for k := range planes {
				n |= int(planes[k]>>b&1) << k
			}
			if n < below {
				load, start, below = n, wi*64+b, n
			}
		}
	}
	return start, load
}

// leastLoadedIndexed is leastLoaded from the loadIndex: the least load of
// the words whose blocks all hold need columns before the machine's edge,
// group by group then word by word, against the word where the blocks
// that do stop, counted from the rows; then the leftmost block of that
// load in the leftmost word that has it.
func (m *matrix) leastLoadedIndexed(size, need, below int) (start, load int) {
	k := bits.TrailingZeros(uint(size))
	last := m.cols - need // the last start that holds need
	if last < 0 {
		return 0, -1
	}
	lastW := last >> 6
	x := m.idx
	group := x.group[k]
	best, bestW := 255, -1 // over the words before lastW
	for g := 0; 64*g < lastW; g++ {
		if 64*g+64 <= lastW {
			if int(group[g]) < best {
				best, bestW = int(group[g]), -2-g // resolved below
			}
			continue
		}
		for w := 64 * g; w < lastW; w++ {
			if l := x.least(k, w); l < best {
				best, bestW = l, w
			}
		}
	}
	if bestW < -1 {
		bestW = 64 * (-2 - bestW)
		for x.least(k, bestW) != best {
			bestW++
		}
	}
	valid := groupStarts[k]
	if r := last - lastW*64; r < 63 {
		valid &= 1<<(r+1) - 1
	}
	// The last word wins only with a block less loaded than every word's
	// before it (the leftmost wins ties).
	w := lastW
	planes := m.wordPlanes(lastW, size)
	if bestW >= 0 && lessThan(&planes, best)&valid == 0 {
		w, valid = bestW, groupStarts[k]
		planes = m.wordPlanes(w, size)
	}
	for n := 0; n < below; n++ {
		if c := lessThan(&planes, n+1) & valid; c != 0 {
			return w*64 + bits.TrailingZeros64(c), n
		}
	}
	return 0, -1
}

// wordPlanes counts, bit-sliced, the rows taking any column of each block
// of size columns (below 64) in word w, at the block's first column.
func (m *matrix) wordPlanes(w, size int) [7]uint64 {
	var planes [7]uint64
	starts := groupStarts[bits.TrailingZeros(uint(size))]
	for _, rw := range m.rows {
		occ := rw.taken[w]
		for sh := 1; sh < size; sh <<= 1 {
			occ |= occ >> sh
		}
		carry := occ & starts
		for k := 0; carry != 0; k++ {
			planes[k], carry = planes[k]^carry, planes[k]&carry
		}
	}
	return planes
}

// lessThan returns the bits whose bit-sliced count in planes (plane k
// holding bit k) is below v, 0 <= v < 128.
func lessThan(planes *[7]uint64, v int) uint64 {
	var lt uint64
	eq := ^uint64(0)
	for k := len(planes) - 1; k >= 0; k-- {
		if v>>k&1 == 1 {
			lt |= eq &^ planes[k]
			eq &= planes[k]
		} else {
			eq &^= planes[k]
		}
	}
	return lt
}

// groupStarts[k] has a bit at the first column of every group of 2^k
// columns of a word (k < 6).
var groupStarts = [6]uint64{^uint64(0), 0x5555555555555555, 0x1111111111111111,
	0x0101010101010101, 0x0001000100010001, 0x0000000100000001}

// placement is where a job would go: an existing row (index) or a new one
// (index len(rows)), and its columns. The columns are the matrix's scratch
// space, valid until the next find: place copies them.
type placement struct {
	row  int
	cols columns
	// lo, hi: the words of cols that may hold columns (hi 0: all of them)
	lo, hi int
}

// words returns the words of p.cols that may hold columns, and the first's
// index.
func (p placement) words() (columns, int) {
	if p.hi == 0 {
		return p.cols, 0
	}
	return p.cols[p.lo:p.hi], p.lo
}

// find returns where a job of need columns would be placed, or ok false if
// it fits nowhere (every row lacks room and no row may be added).
func (m *matrix) find(need int, pin []int) (p placement, ok bool) {
	if need > m.cols || need <= 0 {
		return placement{}, false
	}
	if len(pin) == need {
		return m.findPinned(pin)
	}
	switch m.alloc {
	case allocDHC:
		return m.findDHC(need)
	default:
		return m.findFirstFit(need)
	}
}

// findPinned places a job whose columns are given (a hand-placed job of the
// static scenarios, model.App.Pin): in the first row where they are all
// free, a new one if none is and the MPL allows.
func (m *matrix) findPinned(pin []int) (placement, bool) {
	cols := m.scratchColumns()
	for _, c := range pin {
		if c < 0 || c >= m.cols {
			return placement{}, false
		}
		cols.set(c)
	}
	for r, rw := range m.rows {
		if !rw.taken.overlaps(cols) {
			return placement{row: r, cols: cols}, true
		}
	}
	if len(m.rows) < m.mpl {
		return placement{row: len(m.rows), cols: cols}, true
	}
	return placement{}, false
}

// findFirstFit: the first row (a new one last) with need free columns; the
// lowest-numbered free columns of it.
func (m *matrix) findFirstFit(need int) (placement, bool) {
	r := m.firstFitRow(need)
	if r < 0 {
		return placement{}, false
	}
	cols := m.scratchColumns()
	if r == len(m.rows) {
		for w := 0; need > 0; w++ {
			n := min(need, 64)
			cols[w] = ^uint64(0) >> (64 - n)
			need -= n
		}
		return placement{row: r, cols: cols}, true
	}
	taken := m.rows[r].taken
	for w := 0; need > 0; w++ {
		free := ^taken[w]
		if n := (w + 1) * 64; n > m.cols {
			free &= ^uint64(0) >> (n - m.cols) // columns past the last
		}
		if c := bits.OnesCount64(free); c <= need {
			cols[w] = free
			need -= c
			continue
		}
		// The lowest need free columns of this word.
		for ; need > 0; need-- {
			low := free & -free
			cols[w] |= low
			free ^= low
		}
	}
	return placement{row: r, cols: cols}, true
}

// firstFitRow is the row first fit places a job of need columns in: the
// first with need free columns, len(rows) for a new one, or -1 if none may
// be added.
func (m *matrix) firstFitRow(need int) int {
	for r := 0; r <= len(m.rows) && r < m.mpl; r++ {
		if r == len(m.rows) || m.cols-m.rows[r].taken.count() >= need {
			return r
		}
	}
	return -1
}

// fits reports whether find would place a job of need columns (pinned to
// pin): first fit's unpinned jobs without building the placement.
func (m *matrix) fits(need int, pin []int) bool {
	if m.alloc != allocDHC && len(pin) != need && need > 0 && need <= m.cols {
		return m.firstFitRow(need) >= 0
	}
	_, ok := m.find(need, pin)
	return ok
}

// findDHC allocates as distributed hierarchical control does (Feitelson and
// Rudolph; the buddy system of ParPar and STORM, thesis 4.2.1): the job
// needs a block of the smallest power of two of columns that holds it,
// aligned on its size, of which it takes the first need columns. Among the
// blocks, the least loaded (the fewest rows with any of its columns taken)
// is chosen, the leftmost on ties; the job goes into the first row where
// that block is wholly free, a new row if none is and the MPL allows.
func (m *matrix) findDHC(need int) (placement, bool) {
	if m.idx != nil {
		m.flush()
	}
	size := 1
	for size < need {
		size <<= 1
	}
	bestLoad, bestStart, bestRow := -1, 0, 0
	found := false
	if size < 64 {
		// Blocks within words: every block's load counted a word at a
		// time, bit-sliced over the rows.
		if bestStart, bestLoad = m.leastLoaded(size, need); bestLoad >= 0 {
			bestRow = len(m.rows)
			for r, rw := range m.rows {
				if !rw.taken.anyIn(bestStart, min(bestStart+size, m.cols)) {
					bestRow = r
					break
				}
			}
		}
		found = true
	}
	for start := 0; !found && start+need <= m.cols; start += size {
		end := min(start+size, m.cols)
		first, load := -1, 0
		for r, rw := range m.rows {
			if m.anyIn(rw, start, end) {
				load++
			} else if first < 0 {
				first = r
			}
		}
		if first < 0 {
			if len(m.rows) >= m.mpl {
				continue
			}
			first = len(m.rows)
		}
		if bestLoad < 0 || load < bestLoad {
			bestLoad, bestStart, bestRow = load, start, first
			if load == 0 && first == 0 {
				break // an empty block in the first row: nothing beats it
			}
		}
	}
	if bestLoad < 0 {
		return placement{}, false
	}
	cols := m.scratchColumns()
	cols.setRange(bestStart, bestStart+need)
	m.tmpLo, m.tmpHi = bestStart>>6, (bestStart+need+63)>>6
	return placement{bestRow, cols, m.tmpLo, m.tmpHi}, true
}

// anyIn reports whether rw takes a column in [start, end), start a
// multiple of 64: with a loadIndex, from the words rw takes any of.
func (m *matrix) anyIn(rw *row, start, end int) bool {
	if m.idx != nil {
		return rw.nz.anyIn(start>>6, (end+63)>>6)
	}
	return rw.taken.anyIn(start, end)
}

// place puts g at p, adding a row if p says so.
func (m *matrix) place(g *gangJob, p placement) {
	if p.row == len(m.rows) {
		m.newRow()
	}
	rw := m.rows[p.row]
	if p.hi == 0 {
		g.row, g.cols = rw, trimmed(p.cols)
	} else {
		g.row, g.cols = rw, trimmedIn(p.cols, p.lo, p.hi)
	}
	if g.single = len(g.cols.w) == 1; g.single {
		g.word = g.cols.w[0]
	}
	rw.taken.addJob(g.cols)
	rw.jobs = append(rw.jobs, g)
	m.bump(rw)
	m.changed(rw, g.cols.w, g.cols.lo, 1)
}

// remove takes g out of the matrix; its row is removed if it empties.
func (m *matrix) remove(g *gangJob) {
	rw := g.row
	rw.taken.removeJob(g.cols)
	m.changed(rw, g.cols.w, g.cols.lo, -1)
	i := slices.Index(rw.jobs, g)
	rw.jobs = slices.Delete(rw.jobs, i, i+1)
	m.bump(rw)
	g.row = nil
	if len(rw.jobs) == 0 {
		m.rows = slices.DeleteFunc(m.rows, func(r *row) bool { return r == rw })
	}
}

// repack moves jobs to earlier rows where their columns are all free, in
// row order and, within a row, placement order, and removes the rows that
// empty. It unifies rows whose jobs fit together and so lowers the
// multiprogramming level in use (Feitelson and Rudolph's slot
// unification, job by job). It reports whether anything moved.
func (m *matrix) repack() bool {
	moved := false
	for r := 1; r < len(m.rows); r++ {
		rw := m.rows[r]
		for i := 0; i < len(rw.jobs); {
			g := rw.jobs[i]
			to := -1
			for e := 0; e < r; e++ {
				if !m.rows[e].taken.overlapsJob(g.cols) {
					to = e
					break
				}
			}
			if to < 0 {
				i++
				continue
			}
			rw.taken.removeJob(g.cols)
			m.changed(rw, g.cols.w, g.cols.lo, -1)
			rw.jobs = slices.Delete(rw.jobs, i, i+1)
			dst := m.rows[to]
			dst.taken.addJob(g.cols)
			m.changed(dst, g.cols.w, g.cols.lo, 1)
			dst.jobs = append(dst.jobs, g)
			m.bump(rw)
			m.bump(dst)
			slices.SortFunc(dst.jobs, func(a, b *gangJob) int { return cmp.Compare(a.seq, b.seq) })
			g.row = dst
			moved = true
		}
	}
	if moved {
		m.rows = slices.DeleteFunc(m.rows, func(r *row) bool { return len(r.jobs) == 0 })
	}
	return moved
}

// index is the position of rw in the round robin, or -1 if it was removed.
func (m *matrix) index(rw *row) int { return slices.Index(m.rows, rw) }

// copyFrom makes m a copy of src's occupancy (the rows' taken columns, not
// the jobs), reusing m's storage: the scratch matrix in which backfilling
// projects the future.
func (m *matrix) copyFrom(src *matrix) {
	m.cols, m.mpl, m.alloc = src.cols, src.mpl, src.alloc
	switch {
	case src.idx == nil:
		m.idx = nil
	case m.idx == nil:
		m.idx = &loadIndex{}
	}
	if m.idx != nil {
		src.flush()
		m.idx.copyFrom(src.idx)
	}
	m.rows = m.rows[:min(len(m.rows), len(src.rows))]
	for len(m.rows) < len(src.rows) {
		m.newRow()
	}
	for i, rw := range src.rows {
		dst := m.rows[i]
		if len(dst.taken) != len(rw.taken) {
			dst.taken = newColumns(m.cols)
		}
		copy(dst.taken, rw.taken)
		if m.idx != nil {
			if len(dst.nz) != len(rw.nz) {
				dst.nz = make(columns, len(rw.nz))
			}
			copy(dst.nz, rw.nz)
		}
		dst.jobs = nil
	}
}

// vacate frees cols in row r of a scratch matrix (the row stays, empty or
// not: an empty row is as good as a new one to find).
func (m *matrix) vacate(r int, cols columns) {
	m.rows[r].taken.remove(cols)
	m.changed(m.rows[r], cols, 0, -1)
}

// vacateJob is vacate of a job's columns.
func (m *matrix) vacateJob(r int, cols jobColumns) {
	m.rows[r].taken.removeJob(cols)
	m.changed(m.rows[r], cols.w, cols.lo, -1)
}

// occupyPlaced is occupy of a placement's columns, found in another matrix
// of the same size.
func (m *matrix) occupyPlaced(pl placement) {
	if pl.row == len(m.rows) {
		m.newRow()
	}
	w, lo := pl.words()
	m.rows[pl.row].taken[lo : lo+len(w)].add(w)
	m.changed(m.rows[pl.row], w, lo, 1)
}

// vacatePlaced is vacate of a placement's columns.
func (m *matrix) vacatePlaced(pl placement) {
	w, lo := pl.words()
	m.rows[pl.row].taken[lo : lo+len(w)].remove(w)
	m.changed(m.rows[pl.row], w, lo, -1)
}

// occupy takes cols in row r of a scratch matrix, adding the row if r is
// len(rows).
func (m *matrix) occupy(r int, cols columns) {
	if r == len(m.rows) {
		m.newRow()
	}
	m.rows[r].taken.add(cols)
	m.changed(m.rows[r], cols, 0, 1)
}

// scratchColumns returns the matrix's scratch column set, emptied.
func (m *matrix) scratchColumns() columns {
	if len(m.tmp) != (m.cols+63)/64 {
		m.tmp = newColumns(m.cols)
	} else {
		clear(m.tmp[m.tmpLo:m.tmpHi])
	}
	m.tmpLo, m.tmpHi = 0, len(m.tmp) // callers that know better narrow it
	return m.tmp
}
