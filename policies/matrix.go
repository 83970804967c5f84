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
func trimmed(c columns) jobColumns {
	lo, hi := 0, len(c)
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
	tmp   columns // the columns of the last placement find returned
	cols  int
	mpl   int    // at most this many rows
	alloc string // allocFirstFit or allocDHC
	rows  []*row
}

// row is one time slot of the matrix.
type row struct {
	taken columns
	jobs  []*gangJob // in placement order
}

func newMatrix(cols, mpl int, alloc string) *matrix {
	return &matrix{cols: cols, mpl: mpl, alloc: alloc}
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
	var planes [7]uint64 // counts up to 64 rows (maxMPL)
	// Once a block no row takes is found, none further right beats it.
	for wi := 0; wi*64 < m.cols && below > 0; wi++ {
		valid := starts
		if last := m.cols - need - wi*64; last < 63 { // block starts beyond it do not hold need
			if last < 0 {
				break
			}
			valid &= 1<<(last+1) - 1
		}
		clear(planes[:])
		for _, rw := range m.rows {
			occ := rw.taken[wi]
			for sh := 1; sh < size; sh <<= 1 {
				occ |= occ >> sh
			}
			carry := occ & valid
			for k := 0; carry != 0; k++ {
				planes[k], carry = planes[k]^carry, planes[k]&carry
			}
		}
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
			return placement{r, cols}, true
		}
	}
	if len(m.rows) < m.mpl {
		return placement{len(m.rows), cols}, true
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
		return placement{r, cols}, true
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
	return placement{r, cols}, true
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
			if rw.taken.anyIn(start, end) {
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
	return placement{bestRow, cols}, true
}

// place puts g at p, adding a row if p says so.
func (m *matrix) place(g *gangJob, p placement) {
	if p.row == len(m.rows) {
		m.rows = append(m.rows, &row{taken: newColumns(m.cols)})
	}
	rw := m.rows[p.row]
	g.row, g.cols = rw, trimmed(p.cols)
	rw.taken.addJob(g.cols)
	rw.jobs = append(rw.jobs, g)
}

// remove takes g out of the matrix; its row is removed if it empties.
func (m *matrix) remove(g *gangJob) {
	rw := g.row
	rw.taken.removeJob(g.cols)
	i := slices.Index(rw.jobs, g)
	rw.jobs = slices.Delete(rw.jobs, i, i+1)
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
			rw.jobs = slices.Delete(rw.jobs, i, i+1)
			dst := m.rows[to]
			dst.taken.addJob(g.cols)
			dst.jobs = append(dst.jobs, g)
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
	for len(m.rows) < len(src.rows) {
		m.rows = append(m.rows, &row{taken: newColumns(m.cols)})
	}
	m.rows = m.rows[:len(src.rows)]
	for i, rw := range src.rows {
		dst := m.rows[i]
		if len(dst.taken) != len(rw.taken) {
			dst.taken = newColumns(m.cols)
		}
		copy(dst.taken, rw.taken)
		dst.jobs = nil
	}
}

// vacate frees cols in row r of a scratch matrix (the row stays, empty or
// not: an empty row is as good as a new one to find).
func (m *matrix) vacate(r int, cols columns) {
	m.rows[r].taken.remove(cols)
}

// vacateJob is vacate of a job's columns.
func (m *matrix) vacateJob(r int, cols jobColumns) {
	m.rows[r].taken.removeJob(cols)
}

// occupy takes cols in row r of a scratch matrix, adding the row if r is
// len(rows).
func (m *matrix) occupy(r int, cols columns) {
	if r == len(m.rows) {
		m.rows = append(m.rows, &row{taken: newColumns(m.cols)})
	}
	m.rows[r].taken.add(cols)
}

// scratchColumns returns the matrix's scratch column set, emptied.
func (m *matrix) scratchColumns() columns {
	if len(m.tmp) != (m.cols+63)/64 {
		m.tmp = newColumns(m.cols)
	}
	clear(m.tmp)
	return m.tmp
}
