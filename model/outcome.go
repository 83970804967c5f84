package model

import "fmt"

// Outcome is what happened to one job in a simulated run: when it was
// submitted, started and finished, and the derived per-job metrics.
//
// A rejected job (Reason not empty) never ran: Start and End are Never and
// the derived metrics are zero.
type Outcome struct {
	JobID     int64 // the job's ID in the input trace
	Submit    Time  // arrival time
	Start     Time  // first time any of its processes ran
	End       Time  // completion time
	Procs     int   // processors allocated
	Estimate  Time  // the user's runtime estimate the scheduler saw; 0 if none
	Runtime   Time  // wall-clock time from start to end in this run (includes suspensions under time sharing)
	Dedicated Time  // runtime alone on a dedicated partition, the T_d of the thesis' bounded slowdown (6.4.1)
	Reason    RejectReason
}

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
// max(Response / max(Runtime, tau), 1) (Feitelson et al., "Theory and
// practice in parallel job scheduling", 1997), with tau the short-job bound;
// 0 for a rejected job. It panics if tau <= 0.
func (o *Outcome) BoundedSlowdown(tau Time) float64 {
	if tau <= 0 {
		panic("model: BoundedSlowdown with tau <= 0")
	}
	if !o.Completed() {
		return 0
	}
	return max(float64(o.Response())/float64(max(o.Runtime, tau)), 1)
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

// Sample is the state of a simulated system over an interval of simulated
// time, one row of a run's time series.
type Sample struct {
	At        Time    // start of the interval
	InSystem  int     // jobs queued, running or suspended
	Queued    int     // jobs waiting for their first start
	Running   int     // jobs progressing
	Suspended int     // jobs started and descheduled
	BusyProcs float64 // processors in use (whole nodes under node allocation); fractional under partial progress rates
}

// SampleWriter receives time-series samples in time order. WriteSample must
// not retain s.
type SampleWriter interface {
	WriteSample(s *Sample) error
}
