package policies

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/workload"
)

// thesisTrace is the thesis' dynamic workload (the preset) at load,
// seed 1, in memory.
func thesisTrace(b testing.TB, load float64) *model.Trace {
	return thesisSeed(b, load, 1)
}

// thesisSeed is the thesis' dynamic workload at load, seed seed, in memory.
func thesisSeed(b testing.TB, load float64, seed uint64) *model.Trace {
	b.Helper()
	spec := workload.Spec{Preset: "thesis", Load: &workload.Load{Target: load}, Seed: seed}
	r, err := spec.Open(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	tr, err := model.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkCoschedThesis replays the thesis' dynamic workload at 74% load
// on 32 processors of Crescendo under each process-level policy (MPL 6,
// 100 ms quantum, EASY in front), reporting the simulator's process events
// per second: an event is a process's computation ending, the message
// that satisfies a waiting process arriving, a spin giving up, a
// processor's switch or local quantum ending. old-events counts every
// message's arrival as an event, as the simulator did before arrivals that
// satisfy no wait stopped being events.
func BenchmarkCoschedThesis(b *testing.B) {
	tr := thesisTrace(b, 0.74)
	costs := crescendoCosts(b)
	for _, name := range []string{"gs", "sb", "fcs"} {
		b.Run(name, func(b *testing.B) {
			env := Env{Machine: model.FlatMachine(32), Hardware: Hardware{Costs: costs, Preset: "crescendo"}, Rand: rand.New(rand.NewPCG(1, 0))}
			var events, old, skipped int64
			for b.Loop() {
				spec, _ := ParseSpec(name + ":mpl=6,backfill=easy")
				if name == "gs" {
					spec.Params["level"] = "process"
				}
				pol, err := New(spec, env)
				if err != nil {
					b.Fatal(err)
				}
				if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(tr), nil, nil); err != nil {
					b.Fatal(err)
				}
				events += pol.(*Gang).rr.(*cosched).ps.Events()
				old += pol.(*Gang).rr.(*cosched).ps.EventsPerMessage()
				skipped += pol.(*Gang).rr.(*cosched).ps.Skipped()
			}
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
			b.ReportMetric(float64(skipped)/float64(b.N), "skipped-iterations/op")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(old)/float64(b.N), "old-events/op")
			b.ReportMetric(float64(old)/b.Elapsed().Seconds(), "old-events/s")
		})
	}
}

// BenchmarkGangThesis replays the thesis' dynamic workload at 74% load
// under gang scheduling at job level (MPL 6, 100 ms quantum, EASY in
// front, Crescendo's switches), from the trace in memory: the target
// "one replay of the thesis workload under GS in under 50 ms".
func BenchmarkGangThesis(b *testing.B) {
	tr := thesisTrace(b, 0.74)
	costs := crescendoCosts(b)
	env := Env{Machine: model.FlatMachine(32), Hardware: Hardware{Costs: costs, Preset: "crescendo"}}
	spec, _ := ParseSpec("gs:mpl=6,backfill=easy")
	b.ReportAllocs()
	for b.Loop() {
		pol, err := New(spec, env)
		if err != nil {
			b.Fatal(err)
		}
		if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(tr), nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCoschedScale replays the thesis' dynamic workload at 74% load
// (1000 jobs of at most 32 processes) under FCS, BCS and PBCS (MPL 6, EASY
// in front, DHC, Crescendo) on flat machines of 1,024, 32,768 and 131,072
// processors: the same jobs and work, only idle processors added. A
// strobe costs the processors and processes it can change, so the CPU
// per replay (cpu-s/op) stays within 1.5x of the 1,024-processor figure
// at every size (the target of the README's speed table).
func BenchmarkCoschedScale(b *testing.B) {
	tr := thesisTrace(b, 0.74)
	costs := crescendoCosts(b)
	for _, name := range []string{"fcs", "bcs", "pbcs"} {
		for _, procs := range []int{1024, 32768, 131072} {
			b.Run(fmt.Sprintf("%s/procs=%d", name, procs), func(b *testing.B) {
				env := Env{Machine: model.FlatMachine(procs), Hardware: Hardware{Costs: costs, Preset: "crescendo"}, Rand: rand.New(rand.NewPCG(1, 0))}
				spec, err := ParseSpec(name + ":mpl=6,backfill=easy,alloc=dhc")
				if err != nil {
					b.Fatal(err)
				}
				cpu := processCPU()
				for b.Loop() {
					pol, err := New(spec, env)
					if err != nil {
						b.Fatal(err)
					}
					if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(tr), nil, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((processCPU()-cpu).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// processCPU is the CPU the process has used so far, user and system: on
// a shared machine a better measure than the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// crescendoCosts are the costs of the Crescendo preset, the thesis'
// cluster, that the benchmarks charge.
func crescendoCosts(b testing.TB) hwmodel.Costs { return crescendo(b).Costs }

// crescendo is the Crescendo preset's hardware as replay sets it up
// (pipelines.Replay): its costs, family (STORM's mechanics with QsNet) and
// default variant.
func crescendo(b testing.TB) Hardware {
	b.Helper()
	p, err := presets.Get("crescendo")
	if err != nil {
		b.Fatal(err)
	}
	costs, err := p.Costs("")
	if err != nil {
		b.Fatal(err)
	}
	return Hardware{Costs: costs, Preset: p.Name(), Family: p.Family, Mechanism: p.DefaultVariant()}
}
