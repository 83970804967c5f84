package policies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// Direct tests of the gang scheduler's rules (package documentation,
// "Gang scheduling"), each on a case small enough to work out by hand.

// placeJob places a job of need columns with find and place, as the policy
// does, and returns it (or nil if it fits nowhere).
func placeJob(m *matrix, seq uint64, need int) *gangJob {
	pl, ok := m.find(need, nil)
	if !ok {
		return nil
	}
	g := &gangJob{need: need, seq: seq}
	m.place(g, pl)
	return g
}

// colSpan returns the first column of g and whether its columns are the
// contiguous run [first, first+need).
func colSpan(m *matrix, g *gangJob) (first int, contiguous bool) {
	first = -1
	for c := range m.cols {
		if g.cols.has(c) {
			if first < 0 {
				first = c
			}
			if c >= first+g.need {
				return first, false
			}
		}
	}
	return first, first >= 0 && g.cols.count() == g.need
}

// TestDHCBuddyBlocks: a job of n columns takes the first n of a block of
// the smallest power of two b >= n columns, aligned on b, the least loaded
// block (fewest rows with any of its columns taken) and the leftmost on
// ties, in the first row where the block is wholly free.
func TestDHCBuddyBlocks(t *testing.T) {
	m := newMatrix(16, 3, allocDHC)
	a := placeJob(m, 1, 3)  // block of 4 at 0
	b := placeJob(m, 2, 5)  // block of 8: the one at 0 is loaded, 8 is not
	c := placeJob(m, 3, 2)  // block of 2: 0 and 2 are loaded, 4 is free
	d := placeJob(m, 4, 16) // the whole machine: a new row
	e := placeJob(m, 5, 2)  // block of 2: 6 is loaded once (by d), the others twice
	f := placeJob(m, 6, 4)  // block of 4: all loaded twice: the leftmost, in a new row
	for _, tc := range []struct {
		name       string
		g          *gangJob
		first, row int
	}{{"3 columns", a, 0, 0}, {"5 columns", b, 8, 0}, {"2 columns", c, 4, 0}, {"16 columns", d, 0, 1}, {"2 more columns", e, 6, 0}, {"4 columns", f, 0, 2}} {
		if tc.g == nil {
			t.Fatalf("%s: not placed", tc.name)
		}
		first, ok := colSpan(m, tc.g)
		if !ok || first != tc.first || m.index(tc.g.row) != tc.row {
			t.Errorf("%s: columns from %d (contiguous %v) in row %d, want from %d in row %d", tc.name, first, ok, m.index(tc.g.row), tc.first, tc.row)
		}
	}
	// A block cut short by the machine's edge is used if it holds the job:
	// on 12 columns, 3 columns go in the block of 4 at 8 once 0 and 4 are
	// loaded.
	m = newMatrix(12, 2, allocDHC)
	placeJob(m, 1, 4)
	placeJob(m, 2, 4)
	if g := placeJob(m, 3, 3); g == nil || m.index(g.row) != 0 {
		t.Fatalf("3 columns on 12: %+v", g)
	} else if first, _ := colSpan(m, g); first != 8 {
		t.Errorf("3 columns on 12: from %d, want 8", first)
	}
}

