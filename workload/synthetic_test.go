package workload_test

import (
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/workload"
	"github.com/gangsim/gangsim/workload/lublin"
)

func syntheticJobs(t testing.TB, s workload.SyntheticSource, seed uint64) (*model.Header, []model.Job) {
	t.Helper()
	spec := workload.Spec{Source: workload.Source{Synthetic: &s}, Seed: seed}
	r, err := spec.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var jobs []model.Job
	for {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			return r.Header(), jobs
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}

func TestSyntheticValidate(t *testing.T) {
	for _, tt := range []struct {
		s    workload.SyntheticSource
		want string // "" for valid
	}{
		{workload.SyntheticSource{Jobs: 10, Procs: 32}, ""},
		{workload.SyntheticSource{Jobs: 10, Procs: 32, Size: 8, Arrivals: "daily"}, ""},
		{workload.SyntheticSource{Jobs: 10, Procs: 32, Arrivals: "lublin"}, ""},
		{workload.SyntheticSource{Jobs: 0, Procs: 32}, "number of jobs 0: want at least 1"},
		{workload.SyntheticSource{Jobs: 10}, "machine size 0: want at least 1 processor"},
		{workload.SyntheticSource{Jobs: 10, Procs: 32, Size: 6}, "job size 6 does not divide the machine's 32 processors"},
		{workload.SyntheticSource{Jobs: 10, Procs: 32, Arrivals: "bursty"}, `unknown arrival process "bursty" (want poisson, daily or lublin)`},
		{workload.SyntheticSource{Jobs: 10, Procs: 32, Runtimes: "lublin"}, ""},
		{workload.SyntheticSource{Jobs: 10, Procs: 32, Runtimes: "pareto"}, `unknown runtime distribution "pareto" (want exponential or lublin)`},
	} {
		err := tt.s.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && err.Error() != tt.want) {
			t.Errorf("%+v: Validate = %v, want %q", tt.s, err, tt.want)
		}
	}
	spec := workload.Spec{Source: workload.Source{Synthetic: &workload.SyntheticSource{Jobs: 10, Procs: 4, Size: 3}}}
	if err := spec.Validate(); err == nil || !strings.Contains(err.Error(), "synthetic source: job size 3") {
		t.Errorf("Spec.Validate = %v, want the synthetic source's error", err)
	}
}

// TestSyntheticJobs checks the jobs' fields, the header, determinism, the
// runtime and inter-arrival means (within 4 standard errors of the
// exponential's), and that runtimes do not depend on the arrival process.
func TestSyntheticJobs(t *testing.T) {
	const n = 20000
	base := workload.SyntheticSource{Jobs: n, Procs: 32, Size: 4, MeanInterarrival: model.Duration(50 * model.Second)}
	h, jobs := syntheticJobs(t, base, 7)
	if h.MaxProcs() != 32 || len(jobs) != n {
		t.Fatalf("MaxProcs %d, %d jobs; want 32 and %d", h.MaxProcs(), len(jobs), n)
	}
	_, again := syntheticJobs(t, base, 7)
	if !reflect.DeepEqual(jobs, again) {
		t.Fatal("same source and seed gave different jobs")
	}
	var runSum, prev float64
	for i, j := range jobs {
		if j.ID != int64(i+1) || j.AllocProcs != 4 || j.ReqProcs != 4 || j.Runtime <= 0 || j.Status != model.StatusCompleted {
			t.Fatalf("job %d: %+v", i, j)
		}
		if !j.Has(model.FieldSubmit) || !j.Has(model.FieldRuntime) || j.Has(model.FieldEstimate) {
			t.Fatalf("job %d: known fields %v", i, j.Known)
		}
		if j.Submit.Seconds() < prev {
			t.Fatalf("job %d submitted before job %d", i+1, i)
		}
		prev = j.Submit.Seconds()
		runSum += j.Runtime.Seconds()
	}
	// Default mean runtime: 32/4 × 100 s = 800 s.
	near := func(what string, got, want float64) {
		t.Helper()
		if se := want / math.Sqrt(n); math.Abs(got-want) > 4*se {
			t.Errorf("%s = %.2f, want %.2f ± %.2f", what, got, want, 4*se)
		}
	}
	near("mean runtime", runSum/n, 800)
	near("mean inter-arrival", prev/n, 50)

	for _, arr := range []string{workload.ArrivalsDaily, workload.ArrivalsLublin} {
		s := base
		s.Arrivals = arr // the lublin process ignores the mean inter-arrival time
		_, other := syntheticJobs(t, s, 7)
		for i := range other {
			if other[i].Runtime != jobs[i].Runtime {
				t.Fatalf("%s arrivals: job %d runtime %v, poisson's %v", arr, i+1, other[i].Runtime, jobs[i].Runtime)
			}
		}
		if arr == workload.ArrivalsLublin {
			// The model's arrival process on the generator stream.
			a := lublin.NewArrivals(lublin.CombinedParams(), 0, workload.NewStream(7, workload.StreamGenerator))
			for i := range other {
				if want := a.Next(); other[i].Submit != want {
					t.Fatalf("lublin arrivals: job %d at %v, want %v", i+1, other[i].Submit, want)
				}
			}
		}
	}
}

