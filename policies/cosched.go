package policies

import (
	"math"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
	"github.com/gangsim/gangsim/sim"
)

// CoschedConfig configures a process-level policy: the gang scheduler's
// matrix, queue and round robin (GangConfig), and what the processors do
// with the processes placed on them (package procsim).
type CoschedConfig struct {
	GangConfig
	// Kind is the local discipline: procsim.GS, Local, SB, FCS, BCS, PBCS.
	Kind procsim.Kind
	// LocalSwitch and Wakeup are a processor's local context switch and a
	// blocked process's wake-up.
	LocalSwitch, Wakeup model.Time
	// Spin is how long a waiting process spins before blocking (SB; F and
	// DC processes of FCS).
	Spin model.Time
	// Sched, HZ, SliceTicks and ProcChangePenalty are the nodes' local
	// scheduler under SB and FCS's sharing (procsim.Config).
	Sched                             procsim.Sched
	HZ, SliceTicks, ProcChangePenalty int
	// MicroSlice is BCS's micro-timeslice, and MicroOverhead the part of
	// it the NICs spend on descriptors before transferring (procsim.Config).
	MicroSlice, MicroOverhead model.Time
	// DCGranularity and FWaitShare are FCS's classification thresholds
	// (procsim.Config).
	DCGranularity model.Time
	FWaitShare    float64
	// Probation is how long FCS coschedules a new job before classifying
	// it (procsim.Config.Probation).
	Probation model.Time
	// NoSkip simulates every iteration of every job (procsim.Config.NoSkip):
	// tests hold the engine's skips to it.
	NoSkip bool
	// GangLoss is what a gang switch costs a job switched in beyond the
	// hardware's gang switch (BCS and PBCS: hwmodel.NodeCosts.BCSGangLoss).
	GangLoss model.Time
}

// coschedParams documents the parameters gs takes at process level beyond
// the gang ones: none, its processors switching only at gang switches and
// its waiting processes spinning (the local switch and wake-up never
// apply).
var coschedParams = map[string]string{}

// The process-level policies' own parameters, besides the gang ones.
const (
	cswDoc  = "local context switch, e.g. 50us (default: the hardware preset's, 0 without --hw)"
	wakeDoc = "wake-up of a blocked process on its idle processor (default: the hardware preset's, 0 without; qsnet's 5us is assumed, see replay hw preset)"
	// quantumLocalDoc replaces gs's quantum for the disciplines without
	// gang strobes, whose rows only bound the jobs a processor holds.
	quantumLocalDoc = "each process's time slice in its processor's round robin, e.g. 25ms (default 100ms); the matrix's rows only bound the jobs a processor holds"
	// quantumSBDoc is sb's: the kernel's slice replaces it under Linux.
	quantumSBDoc = "sched=boost: each process's time slice, e.g. 25ms (default 100ms); under sched=linux the kernel's slice (ticks) is the processes' and this does nothing; the matrix's rows only bound the jobs a processor holds"
)

// fcsProbation is FCS's default probation: a new job is coscheduled "in
// its first few seconds of running" before it is classified (thesis
// 6.4.4, which gives no figure). Fitted on the 15 FCS cells of thesis
// Tables 6.2-6.4 (the imbalanced, complementing and mixed scenarios, whose
// jobs FCS classifies "after a brief interval", 6.3.2.2; the complementing
// turnaround within about 3% of the optimum "partly due to the initial
// classification delay", 6.3.2.3): the probation of least sum of squared
// relative errors over those cells on a grid of whole seconds from 0 to 20
// s. 4 s gives an rms error of 1.15% (largest 2.5%: Table 6.3's job 4,
// 243.8 s against 250.15 s), 0 s 1.76% (Table 6.3's job 4 at 239.7 s,
// Table 6.4's job 1 at 145.9 s against 150.59 s), 6 s 1.17%, 10 s 1.23%,
// 20 s 1.73%; between neighbouring values the error is ragged (5 s
// 1.42%), as the slot at whose end a job is first classified shifts.
// Table 6.1's FCS cells, whose jobs stay CS, and Table 6.6's move by
// under 0.1%.
var fcsProbation = 4 * model.Second

