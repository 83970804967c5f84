package metrics

import (
	"fmt"

	"github.com/gangsim/gangsim/model"
)

// Summary accumulates a run's aggregate metrics from outcomes, one at a
// time, in constant memory. The zero value is ready to use with DefaultTau;
// set Tau before the first Add to change it.
type Summary struct {
	// Tau is the short-job bound of the bounded slowdowns; 0 means
	// DefaultTau.
	Tau model.Time

	Jobs     int // completed jobs
	Rejected int // jobs rejected at submission

	first, last model.Time // earliest submit, latest end, of completed jobs
	sumWait     float64    // seconds
	sumResponse float64    // seconds
	sumBsld     float64
	sumTSBsld   float64
	work        float64 // processor-seconds of work of the completed jobs (see work)
	shared      bool    // some outcome was time-shared
}

// Add accounts one outcome.
func (s *Summary) Add(o *model.Outcome) {
	if !o.Completed() {
		s.Rejected++
		return
	}
	tau := s.Tau
	if tau == 0 {
		tau = DefaultTau
	}
	if s.Jobs == 0 {
		s.first, s.last = o.Submit, o.End
	}
	s.Jobs++
	s.first = min(s.first, o.Submit)
	s.last = max(s.last, o.End)
	s.sumWait += o.Wait().Seconds()
	s.sumResponse += o.Response().Seconds()
	s.sumBsld += BoundedSlowdown(o.Wait(), o.Runtime, tau)
	s.sumTSBsld += TimeSharingBoundedSlowdown(o.Wait(), o.Runtime, o.Dedicated, tau)
	s.work += work(o)
	s.shared = s.shared || o.Sharing != model.NoSharing
}

// Write implements model.OutcomeWriter, so a Summary can sit in a chain of
// outcome writers.
func (s *Summary) Write(o *model.Outcome) error { s.Add(o); return nil }

// Close implements model.OutcomeWriter.
func (s *Summary) Close() error { return nil }

// Makespan is the time from the first submit to the last completion.
func (s *Summary) Makespan() model.Time {
	if s.Jobs == 0 {
		return 0
	}
	return s.last - s.first
}

// MeanWait is the mean wait in seconds (0 with no jobs).
func (s *Summary) MeanWait() float64 { return s.mean(s.sumWait) }

// MeanResponse is the mean response time in seconds.
func (s *Summary) MeanResponse() float64 { return s.mean(s.sumResponse) }

// MeanBoundedSlowdown is the mean classic bounded slowdown.
func (s *Summary) MeanBoundedSlowdown() float64 { return s.mean(s.sumBsld) }

// MeanTimeSharingBoundedSlowdown is the mean of the thesis' time-sharing
// bounded slowdown (against dedicated runtimes).
func (s *Summary) MeanTimeSharingBoundedSlowdown() float64 { return s.mean(s.sumTSBsld) }

// Utilization is the fraction of the machine's capacity used by completed
// jobs over the makespan, as the function Utilization computes it: the
// jobs' work (Procs × Td; at process level the time their processes
// computed) over procs × makespan. It panics if procs <= 0.
func (s *Summary) Utilization(procs int) float64 {
	if procs <= 0 {
		panic("metrics: utilization of a machine with no processors")
	}
	if s.Makespan() <= 0 {
		return 0
	}
	return s.work / (float64(procs) * s.Makespan().Seconds())
}

// Throughput is the number of completed jobs per second of makespan (0
// when the makespan is 0).
func (s *Summary) Throughput() float64 {
	if s.Makespan() <= 0 {
		return 0
	}
	return float64(s.Jobs) / s.Makespan().Seconds()
}

func (s *Summary) mean(sum float64) float64 {
	if s.Jobs == 0 {
		return 0
	}
	return sum / float64(s.Jobs)
}

// Line formats the summary on one line for a machine of procs processors.
// The bounded slowdown's tau is named when it is not DefaultTau. Under time
// sharing the bounded slowdown is the thesis' form, against the jobs'
// dedicated runtimes (the classic form, against their time-shared
// runtimes, would hide the cost of sharing).
func (s *Summary) Line(procs int) string {
	tau := ""
	if s.Tau != 0 && s.Tau != DefaultTau {
		tau = " (tau " + s.Tau.String() + ")"
	}
	bsld, name := s.MeanBoundedSlowdown(), "mean bounded slowdown"
	if s.shared {
		bsld, name = s.MeanTimeSharingBoundedSlowdown(), "mean time-sharing bounded slowdown"
	}
	return fmt.Sprintf("%d jobs (%d rejected), makespan %.0f s, utilization %.4f, mean wait %.1f s, mean response %.1f s, %s%s %.3f",
		s.Jobs, s.Rejected, s.Makespan().Seconds(), s.Utilization(procs), s.MeanWait(), s.MeanResponse(), name, tau, bsld)
}
