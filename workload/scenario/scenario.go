package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Info describes one scenario.
type Info struct {
	Name        string // the name Build takes, e.g. "balanced"
	Description string // what the workload is, in one sentence
	Source      string // paper, section, figure and table it comes from
}

// Options are the parameters a scenario may take. The zero value suits
// the thesis' static scenarios and the two Calypso experiments; "calypso"
// needs Tasks, Machines and TaskLength, the benchmark scenarios (sweep3d,
// hori96-fib, hori96-rt, hori98-ep, hori98-cg, fm-bandwidth) Tasks and
// Machines, and fm-bandwidth MessageBytes; sage-filler and bcs-mpi-bench
// take Machines (processes) and TaskLength (the filler's run time, 0 for
// none; the benchmark's run time), and sage-pair, sage-sweep3d and
// sweep3d-pair nothing. A field that a scenario does not use must be left
// zero:
// Build rejects it rather than ignore it, so that a manifest never records
// a parameter that shaped nothing.
type Options struct {
	// Comm is the communication mode of the communicating jobs of the
	// thesis scenarios (balanced, imbalanced, complementing, mixed); zero
	// means blocking, the mode of thesis Tables 6.1-6.4. Non-blocking is
	// the variation of thesis Table 6.5.
	Comm model.Comm

	// Tasks and Machines are p and m of the parametric "calypso"
	// scenario: p equal tasks on m machines. Both must be at least 1 and
	// at most MaxCalypsoSize. For a benchmark scenario they are the
	// copies of the program (1 to MaxCopies) and the processors each
	// copy runs on (1 to MaxCalypsoSize; hori96-fib and hori96-rt: 1, 2,
	// 4 or 8, the sizes of hori96 Table 1). Machines is the processes of
	// sage-filler's and bcs-mpi-bench's jobs (1 to 64), Tasks unused.
	Tasks, Machines int

	// TaskLength is each task's sequential run time in simulated
	// microseconds, for "calypso"; it must be positive. For sage-filler it
	// is the filler's dedicated run time (0: SAGE alone), for
	// bcs-mpi-bench the benchmark's (positive).
	TaskLength model.Time

	// MessageBytes is the size in bytes of each message of the
	// fm-bandwidth benchmark; it must be positive.
	MessageBytes int64
}

// MaxCalypsoSize bounds Options.Tasks and Options.Machines, so that a
// mistyped flag gives an error instead of a trace of billions of jobs (a
// job takes about 250 bytes in memory, so the largest trace is about
// 16 MB; the paper's computations have 3 and 5 tasks).
const MaxCalypsoSize = 1 << 16

// Parameter names used by Options.Params.
const (
	ParamComm         = "comm"
	ParamMachines     = "machines"
	ParamMessageBytes = "message-bytes"
	ParamTaskLength   = "task-length"
	ParamTasks        = "tasks"
)

// Params returns the fields of o that are set (non-zero), as manifest
// parameters sorted by name: comm ("blocking" or "non-blocking"),
// machines, message-bytes, task-length (seconds with a unit, as
// model.Time.String formats it: "259s") and tasks.
func (o Options) Params() []model.Param {
	var ps []model.Param
	if o.Comm != model.CommUnspecified {
		ps = append(ps, model.Param{Name: ParamComm, Value: o.Comm.String()})
	}
	if o.Machines != 0 {
		ps = append(ps, model.Param{Name: ParamMachines, Value: strconv.Itoa(o.Machines)})
	}
	if o.MessageBytes != 0 {
		ps = append(ps, model.Param{Name: ParamMessageBytes, Value: strconv.FormatInt(o.MessageBytes, 10)})
	}
	if o.TaskLength != 0 {
		ps = append(ps, model.Param{Name: ParamTaskLength, Value: o.TaskLength.String()})
	}
	if o.Tasks != 0 {
		ps = append(ps, model.Param{Name: ParamTasks, Value: strconv.Itoa(o.Tasks)})
	}
	return ps
}

// ErrUnknownScenario is wrapped by the error Build returns for a name that
// List does not have.
var ErrUnknownScenario = errors.New("unknown scenario")

// ErrInvalidOptions is wrapped by the error Build returns for Options that
// the named scenario cannot use.
var ErrInvalidOptions = errors.New("invalid options")

// takes says which Options fields a scenario uses.
type takes uint8

const (
	takesComm    takes = 1 << iota // Options.Comm
	takesCalypso                   // Options.Tasks, Machines, TaskLength
	takesCopies                    // Options.Tasks (copies) and Machines (processors)
	takesMessage                   // Options.MessageBytes
	takesSized                     // Options.Machines (processes) and TaskLength (a run time)
)

