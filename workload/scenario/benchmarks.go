package scenario

import (
	"fmt"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// The benchmark scenarios: Options.Tasks identical copies of one of the
// hardware papers' benchmark programs, each on all Options.Machines
// processors, all submitted at 0, as the papers ran their gang-scheduling
// measurements (see doc.go, "The hardware papers' benchmarks").

// MaxCopies bounds Options.Tasks of the benchmark scenarios: the copies
// time-share the machine, one row of a gang scheduler's matrix each, and
// gangsim's gang scheduler has at most 64 rows. The papers ran at most 8
// (thesis 4.3.3.3; Etsion and Feitelson 4.1).
const MaxCopies = 64

// SWEEP3D stand-in (Frachtenberg's thesis; cited as "thesis" below).
const (
	// Sweep3DGranularity is the compute time per iteration: "each compute
	// step takes ≈3.5ms on Crescendo" (thesis 5.4.2).
	Sweep3DGranularity = 3500 * model.Microsecond

	// Sweep3DRuntime is the dedicated run time. The thesis gives none for
	// the Crescendo runs of 4.3.3 (Figs. 4.13-4.15 are missing from the
	// text); this is its dedicated SWEEP3D run, the first FCFS completion
	// of Table 6.6 (217 s on 49 PEs of Accelerando, 6.3.3). The thesis'
	// node-scalability runs (Fig. 4.14) keep the run time "with no visible
	// increase" from 1 to 64 PEs, so the same time serves every size
	// (weak scaling: the same cells per PE).
	Sweep3DRuntime = 217 * model.Second

	// Sweep3DMessageBytes is the size of each message. The thesis gives
	// none; 4 KB is assumed. Under QsNet's model neither a job's progress
	// nor a gang switch depends on it (each job keeps its own NIC
	// context, thesis 3.5).
	Sweep3DMessageBytes = 4096

	// CrescendoPEsPerNode is the PEs per node of Crescendo, the cluster of
	// thesis 4.3.3 (Table 1.1: 32 nodes x 2 Pentium-III).
	CrescendoPEsPerNode = 2
)

// Hori96Runtimes returns the execution times of hori96 Table 1 ("Execution
// time of evaluation programs [sec.]") on 1, 2, 4 and 8 processors, by
// program, "fib" (fib(15,1000)) and "rt" (rt(1000000)).
func Hori96Runtimes() map[string]map[int]model.Time {
	ms := func(v int64) model.Time { return model.Time(v) * model.Millisecond }
	return map[string]map[int]model.Time{
		"fib": {1: ms(15470), 2: ms(77700), 4: ms(105100), 8: ms(121500)},
		"rt":  {1: ms(4090), 2: ms(34550), 4: ms(35560), 8: ms(34940)},
	}
}

// NAS EP and CG stand-ins of hori98 (cited as such below).
const (
	// Hori98Runtime is the dedicated run time of the EP and CG stand-ins.
	// hori98 gives none (class A, 8 to 64 processors, 5); 100 s is
	// assumed. A slowdown measured over the run depends on it only
	// through the last partial slice.
	Hori98Runtime = 100 * model.Second

	// Hori98CGMessageBytes and Hori98CGGranularity make the CG stand-in:
	// a ring of 64 KB messages (assumed: hori98 says only that CG has "a
	// large amount of communication, but not so much as" FT, 5) with
	// 3.163 ms of computation per iteration, so that, at PM's 7.5 us
	// latency and 117.6 MB/s (hori98 Table 2), the exchange with both
	// neighbours (128 KB through the NIC, 1122 us) takes 1122 of every
	// 4285 us: the job communicates 26.18% of its time. That is the buffer occupancy at which the rwc-pc2 model slows
	// CG down by the 8.5% the text bounds at 100 ms on 64 processors
	// (package hwmodel/pm, Fig6Applications), and a gang scheduler that
	// estimates occupancy as the share of time spent communicating
	// (policies' gs) charges it so.
	Hori98CGMessageBytes = 65536
	Hori98CGGranularity  = 3163 * model.Microsecond
)

// Etsion and Feitelson's bandwidth benchmark stand-in (cited as E&F).
const (
	// FMBandwidthRuntime is the dedicated run time of the benchmark. E&F
	// send 500,000 small or 100,000 large messages (4.1) without giving
	// times; 600 s is assumed, long enough that the end of the run, when
	// fewer jobs remain, moves the average bandwidth of 8 jobs at a 3 s
	// quantum by under 0.5%.
	FMBandwidthRuntime = 600 * model.Second

	// FMBandwidthGranularity is the benchmark's computation per
	// iteration, 1 us: it does nothing but send, and 1 us is the least
	// that the job-level model counts as an application (a zero
	// granularity means none).
	FMBandwidthGranularity = model.Microsecond
)

// benchmarkTrace returns copies jobs of one program, each on all procs
// processors of a machine of nodes nodes, submitted at 0, with the given
// dedicated run time and application attributes.
func benchmarkTrace(computer string, copies, procs, nodes int, runtime model.Time, app model.App, notes ...string) *model.Trace {
	var h model.Header
	n := strconv.Itoa(copies)
	h.Add(model.KeyVersion, "2.2")
	h.Add(model.KeyComputer, computer)
	h.Add(model.KeyMaxJobs, n)
	h.Add(model.KeyMaxRecords, n)
	h.Add(model.KeyMaxNodes, strconv.Itoa(nodes))
	h.Add(model.KeyMaxProcs, strconv.Itoa(procs))
	h.Add(model.KeyNote, fmt.Sprintf("%d identical copies of the program below, each on all %d processors, all submitted at 0: under gang scheduling each fills a row of the matrix", copies, procs))
	for _, note := range notes {
		h.Add(model.KeyNote, note)
	}
	known := model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
		With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldStatus)
	jobs := make([]model.Job, copies)
	for i := range jobs {
		jobs[i] = model.Job{
			ID:         int64(i + 1),
			Runtime:    runtime,
			AllocProcs: procs,
			ReqProcs:   procs,
			Status:     model.StatusCompleted,
			Known:      known,
			App:        app.Clone(),
		}
	}
	return &model.Trace{Header: h, Jobs: jobs}
}