// TestDHCBuddyBlocksRandom checks every DHC placement of random sequences
// of placements and removals against the rule, block by block: aligned,
// contiguous, in the first row where its block is free, no block with a
// row to take it less loaded, none to its left as little loaded.
func TestDHCBuddyBlocksRandom(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		cols := []int{8, 12, 16, 24, 32}[r.IntN(5)]
		m := newMatrix(cols, 1+r.IntN(4), allocDHC)
		var in []*gangJob
		for step := range 60 {
			if len(in) > 0 && r.IntN(3) == 0 {
				i := r.IntN(len(in))
				m.remove(in[i])
				m.repack()
				in = slices.Delete(in, i, i+1)
				continue
			}
			need := 1 + r.IntN(cols)
			if r.IntN(2) == 0 {
				need = min(1<<r.IntN(5), cols)
			}
			// The rule, worked out from the rows before the placement.
			size := 1
			for size < need {
				size <<= 1
			}
			type block struct{ start, load, row int }
			var usable []block
			for start := 0; start+need <= cols; start += size {
				bl := block{start, 0, -1}
				for ri, rw := range m.rows {
					if rw.taken.anyIn(start, min(start+size, cols)) {
						bl.load++
					} else if bl.row < 0 {
						bl.row = ri
					}
				}
				if bl.row < 0 && len(m.rows) < m.mpl {
					bl.row = len(m.rows)
				}
				if bl.row >= 0 {
					usable = append(usable, bl)
				}
			}
			g := placeJob(m, uint64(step+1), need)
			desc := fmt.Sprintf("seed %d, step %d: %d columns on %d, mpl %d", seed, step, need, cols, m.mpl)
			if len(usable) == 0 {
				if g != nil {
					t.Fatalf("%s: placed where no block has a free row", desc)
				}
				continue
			}
			want := usable[0]
			for _, bl := range usable[1:] {
				if bl.load < want.load {
					want = bl
				}
			}
			if g == nil {
				t.Fatalf("%s: not placed; block at %d in row %d was free", desc, want.start, want.row)
			}
			first, ok := colSpan(m, g)
			if !ok || first%size != 0 || first != want.start || m.index(g.row) != want.row {
				t.Fatalf("%s: from column %d (contiguous %v) in row %d, want the block at %d (load %d) in row %d",
					desc, first, ok, m.index(g.row), want.start, want.load, want.row)
			}
			in = append(in, g)
		}
	}
}

// TestMatrixRepack: when jobs leave, every job of a later row moves to the
// earliest earlier row where its columns are free, keeping them, and rows
// that empty are removed; jobs that cannot move stay.
func TestMatrixRepack(t *testing.T) {
	m := newMatrix(8, 4, allocFirstFit)
	a := placeJob(m, 1, 4) // row 0, columns 0-3
	b := placeJob(m, 2, 4) // row 0, columns 4-7
	c := placeJob(m, 3, 4) // row 1, columns 0-3
	d := placeJob(m, 4, 8) // row 2
	e := placeJob(m, 5, 4) // row 1, columns 4-7
	rowsOf := func() [][]uint64 {
		var out [][]uint64
		for _, rw := range m.rows {
			var seqs []uint64
			for _, g := range rw.jobs {
				seqs = append(seqs, g.seq)
			}
			out = append(out, seqs)
		}
		return out
	}
	check := func(step string, want [][]uint64) {
		t.Helper()
		if got := rowsOf(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: rows %v, want %v", step, got, want)
		}
	}
	check("placed", [][]uint64{{1, 2}, {3, 5}, {4}})
	// b leaves: e (columns 4-7) moves up to row 0, c cannot (a holds 0-3).
	m.remove(b)
	if !m.repack() {
		t.Fatal("repack moved nothing")
	}
	check("b left", [][]uint64{{1, 5}, {3}, {4}})
	if first, _ := colSpan(m, e); first != 4 {
		t.Errorf("e moved to columns from %d, want 4 (its own)", first)
	}
	// a leaves: c moves to row 0, whose jobs stay in placement order; row
	// 1 empties and is removed; d (all columns) stays in the last row.
	m.remove(a)
	m.repack()
	check("a left", [][]uint64{{3, 5}, {4}})
	// Nothing can move: repack says so.
	if m.repack() {
		t.Error("repack moved something in a packed matrix")
	}
	m.remove(c)
	m.remove(e) // row 0 empties and is removed; d is alone
	check("c and e left", [][]uint64{{4}})
	_ = d

	// A job free to move to two earlier rows goes to the earliest.
	m = newMatrix(8, 4, allocFirstFit)
	jobs := make([]*gangJob, 6)
	for i := range jobs {
		jobs[i] = placeJob(m, uint64(i+1), 4) // rows {1, 2}, {3, 4}, {5, 6}
	}
	m.remove(jobs[1])
	m.remove(jobs[3])
	m.repack()
	check("2 and 4 left", [][]uint64{{1, 6}, {3}, {5}})
}

