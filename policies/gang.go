package policies

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// GangConfig is the configuration of gang scheduling, with the defaults
// that DefaultGangConfig gives.
type GangConfig struct {
	// MPL is the multiprogramming level: the most rows the matrix may
	// have, at least 1. 1 is space sharing. Default 6, the thesis' dynamic
	// runs (Frachtenberg 6.4.1).
	MPL int
	// Quantum is the time slice each row gets in turn, positive. Default
	// 100 ms (thesis 6.4.1; STORM ran 300 us to 8 s, 4.3.3; SCore-D and
	// ParPar 100 ms to seconds).
	Quantum model.Time
	// Alloc is the placement rule: "ff" (first fit; "firstfit" is the same)
	// or "dhc" (the buddy blocks of distributed hierarchical control).
	// Default dhc, STORM's placement in the thesis' dynamic runs
	// (Frachtenberg 6.4.1).
	Alloc string
	// Alternate lets a job also run in other rows' slots where all its
	// columns are idle (thesis 6.2, footnote 1). Default false.
	Alternate bool
	// Backfill is the queue in front of the matrix: "none" (FCFS: a job
	// that fits nowhere blocks those behind it) or "easy" (EASY
	// backfilling, reservations from estimates times MPL, as the thesis'
	// dynamic runs put it in front of the matrix, 6.4.1). Default easy.
	Backfill string
	// Storm is what is modelled of STORM's managers (Storm): its
	// heartbeats, launch and node managers' strobe rule. Default none;
	// the registry turns them on for a STORM cluster's hardware.
	Storm Storm
}

// DefaultGangConfig is GangConfig's defaults: the set-up of the thesis'
// dynamic experiments (Frachtenberg 6.4.1), MPL 6, a 100 ms quantum, EASY
// backfilling in front of the matrix (estimates times the MPL) and DHC
// placement, so that plain gs, sb, fcs, bcs, pbcs and local each mean the
// thesis' configuration of that algorithm. With a STORM cluster's hardware
// (--hw crescendo) STORM's mechanics come on too (Storm, stormConfig).
// Batch scheduling on the same machine is gs:mpl=1; the classic
// variants are named in full: gs:backfill=none,alloc=ff.
func DefaultGangConfig() GangConfig {
	return GangConfig{MPL: 6, Quantum: 100 * model.Millisecond, Alloc: allocDHC, Backfill: "easy"}
}

// Validate reports a configuration gang scheduling cannot run.
func (c GangConfig) Validate() error {
	switch {
	case c.MPL < 1 || c.MPL > maxMPL:
		return paramErrorf("mpl=%d: want 1 to %d", c.MPL, maxMPL)
	case c.Quantum <= 0:
		return paramErrorf("quantum=%v: want a positive time slice", c.Quantum)
	case c.Alloc != allocFirstFit && c.Alloc != allocFirstFitLong && c.Alloc != allocDHC:
		return paramErrorf("alloc=%q: want ff (or firstfit) or dhc", c.Alloc)
	case c.Backfill != "none" && c.Backfill != "easy":
		return paramErrorf("backfill=%q: want none or easy", c.Backfill)
	}
	return nil
}

// maxMPL bounds the multiprogramming level (rows are tracked in 64-bit
// masks); real gang schedulers ran at most a few dozen.
const maxMPL = 64

// gangParams documents gs's parameters for the registry.
var gangParams = mergeDocs(stormParams, map[string]string{
	"mpl":       "multiprogramming level: the matrix's most rows, >= 1 (default 6, thesis 6.4.1; 1 is batch)",
	"quantum":   "time slice of each row, e.g. 100ms or 2s (default 100ms, thesis 6.4.1)",
	"alloc":     "placement: dhc (buddy blocks of distributed hierarchical control, STORM's; default, thesis 6.4.1) or ff or firstfit (first fit)",
	"alternate": "true: a job also runs in other rows' slots where all its processors are idle (default false)",
	"backfill":  "queue in front of the matrix: easy (EASY backfilling, reservations from estimates x mpl; default, thesis 6.4.1) or none (FCFS: a job that fits nowhere blocks those behind it)",
})

// resize returns s with n elements, reusing its storage and the elements'
// own (their slices' storage).
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// mergeDocs returns the parameters documented in all of docs.
func mergeDocs(docs ...map[string]string) map[string]string {
	m := map[string]string{}
	for _, d := range docs {
		for k, v := range d {
			m[k] = v
		}
	}
	return m
}

// gsParams are gs's parameters: the gang parameters, the level, and at
// process level the processors' costs.
var gsParams = func() map[string]string {
	m := map[string]string{"level": "job (default: jobs progress in their slots as the job-level model says) or process (every process simulated, package procsim)"}
	for k, v := range gangParams {
		m[k] = v
	}
	for k, v := range coschedParams {
		m[k] = v + "; level=process only"
	}
	return m
}()

func gangConfig(p Params, env Env) (GangConfig, error) {
	c := DefaultGangConfig()
	var err error
	if c.Storm, err = stormConfig(p, env); err != nil {
		return c, err
	}
	if c.MPL, err = p.Int("mpl", c.MPL, 1, maxMPL); err != nil {
		return c, err
	}
	if c.Quantum, err = p.Duration("quantum", c.Quantum, 1); err != nil {
		return c, err
	}
	if c.Alloc, err = p.Choice("alloc", c.Alloc, allocFirstFit, allocFirstFitLong, allocDHC); err != nil {
		return c, err
	}
	if c.Alloc == allocFirstFitLong {
		c.Alloc = allocFirstFit
	}
	if c.Alternate, err = p.Bool("alternate", c.Alternate); err != nil {
		return c, err
	}
	if c.Backfill, err = p.Choice("backfill", c.Backfill, "none", "easy"); err != nil {
		return c, err
	}
	return c, c.Validate()
}

// checkSwitch refuses a quantum no longer than the cheapest gang switch a
// run on env could make (rows in use from 2 to the MPL, occupancy 0 or 1):
// every switch would then take the whole quantum. Whether a dearer switch
// of a particular state does is known only in the run, which aborts then.
func (c GangConfig) checkSwitch(env Env) error {
	if c.MPL < 2 || !env.Hardware.Charged() {
		return nil
	}
	least := model.Never
	for rows := 2; rows <= c.MPL; rows++ {
		for _, occ := range []float64{0, 1} {
			least = min(least, env.Hardware.Costs.Switch(hwmodel.SwitchState{Nodes: env.Machine.Nodes, Jobs: rows, Occupancy: occ}))
		}
	}
	if least >= c.Quantum {
		return paramErrorf("quantum=%v: every gang switch on %s costs at least %v, no shorter than the quantum: no job would progress; use a quantum longer than %v",
			c.Quantum, env.Hardware, least, least)
	}
	return nil
}

// Gang is gang scheduling at job level. Jobs wait in a queue (FCFS or EASY
// backfilling) in front of an Ousterhout matrix of at most MPL rows; the
// rows in use are served round robin, a quantum each, and every switch from
// one row to the next costs the hardware model's gang switch, during which
// the jobs switched in make no progress. A job progresses at the rate its
// communication allows with the jobs time-sharing the network. The round
// robin is not stepped: from the matrix, the engine is given each job's
// Duty (when in the cycle it runs) and computes its completion directly;
// the policy recomputes duties only when the matrix changes, and only
// those of the jobs the change touches (replanDuties). The package
// documentation ("Gang scheduling") states the rules: placement,
// repacking, alternative scheduling, when a switch is charged and what it
// costs, settling at changes, backfilling, and the communication model's
// equations.
type Gang struct {
	cfg GangConfig
	env Env
	e   *sim.Engine

	m         *matrix
	scratch   matrix     // backfilling's projection
	projected projection // what project found last
	queue     fifo
	bf        *gangFront  // the queue indexed, with backfill=easy
	easyRef   func(*Gang) // tests: the reference scheduleEASY runs instead
	jobs      map[*sim.Job]*gangJob
	seq       uint64

	// The round robin: the current slot is cur's, begun at slotStart; its
	// switch ends at switchEnd. While sliced is false the single row runs
	// without slices. cyc is the cycle that follows the current slot, as
	// computed at the last change.
	cur       *row
	slotStart model.Time
	switchEnd model.Time
	sliced    bool
	cyc       cycle
	spare     cycle      // the cycle planned before cyc: its storage, reused
	order     []*row     // the rows in round-robin order at the last change
	synced    model.Time // time sync last brought the round robin to
	dirty     bool       // the matrix changed since the duties were set
	changed   bool       // a job arrived or left since the last pass
	left      bool       // a job left since the last pass: the matrix is to be repacked
	aborted   bool       // the run is stopping (abort): the duties no longer follow the matrix
	switching float64    // share of time spent switching in the cycle, for samples
	rr        roundRobin // how the round robin's time is accounted
	stamp     uint64     // the last stamp mark gave

	// What replanDuties needs to replan only the jobs a change touches:
	// whether cyc is a plan the jobs' duties follow (replanned), the rows
	// it was planned over, and whether the change restarted the slot
	// (settle: the served row emptied).
	replanned bool
	planRows  []*row
	restarted bool
	// kept[k] says that planChain kept the slot X(k) (the lead's, then
	// the steady cycle's: cycle.at(k+1)) from the last plan's slot at the
	// same time: the same run set and switch. Empty without planChain.
	kept []bool
	// pairs is touchChanged's scratch list of the run sets it compared.
	pairs []runPair

	// STORM's mechanics (GangConfig.Storm): the jobs being launched, by
	// the time their processes start, and the timers of the next launch
	// and of the next heartbeat at which the machine manager acts.
	launching   []*gangJob
	launchTimer sim.TimerID
	launchAt    model.Time
	beatTimer   sim.TimerID
	beatAt      model.Time

	// Scratch buffers of plan.
	leadBuf, onBuf      []sim.Window
	leadMarks, cycMarks []mark
	allBuf, runBuf      []*gangJob
	stillBuf            []*gangJob
	// The jobs placed since the last pass (fresh), those touched since
	// the last plan (touched), and the scratch list of those to plan.
	freshList, touchedList, candBuf []*gangJob
	// onList holds every job that runs in the current slot (on), and
	// perhaps jobs that have left since.
	onList   []*gangJob
	sized    int        // the jobs in the matrix with a memory size (pageCosts)
	talkers  int        // the jobs in the matrix that may communicate (silent)
	byEnd    []*gangJob // the matrix's jobs by byEndOrder
	cols     columns
	switches *[switchCacheSize]switchEntry // the hardware model's gang switches computed so far

	// noFit is the fewest columns found not to fit in the matrix (find)
	// since its last change, vers its version then (matrix.vers);
	// noFitOK says whether it holds.
	noFit    int
	noFitVer uint64
	noFitOK  bool

	maxPage  model.Time // the longest paging of a job in the matrix (pageCosts)
	gangLoss model.Time // added to every charged gang switch (CoschedConfig.GangLoss)
}