// sweep3d is the SWEEP3D stand-in of thesis 4.3.3 on Crescendo: copies of
// a BSP job on all o.Machines PEs (o.Machines/2 nodes of 2 PEs; one node
// of one PE for a single PE), computing Sweep3DGranularity per iteration
// and exchanging Sweep3DMessageBytes with its neighbours with blocking
// calls. SWEEP3D exchanges four messages with its nearest neighbours per
// step (thesis 5.4.3); gangsim's patterns have no 4-neighbour stencil,
// and the ring, two messages per iteration, stands in for it.
func sweep3d(o Options) *model.Trace {
	nodes := (o.Machines + CrescendoPEsPerNode - 1) / CrescendoPEsPerNode
	if o.Machines%CrescendoPEsPerNode != 0 {
		nodes = o.Machines // a flat machine of one PE per node
	}
	app := model.App{Granularity: Sweep3DGranularity, Pattern: model.PatternRing, Comm: model.CommBlocking,
		MessageBytes: Sweep3DMessageBytes}
	return benchmarkTrace("Crescendo (32 nodes x 2 Pentium-III 1 GHz, QsNet), "+strconv.Itoa(o.Machines)+" PEs",
		o.Tasks, o.Machines, nodes, Sweep3DRuntime, app,
		"SWEEP3D stand-in after "+ThesisCitationChapter4+": 3.5 ms compute steps on Crescendo (5.4.2), nearest-neighbour exchange with blocking calls (5.4.3; a ring stands in for the 4-neighbour stencil), 4 KB messages (assumed)",
		"Dedicated run time 217 s: the thesis' dedicated SWEEP3D run (Table 6.6, Accelerando); its Crescendo run times (Figs. 4.13-4.15) are not in the text")
}

// ThesisCitationChapter4 is the reference of the SWEEP3D runs.
const ThesisCitationChapter4 = `E. Frachtenberg, "Leveraging Modern Interconnects for Parallel System Software", ` +
	`PhD thesis, Hebrew University of Jerusalem, 2003, section 4.3.3`