// TestGangAlternate: with alternative scheduling a job whose columns are
// idle in another row's slot also runs there, and a job that runs in
// consecutive slots goes on without a switch. On 8 processors, A (6) and
// C (2) share row 0, B (4) is alone in row 1: C also runs in B's slot, so
// it runs all the time and ends after its 10 s, never switched, while A and
// B take turns; without alternative scheduling C takes turns with B.
func TestGangAlternate(t *testing.T) {
	jobs := []model.Job{
		{ID: 1, Runtime: 10 * model.Second, AllocProcs: 6, Estimate: 10 * model.Second, Known: model.AllFields},
		{ID: 2, Runtime: 10 * model.Second, AllocProcs: 4, Estimate: 10 * model.Second, Known: model.AllFields},
		{ID: 3, Runtime: 10 * model.Second, AllocProcs: 2, Estimate: 10 * model.Second, Known: model.AllFields},
	}
	env := Env{Machine: model.FlatMachine(8), Hardware: Hardware{Costs: fixedSwitch(10 * model.Millisecond), Preset: "test"}}
	for _, alt := range []bool{true, false} {
		p := NewGang(GangConfig{MPL: 2, Quantum: model.Second, Alloc: allocFirstFit, Alternate: alt, Backfill: "none"}, env)
		var list model.OutcomeList
		if err := sim.New(sim.Config{Machine: env.Machine}, p).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &list, nil); err != nil {
			t.Fatal(err)
		}
		out := list.ByID()
		c := out[3]
		if alt {
			if c.End != 10*model.Second || c.Switches != 0 || c.SwitchLoss != 0 {
				t.Errorf("alternate: C ended at %v after %d switches (%v), want 10s and none", c.End, c.Switches, c.SwitchLoss)
			}
		} else if c.End < 19*model.Second || c.Switches == 0 {
			t.Errorf("no alternate: C ended at %v after %d switches, want 19s or later, switched", c.End, c.Switches)
		}
		// A and B take turns either way: each ends after about twice its
		// run time, every slot but its first starting with a switch.
		for _, id := range []int64{1, 2} {
			if o := out[id]; o.End < 19*model.Second || o.Switches < 9 || o.SwitchLoss != model.Time(o.Switches)*10*model.Millisecond {
				t.Errorf("alternate %v: job %d ended at %v after %d switches costing %v", alt, id, o.End, o.Switches, o.SwitchLoss)
			}
		}
	}
	// The run sets: row 1's slot runs B, then C from row 0.
	m := newMatrix(8, 2, allocFirstFit)
	p := &Gang{cfg: GangConfig{Alternate: true}, m: m}
	a, b, c := placeJob(m, 1, 6), placeJob(m, 2, 4), placeJob(m, 3, 2)
	if got := p.runSet(nil, m.rows[1], nil); !slices.Equal(got, []*gangJob{b, c}) {
		t.Errorf("row 1's slot runs %d jobs, want B then C", len(got))
	}
	if got := p.runSet(nil, m.rows[0], nil); !slices.Equal(got, []*gangJob{a, c}) {
		t.Errorf("row 0's slot runs %d jobs, want A and C", len(got))
	}
}

