package metrics

import (
	"math"
	"slices"
)

// BlockVotes is the saturation test run on replicas voting in blocks, the
// statistics of a check of the test against a known saturation load: the
// replicas of a load sweep are cut into consecutive blocks of m, the
// replicas of a block vote at each load (MajoritySaturated), and each
// block's decisions give its saturation point (SaturationPoint).
type BlockVotes struct {
	// Points is each block's saturation point; a point beyond the grid
	// counts at its edge: the lowest load when the lowest load is already
	// saturated, the highest when no load is.
	Points []float64
	// Censored says, per block, whether its point is beyond the grid: -1
	// below it (the lowest load saturated), +1 above it (no load
	// saturated), 0 within it.
	Censored []int
	// NonMonotone counts the blocks whose decisions are not monotone (not
	// saturated at a load above a saturated one).
	NonMonotone int
	// Called counts, per load (in the order given), the blocks that called
	// it saturated.
	Called []int
}

// VoteBlocks runs the test on blocks of m replicas: saturated[r][k] is
// replica r's decision at loads[k] (Saturated), every replica deciding at
// every load. Replicas after the last whole block are left out. It panics
// if m is not positive or a replica's decisions are not one per load.
func VoteBlocks(loads []float64, saturated [][]bool, m int) BlockVotes {
	if m < 1 {
		panic("metrics: blocks of fewer than one replica")
	}
	lowest := slices.Min(loads)
	v := BlockVotes{Called: make([]int, len(loads))}
	for b := 0; b+m <= len(saturated); b += m {
		decisions := make([]bool, len(loads))
		for k := range loads {
			votes := 0
			for _, rep := range saturated[b : b+m] {
				if len(rep) != len(loads) {
					panic("metrics: a replica's decisions are not one per load")
				}
				if rep[k] {
					votes++
				}
			}
			decisions[k] = MajoritySaturated(votes, m)
			if decisions[k] {
				v.Called[k]++
			}
		}
		br := SaturationPoint(loads, decisions)
		p, censored := br.Point, 0
		switch {
		case math.IsNaN(p):
			p, censored = lowest, -1
		case math.IsInf(br.Above, 1):
			censored = 1
		}
		v.Points = append(v.Points, p)
		v.Censored = append(v.Censored, censored)
		if !br.Monotone {
			v.NonMonotone++
		}
	}
	return v
}

// Errors returns the mean of the blocks' points, and the mean and the
// largest of their distances from truth (bounds when some are censored:
// Censored).
func (v BlockVotes) Errors(truth float64) (mean, absMean, absMax float64) {
	var sum, sumErr float64
	for _, p := range v.Points {
		sum += p
		sumErr += math.Abs(p - truth)
		absMax = max(absMax, math.Abs(p-truth))
	}
	k := float64(len(v.Points))
	return sum / k, sumErr / k, absMax
}

// CensoredCounts returns how many blocks' points are below the grid and
// how many above it.
func (v BlockVotes) CensoredCounts() (below, above int) {
	for _, c := range v.Censored {
		switch c {
		case -1:
			below++
		case 1:
			above++
		}
	}
	return below, above
}
