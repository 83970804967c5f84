package policies

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// DCS modes: how a parallel step's tasks share the machines.
const (
	DCSEager   = "eager"   // non-preemptive, idle machines run copies of unfinished tasks
	DCSRR      = "rr"      // round robin with a quantum (M&D 4, Method 3)
	DCSOptimal = "optimal" // the recursive allocation of M&D 3.3
)

// DCS task-length histories: where the optimal allocation's task lengths
// come from (M&D 4).
const (
	HistoryKnown   = "known"   // the trace's runtimes: the lengths the tasks really take
	HistoryStatic  = "static"  // the trace's estimates: the lengths an earlier run measured (Method 2)
	HistoryDynamic = "dynamic" // measured on the step's first round (Method 1)
)

// DCSConfig is the configuration of distributed context switching, with
// the defaults DefaultDCSConfig gives.
type DCSConfig struct {
	// Mode is DCSEager, DCSRR or DCSOptimal. Default optimal.
	Mode string
	// Quantum is round robin's time slice, switch included, positive.
	// Default 40 s, the best of experiment 1 (M&D 5.2 Result B: 40 s beat
	// 50 s and 5 s).
	Quantum model.Time
	// History is where the optimal allocation's task lengths come from:
	// HistoryKnown, HistoryStatic or HistoryDynamic. Default known.
	History string
	// Speeds are the machines' speeds relative to the speed the trace's
	// runtimes were measured at, each in (0, 1]; machine i runs at
	// Speeds[i], machines past the list at 1. Nil: identical machines, as
	// in the paper's experiments (M&D 5.2).
	Speeds []float64
}

// DefaultDCSConfig is DCSConfig's defaults.
func DefaultDCSConfig() DCSConfig {
	return DCSConfig{Mode: DCSOptimal, Quantum: 40 * model.Second, History: HistoryKnown}
}

// Validate reports a configuration DCS cannot run.
func (c DCSConfig) Validate() error {
	switch {
	case c.Mode != DCSEager && c.Mode != DCSRR && c.Mode != DCSOptimal:
		return paramErrorf("mode=%q: want eager, rr or optimal", c.Mode)
	case c.Quantum <= 0:
		return paramErrorf("quantum=%v: want a positive time slice", c.Quantum)
	case c.History != HistoryKnown && c.History != HistoryStatic && c.History != HistoryDynamic:
		return paramErrorf("history=%q: want known, static or dynamic", c.History)
	}
	for i, s := range c.Speeds {
		if !(s > 0 && s <= 1) {
			return paramErrorf("speeds: machine %d's speed %v is not in (0, 1]", i+1, s)
		}
	}
	return nil
}

// dcsParams documents dcs's parameters for the registry.
var dcsParams = map[string]string{
	"mode":    "eager (Calypso's: no preemption, idle machines run copies, the first to finish wins), rr (round robin) or optimal (the recursive allocation, default)",
	"quantum": "time slice of round robin, switch included, e.g. 5s (default 40s, the best of M&D 5.2 experiment 1); mode=rr only",
	"history": "known (the trace's runtimes, default), static (its estimates: an earlier run's task times, M&D 4 Method 2) or dynamic (measured on the step's first round, Method 1: needs more than 2m tasks): the optimal allocation's task lengths; mode=optimal only",
	"speeds":  "relative machine speeds in (0, 1], colon-separated, e.g. 1:1:0.5 (default all 1; machines past the list run at 1)",
}

func dcsConfig(p Params) (DCSConfig, error) {
	c := DefaultDCSConfig()
	var err error
	if c.Mode, err = p.Choice("mode", c.Mode, DCSEager, DCSRR, DCSOptimal); err != nil {
		return c, err
	}
	if c.Quantum, err = p.Duration("quantum", c.Quantum, 1); err != nil {
		return c, err
	}
	if c.History, err = p.Choice("history", c.History, HistoryKnown, HistoryStatic, HistoryDynamic); err != nil {
		return c, err
	}
	if _, ok := p["quantum"]; ok && c.Mode != DCSRR {
		return c, paramErrorf("quantum applies to mode=rr, not mode=%s", c.Mode)
	}
	if _, ok := p["history"]; ok && c.Mode != DCSOptimal {
		return c, paramErrorf("history applies to mode=optimal, not mode=%s", c.Mode)
	}
	if s, ok := p["speeds"]; ok {
		for i, f := range strings.Split(s, ":") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return c, p.errorf("speeds", "machine %d: %q is not a number", i+1, f)
			}
			c.Speeds = append(c.Speeds, v)
		}
	}
	return c, c.Validate()
}

