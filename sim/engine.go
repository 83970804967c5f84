package sim

import (
	"errors"
	"fmt"
	"io"

	"github.com/gangsim/gangsim/model"
)

// Rate is a job's progress speed as a fraction of FullRate, dedicated speed.
type Rate int64

// FullRate is the speed of a job running alone on its processors. Rates are
// fixed-point so that progress accounting is exact integer arithmetic.
const FullRate Rate = 1 << 16

// MaxWork is the longest dedicated runtime the engine accounts exactly
// (work × FullRate must fit in an int64): about 4.4 years. Longer jobs are
// rejected with model.RejectTooLong.
const MaxWork = model.Time(1<<63-1) / model.Time(FullRate)

// State is where a job is in the system.
type State uint8

// Job states.
const (
	Queued    State = iota // arrived, never started
	Running                // holding processors; progressing at its rate during its duty's windows
	Suspended              // started, then descheduled: holds no processors, makes no progress
	Done                   // completed
)

var stateNames = [...]string{"queued", "running", "suspended", "done"}

func (s State) String() string { return stateNames[s] }

// Job is the engine's view of a job in the system. Policies read it and pass
// it back to Engine methods; they must not keep a *Job after Complete
// returns, because the engine reuses it.
type Job struct {
	// In is the job as read from the trace.
	In model.Job
	// Size is the number of processors the job runs on (In.Size()).
	Size int
	// Work is the job's dedicated runtime: what it needs at FullRate.
	Work model.Time
	// Estimate is the runtime the scheduler is told: the trace's estimate
	// when known and positive, else Work (a perfect estimate).
	Estimate model.Time
	// State is the job's current state.
	State State
	// Start is the first time the job ran (model.Never before that).
	Start model.Time
	// End is the completion time (model.Never before that).
	End model.Time
	// Slot is free for the policy's bookkeeping (e.g. an index into its
	// own structures); the engine sets it to -1 on arrival.
	Slot int

	need  int        // allocation units held while running
	rate  Rate       // current progress rate; 0 unless Running
	duty  Duty       // when the job progresses (always on unless time-shared)
	frac  int64      // duty.fraction() while Running, else 0
	done  int64      // work done, in µs × FullRate, as of since
	since model.Time // time done was last brought up to date
	gen   uint32     // completion-event generation; older events are stale
	// finished: its work is done and it waits, holding its processors,
	// for the policy to notice (Noticer); its completion is then due.
	finished bool
}

// Rate is the job's current progress rate (0 unless Running).
func (j *Job) Rate() Rate { return j.rate }

// Duty is when the job progresses while Running (always on unless a
// time-sharing policy set a duty).
func (j *Job) Duty() Duty { return j.duty }

// Order is the rule that orders events that happen at the same time; see
// the package documentation.
type Order uint8

// Orders of same-time events.
const (
	OrderEndsFirst Order = iota // completions, arrivals, timers
	OrderPyss                   // completions at the estimate, arrivals, other completions, timers
)

var orderNames = [...]string{"ends-first", "pyss"}

func (o Order) String() string { return orderNames[o] }

// ParseOrder parses "ends-first" or "pyss".
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if s == n {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("unknown event order %q (want ends-first or pyss)", s)
}

// Passes says when the engine asks the policy for a scheduling pass.
type Passes uint8

// Scheduling-pass rules.
const (
	PassPerTime  Passes = iota // once per simulated time, after all its events
	PassPerEvent               // after every arrival, completion and timer
)

var passNames = [...]string{"per-time", "per-event"}

func (p Passes) String() string { return passNames[p] }

// ParsePasses parses "per-time" or "per-event".
func ParsePasses(s string) (Passes, error) {
	for i, n := range passNames {
		if s == n {
			return Passes(i), nil
		}
	}
	return 0, fmt.Errorf("unknown pass rule %q (want per-time or per-event)", s)
}

