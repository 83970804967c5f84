package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/workload/scenario"
)

// TestProcessWorkWithinCapacity: under every process-level policy, in the
// thesis' four static scenarios (6.3.2), what the processes computed, and
// what they computed and spun, fits in the machine over the makespan, and
// the run's utilization is at most 1. With the processors a job holds
// alone (Procs × dedicated runtime) as its work, SB's and FCS's runs of
// the complementing scenario measured 1.35 and 1.22: time sharing fills
// the holes the imbalanced job leaves when alone, which that count takes
// for work.
func TestProcessWorkWithinCapacity(t *testing.T) {
	p, err := presets.Get("accelerando")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs("")
	if err != nil {
		t.Fatal(err)
	}
	machine := model.Machine{Nodes: 2, PEsPerNode: 2}
	policies := []string{"gs:mpl=6,quantum=25ms,level=process", "local:mpl=6,quantum=25ms", "sb:mpl=6,quantum=25ms",
		"fcs:mpl=6,quantum=25ms", "bcs:mpl=6,quantum=25ms", "pbcs:mpl=6,quantum=25ms"}
	for _, name := range []string{"balanced", "imbalanced", "complementing", "mixed"} {
		trace, err := scenario.Build(name, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, pol := range policies {
			if testing.Short() && name != "complementing" {
				continue
			}
			spec, err := ParseSpec(pol)
			if err != nil {
				t.Fatal(err)
			}
			env := Env{Machine: machine, Hardware: Hardware{Costs: costs, Preset: "accelerando"}, Rand: rand.New(rand.NewPCG(1, 2))}
			policy, err := New(spec, env)
			if err != nil {
				t.Fatal(err)
			}
			out := outcomeLog{}
			if err := sim.New(sim.Config{Machine: machine}, policy).Run(model.NewSliceReader(trace), out, nil); err != nil {
				t.Fatalf("%s, %s: %v", name, pol, err)
			}
			var cpu, busy, held model.Time
			var all []model.Outcome
			for _, o := range out {
				cpu += o.CPU
				busy += o.CPU + o.Spin
				held += model.Time(o.Procs) * o.Dedicated
				all = append(all, o)
			}
			capacity := model.Time(machine.Procs()) * metrics.Makespan(all)
			if cpu <= 0 || busy > capacity {
				t.Errorf("%s, %s: processes computed %v and spun %v in %v of capacity", name, pol, cpu, busy-cpu, capacity)
			}
			if u := metrics.Utilization(all, machine.Procs()); u > 1 || u != cpu.Seconds()/capacity.Seconds() {
				t.Errorf("%s, %s: utilization %v; computed %v of %v", name, pol, u, cpu, capacity)
			}
			t.Logf("%s, %s: computed %.3f, busy %.3f, held alone %.3f of capacity", name, pol,
				cpu.Seconds()/capacity.Seconds(), busy.Seconds()/capacity.Seconds(), held.Seconds()/capacity.Seconds())
		}
	}
}
