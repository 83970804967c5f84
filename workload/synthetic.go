package workload

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/workload/lublin"
)

// Arrival processes of a SyntheticSource.
const (
	// ArrivalsPoisson is a Poisson process: exponential inter-arrival
	// times of mean MeanInterarrival.
	ArrivalsPoisson = "poisson"
	// ArrivalsDaily is a Poisson process whose rate follows the Lublin
	// model's daily cycle: in each half hour of the day the rate is
	// 1/MeanInterarrival times that half hour's weight
	// (lublin.CombinedParams().DailyWeights(), mean 1), so the mean rate
	// over a day is 1/MeanInterarrival; the busiest half hour gets 1.83
	// times the mean rate, the quietest 0.17 times.
	ArrivalsDaily = "daily"
	// ArrivalsLublin is the Lublin model's own arrival process for its
	// single (combined) class (lublin.NewArrivals with
	// lublin.CombinedParams(), time 0 at midnight): gamma-distributed
	// ln(inter-arrival) stretched by the same daily cycle, in whole
	// seconds, the bursts of the thesis' workload, at the model's own rate
	// (1000 jobs span about 10 days): MeanInterarrival is ignored.
	ArrivalsLublin = "lublin"
)

// Runtime distributions of a SyntheticSource.
const (
	// RuntimesExponential draws exponential runtimes of mean MeanRuntime
	// (coefficient of variation 1).
	RuntimesExponential = "exponential"
	// RuntimesLublin draws the Lublin model's runtimes for a job of Size
	// processors (lublin.NewRuntimes with lublin.CombinedParams(): ln of
	// the runtime hyper-gamma, 1 s to 45 hours), the heavy tail of the
	// thesis' workload: for 4 processors the median is about 85 s, the
	// mean about an hour and the coefficient of variation about 2.1, where
	// the exponential's is 1. MeanRuntime is ignored;
	// a Load transform sets the offered load.
	RuntimesLublin = "lublin"
)

// DefaultMeanInterarrival is a SyntheticSource's mean inter-arrival time
// when none is given.
const DefaultMeanInterarrival = 100 * model.Second

// SyntheticSource generates a workload whose saturation point is known by
// construction, to check a saturation test where the answer is known
// (metrics.Saturated): every job has the same size, which divides the
// machine, and independent runtimes, exponential or the Lublin model's
// heavy-tailed ones; jobs arrive by a Poisson process, with or without a
// daily cycle, or by the Lublin model's bursty process.
//
// With every job of Size processors on a machine of Procs, a multiple of
// Size, the machine is Procs/Size identical servers: no job ever waits
// for processors that another could not use, FCFS never leaves a hole,
// and EASY backfilling makes exactly FCFS's schedule (when the first
// queued job cannot start, no other can). The queue is then a G/G/c queue
// with c = Procs/Size (G/M/c with exponential runtimes), stable if and
// only if the offered load (workload package documentation) is below 1:
// both policies saturate at offered load 1, whatever the arrival process
// and the runtime distribution, as long as the long-run arrival rate and
// the mean runtime exist (the daily cycle is periodic, and the Lublin
// model's runtimes are bounded, so they do).
//
// Runtimes are drawn from their own random stream (StreamRuntimes), so
// the three arrival processes with the same seed have the same runtimes.
type SyntheticSource struct {
	// Jobs is the number of jobs, > 0.
	Jobs int64 `json:"jobs"`
	// Procs is the machine size in processors, > 0; the header's MaxProcs
	// and MaxNodes.
	Procs int `json:"procs"`
	// Size is every job's size in processors; 0 means 1. It must divide
	// Procs.
	Size int `json:"size,omitempty"`
	// Arrivals is the arrival process: ArrivalsPoisson (the default when
	// empty), ArrivalsDaily or ArrivalsLublin.
	Arrivals string `json:"arrivals,omitempty"`
	// MeanInterarrival is the mean time between arrivals of the Poisson
	// processes; 0 means DefaultMeanInterarrival. ArrivalsLublin ignores
	// it (Resolved drops it).
	MeanInterarrival model.Duration `json:"mean_interarrival,omitempty"`
	// Runtimes is the runtime distribution: RuntimesExponential (the
	// default when empty) or RuntimesLublin.
	Runtimes string `json:"runtimes,omitempty"`
	// MeanRuntime is the mean of the exponential runtimes; 0 means
	// Procs/Size times DefaultMeanInterarrival (an offered load of about 1
	// under the Poisson processes' default rate). A Load transform
	// rescales runtimes anyway. RuntimesLublin ignores it (Resolved drops
	// it).
	MeanRuntime model.Duration `json:"mean_runtime,omitempty"`
}