// Config sets up an Engine.
type Config struct {
	// Machine is the simulated machine.
	Machine model.Machine
	// NodeAllocation makes jobs take whole nodes: a job of s processors
	// holds ceil(s / PEsPerNode) nodes. Otherwise processors are one flat
	// pool.
	NodeAllocation bool
	// Order orders same-time events.
	Order Order
	// Passes says when scheduling passes run.
	Passes Passes
	// SamplePeriod, when positive, writes time-series samples at every
	// multiple of it instead of at every change.
	SamplePeriod model.Time
}

// TimeSharing is implemented by policies that allocate a processor to
// several jobs at once. Slots is how many: the rows of a gang scheduler's
// matrix, its multiprogramming level. Without it the running jobs together
// hold at most the machine. The engine checks only this bound; which jobs
// share a processor, and that no two run on it at the same moment, is the
// policy's business, expressed through each job's Duty.
type TimeSharing interface {
	Slots() int
}

// Policy decides which jobs run. The engine calls it; it acts through the
// Engine methods Start, Suspend, Resume, SetRate, SetDuty and SetTimer.
type Policy interface {
	// Attach is called once, before the first event.
	Attach(e *Engine)
	// Arrive is called when a job enters the queue.
	Arrive(j *Job)
	// Complete is called when a job has finished and released its
	// processors. The policy must drop its references to j.
	Complete(j *Job)
	// Timer is called when a timer set with SetTimer fires.
	Timer(tag int64)
	// Schedule runs a scheduling pass at the current time.
	Schedule()
}

// Reporter is implemented by policies that add their own measurements to
// outcomes and samples: the time-sharing fields (Sharing and after) of
// model.Outcome and model.Sample.
type Reporter interface {
	// ReportOutcome fills in the time-sharing fields of j's outcome as j
	// completes, before Complete is called.
	ReportOutcome(j *Job, o *model.Outcome)
	// ReportSample fills in the time-sharing fields of the sample that
	// describes the system from now on.
	ReportSample(s *Sample)
}

// Noticer is implemented by policies under which a job's completion takes
// effect only once the scheduler notices it: STORM's machine manager learns
// of a terminated job at its next heartbeat (Frachtenberg's thesis 4.2.1,
// 4.2.2, step 7) and frees its resources then. When a job's work is done
// at t the engine asks Notice; a later time keeps the job running, holding
// its processors without progress, and it completes then: its outcome's
// End is the time noticed. Rate and duty changes no longer move it. The
// engine runs a scheduling pass at the time the work is done all the same,
// as a policy that simulates its jobs' progress itself (EndAt) goes on from
// there.
type Noticer interface {
	// Notice returns when the policy notices that j, whose work is done
	// now, has ended: now or later.
	Notice(j *Job) model.Time
}

// Sample is model.Sample, the state of the system over an interval.
type Sample = model.Sample

// SampleWriter is model.SampleWriter.
type SampleWriter = model.SampleWriter

// Engine runs one simulation. Create it with New; it is single-use.
type Engine struct {
	cfg      Config
	pol      Policy
	rep      Reporter // pol, if it reports time-sharing measurements
	slots    int      // allocations a unit may hold at once: 1, or TimeSharing.Slots
	capacity int      // allocation units: processors, or nodes under NodeAllocation
	unit     int      // processors per allocation unit

	now  model.Time
	heap eventHeap
	seq  uint64

	held                        int64 // Σ need over running jobs
	busy                        int64 // Σ need × duty fraction over running jobs, fracOne = 1
	queued, running, suspended  int
	src                         model.JobReader
	lastSubmit                  model.Time
	haveSubmit                  bool
	out                         model.OutcomeWriter
	samples                     SampleWriter
	pending                     Sample // state after the last processed time, not yet written
	havePending, wroteAny       bool
	lastWritten                 Sample
	pool                        []*Job
	arrived, completed, rejects int
	timers                      map[TimerID]struct{} // pending timers: set, not yet fired or canceled
	scratch                     model.Outcome        // reused for every outcome: writers must not retain it
	abort                       error                // set by Abort: the run stops with it
}

