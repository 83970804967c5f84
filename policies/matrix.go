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
	for start := 0; start+need <= m.cols; start += size {
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
	for c := bestStart; c < bestStart+need; c++ {
		cols.set(c)
	}
	return placement{bestRow, cols}, true
}

// place puts g at p, adding a row if p says so.
func (m *matrix) place(g *gangJob, p placement) {
	if p.row == len(m.rows) {
		m.rows = append(m.rows, &row{taken: newColumns(m.cols)})
	}
	rw := m.rows[p.row]
	g.row, g.cols = rw, slices.Clone(p.cols)
	rw.taken.add(p.cols)
	rw.jobs = append(rw.jobs, g)
}

// remove takes g out of the matrix; its row is removed if it empties.
func (m *matrix) remove(g *gangJob) {
	rw := g.row
	rw.taken.remove(g.cols)
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
				if !m.rows[e].taken.overlaps(g.cols) {
					to = e
					break
				}
			}
			if to < 0 {
				i++
				continue
			}
			rw.taken.remove(g.cols)
			rw.jobs = slices.Delete(rw.jobs, i, i+1)
			dst := m.rows[to]
			dst.taken.add(g.cols)
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