// DCSFamily is the hardware model family whose switch DCS charges: the
// distributed context switch of Calypso (hwmodel/calypso).
const DCSFamily = "calypso"

// checkHardware refuses a hardware model of another family than
// DCSFamily (a gang switch of QsNet or Myrinet is not a migration), and,
// under round robin, a quantum no longer than the distributed context
// switch: no resumed task would progress.
func (c DCSConfig) checkHardware(env Env) error {
	if !env.Hardware.Charged() {
		return nil
	}
	if env.Hardware.Family != DCSFamily {
		return paramErrorf("hardware %s: dcs charges a distributed context switch, which only the %s family models (M&D 5.2 Result C): use --hw calypso-nt or an edited copy of it",
			env.Hardware, DCSFamily)
	}
	if cost := env.Hardware.Costs.Switch(hwmodel.SwitchState{Nodes: 2, Jobs: 1}); c.Mode == DCSRR && cost >= c.Quantum {
		return paramErrorf("quantum=%v: a distributed context switch costs %v on %s, no shorter than the quantum: no task would progress; use a longer quantum",
			c.Quantum, cost, env.Hardware)
	}
	return nil
}

// DCS is distributed context switching (D. McLaughlin and P. Dasgupta,
// "Distributed Context Switching: A Technique to Improve Turnaround Times
// of Distributed Computations", cited as M&D with the section): p
// independent tasks of a parallel step share m workstations, one task per
// machine at a time (M&D 1.2), and a task may be frozen on one machine and
// resumed on another (a distributed context switch, M&D 1.3, done in
// Calypso by writing the thread's context and stack to a shared file,
// M&D 5.1).
//
// Tasks are the trace's jobs, each needing one allocation unit (a
// processor, or a node under node allocation): the machines are the
// units. Jobs submitted at the same time form a parallel step; steps run
// one after another in submit order, each once the one before has ended
// (a barrier ends a parallel step, M&D 1.2). A wider job stops the run
// with an error. The scenarios calypso-3on2, calypso-5on3 and calypso
// (genwork scenario) are such traces.
//
// # Modes
//
// Eager (Calypso's own scheduler, M&D 5.2 Result B, 6.1) never preempts: a
// free machine starts the next task never started, in arrival order; when
// none is left it runs a copy of an unfinished task, the one with the
// fewest copies running (then the first in arrival order). A copy is a new
// execution of the task from its beginning on that machine; the copies of
// a task run side by side and the first to finish wins: the task completes
// then and its other copies stop, freeing their machines. The engine knows
// a job's progress as one amount of work, so copies live in the policy:
// each copy's finish is its start plus the task's runtime at its machine's
// speed, and the engine's job is given a duty whose single window of full
// speed ends at the earliest finish, so that it completes exactly then.
// (The engine's work done for an eager job is therefore not the progress of
// any copy.) On identical machines the first copy to start always finishes
// first; copies win when machines differ (Speeds), the case eager
// scheduling is for (M&D 5.2 Result B).
//
// Round robin (M&D 4, Method 3; "each processor picks a non-executing task
// and, after the time slice is over, switches to another non-executing
// task", M&D 2) keeps the step's unfinished tasks that are not running in
// a FIFO queue. Quanta are global, at the step's start plus multiples of
// Quantum: at each boundary where a task waits, every running task is
// frozen and queued behind the waiting ones, in the order they got their
// machines, and the machines take tasks from the head of the queue in
// machine order. A
// machine whose task ends takes the head of the queue at once, for the
// rest of the quantum. Once no task waits, tasks run to their end.
//
// Optimal is the task allocation scheme of M&D 3.3. Each task is divided
// into m segments of its planned length L / m (m the machines). With p <= m
// every task gets a machine; with p a multiple of m, rounds of m tasks run
// to completion; with p > 2m one round of m tasks runs to completion and
// the rest is planned again (Case 1); with m < p < 2m (Case 2) the first m
// tasks, the initial set, run p - m segments, then the last p - m machines
// switch to the p - m delayed tasks and run them to completion, and the
// first 2m - p machines are left the m unfinished tasks, 2m - p segments
// each: the same problem with m' = 2m - p machines, planned the same way.
// The allocation ends every machine at p t / m for p equal tasks of length
// t (M&D 3.2), with p - gcd(p, m) changes of a machine from one task to
// another, p - 1 when p and m are coprime (M&D 3.3 counts p - 1), of which
// m - gcd(p, m) are migrations of a frozen task to another machine (the 2
// switches of the 4-task, 3-machine example, M&D 3.1, Fig. 3). The plan
// is a list of steps per machine, each a task and the amount of its work
// at which the machine leaves it (or its end); a machine whose next task
// is running elsewhere, or has an earlier step elsewhere still to run,
// waits for it (a task's steps run in the plan's order, whichever machine
// frees up first), and a task that ends early skips its remaining steps,
// so a plan made from wrong lengths still completes every task. The planned lengths are the trace's runtimes
// (history known), its estimates (static: a user puts the task times of an
// earlier run of the same program in the estimate field, M&D 4 Method 2),
// or the mean time of the step's tasks that ran uninterrupted and ended by
// the first switch point, the first round's (dynamic, M&D 4 Method 1: the
// first round runs to completion before any switch, so it needs p > 2m; a
// step with m < p < 2m stops the run with an error). With lengths that differ the allocation is no longer optimal, as
// M&D 3.2 warn.
//
// # Switch cost
//
// A task resumed after it was frozen (a distributed context switch, on
// another machine or the same) makes no progress for Hardware.Costs.Switch
// of two nodes (the calypso-nt preset's 1.6 s, M&D 5.2 Result C; free
// without a hardware model) while holding its machine; starting a task
// never run before costs nothing, as under eager scheduling. Each
// resumption counts in the task's outcome (Switches, and the time lost in
// SwitchLoss). New refuses a hardware model of another family than
// calypso, and under round robin a quantum no longer than the switch
// (NewDCS, which does not check the family, stops the run with an error
// then). Samples report the share of machines
// switching.
type DCS struct {
	cfg  DCSConfig
	env  Env
	e    *sim.Engine
	cost model.Time // a distributed context switch

	machines []dcsMachine
	pending  fifo // arrived, waiting for their step
	forming  bool // a timer at the current time forms the next step

	// The current step: its tasks in arrival order (nil between steps).
	tasks     []*dcsTask
	byJob     map[*sim.Job]*dcsTask
	left      int        // tasks not ended
	stepStart model.Time // when the step began

	next      int          // eager: the first task never started
	queue     []*dcsTask   // rr: tasks waiting for a machine
	boundary  model.Time   // rr: the next quantum boundary with a timer set, or Never
	bTimer    sim.TimerID  // rr: its timer
	planned   model.Time   // optimal, dynamic history: the measured length, 0 before it is known
	measuring bool         // optimal, dynamic history: a timer at the current time measures it
	measured  []model.Time // optimal, dynamic history: times of tasks that ran uninterrupted

	dispatches uint64 // tasks given a machine so far

	record bool
	segs   []DCSSegment // with RecordSegments
}

