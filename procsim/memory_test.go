package procsim

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// memCosts is a cost model with free messages and switches, a node memory
// and paging: pages back at pageRate bytes per second, a running process
// touches touchRate bytes per second.
type memCosts struct {
	node                int64
	pageRate, touchRate float64
}

func (memCosts) Switch(hwmodel.SwitchState) model.Time    { return 0 }
func (memCosts) Message(int64, int) (model.Time, float64) { return 0, 1e9 }
func (memCosts) Launch(int, int64) model.Time             { return 0 }
func (m memCosts) NodeMemory() int64                      { return m.node }
func (m memCosts) PageIn(b int64) model.Time              { return seconds(float64(b) / m.pageRate) }
func (m memCosts) Displace(d model.Time) int64            { return int64(d.Seconds() * m.touchRate) }
func seconds(s float64) model.Time                        { return model.FromSecondsFloat(s) }
func (m memCosts) pageBack(mem, excess int64, ran model.Time) model.Time {
	return m.PageIn(min(mem, excess, m.Displace(ran)))
}

// TestPageBackAtLocalSwitch: two processes that together need more memory
// than their node has, time-sharing a processor in Local's round robin: a
// process switched back in pages back what the other touched while it ran
// (its switch and its quantum), at most the node's excess and its own
// memory, on top of the local switch; its first start, and processes whose
// memory fits, page nothing. The run's end is worked out by hand, switch by
// switch, from that rule.
func TestPageBackAtLocalSwitch(t *testing.T) {
	const mb = 1 << 20
	costs := memCosts{node: 1000 * mb, pageRate: 1e9, touchRate: 100e6}
	q, cs := 10*model.Millisecond, 50*model.Microsecond
	work := 200 * model.Millisecond
	for _, tc := range []struct {
		mem  int64 // KB per process
		name string
	}{{600 << 10, "2 x 600 MB on 1000 MB"}, {400 << 10, "2 x 400 MB on 1000 MB"}, {0, "sizes unknown"}, {1000 << 10, "2 x 1000 MB on 1000 MB"}} {
		s := New(Config{Kind: Local, Machine: model.Machine{Nodes: 1, PEsPerNode: 1}, Costs: costs, LocalSwitch: cs,
			Quantum: q, Rand: rand.New(rand.NewPCG(3, 4))})
		app := model.App{MemPerProcKB: tc.mem}
		s.AddJob(1, []int{0}, &app, work, false)
		s.AddJob(2, []int{0}, &app, work, false)
		var ends [2]model.Time
		for range 2 {
			id, at, ok := s.Run(10 * model.Second)
			if !ok {
				t.Fatalf("%s: no completion", tc.name)
			}
			ends[id-1] = at
		}

		// By hand: job 1 runs to the first quantum boundary, then they
		// alternate, each boundary switching to the other (cs, plus its
		// paging once it has run), until one ends; the other then takes
		// the processor at once (a switch, and its paging).
		excess := 2*tc.mem<<10 - costs.node
		page := func(ran model.Time) model.Time {
			if tc.mem == 0 || excess <= 0 {
				return 0
			}
			return costs.pageBack(tc.mem<<10, excess, ran)
		}
		left := [2]model.Time{work, work}
		stopped := [2]model.Time{} // when each last lost the processor
		ran := [2]bool{true, false}
		var want [2]model.Time
		cur, now, from := 0, model.Time(0), model.Time(0) // from: when cur computes
		ph := s.cpus[0].phase
		boundary := ph + ((0-ph)/q+1)*q // the first quantum end, as armQuantum sets it at 0
		for want[0] == 0 || want[1] == 0 {
			other := 1 - cur
			if from+left[cur] <= boundary || want[other] != 0 {
				// cur ends before the boundary, or runs alone to its end.
				now = from + left[cur]
				want[cur], left[cur] = now, 0
				if want[other] != 0 {
					break
				}
				c := cs
				if ran[other] {
					c += page(now - stopped[other])
				}
				cur, from, ran[other] = other, now+c, true
				continue
			}
			left[cur] -= boundary - from
			now, stopped[cur] = boundary, boundary
			c := cs
			if ran[other] {
				c += page(now - stopped[other])
			}
			cur, from, ran[other] = other, now+c, true
			boundary += q
		}
		if ends != want {
			t.Errorf("%s: ends %v, want %v", tc.name, ends, want)
		}
	}
}

// TestPageBackAcrossNode: under SB's node-wide run queue (Linux), a process
// may come back on another processor of its node than the one it last ran
// on; what displaced its memory meanwhile is what ran on the node's
// processors. Three processes of 400 MB share a node of 2 PEs and 1000 MB
// (200 MB short), with no local switch cost: both processors are busy
// until the first completion, so a process brought back d after it
// stopped, on either processor, pages what 2d of running touched (at most
// the excess), not what its new processor alone ran.
func TestPageBackAcrossNode(t *testing.T) {
	const mb = 1 << 20
	costs := memCosts{node: 1000 * mb, pageRate: 1e10, touchRate: 1e9}
	cfg := linuxConfig(SchedLinux, model.Machine{Nodes: 1, PEsPerNode: 2}, 1000, 10)
	cfg.Costs = costs
	s := New(cfg)
	app := model.App{MemPerProcKB: 400 << 10}
	for id := 1; id <= 3; id++ {
		s.AddJob(id, []int{(id - 1) % 2}, &app, 2*model.Second, false)
	}
	stopped := map[int32]model.Time{} // when each last left a processor
	prev := []int32{-1, -1}
	cpuOf := map[int32]int{}
	done := false
	resumed, moved := 0, 0
	s.afterEvent = func() {
		for ci := range s.cpus {
			c := &s.cpus[ci]
			if c.cur == prev[ci] {
				continue
			}
			if prev[ci] >= 0 {
				stopped[prev[ci]] = s.now
			}
			if at, ok := stopped[c.cur]; ok && c.cur >= 0 && !done {
				resumed++
				if cpuOf[c.cur] != ci {
					moved++
				}
				want := costs.pageBack(400*mb, 200*mb, 2*(s.now-at))
				if c.switchAt != s.now || c.switchEnd-c.switchAt != want {
					t.Errorf("at %v: processor %d brings back process %d, stopped at %v, with a switch of %v (from %v), want %v",
						s.now, ci, c.cur, at, c.switchEnd-c.switchAt, c.switchAt, want)
				}
			}
			if c.cur >= 0 {
				cpuOf[c.cur] = ci
			}
			prev[ci] = c.cur
		}
	}
	for range 3 {
		if _, _, ok := s.Run(20 * model.Second); !ok {
			t.Fatal("no completion")
		}
		done = true
	}
	if resumed < 10 || moved == 0 {
		t.Errorf("%d processes brought back, %d on another processor: the case is not exercised", resumed, moved)
	}
}
