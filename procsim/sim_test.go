package procsim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
)

func costsOf(t testing.TB, preset, mech string) hwmodel.Costs {
	t.Helper()
	p, err := presets.Get(preset)
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Costs(mech)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cpusFrom(first, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = first + i
	}
	return out
}

// TestAloneRunsDedicated: a job alone on its processors, under every
// discipline, ends exactly at its dedicated runtime, whatever its pattern,
// communication mode, imbalance and size.
func TestAloneRunsDedicated(t *testing.T) {
	costs := costsOf(t, "crescendo", "")
	apps := []model.App{
		{},
		{Granularity: 3 * model.Millisecond},
		{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 4096},
		{Granularity: 5 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking, Imbalance: 1},
		{Granularity: 2 * model.Millisecond, Pattern: model.PatternAllToAll, Comm: model.CommBlocking, MessageBytes: 512},
		{Granularity: 7 * model.Millisecond, Pattern: model.PatternBarrier, Comm: model.CommBlocking},
		{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommNonBlocking, MessageBytes: 1 << 20},
		{ProcCompute: []model.Time{6000, 6000, 3000, 3000}, Pattern: model.PatternRing, Comm: model.CommBlocking},
		{Granularity: 4 * model.Millisecond, Pattern: model.PatternAllToAll, Comm: model.CommNonBlocking, Imbalance: 1, MessageBytes: 1 << 16},
		{ProcCompute: []model.Time{6000, 3000, 6000, 1000}, Pattern: model.PatternAllToAll, Comm: model.CommBlocking, MessageBytes: 2048},
	}
	for _, kind := range []Kind{GS, Local, SB, FCS, BCS, PBCS} {
		for ai, app := range apps {
			for _, procs := range []int{1, 2, 4, 7} {
				if len(app.ProcCompute) > 0 && procs != len(app.ProcCompute) {
					continue
				}
				for _, work := range []model.Time{0, 1, 999, 60 * model.Second, 60*model.Second + 1234} {
					name := fmt.Sprintf("%v/app%d/%dprocs/%v", kind, ai, procs, work)
					cfg := Config{Kind: kind, Machine: model.Machine{Nodes: 4, PEsPerNode: 2}, Costs: costs,
						LocalSwitch: 50, Wakeup: 5, Quantum: 25 * model.Millisecond, SpinThreshold: 100,
						MicroSlice: 250, DCGranularity: 5 * model.Millisecond, FWaitShare: 0.25,
						Rand: rand.New(rand.NewPCG(1, 2)), HZ: 1024, SliceTicks: 41, ProcChangePenalty: 20}
					s := New(cfg)
					s.AddJob(1, cpusFrom(0, procs), &app, work, false)
					s.SetOwners([]Owner{{Job: 1, From: 0}})
					id, at, done := s.Run(model.Never)
					if !done || id != 1 {
						t.Fatalf("%s: not done", name)
					}
					communicates := app.Pattern != model.PatternUnspecified && app.Pattern != model.PatternNone && procs > 1
					if at != work && (kind == GS || kind == Local || !communicates) {
						t.Errorf("%s: ended at %v, want %v", name, at, work)
					}
					// Disciplines whose waits block lose wake-ups or
					// micro-timeslices even alone, but little.
					bound := 1.2
					if kind.Buffered() {
						bound = 1.5 // a micro-timeslice and a half a call
					}
					if at < work || float64(at) > bound*float64(work)+float64(model.Millisecond) {
						t.Errorf("%s: ended at %v, dedicated %v", name, at, work)
					}
				}
			}
		}
	}
}

