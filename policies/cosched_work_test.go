package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/hwmodel/qsnet"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/procsim"
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
			var out model.OutcomeList
			if err := sim.New(sim.Config{Machine: machine}, policy).Run(model.NewSliceReader(trace), &out, nil); err != nil {
				t.Fatalf("%s, %s: %v", name, pol, err)
			}
			var cpu, busy, held model.Time
			var all []model.Outcome
			for _, o := range out.ByID() {
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

// TestCoschedCostsFromPreset: a process-level policy takes its local
// switch, wake-up, micro-timeslice, micro-phase overhead and, under BCS,
// its node manager's switch and gang-switch loss from the hardware preset
// (qsnet's local_switch_us, wakeup_us, bcs_timeslice_us, bcs_overhead_us,
// bcs_switch_us, bcs_gang_switch_us), not from constants of its own: an
// edited preset moves them, parameters override them, and an overhead no
// shorter than the micro-timeslice is refused.
func TestCoschedCostsFromPreset(t *testing.T) {
	c := qsnet.Accelerando()
	env := Env{Machine: model.FlatMachine(4), Rand: rand.New(rand.NewPCG(1, 2)),
		Hardware: Hardware{Costs: qsnet.Model{Cluster: c}, Preset: "accelerando"}}
	got, err := coschedConfig(procsim.BCS, Params{}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got.LocalSwitch != micro(c.BCSSwitchMicros) || got.GangLoss != micro(c.BCSGangSwitchMicros) || got.Wakeup != 5 ||
		got.MicroSlice != 250 || got.MicroOverhead != 125 {
		t.Errorf("accelerando: switch %v, gang loss %v, wake-up %v, micro-timeslice %v, overhead %v; want %vus, %vus, 5us, 250us, 125us",
			got.LocalSwitch, got.GangLoss, got.Wakeup, got.MicroSlice, got.MicroOverhead, c.BCSSwitchMicros, c.BCSGangSwitchMicros)
	}
	for _, k := range []procsim.Kind{procsim.SB, procsim.FCS} {
		if got, err := coschedConfig(k, Params{}, env); err != nil || got.LocalSwitch != 50 || got.GangLoss != 0 {
			t.Errorf("%v: switch %v, gang loss %v (%v); want the preset's local_switch_us, 50us, and none", k, got.LocalSwitch, got.GangLoss, err)
		}
	}
	// FCS's probation, fitted on Tables 6.2-6.4, and its parameter.
	if got, err := coschedConfig(procsim.FCS, Params{}, env); err != nil || got.Probation != 4*model.Second {
		t.Errorf("fcs: probation %v (%v), want 4s", got.Probation, err)
	}
	if got, err := coschedConfig(procsim.FCS, Params{"probation": "0s"}, env); err != nil || got.Probation != 0 {
		t.Errorf("fcs probation=0s: %v (%v)", got.Probation, err)
	}
	c.LocalSwitchMicros, c.WakeupMicros, c.BCSTimesliceMicros, c.BCSOverheadMicros = 20, 17, 400, 100
	c.BCSSwitchMicros, c.BCSGangSwitchMicros = 30, 700
	env.Hardware.Costs = qsnet.Model{Cluster: c}
	if got, err = coschedConfig(procsim.BCS, Params{}, env); err != nil {
		t.Fatal(err)
	}
	if got.LocalSwitch != 30 || got.GangLoss != 700 || got.Wakeup != 17 || got.MicroSlice != 400 || got.MicroOverhead != 100 {
		t.Errorf("edited preset: switch %v, gang loss %v, wake-up %v, micro-timeslice %v, overhead %v; want 30us, 700us, 17us, 400us, 100us",
			got.LocalSwitch, got.GangLoss, got.Wakeup, got.MicroSlice, got.MicroOverhead)
	}
	if got, err = coschedConfig(procsim.SB, Params{}, env); err != nil || got.LocalSwitch != 20 {
		t.Errorf("edited preset, sb: switch %v (%v), want 20us", got.LocalSwitch, err)
	}
	if got, err = coschedConfig(procsim.BCS, Params{"wake": "1us", "overhead": "0us", "csw": "9us", "gang": "0s"}, env); err != nil ||
		got.Wakeup != 1 || got.MicroOverhead != 0 || got.LocalSwitch != 9 || got.GangLoss != 0 {
		t.Errorf("wake=1us, overhead=0us, csw=9us, gang=0s: %v, %v, %v, %v (%v)", got.Wakeup, got.MicroOverhead, got.LocalSwitch, got.GangLoss, err)
	}
	if _, err = coschedConfig(procsim.BCS, Params{"slice": "100us"}, env); err == nil {
		t.Error("a 100us micro-timeslice with 100us of overhead accepted")
	}
}

// micro is us microseconds as simulated time.
func micro(us float64) model.Time { return model.FromSecondsFloat(us * 1e-6) }

// TestCoschedParamsListed: each process-level policy lists the parameters
// that act on it, as they act: local takes no wake-up (its processes never
// block), gs at process level neither a local switch nor a wake-up (only
// gang switches; it spins), and the quantum of local is the round robin's
// time slice, not a row's, as sb's is under sched=boost only (under Linux
// the kernel's slice is).
func TestCoschedParamsListed(t *testing.T) {
	env := Env{Machine: model.FlatMachine(4), Rand: rand.New(rand.NewPCG(1, 2))}
	for _, s := range []string{"local:wake=5us", "gs:level=process,csw=50us", "gs:level=process,wake=5us", "sb:overhead=1us"} {
		spec, err := ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New(spec, env); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	if d := registry["local"].params["quantum"]; d != quantumLocalDoc {
		t.Errorf("local's quantum: %q", d)
	}
	if d := registry["sb"].params["quantum"]; d != quantumSBDoc {
		t.Errorf("sb's quantum: %q", d)
	}
}

// TestSBMixedFineGrainedSlowed: SB as the thesis ran it, spin-block under
// Linux 2.4's scheduler (sched=linux, the default), slows the fine-grained
// job of the mixed scenario (Table 6.4: "SB scheduling's major weakness
// ... fine-grained jobs suffer from the interruptions incurred by other
// jobs", 6.3.2.4): job 1 ends at 191.14 s in the thesis, the others at
// 277.31 and 277.11 s, each held to 10% here. Under the idealised boost,
// which gives a woken process a whole slice and the processor, job 1 ends
// first of all algorithms (110 s).
func TestSBMixedFineGrainedSlowed(t *testing.T) {
	if testing.Short() {
		t.Skip("two process-level replays of 280 s")
	}
	p, err := presets.Get("accelerando")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs("")
	if err != nil {
		t.Fatal(err)
	}
	machine := model.Machine{Nodes: 2, PEsPerNode: 2}
	trace, err := scenario.Build("mixed", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ends := func(pol string) map[int64]float64 {
		spec, err := ParseSpec(pol)
		if err != nil {
			t.Fatal(err)
		}
		env := Env{Machine: machine, Hardware: Hardware{Costs: costs, Preset: "accelerando"}, Rand: rand.New(rand.NewPCG(1, 2))}
		policy, err := New(spec, env)
		if err != nil {
			t.Fatal(err)
		}
		var out model.OutcomeList
		if err := sim.New(sim.Config{Machine: machine}, policy).Run(model.NewSliceReader(trace), &out, nil); err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		e := map[int64]float64{}
		for id, o := range out.ByID() {
			e[id] = o.End.Seconds()
		}
		return e
	}
	linux := ends("sb:mpl=6,quantum=25ms")
	for id, want := range map[int64]float64{1: 191.14, 2: 277.31, 3: 277.11} { // thesis Table 6.4, SB
		if got := linux[id]; got < want*0.9 || got > want*1.1 {
			t.Errorf("sched=linux: job %d ends at %.1f s, thesis %.2f s", id, got, want)
		}
	}
	if boost := ends("sb:mpl=6,quantum=25ms,sched=boost"); boost[1] > 120 || boost[1] > linux[1]-40 {
		t.Errorf("sched=boost: job 1 ends at %.1f s (linux %.1f s), want it first, by 40 s", boost[1], linux[1])
	}
}