// touch marks g touched (gangJob.touched) and lists it.
func (p *Gang) touch(g *gangJob) {
	if !g.touched {
		g.touched = true
		p.touchedList = append(p.touchedList, g)
	}
}

// untouchAll clears every job's touched mark and the list of them.
func (p *Gang) untouchAll() {
	for _, g := range p.touchedList {
		g.touched = false
	}
	clear(p.touchedList)
	p.touchedList = p.touchedList[:0]
}

// mark stamps the jobs of set so that marked tells them apart in O(1), and
// returns the stamp.
func (p *Gang) mark(set []*gangJob) uint64 {
	p.stamp++
	for _, g := range set {
		g.stamp = p.stamp
	}
	return p.stamp
}

// roundRobin is how the round robin's time is accounted: planned as duties
// that the engine follows without an event per slot (planned, the policy),
// stepped slot by slot with every process simulated (cosched, the
// process-level policies), or stepped with timers (the naive twin the
// tests check the plans against). Gang calls these hooks at its events; a
// round robin that steps the slots itself calls Gang back only through
// gangSlots. Together the two are the whole contract between the gang
// matrix and the process-level policies.
type roundRobin interface {
	// sync brings the current slot up to now.
	sync()
	// replan follows a change of the matrix: settle the current slot and
	// set every job's progress from now on.
	replan()
	// timer is a timer of the round robin's.
	timer(tag int64)
	// placed and removed follow a job into and out of the matrix, and
	// launched tells that a placed job's processes start (at once, or
	// once STORM has launched it: GangConfig.Storm.Launch).
	placed(g *gangJob)
	launched(g *gangJob)
	removed(g *gangJob)
	// after ends every pass.
	after()
	// outcome fills in the time-sharing fields of g's outcome.
	outcome(g *gangJob, o *model.Outcome)
	// sample fills in the time-sharing fields of a sample.
	sample(s *sim.Sample)
}

// planned is the policy's round robin: duties planned at every change.
type planned struct{ *Gang }

func (p planned) sync()            { p.syncPlanned() }
func (p planned) replan()          { p.replanDuties() }
func (p planned) timer(int64)      {}
func (p planned) placed(*gangJob)  {}
func (p planned) removed(*gangJob) {}
func (p planned) launched(g *gangJob) {
	p.setRate(g)
}
func (p planned) after() {}
func (p planned) outcome(g *gangJob, o *model.Outcome) {
	g.account(p.e.Now())
	o.Sharing, o.Switches, o.SwitchLoss = model.JobLevel, g.switches, g.loss
}
func (p planned) sample(s *sim.Sample) {
	s.Sharing, s.Rows, s.Switching = model.JobLevel, len(p.m.rows), p.switching
}

// gangSlots is what a round robin that steps the slots itself (cosched)
// asks of the gang scheduler, and all it asks: Gang keeps the matrix, the
// queue and the current slot, and the round robin reads the slots and
// jobs and starts the next slot through these. Of the jobs (gangJob) it
// reads seq, j, need, cols, ready, on, onFrom and switchedAt, and it keeps
// their switch counts (switches, loss, counted). Each call is once per
// pass or per slot, none per process event.
type gangSlots interface {
	// engine is the engine the policy is attached to.
	engine() *sim.Engine
	// slotEnd is when the current slot's quantum ends: Never if no slot
	// is current (the matrix is empty, or the slot's row has left it).
	slotEnd() model.Time
	// soleRow reports whether the matrix has one row and the current
	// slot serves it, and gives its jobs.
	soleRow() ([]*gangJob, bool)
	// rowsInUse is the number of rows in the matrix.
	rowsInUse() int
	// all is the jobs in the matrix in the order the policy acts on them
	// (the slice is reused by the next call).
	all() []*gangJob
	// pin is the columns a hand-placed job takes, nil if the allocator
	// chooses.
	pin(j *sim.Job) []int
	// nextSlot starts the next row's slot at at, after the switch into it
	// (the gang switch, charged to the jobs switched in). If the switch
	// leaves nothing of the quantum, the run is aborted, no slot is
	// current, and it reports false.
	nextSlot(at model.Time) bool
	// settle follows a change of the matrix: the current slot goes on or
	// the next starts now. It reports false if the matrix is empty or the
	// run was aborted.
	settle() bool
}

func (p *Gang) engine() *sim.Engine { return p.e }

func (p *Gang) slotEnd() model.Time {
	if p.cur == nil || p.m.index(p.cur) < 0 {
		return model.Never
	}
	return p.slotStart + p.cfg.Quantum
}

func (p *Gang) soleRow() ([]*gangJob, bool) {
	if len(p.m.rows) != 1 || p.cur != p.m.rows[0] {
		return nil, false
	}
	return p.cur.jobs, true
}

func (p *Gang) rowsInUse() int { return len(p.m.rows) }

func (p *Gang) nextSlot(at model.Time) bool {
	rows := len(p.m.rows)
	next := p.m.rows[(p.m.index(p.cur)+1)%rows]
	sl := slotPlan{row: next, run: p.runSet(nil, next, p.running())}
	sl.cost = p.switchCost(p.running(), sl.run, rows, false)
	if !p.checkCost(sl.cost) {
		p.cur = nil
		return false
	}
	p.enter(&sl, nil, at)
	return true
}

// cycle is what follows the current slot: the lead, slot by slot from the
// current slot's end, then slots round and round from origin.
type cycle struct {
	base model.Time // start of the slot current when the cycle was planned
	ci   int        // its row's index then
	// lead[k-1] is the slot k quanta after the base one, up to the
	// origin; lead[0]'s predecessor is the base slot as it ends. Its run
	// sets are the steady cycle's except where the node managers' Keep
	// rule carries over what runs now.
	lead   []slotPlan
	end    []*gangJob // the jobs running as the base slot ends (lead[0]'s predecessor)
	origin model.Time // the start of the first row's slot that ends the lead
	slots  []slotPlan // slot i serves row i; slot 0's predecessor is the last
}

// at returns the slot that starts k quanta after the base slot (k >= 1),
// the slot before it (nil for the base slot) and its start.
func (c *cycle) at(k int, q model.Time) (sl, prev *slotPlan, start model.Time) {
	start = c.base + model.Time(k)*q
	switch {
	case k == 1:
		return &c.lead[0], nil, start
	case k <= len(c.lead):
		return &c.lead[k-1], &c.lead[k-2], start
	}
	n := len(c.slots)
	i := (c.ci + k) % n
	return &c.slots[i], &c.slots[(i+n-1)%n], start
}

// slotPlan is one slot of the round robin: the row served, the jobs that
// run (its own and alternates), and the switch into it.
type slotPlan struct {
	row  *row
	run  []*gangJob
	cost model.Time
	ver  uint64 // the row's version (row.ver) when the slot was planned
	own  int    // planChain: the row's jobs then, which open run
}

// NewGang returns a gang scheduler for env. It panics if cfg does not
// Validate (New checks it first).
func NewGang(cfg GangConfig, env Env) *Gang {
	if err := cfg.Validate(); err != nil {
		panic("policies: " + err.Error())
	}
	p := &Gang{cfg: cfg, env: env, jobs: make(map[*sim.Job]*gangJob)}
	p.rr = planned{p}
	return p
}

// Slots implements sim.TimeSharing: a processor holds up to MPL jobs.
func (p *Gang) Slots() int { return p.cfg.MPL }

// Attach implements sim.Policy.
func (p *Gang) Attach(e *sim.Engine) {
	p.e = e
	p.m = newMatrix(e.Capacity(), p.cfg.MPL, p.cfg.Alloc)
	p.synced, p.beatAt, p.launchAt = model.Never, model.Never, model.Never
}

// Arrive implements sim.Policy.
func (p *Gang) Arrive(j *sim.Job) {
	p.queue.push(j)
	p.changed = true
}

// Timer tags of the policy's own timers; the round robins use others.
const (
	tagHeartbeat = -2 // the machine manager's next heartbeat (Storm.Tick)
	tagLaunch    = -3 // the next launch ends (Storm.Launch)
)

// Timer implements sim.Policy.
func (p *Gang) Timer(tag int64) {
	switch tag {
	case tagHeartbeat:
		p.beatAt = model.Never
	case tagLaunch:
		p.launchAt = model.Never
	default:
		p.rr.timer(tag)
	}
}

// Notice implements sim.Noticer: with Storm.Tick a job's end is noticed
// at the machine manager's next heartbeat (at once on one), else at once.
func (p *Gang) Notice(*sim.Job) model.Time {
	if !p.cfg.Storm.Tick {
		return p.e.Now()
	}
	return heartbeatAfter(p.e.Now(), p.cfg.Quantum)
}