const (
	bcsSwitchDoc = "the node manager's local context switch when a process blocks in a BCS-MPI call and back when the call completes, e.g. 120us (default: the hardware preset's, qsnet's bcs_switch_us, fitted to thesis Table 6.1; 0 without --hw)"
	bcsGangDoc   = "what a gang switch costs a job switched in beyond the hardware's gang switch (default: the hardware preset's, qsnet's bcs_gang_switch_us, fitted to thesis Table 6.5; 0 without --hw)"
	schedDoc     = "the nodes' local scheduler: linux (default; Linux 2.4's, as the thesis' clusters ran: one run queue per node, a counter of ticks per process run down while it runs or spins and refilled at epochs, the process of highest counter run; a woken process keeps its counter, takes an idle processor of its node, or preempts only a process with at least 2 ticks less) or boost (per processor: a woken process gets a whole quantum back and preempts a process that only spins or has less of its slice left)"
	// fcsSchedDoc is fcs's: its default stays boost until its sharing is
	// modelled with the node's run queue (its claims are per processor).
	fcsSchedDoc = "the local scheduler of the classified processes outside a prioritized owner's claim: boost (default: a woken process gets a whole quantum back and preempts a process that only spins or has less of its slice left) or linux (Linux 2.4's counters, epochs and wake-up preemption, with a run queue per processor: FCS's node manager places each process on its column's processor; on the thesis' static scenarios it runs Table 6.2 at 230-242 s against 183.6 s, the node's shared run queue that SB has being what balances the load)"
	hzDoc       = "sched=linux: the kernel's timer ticks per second (default: the hardware preset's kernel_hz, 100 without one: Linux 2.4 on i386)"
	ticksDoc    = "sched=linux: a process's time slice in ticks, NICE_TO_TICKS(0) (default: the preset's kernel_slice_ticks, 6 without one: 60 ms at HZ 100)"
	// defaultHZ, defaultSliceTicks and defaultProcChangePenalty are Linux
	// 2.4's on i386 (HZ 100, include/asm-i386/param.h; NICE_TO_TICKS(0) =
	// (20 >> 2) + 1, kernel/sched.c; PROC_CHANGE_PENALTY 15,
	// include/asm-i386/smp.h), for a run whose hardware preset gives none.
	defaultHZ, defaultSliceTicks, defaultProcChangePenalty = 100, 6, 15

	bcsSliceDoc    = "micro-timeslice (default: the hardware preset's, else 250us, thesis 6.3.2)"
	bcsOverheadDoc = "the start of each micro-timeslice the NICs spend exchanging and scheduling descriptors before transferring (default: the hardware preset's, about 125us, thesis 5.3.4; else 0)"
)