// StreamRuntimes is the random stream of a SyntheticSource's runtimes
// (its arrivals draw from StreamGenerator).
const StreamRuntimes uint64 = 0x72756e74696d6573 // "runtimes"

func (s SyntheticSource) withDefaults() SyntheticSource {
	if s.Size == 0 {
		s.Size = 1
	}
	if s.Arrivals == "" {
		s.Arrivals = ArrivalsPoisson
	}
	switch {
	case s.Arrivals == ArrivalsLublin:
		s.MeanInterarrival = 0
	case s.MeanInterarrival == 0:
		s.MeanInterarrival = model.Duration(DefaultMeanInterarrival)
	}
	// An empty Runtimes stays empty (exponential), so that the resolved
	// specs, and the run cache's keys, of workloads made before the choice
	// existed do not change.
	switch {
	case s.Runtimes == RuntimesLublin:
		s.MeanRuntime = 0
	case s.MeanRuntime == 0 && s.Size > 0 && s.Procs > 0:
		s.MeanRuntime = model.Duration(DefaultMeanInterarrival * model.Time(s.Procs/s.Size))
	}
	return s
}

// Validate reports every problem of s: no jobs, no machine, a size that
// does not divide the machine, an unknown arrival process.
func (s *SyntheticSource) Validate() error {
	d := s.withDefaults()
	var errs []error
	if d.Jobs <= 0 {
		errs = append(errs, fmt.Errorf("number of jobs %d: want at least 1", d.Jobs))
	}
	if d.Procs <= 0 {
		errs = append(errs, fmt.Errorf("machine size %d: want at least 1 processor", d.Procs))
	} else if err := model.CheckProcs(int64(d.Procs)); err != nil {
		errs = append(errs, fmt.Errorf("machine size %w", err))
	}
	if d.Size < 0 || (d.Procs > 0 && d.Size > 0 && d.Procs%d.Size != 0) {
		errs = append(errs, fmt.Errorf("job size %d does not divide the machine's %d processors", d.Size, d.Procs))
	}
	switch d.Arrivals {
	case ArrivalsPoisson, ArrivalsDaily, ArrivalsLublin:
	default:
		errs = append(errs, fmt.Errorf("unknown arrival process %q (want poisson, daily or lublin)", d.Arrivals))
	}
	switch d.Runtimes {
	case "", RuntimesExponential, RuntimesLublin:
	default:
		errs = append(errs, fmt.Errorf("unknown runtime distribution %q (want exponential or lublin)", d.Runtimes))
	}
	if d.MeanInterarrival < 0 || d.MeanRuntime < 0 {
		errs = append(errs, errors.New("mean inter-arrival and runtime must not be negative"))
	}
	return errors.Join(errs...)
}

// Header returns the trace header of s's workload: MaxJobs, MaxRecords,
// MaxNodes and MaxProcs (Procs), and a Note saying how it was made.
func (s *SyntheticSource) Header() model.Header {
	d := s.withDefaults()
	var h model.Header
	h.Add(model.KeyVersion, "2.2")
	h.Add(model.KeyComputer, "gangsim synthetic workload (saturation point known by construction)")
	n := strconv.FormatInt(d.Jobs, 10)
	h.Add(model.KeyMaxJobs, n)
	h.Add(model.KeyMaxRecords, n)
	procs := strconv.Itoa(d.Procs)
	h.Add(model.KeyMaxNodes, procs)
	h.Add(model.KeyMaxProcs, procs)
	arr := d.Arrivals + " arrivals"
	if d.Arrivals != ArrivalsLublin {
		arr += " of mean inter-arrival " + d.MeanInterarrival.String()
	}
	run := "exponential runtimes of mean " + d.MeanRuntime.String()
	if d.Runtimes == RuntimesLublin {
		run = "the Lublin model's runtimes"
	}
	h.Add(model.KeyNote, fmt.Sprintf("Synthetic workload (gangsim package workload): %s jobs of %d processors on %d, %s, "+
		"%s; FCFS and EASY saturate at offered load 1", n, d.Size, d.Procs, arr, run))
	return h
}