// DCSSegment is a stretch of one machine's time given to one task: for a
// Gantt chart of a DCS run.
type DCSSegment struct {
	Machine  int        // 0-based index of the machine
	Job      int64      // the task's job ID
	From, To model.Time // the stretch [From, To)
	// Switch is how long the stretch began with a distributed context
	// switch into the task, without progress.
	Switch model.Time
	// Copy numbers eager scheduling's copies of a task: 0 for the first
	// to start, 1 and on for the later ones.
	Copy int
	// Stopped marks an eager copy stopped because another copy of its task
	// finished first.
	Stopped bool
}

// Timer tags; machine step ends use the machine's index (>= 0).
const (
	dcsTagForm     = -1 // form the next step (after every arrival at this time)
	dcsTagBoundary = -2 // round robin's quantum boundary
	dcsTagStall    = -3 // a switch ends: the sample's switching share changes
	dcsTagMeasure  = -4 // the dynamic history's length is measured
)

type dcsMachine struct {
	rate sim.Rate
	task *dcsTask   // running (or, for eager, the task a copy of which runs), nil when idle
	copy int        // eager: which copy
	from model.Time // start of the current stretch

	// Optimal: the machine's plan and where it stands.
	steps []dcsStep
	cur   int
	timer sim.TimerID
	timed bool
}