// TestSyntheticLublinRuntimes checks the Lublin model's runtimes: the
// runtimes of lublin.NewRuntimes for the jobs' size on the runtime stream,
// the arrivals those of exponential runtimes, the mean runtime ignored and
// dropped from the resolved spec, and the header saying so.
func TestSyntheticLublinRuntimes(t *testing.T) {
	base := workload.SyntheticSource{Jobs: 2000, Procs: 32, Size: 4, Arrivals: workload.ArrivalsLublin}
	_, expo := syntheticJobs(t, base, 5)
	heavy := base
	heavy.Runtimes, heavy.MeanRuntime = workload.RuntimesLublin, model.Duration(model.Second)
	h, jobs := syntheticJobs(t, heavy, 5)
	r := lublin.NewRuntimes(lublin.CombinedParams(), workload.NewStream(5, workload.StreamRuntimes))
	for i, j := range jobs {
		if want := r.Next(4); j.Runtime != want || j.Submit != expo[i].Submit || j.Size() != 4 {
			t.Fatalf("job %d: runtime %v at %v, size %d; want runtime %v at %v, size 4", i+1, j.Runtime, j.Submit, j.Size(),
				want, expo[i].Submit)
		}
	}
	if note, _ := h.Get(model.KeyNote); !strings.Contains(note, "the Lublin model's runtimes") {
		t.Errorf("header note %q", note)
	}
	spec := workload.Spec{Source: workload.Source{Synthetic: &heavy}}
	if res := spec.Resolved(); res.Source.Synthetic.MeanRuntime != 0 || res.Source.Synthetic.Runtimes != workload.RuntimesLublin {
		t.Errorf("resolved source %+v", res.Source.Synthetic)
	}
	if res := (workload.Spec{Source: workload.Source{Synthetic: &base}}).Resolved(); res.Source.Synthetic.Runtimes != "" {
		t.Errorf("exponential runtimes resolved as %q, want empty (the cache keys of older runs)", res.Source.Synthetic.Runtimes)
	}
}

// TestSyntheticDailyCycle checks the daily Poisson process: the share of
// arrivals in each half hour is its weight over 48 (the weights' mean is
// 1), within 4 standard errors of a binomial count, and the mean rate over
// whole days is the Poisson rate.
func TestSyntheticDailyCycle(t *testing.T) {
	const n = 200000
	s := workload.SyntheticSource{Jobs: n, Procs: 8, Arrivals: workload.ArrivalsDaily, MeanInterarrival: model.Duration(30 * model.Second)}
	_, jobs := syntheticJobs(t, s, 3)
	w := lublin.CombinedParams().DailyWeights()
	var counts [lublin.Buckets]int
	for _, j := range jobs {
		counts[int(j.Submit.Seconds())%86400/lublin.BucketSeconds]++
	}
	for b, c := range counts {
		p := w[b] / lublin.Buckets
		if se := math.Sqrt(n * p * (1 - p)); math.Abs(float64(c)-n*p) > 4*se+1 {
			t.Errorf("half hour %d: %d arrivals, want %.0f ± %.0f", b, c, n*p, 4*se)
		}
	}
	span := jobs[n-1].Submit.Seconds()
	if rate := n / span * 30; rate < 0.98 || rate > 1.02 {
		t.Errorf("mean rate %.4f of the Poisson rate, want 1 ± 0.02", rate)
	}
	t.Logf("weights: max %.2f, min %.3f", slices.Max(w[:]), slices.Min(w[:]))
}

// TestSyntheticEASYIsFCFS checks the construction's premise: with every job
// of one size that divides the machine, EASY backfilling starts every job
// when FCFS does, under every arrival process and at a load past
// saturation, where the queue is long and EASY has every chance to
// backfill.
func TestSyntheticEASYIsFCFS(t *testing.T) {
	for _, arr := range []string{workload.ArrivalsPoisson, workload.ArrivalsDaily, workload.ArrivalsLublin} {
		for _, size := range []int{1, 4} {
			src := workload.SyntheticSource{Jobs: 3000, Procs: 16, Size: size, Arrivals: arr}
			spec := workload.Spec{Source: workload.Source{Synthetic: &src}, Estimates: &workload.Estimates{Mode: workload.EstimatesLoose},
				Load: &workload.Load{Target: 1.1}, Seed: 5}
			var results [2]model.OutcomeList
			for k, pol := range []policies.Spec{{Name: "fcfs"}, {Name: "easy"}} {
				r, err := spec.Open(nil)
				if err != nil {
					t.Fatal(err)
				}
				p, err := policies.New(pol, policies.Env{Machine: model.FlatMachine(16)})
				if err != nil {
					t.Fatal(err)
				}
				if err := sim.New(sim.Config{Machine: model.FlatMachine(16)}, p).Run(r, &results[k], nil); err != nil {
					t.Fatal(err)
				}
				r.Close()
			}
			if len(results[0]) != 3000 || !reflect.DeepEqual(results[0], results[1]) {
				t.Errorf("%s arrivals, size %d: EASY's outcomes differ from FCFS's", arr, size)
			}
		}
	}
}
