package model

import (
	"fmt"
	"math"
	"strconv"
)

// Outcome is what happened to one job in a simulated run: when it was
// submitted, started and finished, and the derived per-job metrics.
//
// A rejected job (Reason not empty) never ran: Start and End are Never and
// the derived metrics are zero.
type Outcome struct {
	JobID  int64 // the job's ID in the input trace
	Submit Time  // arrival time
	// Start is when the job left the queue: when it was given its
	// processors (batch), placed in the gang matrix (time sharing, where
	// its row's first slot may come later: the thesis' wait T_w, "the time
	// the job spends in the queue", ends there, 6.4.1), or first given a
	// machine (dcs). Wait is Start - Submit.
	Start     Time
	End       Time // completion time
	Procs     int  // processors allocated
	Estimate  Time // the user's runtime estimate the scheduler saw; 0 if none
	Runtime   Time // wall-clock time from start to end in this run (includes suspensions under time sharing)
	Dedicated Time // runtime alone on a dedicated partition, the T_d of the thesis' bounded slowdown (6.4.1)
	Reason    RejectReason

	// Sharing says which of the time-sharing measurements below a policy
	// filled in: none under batch policies, Switches and SwitchLoss under
	// job-level time sharing, all of them at process level.
	Sharing Sharing
	// Switches is the number of gang (global) context switches that
	// switched the job in, from its start to its end.
	Switches int64
	// SwitchLoss is the time, in simulated microseconds, that the job's
	// processors spent switching it in, during which it made no progress.
	SwitchLoss Time

	// Process level (Sharing == ProcessLevel): processor time summed over
	// the job's processes, in simulated microseconds.
	CPU     Time // computing
	Spin    Time // spinning while waiting for a message or barrier
	Blocked Time // blocked (descheduled while waiting), wall time summed over processes

	// Classes is, under flexible coscheduling (FCS), the share of the
	// job's process-time spent in each class (thesis 6.2.1, Fig. 6.1),
	// summing to 1; all zero under other policies.
	Classes FCSClasses
}

// Sharing says how a policy shared the processors, and so which
// time-sharing measurements an Outcome or a Sample carries.
type Sharing uint8

// Levels of time sharing.
const (
	NoSharing    Sharing = iota // space sharing (batch): no time-sharing measurements
	JobLevel                    // gang scheduling of whole jobs: switches and their cost
	ProcessLevel                // processes scheduled on processors: also CPU, spin, blocked
)

var sharingNames = [...]string{"none", "job", "process"}

// String returns "none", "job" or "process".
func (s Sharing) String() string {
	if int(s) < len(sharingNames) {
		return sharingNames[s]
	}
	return fmt.Sprintf("sharing(%d)", uint8(s))
}

// FCSClasses is the share of time in each of flexible coscheduling's
// process classes (thesis 6.2.1): CS (coscheduled: fine-grained and
// communicating effectively when coscheduled), F (frustrated: fine-grained
// but not communicating effectively even when coscheduled) and DC (don't
// care: coarse-grained, scheduled anywhere).
type FCSClasses struct{ CS, F, DC float64 }

// Known reports whether any share is set (the policy was FCS).
func (c FCSClasses) Known() bool { return c.CS != 0 || c.F != 0 || c.DC != 0 }

// Wait is the queueing delay Start - Submit.
func (o *Outcome) Wait() Time { return o.Start - o.Submit }

// Response is the response (turnaround) time End - Submit.
func (o *Outcome) Response() Time { return o.End - o.Submit }

// Completed reports whether the job ran to completion.
func (o *Outcome) Completed() bool { return o.Reason == Accepted }

// Slowdown is the classic slowdown Response / Runtime; 0 for a rejected job
// or a job of zero runtime.
func (o *Outcome) Slowdown() float64 {
	if !o.Completed() || o.Runtime <= 0 {
		return 0
	}
	return float64(o.Response()) / float64(o.Runtime)
}

// BoundedSlowdown is the classic bounded slowdown
// max((Wait + Runtime) / max(Runtime, tau), 1) (Feitelson et al., "Theory
// and practice in parallel job scheduling", 1997), with tau the short-job
// bound; 0 for a rejected job. It is metrics.BoundedSlowdown of the job,
// to the last bit. It panics if tau <= 0.
func (o *Outcome) BoundedSlowdown(tau Time) float64 {
	if tau <= 0 {
		panic("model: BoundedSlowdown with tau <= 0")
	}
	if !o.Completed() {
		return 0
	}
	return max(float64(o.Wait()+o.Runtime)/float64(max(o.Runtime, tau)), 1)
}

// TimeSharingBoundedSlowdown is the thesis' bounded slowdown for time
// sharing, max((Wait + Runtime) / max(Dedicated, tau), 1) (Frachtenberg,
// section 6.4.1): against the runtime the job would have had alone; 0 for
// a rejected job. It is metrics.TimeSharingBoundedSlowdown of the job, to
// the last bit. It panics if tau <= 0.
func (o *Outcome) TimeSharingBoundedSlowdown(tau Time) float64 {
	if tau <= 0 {
		panic("model: TimeSharingBoundedSlowdown with tau <= 0")
	}
	if !o.Completed() {
		return 0
	}
	return max(float64(o.Wait()+o.Runtime)/float64(max(o.Dedicated, tau)), 1)
}