// dcsStep is one step of a machine's plan: run task until it has done segs
// of its m segments, or to its end (segs < 0). ord is the step's place
// among its task's steps.
type dcsStep struct {
	task *dcsTask
	segs int
	ord  int
}

type dcsTask struct {
	j       *sim.Job
	idx     int // position in the step
	on      int // machine running it, -1 when none
	started bool
	ended   bool

	dispatched uint64 // rr, optimal: when it last got a machine, in dispatch order

	// Progress while running under rr and optimal, mirroring the engine's
	// accounting exactly: work done in µs × sim.FullRate as of since; the
	// switch into the current run ends at stallEnd.
	doneFR          int64
	since, stallEnd model.Time

	switches int64
	loss     model.Time

	copies []dcsCopy // eager

	// Optimal: the task's steps planned, the machine of the last, and the
	// next to run.
	nsteps, planLast, nextStep int
}

// dcsCopy is one of eager scheduling's executions of a task.
type dcsCopy struct {
	machine       int
	start, finish model.Time
}

// NewDCS returns distributed context switching for env. It panics if cfg
// does not Validate (New checks it first).
func NewDCS(cfg DCSConfig, env Env) *DCS {
	if err := cfg.Validate(); err != nil {
		panic("policies: " + err.Error())
	}
	p := &DCS{cfg: cfg, env: env, boundary: model.Never}
	if env.Hardware.Charged() {
		p.cost = env.Hardware.Costs.Switch(hwmodel.SwitchState{Nodes: 2, Jobs: 1})
	}
	return p
}

// SwitchCost is the cost of one distributed context switch the policy
// charges.
func (p *DCS) SwitchCost() model.Time { return p.cost }

// Attach implements sim.Policy.
func (p *DCS) Attach(e *sim.Engine) {
	p.e = e
	p.machines = make([]dcsMachine, e.Capacity())
	for i := range p.machines {
		p.machines[i].rate = sim.FullRate
		if i < len(p.cfg.Speeds) {
			p.machines[i].rate = max(sim.Rate(math.Round(p.cfg.Speeds[i]*float64(sim.FullRate))), 1)
		}
	}
	if len(p.cfg.Speeds) > len(p.machines) {
		e.Abort(fmt.Errorf("dcs: speeds gives %d machines' speeds, the machine has %d", len(p.cfg.Speeds), len(p.machines)))
	}
}

// Arrive implements sim.Policy.
func (p *DCS) Arrive(j *sim.Job) {
	if n := p.e.Need(j); n != 1 {
		p.e.Abort(fmt.Errorf("dcs: job %d needs %d allocation units; distributed context switching runs one-processor tasks, one per machine (M&D 1.2)", j.In.ID, n))
	}
	p.pending.push(j)
}

// Schedule implements sim.Policy: it forms the next step when none runs,
// and gives free machines work by the mode's rule.
func (p *DCS) Schedule() {
	if p.tasks == nil {
		if len(p.pending.jobs) > 0 && !p.forming {
			// Timers come after every arrival at a time: the step then
			// holds all its tasks, whatever the pass rule.
			p.forming = true
			p.e.SetTimer(p.e.Now(), dcsTagForm)
		}
		return
	}
	switch p.cfg.Mode {
	case DCSEager:
		p.fillEager()
	case DCSRR:
		p.fillRR()
	case DCSOptimal:
		p.fillOptimal()
	}
}