// New returns an engine for cfg driving pol. It panics if cfg.Machine is not
// valid.
func New(cfg Config, pol Policy) *Engine {
	if !cfg.Machine.Valid() {
		panic(fmt.Sprintf("sim: invalid machine %+v", cfg.Machine))
	}
	e := &Engine{cfg: cfg, pol: pol, capacity: cfg.Machine.Procs(), unit: 1}
	e.rep, _ = pol.(Reporter)
	e.slots = 1
	if ts, ok := pol.(TimeSharing); ok {
		e.slots = max(ts.Slots(), 1)
	}
	if cfg.NodeAllocation {
		e.capacity, e.unit = cfg.Machine.Nodes, cfg.Machine.PEsPerNode
	}
	return e
}

// Now is the current simulated time.
func (e *Engine) Now() model.Time { return e.now }

// Machine is the simulated machine.
func (e *Engine) Machine() model.Machine { return e.cfg.Machine }

// Capacity is the number of allocation units: processors, or nodes under
// node allocation.
func (e *Engine) Capacity() int { return e.capacity }

// Free is the number of allocation units not held by running jobs (0 when
// time-shared jobs hold more than the machine).
func (e *Engine) Free() int {
	return int(max(int64(e.capacity)-e.held, 0))
}

// Need is the number of allocation units j holds while it runs.
func (e *Engine) Need(j *Job) int { return j.need }

// Queued, Running and Suspended count the jobs in each state.
func (e *Engine) Queued() int    { return e.queued }
func (e *Engine) Running() int   { return e.running }
func (e *Engine) Suspended() int { return e.suspended }

// Start starts a queued job at FullRate. It panics if j is not queued or
// does not fit in the free units: policies must check Free first.
func (e *Engine) Start(j *Job) {
	if j.State != Queued {
		panic(fmt.Sprintf("sim: Start of job %d in state %v", j.In.ID, j.State))
	}
	e.queued--
	j.Start = e.now
	e.run(j, FullRate)
}

// Suspend deschedules a running job: it releases its processors and keeps
// the work done so far.
func (e *Engine) Suspend(j *Job) {
	if j.State != Running || j.finished {
		panic(fmt.Sprintf("sim: Suspend of job %d in state %v (finished %v)", j.In.ID, j.State, j.finished))
	}
	e.account(j)
	e.release(j)
	j.gen++ // the pending completion is stale
	j.State = Suspended
	e.running--
	e.suspended++
}

// Resume restarts a suspended job at FullRate, always on. It panics if j is
// not suspended or does not fit.
func (e *Engine) Resume(j *Job) {
	if j.State != Suspended {
		panic(fmt.Sprintf("sim: Resume of job %d in state %v", j.In.ID, j.State))
	}
	e.suspended--
	e.run(j, FullRate)
}

// SetRate changes the progress rate of a running job, 0 <= r <= FullRate,
// and moves its completion accordingly. A job at rate 0 keeps its
// processors and makes no progress (a job being switched in, say) until a
// later SetRate.
func (e *Engine) SetRate(j *Job, r Rate) {
	if j.State != Running || r < 0 || r > FullRate {
		panic(fmt.Sprintf("sim: SetRate(%d) of job %d in state %v", r, j.In.ID, j.State))
	}
	e.account(j)
	j.rate = r
	if !j.finished {
		e.scheduleCompletion(j)
	}
}

// SetDuty changes when a running job progresses (see Duty) from now on,
// keeping its rate and processors, and moves its completion accordingly.
// What d says of times before now does not matter. It panics if j is not
// running or if d is malformed.
func (e *Engine) SetDuty(j *Job, d Duty) {
	if j.State != Running {
		panic(fmt.Sprintf("sim: SetDuty of job %d in state %v", j.In.ID, j.State))
	}
	if err := d.check(); err != nil {
		panic(fmt.Sprintf("sim: SetDuty of job %d: %v", j.In.ID, err))
	}
	e.account(j)
	e.busy -= int64(j.need) * j.frac
	j.duty = d
	j.frac = d.fraction()
	e.busy += int64(j.need) * j.frac
	if !j.finished {
		e.scheduleCompletion(j)
	}
}