// RealTimeTau is the bounded slowdowns' short-job bound of 10 s of real
// time (Feitelson et al. 1997; the thesis' "10 seconds of real time",
// Frachtenberg 6.4.1) in the time of a workload compressed by factor
// (runtimes and inter-arrival times divided by it): 10 s / factor,
// rounded to the microsecond and at least 1 µs; the thesis compressed by
// 100 and used 0.1 s. It panics unless factor > 0.
func RealTimeTau(factor float64) Time {
	if !(factor > 0) {
		panic(fmt.Sprintf("model: time compression factor %v <= 0", factor))
	}
	return max(FromSecondsFloat(10/factor), Microsecond)
}

// ParamCompress is the manifest parameter of a workload's time compression
// factor (genwork --compress, a spec's "compress").
const ParamCompress = "compress"

// CompressionOf returns the time compression factor of the workload a
// table or trace with header h comes from: the compress parameter of the
// newest manifest of h's chain (ManifestChain) that has one, 1 when none
// does. A value that is not a positive number is an error.
func CompressionOf(h *Header) (float64, error) {
	for _, m := range ManifestChain(h) {
		v, ok := m.Param(ParamCompress)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("manifest parameter %s=%q is not a positive factor", ParamCompress, v)
		}
		return f, nil
	}
	return 1, nil
}

// RejectReason says why a job was not run; Accepted (the zero value) for a
// job that ran.
type RejectReason uint8

// Reasons a job is rejected at submission.
const (
	Accepted        RejectReason = iota
	RejectTooWide                // needs more processors than the machine has
	RejectNoSize                 // processor count missing or not positive
	RejectNoRuntime              // runtime missing or negative: nothing to simulate
	RejectTooLong                // runtime beyond what the engine can account (years)
)

var rejectNames = [...]string{"", "too-wide", "no-size", "no-runtime", "too-long"}

// String returns a short name: "" for Accepted, "too-wide", "no-size",
// "no-runtime", "too-long".
func (r RejectReason) String() string {
	if int(r) < len(rejectNames) {
		return rejectNames[r]
	}
	return fmt.Sprintf("reject(%d)", uint8(r))
}

// ParseRejectReason parses a name written by RejectReason.String.
func ParseRejectReason(s string) (RejectReason, error) {
	for i, n := range rejectNames {
		if s == n {
			return RejectReason(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rejection reason %q", s)
}

// OutcomeWriter writes per-job outcomes in the order they are given. Write
// must not retain o after it returns: producers reuse it.
type OutcomeWriter interface {
	Write(o *Outcome) error
	Close() error
}

// OutcomeList is the one in-memory OutcomeWriter: it keeps a copy of
// every outcome written, in order.
type OutcomeList []Outcome

// Write implements OutcomeWriter.
func (l *OutcomeList) Write(o *Outcome) error { *l = append(*l, *o); return nil }

// Close implements OutcomeWriter.
func (*OutcomeList) Close() error { return nil }

// ByID returns the outcomes by job ID (a job written twice: its last).
func (l OutcomeList) ByID() map[int64]Outcome {
	m := make(map[int64]Outcome, len(l))
	for _, o := range l {
		m[o.JobID] = o
	}
	return m
}

// Sample is the state of a simulated system over an interval of simulated
// time, one row of a run's time series.
type Sample struct {
	At        Time    // start of the interval
	InSystem  int     // jobs queued, running or suspended
	Queued    int     // jobs waiting for their first start
	Running   int     // jobs progressing
	Suspended int     // jobs started and descheduled
	BusyProcs float64 // processors allocated to running jobs (whole nodes under node allocation), each job's counted for the share of time its duty runs it; at process level, the processors running a process (computing or spinning) at At

	// Sharing says which of the measurements below are filled in, as for
	// Outcome.Sharing.
	Sharing Sharing
	// Rows is the number of occupied rows of a gang scheduler's matrix: the
	// multiprogramming level in use.
	Rows int
	// Switching is the share of the processors' time spent in gang
	// switches, averaged over the scheduler's current cycle of rows.
	Switching float64

	// Process level: the processes of the jobs in the system in each state
	// at At (after the events of that moment): the process-level
	// simulation runs ahead of the job events, and the engine stops it at
	// every sample of a periodic time series to read it there.
	Computing, Spinning, BlockedProcs, Ready float64
}

// SampleWriter receives time-series samples in time order. WriteSample must
// not retain s.
type SampleWriter interface {
	WriteSample(s *Sample) error
}

// SampleList is the one in-memory SampleWriter: it keeps a copy of every
// sample written, in order.
type SampleList []Sample

// WriteSample implements SampleWriter.
func (l *SampleList) WriteSample(s *Sample) error { *l = append(*l, *s); return nil }