// Hori96Citation and Hori98Citation are the references of the SCore-D
// runs.
const (
	Hori96Citation = `A. Hori et al., "Implementation of Gang-Scheduling on Workstation Cluster" (1996)`
	Hori98Citation = `A. Hori, H. Tezuka and Y. Ishikawa, "Overhead Analysis of Preemptive Gang Scheduling" (1998)`
)

// hori96 is a program of hori96 (fib or rt) on o.Machines of the nine
// SPARCstation 20s, one processor each, with its Table 1 run time. The
// jobs carry no communication attributes: the cost model charges their
// switches with empty buffers, as the overhead model of hori96 Tables 4
// and 5 does (rt has at most one message in flight, hori96 4).
func hori96(program, call string) func(Options) *model.Trace {
	return func(o Options) *model.Trace {
		rt := Hori96Runtimes()[program][o.Machines]
		return benchmarkTrace("SPARCstation 20 cluster (Myrinet, PM, SCore-D, SunOS 4.1.4), "+strconv.Itoa(o.Machines)+" processors",
			o.Tasks, o.Machines, o.Machines, rt, model.App{Pattern: model.PatternNone},
			"Program "+call+" after "+Hori96Citation+": run time "+rt.String()+" on "+strconv.Itoa(o.Machines)+" processors (Table 1)")
	}
}

// hori98EP is the NAS EP stand-in of hori98 on o.Machines PCs of RWC PC
// Cluster II: "almost no communication" (hori98 5), so none.
func hori98EP(o Options) *model.Trace {
	return benchmarkTrace("RWC PC Cluster II (Pentium Pro 200 MHz, Myrinet, PM, SCore-D), "+strconv.Itoa(o.Machines)+" processors",
		o.Tasks, o.Machines, o.Machines, Hori98Runtime, model.App{Pattern: model.PatternNone},
		"NAS EP (class A) stand-in after "+Hori98Citation+": no communication (5); run time 100 s (assumed)")
}

// hori98CG is the NAS CG stand-in of hori98 (see Hori98CGGranularity).
func hori98CG(o Options) *model.Trace {
	app := model.App{Granularity: Hori98CGGranularity, Pattern: model.PatternRing, Comm: model.CommBlocking,
		MessageBytes: Hori98CGMessageBytes}
	return benchmarkTrace("RWC PC Cluster II (Pentium Pro 200 MHz, Myrinet, PM, SCore-D), "+strconv.Itoa(o.Machines)+" processors",
		o.Tasks, o.Machines, o.Machines, Hori98Runtime, app,
		"NAS CG (class A) stand-in after "+Hori98Citation+": a ring of 64 KB messages after 3.163 ms of computation, communicating 26.2% of its time, the buffer occupancy at which the rwc-pc2 model gives CG's slowdown; run time 100 s (assumed)")
}

// EtsionCitation is the reference of the bandwidth benchmark.
const EtsionCitation = `Y. Etsion and D. G. Feitelson, "User-Level Communication in a System with Gang Scheduling"`

// fmBandwidth is E&F's bandwidth benchmark (4.1) on o.Machines nodes of
// ParPar: a job that does nothing but send o.MessageBytes messages, as a
// BSP job of FMBandwidthGranularity and a ring (each process sends one
// message to each neighbour per iteration, one after the other). E&F's
// benchmark is one sender and one receiver; ParPar ran it alone in its
// time slot, so the stand-in spreads over the whole machine, a row of the
// 16-column matrix, its processes pairing up as senders and receivers.
func fmBandwidth(o Options) *model.Trace {
	app := model.App{Granularity: FMBandwidthGranularity, Pattern: model.PatternRing, Comm: model.CommBlocking,
		MessageBytes: o.MessageBytes}
	return benchmarkTrace("ParPar (16 Pentium Pro 200 MHz, Myrinet, Illinois Fast Messages), "+strconv.Itoa(o.Machines)+" nodes",
		o.Tasks, o.Machines, o.Machines, FMBandwidthRuntime, app,
		"FM bandwidth benchmark stand-in after "+EtsionCitation+" (4.1): "+strconv.FormatInt(o.MessageBytes, 10)+"-byte messages, nothing else; run time 600 s (assumed)")
}