type entry struct {
	info  Info
	takes takes
	build func(Options) *model.Trace
}

// entries returns the scenarios sorted by name. It builds a new slice on
// every call: the package holds no state.
func entries() []entry {
	return []entry{
		{Info{"balanced",
			"two identical balanced 4-process BSP jobs (3 ms, ring) on 2 nodes x 2 PEs",
			"Frachtenberg thesis 6.3.2.1, Fig. 6.3, Table 6.1"},
			takesComm, balanced},
		{Info{"bcs-mpi-bench",
			"one synthetic BSP job (10 ms, blocking barrier, or the workload's attributes) on Options.Machines PEs of Crescendo, Options.TaskLength long",
			"Frachtenberg thesis 5.4.1, Fig. 5.6 (BCS-MPI against Quadrics MPI)"},
			takesSized, bcsMPIBench},
		{Info{"calypso",
			"p equal independent tasks of a given length on m workstations (Options.Tasks, Machines, TaskLength)",
			"McLaughlin & Dasgupta 3.2-3.3 (p tasks on m machines, optimum p t / m)"},
			takesCalypso, calypsoParametric},
		{Info{"calypso-3on2",
			"the ray tracer split into 3 tasks of 259 s on 2 Calypso workstations",
			"McLaughlin & Dasgupta 5.2 Result B, experiment 1 (Fig. 5)"},
			0, calypso3on2},
		{Info{"calypso-5on3",
			"the ray tracer split into 5 tasks of 159.5 s on 3 Calypso workstations",
			"McLaughlin & Dasgupta 5.2 Result B, experiment 2 (Fig. 6)"},
			0, calypso5on3},
		{Info{"complementing",
			"one 4-process job whose processes 1-2 compute 4x per iteration, and three 2-process non-communicating jobs on PEs 3-4",
			"Frachtenberg thesis 6.3.2.3, Fig. 6.5, Table 6.3"},
			takesComm, complementing},
		{Info{"fm-bandwidth",
			"copies (Options.Tasks) of a benchmark that only sends Options.MessageBytes messages, on Options.Machines ParPar nodes",
			"Etsion & Feitelson 4.1 (the bandwidth benchmark of Figs. 5, 6)"},
			takesCopies | takesMessage, fmBandwidth},
		{Info{"hori96-fib",
			"copies (Options.Tasks) of fib(15,1000) on 1, 2, 4 or 8 SPARCstation 20s (Options.Machines), its Table 1 run time",
			"Hori et al. 1996, 4, Table 1 (gang-scheduling overhead, Tables 4, 5, Figs. 6-8)"},
			takesCopies, hori96("fib", "fib(15,1000)")},
		{Info{"hori96-rt",
			"copies (Options.Tasks) of rt(1000000) on 1, 2, 4 or 8 SPARCstation 20s (Options.Machines), its Table 1 run time",
			"Hori et al. 1996, 4, Table 1 (gang-scheduling overhead, Tables 4, 5, Figs. 6-8)"},
			takesCopies, hori96("rt", "rt(1000000)")},
		{Info{"hori98-cg",
			"copies (Options.Tasks) of a NAS CG stand-in communicating 26% of its time, on Options.Machines PCs of RWC PC Cluster II",
			"Hori, Tezuka & Ishikawa 1998, 5 (Figs. 5, 6)"},
			takesCopies, hori98CG},
		{Info{"hori98-ep",
			"copies (Options.Tasks) of a NAS EP stand-in without communication, on Options.Machines PCs of RWC PC Cluster II",
			"Hori, Tezuka & Ishikawa 1998, 5 (Figs. 5, 6)"},
			takesCopies, hori98EP},
		{Info{"imbalanced",
			"two 4-process BSP jobs whose processes 1-2 (job 1) and 3-4 (job 2) compute 2x per iteration",
			"Frachtenberg thesis 6.3.2.2, Fig. 6.4, Table 6.2"},
			takesComm, imbalanced},
		{Info{"mixed",
			"a balanced 4-process job followed by the two complementary imbalanced jobs",
			"Frachtenberg thesis 6.3.2.4, Fig. 6.6, Table 6.4"},
			takesComm, mixed},
		{Info{"sage-filler",
			"a prioritized SAGE stand-in (2-21 ms, barrier, 271 s) on Options.Machines PEs of Accelerando, and a 100 ms filler of Options.TaskLength (0: none)",
			"Frachtenberg thesis 6.5, Fig. 6.14"},
			takesSized, sageFiller},
		{Info{"sage-pair",
			"two SAGE stand-ins (2-21 ms per process, blocking barrier, 223.7 s) on 49 PEs of Accelerando",
			"Frachtenberg thesis 6.3.3, Table 6.6 (SAGE / SAGE)"},
			0, asciPair("sage", "sage")},
		{Info{"sage-sweep3d",
			"a SAGE stand-in, then a SWEEP3D stand-in (2 ms, ring, 218.3 s), on 49 PEs of Accelerando",
			"Frachtenberg thesis 6.3.3, Table 6.6 (SAGE / SWEEP3D)"},
			0, asciPair("sage", "sweep3d")},
		{Info{"sweep3d",
			"copies (Options.Tasks) of a SWEEP3D stand-in (3.5 ms steps, neighbour exchange, 217 s) on Options.Machines PEs of Crescendo",
			"Frachtenberg thesis 4.3.3, Figs. 4.13-4.15 (5.4.2, 5.4.3, Table 6.6 for the stand-in)"},
			takesCopies, sweep3d},
		{Info{"sweep3d-pair",
			"two SWEEP3D stand-ins (2 ms, blocking ring, 218.3 s) on 49 PEs of Accelerando",
			"Frachtenberg thesis 6.3.3, Table 6.6 (SWEEP3D / SWEEP3D)"},
			0, asciPair("sweep3d", "sweep3d")},
	}
}