// heartbeat reports whether the machine manager acts now: always, or with
// Storm.Tick only at its heartbeats, a timer asking for the next one
// otherwise.
func (p *Gang) heartbeat() bool {
	now, q := p.e.Now(), p.cfg.Quantum
	if !p.cfg.Storm.Tick || now%q == 0 {
		return true
	}
	if at := heartbeatAfter(now, q); p.beatAt != at {
		if p.beatAt != model.Never {
			p.e.CancelTimer(p.beatTimer)
		}
		p.beatTimer, p.beatAt = p.e.SetTimer(at, tagHeartbeat), at
	}
	return false
}

// launchDue starts the processes of the jobs whose launch has ended by now
// (Storm.Launch).
func (p *Gang) launchDue() {
	now, n := p.e.Now(), 0
	for _, g := range p.launching {
		if g.ready > now {
			break
		}
		p.rr.launched(g)
		n++
	}
	p.launching = p.launching[n:]
}

// armLaunch sets the timer of the next launch's end, if any.
func (p *Gang) armLaunch() {
	if len(p.launching) == 0 {
		return
	}
	if at := p.launching[0].ready; p.launchAt != at {
		if p.launchAt != model.Never {
			p.e.CancelTimer(p.launchTimer)
		}
		p.launchTimer, p.launchAt = p.e.SetTimer(at, tagLaunch), at
	}
}

// Complete implements sim.Policy.
func (p *Gang) Complete(j *sim.Job) {
	g := p.jobs[j]
	p.rr.sync()
	p.rr.removed(g)
	delete(p.jobs, j)
	p.m.remove(g)
	if g.j.In.App.MemPerProcKB > 0 {
		p.sized--
	}
	if !silent(&g.j.In.App) {
		p.talkers--
	}
	if i, ok := slices.BinarySearchFunc(p.byEnd, g, byEndOrder); ok {
		p.byEnd = slices.Delete(p.byEnd, i, i+1)
	}
	g.on = false
	p.dirty, p.changed, p.left = true, true, true
}

// Schedule implements sim.Policy: it places what the queue allows, then
// gives every job its duty if anything changed.
func (p *Gang) Schedule() {
	p.rr.sync()
	defer p.rr.after()
	defer p.armLaunch()
	p.launchDue()
	if !p.changed || !p.heartbeat() {
		return // the queue has not changed, or the machine manager sleeps
	}
	p.changed = false
	if p.left {
		// Once for every job that left at this time, so that the matrix
		// does not depend on the order same-time completions come in.
		p.m.repack()
		p.left = false
	}
	if p.cfg.Backfill == "easy" {
		p.scheduleEASY()
	} else {
		p.scheduleFCFS()
	}
	if p.dirty {
		p.rr.replan()
		p.dirty = false
		for _, g := range p.freshList {
			g.fresh = false
		}
		clear(p.freshList)
		p.freshList = p.freshList[:0]
	}
	if _, ok := p.rr.(planned); !ok {
		// Only replanDuties reads and clears the marks: another round
		// robin (settle's marks at process level) lets them go.
		p.untouchAll()
	}
}

func (p *Gang) scheduleFCFS() {
	n := 0
	for _, j := range p.queue.jobs {
		pl, ok := p.m.find(p.e.Need(j), p.pin(j))
		if !ok {
			break
		}
		p.start(j, pl)
		n++
	}
	p.queue.popFront(n)
}

// scheduleEASY is EASY backfilling in front of the matrix: jobs start in
// order while they can be placed; the first that cannot gets a reservation
// at the shadow time, when enough matrix jobs are expected to have ended
// for it to be placed, each job expected to take its estimate times the
// MPL (Zhang et al., as the thesis does in 6.4.1); a later job is placed
// now if the head can still be placed at the shadow time with it in the
// matrix (it ends by then, or leaves room). With mpl=1 and first fit this
// is exactly EASY.
func (p *Gang) scheduleEASY() {
	if p.easyRef != nil {
		p.easyRef(p)
		return
	}
	f := p.front()
	q := &f.q
	for j, seq := q.front(); j != nil; j, seq = q.front() {
		pl, ok := p.find(p.e.Need(j), p.pin(j))
		if !ok {
			break
		}
		f.remove(seq)
		p.start(j, pl)
	}
	if q.n < 2 {
		return
	}
	head, seq := q.front()
	headNeed, headPin := p.e.Need(head), p.pin(head)
	shadow, ok := p.project(headNeed, headPin)
	if !ok {
		return
	}
	p.backfillEASY(f, seq, shadow, headNeed, headPin)
}

// knownNoFit returns the fewest columns find found not to fit in the
// matrix as it is now, and whether it found any since the matrix changed.
func (p *Gang) knownNoFit() (int, bool) { return p.noFit, p.noFitOK && p.noFitVer == p.m.vers }

// find is the matrix's find, without looking again for a job that is not
// pinned when one no wider was found not to fit since the matrix last
// changed: neither fits. Under first fit a job fits in a row with as many
// free columns or in a new row; under DHC a block of a wider job's size
// that holds it holds, from its start, a block of the narrower one's that
// holds that. So what fits nowhere for need columns fits nowhere for more.
func (p *Gang) find(need int, pin []int) (placement, bool) {
	if pin != nil || need <= 0 {
		return p.m.find(need, pin)
	}
	if n, ok := p.knownNoFit(); ok && need >= n {
		if checkReplan {
			if _, ok := p.m.find(need, nil); ok {
				panic(fmt.Sprintf("policies: at %v a job of %d columns fits in the matrix, where one of %d did not", p.e.Now(), need, p.noFit))
			}
		}
		return placement{}, false
	}
	pl, ok := p.m.find(need, nil)
	if !ok {
		if n, ok := p.knownNoFit(); !ok || need < n {
			p.noFit, p.noFitVer, p.noFitOK = need, p.m.vers, true
		}
	}
	return pl, ok
}

// project fills the scratch matrix with the matrix as expected at the head's
// shadow time (the jobs expected to end by then vacated) and returns that
// time; ok is false if the head could not be placed even in an empty
// matrix (it is wider than the machine: the engine rejects those).
//
// The head is the job that find could not place in the matrix. Under DHC
// (the head not pinned) that means every row is in use and none has a
// block of the head's size wholly free; vacating a job can free one only
// in its own row, among the blocks that meet its columns, so only those
// are checked after each vacated job (dhcFreedBlock), not the whole
// matrix.
//
// The scratch matrix and the time are kept for the next call while the
// matrix does not change (matrix.vers; backfilling undoes in the scratch
// matrix what it does not start): for a head as wide and not pinned, the
// same jobs are vacated until it fits, and at the same time, unless that
// time has passed (the jobs expected then are overdue and fall together
// with those expected at the next instant).
func (p *Gang) project(need int, pin []int) (shadow model.Time, ok bool) {
	pr, now := &p.projected, p.e.Now()
	if pin == nil && pr.valid && pr.vers == p.m.vers && pr.need == need && (pr.now == now || pr.shadow > now) {
		if checkReplan {
			p.checkProjected()
		}
		return pr.shadow, pr.ok
	}
	shadow, ok = p.projectScan(need, pin)
	*pr = projection{valid: pin == nil, vers: p.m.vers, need: need, now: now, shadow: shadow, ok: ok}
	return shadow, ok
}

// projection is what project found last: the shadow time and whether the
// head fits at all, for a head of need columns at time now, the matrix at
// version vers; valid is false if it holds for no head.
type projection struct {
	valid       bool
	vers        uint64
	need        int
	now, shadow model.Time
	ok          bool
}

// checkProjected panics unless projecting again what project kept gives
// its shadow time and scratch matrix.
func (p *Gang) checkProjected() {
	pr := p.projected
	var kept [][]uint64
	for _, rw := range p.scratch.rows {
		kept = append(kept, slices.Clone(rw.taken))
	}
	shadow, ok := p.projectScan(pr.need, nil)
	same := shadow == pr.shadow && ok == pr.ok && len(kept) == len(p.scratch.rows)
	for r := 0; same && r < len(kept); r++ {
		same = slices.Equal(kept[r], p.scratch.rows[r].taken)
	}
	if !same {
		panic(fmt.Sprintf("policies: at %v the projection kept from %v (shadow %v, %v) is not the one made again (%v, %v)", p.e.Now(), pr.now, pr.shadow, pr.ok, shadow, ok))
	}
}

// projectScan is project without what it keeps.
func (p *Gang) projectScan(need int, pin []int) (shadow model.Time, ok bool) {
	m := &p.scratch
	m.copyFrom(p.m)
	local := m.alloc == allocDHC && len(pin) != need && need > 0 && need <= m.cols && len(m.rows) >= m.mpl
	size := 1
	for size < need {
		size <<= 1
	}
	// Vacate the jobs in order of expected end, a time at once (those
	// overdue all at the next instant), until the head fits: byEnd has
	// them in that order.
	now := p.e.Now()
	for i := 0; i < len(p.byEnd); {
		at := expectedEnd(p.byEnd[i].endsBy, now)
		fit := false
		for ; i < len(p.byEnd) && expectedEnd(p.byEnd[i].endsBy, now) == at; i++ {
			g := p.byEnd[i]
			r := p.m.index(g.row)
			m.vacateJob(r, g.cols)
			fit = fit || local && dhcFreedBlock(m, r, g.cols, need, size)
		}
		if fit || !local && m.fits(need, pin) {
			return at, true
		}
	}
	return model.Never, false
}