// Timer implements sim.Policy.
func (p *DCS) Timer(tag int64) {
	switch {
	case tag == dcsTagForm:
		p.forming = false
		p.formStep()
	case tag == dcsTagBoundary:
		p.boundary = model.Never
		if len(p.queue) > 0 {
			// Every running task, in the order they got their machines
			// (not the machines' order, which depends on the order
			// same-time completions are processed in).
			n := len(p.queue)
			for k := range p.machines {
				if t := p.machines[k].task; t != nil {
					p.stop(t)
					p.queue = append(p.queue, t)
				}
			}
			slices.SortFunc(p.queue[n:], func(a, b *dcsTask) int { return cmp.Compare(a.dispatched, b.dispatched) })
		}
	case tag == dcsTagMeasure:
		// The mean time of the tasks that ran uninterrupted, the first
		// round's (M&D 4 Method 1).
		p.measuring = false
		if p.tasks == nil {
			return
		}
		var sum model.Time
		for _, d := range p.measured {
			sum += d
		}
		n := model.Time(max(len(p.measured), 1))
		p.planned = max((sum+n/2)/n, 1)
	case tag == dcsTagStall:
	case tag >= 0:
		m := &p.machines[tag]
		m.timed = false
		m.task.nextStep++
		p.stop(m.task)
		m.cur++
	}
}

// formStep starts the next step: the pending jobs submitted at the
// earliest time.
func (p *DCS) formStep() {
	pending := p.pending.jobs
	n := 1
	for n < len(pending) && pending[n].In.Submit == pending[0].In.Submit {
		n++
	}
	p.tasks = make([]*dcsTask, n)
	p.byJob = make(map[*sim.Job]*dcsTask, n)
	for i, j := range pending[:n] {
		t := &dcsTask{j: j, idx: i, on: -1}
		p.tasks[i], p.byJob[j] = t, t
	}
	p.pending.popFront(n)
	p.left, p.stepStart, p.next = n, p.e.Now(), 0
	switch p.cfg.Mode {
	case DCSRR:
		p.queue = slices.Clone(p.tasks)
		if n > len(p.machines) && p.cost >= p.cfg.Quantum {
			p.e.Abort(fmt.Errorf("dcs: the distributed context switch (%v on %s) is no shorter than the quantum (%v): no task would progress; use a longer quantum",
				p.cost, p.env.Hardware, p.cfg.Quantum))
		}
	case DCSOptimal:
		m := len(p.machines)
		if p.cfg.History == HistoryDynamic && n > m && n < 2*m {
			p.e.Abort(fmt.Errorf("dcs: history=dynamic measures task lengths on a first round of m tasks, which needs more than 2m tasks in a step (M&D 4, Method 1); the step at %v has %d tasks on %d machines: use history=known or static",
				p.stepStart, n, m))
		}
		ms := make([]int, m)
		for i := range ms {
			ms[i] = i
		}
		p.plan(p.tasks, ms, make([]int, n))
	}
}

// plan appends to the plans of machines ms the allocation of tasks ts,
// each with len(ms) of its segments left; segs counts each task's segments
// planned so far (M&D 3.3, see DCS).
func (p *DCS) plan(ts []*dcsTask, ms []int, segs []int) {
	m := len(ms)
	for len(ts) > 2*m && len(ts)%m != 0 { // Case 1: a round to completion, then the rest
		for i := range m {
			p.addStep(ms[i], ts[i], -1)
		}
		ts = ts[m:]
	}
	n := len(ts)
	switch {
	case n <= m:
		for i, t := range ts {
			p.addStep(ms[i], t, -1)
		}
	case n%m == 0: // rounds to completion
		for i, t := range ts {
			p.addStep(ms[i%m], t, -1)
		}
	default: // Case 2: m < n < 2m
		delayed, kept := n-m, 2*m-n
		for i := range m {
			segs[ts[i].idx] += delayed
			p.addStep(ms[i], ts[i], segs[ts[i].idx])
		}
		for i := kept; i < m; i++ {
			p.addStep(ms[i], ts[m+i-kept], -1)
		}
		// The m unfinished tasks, those still on the first 2m - n machines
		// first, on those machines.
		p.plan(ts[:m], ms[:kept], segs)
	}
}