// List returns every scenario, sorted by name.
func List() []Info {
	es := entries()
	out := make([]Info, len(es))
	for i, e := range es {
		out[i] = e.info
	}
	return out
}

// Names returns the names of every scenario, sorted.
func Names() []string {
	es := entries()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.info.Name
	}
	return out
}

// Build returns a new trace of the named scenario with the given options.
// Every call returns a fresh trace equal to the previous ones: scenarios
// involve no randomness. Errors wrap ErrUnknownScenario (listing the valid
// names) or ErrInvalidOptions (saying what the scenario accepts).
func Build(name string, opts Options) (*model.Trace, error) {
	es := entries()
	i := slices.IndexFunc(es, func(e entry) bool { return e.info.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("scenario: %w %q (valid: %s)", ErrUnknownScenario, name, strings.Join(Names(), ", "))
	}
	e := es[i]
	if err := e.check(opts); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", name, err)
	}
	return e.build(opts), nil
}

// check reports the fields of o that e cannot use.
func (e entry) check(o Options) error {
	var probs []string
	if e.takes&takesComm != 0 {
		if o.Comm != model.CommUnspecified && o.Comm != model.CommBlocking && o.Comm != model.CommNonBlocking {
			probs = append(probs, fmt.Sprintf("communication mode %s is not blocking or non-blocking", o.Comm))
		}
	} else if o.Comm != model.CommUnspecified {
		why := "Calypso tasks do not communicate"
		if e.takes&takesCopies != 0 {
			why = e.info.Name + " fixes its program's communication"
		}
		probs = append(probs, fmt.Sprintf("communication mode %s given, but %s (comm applies to balanced, complementing, imbalanced and mixed)", o.Comm, why))
	}
	switch {
	case e.takes&takesCalypso != 0:
		if o.Tasks < 1 || o.Tasks > MaxCalypsoSize {
			probs = append(probs, fmt.Sprintf("tasks = %d, want 1 to %d", o.Tasks, MaxCalypsoSize))
		}
		if o.Machines < 1 || o.Machines > MaxCalypsoSize {
			probs = append(probs, fmt.Sprintf("machines = %d, want 1 to %d", o.Machines, MaxCalypsoSize))
		}
		if o.TaskLength <= 0 {
			probs = append(probs, fmt.Sprintf("task length = %s, want a positive time", o.TaskLength))
		}
	case e.takes&takesCopies != 0:
		if o.Tasks < 1 || o.Tasks > MaxCopies {
			probs = append(probs, fmt.Sprintf("tasks (copies) = %d, want 1 to %d", o.Tasks, MaxCopies))
		}
		if _, table1 := Hori96Runtimes()["fib"][o.Machines]; strings.HasPrefix(e.info.Name, "hori96-") && !table1 {
			probs = append(probs, fmt.Sprintf("machines = %d, want 1, 2, 4 or 8 (hori96 Table 1)", o.Machines))
		} else if o.Machines < 1 || o.Machines > MaxCalypsoSize {
			probs = append(probs, fmt.Sprintf("machines (processors) = %d, want 1 to %d", o.Machines, MaxCalypsoSize))
		}
		if o.TaskLength != 0 {
			probs = append(probs, fmt.Sprintf("task length = %s given, but %s fixes its run time", o.TaskLength, e.info.Name))
		}
	case e.takes&takesSized != 0:
		most := MaxFillerProcs
		if e.info.Name == "bcs-mpi-bench" {
			most = MaxBenchProcs
		}
		if o.Machines < 1 || o.Machines > most {
			probs = append(probs, fmt.Sprintf("machines (processes) = %d, want 1 to %d", o.Machines, most))
		}
		if o.Tasks != 0 {
			probs = append(probs, fmt.Sprintf("tasks = %d given, but %s runs a fixed set of jobs", o.Tasks, e.info.Name))
		}
		switch {
		case e.info.Name == "sage-filler" && o.TaskLength < 0:
			probs = append(probs, fmt.Sprintf("task length (the filler's run time) = %s, want 0 (no filler) or a positive time", o.TaskLength))
		case e.info.Name != "sage-filler" && o.TaskLength <= 0:
			probs = append(probs, fmt.Sprintf("task length (the run time) = %s, want a positive time", o.TaskLength))
		}
	case o.Tasks != 0 || o.Machines != 0 || o.TaskLength != 0:
		fixed := ""
		if strings.HasPrefix(e.info.Name, "calypso-") {
			fixed = " (" + e.info.Name + " fixes them)"
		}
		probs = append(probs, fmt.Sprintf("tasks, machines and task length apply only to scenario calypso and the benchmark scenarios%s; got tasks = %d, machines = %d, task length = %s",
			fixed, o.Tasks, o.Machines, o.TaskLength))
	}
	if e.takes&takesMessage != 0 {
		if o.MessageBytes <= 0 {
			probs = append(probs, fmt.Sprintf("message size = %d bytes, want a positive size", o.MessageBytes))
		}
	} else if o.MessageBytes != 0 {
		probs = append(probs, fmt.Sprintf("message size given, but it applies only to scenario fm-bandwidth; got %d bytes", o.MessageBytes))
	}
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalidOptions, strings.Join(probs, "; "))
}