// EndAt makes a running job complete at time at (not before now), whatever
// its rate and duty: for a policy that simulates a job's progress itself
// (process by process) and knows when it ends. A later SetRate, SetDuty or
// EndAt replaces it. The job keeps its processors until then.
func (e *Engine) EndAt(j *Job, at model.Time) {
	if j.State != Running || at < e.now {
		panic(fmt.Sprintf("sim: EndAt(%v) of job %d in state %v at %v", at, j.In.ID, j.State, e.now))
	}
	if j.finished {
		return // done and waiting to be noticed
	}
	e.account(j)
	j.gen++
	rank := uint8(0)
	if e.cfg.Order == OrderPyss && at != j.Start+j.Estimate {
		rank = 2
	}
	e.push(event{at: at, kind: evCompletion, job: j, gen: j.gen, rank: rank})
}

// NextEvent is the time of the earliest event pending (model.Never if
// none): a policy that simulates ahead by itself may go that far without
// missing anything the engine would tell it. Superseded completions and
// canceled timers at the front are dropped first.
func (e *Engine) NextEvent() model.Time {
	for len(e.heap) > 0 {
		ev := e.heap.peek()
		stale := ev.kind == evCompletion && (ev.gen != ev.job.gen || ev.job.State != Running)
		if ev.kind == evTimer {
			_, live := e.timers[TimerID(ev.seq)]
			stale = !live
		}
		if !stale {
			return ev.at
		}
		e.heap.pop()
	}
	return model.Never
}

// SamplePeriod is the period of the time series being written: positive
// when Run was given a sample writer and Config.SamplePeriod is set, else
// 0. A policy that simulates ahead of the engine (the process-level
// policies) stops at every multiple of it, with a timer, so that the
// sample written there reports its state at that moment.
func (e *Engine) SamplePeriod() model.Time {
	if e.samples == nil {
		return 0
	}
	return max(e.cfg.SamplePeriod, 0)
}

// WorkDone is the dedicated-speed work j has done so far, in simulated
// microseconds (rounded down): what a job alone on its processors would
// have done in that time.
func (e *Engine) WorkDone(j *Job) model.Time {
	if j.State == Running {
		e.account(j)
	}
	return model.Time(j.done / int64(FullRate))
}

// Abort stops the run: Run returns err once the current event and pass are
// done. It is for a policy that finds it cannot go on (a time slice no
// longer than the context switch that starts it, say); the first call's
// error wins.
func (e *Engine) Abort(err error) {
	if e.abort == nil {
		e.abort = err
	}
}

// TimerID identifies a timer set with SetTimer.
type TimerID uint64

// SetTimer asks for a Timer(tag) call at time at (not before now) and
// returns an ID that CancelTimer takes.
func (e *Engine) SetTimer(at model.Time, tag int64) TimerID {
	if at < e.now {
		panic(fmt.Sprintf("sim: SetTimer at %v, before now %v", at, e.now))
	}
	id := TimerID(e.seq)
	e.push(event{at: at, kind: evTimer, tag: tag, rank: 3})
	if e.timers == nil {
		e.timers = make(map[TimerID]struct{})
	}
	e.timers[id] = struct{}{}
	return id
}

// CancelTimer cancels a pending timer: it will neither call Timer nor cause
// a scheduling pass. Cancelling a timer that already fired or was already
// canceled does nothing. The engine remembers only pending timers, so its
// memory does not grow with the timers set over a run.
func (e *Engine) CancelTimer(id TimerID) { delete(e.timers, id) }

// PendingTimers is the number of timers set and neither fired nor
// canceled.
func (e *Engine) PendingTimers() int { return len(e.timers) }

func (e *Engine) run(j *Job, r Rate) {
	j.State = Running
	j.rate = r
	j.since = e.now
	j.duty = AlwaysOnFrom(e.now)
	j.frac = fracOne
	e.held += int64(j.need)
	e.busy += int64(j.need) * j.frac
	e.checkCapacity(j)
	e.running++
	e.scheduleCompletion(j)
}

