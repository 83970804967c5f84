package sim

import (
	"runtime"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// quantumPolicy runs one long job and sets a timer every quantum, as a
// naive gang scheduler would; at every quantum it also cancels the timer
// that just fired and sets and cancels a spare one, the two ways a
// scheduler drops timers.
type quantumPolicy struct {
	e         *Engine
	quantum   model.Time
	fired     int
	last      TimerID
	heapAt    []uint64 // HeapAlloc after a GC at each checkpoint
	every     int
	maxTimers int
}

func (p *quantumPolicy) Attach(e *Engine) {
	p.e = e
	p.last = e.SetTimer(p.quantum, 0)
}
func (p *quantumPolicy) Arrive(j *Job)   { p.e.Start(j) }
func (p *quantumPolicy) Complete(j *Job) { p.e.CancelTimer(p.last) }
func (p *quantumPolicy) Schedule()       {}
func (p *quantumPolicy) Timer(int64) {
	p.fired++
	p.e.CancelTimer(p.last) // already fired: must not be remembered
	spare := p.e.SetTimer(p.e.Now()+p.quantum/2, 1)
	p.e.CancelTimer(spare) // pending: must be forgotten when canceled
	p.last = p.e.SetTimer(p.e.Now()+p.quantum, 0)
	p.maxTimers = max(p.maxTimers, p.e.PendingTimers())
	if p.fired%p.every == 0 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		p.heapAt = append(p.heapAt, m.HeapAlloc)
	}
}

// TestTimerMemoryFlat: over two million quanta the engine's memory does
// not grow with the number of timers set, fired and canceled.
func TestTimerMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("two million quanta")
	}
	const quanta = 2_000_000
	q := 100 * model.Millisecond
	pol := &quantumPolicy{quantum: q, every: quanta / 4}
	job := model.Job{ID: 1, Runtime: quanta*q + q/2, AllocProcs: 1, Known: model.AllFields}
	err := New(Config{Machine: model.FlatMachine(1)}, pol).Run(
		model.NewSliceReader(&model.Trace{Jobs: []model.Job{job}}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pol.fired < quanta {
		t.Fatalf("%d quanta fired, want %d", pol.fired, quanta)
	}
	if pol.maxTimers > 2 {
		t.Errorf("up to %d timers pending, want at most 2", pol.maxTimers)
	}
	first, last := pol.heapAt[0], pol.heapAt[len(pol.heapAt)-1]
	if last > first+256<<10 {
		t.Errorf("heap grew from %d to %d bytes over %d quanta", first, last, quanta)
	}
}