// Validate checks the invariants of a trace whose jobs carry placement and
// per-process computation (the scenarios of this package, or any such
// trace): the header gives MaxProcs; job IDs are positive and unique;
// submit times are not negative; run times are known and positive; every
// job's size (model.Job.Size) is between 1 and MaxProcs; ProcCompute, when
// set, has one positive entry per process, and Granularity, when also set,
// is its smallest entry (the fastest process, as model.App defines it);
// Pin, when set, has one processor per process, each in [0, MaxProcs),
// no two alike; the pattern and communication mode are known values. It
// returns every violation found, joined.
func Validate(t *model.Trace) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	procs := t.Header.MaxProcs()
	if procs <= 0 {
		bad("header: MaxProcs missing or not positive")
	}
	seen := make(map[int64]bool, len(t.Jobs))
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if !j.Has(model.FieldJobID) || j.ID <= 0 {
			bad("job at index %d: job number missing or not positive", i)
		} else if seen[j.ID] {
			bad("job %d: job number repeated", j.ID)
		}
		seen[j.ID] = true
		if j.Has(model.FieldSubmit) && j.Submit < 0 {
			bad("job %d: negative submit time %s", j.ID, j.Submit)
		}
		if !j.Has(model.FieldRuntime) || j.Runtime <= 0 {
			bad("job %d: run time missing or not positive", j.ID)
		}
		size := j.Size()
		if size < 1 || procs > 0 && size > procs {
			bad("job %d: size %d outside [1, %d]", j.ID, size, procs)
		}
		a := &j.App
		if n := len(a.ProcCompute); n > 0 {
			if n != size {
				bad("job %d: %d per-process compute times for %d processes", j.ID, n, size)
			}
			if m := slices.Min(a.ProcCompute); m <= 0 {
				bad("job %d: per-process compute time %s not positive", j.ID, m)
			} else if a.Granularity != 0 && a.Granularity != m {
				bad("job %d: granularity %s is not the fastest process's compute time %s", j.ID, a.Granularity, m)
			}
		}
		if n := len(a.Pin); n > 0 {
			if n != size {
				bad("job %d: %d pinned processors for %d processes", j.ID, n, size)
			}
			used := make(map[int]int, n)
			for k, pe := range a.Pin {
				if pe < 0 || procs > 0 && pe >= procs {
					bad("job %d: process %d pinned to processor %d outside [0, %d)", j.ID, k, pe, procs)
				}
				if prev, dup := used[pe]; dup {
					bad("job %d: processes %d and %d both pinned to processor %d", j.ID, prev, k, pe)
				}
				used[pe] = k
			}
		}
		if a.Pattern > model.PatternBarrier {
			bad("job %d: unknown communication pattern %s", j.ID, a.Pattern)
		}
		if a.Comm > model.CommNonBlocking {
			bad("job %d: unknown communication mode %s", j.ID, a.Comm)
		}
	}
	return errors.Join(errs...)
}