// coschedConfig reads a process-level policy's parameters.
func coschedConfig(kind procsim.Kind, p Params, env Env) (CoschedConfig, error) {
	g, err := gangConfig(p, env)
	if err != nil {
		return CoschedConfig{}, err
	}
	c := CoschedConfig{GangConfig: g, Kind: kind, FWaitShare: 0.3, DCGranularity: g.Quantum / 5,
		MicroSlice: 250 * model.Microsecond}
	if n, ok := hwmodel.Node(env.Hardware.Costs); ok {
		c.LocalSwitch, c.Wakeup = n.LocalSwitch(), n.Wakeup()
		c.MicroSlice, c.MicroOverhead = n.MicroTimeslice(), n.MicroOverhead()
		if kind.Buffered() {
			// BCS's node manager switches on every blocking call (thesis
			// 6.2.2), and its gang switches cost more (hwmodel.NodeCosts).
			c.LocalSwitch, c.GangLoss = n.BCSSwitch(), n.BCSGangLoss()
		}
	}
	if c.LocalSwitch, err = p.Duration("csw", c.LocalSwitch, 0); err != nil {
		return c, err
	}
	if c.Wakeup, err = p.Duration("wake", c.Wakeup, 0); err != nil {
		return c, err
	}
	if c.Sched, err = localSched(p, env, &c); err != nil {
		return c, err
	}
	spin := 2 * c.LocalSwitch
	if n, ok := hwmodel.Node(env.Hardware.Costs); ok && kind == procsim.SB && c.Sched == procsim.SchedLinux && n.SpinBlock() > 0 {
		spin = n.SpinBlock() // fitted with the Linux scheduler (qsnet's sb_spin_us)
	}
	if c.Spin, err = p.Duration("spin", spin, 0); err != nil {
		return c, err
	}
	if c.MicroSlice, err = p.Duration("slice", c.MicroSlice, 1); err != nil {
		return c, err
	}
	if c.MicroOverhead, err = p.Duration("overhead", c.MicroOverhead, 0); err != nil {
		return c, err
	}
	if c.GangLoss, err = p.Duration("gang", c.GangLoss, 0); err != nil {
		return c, err
	}
	if c.MicroOverhead >= c.MicroSlice {
		return c, paramErrorf("overhead=%v: the micro-phases' overhead must be shorter than the micro-timeslice (%v)", c.MicroOverhead, c.MicroSlice)
	}
	if c.DCGranularity, err = p.Duration("dc", c.DCGranularity, 1); err != nil {
		return c, err
	}
	if c.FWaitShare, err = p.Float("f", c.FWaitShare, 0, 1); err != nil {
		return c, err
	}
	if c.Probation, err = p.Duration("probation", fcsProbation, 0); err != nil {
		return c, err
	}
	if env.NodeAllocation {
		return c, paramErrorf("process-level policies place processes on processors: --node-alloc is not supported")
	}
	return c, nil
}

// localSched reads the local scheduler's parameters (sched, hz, ticks)
// into c: Linux's timer rate, slice and processor change penalty come from
// the hardware preset's kernel (hwmodel.Kernel), else they are Linux 2.4's
// on i386.
func localSched(p Params, env Env, c *CoschedConfig) (procsim.Sched, error) {
	def := procsim.SchedLinux
	if c.Kind == procsim.FCS {
		def = procsim.SchedBoost // see fcsSchedDoc
	}
	name, err := p.Choice("sched", def.String(), procsim.SchedLinux.String(), procsim.SchedBoost.String())
	if err != nil {
		return 0, err
	}
	sched := procsim.SchedLinux
	if name == procsim.SchedBoost.String() {
		sched = procsim.SchedBoost
	}
	c.HZ, c.SliceTicks, c.ProcChangePenalty = defaultHZ, defaultSliceTicks, defaultProcChangePenalty
	if k, ok := hwmodel.Kernel(env.Hardware.Costs); ok && k.KernelHZ() > 0 {
		c.HZ, c.SliceTicks, c.ProcChangePenalty = k.KernelHZ(), k.KernelSliceTicks(), k.KernelProcChangePenalty()
	}
	if c.HZ, err = p.Int("hz", c.HZ, 1, int(model.Second)); err != nil {
		return 0, err
	}
	if c.SliceTicks, err = p.Int("ticks", c.SliceTicks, 1, 1<<20); err != nil {
		return 0, err
	}
	return sched, nil
}

// NewCosched returns a process-level policy: gang scheduling's matrix,
// queue and round robin, with the processes of every job simulated on
// their processors (package procsim) under cfg.Kind.
func NewCosched(cfg CoschedConfig, env Env) *Gang {
	p := NewGang(cfg.GangConfig, env)
	p.gangLoss = cfg.GangLoss
	r := &cosched{g: p, kind: cfg.Kind, quantum: cfg.Quantum, byID: map[int]*gangJob{}}
	r.ps = procsim.New(procsim.Config{Kind: cfg.Kind, Machine: env.Machine, Costs: env.Hardware.Costs, Contexts: netContexts(cfg.GangConfig),
		LocalSwitch: cfg.LocalSwitch, Wakeup: cfg.Wakeup, Quantum: cfg.Quantum, SpinThreshold: cfg.Spin,
		Sched: cfg.Sched, HZ: cfg.HZ, SliceTicks: cfg.SliceTicks, ProcChangePenalty: cfg.ProcChangePenalty,
		MicroSlice: cfg.MicroSlice, MicroOverhead: cfg.MicroOverhead, DCGranularity: cfg.DCGranularity, FWaitShare: cfg.FWaitShare, Probation: cfg.Probation,
		Rand: env.Rand, NoSkip: cfg.NoSkip})
	p.rr = r
	return p
}

