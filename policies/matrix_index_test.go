package policies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDHCIndexEqualsScan places and removes random jobs, repacking, in two
// DHC matrices, one with a loadIndex and one without, and checks at every
// step that both find the same placement for jobs of every kind of size,
// and that a scratch copy of each (jobs vacated, placements occupied, as
// backfilling projects) does too. Machines of 1 to 9,000 columns, edges
// within words and on them.
func TestDHCIndexEqualsScan(t *testing.T) {
	defer func(w int) { dhcIndexWords = w }(dhcIndexWords)
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 300
	if testing.Short() {
		trials = 60
	}
	for trial := range trials {
		cols := 1 + rng.IntN(9000)
		if rng.IntN(3) == 0 {
			cols = 64 * (1 + rng.IntN(140))
		}
		mpl := 1 + rng.IntN(6)
		dhcIndexWords = 1
		ix := newMatrix(cols, mpl, allocDHC)
		dhcIndexWords = 1 << 30
		plain := newMatrix(cols, mpl, allocDHC)
		if ix.idx == nil || plain.idx != nil {
			t.Fatal("the index is not where the test wants it")
		}
		need := func() int {
			switch rng.IntN(4) {
			case 0:
				return 1 + rng.IntN(min(cols, 63))
			case 1:
				return min(1<<rng.IntN(14), cols)
			default:
				return 1 + rng.IntN(1+rng.IntN(cols))
			}
		}
		var a, b []*gangJob
		var sa, sb matrix
		for step := range 120 {
			desc := fmt.Sprintf("trial %d, step %d: %d columns, mpl %d", trial, step, cols, mpl)
			if len(a) > 0 && rng.IntN(3) == 0 {
				i := rng.IntN(len(a))
				ix.remove(a[i])
				plain.remove(b[i])
				if ix.repack() != plain.repack() {
					t.Fatalf("%s: the repacks differ", desc)
				}
				a, b = slices.Delete(a, i, i+1), slices.Delete(b, i, i+1)
			} else {
				n := need()
				pa, oka := ix.find(n, nil)
				pb, okb := plain.find(n, nil)
				if oka != okb || oka && (pa.row != pb.row || !slices.Equal(pa.cols, pb.cols)) {
					t.Fatalf("%s: need %d: indexed %v row %d, scan %v row %d", desc, n, oka, pa.row, okb, pb.row)
				}
				if oka {
					seq := uint64(step + 1)
					ga, gb := &gangJob{need: n, seq: seq}, &gangJob{need: n, seq: seq}
					ix.place(ga, pa)
					plain.place(gb, pb)
					a, b = append(a, ga), append(b, gb)
				}
			}
			checkIndex(t, desc, ix)
			// A projection: vacate some jobs, occupy a placement, find.
			sa.copyFrom(ix)
			sb.copyFrom(plain)
			for i := range a {
				if rng.IntN(4) == 0 {
					sa.vacateJob(ix.index(a[i].row), a[i].cols)
					sb.vacateJob(plain.index(b[i].row), b[i].cols)
				}
			}
			n := need()
			if pa, ok := sa.find(n, nil); ok {
				pb, _ := sb.find(n, nil)
				if pa.row != pb.row || !slices.Equal(pa.cols, pb.cols) {
					t.Fatalf("%s: scratch: need %d: rows %d and %d", desc, n, pa.row, pb.row)
				}
				c := slices.Clone(pa.cols)
				sa.occupy(pa.row, c)
				sb.occupy(pb.row, c)
				checkIndex(t, desc+" (scratch)", &sa)
				if rng.IntN(2) == 0 {
					sa.vacate(pa.row, c)
					sb.vacate(pb.row, c)
				}
			}
			for range 3 {
				n := need()
				if sa.fits(n, nil) != sb.fits(n, nil) {
					t.Fatalf("%s: scratch: need %d: fits differ", desc, n)
				}
			}
		}
	}
}

// checkIndex fails t unless m's loadIndex holds what counting its rows
// gives.
func checkIndex(t *testing.T, desc string, m *matrix) {
	t.Helper()
	m.flush()
	x := m.idx
	for w := range x.full {
		full := 0
		for _, rw := range m.rows {
			if rw.taken[w] == ^uint64(0) {
				full++
			}
		}
		if int(x.full[w]) != full {
			t.Fatalf("%s: word %d: %d rows take all of it, the index says %d", desc, w, full, x.full[w])
		}
		for _, rw := range m.rows {
			if rw.nz.has(w) != (rw.taken[w] != 0) {
				t.Fatalf("%s: word %d: nz %v, taken %x", desc, w, rw.nz.has(w), rw.taken[w])
			}
		}
		for k := range x.part {
			planes := m.wordPlanes(w, 1<<k)
			n := 0
			for lessThan(&planes, n+1)&groupStarts[k] == 0 {
				n++
			}
			if x.least(k, w) != n {
				t.Fatalf("%s: word %d, blocks of %d: least load %d, the rows say %d", desc, w, 1<<k, x.least(k, w), n)
			}
		}
	}
	for k := range x.group {
		for g := range x.group[k] {
			want := 255
			for w := 64 * g; w < min(64*g+64, len(x.full)); w++ {
				want = min(want, x.least(k, w))
			}
			if int(x.group[k][g]) != want {
				t.Fatalf("%s: group %d, blocks of %d: %d, its words say %d", desc, g, 1<<k, x.group[k][g], want)
			}
		}
	}
}
