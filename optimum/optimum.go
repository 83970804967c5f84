package optimum

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/gangsim/gangsim/model"
)

// MaxJobs bounds the jobs Optimize takes: it solves one small linear
// program per completion order, n! of them (40,320 for 8 jobs).
const MaxJobs = 8

// ErrWorkload is wrapped by the errors of Optimize for a workload it
// cannot judge.
var ErrWorkload = errors.New("not a static workload")

// Result is the optimum of a static workload, in simulated microseconds
// (rounded to the microsecond).
type Result struct {
	// Turnaround is the least time by which every job can be done.
	Turnaround model.Time
	// MeanResponse is the least mean response time (submit to end) of
	// the jobs, and Completions the end of each job, in job order, in a
	// schedule that achieves it.
	MeanResponse model.Time
	Completions  []model.Time
	// Order is the completion order of that schedule, as indices into
	// the jobs.
	Order []int
}

// Demands returns d_jp, each job's demand on each processor in seconds
// (see the package documentation), as rows of procs entries. It fails for
// a job that is not submitted at 0, has no positive run time, or sits on
// a processor outside [0, procs).
func Demands(jobs []model.Job, procs int) ([][]float64, error) {
	d := make([][]float64, len(jobs))
	for j := range jobs {
		job := &jobs[j]
		if job.Submit != 0 {
			return nil, fmt.Errorf("optimum: %w: job %d submitted at %s, not 0", ErrWorkload, job.ID, job.Submit)
		}
		if job.Runtime <= 0 {
			return nil, fmt.Errorf("optimum: %w: job %d has no positive run time", ErrWorkload, job.ID)
		}
		size := job.Size()
		if size < 1 {
			return nil, fmt.Errorf("optimum: %w: job %d has no processes", ErrWorkload, job.ID)
		}
		pin := job.App.Pin
		if len(pin) == 0 {
			pin = make([]int, size)
			for i := range pin {
				pin[i] = i
			}
		}
		if len(pin) != size {
			return nil, fmt.Errorf("optimum: %w: job %d has %d processes and %d pinned processors", ErrWorkload, job.ID, size, len(pin))
		}
		c := make([]float64, size)
		cmax := 0.0
		for i := range size {
			if job.App.Granularity != 0 || len(job.App.ProcCompute) > 0 {
				c[i] = float64(job.App.ComputePerIteration(i, size))
			}
			cmax = max(cmax, c[i])
		}
		d[j] = make([]float64, procs)
		for i, p := range pin {
			if p < 0 || p >= procs {
				return nil, fmt.Errorf("optimum: %w: job %d process %d on processor %d, outside [0, %d)", ErrWorkload, job.ID, i, p, procs)
			}
			share := 1.0
			if cmax > 0 {
				share = c[i] / cmax
			}
			d[j][p] += job.Runtime.Seconds() * share
		}
	}
	return d, nil
}

// Optimize returns the optimum of the jobs on procs processors. It fails
// for more than MaxJobs jobs, for a workload Demands rejects, or when the
// linear programs cannot be solved.
func Optimize(jobs []model.Job, procs int) (Result, error) {
	n := len(jobs)
	if n == 0 || n > MaxJobs {
		return Result{}, fmt.Errorf("optimum: %w: %d jobs, want 1 to %d", ErrWorkload, n, MaxJobs)
	}
	d, err := Demands(jobs, procs)
	if err != nil {
		return Result{}, err
	}
	d = distinctProcessors(d)
	var res Result
	busiest := 0.0
	for p := range d[0] {
		load := 0.0
		for j := range d {
			load += d[j][p]
		}
		busiest = max(busiest, load)
	}
	res.Turnaround = model.FromSecondsFloat(busiest)

	best := math.Inf(1)
	var bestEnds []float64
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for {
		sum, ends, err := ordered(d, order)
		if err != nil {
			return Result{}, fmt.Errorf("optimum: completion order %v: %w", order, err)
		}
		if bestEnds == nil || sum < best-1e-9*max(1, best) {
			best, bestEnds, res.Order = sum, ends, slices.Clone(order)
		}
		if !nextPermutation(order) {
			break
		}
	}
	res.MeanResponse = model.FromSecondsFloat(best / float64(n))
	res.Completions = make([]model.Time, n)
	for k, j := range res.Order {
		res.Completions[j] = model.FromSecondsFloat(bestEnds[k])
	}
	return res, nil
}

// distinctProcessors drops the processors no job uses and keeps one of
// every set whose demands are equal for every job (their constraints are
// the same), so that the linear programs have full row rank.
func distinctProcessors(d [][]float64) [][]float64 {
	var keep []int
	for p := range d[0] {
		used, dup := false, false
		for j := range d {
			used = used || d[j][p] > 0
		}
		for _, q := range keep {
			same := true
			for j := range d {
				same = same && d[j][p] == d[j][q]
			}
			dup = dup || same
		}
		if used && !dup {
			keep = append(keep, p)
		}
	}
	out := make([][]float64, len(d))
	for j := range d {
		for _, p := range keep {
			out[j] = append(out[j], d[j][p])
		}
	}
	return out
}

// ordered solves the linear program of one completion order: it returns
// the least sum of completion times of jobs that complete in that order
// (ties allowed), and each interval's end.
//
// Variables, in order: y_jk for every job j and interval k <= rank(j)
// (the share of j's work done in interval k), Δ_k, and a slack s_kp for
// every interval and processor. Rows: Σ_j y_jk d_jp - Δ_k + s_kp = 0
// for every interval and processor; Σ_k y_jk = 1 for every job.
func ordered(d [][]float64, order []int) (float64, []float64, error) {
	n, procs := len(order), len(d[0])
	rank := make([]int, n)
	for k, j := range order {
		rank[j] = k
	}
	type yvar struct{ job, k int }
	var ys []yvar
	for j := range n {
		for k := 0; k <= rank[j]; k++ {
			ys = append(ys, yvar{j, k})
		}
	}
	nDelta := len(ys)
	nSlack := nDelta + n
	vars := nSlack + n*procs
	rows := n*procs + n
	a := mat.NewDense(rows, vars, nil)
	b := make([]float64, rows)
	c := make([]float64, vars)
	for v, y := range ys {
		for p := range procs {
			a.Set(y.k*procs+p, v, d[y.job][p])
		}
		a.Set(n*procs+y.job, v, 1)
	}
	for k := range n {
		c[nDelta+k] = float64(n - k) // Δ_k counts towards the n - k jobs not yet done
		for p := range procs {
			a.Set(k*procs+p, nDelta+k, -1)
			a.Set(k*procs+p, nSlack+k*procs+p, 1)
		}
	}
	for j := range n {
		b[n*procs+j] = 1
	}
	sum, sol, err := lp.Simplex(c, a, b, 1e-10, nil)
	if err != nil {
		return 0, nil, err
	}
	ends := make([]float64, n)
	t := 0.0
	for k := range n {
		t += sol[nDelta+k]
		ends[k] = t
	}
	return sum, ends, nil
}

// nextPermutation advances p to the next permutation in lexicographic
// order and reports whether there was one.
func nextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}
