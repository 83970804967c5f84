package metrics

import (
	"slices"
	"testing"
)

// TestVoteBlocks: four replicas over loads given out of order, in blocks
// of 1 and of 2, with a censored point on each side of the grid and a
// non-monotone replica.
func TestVoteBlocks(t *testing.T) {
	loads := []float64{0.9, 0.5, 0.7}
	sat := [][]bool{
		{true, false, false},  // point 0.7
		{true, true, true},    // below the grid: 0.5 at the edge
		{false, false, false}, // above it: 0.9
		{true, false, true},   // 0.5 not saturated, 0.7 and 0.9 saturated: point 0.5
	}
	v := VoteBlocks(loads, sat, 1)
	if want := []float64{0.7, 0.5, 0.9, 0.5}; !slices.Equal(v.Points, want) {
		t.Errorf("points %v, want %v", v.Points, want)
	}
	if want := []int{0, -1, 1, 0}; !slices.Equal(v.Censored, want) {
		t.Errorf("censored %v, want %v", v.Censored, want)
	}
	if below, above := v.CensoredCounts(); below != 1 || above != 1 {
		t.Errorf("censored counts %d below, %d above", below, above)
	}
	if want := []int{3, 1, 2}; !slices.Equal(v.Called, want) { // 0.9, 0.5, 0.7
		t.Errorf("called %v, want %v", v.Called, want)
	}
	mean, absMean, absMax := v.Errors(0.7)
	if !near(mean, 0.65) || !near(absMean, 0.15) || !near(absMax, 0.2) {
		t.Errorf("errors %v %v %v, want 0.65 0.15 0.2", mean, absMean, absMax)
	}
	// Blocks of two: a tie saturates (MajoritySaturated).
	v = VoteBlocks(loads, sat, 2)
	if want := []float64{0.5, 0.5}; !slices.Equal(v.Points, want) || !slices.Equal(v.Censored, []int{-1, 0}) {
		t.Errorf("blocks of 2: points %v, censored %v", v.Points, v.Censored)
	}
	// A non-monotone replica: saturated at 0.5, not at 0.7.
	v = VoteBlocks([]float64{0.5, 0.7, 0.9}, [][]bool{{true, false, true}}, 1)
	if v.NonMonotone != 1 || !slices.Equal(v.Censored, []int{-1}) {
		t.Errorf("non-monotone: %+v", v)
	}
	// A replica after the last whole block is left out.
	if v := VoteBlocks(loads, sat[:3], 2); len(v.Points) != 1 {
		t.Errorf("3 replicas in blocks of 2: %d points", len(v.Points))
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
