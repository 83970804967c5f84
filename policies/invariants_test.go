package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// busyCheck is a sample writer that fails when the time series shows more
// processors busy than the machine has.
type busyCheck struct {
	t *testing.T
	m int
}

func (b busyCheck) WriteSample(s *sim.Sample) error {
	if s.BusyProcs > float64(b.m) || s.Running+s.Queued != s.InSystem {
		b.t.Fatalf("at %v: %+v on a machine of %d", s.At, *s, b.m)
	}
	return nil
}

func TestInvariants(t *testing.T) {
	policies := map[string]func() sim.Policy{
		"fcfs":         func() sim.Policy { return NewFCFS() },
		"easy":         func() sim.Policy { return NewEASY(false) },
		"conservative": func() sim.Policy { return NewConservative(false) },
	}
	for name, mk := range policies {
		t.Run(name, func(t *testing.T) {
			forSeeds(t, func(t *testing.T, rng *rand.Rand) {
				m, jobs := randomTrace(rng, true)
				var rec model.OutcomeList
				e := sim.New(sim.Config{Machine: model.FlatMachine(m)}, mk())
				if err := e.Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &rec, busyCheck{t, m}); err != nil {
					t.Fatal(err)
				}
				if len(rec) != len(jobs) {
					t.Fatalf("%d outcomes for %d jobs", len(rec), len(jobs))
				}
				byID := rec.ByID()
				for _, j := range jobs {
					o := byID[j.ID]
					if o.Start < o.Submit || o.End != o.Start+j.Runtime || o.Procs != j.AllocProcs {
						t.Fatalf("job %d: %+v", j.ID, o)
					}
				}
				if name == "fcfs" {
					for i := 1; i < len(jobs); i++ {
						if a, b := byID[jobs[i-1].ID], byID[jobs[i].ID]; b.Start < a.Start {
							t.Fatalf("FCFS started job %d (at %v) before job %d (at %v)", jobs[i].ID, b.Start, jobs[i-1].ID, a.Start)
						}
					}
				}
			})
		})
	}
}

// headWatch wraps EASY and records, for every job that becomes the queue
// head, the shadow time it was first promised.
type headWatch struct {
	*EASY
	t       *testing.T
	promise map[int64]model.Time
}

func (h *headWatch) Schedule() {
	h.EASY.Schedule()
	if head, _ := h.queue.front(); head != nil && h.e.Need(head) > h.e.Free() {
		shadow, _ := h.reservation(head)
		if first, ok := h.promise[head.In.ID]; !ok {
			h.promise[head.In.ID] = shadow
		} else if shadow > first {
			h.t.Fatalf("at %v the head job %d's reservation moved from %v to %v", h.e.Now(), head.In.ID, first, shadow)
		}
	}
}

func (h *headWatch) Complete(j *sim.Job) {
	if first, ok := h.promise[j.In.ID]; ok && j.Start > first {
		h.t.Fatalf("head job %d started at %v, after its reservation %v", j.In.ID, j.Start, first)
	}
	h.EASY.Complete(j)
}

// TestEASYNeverDelaysHead checks EASY's guarantee: once a job heads the
// queue, its reservation never moves later, and it starts no later than
// first promised (estimates are upper bounds here, as after cleaning).
func TestEASYNeverDelaysHead(t *testing.T) {
	for _, pyss := range []bool{false, true} {
		forSeeds(t, func(t *testing.T, rng *rand.Rand) {
			m, jobs := randomTrace(rng, false)
			cfg := sim.Config{Machine: model.FlatMachine(m)}
			if pyss {
				cfg.Order, cfg.Passes = sim.OrderPyss, sim.PassPerEvent
			}
			w := &headWatch{EASY: NewEASY(false), t: t, promise: map[int64]model.Time{}}
			if err := sim.New(cfg, w).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), nil, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}