// addStep appends a step to machine k's plan, merging it into the last
// step when that is the task's last so far (the machine goes on without a
// switch).
func (p *DCS) addStep(k int, t *dcsTask, segs int) {
	m := &p.machines[k]
	if n := len(m.steps); n > 0 && m.steps[n-1].task == t && t.planLast == k {
		m.steps[n-1].segs = segs
		return
	}
	m.steps = append(m.steps, dcsStep{task: t, segs: segs, ord: t.nsteps})
	t.nsteps++
	t.planLast = k
}

// unknownTarget is target's answer while the dynamic history's length is
// being measured.
const unknownTarget = -2

// target is the work (µs at full speed) at which step st leaves its task,
// or -1 for the task's end: segs of its m segments of its planned length,
// rounded to the microsecond; unknownTarget until the length is known.
func (p *DCS) target(st dcsStep) model.Time {
	if st.segs < 0 {
		return -1
	}
	var length model.Time
	switch p.cfg.History {
	case HistoryKnown:
		length = st.task.j.Work
	case HistoryStatic:
		length = st.task.j.Estimate
	case HistoryDynamic:
		if p.planned == 0 {
			// The first switch point: measure once every task that ends
			// now has ended, whatever the pass rule (timers come after
			// completions).
			if !p.measuring {
				p.measuring = true
				p.e.SetTimer(p.e.Now(), dcsTagMeasure)
			}
			return unknownTarget
		}
		length = p.planned
	}
	m := model.Time(len(p.machines))
	s := model.Time(st.segs)
	return s*(length/m) + (2*s*(length%m)+m)/(2*m)
}

// fillOptimal lets every free machine take its next step. A step skipped
// (its task ended or past it) may let a machine already looked at go on,
// so the machines are gone over until none moves.
func (p *DCS) fillOptimal() {
	for moved := true; moved; {
		moved = false
		for k := range p.machines {
			m := &p.machines[k]
			for m.task == nil && m.cur < len(m.steps) {
				st := m.steps[m.cur]
				t := st.task
				target := p.target(st)
				if target == unknownTarget {
					break
				}
				if t.ended || st.ord < t.nextStep || (target >= 0 && t.doneFR >= int64(target)*int64(sim.FullRate)) {
					m.cur++ // nothing left to do in this step
					t.nextStep = max(t.nextStep, st.ord+1)
					moved = true
					continue
				}
				if t.on >= 0 || st.ord > t.nextStep {
					// Running elsewhere, or due to run elsewhere first: the
					// plan's order, whatever the order machines free up in.
					break
				}
				p.run(t, k)
				if target >= 0 {
					need := int64(target)*int64(sim.FullRate) - t.doneFR
					at := t.stallEnd + model.Time((need+int64(m.rate)-1)/int64(m.rate))
					m.timer, m.timed = p.e.SetTimer(at, int64(k)), true
				}
			}
		}
	}
}

// fillRR gives every free machine the head of the queue, and sets the next
// quantum boundary while tasks wait.
func (p *DCS) fillRR() {
	now := p.e.Now()
	if p.boundary == now {
		return // the boundary's timer, at this very time, refills the machines
	}
	for k := range p.machines {
		if p.machines[k].task == nil && len(p.queue) > 0 {
			t := p.queue[0]
			p.queue = p.queue[1:]
			p.run(t, k)
		}
	}
	if len(p.queue) > 0 && p.boundary == model.Never {
		q := p.cfg.Quantum
		p.boundary = p.stepStart + ((now-p.stepStart)/q+1)*q
		p.bTimer = p.e.SetTimer(p.boundary, dcsTagBoundary)
	}
}