// cosched is the process-level round robin: the gang scheduler's slots
// are stepped one by one, each strobing the processors (procsim.SetOwners),
// and between events the processes are simulated ahead as far as the
// engine's next event, or the first job that completes (sim.EndAt). The
// gang scheduler calls it as its roundRobin, and it reaches the scheduler
// only through gangSlots (gang.go states both sides).
type cosched struct {
	g       gangSlots
	kind    procsim.Kind
	quantum model.Time // the gang scheduler's (GangConfig.Quantum)
	ps      *procsim.Sim
	byID    map[int]*gangJob
	wake    sim.TimerID
	armed   bool
	// now is the processes' state at the engine's time, taken at the end
	// of every pass before the simulator runs ahead: what a sample taken
	// at that time reports.
	now procStates
}

// procStates counts the processes of the jobs in the system by state.
type procStates struct{ computing, spinning, blocked, ready int }

func (r *cosched) placed(g *gangJob) {
	r.g.engine().SetRate(g.j, 0) // its progress is the simulator's; the engine only holds its processors
	r.byID[int(g.seq)] = g
}

// launched puts g's processes on their processors (package procsim) and,
// if the current slot runs it, strobes them in.
func (r *cosched) launched(g *gangJob) {
	cols := make([]int, 0, g.need)
	g.cols.each(func(i int) { cols = append(cols, i) })
	if pin := r.g.pin(g.j); pin != nil {
		cols = pin // hand-placed (the static scenarios): process i on Pin[i]
	}
	r.ps.AddJob(int(g.seq), cols, &g.j.In.App, g.j.Work, g.j.In.App.Priority > 0)
	if g.ready == g.j.Start || !g.on {
		return // launched as placed (the pass that placed it strobes), or not in this slot
	}
	r.owners()
}

func (r *cosched) removed(g *gangJob) {
	delete(r.byID, int(g.seq))
	r.ps.RemoveJob(int(g.seq))
}

func (r *cosched) timer(int64) { r.armed = false }

// sync brings the processes to now.
func (r *cosched) sync() { r.advance(r.g.engine().Now(), false) }

// advance simulates the processes and the slots up to limit; with first it
// stops at the first time a job completes. Every completion found is handed
// to the engine (EndAt). It reports whether it stopped early.
func (r *cosched) advance(limit model.Time, first bool) bool {
	for {
		b := model.Never
		if r.kind.Strobed() {
			b = r.g.slotEnd()
		}
		stop := min(b, limit)
		if first && b < limit && r.steady() {
			r.ps.Steady(limit, b, r.quantum)
		}
		if id, at, done := r.ps.Run(stop); done {
			e := r.g.engine()
			e.EndAt(r.byID[id].j, at)
			for {
				id2, at2, more := r.ps.Run(at)
				if !more {
					break
				}
				e.EndAt(r.byID[id2].j, at2)
			}
			if first {
				return true
			}
			continue
		}
		if b > limit || b == model.Never {
			return false
		}
		r.strobe(b)
	}
}

// steady reports whether every strobe until the engine's next event names
// the same owners as the last one: the matrix has one row, and every job
// of it runs (none switched in at the next strobe, which costs nothing).
// The simulator may then move a job that runs alone across the strobes
// (procsim.Sim.Steady).
func (r *cosched) steady() bool {
	jobs, ok := r.g.soleRow()
	if !ok {
		return false
	}
	for _, g := range jobs {
		if !g.on {
			return false
		}
	}
	return true
}

