package policies

import (
	"sort"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// runningSet holds the running jobs sorted by expected end (start +
// duration the scheduler assumes), the order in which backfilling expects
// processors to come free.
type runningSet struct {
	jobs []*sim.Job
	ends []model.Time // ends[i] is the expected end of jobs[i]
}

func (r *runningSet) add(j *sim.Job, end model.Time) {
	i := sort.Search(len(r.ends), func(i int) bool { return r.ends[i] > end })
	r.jobs = append(r.jobs, nil)
	r.ends = append(r.ends, 0)
	copy(r.jobs[i+1:], r.jobs[i:])
	copy(r.ends[i+1:], r.ends[i:])
	r.jobs[i], r.ends[i] = j, end
}

func (r *runningSet) remove(j *sim.Job, end model.Time) {
	i := sort.Search(len(r.ends), func(i int) bool { return r.ends[i] >= end })
	for ; i < len(r.jobs); i++ {
		if r.jobs[i] == j {
			copy(r.jobs[i:], r.jobs[i+1:])
			copy(r.ends[i:], r.ends[i+1:])
			r.jobs[len(r.jobs)-1] = nil
			r.jobs = r.jobs[:len(r.jobs)-1]
			r.ends = r.ends[:len(r.ends)-1]
			return
		}
	}
	panic("policies: completed job not in the running set")
}