// fillEager gives every free machine the next task never started, or else
// a copy of the unfinished task with the fewest copies running.
func (p *DCS) fillEager() {
	for k := range p.machines {
		if p.machines[k].task != nil {
			continue
		}
		var t *dcsTask
		if p.next < len(p.tasks) {
			t = p.tasks[p.next]
			p.next++
		} else {
			for _, c := range p.tasks {
				if !c.ended && (t == nil || len(c.copies) < len(t.copies)) {
					t = c
				}
			}
			if t == nil {
				return
			}
		}
		p.startCopy(t, k)
	}
}

// startCopy runs a new copy of t on machine k and moves t's completion in
// the engine to its earliest copy's finish.
func (p *DCS) startCopy(t *dcsTask, k int) {
	now := p.e.Now()
	m := &p.machines[k]
	if !t.started {
		p.e.Start(t.j)
		t.started = true
	}
	work := int64(t.j.Work) * int64(sim.FullRate)
	finish := now + model.Time((work+int64(m.rate)-1)/int64(m.rate))
	t.copies = append(t.copies, dcsCopy{machine: k, start: now, finish: finish})
	m.task, m.copy, m.from = t, len(t.copies)-1, now

	first := t.copies[p.winner(t)].finish
	left := t.j.Work - p.e.WorkDone(t.j) // the engine's job runs at full rate
	if left <= 0 {
		return
	}
	if first-left < now {
		panic(fmt.Sprintf("policies: dcs: job %d's first copy finishes at %v, sooner than its %v of work left allows from %v",
			t.j.In.ID, first, left, now))
	}
	d := sim.Duty{Lead: []sim.Window{{From: first - left, To: first}}, Origin: first}
	if !d.SameFrom(t.j.Duty(), now) {
		p.e.SetDuty(t.j, d)
	}
}

// winner is the index of t's copy that finishes first (the earliest
// started among equals).
func (p *DCS) winner(t *dcsTask) int {
	w := 0
	for i, c := range t.copies {
		if c.finish < t.copies[w].finish {
			w = i
		}
	}
	return w
}

// run gives machine k task t (rr, optimal): a first start, or a resumption
// that costs a distributed context switch.
func (p *DCS) run(t *dcsTask, k int) {
	now := p.e.Now()
	m := &p.machines[k]
	t.since, t.stallEnd = now, now
	if !t.started {
		p.e.Start(t.j)
		t.started = true
	} else {
		p.e.Resume(t.j)
		t.switches++
		if p.cost > 0 {
			t.stallEnd = now + p.cost
			t.loss += p.cost
			p.e.SetDuty(t.j, sim.AlwaysOnFrom(t.stallEnd))
			p.e.SetTimer(t.stallEnd, dcsTagStall)
		}
	}
	if m.rate != sim.FullRate {
		p.e.SetRate(t.j, m.rate)
	}
	t.on = k
	p.dispatches++
	t.dispatched = p.dispatches
	m.task, m.copy, m.from = t, 0, now
}

// account brings t's work done up to now, as the engine counts it.
func (p *DCS) account(t *dcsTask) {
	now := p.e.Now()
	if on := now - max(t.since, t.stallEnd); on > 0 {
		t.doneFR += int64(on) * int64(p.machines[t.on].rate)
	}
	t.since = now
}

// stop freezes a running task (rr, optimal): it leaves its machine and
// waits, suspended, to be resumed.
func (p *DCS) stop(t *dcsTask) {
	now := p.e.Now()
	p.account(t)
	if now < t.stallEnd {
		t.loss -= t.stallEnd - now // frozen before its switch ended
	}
	p.e.Suspend(t.j)
	p.free(t.on, now, false)
	t.on = -1
}

// free ends machine k's current stretch at now.
func (p *DCS) free(k int, now model.Time, stopped bool) {
	m := &p.machines[k]
	t := m.task
	if p.record && now > m.from {
		sw := model.Time(0)
		if p.cfg.Mode != DCSEager {
			sw = min(t.stallEnd, now) - m.from
		}
		p.segs = append(p.segs, DCSSegment{Machine: k, Job: t.j.In.ID, From: m.from, To: now, Switch: sw,
			Copy: m.copy, Stopped: stopped})
	}
	m.task = nil
}