// release takes a job that stops running off the processors.
func (e *Engine) release(j *Job) {
	e.held -= int64(j.need)
	e.busy -= int64(j.need) * j.frac
	j.rate, j.frac = 0, 0
}

func (e *Engine) checkCapacity(j *Job) {
	if e.held > int64(e.capacity)*int64(e.slots) {
		panic(fmt.Sprintf("sim: job %d overcommits the machine at %v: %d units held of %d × %d slots",
			j.In.ID, e.now, e.held, e.capacity, e.slots))
	}
}

// account brings j's work done up to now.
func (e *Engine) account(j *Job) {
	if e.now == j.since {
		return
	}
	if j.finished {
		j.since = e.now // its work is done: it holds its processors, idle
		return
	}
	on := j.duty.cumulative(e.now) - j.duty.cumulative(j.since)
	j.done += int64(on) * int64(j.rate)
	j.since = e.now
}

// scheduleCompletion (re)schedules j's completion from its work left, rate
// and duty; a job at rate 0 has none until its rate changes.
func (e *Engine) scheduleCompletion(j *Job) {
	j.gen++ // any pending completion is stale
	if j.rate == 0 {
		return
	}
	rem := max(int64(j.Work)*int64(FullRate)-j.done, 0)
	on := model.Time((rem + int64(j.rate) - 1) / int64(j.rate)) // on-time still needed
	at := max(j.duty.reach(j.duty.cumulative(e.now)+on), e.now)
	rank := uint8(0)
	if e.cfg.Order == OrderPyss && at != j.Start+j.Estimate {
		rank = 2 // ends before its estimate: after the arrivals at the same time
	}
	e.push(event{at: at, kind: evCompletion, job: j, gen: j.gen, rank: rank})
}

func (e *Engine) push(ev event) {
	ev.seq = e.seq
	e.seq++
	e.heap.push(ev)
}

// Run replays the jobs of src through the policy. Each job's outcome goes to
// out (in completion order; rejected jobs at their arrival); samples, if not
// nil, receives the time series. Jobs must come in non-decreasing submit
// order. Run returns the first error of src, out or samples, or an error if
// the policy leaves jobs in the system with nothing left to happen.
func (e *Engine) Run(src model.JobReader, out model.OutcomeWriter, samples SampleWriter) error {
	e.src, e.out, e.samples = src, out, samples
	e.pol.Attach(e)
	if err := e.readNext(); err != nil {
		return err
	}
	for len(e.heap) > 0 {
		t := e.heap.peek().at
		if t > model.Horizon {
			return fmt.Errorf("an event at %v: %w", t, ErrHorizon)
		}
		if err := e.advance(t); err != nil {
			return err
		}
		e.now = t
		actedAny := false
		for len(e.heap) > 0 && e.heap.peek().at == t {
			ev := e.heap.pop()
			acted, err := e.dispatch(&ev)
			if err != nil {
				return err
			}
			actedAny = actedAny || acted
			if acted && e.cfg.Passes == PassPerEvent {
				e.pol.Schedule()
			}
		}
		if actedAny && e.cfg.Passes == PassPerTime {
			e.pol.Schedule()
		}
		if e.abort != nil {
			return e.abort
		}
		e.state(t, &e.pending)
		e.havePending = true
	}
	if e.queued+e.running+e.suspended > 0 {
		return fmt.Errorf("policy left %d queued, %d running and %d suspended jobs with no event pending at %v",
			e.queued, e.running, e.suspended, e.now)
	}
	return e.advance(model.Never)
}