// TestGangEASYEstimateTimesMPL: in front of the matrix, EASY's shadow time
// takes every matrix job to run for its estimate times the MPL (Zhang et
// al., thesis 6.4.1). On 4 processors with MPL 2: A (4 processors, 100 s)
// fills row 0, B (2, estimate 10 s) half of row 1; C (4) cannot be placed
// and waits for row 1, expected free at 0 + 10 x 2 = 20 s. D (2), arriving
// at 1 s, fits beside B now: it is backfilled if it is expected to end by
// 20 s (1 + 2 x 9.5 s), not if a little later (1 + 2 x 9.6 s), since it
// would hold row 1's columns C needs. With estimates taken once (shadow
// 10 s) the 9.5 s job would not be backfilled.
func TestGangEASYEstimateTimesMPL(t *testing.T) {
	job := func(id int64, submit, est model.Time, procs int) model.Job {
		return model.Job{ID: id, Submit: submit, Runtime: est, Estimate: est, AllocProcs: procs, Known: model.AllFields}
	}
	for _, tc := range []struct {
		est        model.Time
		backfilled bool
	}{{9500 * model.Millisecond, true}, {9600 * model.Millisecond, false}} {
		jobs := []model.Job{job(1, 0, 100*model.Second, 4), job(2, 0, 10*model.Second, 2),
			job(3, 500*model.Millisecond, 10*model.Second, 4), job(4, model.Second, tc.est, 2)}
		env := Env{Machine: model.FlatMachine(4)}
		p := NewGang(GangConfig{MPL: 2, Quantum: model.Second, Alloc: allocFirstFit, Backfill: "easy"}, env)
		var list model.OutcomeList
		if err := sim.New(sim.Config{Machine: env.Machine}, p).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &list, nil); err != nil {
			t.Fatal(err)
		}
		out := list.ByID()
		if got := out[4].Start == model.Second; got != tc.backfilled {
			t.Errorf("D with estimate %v: started at %v; backfilled %v, want %v", tc.est, out[4].Start, got, tc.backfilled)
		}
		if out[3].Start < 19*model.Second {
			t.Errorf("D with estimate %v: C started at %v, before B could have ended", tc.est, out[3].Start)
		}
	}
}

// TestGangStartIsPlacement: a job's Start is when it leaves the queue for
// the matrix, not when its row's slot first comes (model.Outcome.Start):
// two 4-processor jobs of 10 s submitted at 0 on 4 processors are both
// placed at 0, in two rows; the second first runs at 1 s, but its wait is
// 0, and it ends at 20 s.
func TestGangStartIsPlacement(t *testing.T) {
	jobs := []model.Job{
		{ID: 1, Runtime: 10 * model.Second, AllocProcs: 4, Known: model.AllFields},
		{ID: 2, Runtime: 10 * model.Second, AllocProcs: 4, Known: model.AllFields},
	}
	env := Env{Machine: model.FlatMachine(4)}
	p := NewGang(GangConfig{MPL: 2, Quantum: model.Second, Alloc: allocFirstFit, Backfill: "none"}, env)
	var list model.OutcomeList
	if err := sim.New(sim.Config{Machine: env.Machine}, p).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &list, nil); err != nil {
		t.Fatal(err)
	}
	out := list.ByID()
	for id, end := range map[int64]model.Time{1: 19 * model.Second, 2: 20 * model.Second} {
		o := out[id]
		if o.Start != 0 || o.Wait() != 0 || o.End != end || o.Runtime != end {
			t.Errorf("job %d: start %v, wait %v, end %v, runtime %v; want 0, 0, %v, %v", id, o.Start, o.Wait(), o.End, o.Runtime, end, end)
		}
	}
}

