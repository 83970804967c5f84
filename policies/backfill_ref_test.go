package policies

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

// easyScan is EASY as it was before the backlog: every pass walks the whole
// queue. It is the reference the indexed EASY must equal job for job.
type easyScan struct {
	perfect bool
	e       *sim.Engine
	queue   fifo
	running runningSet
}

func (p *easyScan) Attach(e *sim.Engine) { p.e = e }
func (p *easyScan) Arrive(j *sim.Job)    { p.queue.push(j) }
func (p *easyScan) Timer(int64)          {}
func (p *easyScan) Complete(j *sim.Job)  { p.running.remove(j, j.Start+p.duration(j)) }

func (p *easyScan) duration(j *sim.Job) model.Time {
	if p.perfect {
		return j.Work
	}
	return j.Estimate
}

func (p *easyScan) start(j *sim.Job) {
	p.e.Start(j)
	p.running.add(j, j.Start+p.duration(j))
}

func (p *easyScan) Schedule() {
	q := p.queue.jobs
	n := 0
	for n < len(q) && p.e.Need(q[n]) <= p.e.Free() {
		p.start(q[n])
		n++
	}
	p.queue.popFront(n)
	q = p.queue.jobs
	if len(q) < 2 {
		return
	}
	shadow, extra := p.reservation(q[0])
	now := p.e.Now()
	started := false
	for _, c := range q[1:] {
		need := p.e.Need(c)
		if need > p.e.Free() {
			continue
		}
		switch {
		case now+p.duration(c) <= shadow:
		case need <= extra:
			extra -= need
		default:
			continue
		}
		p.start(c)
		started = true
	}
	if started {
		p.queue.removeStarted()
	}
}

func (p *easyScan) reservation(head *sim.Job) (shadow model.Time, extra int) {
	now := p.e.Now()
	free := p.e.Free()
	need := p.e.Need(head)
	r := &p.running
	for i := 0; i < len(r.jobs); i++ {
		free += p.e.Need(r.jobs[i])
		if free < need {
			continue
		}
		shadow = expectedEnd(r.ends[i], now)
		for i+1 < len(r.jobs) && expectedEnd(r.ends[i+1], now) == shadow {
			i++
			free += p.e.Need(r.jobs[i])
		}
		return shadow, free - need
	}
	return model.Never, 0
}

// backlogTrace makes a trace that piles up a queue: n jobs on a machine of
// m nodes of pes processors each, arriving faster than they can run (in
// bursts, many at the same instant), sizes drawn from a few popular values
// and uniformly, durations from a few popular values and spread over
// three orders of magnitude, estimates exact, loose or (with overruns)
// short.
func backlogTrace(rng *rand.Rand, overruns bool) (machine model.Machine, jobs []model.Job) {
	machine = model.Machine{Nodes: 1 + rng.IntN(64), PEsPerNode: 1}
	if rng.IntN(4) == 0 {
		machine.PEsPerNode = 1 + rng.IntN(4)
	}
	procs := machine.Procs()
	n := 50 + rng.IntN(1500)
	popular := []int{1, 1 + rng.IntN(procs), 1 + rng.IntN(procs), procs}
	runs := []model.Time{1, model.Time(1 + rng.IntN(100)), model.Time(1 + rng.IntN(1000))}
	gap := 1 + rng.IntN(20)
	t := model.Time(0)
	for i := 0; i < n; i++ {
		if rng.IntN(4) == 0 {
			t += model.Time(rng.IntN(gap))
		}
		size := 1 + rng.IntN(procs)
		if rng.IntN(2) == 0 {
			size = popular[rng.IntN(len(popular))]
		}
		run := model.Time(1 + rng.IntN(1000))
		if rng.IntN(2) == 0 {
			run = runs[rng.IntN(len(runs))]
		}
		est := run
		switch r := rng.IntN(4); {
		case r == 0:
		case r == 1 && overruns:
			est = model.Time(1 + rng.IntN(int(run)))
		default:
			est = run + model.Time(rng.IntN(int(run)+10))
		}
		jobs = append(jobs, model.Job{
			ID: int64(i + 1), Submit: t, Runtime: run, Estimate: est,
			AllocProcs: size, ReqProcs: size, Known: model.AllFields,
		})
	}
	return machine, jobs
}

// sameOutcomes runs a and b on jobs and fails unless every job starts and
// ends at the same times under both, and the outcomes come out in the same
// order.
func sameOutcomes(t *testing.T, cfg sim.Config, jobs []model.Job, a, b sim.Policy) {
	t.Helper()
	var got, want model.OutcomeList
	if err := sim.New(cfg, a).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &got, nil); err != nil {
		t.Fatal(err)
	}
	if err := sim.New(cfg, b).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &want, nil); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d outcomes, reference %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.JobID != w.JobID || g.Start != w.Start || g.End != w.End {
			t.Fatalf("outcome %d: job %d [%v, %v], reference job %d [%v, %v]", i, g.JobID, g.Start, g.End, w.JobID, w.Start, w.End)
		}
	}
}

