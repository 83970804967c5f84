package procsim

import (
	"fmt"
	"math/rand/v2"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Kind is a local scheduling discipline (see the package documentation).
type Kind uint8

// The disciplines.
const (
	GS Kind = iota
	Local
	SB
	FCS
	BCS
	PBCS
)

// kinds gives each discipline its name and its traits: what the
// simulator's shared machinery, and the gang scheduler that drives it
// (package policies), ask of a discipline beyond its own rules, which
// the switches on Kind state (preferred, wake, waitMode). A new
// discipline is a row here, and a case in those switches.
var kinds = [...]struct {
	name   string
	traits trait
}{
	GS:    {"gs", strobed},
	Local: {"local", sliced},
	SB:    {"sb", sliced | kernel},
	FCS:   {"fcs", strobed | sliced | kernel | classifies},
	BCS:   {"bcs", strobed | buffered},
	PBCS:  {"pbcs", strobed | buffered},
}

// A trait is a set of the disciplines' traits (see the methods of Kind).
type trait uint8

const (
	strobed trait = 1 << iota
	sliced
	kernel
	buffered
	classifies
)

func (k Kind) String() string { return kinds[k].name }

// Strobed reports whether the discipline follows the gang scheduler's
// strobes (SetOwners: the owners of every slot). The others (Local, SB)
// leave each processor to its own round robin, started at a phase drawn
// at random (Config.Rand), and only bound the jobs a processor holds.
func (k Kind) Strobed() bool { return kinds[k].traits&strobed != 0 }

// TimeSliced reports whether the processes sharing a processor take turns
// a time slice each (Config.Quantum, or the kernel's under SchedLinux):
// always under Local and SB, outside a prioritized owner's slot under FCS.
func (k Kind) TimeSliced() bool { return kinds[k].traits&sliced != 0 }

// KernelShared reports whether the node's operating system shares the
// processors among the processes at its own discretion, as Config.Sched
// says: SB, and FCS outside a prioritized owner's claim.
func (k Kind) KernelShared() bool { return kinds[k].traits&kernel != 0 }

// Buffered reports whether communication is buffered coscheduling's,
// performed at micro-timeslice boundaries (Config.MicroSlice): BCS, PBCS.
func (k Kind) Buffered() bool { return kinds[k].traits&buffered != 0 }

// Classifies reports whether the discipline classifies processes (CS, F,
// DC) at the end of their timeslices (EndSlot; Stats.Class): FCS.
func (k Kind) Classifies() bool { return kinds[k].traits&classifies != 0 }

// Config sets up a Sim.
type Config struct {
	Kind Kind
	// Machine gives the processors (its Procs).
	Machine model.Machine
	// Costs is the hardware model of messages; nil: messages take no time.
	Costs hwmodel.Costs
	// Contexts is the number of communication contexts each node's NIC is
	// configured for, with which Costs times every message (0 counts as
	// 1). It is a configuration, not the jobs present: FM's buffer division
	// divides the NIC's buffers "based on the fixed maximal number of
	// contexts to be supported, and is not adapted according to the number
	// that are currently active", which under gang scheduling is "the size
	// of the time slot table" (Etsion and Feitelson 3.1, 4.1): the gang
	// scheduler's MPL. Only Myrinet's buffer division depends on it among
	// the hardware models; a job's dedicated runtime is its run with one.
	Contexts int
	// LocalSwitch is the time a processor takes to switch from one process
	// to another locally (not a gang switch).
	LocalSwitch model.Time
	// Wakeup is the time a blocked process takes to resume on the
	// processor it blocked on, when nothing else ran there meanwhile.
	Wakeup model.Time
	// Quantum is the local round robin's time slice (Local; SB and the DC
	// processes of FCS under SchedBoost).
	Quantum model.Time
	// Sched is how a node's operating system shares a processor among the
	// processes that time-share it at its own discretion (SB, and FCS
	// outside a prioritized owner's claim): SchedLinux, the default, or
	// SchedBoost.
	Sched Sched
	// HZ and SliceTicks are the Linux 2.4 kernel's timer interrupt rate, in
	// ticks per second, and a nice-0 process's time slice in ticks,
	// NICE_TO_TICKS(0); ProcChangePenalty is the goodness a process has on
	// the processor it last ran on over the node's others,
	// PROC_CHANGE_PENALTY (SchedLinux; the hardware preset's).
	HZ, SliceTicks, ProcChangePenalty int
	// SpinThreshold is how long a waiting process spins before it blocks
	// (SB; F and DC processes of FCS).
	SpinThreshold model.Time
	// MicroSlice is BCS's micro-timeslice.
	MicroSlice model.Time
	// MicroOverhead is the start of every micro-timeslice that BCS's NICs
	// spend exchanging and scheduling descriptors (hwmodel.NodeCosts):
	// transfers take the rest of it, a longer one the windows of the
	// following micro-timeslices. It must be below MicroSlice.
	MicroOverhead model.Time
	// DCGranularity and FWaitShare are FCS's classification thresholds: a
	// process whose mean computation between communications is at least
	// DCGranularity is DC; otherwise it is F if, coscheduled in its slot,
	// it spent more than FWaitShare of its running time waiting, else CS.
	DCGranularity model.Time
	FWaitShare    float64
	// Probation is how long FCS coschedules a new job before it first
	// classifies its processes: "FCS always coschedules a job in its first
	// few seconds of running (unlike SB), and then classifies it" (thesis
	// 6.4.4). Until then they are CS and run only in their own slot; the
	// first classification is at the end of the first of their slots that
	// ends after it (0: the first slot's end).
	Probation model.Time
	// Rand draws the phases of the local round robins (Local, SB) and of
	// the processors' timer ticks (SchedLinux; without it under FCS, every
	// processor's ticks start at 0).
	Rand *rand.Rand
	// NoSkip simulates every iteration, even of jobs that run undisturbed
	// (tests compare the two).
	NoSkip bool
}

// Validate reports a configuration the simulator cannot run.
func (c *Config) Validate() error {
	switch {
	case !c.Machine.Valid():
		return fmt.Errorf("procsim: invalid machine %v", c.Machine)
	case c.LocalSwitch < 0 || c.Wakeup < 0 || c.SpinThreshold < 0:
		return fmt.Errorf("procsim: negative local switch or spin threshold")
	case c.Kind.TimeSliced() && c.Quantum <= 0:
		return fmt.Errorf("procsim: %v needs a positive quantum", c.Kind)
	case c.Kind.Buffered() && c.MicroSlice <= 0:
		return fmt.Errorf("procsim: %v needs a positive micro-timeslice", c.Kind)
	case c.Probation < 0:
		return fmt.Errorf("procsim: negative FCS probation %v", c.Probation)
	case c.MicroOverhead < 0 || c.MicroSlice > 0 && c.MicroOverhead >= c.MicroSlice:
		return fmt.Errorf("procsim: micro-timeslice overhead %v not in [0, micro-timeslice %v)", c.MicroOverhead, c.MicroSlice)
	case !c.Kind.Strobed() && c.Rand == nil:
		return fmt.Errorf("procsim: %v needs a random source for the round robins' phases", c.Kind)
	case c.Sched > SchedBoost:
		return fmt.Errorf("procsim: unknown local scheduler %d", c.Sched)
	case c.Kind.KernelShared() && c.Sched == SchedLinux && (c.HZ <= 0 || c.HZ > int(model.Second) || c.SliceTicks <= 0 || c.ProcChangePenalty < 0):
		return fmt.Errorf("procsim: %v under Linux needs the kernel's timer rate (HZ %d, 1 to %d), slice (%d ticks, positive) and processor change penalty (%d, not negative)",
			c.Kind, c.HZ, model.Second, c.SliceTicks, c.ProcChangePenalty)
	}
	return nil
}

// Sched is a node operating system's way of sharing a processor among the
// processes that time-share it (see the package documentation).
type Sched uint8

// The local schedulers.
const (
	// SchedLinux is Linux 2.4's scheduler (kernel/sched.c; linux.go): a
	// counter of time-slice ticks per process, epochs, goodness, one run
	// queue per node under SB; a woken process keeps its counter and
	// preempts only a process with less.
	SchedLinux Sched = iota
	// SchedBoost is an idealised time-sharing scheduler: a woken process
	// gets a whole time slice back and preempts a process that only spins
	// or has less of its slice left.
	SchedBoost
)

var schedNames = [...]string{"linux", "boost"}

func (s Sched) String() string { return schedNames[s] }

// Class is an FCS process class (thesis 6.2.1, Fig. 6.1).
type Class uint8

// FCS classes. A process is CS until first classified.
const (
	CS Class = iota // coscheduled: fine-grained, communicates effectively when coscheduled
	F               // frustrated: fine-grained, but waits much even when coscheduled
	DC              // don't care: coarse-grained
)

var classNames = [...]string{"CS", "F", "DC"}

func (c Class) String() string { return classNames[c] }

// Stats is what the simulator measured of a job: processor time summed over
// its processes.
type Stats struct {
	CPU, Spin, Blocked model.Time    // computing; spinning; blocked (wall time)
	Class              [3]model.Time // time spent in each FCS class (process-time, from placement)
	Events             int64         // events processed for the job: its computation ends and its wake-ups by a message (not every arrival)
}

// phase is what a process is doing in its program.
type phase uint8

const (
	phCompute phase = iota // computing (an iteration's computation or the tail)
	phWait                 // waiting for messages
	phDone
)

// proc is a process.
type proc struct {
	id    int32 // its index in Sim.procs
	job   *job  // its job
	idx   int32 // its rank in the job
	cpu   int32
	fan   int32 // its job's messages per round
	phase phase
	// running: the processor runs it (computing or spinning) from since;
	// blocked: waiting and off the processor until a message wakes it.
	running, blocked bool
	ran              bool       // it has run: taking a processor back costs a switch
	woke             bool       // woken from a block: resuming costs a wake-up
	runStart         model.Time // when it last got its processor
	sliceEnd         model.Time // end of its local time slice (SB, FCS), while it runs
	budget           model.Time // what was left of its slice when it lost the processor
	since            model.Time
	iter             int        // current iteration (iters: the tail)
	round            int        // blocking: the round waited for
	waitAll          bool       // waiting for every round (non-blocking, or BCS)
	inTail           bool       // computing the tail
	newIter          bool       // process 0 started an iteration: a snapshot is due
	need             int        // iterations' messages needed in each awaited receive slot
	rem              model.Time // computation left in the current phase
	spun             model.Time // spin time in the current wait
	blockedAt        model.Time
	rs               []recvSlot // its receive slots (round × fan + k)
	nicFree          model.Time // when its NIC has sent its last message (a frozen job's: how long after the freeze)
	wakeKey          uint64     // 1 + the seq of its pending wake-up event (the arrival that satisfies its wait), 0 none
	class            Class
	classified       bool // FCS: classified at least once (until then it runs only in its own slot)
	classSince       model.Time
	mem              int64      // its memory in bytes (model.App.MemPerProcKB), 0 unknown
	occMark          model.Time // its run queue's occupied time (Sim.occupied) when it last stopped running
	// FCS measurements over its current own slot.
	mCompute, mWait model.Time
	mCalls          int
	mStart          model.Time // when its current slot's measurements began
	// SchedLinux (linux.go): the kernel's counter, in ticks, as of ctrFrom
	// (charged: its running time since then runs it down), and when it
	// last joined its run queue.
	ctr     int32
	charged bool
	ctrFrom model.Time
	enqAt   model.Time
}

// recvSlot is what a process receives in one receive slot: a round's
// messages from one partner, one per call.
type recvSlot struct {
	recv int        // messages received (cumulative)
	last model.Time // arrival of the last one sent
	in   []msg      // the messages on their way (or arrived, not yet counted in recv), earliest first
}

// msg is a message in flight: when it arrives, and its place among the
// events of that instant (a sequence number of the event queue, reserved
// when it was sent, as if its arrival were an event).
type msg struct {
	at  model.Time
	seq uint64
}

// job is a job's processes and program.
type job struct {
	id       int
	prog     *program
	procs    []int32
	to       []int32 // the receivers of each process's messages in each round (sendTo; not kept for all-to-all)
	fo       *fanout // all-to-all: its messages, a record per sender and call (fanout.go); nil: in the receive slots
	prio     bool
	lat      model.Time        // a round's messages' one-way time (Config.Costs with Config.Contexts)
	left     int               // processes not done
	frozen   bool              // GS: switched out, its messages held
	snaps    [snapHistory]snap // its states at the last starts of an iteration of process 0, a ring (skip.go)
	snapAt   int               // the ring's slot for the next snapshot
	snapDue  bool              // a snapshot is due at the end of the instant
	skipped  int64             // iterations moved over without simulating them
	held     []heldMsg
	inSlot   uint64     // the SetOwners call that last named it
	slotFrom model.Time // from when it owns its processors, as that call said
	stats    Stats
	added    model.Time // when its processes were placed (AddJob)
	// A skip across strobes (skip.go, Steady) moved it ahead: its state is
	// that of landAt, not of the simulator's time, until then; the
	// strobes up to pinTo keep its processes' classes (FCS).
	landAt, pinTo model.Time
	done          bool
	doneAt        model.Time
}

// sendTo returns the processes (indices in Sim.procs) that the process of
// rank i sends its round r messages to, the k-th to its receiver's k-th
// receive slot of the round.
func (j *job) sendTo(i, r int) []int32 {
	fan := j.prog.fan
	at := (i*j.prog.rounds + r) * fan
	return j.to[at : at+fan]
}

// owner is a processor's slot owner and from when it may run.
type owner struct {
	p    int32
	from model.Time
}

// heldMsg is a message of a frozen job: its destination, receive slot and the
// latency it had left when the job was switched out.
type heldMsg struct {
	dst  int32
	slot int
	left model.Time
}

// cpu is a processor.
type cpu struct {
	id        int32      // its index in Sim.cpus
	cur       int32      // the process it runs or switches to, -1 none
	switchEnd model.Time // until then it switches to cur: nothing progresses
	switchAt  model.Time // when that switch began
	switching model.Time // time it spent switching (local and gang switches, wake-ups), up to the start of the one under way
	last      int32      // the process that ran last (a local switch is needed to run another)
	owner     int32      // the slot's process (strobed kinds), -1 none
	ownerFrom model.Time // when the owner may start
	residents []int32
	rr        int        // round-robin position in residents
	qEnd      model.Time // end of the running process's local quantum
	phase     model.Time // local round robin phase (Local, SB under SchedBoost)
	tickPhase model.Time // SchedLinux: its first timer tick (they come HZ times a second)
	busy      model.Time // time it ran a process (computing or spinning)
	skipEnd   model.Time // a skip accounted its busy time up to here ahead of time
	// The owner the SetOwners call under way names (valid while nextAt is
	// that call's number, Sim.strobes; otherwise none).
	nextAt   uint64
	nextP    int32
	nextFrom model.Time
}

// Sim is a process-level simulation. It is driven from outside: jobs are
// added and removed, slot owners set at strobes, and Run advances it.
type Sim struct {
	cfg        Config
	now        model.Time
	q          eventQueue
	cpus       []cpu
	procs      []proc
	free       []int32 // free proc slots
	jobs       []*job
	freeJobs   []int32
	byID       map[int]int32
	ev         int64  // events processed
	msgs       int64  // messages delivered (each was an arrival event before arrivals were lazy)
	wakes      int64  // wake-up events processed (the arrivals that are still events)
	hz         uint64 // the messages due at now with a seq below this have arrived (see arrived)
	skipped    int64  // iterations moved over without simulating them
	crossed    int64  // of which by skips across strobes (tests)
	due        []*job // jobs whose snapshot is due at the end of the instant
	fin        []int32
	afterEvent func()              // tests: called after every event
	until      model.Time          // the bound of the Run under way
	steady     steady              // the strobes that change nothing before a bound (Steady), for the Run under way
	era        uint64              // counts the external actions (jobs added or removed, strobes)
	moved      []msg               // scratch of skip: the messages in flight it re-times
	movedN     []int               // scratch of skip: how many of them per receive slot
	inSlot     []int32             // the jobs the last SetOwners named, in order: the only ones that may own processors
	prevSlot   []int32             // scratch of SetOwners: the jobs the call before named
	owned      []int32             // the processors the last SetOwners gave an owner, ascending (RemoveJob may have cleared some since)
	occ        cpuSet              // the processors with residents
	strobing   cpuSet              // scratch of SetOwners: the processors whose owner may change
	strobes    uint64              // counts the calls of SetOwners (job.inSlot, cpu.nextAt)
	mem        hwmodel.MemoryCosts // the node memory and paging of Config.Costs; nil: no paging
	nodeUse    []int64             // the memory the processes on each node need, in bytes
}

// New returns a simulator for cfg. It panics if cfg does not Validate.
func New(cfg Config) *Sim {
	if err := cfg.Validate(); err != nil {
		panic(err.Error())
	}
	n := cfg.Machine.Procs()
	s := &Sim{cfg: cfg, q: newEventQueue(), cpus: make([]cpu, n), byID: map[int]int32{}, occ: newCPUSet(n), strobing: newCPUSet(n)}
	if m, ok := hwmodel.Memory(cfg.Costs); ok {
		s.mem, s.nodeUse = m, make([]int64, cfg.Machine.Nodes)
	}
	s.q.grow(int32(len(s.cpus)))
	for i := range s.cpus {
		c := &s.cpus[i]
		c.id = int32(i)
		c.cur, c.last, c.owner = -1, -1, -1
		switch {
		case s.linux():
			if cfg.Rand != nil {
				c.tickPhase = model.Time(cfg.Rand.Int64N(int64(model.Second) / int64(cfg.HZ)))
			}
		case !cfg.Kind.Strobed():
			c.phase = model.Time(cfg.Rand.Int64N(int64(cfg.Quantum)))
		}
	}
	return s
}

// The timer slots of the event queue: one per processor (its switch's end)
// and two per process (its computation's or spin's end; its wake-up).

func (s *Sim) cpuSlot(ci int32) uint32   { return uint32(ci)<<2 | kindClass(evCPU) }
func (s *Sim) timerSlot(pi int32) uint32 { return uint32(pi)<<2 | kindClass(evCompute) }
func (s *Sim) wakeSlot(pi int32) uint32  { return uint32(pi)<<2 | kindClass(evArrive) }

// cancelTimer takes p's pending computation or spin end, now stale, out of
// the queue.
func (s *Sim) cancelTimer(p *proc) { s.q.cancel(s.timerSlot(p.id)) }

// cancelSwitch takes c's pending switch end, now stale, out of the queue.
func (s *Sim) cancelSwitch(c *cpu) { s.q.cancel(s.cpuSlot(c.id)) }

// Now is the simulator's time.
func (s *Sim) Now() model.Time { return s.now }

// Events is the number of events processed so far.
func (s *Sim) Events() int64 { return s.ev }

// Messages is the number of messages sent so far (re-timed ones, of a
// job switched back in or moved forward by a skip, counted again): each
// used to be an arrival event; now only the arrival that satisfies a
// waiting process is one.
func (s *Sim) Messages() int64 { return s.msgs }

// EventsPerMessage is the number of events processed so far as they were
// counted when every message's arrival was an event: Events, less the
// wake-ups, plus the messages sent.
func (s *Sim) EventsPerMessage() int64 { return s.ev - s.wakes + s.msgs }

// Skipped is the number of job iterations moved over so far without
// simulating them (see skip.go).
func (s *Sim) Skipped() int64 { return s.skipped }
