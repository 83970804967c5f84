package model

import (
	"fmt"
	"math"
	"strconv"
)

// Pattern is a job's communication pattern in each BSP iteration.
type Pattern uint8

// Communication patterns. PatternUnspecified is the zero value.
const (
	PatternUnspecified Pattern = iota
	PatternNone                // no communication (embarrassingly parallel)
	PatternRing                // nearest-neighbour exchange on a ring (thesis 6.3.2, 6.4.1)
	PatternAllToAll            // every process exchanges with every other
	PatternBarrier             // a global barrier, no data exchange
)

var patternNames = [...]string{"", "none", "ring", "all-to-all", "barrier"}

// String returns the pattern's name ("ring", "all-to-all"...), or "" when
// unspecified.
func (p Pattern) String() string {
	if int(p) < len(patternNames) {
		return patternNames[p]
	}
	return fmt.Sprintf("pattern(%d)", uint8(p))
}

// ParsePattern parses a name written by Pattern.String. The empty string is
// PatternUnspecified.
func ParsePattern(s string) (Pattern, error) {
	for i, n := range patternNames {
		if s == n {
			return Pattern(i), nil
		}
	}
	return 0, fmt.Errorf("unknown communication pattern %q (want none, ring, all-to-all or barrier)", s)
}

// Comm says whether a job's communication calls block.
type Comm uint8

// Communication modes. CommUnspecified is the zero value.
const (
	CommUnspecified Comm = iota
	CommBlocking         // synchronous calls: the process waits for completion
	CommNonBlocking      // asynchronous calls completed by a wait in the next iteration (thesis Table 6.5)
)

var commNames = [...]string{"", "blocking", "non-blocking"}

// String returns "blocking", "non-blocking", or "" when unspecified.
func (c Comm) String() string {
	if int(c) < len(commNames) {
		return commNames[c]
	}
	return fmt.Sprintf("comm(%d)", uint8(c))
}

// ParseComm parses a name written by Comm.String. The empty string is
// CommUnspecified.
func ParseComm(s string) (Comm, error) {
	for i, n := range commNames {
		if s == n {
			return Comm(i), nil
		}
	}
	return 0, fmt.Errorf("unknown communication mode %q (want blocking or non-blocking)", s)
}

// App describes a job as a bulk-synchronous (BSP) program: every process
// computes for a while, then communicates, iteration after iteration (the
// synthetic application of the thesis, section 1.4 and 6.3.1). The job's
// dedicated runtime (Job.Runtime) fixes how many iterations it runs.
//
// Every zero value means "unspecified".
type App struct {
	// Granularity is the computation time per iteration of the job's
	// fastest process, in simulated microseconds: 5, 50 or 500 ms in the
	// thesis' dynamic workloads (6.4.1), 3 ms in its static ones (6.3.2).
	Granularity Time

	// Pattern is the communication pattern of each iteration.
	Pattern Pattern

	// Comm says whether the communication calls block.
	Comm Comm

	// MessageBytes is the size of each message a process sends per
	// iteration, in bytes.
	MessageBytes int64

	// Imbalance is the per-process load imbalance: the slowest process
	// computes (1 + Imbalance) × Granularity per iteration, and the others
	// are spread evenly between Granularity and that (see
	// ComputePerIteration). 0 is a balanced job. Ignored when ProcCompute
	// is set.
	Imbalance float64

	// ProcCompute, when not empty, gives each process's computation time
	// per iteration explicitly (the static scenarios of thesis Figs.
	// 6.3-6.6). Its length is the job's size.
	ProcCompute []Time

	// MemPerProcKB is the memory each process needs, in KB.
	MemPerProcKB int64

	// Priority raises a job above the others in policies that honour it
	// (PBCS, thesis 6.3.2.3). 0 is normal priority.
	Priority int

	// Pin, when not empty, fixes the processors the job's processes run
	// on (process i on processor Pin[i], 0-based), as the static scenarios
	// place their jobs by hand. Its length is the job's size.
	Pin []int
}

