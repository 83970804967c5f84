package qsnet

import (
	"errors"
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// BCS is the timing of BCS-MPI, the communication library of Buffered
// Coscheduling (thesis ch. 5): a global strobe starts every
// micro-timeslice; in its first micro-phases the NICs exchange the
// communication descriptors posted during the previous timeslice and
// schedule the matching transfers (Overhead), which they then perform in
// the rest of the timeslice (5.3.3, 5.3.4, pp. 62-63). A process that
// makes a blocking call is suspended until the timeslice after the
// transfer; a non-blocking call only posts a descriptor and the transfer
// overlaps the process's computation (5.3.1, pp. 59-61).
//
// Time is measured from a strobe: timeslice k is [k Timeslice,
// (k+1) Timeslice). The protocol runs on the NIC threads, not the host
// CPUs (5.2, p. 59), so the host loses compute only by waiting in
// blocking calls.
type BCS struct {
	// Timeslice is the micro-timeslice between global strobes: 500 us in
	// chapter 5 (5.4, p. 65), 250 us in the 6.3.2 runs (p. 78).
	Timeslice model.Time
	// Overhead is the descriptor exchange and message scheduling
	// micro-phases at the start of each timeslice, about 125 us (5.3.4,
	// p. 63).
	Overhead model.Time
}

// ErrBCS is wrapped by the errors of BCS.Validate.
var ErrBCS = errors.New("invalid BCS timing")

// Validate reports whether b can be used: a positive Timeslice and an
// Overhead in [0, Timeslice).
func (b BCS) Validate() error {
	if b.Timeslice <= 0 {
		return fmt.Errorf("qsnet: %w: timeslice %v, must be positive", ErrBCS, b.Timeslice)
	}
	if b.Overhead < 0 || b.Overhead >= b.Timeslice {
		return fmt.Errorf("qsnet: %w: overhead %v, must be in [0, timeslice %v)", ErrBCS, b.Overhead, b.Timeslice)
	}
	return nil
}

// mustValid panics if b is unusable: the methods' precondition.
func (b BCS) mustValid() {
	if err := b.Validate(); err != nil {
		panic(err.Error())
	}
}

// BlockingDelay is the expected time a blocking call (MPI_Send, MPI_Recv
// and the collectives) suspends its process when the message fits in one
// timeslice: 1.5 timeslices on average (5.3.1.1, p. 60; 375 us with the
// 250 us timeslice of 6.3.2, p. 78). The call waits for the rest of the
// timeslice it is posted in (half of one on average) and the whole next
// one, in which the transfer is scheduled and performed. It panics if b is
// invalid.
func (b BCS) BlockingDelay() model.Time {
	b.mustValid()
	return b.Timeslice * 3 / 2
}

// NonBlockingDelay is the time a non-blocking call (MPI_Isend, MPI_Irecv)
// suspends its process: 0, the call only posts a descriptor and the
// transfer is overlapped with computation (5.3.1.2, p. 61). The data are
// there by Completion; a wait before then blocks until it.
func (b BCS) NonBlockingDelay() model.Time { return 0 }

// TransmitWindow is the part of each timeslice left for transfers after
// the descriptor exchange and scheduling: Timeslice - Overhead. It panics
// if b is invalid.
func (b BCS) TransmitWindow() model.Time {
	b.mustValid()
	return b.Timeslice - b.Overhead
}

// Timeslices returns the number of timeslices a message of bytes bytes
// takes at bytesPerSecond: messages that do not fit in one TransmitWindow
// are chunked over consecutive timeslices (5.3.1.1 step 3, p. 60; 5.3.4,
// p. 63). Every message, however short, takes at least one. It panics if
// b is invalid or bytesPerSecond is not positive.
func (b BCS) Timeslices(bytes int64, bytesPerSecond float64) int64 {
	b.mustValid()
	if !(bytesPerSecond > 0) {
		panic(fmt.Sprintf("qsnet: BCS.Timeslices: bandwidth %v, must be positive", bytesPerSecond))
	}
	if bytes <= 0 {
		return 1
	}
	perSlice := bytesPerSecond * b.TransmitWindow().Seconds()
	return max(1, int64(math.Ceil(float64(bytes)/perSlice)))
}

// Completion returns when a call posted at time posted (measured from a
// strobe, see BCS) that moves a message taking slices timeslices is
// complete and a blocked caller restarts: at the start of the timeslice
// after the last one of the transfer. Posted in timeslice k, the transfer
// is scheduled in timeslice k+1 and occupies timeslices k+1 to k+slices,
// so the call completes at (k + 1 + slices) Timeslice (5.3.1.1, p. 60).
// With one slice and posted uniform in a timeslice, Completion - posted
// is BlockingDelay on average. slices below 1 count as 1. It panics if b
// is invalid.
func (b BCS) Completion(posted model.Time, slices int64) model.Time {
	b.mustValid()
	k := posted / b.Timeslice
	if posted < 0 && posted%b.Timeslice != 0 {
		k-- // floor for times before the epoch
	}
	return (k + 1 + model.Time(max(slices, 1))) * b.Timeslice
}

// SchedulingFraction is Overhead / Timeslice, the fraction of every
// timeslice the NICs spend exchanging descriptors and scheduling: 0.25
// with 125 us of 500 us. It is not lost by the host CPUs, which keep
// computing (5.2, p. 59); it is lost to transfers. It panics if b is
// invalid.
func (b BCS) SchedulingFraction() float64 {
	b.mustValid()
	return float64(b.Overhead) / float64(b.Timeslice)
}

// ComputeLoss returns the fraction of its time a process loses waiting in
// blocking calls when it computes for granularity between consecutive
// blocking calls of one timeslice each and nothing fills the wait:
// d / (granularity + d) with d = BlockingDelay. Non-blocking calls lose
// nothing. A scheduler that runs another job in the wait (as BCS job
// scheduling does, 6.2.2, p. 76) recovers part of it. granularity below 0
// counts as 0. It panics if b is invalid.
func (b BCS) ComputeLoss(granularity model.Time) float64 {
	d := float64(b.BlockingDelay())
	return d / (float64(max(granularity, 0)) + d)
}