// dispatch applies one event; acted reports whether it was a live event that
// deserves a scheduling pass (not a superseded completion, a canceled timer
// or a rejected arrival).
func (e *Engine) dispatch(ev *event) (acted bool, err error) {
	switch ev.kind {
	case evArrival:
		j := ev.job
		accepted, err := e.arrive(j)
		if err != nil {
			return false, err
		}
		if err := e.readNext(); err != nil {
			return false, err
		}
		return accepted, nil
	case evCompletion:
		j := ev.job
		if ev.gen != j.gen || j.State != Running {
			return false, nil // superseded by a rate change or suspension
		}
		if n, ok := e.pol.(Noticer); ok && !j.finished {
			if at := n.Notice(j); at > e.now {
				// Done, not yet noticed: it holds its processors until then.
				e.account(j)
				j.finished = true
				j.gen++
				e.push(event{at: at, kind: evCompletion, job: j, gen: j.gen})
				// A pass all the same: a policy that simulates its jobs'
				// progress itself goes on from here.
				return true, nil
			}
		}
		if e.cfg.Order == OrderPyss && ev.rank == 0 {
			// pyss frees a job that ends at its estimate from the start of
			// the instant, but its termination, and the pass it triggers,
			// come in creation order among the other terminations: free it
			// now, pass later.
			e.heap.push(event{at: ev.at, rank: 2, seq: ev.seq, kind: evPass})
			return false, e.complete(j)
		}
		return true, e.complete(j)
	case evPass:
		return true, nil
	case evTimer:
		id := TimerID(ev.seq)
		if _, ok := e.timers[id]; !ok {
			return false, nil // canceled
		}
		delete(e.timers, id)
		e.pol.Timer(ev.tag)
		return true, nil
	}
	panic("sim: unknown event kind")
}

func (e *Engine) arrive(j *Job) (accepted bool, err error) {
	e.arrived++
	reason := model.Accepted
	switch {
	case j.Size <= 0:
		reason = model.RejectNoSize
	case !j.In.Has(model.FieldRuntime) || j.Work < 0:
		reason = model.RejectNoRuntime
	case j.Work > MaxWork:
		reason = model.RejectTooLong
	default:
		j.need = (j.Size + e.unit - 1) / e.unit
		if j.need > e.capacity {
			reason = model.RejectTooWide
		}
	}
	if reason != model.Accepted {
		e.rejects++
		e.scratch = model.Outcome{JobID: j.In.ID, Submit: j.In.Submit, Start: model.Never, End: model.Never,
			Procs: j.Size, Estimate: j.Estimate, Dedicated: j.Work, Reason: reason}
		e.recycle(j)
		return false, e.writeOutcome(&e.scratch)
	}
	j.State = Queued
	e.queued++
	e.pol.Arrive(j)
	return true, nil
}

func (e *Engine) complete(j *Job) error {
	e.account(j)
	e.release(j)
	j.State = Done
	j.End = e.now
	e.running--
	e.completed++
	e.scratch = model.Outcome{JobID: j.In.ID, Submit: j.In.Submit, Start: j.Start, End: j.End, Procs: j.Size,
		Estimate: j.Estimate, Runtime: j.End - j.Start, Dedicated: j.Work}
	if e.rep != nil {
		e.rep.ReportOutcome(j, &e.scratch)
	}
	err := e.writeOutcome(&e.scratch)
	e.pol.Complete(j)
	e.recycle(j)
	return err
}

func (e *Engine) writeOutcome(o *model.Outcome) error {
	if e.out == nil {
		return nil
	}
	if err := e.out.Write(o); err != nil {
		return fmt.Errorf("writing outcome of job %d: %w", o.JobID, err)
	}
	return nil
}

// ErrUnsorted: a job's submit time is earlier than the job before it. The
// engine takes jobs in submit order; a trace out of order is sorted by
// cleaning (genwork clean --order sort).
var ErrUnsorted = errors.New("the engine needs jobs in submit order (sort them: genwork clean --order sort)")

// ErrTimeRange: a job's submit time, run time or estimate lies outside the
// range of every time read (model.InRange), or an application attribute
// outside its own (model.App.Check).
// The readers of every format refuse such values with their position; the
// engine refuses them too, whatever made the job, so that no time it forms
// from them can overflow.
var ErrTimeRange = errors.New("time beyond the range of every time (model.MaxSeconds)")

// ErrHorizon: the simulation would pass model.Horizon, beyond which its
// times could overflow.
var ErrHorizon = errors.New("simulated time beyond the engine's horizon, 2^62 µs (about 146,000 years)")

