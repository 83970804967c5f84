package scenario

import (
	"fmt"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// The ASCI application stand-ins of thesis 6.3.3 (Table 6.6) and 6.5
// (Fig. 6.14), and the synthetic benchmark of BCS-MPI (thesis 5.4.1,
// Fig. 5.6). The thesis ran the real SAGE and SWEEP3D; gangsim has only
// its BSP application model (model.App), so each stand-in keeps what the
// thesis says of the program's computation and communication and its
// measured dedicated run time, and says what it cannot keep. See doc.go,
// "The ASCI stand-ins".

// ThesisCitationASCI is the reference of the ASCI workloads.
const ThesisCitationASCI = `E. Frachtenberg, "Leveraging Modern Interconnects for Parallel System Software", ` +
	`PhD thesis, Hebrew University of Jerusalem, 2003, section 6.3.3`

// The machine of Table 6.6: "49 PEs (the largest cubic configuration on
// Accelerando, required an optimal data distribution for SWEEP3D)" (thesis
// 6.3.3), on Accelerando's nodes of 2 PEs (thesis Table 1.1). The traces
// describe 25 nodes (50 PEs) and every job spans the first 49 PEs.
const (
	ASCIProcs       = 49
	ASCINodes       = 25
	ASCIPEsPerNode  = 2
	ASCITimeslice   = 75 * model.Millisecond // "a timeslice of 75ms" (6.3.3)
	asciMachineNote = "Accelerando (Itanium-II, QsNet), 50 PEs = 25 nodes x 2 PEs, jobs on PEs 0-48 (thesis 6.3.3: 49 PEs)"
)

// SAGE stand-in (thesis 6.3.3, 5.4.2).
const (
	// SageFastest and SageSlowest bound the computation per iteration:
	// SAGE's granularities vary over processes and time, "mostly residing
	// in the range 2 – 21ms" (6.3.3). The stand-in spreads its processes
	// evenly over that range (model.App.Imbalance), and, the model's
	// processes computing the same every iteration, keeps the spread
	// fixed in time.
	SageFastest = 2 * model.Millisecond
	SageSlowest = 21 * model.Millisecond

	// SageRuntime is SAGE's dedicated run time on 49 PEs of Accelerando:
	// the mean of its FCFS measurements in Table 6.6, 224 s (SAGE / SAGE,
	// the first job), 448 - 224 = 224 s (the second) and 223 s (SAGE /
	// SWEEP3D, SAGE first), 223.667 s.
	SageRuntime = 223667 * model.Millisecond

	// SageFillerRuntime is SAGE's dedicated run time in the runs of Fig.
	// 6.14: "for 62 processors, SAGE runs for 271s in dedicated mode"
	// (6.5). The thesis gives no other size's; the stand-in keeps 271 s at
	// every size (assumed: weak scaling, the same cells per PE).
	SageFillerRuntime = 271 * model.Second
)

// The memory of a process of each program in the runs of Table 6.6
// (model.App.MemPerProcKB, in KB of 1024 bytes; the thesis' MB taken as
// 2^20 bytes, as memory is counted): "SWEEP3D with ≈40,000 cells per PE
// taking up 277MB of main memory per process", "For SAGE ... 500,000
// cells per PE, taking up approximately 520MB of main memory per process"
// (6.3.3). On Accelerando's 2 GB nodes (Table 1.1) two copies of SAGE, two
// processes each, need 2080 MB, two of SWEEP3D 1108 MB, one of each 1594
// MB: only the SAGE pair exceeds a node's memory.
const (
	SageMemKB               = 520 << 10
	Sweep3DAccelerandoMemKB = 277 << 10
)

// SageImbalance is model.App.Imbalance of the SAGE stand-in: its slowest
// process computes SageSlowest, (1 + 9.5) x SageFastest.
const SageImbalance = float64(SageSlowest-SageFastest) / float64(SageFastest)

// SWEEP3D stand-in on Accelerando (thesis 6.3.3).
const (
	// Sweep3DAccelerandoGranularity is SWEEP3D's computation per
	// iteration on Accelerando: "a considerably fine computation
	// granularity of ≈2ms with very little variability or load
	// imbalance" (6.3.3).
	Sweep3DAccelerandoGranularity = 2 * model.Millisecond

	// Sweep3DAccelerandoRuntime is its dedicated run time: the mean of the
	// FCFS measurements of Table 6.6, 217 s (SWEEP3D / SWEEP3D, first job),
	// 434 - 217 = 217 s (second) and 444 - 223 = 221 s (SAGE / SWEEP3D,
	// SWEEP3D second), 218.333 s.
	Sweep3DAccelerandoRuntime = 218333 * model.Millisecond
)

// The filler of Fig. 6.14: "the same synthetic application from Section
// 6.3.1 with a relatively coarse communication granularity of 100ms" (6.5):
// the thesis' BSP program (a ring of blocking exchanges, 6.3.2) computing
// 100 ms per iteration.
const FillerGranularity = 100 * model.Millisecond

// MaxFillerProcs bounds Options.Machines of sage-filler: Accelerando's 64
// PEs (thesis Table 1.1); the thesis' largest run has 62 (6.5).
const MaxFillerProcs = 64

// The synthetic benchmarks of BCS-MPI (thesis 5.4.1, Fig. 5.6): "every
// process computes for a parametric amount of time and
// barrier-synchronizes with all the other processes in a loop"; the
// second exchanges non-blocking messages with its neighbours and waits
// for them. All the chapter's results "were obtained on Crescendo with a
// 500us timeslice" (5.4).
const (
	// BenchGranularity is the benchmark's default computation per
	// iteration, the 10 ms of Fig. 5.6(b) and (d); the workload's
	// attributes set others.
	BenchGranularity = 10 * model.Millisecond

	// MaxBenchProcs bounds Options.Machines of bcs-mpi-bench: Crescendo's
	// 64 PEs (thesis Table 1.1); Fig. 5.6 runs up to 62 processes.
	MaxBenchProcs = 64
)

// sageApp is the SAGE stand-in's program. SAGE exchanges with its nearest
// neighbours with non-blocking calls and ends every compute step with a
// reduce (5.4.2). The model has one pattern per job: the reduce, a
// blocking collective that synchronizes every process once a step, stands
// in as a barrier; the neighbour messages, non-blocking and overlapped with
// the computation, are left out.
func sageApp() model.App {
	return model.App{Granularity: SageFastest, Imbalance: SageImbalance, Pattern: model.PatternBarrier,
		Comm: model.CommBlocking, MemPerProcKB: SageMemKB}
}

// sweep3dAccelerandoApp is SWEEP3D on Accelerando: the Crescendo stand-in's
// program (scenario sweep3d: blocking exchanges with its neighbours, a ring
// standing in for the 4-neighbour stencil, 4 KB messages, assumed) at
// Accelerando's 2 ms.
func sweep3dAccelerandoApp() model.App {
	return model.App{Granularity: Sweep3DAccelerandoGranularity, Pattern: model.PatternRing, Comm: model.CommBlocking,
		MessageBytes: Sweep3DMessageBytes, MemPerProcKB: Sweep3DAccelerandoMemKB}
}

// firstPEs returns the placement of a job on processors 0 to n-1.
func firstPEs(n int) []int {
	pin := make([]int, n)
	for i := range pin {
		pin[i] = i
	}
	return pin
}

// asciJob returns job id, of procs processes on the first procs
// processors, submitted at 0, with its dedicated run time.
func asciJob(id int64, procs int, runtime model.Time, app model.App) model.Job {
	app.Pin = firstPEs(procs)
	return model.Job{
		ID:         id,
		Runtime:    runtime,
		AllocProcs: procs,
		ReqProcs:   procs,
		Status:     model.StatusCompleted,
		Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
			With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldStatus),
		App: app,
	}
}