// IsZero reports whether every attribute is unspecified.
func (a *App) IsZero() bool {
	return a.Granularity == 0 && a.Pattern == PatternUnspecified && a.Comm == CommUnspecified &&
		a.MessageBytes == 0 && a.Imbalance == 0 && len(a.ProcCompute) == 0 &&
		a.MemPerProcKB == 0 && a.Priority == 0 && len(a.Pin) == 0
}

// Clone returns a copy of a that shares no memory with it.
func (a App) Clone() App {
	if a.ProcCompute != nil {
		a.ProcCompute = append([]Time(nil), a.ProcCompute...)
	}
	if a.Pin != nil {
		a.Pin = append([]int(nil), a.Pin...)
	}
	return a
}

// MaxMessageBytes is the largest message a job's processes may send per
// iteration (App.MessageBytes): 4 GiB. The bytes a process pushes through
// its network interface per round, its peers times its message, then fit
// in an int64 on every machine a policy that reads them simulates (2^26
// processors at most).
const MaxMessageBytes = 1 << 32

// AppRangeError is an application attribute outside its range (App.Check).
type AppRangeError struct {
	Column string // the attribute's column in the trace tables, e.g. "granularity_s"
	Value  string // the value, as text
	Want   string // the range
}

func (e *AppRangeError) Error() string {
	return "column " + e.Column + ": " + strconv.Quote(e.Value) + " out of range (want " + e.Want + ")"
}

// Check returns an *AppRangeError for the first attribute of a outside
// its range, nil if there is none: the times (granularity, each process's
// computation) from 0 to MaxTime, the imbalance finite, not negative and
// keeping the slowest process's computation within MaxTime, the message
// size from 0 to MaxMessageBytes, the memory and the pinned processors
// not negative. The readers of every trace format refuse a job that fails
// it (swf.Checker), and so does the engine.
func (a *App) Check() error {
	secs := func(t Time) string { return string(t.AppendSeconds(nil)) }
	maxSecs := strconv.FormatInt(MaxSeconds, 10) + " s"
	switch {
	case a.Granularity < 0 || a.Granularity > MaxTime:
		return &AppRangeError{"granularity_s", secs(a.Granularity), "0 to " + maxSecs}
	case math.IsNaN(a.Imbalance) || a.Imbalance < 0 || a.Imbalance > math.MaxFloat64 ||
		float64(a.Granularity)*(1+a.Imbalance) > float64(MaxTime):
		return &AppRangeError{"imbalance", strconv.FormatFloat(a.Imbalance, 'g', -1, 64),
			"0 or more, (1+imbalance) x granularity at most " + maxSecs}
	case a.MessageBytes < 0 || a.MessageBytes > MaxMessageBytes:
		return &AppRangeError{"message_bytes", strconv.FormatInt(a.MessageBytes, 10), "0 to " + strconv.Itoa(MaxMessageBytes)}
	case a.MemPerProcKB < 0:
		return &AppRangeError{"mem_per_proc_kb", strconv.FormatInt(a.MemPerProcKB, 10), "0 or more"}
	}
	for _, c := range a.ProcCompute {
		if c < 0 || c > MaxTime {
			return &AppRangeError{"proc_compute_s", secs(c), "each 0 to " + maxSecs}
		}
	}
	for _, p := range a.Pin {
		if p < 0 {
			return &AppRangeError{"pin", strconv.Itoa(p), "processors numbered from 0"}
		}
	}
	return nil
}

// ComputePerIteration returns the computation time per iteration of process
// i (0-based) of a job with n processes: ProcCompute[i] when ProcCompute is
// set, else Granularity × (1 + Imbalance × i/(n-1)), so process 0 is the
// fastest and process n-1 the slowest. It panics if i is not in [0, n).
func (a *App) ComputePerIteration(i, n int) Time {
	if i < 0 || i >= n {
		panic(fmt.Sprintf("model: process %d out of range [0, %d)", i, n))
	}
	if len(a.ProcCompute) > 0 {
		return a.ProcCompute[i]
	}
	if n == 1 || a.Imbalance == 0 {
		return a.Granularity
	}
	f := 1 + a.Imbalance*float64(i)/float64(n-1)
	return Time(float64(a.Granularity)*f + 0.5)
}
