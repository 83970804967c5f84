package optimum

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/scenario"
)

// alloc marks a test job's AllocProcs as known.
var alloc = model.FieldSet(0).With(model.FieldAllocProcs)

func near(a, b model.Time) bool { return math.Abs(float64(a-b)) <= 2 } // rounding to the microsecond

// TestThesisScenarios holds the optimum of the thesis' static scenarios to
// values derived by hand (see the package documentation's model).
func TestThesisScenarios(t *testing.T) {
	s := func(v float64) model.Time { return model.FromSecondsFloat(v) }
	basic, imb := scenario.BasicJobRuntime.Seconds(), scenario.ImbalancedJobRuntime.Seconds()
	filler, four := scenario.FillerJobRuntime.Seconds(), scenario.FourfoldJobRuntime.Seconds()
	for _, tc := range []struct {
		name                 string
		turnaround, response float64
		ends                 []float64
	}{
		// Two jobs that need every processor all the time: one after the
		// other.
		{"balanced", 2 * basic, 1.5 * basic, []float64{basic, 2 * basic}},
		// Each processor carries one slow and one fast process: 1.5 R;
		// every schedule that keeps the processors busy has the same sum
		// of completions, 3 R.
		{"imbalanced", 1.5 * imb, 1.5 * imb, []float64{1.5 * imb, 1.5 * imb}},
		// Job 4 at full speed takes a quarter of PEs 2-3, the fillers the
		// rest one after the other (60.5 / 0.75 each); the last filler
		// ends after job 4.
		{"complementing", 3*filler + four/4, (filler/0.75 + 2*filler/0.75 + four + 3*filler + four/4) / 4,
			[]float64{filler / 0.75, 2 * filler / 0.75, 3*filler + four/4, four}},
		// The basic job first, then the two imbalanced ones together.
		{"mixed", basic + 1.5*imb, (basic + 2*(basic+1.5*imb)) / 3, []float64{basic, basic + 1.5*imb, basic + 1.5*imb}},
	} {
		tr, err := scenario.Build(tc.name, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Optimize(tr.Jobs, tr.Header.MaxProcs())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !near(r.Turnaround, s(tc.turnaround)) || !near(r.MeanResponse, s(tc.response)) {
			t.Errorf("%s: turnaround %v, mean response %v; want %v, %v", tc.name, r.Turnaround, r.MeanResponse, s(tc.turnaround), s(tc.response))
		}
		// Ties (imbalanced, mixed) leave the order open, not the ends.
		for j, e := range tc.ends {
			if !near(r.Completions[j], s(e)) {
				t.Errorf("%s: job %d ends at %v, want %v", tc.name, j+1, r.Completions[j], s(e))
			}
		}
	}
}

// TestRandomWorkloads checks the optimum against what can be said without
// the linear programs, on random pinned workloads: no schedule beats it
// among those gangsim can compute directly (every order run one job after
// another; all jobs at the constant rate that ends them together), the
// turnaround is the busiest processor's load, no job ends before its
// dedicated run time, and its completions are feasible (by each job's end,
// every processor has had time for the demands of the jobs done).
func TestRandomWorkloads(t *testing.T) {
	seed := uint64(7)
	r := rand.New(rand.NewPCG(seed, 1))
	for trial := range 200 {
		procs := 1 + r.IntN(4)
		n := 1 + r.IntN(4)
		jobs := make([]model.Job, n)
		for j := range jobs {
			size := 1 + r.IntN(procs)
			pin := r.Perm(procs)[:size]
			comp := make([]model.Time, size)
			for i := range comp {
				comp[i] = model.Time(1+r.IntN(4)) * model.Millisecond
			}
			jobs[j] = model.Job{ID: int64(j + 1), Runtime: model.Time(1+r.IntN(100)) * model.Second, AllocProcs: size, Known: alloc,
				App: model.App{ProcCompute: comp, Pin: pin, Pattern: model.PatternRing}}
		}
		res, err := Optimize(jobs, procs)
		if err != nil {
			t.Fatalf("seed %d trial %d: %v", seed, trial, err)
		}
		d, _ := Demands(jobs, procs)
		busiest := 0.0
		for p := range procs {
			load := 0.0
			for j := range d {
				load += d[j][p]
			}
			busiest = max(busiest, load)
		}
		if !near(res.Turnaround, model.FromSecondsFloat(busiest)) {
			t.Errorf("seed %d trial %d: turnaround %v, busiest processor %v s", seed, trial, res.Turnaround, busiest)
		}
		sum := 0.0
		for j, e := range res.Completions {
			sum += e.Seconds()
			if e < jobs[j].Runtime-1 {
				t.Errorf("seed %d trial %d: job %d ends at %v, before its run time %v", seed, trial, j+1, e, jobs[j].Runtime)
			}
		}
		if !near(res.MeanResponse, model.FromSecondsFloat(sum/float64(n))) {
			t.Errorf("seed %d trial %d: mean response %v, completions %v", seed, trial, res.MeanResponse, res.Completions)
		}
		for _, j := range res.Order {
			by := res.Completions[j].Seconds()
			for p := range procs {
				need := 0.0
				for k := range d {
					if res.Completions[k].Seconds() <= by+1e-6 {
						need += d[k][p]
					}
				}
				if need > by+1e-6*max(1, by) {
					t.Errorf("seed %d trial %d: processor %d needs %v s for the jobs done by %v s", seed, trial, p, need, by)
				}
			}
		}
		// Every order run serially, and all jobs together.
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		for {
			t0, total := 0.0, 0.0
			for _, j := range order {
				t0 += jobs[j].Runtime.Seconds()
				total += t0
			}
			if res.MeanResponse > model.FromSecondsFloat(total/float64(n))+2 {
				t.Errorf("seed %d trial %d: serial order %v gives %v s, better than %v", seed, trial, order, total/float64(n), res.MeanResponse)
			}
			if !nextPermutation(order) {
				break
			}
		}
		if res.MeanResponse > res.Turnaround+2 {
			t.Errorf("seed %d trial %d: mean response %v above the turnaround %v", seed, trial, res.MeanResponse, res.Turnaround)
		}
	}
}

func TestErrors(t *testing.T) {
	job := func(id int64, submit model.Time, pin ...int) model.Job {
		return model.Job{ID: id, Submit: submit, Runtime: model.Second, AllocProcs: len(pin), Known: alloc, App: model.App{Pin: pin}}
	}
	many := make([]model.Job, MaxJobs+1)
	for i := range many {
		many[i] = job(int64(i+1), 0, 0)
	}
	for name, jobs := range map[string][]model.Job{
		"none":      nil,
		"too many":  many,
		"submitted": {job(1, model.Second, 0)},
		"outside":   {job(1, 0, 0, 4)},
		"runtime":   {{ID: 1, AllocProcs: 1, Known: alloc}},
		"no procs":  {{ID: 1, Runtime: model.Second}},
	} {
		if _, err := Optimize(jobs, 4); !errors.Is(err, ErrWorkload) {
			t.Errorf("%s: error %v, want ErrWorkload", name, err)
		}
	}
}