// sizedTrace returns a trace of jobs on a machine of nodes nodes of pes
// PEs, with notes.
func sizedTrace(computer string, nodes, pes int, jobs []model.Job, notes ...string) *model.Trace {
	var h model.Header
	n := strconv.Itoa(len(jobs))
	h.Add(model.KeyVersion, "2.2")
	h.Add(model.KeyComputer, computer)
	h.Add(model.KeyMaxJobs, n)
	h.Add(model.KeyMaxRecords, n)
	h.Add(model.KeyMaxNodes, strconv.Itoa(nodes))
	h.Add(model.KeyMaxProcs, strconv.Itoa(nodes*pes))
	for _, note := range notes {
		h.Add(model.KeyNote, note)
	}
	return &model.Trace{Header: h, Jobs: jobs}
}

const (
	sageProgramNote = "SAGE stand-in after " + ThesisCitationASCI + ": processes computing 2 to 21 ms per iteration, spread evenly (6.3.3: 'mostly residing in the range 2 - 21ms', varying over time, which the model cannot), " +
		"a blocking barrier per iteration for its reduce (5.4.2; its non-blocking neighbour messages left out), 520 MB per process (6.3.3), "
	sageNote               = sageProgramNote + "dedicated run time 223.667 s (Table 6.6, mean of the FCFS runs)"
	sweep3dAccelerandoNote = "SWEEP3D stand-in after " + ThesisCitationASCI + ": 2 ms per iteration, balanced (6.3.3), blocking exchanges with its neighbours (5.4.3; a ring for the 4-neighbour stencil), 4 KB messages (assumed), 277 MB per process (6.3.3), dedicated run time 218.333 s (Table 6.6, mean of the FCFS runs)"
)