// engineModes are the engine settings the differential tests run under:
// gangsim's default rules, pyss's, and node allocation.
func engineModes(machine model.Machine) map[string]sim.Config {
	return map[string]sim.Config{
		"default": {Machine: machine},
		"pyss":    {Machine: machine, Order: sim.OrderPyss, Passes: sim.PassPerEvent},
		"nodes":   {Machine: machine, NodeAllocation: true},
	}
}

// TestEASYEqualsScan checks that the indexed EASY starts and ends every job
// when the scan of the whole queue did, on random traces that pile up long
// queues, with estimates and with perfect ones, under every engine mode.
func TestEASYEqualsScan(t *testing.T) {
	for _, perfect := range []bool{false, true} {
		t.Run(fmt.Sprintf("perfect=%v", perfect), func(t *testing.T) {
			forSeeds(t, func(t *testing.T, rng *rand.Rand) {
				machine, jobs := backlogTrace(rng, !perfect)
				for mode, cfg := range engineModes(machine) {
					t.Run(mode, func(t *testing.T) {
						sameOutcomes(t, cfg, jobs, NewEASY(perfect), &easyScan{perfect: perfect})
					})
				}
			})
		})
	}
}

// gangEASYScan is Gang.scheduleEASY as it was before the indexed queue:
// every pass walks the whole queue. It is the reference the indexed one
// must equal job for job.
func gangEASYScan(p *Gang) {
	q := p.queue.jobs
	n := 0
	for n < len(q) {
		pl, ok := p.m.find(p.e.Need(q[n]), p.pin(q[n]))
		if !ok {
			break
		}
		p.start(q[n], pl)
		n++
	}
	p.queue.popFront(n)
	q = p.queue.jobs
	if len(q) < 2 {
		return
	}
	headNeed, headPin := p.e.Need(q[0]), p.pin(q[0])
	shadow, ok := projectSorted(p, headNeed, headPin)
	if !ok {
		return
	}
	started := false
	fail := p.m.cols + 1
	for _, c := range q[1:] {
		need, pin := p.e.Need(c), p.pin(c)
		if need >= fail && pin == nil {
			continue
		}
		pl, ok := p.m.find(need, pin)
		if !ok {
			if pin == nil {
				fail = need
			}
			continue
		}
		if p.expectedEnd(p.e.Now(), c) > shadow {
			p.scratch.occupy(pl.row, pl.cols)
			if _, fits := p.scratch.find(headNeed, headPin); !fits {
				p.scratch.vacate(pl.row, pl.cols)
				continue
			}
		}
		p.start(c, pl)
		started = true
	}
	if started {
		p.queue.removeStarted()
	}
}

// ending is a matrix job expected to end at a time, for projectSorted.
type ending struct {
	at  model.Time
	row int
	g   *gangJob
}

// projectSorted is Gang.project as it was before the heap: it sorts every
// matrix job by expected end.
func projectSorted(p *Gang, need int, pin []int) (shadow model.Time, ok bool) {
	p.scratch.copyFrom(p.m)
	var ends []ending
	for ri, rw := range p.m.rows {
		for _, g := range rw.jobs {
			ends = append(ends, ending{p.expectedEnd(g.j.Start, g.j), ri, g})
		}
	}
	slices.SortStableFunc(ends, func(a, b ending) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return cmp.Compare(a.g.seq, b.g.seq)
	})
	for i := 0; i < len(ends); {
		at := ends[i].at
		for ; i < len(ends) && ends[i].at == at; i++ {
			p.scratch.vacateJob(ends[i].row, ends[i].g.cols)
		}
		if _, fits := p.scratch.find(need, pin); fits {
			return at, true
		}
	}
	return model.Never, false
}

// TestGangEASYEqualsScan checks that gang scheduling with EASY in front
// starts and ends every job when the walk of the whole queue did, on random
// traces that pile up long queues (some jobs hand-placed), with first fit
// and DHC, MPL 1 to 6, under every engine mode.
func TestGangEASYEqualsScan(t *testing.T) {
	for _, alloc := range []string{allocFirstFit, allocDHC} {
		t.Run(alloc, func(t *testing.T) {
			forSeeds(t, func(t *testing.T, rng *rand.Rand) {
				machine, jobs := backlogTrace(rng, true)
				if rng.IntN(4) == 0 {
					// Hand-place some jobs (static scenarios).
					for i := range jobs {
						if rng.IntN(5) == 0 {
							jobs[i].App.Pin = rng.Perm(machine.Procs())[:jobs[i].AllocProcs]
						}
					}
				}
				cfg := DefaultGangConfig()
				cfg.Backfill, cfg.Alloc = "easy", alloc
				cfg.MPL = []int{1, 2, 3, 6}[rng.IntN(4)]
				for mode, ecfg := range engineModes(machine) {
					t.Run(mode, func(t *testing.T) {
						env := Env{Machine: machine, NodeAllocation: ecfg.NodeAllocation}
						ref := NewGang(cfg, env)
						ref.easyRef = gangEASYScan
						sameOutcomes(t, ecfg, jobs, NewGang(cfg, env), ref)
					})
				}
			})
		})
	}
}