// Complete implements sim.Policy.
func (p *DCS) Complete(j *sim.Job) {
	t := p.byJob[j]
	now := p.e.Now()
	t.ended = true
	if p.cfg.Mode == DCSEager {
		w := p.winner(t)
		for i, c := range t.copies {
			p.free(c.machine, now, i != w)
		}
	} else {
		if p.cfg.Mode == DCSOptimal && p.cfg.History == HistoryDynamic && t.switches == 0 {
			p.measured = append(p.measured, now-t.j.Start) // ran uninterrupted
		}
		m := &p.machines[t.on]
		if m.timed {
			p.e.CancelTimer(m.timer)
			m.timed = false
		}
		if p.cfg.Mode == DCSOptimal {
			m.cur++
		}
		p.free(t.on, now, false)
		t.on = -1
	}
	delete(p.byJob, j)
	p.left--
	if p.left == 0 {
		p.endStep()
	}
}

// endStep clears the finished step.
func (p *DCS) endStep() {
	p.tasks, p.byJob, p.queue, p.measured, p.planned = nil, nil, nil, nil, 0
	if p.boundary != model.Never {
		p.e.CancelTimer(p.bTimer)
		p.boundary = model.Never
	}
	for k := range p.machines {
		p.machines[k].steps, p.machines[k].cur = nil, 0
	}
}

// ReportOutcome implements sim.Reporter: the distributed context switches
// that resumed the task and the time they took.
func (p *DCS) ReportOutcome(j *sim.Job, o *model.Outcome) {
	t := p.byJob[j]
	o.Sharing, o.Switches, o.SwitchLoss = model.JobLevel, t.switches, t.loss
}

// ReportSample implements sim.Reporter: the share of machines switching.
func (p *DCS) ReportSample(s *sim.Sample) {
	s.Sharing = model.JobLevel
	if len(p.machines) == 0 {
		return
	}
	now, n := p.e.Now(), 0
	for _, m := range p.machines {
		if m.task != nil && p.cfg.Mode != DCSEager && m.task.stallEnd > now {
			n++
		}
	}
	s.Switching = float64(n) / float64(len(p.machines))
}

// RecordSegments makes the policy keep every stretch of machine time it
// gives a task, for Segments (a Gantt chart); memory then grows with the
// run. Call it before the run.
func (p *DCS) RecordSegments() { p.record = true }

// Segments returns the stretches of machine time given to tasks so far
// (see RecordSegments), ordered by start, then machine.
func (p *DCS) Segments() []DCSSegment {
	out := slices.Clone(p.segs)
	slices.SortStableFunc(out, func(a, b DCSSegment) int {
		if c := cmp.Compare(a.From, b.From); c != 0 {
			return c
		}
		return cmp.Compare(a.Machine, b.Machine)
	})
	return out
}

// A DCSMigration is a task moving from one machine to another between two
// of its segments.
type DCSMigration struct {
	Job      int64
	From, To int // machines, numbered from 0
}

// String says it as McLaughlin and Dasgupta number tasks and machines
// (from 1): "task 2 from machine 2 to 1".
func (m DCSMigration) String() string {
	return fmt.Sprintf("task %d from machine %d to %d", m.Job, m.From+1, m.To+1)
}

// Migrations lists, in segs' order (Segments'), every time a task resumes
// on another machine than the one it last ran on.
func Migrations(segs []DCSSegment) []DCSMigration {
	var out []DCSMigration
	last := map[int64]int{}
	for _, s := range segs {
		if k, ok := last[s.Job]; ok && k != s.Machine {
			out = append(out, DCSMigration{Job: s.Job, From: k, To: s.Machine})
		}
		last[s.Job] = s.Machine
	}
	return out
}

// MachineChanges counts, machine by machine, the times a machine goes from
// one task to another in segs (Segments' order): McLaughlin and Dasgupta's
// count of switches (M&D 3.3: p - 1 for p tasks run one after another).
func MachineChanges(segs []DCSSegment) int {
	last := map[int]int64{}
	n := 0
	for _, s := range segs {
		if j, ok := last[s.Machine]; ok && j != s.Job {
			n++
		}
		last[s.Machine] = s.Job
	}
	return n
}