// checkRange returns ErrTimeRange, naming the value, if a time of in that
// the engine or a policy uses is out of range.
func checkRange(in *model.Job) error {
	check := func(what string, t model.Time) error {
		if model.InRange(t) {
			return nil
		}
		return fmt.Errorf("job %d: %s %v: %w", in.ID, what, t, ErrTimeRange)
	}
	if err := check("submit time", in.Submit); err != nil {
		return err
	}
	if err := check("run time", in.Runtime); err != nil {
		return err
	}
	if err := check("estimate", in.Estimate); err != nil {
		return err
	}
	if err := in.App.Check(); err != nil {
		return fmt.Errorf("job %d: %w: %w", in.ID, err, ErrTimeRange)
	}
	return nil
}

// readNext reads the next job from the source and schedules its arrival.
func (e *Engine) readNext() error {
	in, err := e.src.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkRange(&in); err != nil {
		return err
	}
	if e.haveSubmit && in.Submit < e.lastSubmit {
		return fmt.Errorf("job %d submitted at %v, before the previous job (%v): %w",
			in.ID, in.Submit, e.lastSubmit, ErrUnsorted)
	}
	e.lastSubmit, e.haveSubmit = in.Submit, true
	j := e.newJob()
	j.In = in
	j.Size = in.Size()
	j.Work = in.Runtime
	j.Estimate = j.Work
	if in.Has(model.FieldEstimate) && in.Estimate > 0 {
		j.Estimate = in.Estimate
	}
	e.push(event{at: in.Submit, kind: evArrival, job: j, rank: 1})
	return nil
}

func (e *Engine) newJob() *Job {
	var j *Job
	if n := len(e.pool); n > 0 {
		j = e.pool[n-1]
		e.pool = e.pool[:n-1]
		// Keep the generation: completion events of the job's earlier
		// life, superseded by rate or duty changes, may still be queued,
		// and must stay stale for the new job.
		*j = Job{gen: j.gen}
	} else {
		j = new(Job)
	}
	j.Start, j.End, j.Slot = model.Never, model.Never, -1
	return j
}

func (e *Engine) recycle(j *Job) {
	j.In.App = model.App{} // drop slices early
	e.pool = append(e.pool, j)
}

// state sets *s to the state of the system from t on.
func (e *Engine) state(t model.Time, s *Sample) {
	*s = Sample{At: t, InSystem: e.queued + e.running + e.suspended, Queued: e.queued,
		Running: e.running, Suspended: e.suspended,
		BusyProcs: float64(e.busy) / fracOne * float64(e.unit)}
	if e.rep != nil {
		e.rep.ReportSample(s)
	}
}

// advance writes the samples that describe the interval from the last
// processed time up to (not including) t.
func (e *Engine) advance(t model.Time) error {
	if e.samples == nil || !e.havePending {
		return nil
	}
	s := e.pending
	if p := e.cfg.SamplePeriod; p > 0 {
		// Sample points k×p in [s.At, t), each showing the state since s.At.
		first := (s.At + p - 1) / p * p
		if t == model.Never && first < s.At+p {
			t = first + 1 // after the last event: one final point
		}
		for at := first; at < t; at += p {
			pt := s
			pt.At = at
			if err := e.samples.WriteSample(&pt); err != nil {
				return fmt.Errorf("writing time series: %w", err)
			}
		}
		return nil
	}
	if e.wroteAny && sameState(&s, &e.lastWritten) {
		return nil
	}
	e.lastWritten, e.wroteAny = s, true
	if err := e.samples.WriteSample(&s); err != nil {
		return fmt.Errorf("writing time series: %w", err)
	}
	return nil
}

// sameState reports whether two samples describe the same state (at any
// times).
func sameState(a, b *Sample) bool {
	x, y := *a, *b
	x.At, y.At = 0, 0
	return x == y
}

// Counts reports how many jobs arrived, completed and were rejected so far.
func (e *Engine) Counts() (arrived, completed, rejected int) {
	return e.arrived, e.completed, e.rejects
}
