package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// BenchmarkDCS replays one parallel step of 10,000 tasks of 10 to 100 s
// on 64 machines under each mode (round robin at 5 s, every task frozen
// some 40 times), switches costing 1.6 s.
func BenchmarkDCS(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	lengths := make([]model.Time, 10000)
	for i := range lengths {
		lengths[i] = model.Time(10+rng.IntN(91)) * model.Second
	}
	jobs := tasks(lengths...)
	for _, spec := range []string{"mode=eager", "mode=rr,quantum=5s", "mode=optimal"} {
		b.Run(spec, func(b *testing.B) {
			s, _ := ParseSpec("dcs:" + spec)
			c, err := dcsConfig(s.Params)
			if err != nil {
				b.Fatal(err)
			}
			env := Env{Machine: model.FlatMachine(64), Hardware: Hardware{Costs: fixedSwitch(1600 * model.Millisecond)}}
			b.ReportAllocs()
			for b.Loop() {
				if err := sim.New(sim.Config{Machine: env.Machine}, NewDCS(c, env)).
					Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