// dhcFreedBlock reports whether row r of m has a block of size columns (a
// power of two), aligned on its size, that holds need columns from its
// start within the machine and has none taken, among the blocks that meet
// the words of cols: where vacating a job of those columns may have freed
// one. It checks what findDHC looks for, there only.
func dhcFreedBlock(m *matrix, r int, cols jobColumns, need, size int) bool {
	taken := m.rows[r].taken
	if size < 64 {
		// A word at a time: the blocks lie within words.
		starts := groupStarts[bits.TrailingZeros(uint(size))]
		for k := range cols.w {
			wi := cols.lo + k
			last := m.cols - need - wi*64 // the last start that holds need
			if last < 0 {
				break
			}
			valid := starts
			if last < 63 {
				valid &= 1<<(last+1) - 1
			}
			occ := taken[wi]
			for sh := 1; sh < size; sh <<= 1 {
				occ |= occ >> sh
			}
			if ^occ&valid != 0 {
				return true
			}
		}
		return false
	}
	lo, hi := cols.lo*64, (cols.lo+len(cols.w))*64
	for start := lo / size * size; start < hi && start+need <= m.cols; start += size {
		if !taken.anyIn(start, min(start+size, m.cols)) {
			return true
		}
	}
	return false
}

// byEndOrder orders matrix jobs by the end the scheduler expects, then
// placement.
func byEndOrder(a, b *gangJob) int {
	if a.endsBy != b.endsBy {
		return cmp.Compare(a.endsBy, b.endsBy)
	}
	return cmp.Compare(a.seq, b.seq)
}

// expectedEnd is when the scheduler expects j, started (or starting) at
// start, to end: its estimate times the MPL later, or the next instant once
// that has passed.
func (p *Gang) expectedEnd(start model.Time, j *sim.Job) model.Time {
	return expectedEnd(start+j.Estimate*model.Time(p.cfg.MPL), p.e.Now())
}

// gangJob is a job placed in the matrix, with its place in the round robin.
type gangJob struct {
	j    *sim.Job
	row  *row
	cols jobColumns

	// word is cols' only word when it has one (single), so that a check
	// against a row's columns reads the job alone (freeIn).
	word   uint64
	single bool

	need int
	seq  uint64 // placement order: ties are broken by it
	// endsBy is when the scheduler expects it to end: its estimate times
	// the MPL after its start (Gang.expectedEnd).
	endsBy model.Time

	stamp      uint64     // set-membership marker (see Gang.mark)
	touched    bool       // its duty may differ from the last plan's (replanDuties)
	planPage   model.Time // its page when it was last planned
	inEnd      bool       // runs at the end of the current slot (as planned)
	lead       [2]uint64  // bit k-1: runs in the planned lead's slot k
	cyc        uint64     // bit i: runs in slot i of the planned cycle
	fresh      bool       // placed at the current time and not planned yet
	on         bool       // runs in the current slot
	onFrom     model.Time // when it starts progressing in the current slot (after a switch into it)
	switchedAt model.Time // start of the current slot if it was switched in then, else Never

	ready model.Time // when its processes start (Storm.Launch): its placement, or later
	rate  sim.Rate   // its rate when it runs, from the communication model
	given sim.Rate   // the rate the engine has: 0 until it is ready, then rate
	duty  sim.Duty
	plan  marks // the switches its duty switches it in at
	// spare is the storage of the duty and marks before these, reused
	// for the next ones (plan).
	spare struct {
		lead, on    []sim.Window
		mlead, mcyc []mark
	}
	since model.Time

	switches int64      // switches counted so far
	counted  model.Time // process level: the slot start whose switch was counted last
	loss     model.Time // their cost

	page model.Time // what a switch into a slot costs it beyond the gang switch: paging (Gang.pageCosts)

	comm     float64 // its share of time communicating with commRows jobs sharing the network (occupancy)
	commRows int
}

// marks are the switches that switch a job in under its current duty:
// absolute ones, then, from origin, ones at offsets of every period.
type marks struct {
	lead   []mark
	origin model.Time
	period model.Time
	cyc    []mark
}

// mark is a switch: when it starts (absolute, or the offset in a cycle)
// and what it costs the job switched in.
type mark struct{ at, cost model.Time }

// count returns the switches of ms that start in [from, to) and their total
// cost.
func (ms *marks) count(from, to model.Time) (n int64, cost model.Time) {
	for _, m := range ms.lead {
		if from <= m.at && m.at < to {
			n++
			cost += m.cost
		}
	}
	if ms.period <= 0 || to <= ms.origin {
		return n, cost
	}
	from = max(from, ms.origin)
	for _, m := range ms.cyc {
		// k such that origin + k*period + m.at lies in [from, to)
		lo := ceilDiv(from-ms.origin-m.at, ms.period)
		hi := ceilDiv(to-ms.origin-m.at, ms.period) // exclusive
		if k := max(hi-max(lo, 0), 0); k > 0 {
			n += int64(k)
			cost += model.Time(k) * m.cost
		}
	}
	return n, cost
}