// strobe starts the next slot at b, as the gang scheduler's round robin
// does, and tells the processors.
func (r *cosched) strobe(b model.Time) {
	r.ps.EndSlot() // FCS classifies the processes whose timeslice ends, even if their job goes on
	if !r.g.nextSlot(b) {
		return
	}
	r.count(b)
	r.owners()
}

// count adds the switches of the slot entered at at.
func (r *cosched) count(at model.Time) {
	for _, g := range r.g.all() {
		if g.switchedAt == at && g.counted != at && at >= g.ready {
			g.counted = at
			g.switches++
			g.loss += g.onFrom - g.switchedAt
		}
	}
}

// owners strobes the processors with the current slot's jobs.
func (r *cosched) owners() {
	if !r.kind.Strobed() {
		return
	}
	var on []procsim.Owner
	for _, g := range r.g.all() {
		if g.on {
			on = append(on, procsim.Owner{Job: int(g.seq), From: g.onFrom})
		}
	}
	r.ps.SetOwners(on)
}

func (r *cosched) replan() {
	if r.g.settle() {
		r.count(r.g.engine().Now())
		r.owners()
	}
}

// after simulates ahead to the engine's next event, or to the first
// completion, and makes sure the policy is called again then.
//
// With a time series sampled every period, it also stops at the next
// multiple of the period (while anything is left to happen), so that the
// engine takes a sample there with the processes' state at that moment.
func (r *cosched) after() {
	e := r.g.engine()
	if r.armed {
		e.CancelTimer(r.wake)
		r.armed = false
	}
	r.now.computing, r.now.spinning, r.now.blocked, r.now.ready = r.ps.States()
	limit := e.NextEvent()
	if every := e.SamplePeriod(); every > 0 && r.ps.Next() != model.Never {
		limit = min(limit, (e.Now()/every+1)*every)
	}
	if r.advance(limit, true) || limit == model.Never {
		return
	}
	r.wake, r.armed = e.SetTimer(limit, -1), true
}

func (r *cosched) outcome(g *gangJob, o *model.Outcome) {
	st := r.ps.Stats(int(g.seq))
	o.Sharing, o.Switches, o.SwitchLoss = model.ProcessLevel, g.switches, g.loss
	o.CPU, o.Spin, o.Blocked = st.CPU, st.Spin, st.Blocked
	if r.kind.Classifies() {
		total := st.Class[0] + st.Class[1] + st.Class[2]
		if total > 0 {
			o.Classes = model.FCSClasses{CS: share(st.Class[procsim.CS], total),
				F: share(st.Class[procsim.F], total), DC: share(st.Class[procsim.DC], total)}
		}
	}
}

func share(part, total model.Time) float64 {
	return math.Round(float64(part)/float64(total)*1e9) / 1e9
}

// sample reports the processes' states at the engine's time (the
// simulator itself has run ahead), and as the processors in use those
// that run a process, computing or spinning: the engine's own count holds
// every placed job at full duty (its progress is the simulator's), which
// would count a processor once per row.
func (r *cosched) sample(s *sim.Sample) {
	s.Sharing, s.Rows, s.Switching = model.ProcessLevel, r.g.rowsInUse(), 0
	n := r.now
	s.Computing, s.Spinning, s.BlockedProcs, s.Ready = float64(n.computing), float64(n.spinning), float64(n.blocked), float64(n.ready)
	s.BusyProcs = float64(n.computing + n.spinning)
}

// coschedEntry is the registry entry of the process-level policy that
// simulates every process under kind: the gang parameters and params.
func coschedEntry(kind procsim.Kind, doc string, params map[string]string) entry {
	return entry{
		doc:       doc,
		params:    mergeDocs(gangParams, coschedParams, params),
		maxProcs:  MaxProcsProcessLevel,
		process:   func(Params) (procsim.Kind, bool) { return kind, true },
		estimates: backfillEstimates,
		make: func(p Params, env Env) (sim.Policy, error) {
			c, err := coschedConfig(kind, p, env)
			if err != nil {
				return nil, err
			}
			return NewCosched(c, env), nil
		},
	}
}
