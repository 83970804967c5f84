package metrics

import (
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func TestClassifyLengths(t *testing.T) {
	s := model.Second
	ids := []int64{5, 3, 9, 1, 7, 2}
	runtimes := []model.Time{10 * s, 20 * s, 20 * s, 5 * s, 20 * s, 30 * s}
	// Ranked by (runtime, ID): 1 (5 s), 5 (10 s), 3, 7, 9 (20 s), 2 (30 s).
	// The three shortest: 1, 5, and 3, the lowest ID of the 20 s tie.
	l := ClassifyLengths(ids, runtimes, 3)
	want := map[int64]Length{1: Short, 5: Short, 3: Short, 7: Long, 9: Long, 2: Long, 42: Unclassified}
	for id, g := range want {
		if got := l.Of(id); got != g {
			t.Errorf("job %d is %v, want %v", id, got, g)
		}
	}
	if l.Len() != 6 {
		t.Errorf("Len = %d, want 6", l.Len())
	}
	// The input order does not matter.
	rids, rruntimes := slices.Clone(ids), slices.Clone(runtimes)
	slices.Reverse(rids)
	slices.Reverse(rruntimes)
	rev := ClassifyLengths(rids, rruntimes, 3)
	for id, g := range want {
		if rev.Of(id) != g {
			t.Errorf("reversed input: job %d is %v, want %v", id, rev.Of(id), g)
		}
	}
	if g := (Lengths{}).Of(1); g != Unclassified {
		t.Errorf("zero Lengths classifies job 1 as %v", g)
	}
	mustPanic(t, "repeated ID", func() { ClassifyLengths([]int64{1, 1}, []model.Time{1, 2}, 1) })
	mustPanic(t, "length mismatch", func() { ClassifyLengths([]int64{1}, nil, 0) })
	mustPanic(t, "too many short", func() { ClassifyLengths([]int64{1}, []model.Time{1}, 2) })
}

func TestClassifyFCFS(t *testing.T) {
	// Completed jobs 1, 2, 4 of runOutcomes ran 100, 20 and 1 s: ⌊3/2⌋ = 1
	// short job, job 4; the rejected job 3 stays unclassified.
	l := ClassifyFCFS(runOutcomes())
	for id, g := range map[int64]Length{4: Short, 2: Long, 1: Long, 3: Unclassified} {
		if got := l.Of(id); got != g {
			t.Errorf("job %d is %v, want %v", id, got, g)
		}
	}
	// Another run of the same jobs, where job 1 happened to be quick: the
	// groups follow the reference run, not this one.
	other := runOutcomes()
	other[0].End, other[0].Runtime = 1*model.Second, 1*model.Second
	var short, long []int64
	for _, o := range l.Select(other, Short) {
		short = append(short, o.JobID)
	}
	for _, o := range l.Select(other, Long) {
		long = append(long, o.JobID)
	}
	if !slices.Equal(short, []int64{4}) || !slices.Equal(long, []int64{1, 2}) {
		t.Errorf("Select: short %v long %v, want [4] and [1 2]", short, long)
	}
	if Short.String() != "short" || Long.String() != "long" || Unclassified.String() != "unclassified" || Length(9).String() != "length(9)" {
		t.Error("Length names")
	}
}