// TestIterationTime: a balanced job alone iterates, once settled, every
//
//	λ = c + R L(b)         blocking
//	λ = max(c, R L(b))     non-blocking (its NIC sends one message at a time)
//
// with c its computation per iteration, R the rounds of its call (ring and
// all-to-all 1, barrier ceil(log2 p)) and L(b) the one-way time of the
// bytes b a process pushes per round (ring 2m, all-to-all (p-1)m, barrier
// 0): the package documentation's equations, measured in the
// iteration-by-iteration simulation on Crescendo.
func TestIterationTime(t *testing.T) {
	costs := costsOf(t, "crescendo", "")
	for _, pattern := range []model.Pattern{model.PatternRing, model.PatternAllToAll, model.PatternBarrier} {
		for _, comm := range []model.Comm{model.CommBlocking, model.CommNonBlocking} {
			for _, procs := range []int{2, 4, 7} {
				for _, c := range []model.Time{100, model.Millisecond, 3 * model.Millisecond} {
					for _, m := range []int64{0, 4096, 1 << 20} {
						app := model.App{Granularity: c, Pattern: pattern, Comm: comm, MessageBytes: m}
						rounds, _, b := Rounds(pattern, procs, m)
						l, _ := costs.Message(b, 1)
						want := c + model.Time(rounds)*l
						if comm == model.CommNonBlocking {
							want = max(c, model.Time(rounds)*l)
						}
						s := New(Config{Kind: GS, Machine: model.Machine{Nodes: 4, PEsPerNode: 2}, Costs: costs, NoSkip: true})
						s.AddJob(1, cpusFrom(0, procs), &app, 60*want, false)
						s.SetOwners([]Owner{{Job: 1}})
						p := &s.procs[s.jobs[0].procs[0]]
						var starts []model.Time
						iter := -1
						s.afterEvent = func() {
							if p.iter != iter {
								iter = p.iter
								starts = append(starts, s.now)
							}
						}
						s.Run(model.Never)
						name := fmt.Sprintf("%v %v, %d processes, c %v, m %d", pattern, comm, procs, c, m)
						if len(starts) < 40 {
							t.Fatalf("%s: %d iterations", name, len(starts))
						}
						for k := len(starts) - 10; k < len(starts)-1; k++ {
							if got := starts[k+1] - starts[k]; got != want {
								t.Fatalf("%s: iteration %d took %v, want λ = %v", name, k, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestBCSTransfer: a BCS transfer starts in the next micro-timeslice, after
// its overhead micro-phases (the descriptor exchange and scheduling, 125 us
// of 250 here) and after the process's previous transfer, fills the
// transmit windows left, chunked over the next micro-timeslices, and is
// delivered at the end of the micro-timeslice in which it ends; without
// overhead and with a free NIC, at the end of the micro-timeslice in which
// a transfer from the next one's start ends, one at least.
func TestBCSTransfer(t *testing.T) {
	for _, c := range []struct {
		post, free, d, ov model.Time
		at, end           model.Time
	}{
		{0, 0, 0, 125, 500, 375},       // short: the whole next micro-timeslice
		{100, 0, 100, 125, 500, 475},   // fits the window
		{0, 0, 200, 125, 750, 700},     // 125 us then 75 us in the next window
		{0, 0, 200, 0, 500, 450},       // no overhead: one micro-timeslice
		{300, 700, 30, 125, 750, 730},  // after the previous transfer, in its window
		{300, 740, 30, 125, 1000, 895}, // 10 us left in the window, 20 us in the next one
		{0, 0, 1000, 125, 2250, 2250},  // 125 us per window: 8 windows, the last ending its micro-timeslice
	} {
		at, end := bcsTransfer(c.post, c.free, c.d, 250, c.ov)
		if at != c.at || end != c.end {
			t.Errorf("%+v: delivered at %v, ends at %v", c, at, end)
		}
	}
	r := rand.New(rand.NewPCG(3, 3))
	for range 10000 {
		post, d, ms := model.Time(r.IntN(1e6)), model.Time(r.IntN(5000)), model.Time(1+r.IntN(1000))
		start := (post/ms + 1) * ms
		want := max((start+d+ms-1)/ms*ms, start+ms)
		if at, end := bcsTransfer(post, 0, d, ms, 0); at != want || end != start+d {
			t.Fatalf("post %v, %v on %v slices: at %v, end %v; want %v, %v", post, d, ms, at, end, want, start+d)
		}
	}
}

// TestSteadyStateAllocates: once a job has run a while, its iterations
// allocate nothing: the messages in flight reuse their receive slots'
// buffers. Slicing the received ones off a buffer's front once made every
// few sends allocate a new one, most of an all-to-all replay's time.
func TestSteadyStateAllocates(t *testing.T) {
	costs := costsOf(t, "crescendo", "")
	for _, kind := range []Kind{GS, SB, BCS} {
		for _, pat := range []model.Pattern{model.PatternRing, model.PatternAllToAll} {
			for _, comm := range []model.Comm{model.CommBlocking, model.CommNonBlocking} {
				app := model.App{Granularity: 2 * model.Millisecond, Pattern: pat, Comm: comm, MessageBytes: 1024}
				s := New(Config{Kind: kind, Machine: model.Machine{Nodes: 8, PEsPerNode: 2}, Costs: costs,
					LocalSwitch: 50, Wakeup: 5, Quantum: 25 * model.Millisecond, SpinThreshold: 100,
					MicroSlice: 250, Rand: rand.New(rand.NewPCG(1, 2)), NoSkip: true, HZ: 1024, SliceTicks: 41, ProcChangePenalty: 20})
				s.AddJob(1, cpusFrom(0, 16), &app, 600*model.Second, false)
				s.SetOwners([]Owner{{Job: 1, From: 0}})
				until := 20 * model.Second
				s.Run(until) // settled, buffers grown
				allocs := testing.AllocsPerRun(5, func() {
					until += model.Second
					if _, _, done := s.Run(until); done {
						t.Fatal("the job ended")
					}
				})
				if allocs > 0 {
					t.Errorf("%v, %v, %v: %.0f allocations per simulated second (%d iterations)", kind, pat, comm, allocs, model.Second/app.Granularity)
				}
			}
		}
	}
}