// asciPair is a workload of Table 6.6: two jobs on the same 49 PEs of
// Accelerando, submitted at 0 in the order of the table's column.
func asciPair(first, second string) func(Options) *model.Trace {
	return func(Options) *model.Trace {
		var jobs []model.Job
		var notes []string
		for i, name := range []string{first, second} {
			switch name {
			case "sage":
				jobs = append(jobs, asciJob(int64(i+1), ASCIProcs, SageRuntime, sageApp()))
			default:
				jobs = append(jobs, asciJob(int64(i+1), ASCIProcs, Sweep3DAccelerandoRuntime, sweep3dAccelerandoApp()))
			}
			if i == 0 || name != first {
				notes = append(notes, map[string]string{"sage": sageNote, "sweep3d": sweep3dAccelerandoNote}[name])
			}
		}
		notes = append(notes, "Workload of Table 6.6 (thesis 6.3.3): both jobs submitted at 0 on the same 49 PEs; experiment settings: timeslice 75 ms")
		return sizedTrace(asciMachineNote, ASCINodes, ASCIPEsPerNode, jobs, notes...)
	}
}

// sageFiller is the experiment of Fig. 6.14 (thesis 6.5): SAGE on
// o.Machines PEs of Accelerando, prioritized (PBCS "prioritized SAGE, so
// that it runs whenever it is not blocked"), and a filler of o.TaskLength
// on the same PEs, at low priority; without a filler length, SAGE alone.
func sageFiller(o Options) *model.Trace {
	nodes := (o.Machines + ThesisPEsPerNode - 1) / ThesisPEsPerNode
	sage := sageApp()
	sage.Priority = PBCSPriority
	jobs := []model.Job{asciJob(1, o.Machines, SageFillerRuntime, sage)}
	notes := []string{sageProgramNote + "dedicated run time 271 s at every size (6.5 gives 271 s on 62 PEs; weak scaling assumed), prioritized (PBCS, 6.5)"}
	if o.TaskLength > 0 {
		jobs = append(jobs, asciJob(2, o.Machines, o.TaskLength,
			model.App{Granularity: FillerGranularity, Pattern: model.PatternRing, Comm: model.CommBlocking}))
		notes = append(notes, "Filler after thesis 6.5: the synthetic BSP program of 6.3.2 (ring, blocking calls) at 100 ms per iteration, dedicated run time "+o.TaskLength.String()+", on SAGE's PEs")
	}
	notes = append(notes, "Experiment of Fig. 6.14 (thesis 6.5): both jobs submitted at 0; the machine is assumed to be Accelerando, where the SAGE runs of 6.3.3 were made")
	return sizedTrace(fmt.Sprintf("Accelerando (Itanium-II, QsNet), %d PEs = %d nodes x 2 PEs", 2*nodes, nodes),
		nodes, ThesisPEsPerNode, jobs, notes...)
}

// bcsMPIBench is the synthetic benchmark of thesis 5.4.1 on o.Machines PEs
// of Crescendo (nodes of 2 PEs, Table 1.1), one job of o.TaskLength:
// BenchGranularity and a blocking barrier by default (Fig. 5.6(a), (b));
// the workload's attributes replace the granularity, pattern,
// communication mode and message size (Fig. 5.6(c), (d): non-blocking
// exchanges with the neighbours, 4 KB messages).
func bcsMPIBench(o Options) *model.Trace {
	nodes := (o.Machines + CrescendoPEsPerNode - 1) / CrescendoPEsPerNode
	job := asciJob(1, o.Machines, o.TaskLength, model.App{Granularity: BenchGranularity, Pattern: model.PatternBarrier,
		Comm: model.CommBlocking})
	return sizedTrace(fmt.Sprintf("Crescendo (32 nodes x 2 Pentium-III 1 GHz, QsNet), %d PEs = %d nodes x 2 PEs", 2*nodes, nodes),
		nodes, CrescendoPEsPerNode, []model.Job{job},
		"Synthetic BSP benchmark of BCS-MPI after thesis 5.4.1 (Fig. 5.6): "+strconv.Itoa(o.Machines)+" processes computing and synchronizing in a loop, dedicated run time "+o.TaskLength.String()+
			"; 10 ms and a blocking barrier unless the workload's attributes say otherwise")
}
