package workload

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Distribution summarizes a sample of numbers. Quantiles are nearest-rank:
// the q-quantile of n sorted values is the value of rank ceil(q × n), so
// the median of an even sample is the lower of its two middle values. A
// Distribution of no values is all zeros.
type Distribution struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	P5     float64 `json:"p5"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	P95    float64 `json:"p95"`
	Max    float64 `json:"max"`
}

// Summarize returns the Distribution of xs, sorting xs in place.
func Summarize(xs []float64) Distribution {
	if len(xs) == 0 {
		return Distribution{}
	}
	slices.Sort(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	n := len(xs)
	q := func(p float64) float64 {
		k := int(math.Ceil(p*float64(n))) - 1
		return xs[min(max(k, 0), n-1)]
	}
	return Distribution{N: n, Mean: sum / float64(n), Min: xs[0], P5: q(0.05), P25: q(0.25),
		Median: q(0.5), P75: q(0.75), P95: q(0.95), Max: xs[n-1]}
}

// Stats describes a workload: its size, arrivals, sizes, runtimes, offered
// load and estimate accuracy. Times are seconds.
type Stats struct {
	// Jobs is the number of jobs.
	Jobs int `json:"jobs"`
	// MachineProcs is the machine size the offered load is computed for;
	// 0 when unknown.
	MachineProcs int `json:"machine_procs"`
	// FirstSubmitS and LastSubmitS are the earliest and latest submit
	// times; SpanS is their difference, the arrival span of the offered
	// load.
	FirstSubmitS float64 `json:"first_submit_s"`
	LastSubmitS  float64 `json:"last_submit_s"`
	SpanS        float64 `json:"span_s"`
	// Interarrival is the distribution of the gaps between consecutive
	// submit times, in submit-time order.
	Interarrival Distribution `json:"interarrival_s"`
	// Size is the distribution of job sizes (model.Job.Size), processors.
	Size Distribution `json:"size_procs"`
	// SerialJobs and PowerOfTwoJobs count the jobs of size 1 and of a
	// size that is a power of two greater than 1. The text report gives
	// PowerOfTwoJobs as a share of all jobs and of the parallel ones
	// (Profile.PowerOfTwoShare, what the thesis' workload item reports).
	SerialJobs     int `json:"serial_jobs"`
	PowerOfTwoJobs int `json:"power_of_two_jobs"`
	// Runtime is the distribution of runtimes.
	Runtime Distribution `json:"runtime_s"`
	// WorkProcS is the sum of size × runtime, processor-seconds.
	WorkProcS float64 `json:"work_proc_s"`
	// OfferedLoad is WorkProcS / (MachineProcs × SpanS) (see the package
	// documentation); null when undefined.
	OfferedLoad *float64 `json:"offered_load"`
	// Estimates describes the users' runtime estimates.
	Estimates EstimateStats `json:"estimates"`
	// MissingSubmit, MissingSize and MissingRuntime count jobs without a
	// submit time, without a positive size, and without a known runtime.
	MissingSubmit  int `json:"missing_submit"`
	MissingSize    int `json:"missing_size"`
	MissingRuntime int `json:"missing_runtime"`
}

// EstimateStats describes runtime estimates. Accuracy is runtime divided by
// estimate (Mu'alem and Feitelson's measure): 1 for an exact estimate,
// below 1 for an overestimate.
type EstimateStats struct {
	// Jobs counts jobs with a known runtime and a positive estimate.
	Jobs int `json:"jobs"`
	// Exact counts estimates equal to the runtime; Overrun counts
	// runtimes above the estimate.
	Exact   int `json:"exact"`
	Overrun int `json:"overrun"`
	// Accuracy is the distribution of runtime / estimate.
	Accuracy Distribution `json:"accuracy"`
}

// ComputeStats reads every job of r and returns its Stats, with the offered
// load on procs processors (0: the header's MaxProcs). It holds three
// numbers per job in memory (submit time, size, runtime) for the
// quantiles, plus one per job with an estimate.
func ComputeStats(r model.JobReader, procs int) (*Stats, error) {
	if procs == 0 {
		procs = r.Header().MaxProcs()
	}
	st := &Stats{MachineProcs: max(procs, 0)}
	var meter LoadMeter
	var submits, sizes, runtimes, accuracy []float64
	for {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		meter.Add(&j)
		if j.Has(model.FieldSubmit) {
			submits = append(submits, j.Submit.Seconds())
		} else {
			st.MissingSubmit++
		}
		if size := j.Size(); size > 0 {
			sizes = append(sizes, float64(size))
			if size == 1 {
				st.SerialJobs++
			} else if size&(size-1) == 0 {
				st.PowerOfTwoJobs++
			}
		} else {
			st.MissingSize++
		}
		if !j.Has(model.FieldRuntime) {
			st.MissingRuntime++
			continue
		}
		runtimes = append(runtimes, j.Runtime.Seconds())
		if j.Has(model.FieldEstimate) && j.Estimate > 0 {
			st.Estimates.Jobs++
			switch {
			case j.Runtime == j.Estimate:
				st.Estimates.Exact++
			case j.Runtime > j.Estimate:
				st.Estimates.Overrun++
			}
			accuracy = append(accuracy, float64(j.Runtime)/float64(j.Estimate))
		}
	}
	st.Jobs = meter.Jobs
	st.WorkProcS = meter.Work
	if len(submits) > 0 {
		st.FirstSubmitS, st.LastSubmitS = meter.First.Seconds(), meter.Last.Seconds()
		st.SpanS = meter.Span().Seconds()
		slices.Sort(submits)
		gaps := make([]float64, len(submits)-1)
		for i := range gaps {
			gaps[i] = submits[i+1] - submits[i]
		}
		st.Interarrival = Summarize(gaps)
	}
	st.Size = Summarize(sizes)
	st.Runtime = Summarize(runtimes)
	st.Estimates.Accuracy = Summarize(accuracy)
	if load, err := meter.Load(procs); err == nil {
		st.OfferedLoad = &load
	}
	return st, nil
}

// String formats s for people, one quantity a line.
func (s *Stats) String() string {
	var b strings.Builder
	line := func(name, format string, args ...any) {
		fmt.Fprintf(&b, "%-18s", name)
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	dist := func(d Distribution) string {
		if d.N == 0 {
			return "none"
		}
		return fmt.Sprintf("mean %s; min %s, 5%% %s, 25%% %s, median %s, 75%% %s, 95%% %s, max %s",
			g(d.Mean), g(d.Min), g(d.P5), g(d.P25), g(d.Median), g(d.P75), g(d.P95), g(d.Max))
	}
	pct := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
	}
	line("jobs", "%d", s.Jobs)
	if s.MachineProcs > 0 {
		line("machine", "%d processors", s.MachineProcs)
	} else {
		line("machine", "unknown (no MaxProcs)")
	}
	line("arrivals", "first %s s, last %s s, span %s s (%.2f days)", g(s.FirstSubmitS), g(s.LastSubmitS), g(s.SpanS), s.SpanS/86400)
	line("inter-arrival (s)", "%s", dist(s.Interarrival))
	line("size (procs)", "%s", dist(s.Size))
	line("", "serial %s; power of two (above 1) %s of all jobs, %s of the parallel ones", pct(s.SerialJobs, s.Size.N),
		pct(s.PowerOfTwoJobs, s.Size.N), pct(s.PowerOfTwoJobs, s.Size.N-s.SerialJobs))
	line("runtime (s)", "%s", dist(s.Runtime))
	line("work", "%s processor-seconds", g(s.WorkProcS))
	if s.OfferedLoad != nil {
		line("offered load", "%.4f (work / (machine × arrival span))", *s.OfferedLoad)
	} else {
		line("offered load", "undefined")
	}
	e := s.Estimates
	line("estimates", "%d jobs with one (%s); exact %s, overrun %s", e.Jobs, pct(e.Jobs, s.Jobs), pct(e.Exact, e.Jobs), pct(e.Overrun, e.Jobs))
	line("accuracy", "%s (runtime / estimate)", dist(e.Accuracy))
	if s.MissingSubmit+s.MissingSize+s.MissingRuntime > 0 {
		line("missing", "submit %d, size %d, runtime %d", s.MissingSubmit, s.MissingSize, s.MissingRuntime)
	}
	return b.String()
}

func g(x float64) string { return fmt.Sprintf("%.6g", x) }