// ceilDiv is ceil(a / b) for b > 0.
func ceilDiv(a, b model.Time) model.Time {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// account adds the switches g went through up to now.
func (g *gangJob) account(now model.Time) {
	n, c := g.plan.count(max(g.since, g.ready), now) // no switch before it is launched
	g.switches += n
	g.loss += c
	g.since = now
}

// start places a queued job in the matrix and starts it in the engine; its
// duty is set by replan.
func (p *Gang) start(j *sim.Job, pl placement) {
	p.seq++
	now := p.e.Now()
	g := &gangJob{j: j, need: p.e.Need(j), seq: p.seq, fresh: true, since: now,
		switchedAt: model.Never, counted: model.Never, rate: sim.FullRate, given: sim.FullRate}
	g.ready = p.cfg.Storm.launchReady(now, p.cfg.Quantum, p.nodes(j), p.env.Hardware.Costs)
	p.m.place(g, pl)
	if j.In.App.MemPerProcKB > 0 {
		p.sized++
	}
	if !silent(&j.In.App) {
		p.talkers++
	}
	g.endsBy = now + j.Estimate*model.Time(p.cfg.MPL)
	i, _ := slices.BinarySearchFunc(p.byEnd, g, byEndOrder)
	p.byEnd = slices.Insert(p.byEnd, i, g)
	p.jobs[j] = g
	p.freshList = append(p.freshList, g)
	p.e.Start(j)
	p.rr.placed(g)
	if g.ready > now {
		// In placement order among the jobs whose launch ends at the
		// same time: launches end in a deterministic order.
		i, _ := slices.BinarySearchFunc(p.launching, g, func(a, b *gangJob) int {
			if a.ready != b.ready {
				return cmp.Compare(a.ready, b.ready)
			}
			return cmp.Compare(a.seq, b.seq)
		})
		p.launching = slices.Insert(p.launching, i, g)
	} else {
		p.rr.launched(g)
	}
	p.dirty = true
}

// nodes is the nodes j runs on, for the launch's transfer: its
// processors over the processors per node, rounded up.
func (p *Gang) nodes(j *sim.Job) int {
	per := max(p.env.Machine.PEsPerNode, 1)
	return (j.Size + per - 1) / per
}

// setRate gives the engine g's rate: 0 until it is launched, then the
// communication model's.
func (p *Gang) setRate(g *gangJob) {
	want := g.rate
	if g.ready > p.e.Now() {
		want = 0
	}
	if want != g.given {
		g.given = want
		p.e.SetRate(g.j, want)
	}
}

// syncPlanned brings the round robin to the slot that holds now: the
// slots that began since the last change follow the cycle planned then.
func (p *Gang) syncPlanned() {
	now := p.e.Now()
	if now == p.synced || p.cur == nil {
		p.synced = now
		return
	}
	p.synced = now
	q := p.cfg.Quantum
	if len(p.cyc.slots) == 0 || now < p.slotStart+q {
		return
	}
	k := (now - p.cyc.base) / q
	sl, prev, at := p.cyc.at(int(k), q)
	p.enter(sl, prev, at)
}

// enter makes sl the current slot, begun at at after prev (nil: after the
// current slot).
func (p *Gang) enter(sl, prev *slotPlan, at model.Time) {
	var stamp uint64
	if prev != nil {
		stamp = p.mark(prev.run)
	} else {
		stamp = p.mark(p.onList)
	}
	// A job that runs on into the new slot while it is still being
	// switched in (the slot starts at a change during its switch, or at
	// the instant of it) goes on with its switch: it keeps the switch's
	// end, and the switch stays counted once. A job whose switch the new
	// slot cuts short loses only the part that passed (a switch cut at
	// its first instant is not counted at all: the marks of a plan count
	// the switches that start before the change).
	still := p.stillBuf[:0]
	for _, g := range sl.run {
		if g.stamp == stamp && g.on && (g.onFrom > at || g.switchedAt == at) {
			still = append(still, g)
		}
	}
	p.stillBuf = still
	switching := p.mark(still)
	// Only the jobs running are switched out: a job that does not run has
	// no switch under way (switchedAt is Never).
	for _, g := range p.onList {
		if g.stamp != switching {
			if g.on && g.switchedAt != model.Never && g.switchedAt >= g.ready && g.switchedAt < at && g.onFrom > at {
				g.loss -= g.onFrom - at // cut short (a switch before its launch was not counted)
			}
			if g.on && g.switchedAt == at && g.counted == at {
				// Counted as its slot began (process level) and replaced
				// at that instant: it did not happen.
				g.switches--
				g.loss -= g.onFrom - at
				g.counted = model.Never
			}
			g.on, g.switchedAt = false, model.Never
		}
	}
	for _, g := range sl.run {
		switch g.stamp {
		case switching:
		case stamp: // ran in the slot before: goes on
			g.on, g.onFrom = true, at
		default: // switched in
			g.on, g.onFrom, g.switchedAt = true, at+sl.cost, at
			if sl.cost > 0 && !g.fresh {
				g.onFrom += g.page // it pages back what the others displaced
			}
		}
	}
	p.onList = append(p.onList[:0], sl.run...)
	p.cur, p.slotStart, p.switchEnd = sl.row, at, at+sl.cost
}

// runSet is the jobs that run in rw's slot after a slot that ran prev,
// appended to run: rw's own; with Storm.Keep, the jobs of prev (in its
// order) from other rows whose columns are all free in rw, which their node
// managers leave running; then, with alternative scheduling, jobs of the
// other rows (in round-robin order from rw, each row's in placement order)
// whose columns are all idle in it and not taken by an earlier one.
func (p *Gang) runSet(run []*gangJob, rw *row, prev []*gangJob) []*gangJob {
	run = append(run, rw.jobs...)
	keep := p.cfg.Storm.Keep && len(prev) > 0
	alt := p.cfg.Alternate
	if len(p.m.rows) < 2 || !keep && !alt {
		return run
	}
	if !alt {
		// The jobs of prev run together, on columns of their own: a job
		// kept cannot hold a column of another, and only rw's columns
		// are to be checked (not a copy of the machine's).
		if checkReplan {
			checkDisjoint(prev)
		}
		for _, g := range prev {
			if g.row != rw && !rw.taken.overlapsJob(g.cols) {
				run = append(run, g)
			}
		}
		return run
	}
	used := append(p.cols[:0], rw.taken...)
	defer func() { p.cols = used }()
	if keep {
		for _, g := range prev {
			if g.row != rw && !used.overlapsJob(g.cols) {
				used.addJob(g.cols)
				run = append(run, g)
			}
		}
	}
	if alt {
		i := p.m.index(rw)
		for k := 1; k < len(p.m.rows); k++ {
			for _, g := range p.m.rows[(i+k)%len(p.m.rows)].jobs {
				if !used.overlapsJob(g.cols) {
					used.addJob(g.cols)
					run = append(run, g)
				}
			}
		}
	}
	return run
}

// checkDisjoint panics if two of the jobs of set share a column.
func checkDisjoint(set []*gangJob) {
	var all columns
	for _, g := range set {
		if n := g.cols.lo + len(g.cols.w); len(all) < n {
			all = append(all, make(columns, n-len(all))...)
		}
		if all.overlapsJob(g.cols) {
			panic(fmt.Sprintf("policies: job %d runs on a column of another job running with it", g.j.In.ID))
		}
		all.addJob(g.cols)
	}
}

// switchCost is the cost of the switch from a slot running prev to one
// running next with rows rows in use: nothing if next runs only jobs that
// already run, or only jobs starting for the first time on an idle machine;
// else the hardware model's gang switch.
func (p *Gang) switchCost(prev, next []*gangJob, rows int, firstStarts bool) model.Time {
	in := false
	stamp := p.mark(prev)
	for _, g := range next {
		if g.stamp != stamp && (!g.fresh || !firstStarts || len(prev) > 0) {
			in = true
			break
		}
	}
	if !in || !p.env.Hardware.Charged() {
		return 0
	}
	return p.switchCostAt(rows, p.occupancy(prev, rows))
}

// switchCostAt is the charged gang switch with rows rows in use and the
// NIC buffers' occupancy occ.
func (p *Gang) switchCostAt(rows int, occ float64) model.Time {
	k := switchKey{rows, math.Float64bits(occ)}
	if p.switches == nil {
		p.switches = new([switchCacheSize]switchEntry)
	}
	e := &p.switches[k.slot()]
	if !e.ok || e.key != k {
		c := p.env.Hardware.Costs.Switch(hwmodel.SwitchState{Nodes: p.env.Machine.Nodes, Jobs: rows, Occupancy: occ})
		*e = switchEntry{key: k, cost: c, ok: true}
	}
	return e.cost + p.gangLoss
}

// switchKey is what a gang switch's cost depends on in a run: the rows in
// use and the occupancy (its bits).
type switchKey struct {
	rows int
	occ  uint64
}

// switchCacheSize is the number of gang switches a Gang keeps computed (a
// power of two): each is found at one place, switchKey.slot, and a switch
// computed there replaces the one it holds.
const (
	switchCacheBits = 12
	switchCacheSize = 1 << switchCacheBits
)

// slot is where the switch of key k is kept.
func (k switchKey) slot() int {
	h := (k.occ ^ uint64(k.rows)*0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd
	return int(h >> (64 - switchCacheBits))
}

// switchEntry is a gang switch computed, kept at its key's slot.
type switchEntry struct {
	key  switchKey
	cost model.Time
	ok   bool
}

// silent reports whether a job of app never communicates: commShares
// gives it a share of 0 whatever the rows.
func silent(app *model.App) bool { return app.Granularity == 0 && len(app.ProcCompute) == 0 }

// occupancy estimates the share of the NIC buffers in use when a slot
// running prev is switched out: each job's processors count for the share
// of its time it spends communicating with rows jobs sharing the network
// (commShares), idle processors and jobs without communication for none.
func (p *Gang) occupancy(prev []*gangJob, rows int) float64 {
	var sum float64
	if p.talkers == 0 {
		return sum / float64(p.m.cols) // every job's share is 0: the sum's
	}
	for _, g := range prev {
		if g.commRows != rows {
			_, g.comm = commShares(&g.j.In.App, g.j.Size, p.env.Hardware.Costs, rows)
			g.commRows = rows
		}
		sum += float64(g.need) * g.comm
	}
	return sum / float64(p.m.cols)
}

// settle follows a change of the matrix: the current slot goes on if its
// row still has jobs (the row's fresh jobs join it once the switch into it
// is over, unless an alternate holds one of their columns), else the next
// row's slot starts now. It reports false if the matrix is empty or the
// run was aborted.
func (p *Gang) settle() bool {
	now := p.e.Now()
	p.pageCosts()
	if len(p.m.rows) == 0 {
		p.cur, p.order, p.switching = nil, nil, 0
		p.cyc.lead, p.cyc.slots = p.cyc.lead[:0], p.cyc.slots[:0]
		return false
	}
	goesOn := p.cur != nil && p.m.index(p.cur) >= 0
	if goesOn {
		// The slot goes on; the jobs of its row that do not run in it,
		// placed or repacked into it, join once the switch into it is
		// over, unless a job of another row holds one of their columns. A
		// slot whose row has nothing left to run ends as if it emptied.
		var used columns
		if slices.ContainsFunc(p.cur.jobs, func(g *gangJob) bool { return !g.on }) {
			used = p.slotColumns() // only those that do not run need it
		}
		goesOn = false
		for _, g := range p.cur.jobs {
			if !g.on && !used.overlapsJob(g.cols) {
				g.on, g.onFrom = true, max(now, p.switchEnd)
				p.touch(g) // runs in the current slot, which the last plan did not have it do
				p.onList = append(p.onList, g)
				used.addJob(g.cols)
			}
			goesOn = goesOn || g.on
		}
	}
	if !goesOn {
		// The row served emptied (or the machine was idle): the next row's
		// slot starts now.
		next := p.nextRow()
		sl := slotPlan{row: next, run: p.runSet(nil, next, p.running())}
		sl.cost = p.switchCost(p.running(), sl.run, len(p.m.rows), true)
		if !p.checkCost(sl.cost) {
			return false
		}
		p.enter(&sl, nil, now)
		p.restarted = true
		for _, g := range sl.run {
			if g.fresh {
				g.switchedAt = model.Never // a first start, not a switch
			}
		}
	}
	p.order = append(p.order[:0], p.m.rows...)
	return true
}

// replanDuties settles the current slot, plans the cycle that follows
// from the matrix, and gives every job its duty and rate.
//
// Only the jobs whose duty the change may have altered are planned again:
// those whose part in some slot from now on differs from the last plan's
// (touchChanged), those settle has join the current slot, those placed now
// and those whose paging changed; every other job's duty from now on is the
// one in force (Duty.SameFrom would say so), and planning it would leave it
// alone. After a change of the rows or of the slots' times every job is
// planned.
func (p *Gang) replanDuties() {
	p.restarted = false
	replanned := p.replanned
	p.replanned = false
	if !p.settle() {
		return
	}
	q := p.cfg.Quantum
	rows := len(p.m.rows)
	// The last plan is kept in spare, for touchChanged; the new one reuses
	// the storage of the one before.
	p.cyc, p.spare = p.spare, p.cyc

	// The cycle after the current slot: the lead, slot by slot from the
	// current slot as it ends, then the rows round robin, slot i serving
	// row i, from the origin: the first slot of row 0 at least two slots
	// on, so that a change that leaves the round robin as it was gives the
	// same duties, only from another origin (sim.Duty.SameFrom). With
	// Keep, what runs in a slot depends on what ran before it, and the
	// lead runs a whole cycle on before the steady one takes over.
	ci := p.m.index(p.cur)
	p.cyc.end = append(p.cyc.end[:0], p.running()...)
	cend := p.cyc.end
	p.cyc.base, p.cyc.ci = p.slotStart, ci
	minFirst := 2
	if p.cfg.Storm.Keep {
		minFirst = rows + 1
	}
	first := (rows - ci) % rows // quanta from the current slot to row 0's
	for first < minFirst {
		first += rows
	}
	p.cyc.origin = p.slotStart + model.Time(first)*q
	p.cyc.lead = resize(p.cyc.lead, first-1)
	p.cyc.slots = resize(p.cyc.slots, rows)
	p.kept = p.kept[:0]
	if p.cfg.Alternate {
		p.planSlots(ci, cend)
	} else {
		// The last plan (spare) on the same grid of slots, with as many
		// rows: its slots are kept where nothing they depend on changed.
		var old *cycle
		if replanned && len(p.spare.slots) == rows && p.slotStart >= p.spare.base && (p.slotStart-p.spare.base)%q == 0 {
			old = &p.spare
		}
		p.planChain(ci, cend, old, slices.Equal(p.planRows, p.m.rows))
	}
	var total model.Time
	for i := range p.cyc.slots {
		total += p.cyc.slots[i].cost
	}
	if !p.checkCost(p.cyc.lead[0].cost) {
		return
	}
	for _, sls := range [][]slotPlan{p.cyc.slots, p.cyc.lead[1:]} {
		for _, sl := range sls {
			if !p.checkCost(sl.cost) {
				return
			}
		}
	}
	p.switching = 0
	if rows > 1 {
		p.switching = float64(total) / float64(model.Time(rows)*q)
	}
	full := !replanned || p.restarted || !slices.Equal(p.planRows, p.m.rows) || (p.slotStart-p.spare.base)%q != 0
	if !full {
		p.touchChanged(&p.spare)
	}
	var all []*gangJob // every job, when they are gone over
	if full || p.sized > 0 || checkReplan {
		all = p.all()
	}
	if checkReplan {
		p.checkSlotsOf(all, cend)
	}
	if full {
		for _, g := range all {
			g.inEnd, g.lead, g.cyc = false, [2]uint64{}, 0
		}
		for _, g := range cend {
			g.inEnd = true
		}
		for k, sl := range p.cyc.lead {
			for _, g := range sl.run {
				g.lead[k>>6] |= 1 << (k & 63)
			}
		}
		for i, sl := range p.cyc.slots {
			for _, g := range sl.run {
				g.cyc |= 1 << i
			}
		}
	}
	if full || p.sized > 0 {
		for _, g := range all {
			if full || g.touched || g.fresh || g.page != g.planPage {
				if !full {
					p.slotsOf(g)
				}
				p.plan(g)
			} else if checkReplan {
				p.slotsOf(g)
				p.checkSame(g)
			}
		}
	} else {
		// Without paging (no job has a memory size, so no page changes)
		// only the jobs touched or placed are planned: those in the
		// matrix, in the order of all (row by row, each row's by
		// placement, that is seq).
		cand := p.candBuf[:0]
		for _, g := range p.touchedList {
			if g.row != nil {
				cand = append(cand, g)
			}
		}
		for _, g := range p.freshList {
			if g.row != nil && !g.touched {
				cand = append(cand, g)
			}
		}
		slices.SortFunc(cand, func(a, b *gangJob) int {
			if a.row != b.row {
				return cmp.Compare(p.m.index(a.row), p.m.index(b.row))
			}
			return cmp.Compare(a.seq, b.seq)
		})
		for _, g := range cand {
			p.slotsOf(g)
			p.plan(g)
		}
		p.candBuf = cand[:0]
		if checkReplan {
			for _, g := range all {
				if !g.touched && !g.fresh {
					p.slotsOf(g)
					p.checkSame(g)
				}
			}
		}
	}
	p.untouchAll()
	p.replanned = !p.aborted
	p.planRows = append(p.planRows[:0], p.m.rows...)
}

// planSlots plans the lead's and the steady cycle's slots (their rows, run
// sets and switches) slot by slot as the round robin runs them, from the
// current slot, of row ci, as it ends running cend.
func (p *Gang) planSlots(ci int, cend []*gangJob) {
	rows := len(p.m.rows)
	prev := cend
	for k := range p.cyc.lead {
		sl := &p.cyc.lead[k]
		sl.row = p.m.rows[(ci+k+1)%rows]
		sl.run = p.runSet(sl.run[:0], sl.row, prev)
		sl.cost = p.switchCost(prev, sl.run, rows, false)
		prev = sl.run
	}
	passes := 1
	if p.cfg.Storm.Keep {
		passes = 2 // the first pass misses what runs on across the last row's slot
	}
	for pass := range passes {
		for i, rw := range p.m.rows {
			var prev []*gangJob
			if i > 0 || pass > 0 {
				prev = p.cyc.slots[(i+rows-1)%rows].run
			}
			p.cyc.slots[i].row = rw
			p.cyc.slots[i].run = p.runSet(p.cyc.slots[i].run[:0], rw, prev)
		}
	}
	for i := range p.cyc.slots {
		prev := p.cyc.slots[(i+rows-1)%rows].run
		p.cyc.slots[i].cost = p.switchCost(prev, p.cyc.slots[i].run, rows, false)
	}
}

// planChain is planSlots without alternative scheduling, where a slot's run
// set is its row's jobs and, with Keep, those of the slot before from other
// rows whose columns are all free in its row: a job runs in its row's slot
// and on through the slots that follow while its columns are free there.
// The slots from the current one's end, X(0), X(1), ..., X(k) serving row
// ci+k+1, are the lead's from X(0); and X(rows-1), the slot of row ci a
// whole cycle on, is the steady cycle's slot of row ci: the jobs running as
// the current slot ends that are still running there are of row ci (every
// other row has had its slot, which leaves out the jobs of other rows), and
// row ci's slot leaves those out; what remains is row ci's jobs and those
// each other row's slot started that run on up to there, the steady
// cycle's. So X(rows-1) to X(2 rows-2) are the steady cycle's slots, and
// the lead's slots from X(rows-1) on are theirs: each run set is computed
// once, not once in the lead and twice in the steady cycle, and the
// switches into them too.
//
// old, if not nil, is the last plan, on the same grid of slots and with as
// many rows (sameRows: the same rows in the same order): a slot that serves
// the row old's slot at the same time served, unchanged since (row.ver),
// after a slot whose run set is what old has before that one, has old's
// run set and switch, as runSet and switchCost depend on nothing else.
// For the same reason a slot X(k) of the lead's length on (k >= rows) that
// comes after what X(k-rows), of the same row, came after is X(k-rows),
// and so are the slots after it: once the jobs running as the current slot
// ends have dropped out in the order they came in, the chain repeats.
func (p *Gang) planChain(ci int, cend []*gangJob, old *cycle, sameRows bool) {
	rows, q := len(p.m.rows), p.cfg.Quantum
	lead, slots := p.cyc.lead, p.cyc.slots
	shift := 0 // old's slots from the current one
	var last []slotPlan
	if old != nil {
		shift = int((p.slotStart - old.base) / q)
		if sameRows {
			last = old.slots
		}
	}
	// x returns the plan of X(k): the lead's slot while the lead has it,
	// else the steady cycle's.
	x := func(k int) *slotPlan {
		if k < len(lead) {
			return &lead[k]
		}
		return &slots[(ci+k+1)%rows]
	}
	// before returns the run set X(j) comes after.
	before := func(j int) []*gangJob {
		if j == 0 {
			return cend
		}
		return x(j - 1).run
	}
	p.kept = resize(p.kept, 2*rows-1)
	prev := cend
	prevSame := false // prev is known to be what old has before X(k)'s slot
	periodic := false // X(k-1) is X(k-1-rows), and so X(k) is X(k-rows)
	for k := range 2*rows - 1 {
		i := (ci + k + 1) % rows
		sl := x(k)
		sl.row = p.m.rows[i]
		sl.ver, sl.own = sl.row.ver, len(sl.row.jobs)
		var o *slotPlan
		if old != nil {
			var oprev *slotPlan
			o, oprev, _ = old.at(k+1+shift, q)
			if o.row != sl.row || o.ver != sl.ver {
				o = nil
			} else if !prevSame {
				before := old.end
				if oprev != nil {
					before = oprev.run
				}
				if !slices.Equal(prev, before) {
					o = nil
				}
			}
		}
		p.kept[k] = o != nil
		if o != nil {
			sl.run, sl.cost = append(sl.run[:0], o.run...), o.cost
			prevSame = true
			if checkReplan {
				p.checkKept(sl, prev)
			}
		} else if j := k - rows; j >= 0 && j < len(lead) && (periodic || slices.Equal(prev, before(j))) {
			// After what X(j) came after, X(k) is X(j), of the same row
			// (j = k - rows), and so is every slot on.
			sl.run, sl.cost = append(sl.run[:0], lead[j].run...), lead[j].cost
			periodic, prevSame = true, false
			if checkReplan {
				p.checkKept(sl, prev)
			}
		} else {
			sl.run, sl.cost = p.chainSlot(sl.run[:0], sl.row, prev, rows)
			prevSame = false
		}
		prev = sl.run
	}
	// The steady cycle's slots the lead holds, and the switch into row ci's
	// (X(rows-1)) from row ci-1's (X(2 rows-2)).
	for k := rows - 1; k < min(len(lead), 2*rows-1); k++ {
		sl := &slots[(ci+k+1)%rows]
		sl.row, sl.run, sl.cost, sl.ver, sl.own = lead[k].row, append(sl.run[:0], lead[k].run...), lead[k].cost, lead[k].ver, lead[k].own
	}
	sl := &slots[ci]
	if last != nil && last[ci].ver == sl.ver && slices.Equal(prev, last[(ci+rows-1)%rows].run) && slices.Equal(sl.run, last[ci].run) {
		sl.cost = last[ci].cost
		if checkReplan {
			p.checkKept(sl, prev)
		}
	} else {
		sl.cost = p.switchCost(prev, sl.run, rows, false)
		if rows-1 >= len(lead) {
			p.kept[rows-1] = false // X(rows-1) is this slot: its switch was planned again
		}
	}
}

// chainSlot is runSet(run, rw, prev) and the switchCost from prev to it
// (not a first start) without alternative scheduling, in one pass over
// prev: its jobs' occupancy is summed in order, those kept picked out and
// rw's counted together; of the slot's jobs only rw's can be new to it,
// the others being prev's, and none is if prev holds all of rw's.
func (p *Gang) chainSlot(run []*gangJob, rw *row, prev []*gangJob, rows int) ([]*gangJob, model.Time) {
	run = append(run, rw.jobs...)
	keep := p.cfg.Storm.Keep && len(prev) > 0 && len(p.m.rows) >= 2
	if keep && checkReplan {
		checkDisjoint(prev)
	}
	charged := p.env.Hardware.Charged()
	// With only silent jobs in the matrix every share is 0, and so is
	// their sum.
	sumUp := charged && p.talkers > 0
	var sum float64
	own := 0 // rw's jobs in prev, which holds each job once
	for _, g := range prev {
		if sumUp {
			if g.commRows != rows {
				_, g.comm = commShares(&g.j.In.App, g.j.Size, p.env.Hardware.Costs, rows)
				g.commRows = rows
			}
			sum += float64(g.need) * g.comm
		}
		if checkReplan && charged && !sumUp {
			if _, c := commShares(&g.j.In.App, g.j.Size, p.env.Hardware.Costs, rows); c != 0 {
				panic(fmt.Sprintf("policies: job %d, taken for silent, spends %v of its time communicating", g.j.In.ID, c))
			}
		}
		if g.row == rw {
			own++
		} else if keep && freeIn(rw, g) {
			run = append(run, g)
		}
	}
	if !charged || own == len(rw.jobs) {
		return run, 0
	}
	return run, p.switchCostAt(rows, sum/float64(p.m.cols))
}

// freeIn reports whether g's columns are all free in rw.
func freeIn(rw *row, g *gangJob) bool {
	if g.single {
		return rw.taken[g.cols.lo]&g.word == 0
	}
	return !rw.taken.overlapsJob(g.cols)
}

// checkKept panics unless sl, kept from the last plan, is what planning it
// after a slot running prev gives.
func (p *Gang) checkKept(sl *slotPlan, prev []*gangJob) {
	run := p.runSet(nil, sl.row, prev)
	if c := p.switchCost(prev, run, len(p.m.rows), false); !slices.Equal(run, sl.run) || c != sl.cost {
		panic(fmt.Sprintf("policies: at %v a slot kept from the last plan runs %d jobs at a switch of %v; planned again, %d at %v", p.e.Now(), len(sl.run), sl.cost, len(run), c))
	}
}

// slotsOf sets g's inEnd, lead and cyc from the cycle planned: it runs in
// a slot of its row, and in another's if the slot keeps it or takes it as
// an alternate (after the row's own jobs in the slot's run set).
func (p *Gang) slotsOf(g *gangJob) {
	in := func(sl *slotPlan) bool {
		return sl.row == g.row || slices.Contains(sl.run[len(sl.row.jobs):], g)
	}
	g.inEnd, g.lead, g.cyc = g.on, [2]uint64{}, 0 // cend is the jobs running
	for k := range p.cyc.lead {
		if in(&p.cyc.lead[k]) {
			g.lead[k>>6] |= 1 << (k & 63)
		}
	}
	for i := range p.cyc.slots {
		if in(&p.cyc.slots[i]) {
			g.cyc |= 1 << i
		}
	}
}

// checkSlotsOf panics unless slotsOf gives every job of all the slots the
// run sets of the cycle planned have it in (cend: the jobs running).
func (p *Gang) checkSlotsOf(all, cend []*gangJob) {
	type bits struct {
		end  bool
		lead [2]uint64
		cyc  uint64
	}
	want := map[*gangJob]*bits{}
	for _, g := range all {
		want[g] = &bits{}
	}
	for _, g := range cend {
		want[g].end = true
	}
	for k, sl := range p.cyc.lead {
		for _, g := range sl.run {
			want[g].lead[k>>6] |= 1 << (k & 63)
		}
	}
	for i, sl := range p.cyc.slots {
		for _, g := range sl.run {
			want[g].cyc |= 1 << i
		}
	}
	for _, g := range all {
		p.slotsOf(g)
		if w := want[g]; g.inEnd != w.end || g.lead != w.lead || g.cyc != w.cyc {
			panic(fmt.Sprintf("policies: job %d's slots: %v %x %x, the run sets say %v %x %x", g.j.In.ID, g.inEnd, g.lead, g.cyc, w.end, w.lead, w.cyc))
		}
	}
}

// checkReplan makes replanDuties check that every job it does not plan
// again would keep its duty if it were (tests set it).
var checkReplan = false

// checkSame panics unless g's duty as planned now is the one in force from
// now on.
func (p *Gang) checkSame(g *gangJob) {
	if d, _ := p.dutyOf(g); !d.SameFrom(g.duty, p.e.Now()) {
		panic(fmt.Sprintf("policies: job %d left out of the replan at %v: its duty %+v would be %+v", g.j.In.ID, p.e.Now(), g.duty, d))
	}
}

// touchChanged marks (gangJob.touched) the jobs whose part in some slot
// from the current one's end on differs between the cycle just planned and
// old, the last plan, over the same rows and on the same grid of slots:
// those that run in a slot in one plan and not in the other, and those
// that run in a slot whose switch costs differently. Slot by slot up to
// where both plans repeat their cycle, then a whole cycle: from there on
// they are the same. A job's part in a slot depends only on whether it
// runs there, whether it ran in the slot before and the switch's cost
// (with its paging, which replanDuties compares itself); whether it runs
// as the current slot ends differs from the last plan only for the jobs
// settle had join it, which it marks.
func (p *Gang) touchChanged(old *cycle) {
	p.pairs = p.pairs[:0]
	defer func() { clear(p.pairs) }()
	q := p.cfg.Quantum
	shift := int((p.slotStart - old.base) / q) // old's slots from the current one
	n := len(p.cyc.slots)
	last := max(len(p.cyc.lead)+1, len(old.lead)+1-shift, 1) + n - 1
	for k := 1; k <= last; k++ {
		if k <= len(p.kept) && p.kept[k-1] {
			continue // X(k-1), kept from old's slot there (planChain)
		}
		if j := k - 1 - n; k > len(p.kept) && j >= 0 && j != n-1 && j < len(p.kept) && p.kept[j] && k-n+shift > len(old.lead) {
			// The steady cycle's slot here is X(j) (j >= n-1; X(n-1)'s
			// switch, from the lead, is not the steady slot's), kept from
			// old's slot n slots before this one, where old's steady
			// cycle had begun: old's slot here is the same.
			continue
		}
		nsl, _, _ := p.cyc.at(k, q)
		osl, _, _ := old.at(k+shift, q)
		all := nsl.cost != osl.cost
		if !all && slices.Equal(nsl.run, osl.run) {
			continue
		}
		if p.compared(nsl.run, osl.run, all) {
			continue // the same two run sets as at an earlier slot: touched then
		}
		if all {
			for _, g := range nsl.run {
				p.touch(g)
			}
			for _, g := range osl.run {
				p.touch(g)
			}
			continue
		}
		nrun, orun := nsl.run, osl.run
		if len(p.kept) > 0 && nsl.row == osl.row {
			// Planned by planChain, both open on the row's jobs as they
			// were (own), in placement order (seq): those in one and not
			// the other are found by merging them, and the jobs kept after
			// them compared apart (a job in the row's jobs of one and kept
			// in the other is touched, which only plans it again).
			a, b := nrun[:nsl.own], orun[:osl.own]
			if nsl.ver != osl.ver {
				for len(a) > 0 && len(b) > 0 {
					switch {
					case a[0] == b[0]:
						a, b = a[1:], b[1:]
					case a[0].seq < b[0].seq:
						p.touch(a[0])
						a = a[1:]
					default:
						p.touch(b[0])
						b = b[1:]
					}
				}
				for _, g := range a {
					p.touch(g)
				}
				for _, g := range b {
					p.touch(g)
				}
			}
			nrun, orun = nrun[nsl.own:], orun[osl.own:]
		}
		stamp := p.mark(orun)
		for _, g := range nrun {
			if g.stamp != stamp {
				p.touch(g)
			}
		}
		stamp = p.mark(nrun)
		for _, g := range orun {
			if g.stamp != stamp {
				p.touch(g)
			}
		}
	}
}

// runPair is two run sets that touchChanged compared: what the new plan
// and the last have in a slot, and whether every job of both was touched
// (all) or only those in one and not the other.
type runPair struct {
	now, was []*gangJob
	all      bool
}

// compared reports whether touchChanged already compared the run sets now
// and was (as contents) and touched at least the jobs all says it would
// touch now; if not, it records them.
func (p *Gang) compared(now, was []*gangJob, all bool) bool {
	for _, pr := range p.pairs {
		if (pr.all || !all) && slices.Equal(pr.now, now) && slices.Equal(pr.was, was) {
			return true
		}
	}
	p.pairs = append(p.pairs, runPair{now, was, all})
	return false
}

// abort stops the run with err; the duties are left as they were, and
// aborted tells what holds no more.
func (p *Gang) abort(err error) {
	p.aborted = true
	p.e.Abort(err)
}

// checkCost aborts the run if a switch leaves nothing of the quantum, with
// the longest paging of a job in the matrix (Gang.pageCosts) if it is
// charged.
func (p *Gang) checkCost(c model.Time) bool {
	if c >= p.cfg.Quantum {
		p.abort(fmt.Errorf("gs: the gang switch (%v on %s) is no shorter than the quantum (%v): no job would progress; use a longer quantum",
			c, p.env.Hardware, p.cfg.Quantum))
		return false
	}
	if c > 0 && c+p.maxPage >= p.cfg.Quantum {
		p.abort(fmt.Errorf("gs: the gang switch (%v on %s) and the paging of a job switched in on nodes whose jobs need more memory than they have (%v) are no shorter than the quantum (%v): the job would never progress; use a longer quantum or a lower mpl",
			c, p.env.Hardware, p.maxPage, p.cfg.Quantum))
		return false
	}
	return true
}

// pageCosts sets what a switch into a slot costs each job in the matrix
// beyond the gang switch (gangJob.page). On a node whose jobs' processes
// (every row's: they all stay resident) need more memory than the node has
// (hwmodel.MemoryCosts), the other jobs' processes ran while the job was
// switched out and displaced part of its memory, which it pages back when
// switched in: the smallest of its own processes' memory on the node, the
// node's excess, and what the others' processes there touch in a slot
// each (Displace of the quantum), at the model's paging rate; the job
// progresses once every node has (its processes synchronize). Jobs without
// a memory size (model.App.MemPerProcKB) need none and page nothing.
// maxPage is the largest.
func (p *Gang) pageCosts() {
	if p.sized == 0 {
		p.maxPage = 0 // every job's page is 0: only sized jobs page
		return
	}
	all := p.all()
	for _, g := range all {
		g.page = 0
	}
	p.maxPage = 0
	mem, ok := hwmodel.Memory(p.env.Hardware.Costs)
	if !ok {
		return
	}
	sized := false
	for _, g := range all {
		sized = sized || g.j.In.App.MemPerProcKB > 0
	}
	if !sized {
		return
	}
	// A column is a processor, or under node allocation a node of
	// PEsPerNode processes.
	per, perNode := int64(1), max(p.env.Machine.PEsPerNode, 1)
	if p.env.NodeAllocation {
		per, perNode = int64(perNode), 1
	}
	nodes := (p.m.cols + perNode - 1) / perNode
	need, procs := make([]int64, nodes), make([]int64, nodes) // every job's on each node
	own, ownProcs := make([]int64, nodes), make([]int64, nodes)
	for _, g := range all {
		f := g.j.In.App.MemPerProcKB * 1024
		for c := range p.m.cols {
			if g.cols.has(c) {
				need[c/perNode] += f * per
				procs[c/perNode] += per
			}
		}
	}
	slot := mem.Displace(p.cfg.Quantum) // what a process touches in a slot
	for _, g := range all {
		f := g.j.In.App.MemPerProcKB * 1024
		if f <= 0 {
			continue
		}
		clear(own)
		clear(ownProcs)
		for c := range p.m.cols {
			if g.cols.has(c) {
				own[c/perNode] += f * per
				ownProcs[c/perNode] += per
			}
		}
		var worst int64
		for n, b := range own {
			if ex := need[n] - mem.NodeMemory(); b > 0 && ex > 0 {
				worst = max(worst, min(b, ex, satMul(slot, procs[n]-ownProcs[n])))
			}
		}
		g.page = mem.PageIn(worst)
		p.maxPage = max(p.maxPage, g.page)
	}
}

// satMul is a × b for a, b >= 0, at most math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// running is the jobs that run in the current slot. The slice is reused by
// the next call.
func (p *Gang) running() []*gangJob {
	run := p.runBuf[:0]
	defer func() { p.runBuf = run }()
	for _, rw := range p.m.rows {
		for _, g := range rw.jobs {
			if g.on {
				run = append(run, g)
			}
		}
	}
	return run
}

// nextRow is the row whose slot comes after the current one's when the
// current row has emptied: the first row after it in the round robin as
// planned that is still in the matrix, else the first row.
func (p *Gang) nextRow() *row {
	if i := slices.Index(p.order, p.cur); i >= 0 {
		for k := 1; k < len(p.order); k++ {
			if rw := p.order[(i+k)%len(p.order)]; p.m.index(rw) >= 0 {
				return rw
			}
		}
	}
	return p.m.rows[0]
}

// plan gives g its duty, rate and switch marks from the current slot and
// the planned cycle.
func (p *Gang) plan(g *gangJob) {
	now := p.e.Now()
	g.account(now)
	if r := commRate(&g.j.In.App, g.j.Size, p.env.Hardware.Costs, netContexts(p.cfg)); r != g.rate {
		if r == 0 {
			p.abort(fmt.Errorf("gs: job %d cannot communicate on %s with %d contexts per node (no message gets through): it would never end",
				g.j.In.ID, p.env.Hardware, netContexts(p.cfg)))
			return
		}
		g.rate = r
	}
	p.setRate(g)
	g.planPage = g.page
	// The duty and marks are built in scratch buffers; most changes of the
	// matrix leave most jobs' duties as they were (expressed from another
	// origin), and those are left alone.
	d, ms := p.dutyOf(g)
	if d.SameFrom(g.duty, now) {
		return // its duty and switches from now on are those in force
	}
	// Copied into the storage of the duty and marks before the ones in
	// force, which nothing holds once these replace them (the engine reads
	// the duty in force as SetDuty accounts for it, then keeps d).
	d.Lead, d.On = cloneInto(g.spare.lead, d.Lead), cloneInto(g.spare.on, d.On)
	ms.lead, ms.cyc = cloneInto(g.spare.mlead, ms.lead), cloneInto(g.spare.mcyc, ms.cyc)
	old, oldMarks := g.duty, g.plan
	g.plan, g.duty = ms, d
	p.e.SetDuty(g.j, d)
	g.spare.lead, g.spare.on, g.spare.mlead, g.spare.mcyc = old.Lead, old.On, oldMarks.lead, oldMarks.cyc
}

// cloneInto is slices.Clone(s) in buf's storage: nil if s is nil, else a
// slice that is not nil.
func cloneInto[S ~[]E, E any](buf, s S) S {
	if s == nil {
		return nil
	}
	if buf == nil {
		return append(S{}, s...)
	}
	return append(buf[:0], s...)
}

// dutyOf is g's duty and switch marks from the current slot and the
// planned cycle, in the policy's scratch buffers (valid until the next
// call).
func (p *Gang) dutyOf(g *gangJob) (sim.Duty, marks) {
	now := p.e.Now()
	q := p.cfg.Quantum
	lead, on := p.leadBuf[:0], p.onBuf[:0]
	ms := marks{lead: p.leadMarks[:0], cyc: p.cycMarks[:0]}
	add := func(ws []sim.Window, from, to model.Time) []sim.Window {
		if from >= to {
			return ws
		}
		if n := len(ws); n > 0 && ws[n-1].To == from {
			ws[n-1].To = to
			return ws
		}
		return append(ws, sim.Window{From: from, To: to})
	}
	if g.on {
		lead = add(lead, max(now, g.onFrom), p.slotStart+q)
		if g.switchedAt != model.Never && g.switchedAt >= now {
			ms.lead = append(ms.lead, mark{g.switchedAt, g.onFrom - g.switchedAt})
		}
	}
	in := g.inEnd // runs in the slot before
	for k := range p.cyc.lead {
		was := in
		if in = g.lead[k>>6]&(1<<(k&63)) != 0; !in {
			continue
		}
		from, to := p.slotStart+model.Time(k+1)*q, p.slotStart+model.Time(k+2)*q
		if !was {
			c := p.cyc.lead[k].cost
			if c > 0 {
				c += g.page
			}
			ms.lead = append(ms.lead, mark{from, c})
			from += c
		}
		lead = add(lead, from, to)
	}
	n := len(p.cyc.slots)
	for i, sl := range p.cyc.slots {
		if g.cyc&(1<<i) == 0 {
			continue
		}
		from := model.Time(i) * q
		if g.cyc&(1<<((i+n-1)%n)) == 0 {
			c := sl.cost
			if c > 0 {
				c += g.page
			}
			ms.cyc = append(ms.cyc, mark{from, c})
			from += c
		}
		on = add(on, from, model.Time(i+1)*q)
	}
	p.leadBuf, p.onBuf, p.leadMarks, p.cycMarks = lead, on, ms.lead, ms.cyc
	d := sim.Duty{Lead: lead, Origin: p.cyc.origin, Period: model.Time(n) * q, On: on}
	if len(on) == 1 && on[0] == (sim.Window{From: 0, To: d.Period}) {
		// On all the time from the origin: always on, from the lead's
		// start if the lead runs up to the origin without a gap.
		d.Period, d.On = 0, nil
		if len(lead) == 1 && lead[0].To == d.Origin {
			d = sim.AlwaysOnFrom(lead[0].From)
		}
	}
	ms.origin, ms.period = d.Origin, d.Period
	return d, ms
}

// ReportOutcome implements sim.Reporter: the switches the job went through
// and their cost.
func (p *Gang) ReportOutcome(j *sim.Job, o *model.Outcome) {
	p.rr.outcome(p.jobs[j], o)
}

// ReportSample implements sim.Reporter: the rows in use and the share of
// time the cycle spends switching.
func (p *Gang) ReportSample(s *sim.Sample) { p.rr.sample(s) }

// slotColumns is the union of the columns of the jobs running in the
// current slot.
func (p *Gang) slotColumns() columns {
	n := (p.m.cols + 63) / 64
	if cap(p.cols) < n {
		p.cols = make(columns, n)
	}
	c := p.cols[:n]
	clear(c)
	for _, g := range p.running() {
		c.addJob(g.cols)
	}
	return c
}

// all is the jobs in the matrix, row by row in round-robin order and each
// row's in placement order: the order in which the policy acts on them, so
// that same-time events keep a deterministic order.
//
// The slice is reused by the next call.
func (p *Gang) all() []*gangJob {
	out := p.allBuf[:0]
	for _, rw := range p.m.rows {
		out = append(out, rw.jobs...)
	}
	p.allBuf = out
	return out
}

// pin returns the columns a hand-placed job must take (model.App.Pin), or
// nil to let the allocator choose. Pins name processors, so they hold only
// when the columns are processors.
func (p *Gang) pin(j *sim.Job) []int {
	if pin := j.In.App.Pin; len(pin) == p.e.Need(j) && !p.env.NodeAllocation {
		return pin
	}
	return nil
}
