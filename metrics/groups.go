package metrics

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gangsim/gangsim/model"
)

// Length is the group of a job in the thesis' split of a workload into
// short and long jobs.
type Length uint8

// Job groups.
const (
	Unclassified Length = iota // not in the reference run
	Short                      // among the shortest jobs of the reference run
	Long                       // the others
)

var lengthNames = [...]string{"unclassified", "short", "long"}

// String returns "unclassified", "short" or "long".
func (l Length) String() string {
	if int(l) < len(lengthNames) {
		return lengthNames[l]
	}
	return fmt.Sprintf("length(%d)", uint8(l))
}

// Lengths classifies jobs as short or long once, from a reference run, so
// that every other run of the same workload is split into the same groups.
// Create it with ClassifyLengths or ClassifyFCFS; the zero value classifies
// nothing.
type Lengths struct {
	of map[int64]Length
}

// ClassifyLengths makes the short and long groups of Frachtenberg's thesis
// (section 6.4.1): the short jobs are the `short` jobs with the shortest
// execution time in the reference run, the long jobs the rest. ids and
// runtimes are parallel: job ids[i] ran for runtimes[i] in the reference
// run, which the thesis always takes to be FCFS (batch), "so that the job
// groups remain the same even when job execution times change with
// different schedulers".
//
// Ties are broken deterministically: jobs are ranked by runtime, then by
// job ID, both increasing, and the first `short` ranks are short. So of two
// jobs of equal runtime on the boundary, the lower ID is short.
//
// It panics if the slices differ in length, an ID repeats, or short is not
// in [0, len(ids)].
func ClassifyLengths(ids []int64, runtimes []model.Time, short int) Lengths {
	if len(ids) != len(runtimes) {
		panic(fmt.Sprintf("metrics: %d job IDs and %d runtimes", len(ids), len(runtimes)))
	}
	if short < 0 || short > len(ids) {
		panic(fmt.Sprintf("metrics: %d short jobs out of %d", short, len(ids)))
	}
	rank := make([]int, len(ids))
	for i := range rank {
		rank[i] = i
	}
	slices.SortFunc(rank, func(a, b int) int {
		return cmp.Or(cmp.Compare(runtimes[a], runtimes[b]), cmp.Compare(ids[a], ids[b]))
	})
	l := Lengths{of: make(map[int64]Length, len(ids))}
	for r, i := range rank {
		if _, dup := l.of[ids[i]]; dup {
			panic(fmt.Sprintf("metrics: job ID %d repeats", ids[i]))
		}
		g := Long
		if r < short {
			g = Short
		}
		l.of[ids[i]] = g
	}
	return l
}

// ClassifyFCFS classifies the completed jobs of a reference (FCFS) run by
// their runtime in it: the shorter half (⌊n/2⌋ of n completed jobs; the
// thesis' 500 of 1000) is short, the rest long, with ClassifyLengths' tie
// rule. Rejected jobs stay unclassified. It panics if a job ID repeats.
func ClassifyFCFS(outcomes []model.Outcome) Lengths {
	var ids []int64
	var runtimes []model.Time
	for i := range outcomes {
		if o := &outcomes[i]; o.Completed() {
			ids = append(ids, o.JobID)
			runtimes = append(runtimes, o.Runtime)
		}
	}
	return ClassifyLengths(ids, runtimes, len(ids)/2)
}

// Of returns the group of job id; Unclassified if the reference run did not
// have it.
func (l Lengths) Of(id int64) Length { return l.of[id] }

// Len is the number of classified jobs.
func (l Lengths) Len() int { return len(l.of) }

// Select returns, in a new slice and in their order, the outcomes whose job
// is in group g.
func (l Lengths) Select(outcomes []model.Outcome, g Length) []model.Outcome {
	var sel []model.Outcome
	for i := range outcomes {
		if l.of[outcomes[i].JobID] == g {
			sel = append(sel, outcomes[i])
		}
	}
	return sel
}
