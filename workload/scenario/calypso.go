package scenario

import (
	"math/bits"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// CalypsoCitation is the reference of the Calypso scenarios (cited as M&D
// below).
const CalypsoCitation = `D. McLaughlin and P. Dasgupta, "Distributed Context Switching: ` +
	`A Technique to Improve Turnaround Times of Distributed Computations"`

// RoundRobinRun is one measured round-robin run: the run time of the
// computation under round-robin distributed context switching with the
// given quantum (M&D 4 Method 3, 5.2 Result B).
type RoundRobinRun struct {
	Quantum model.Time // time slice in simulated microseconds
	Time    model.Time // elapsed time of the whole computation
}

// CalypsoExperiment is one of the two timing experiments of M&D 5.2
// (Result B): a ray-traced picture, symmetrical so that its tasks have
// equal lengths, computed by Calypso NT on Pentium-90 workstations over
// 100 Mb/s Ethernet. Times are elapsed wall-clock times in simulated
// microseconds; zero means the paper does not state it.
type CalypsoExperiment struct {
	Scenario string // the scenario that replays it, e.g. "calypso-3on2"
	Number   int    // the paper's experiment number, 1 or 2
	Tasks    int    // p, the parallel tasks
	Machines int    // m, the workstations

	// Sequential is the run time of the sequential C program without
	// Calypso.
	Sequential model.Time
	// Eager is the run time under Calypso's standard, non-preemptive
	// eager scheduling.
	Eager model.Time
	// RoundRobin lists the round-robin runs the text states.
	RoundRobin []RoundRobinRun
	// Optimal is the run time of the pre-scheduled optimal distributed
	// context switching (M&D 3.3), all overheads included.
	Optimal model.Time
	// EagerSpeedup and OptimalSpeedup are the speedups over Sequential
	// the paper prints (0 where it prints none).
	EagerSpeedup, OptimalSpeedup float64

	// TaskLength is each task's run time under Calypso, derived: Eager
	// divided by the rounds eager scheduling needs, ceil(p/m) (see
	// doc.go).
	TaskLength model.Time
}

// CalypsoExperiments returns the paper's two experiments (M&D 5.2 Result
// B, Figs. 5 and 6, whose numbers survive in the text):
//
//   - 1 (calypso-3on2): 3 tasks on 2 machines; sequential 757 s, eager
//     518 s, round robin 458 s at a 40 s quantum (the best) and 600 s at
//     5 s, optimal 400 s ("speedup of 1.89"); task length 518/2 = 259 s.
//   - 2 (calypso-5on3): 5 tasks on 3 machines; eager 319 s ("speedup of
//     2.37"), round robin 283 s at 50 s, optimal 278 s ("2.72"); task
//     length 319/2 = 159.5 s. The sequential time is not restated; the
//     speedups imply 756 s, the same picture as experiment 1.
func CalypsoExperiments() []CalypsoExperiment {
	return []CalypsoExperiment{
		{
			Scenario: "calypso-3on2", Number: 1, Tasks: 3, Machines: 2,
			Sequential: 757 * model.Second,
			Eager:      518 * model.Second,
			RoundRobin: []RoundRobinRun{
				{Quantum: 40 * model.Second, Time: 458 * model.Second},
				{Quantum: 5 * model.Second, Time: 600 * model.Second},
			},
			Optimal:        400 * model.Second,
			OptimalSpeedup: 1.89,
			TaskLength:     259 * model.Second,
		},
		{
			Scenario: "calypso-5on3", Number: 2, Tasks: 5, Machines: 3,
			Eager: 319 * model.Second,
			RoundRobin: []RoundRobinRun{
				{Quantum: 50 * model.Second, Time: 283 * model.Second},
			},
			Optimal:        278 * model.Second,
			EagerSpeedup:   2.37,
			OptimalSpeedup: 2.72,
			TaskLength:     159500 * model.Millisecond,
		},
	}
}

// OptimalMakespan is the optimum run time of tasks equal tasks of
// taskLength on machines machines with free context switches: p t / m
// when p > m (M&D 3.2), else t. It rounds to the nearest microsecond and
// returns model.Never if the result does not fit. It panics if tasks or
// machines is below 1 or taskLength is negative.
func OptimalMakespan(tasks, machines int, taskLength model.Time) model.Time {
	checkCalypso("OptimalMakespan", tasks, machines, taskLength)
	if tasks <= machines {
		return taskLength
	}
	hi, lo := bits.Mul64(uint64(tasks), uint64(taskLength))
	m := uint64(machines)
	if hi >= m {
		return model.Never
	}
	q, r := bits.Div64(hi, lo, m)
	if 2*r >= m {
		q++
	}
	if q >= uint64(model.Never) {
		return model.Never
	}
	return model.Time(q)
}

// EagerMakespan is the run time of tasks equal tasks of taskLength on
// machines machines without preemption: ceil(p/m) rounds of t (M&D 2,
// Fig. 1: 4 tasks on 3 machines take 2t), as under Calypso's eager
// scheduling, which is non-preemptive (M&D 6.1). It returns model.Never if
// the result does not fit, and panics like OptimalMakespan.
func EagerMakespan(tasks, machines int, taskLength model.Time) model.Time {
	checkCalypso("EagerMakespan", tasks, machines, taskLength)
	rounds := int64((tasks + machines - 1) / machines)
	hi, lo := bits.Mul64(uint64(rounds), uint64(taskLength))
	if hi != 0 || lo >= uint64(model.Never) {
		return model.Never
	}
	return model.Time(lo)
}

func checkCalypso(fn string, tasks, machines int, taskLength model.Time) {
	if tasks < 1 || machines < 1 || taskLength < 0 {
		panic("scenario: " + fn + " needs tasks >= 1, machines >= 1 and a taskLength >= 0")
	}
}

// calypsoTrace maps a Calypso computation onto jobs: each task is a
// single-processor job (a task runs on one machine at a time, M&D 1.2,
// 1.4), submitted at 0 (the parallel step starts all tasks at once, M&D
// 1.2), with its run time as the dedicated run time, no communication
// (Calypso tasks "run independently and do not communicate or
// synchronize", M&D 1.4) and no pinning (a distributed context switch
// moves a task to another machine, M&D 1.3). The machine is a flat pool of
// m one-processor workstations.
func calypsoTrace(tasks, machines int, taskLength model.Time, notes ...string) *model.Trace {
	var h model.Header
	n := strconv.Itoa(tasks)
	m := strconv.Itoa(machines)
	h.Add(model.KeyVersion, "2.2")
	h.Add(model.KeyComputer, "Calypso NT workstations (Pentium-90, 100 Mb/s Ethernet), one task per machine at a time")
	h.Add(model.KeyMaxJobs, n)
	h.Add(model.KeyMaxRecords, n)
	h.Add(model.KeyMaxNodes, m)
	h.Add(model.KeyMaxProcs, m)
	h.Add(model.KeyNote, "Calypso scenario after "+CalypsoCitation)
	h.Add(model.KeyNote, n+" independent equal tasks of "+taskLength.String()+" on "+m+
		" machines, all submitted at 0; each task is a one-processor job that a distributed context switch may move to another machine")
	h.Add(model.KeyNote, "Bounds: optimal p t / m = "+OptimalMakespan(tasks, machines, taskLength).String()+
		" with free switches (M&D 3.2), non-preemptive ceil(p/m) t = "+EagerMakespan(tasks, machines, taskLength).String())
	for _, note := range notes {
		h.Add(model.KeyNote, note)
	}
	known := model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
		With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldStatus)
	jobs := make([]model.Job, tasks)
	for i := range jobs {
		jobs[i] = model.Job{
			ID:         int64(i + 1),
			Runtime:    taskLength,
			AllocProcs: 1,
			ReqProcs:   1,
			Status:     model.StatusCompleted,
			Known:      known,
			App:        model.App{Pattern: model.PatternNone},
		}
	}
	return &model.Trace{Header: h, Jobs: jobs}
}

func calypsoParametric(o Options) *model.Trace {
	return calypsoTrace(o.Tasks, o.Machines, o.TaskLength)
}

func calypsoExperiment(number int) *model.Trace {
	e := CalypsoExperiments()[number-1]
	note := "Paper (M&D 5.2 Result B, experiment " + strconv.Itoa(e.Number) + "): eager " + e.Eager.String()
	for _, rr := range e.RoundRobin {
		note += ", round robin " + rr.Time.String() + " at a " + rr.Quantum.String() + " quantum"
	}
	note += ", optimal " + e.Optimal.String() + "; task length derived as eager / ceil(p/m)"
	return calypsoTrace(e.Tasks, e.Machines, e.TaskLength, note)
}

func calypso3on2(Options) *model.Trace { return calypsoExperiment(1) }

func calypso5on3(Options) *model.Trace { return calypsoExperiment(2) }