// TestGangEnterSwitches: a slot that starts at a change (not at a
// boundary) lets a job still being switched in go on with its switch
// (its end and its count kept), and charges a job it leaves out only the
// part of its switch that passed.
func TestGangEnterSwitches(t *testing.T) {
	m := newMatrix(8, 3, allocFirstFit)
	p := &Gang{cfg: GangConfig{Alternate: true}, m: m}
	g1 := placeJob(m, 1, 4) // row 0, columns 0-3
	g3 := placeJob(m, 2, 4) // row 0, columns 4-7
	g2 := placeJob(m, 3, 4) // row 1, columns 0-3
	// The current slot began at 10 s with a 50 ms switch into g2 and g3.
	const at0, cost = 10 * model.Second, 50 * model.Millisecond
	for _, g := range []*gangJob{g2, g3} {
		g.on, g.switchedAt, g.onFrom, g.loss = true, at0, at0+cost, cost
	}
	p.onList = []*gangJob{g2, g3} // the jobs running, as enter leaves them
	g1.switchedAt = model.Never
	// At 10.02 s a new slot of row 0 starts, with a 10 ms switch.
	at := at0 + 20*model.Millisecond
	sl := slotPlan{row: m.rows[0], run: []*gangJob{g1, g3}, cost: 10 * model.Millisecond}
	p.enter(&sl, nil, at)
	if !g3.on || g3.onFrom != at0+cost || g3.switchedAt != at0 || g3.loss != cost {
		t.Errorf("g3, still switching, goes on: on %v from %v switched at %v loss %v; want its switch kept (from %v, at %v, loss %v)",
			g3.on, g3.onFrom, g3.switchedAt, g3.loss, at0+cost, at0, cost)
	}
	if !g1.on || g1.onFrom != at+10*model.Millisecond || g1.switchedAt != at {
		t.Errorf("g1, switched in: on %v from %v switched at %v", g1.on, g1.onFrom, g1.switchedAt)
	}
	if g2.on || g2.loss != 20*model.Millisecond {
		t.Errorf("g2, left out 20 ms into its switch: on %v, loss %v; want off, 20ms", g2.on, g2.loss)
	}
}

// dhcBlockByBlock is DHC's placement as the package documentation states
// it, block by block and row by row: the reference of TestDHCEqualsBlockByBlock.
func dhcBlockByBlock(m *matrix, need int) (row, start int, ok bool) {
	size := 1
	for size < need {
		size <<= 1
	}
	bestLoad := -1
	for s := 0; s+need <= m.cols; s += size {
		end := min(s+size, m.cols)
		first, load := -1, 0
		for r, rw := range m.rows {
			taken := false
			for c := s; c < end; c++ {
				taken = taken || rw.taken.has(c)
			}
			if taken {
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
			bestLoad, start, row = load, s, first
		}
	}
	return row, start, bestLoad >= 0
}

// TestDHCEqualsBlockByBlock checks DHC's placement (a free block found a
// word at a time, else block by block) against the reference on random
// matrices of up to 700 columns, sparse and dense, every job size.
func TestDHCEqualsBlockByBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20000; trial++ {
		cols := 1 + rng.IntN(700)
		m := newMatrix(cols, 1+rng.IntN(6), allocDHC)
		for r := rng.IntN(m.mpl + 1); r > 0; r-- {
			rw := &row{taken: newColumns(cols)}
			density := rng.Float64() * rng.Float64()
			for c := 0; c < cols; c++ {
				if rng.Float64() < density {
					rw.taken.set(c)
				}
			}
			m.rows = append(m.rows, rw)
		}
		need := 1 + rng.IntN(cols)
		wantRow, wantStart, wantOK := dhcBlockByBlock(m, need)
		pl, ok := m.find(need, nil)
		if ok != wantOK {
			t.Fatalf("trial %d: %d columns, need %d: found %v, block by block %v", trial, cols, need, ok, wantOK)
		}
		if !ok {
			continue
		}
		want := newColumns(cols)
		for c := wantStart; c < wantStart+need; c++ {
			want.set(c)
		}
		if pl.row != wantRow || !slices.Equal(pl.cols, want) {
			t.Fatalf("trial %d: %d columns, need %d: row %d %x, block by block row %d from %d", trial, cols, need, pl.row, pl.cols, wantRow, wantStart)
		}
	}
}