// syntheticSource regenerates the same jobs on every pass.
type syntheticSource struct {
	s    SyntheticSource // defaults applied
	seed uint64
	h    model.Header
}

func openSynthetic(s *SyntheticSource, seed uint64) (source, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &syntheticSource{s: s.withDefaults(), seed: seed, h: s.Header()}, nil
}

func (s *syntheticSource) header() *model.Header { return &s.h }
func (s *syntheticSource) inputs() []model.Input { return nil }
func (s *syntheticSource) close() error          { return nil }
func (s *syntheticSource) pass() (sourcePass, error) {
	return sourcePass{jobs: newSyntheticJobs(s.s, s.seed, &s.h)}, nil
}

// syntheticJobs is one pass over a synthetic workload.
type syntheticJobs struct {
	s       SyntheticSource
	h       *model.Header
	arrRnd  *rand.Rand
	runRnd  *rand.Rand
	lublin  *lublin.Arrivals
	runs    *lublin.Runtimes // nil for exponential runtimes
	weights [lublin.Buckets]float64
	clock   float64 // seconds since time 0, of the last arrival
	done    int64
}

func newSyntheticJobs(s SyntheticSource, seed uint64, h *model.Header) *syntheticJobs {
	j := &syntheticJobs{s: s, h: h, arrRnd: NewStream(seed, StreamGenerator), runRnd: NewStream(seed, StreamRuntimes)}
	switch s.Arrivals {
	case ArrivalsLublin:
		j.lublin = lublin.NewArrivals(lublin.CombinedParams(), 0, j.arrRnd)
	case ArrivalsDaily:
		j.weights = lublin.CombinedParams().DailyWeights()
	}
	if s.Runtimes == RuntimesLublin {
		j.runs = lublin.NewRuntimes(lublin.CombinedParams(), j.runRnd)
	}
	return j
}

func (j *syntheticJobs) Header() *model.Header { return j.h }

func (j *syntheticJobs) Read() (model.Job, error) {
	if j.done >= j.s.Jobs {
		return model.Job{}, io.EOF
	}
	j.done++
	var submit model.Time
	switch j.s.Arrivals {
	case ArrivalsLublin:
		submit = j.lublin.Next()
	case ArrivalsDaily:
		j.clock = dailyAdvance(j.clock, j.arrRnd.ExpFloat64()*j.s.MeanInterarrival.Time().Seconds(), &j.weights)
		submit = model.FromSecondsFloat(j.clock)
	default:
		j.clock += j.arrRnd.ExpFloat64() * j.s.MeanInterarrival.Time().Seconds()
		submit = model.FromSecondsFloat(j.clock)
	}
	var run model.Time
	if j.runs != nil {
		run = j.runs.Next(j.s.Size)
	} else {
		run = max(model.FromSecondsFloat(j.runRnd.ExpFloat64()*j.s.MeanRuntime.Time().Seconds()), 1)
	}
	return model.Job{
		ID: j.done, Submit: submit, Runtime: run, AllocProcs: j.s.Size, ReqProcs: j.s.Size,
		Status: model.StatusCompleted,
		Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
			With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldStatus),
	}, nil
}

// dailyAdvance returns the time, in seconds, at which a Poisson process
// whose rate in each half hour b of the day is w[b] times its mean rate
// reaches its next arrival from t, given x, an exponential draw scaled to
// the mean inter-arrival time: the time change that spends x "mean-rate
// seconds", of which a half hour of weight w costs w per second.
func dailyAdvance(t, x float64, w *[lublin.Buckets]float64) float64 {
	const day = lublin.Buckets * lublin.BucketSeconds
	for {
		b := int(math.Mod(t, day) / lublin.BucketSeconds)
		end := (math.Floor(t/lublin.BucketSeconds) + 1) * lublin.BucketSeconds
		if cost := (end - t) * w[b]; x > cost {
			x -= cost
			t = end
			continue
		}
		return t + x/w[b]
	}
}
