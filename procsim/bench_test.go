package procsim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// BenchmarkJobSize simulates one job of 64, 256 and 1,024 processes
// alone on Crescendo, every iteration (no skips), ring against all-to-all
// (5 ms iterations, 1 KB messages, blocking calls), under GS (processes
// spin while they wait), SB (they block, and a message wakes them) and BCS
// (buffered exchanges at micro-timeslices), for 2 s of simulated time. It
// reports the time per process-iteration, which stays flat as the job
// grows when a replay's cost is linear in job size: an all-to-all round is
// p(p-1) messages, which the simulator keeps as p records.
func BenchmarkJobSize(b *testing.B) {
	costs := costsOf(b, "crescendo", "")
	for _, kind := range []Kind{GS, SB, BCS} {
		for _, procs := range []int{64, 256, 1024} {
			for _, pat := range []model.Pattern{model.PatternRing, model.PatternAllToAll} {
				b.Run(fmt.Sprintf("%v/%s/%d", kind, pat, procs), func(b *testing.B) {
					app := model.App{Granularity: 5 * model.Millisecond, Pattern: pat, Comm: model.CommBlocking, MessageBytes: 1024}
					const span = 2 * model.Second
					var iters int64
					for b.Loop() {
						s := New(Config{Kind: kind, Machine: model.Machine{Nodes: procs / 2, PEsPerNode: 2}, Costs: costs,
							LocalSwitch: 50, Wakeup: 5, Quantum: 25 * model.Millisecond, SpinThreshold: 100,
							MicroSlice: 250, Rand: rand.New(rand.NewPCG(1, 2)), NoSkip: true, HZ: 1024, SliceTicks: 41, ProcChangePenalty: 20})
						s.AddJob(1, cpusFrom(0, procs), &app, 600*model.Second, false)
						s.SetOwners([]Owner{{Job: 1, From: 0}})
						if _, _, done := s.Run(span); done {
							b.Fatal("the job ended")
						}
						for _, pi := range s.jobs[0].procs {
							iters += int64(s.procs[pi].iter)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iters), "ns/proc-iteration")
					b.ReportMetric(float64(iters)/float64(b.N)/float64(procs), "iterations/op")
				})
			}
		}
	}
}