// logWindow returns the first n jobs of a shared log, cleaned as replay
// cleans them by default, scaled to the given offered load, and its machine.
func logWindow(t *testing.T, name string, n int, load float64) (model.Machine, []model.Job) {
	t.Helper()
	spec := workload.Spec{Source: workload.Source{Trace: &workload.TraceSource{Path: sharedtraces.Trace(t, name), Jobs: n}},
		Load: &workload.Load{Target: load}}
	r, err := spec.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	norm, err := swf.NewNormalizer(r, swf.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := model.ReadAll(norm)
	if err != nil {
		t.Fatal(err)
	}
	return model.FlatMachine(tr.Header.MaxProcs()), tr.Jobs
}

// TestBackfillEqualsScanOnLogs runs the indexed EASY and gang scheduling's
// indexed EASY front against the walks of the whole queue on windows of
// every shared log scaled to offered loads 1.2 and 1.5, where the queue
// grows through the window: every outcome must be the same.
func TestBackfillEqualsScanOnLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays of every shared log's window skipped in -short mode")
	}
	for _, name := range sharedtraces.Names {
		for _, load := range []float64{1.2, 1.5} {
			t.Run(fmt.Sprintf("%s/load=%.1f", name, load), func(t *testing.T) {
				machine, jobs := logWindow(t, name, 4000, load)
				pyss := sim.Config{Machine: machine, Order: sim.OrderPyss, Passes: sim.PassPerEvent}
				sameOutcomes(t, sim.Config{Machine: machine}, jobs, NewEASY(false), &easyScan{})
				sameOutcomes(t, pyss, jobs, NewEASY(false), &easyScan{})
				for _, alloc := range []string{allocFirstFit, allocDHC} {
					cfg := DefaultGangConfig()
					cfg.Backfill, cfg.Alloc = "easy", alloc
					ref := NewGang(cfg, Env{Machine: machine})
					ref.easyRef = gangEASYScan
					sameOutcomes(t, sim.Config{Machine: machine}, jobs, NewGang(cfg, Env{Machine: machine}), ref)
				}
			})
		}
	}
}

// firstFitBitByBit is matrix.findFirstFit as it was: the placement's
// columns taken one by one.
func firstFitBitByBit(m *matrix, need int) (int, columns, bool) {
	for r := 0; r <= len(m.rows) && r < m.mpl; r++ {
		var taken columns
		if r < len(m.rows) {
			taken = m.rows[r].taken
			if m.cols-taken.count() < need {
				continue
			}
		}
		cols := newColumns(m.cols)
		n := 0
		for c := 0; c < m.cols && n < need; c++ {
			if taken == nil || !taken.has(c) {
				cols.set(c)
				n++
			}
		}
		return r, cols, true
	}
	return 0, nil, false
}

// TestFirstFitEqualsBitByBit checks the word-at-a-time first fit and fits
// against the column-by-column placement on random matrices.
func TestFirstFitEqualsBitByBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20000; trial++ {
		cols := 1 + rng.IntN(300)
		m := newMatrix(cols, 1+rng.IntN(6), allocFirstFit)
		for r := rng.IntN(m.mpl + 1); r > 0; r-- {
			rw := &row{taken: newColumns(cols)}
			density := rng.Float64()
			for c := 0; c < cols; c++ {
				if rng.Float64() < density {
					rw.taken.set(c)
				}
			}
			m.rows = append(m.rows, rw)
		}
		need := rng.IntN(cols + 2)
		wantRow, wantCols, wantOK := firstFitBitByBit(m, need)
		if need <= 0 || need > cols {
			wantOK = false
		}
		pl, ok := m.find(need, nil)
		if ok != wantOK || m.fits(need, nil) != wantOK {
			t.Fatalf("trial %d: %d columns, need %d: find %v, fits %v, column by column %v", trial, cols, need, ok, m.fits(need, nil), wantOK)
		}
		if ok && (pl.row != wantRow || !slices.Equal(pl.cols, wantCols)) {
			t.Fatalf("trial %d: %d columns, need %d: row %d %x, column by column row %d %x", trial, cols, need, pl.row, pl.cols, wantRow, wantCols)
		}
	}
}
