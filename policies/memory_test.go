package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// TestGangPagesOnOvercommittedNodes: two jobs time-sharing the same nodes
// under gang scheduling on accelerando (2 GB nodes of 2 PEs), two
// processes of each on every node. When their processes need more memory
// than a node has (SAGE's 520 MB, thesis 6.3.3: 2080 MB), every switch
// into a slot costs the job switched in the gang switch plus paging back
// the smallest of its memory on the node, the node's excess (32 MB) and
// what the other job's two processes touch in a quantum; when they fit
// (SWEEP3D's 277 MB, or one of each) only the gang switch. Job level and
// process level agree. With 10 ms slots the other job's processes touch
// less than the excess in a slot, and the paging is what they touched.
func TestGangPagesOnOvercommittedNodes(t *testing.T) {
	p, err := presets.Get("accelerando")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs("")
	if err != nil {
		t.Fatal(err)
	}
	mem, ok := hwmodel.Memory(costs)
	if !ok {
		t.Fatal("accelerando models no paging")
	}
	const mb = 1 << 20
	env := Env{Machine: model.Machine{Nodes: 2, PEsPerNode: 2}, Rand: rand.New(rand.NewPCG(1, 1)),
		Hardware: Hardware{Costs: costs, Preset: "accelerando"}}
	sw := costs.Switch(hwmodel.SwitchState{Nodes: 2, Jobs: 2})
	for _, tc := range []struct {
		name    string
		mem     [2]int64 // MB per process
		quantum model.Time
		page    int64 // bytes each switch pages back
	}{
		{"SAGE pair", [2]int64{520, 520}, 75 * model.Millisecond, 4*520*mb - mem.NodeMemory()},
		{"SAGE pair, 10 ms slots", [2]int64{520, 520}, 10 * model.Millisecond, 2 * mem.Displace(10*model.Millisecond)},
		{"SWEEP3D pair", [2]int64{277, 277}, 75 * model.Millisecond, 0},
		{"SAGE and SWEEP3D", [2]int64{520, 277}, 75 * model.Millisecond, 0},
		{"sizes unknown", [2]int64{0, 0}, 75 * model.Millisecond, 0},
	} {
		var jobs []model.Job
		for i, m := range tc.mem {
			app := model.App{Granularity: 10 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking,
				MemPerProcKB: m << 10}
			jobs = append(jobs, model.Job{ID: int64(i + 1), Runtime: 3 * model.Second, AllocProcs: 4, Estimate: 3 * model.Second,
				Known: model.AllFields, App: app})
		}
		trace := &model.Trace{Jobs: jobs}
		cfg := GangConfig{MPL: 2, Quantum: tc.quantum, Alloc: allocFirstFit, Backfill: "none"}
		var outs [2]map[int64]twinOutcome
		for i, pol := range []sim.Policy{NewGang(cfg, env), NewCosched(CoschedConfig{GangConfig: cfg}, env)} {
			var l model.OutcomeList
			if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), &l, nil); err != nil {
				t.Fatal(err)
			}
			outs[i] = twinOutcomes(l)
		}
		if outs[0][1] != outs[1][1] || outs[0][2] != outs[1][2] {
			t.Errorf("%s: job level %+v, process level %+v", tc.name, outs[0], outs[1])
		}
		// The job that ends last may be switched in once more as the
		// other ends: with the other's memory freed, that switch pages
		// nothing (the matrix after the change decides).
		last := int64(1)
		if outs[0][2].end > outs[0][1].end {
			last = 2
		}
		per := sw + mem.PageIn(tc.page)
		for id, o := range outs[0] {
			n := model.Time(o.switches)
			if o.switches == 0 || o.loss != n*per && (id != last || o.loss != (n-1)*per+sw) {
				t.Errorf("%s: job %d: %d switches cost %v, want %v each (switch %v, paging %d bytes)", tc.name, id, o.switches, o.loss, per, sw, tc.page)
			}
		}
	}
}

// TestBCSGangLoss: under BCS and PBCS a job switched into a slot loses the
// preset's bcs_gang_switch_us on top of the gang switch (thesis Table 6.5's
// balanced jobs: non-blocking BCS, which never blocks, 2.57 s slower than
// GS); under GS and FCS at process level a switch costs the gang switch.
// (TestCoschedCostsFromPreset checks that BCS's local switches cost
// bcs_switch_us.)
func TestBCSGangLoss(t *testing.T) {
	p, err := presets.Get("accelerando")
	if err != nil {
		t.Fatal(err)
	}
	costs, err := p.Costs("")
	if err != nil {
		t.Fatal(err)
	}
	node, _ := hwmodel.Node(costs)
	env := Env{Machine: model.Machine{Nodes: 2, PEsPerNode: 2}, Rand: rand.New(rand.NewPCG(1, 1)),
		Hardware: Hardware{Costs: costs, Preset: "accelerando"}}
	sw := costs.Switch(hwmodel.SwitchState{Nodes: 2, Jobs: 2})
	var jobs []model.Job
	for i := range 2 {
		// Non-blocking: BCS never blocks them (their calls are done long
		// before they wait), so nothing but the switches differs.
		app := model.App{Granularity: 3 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommNonBlocking}
		jobs = append(jobs, model.Job{ID: int64(i + 1), Runtime: 2 * model.Second, AllocProcs: 4, Estimate: 2 * model.Second,
			Known: model.AllFields, App: app})
	}
	trace := &model.Trace{Jobs: jobs}
	for _, tc := range []struct {
		spec string
		per  model.Time
	}{{"bcs:mpl=2,quantum=25ms", sw + node.BCSGangLoss()}, {"pbcs:mpl=2,quantum=25ms", sw + node.BCSGangLoss()},
		{"gs:mpl=2,quantum=25ms,level=process", sw}, {"fcs:mpl=2,quantum=25ms", sw}} {
		spec, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		pol, err := New(spec, env)
		if err != nil {
			t.Fatal(err)
		}
		var l model.OutcomeList
		if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(trace), &l, nil); err != nil {
			t.Fatal(err)
		}
		for id, o := range twinOutcomes(l) {
			if o.switches < 10 || o.loss != model.Time(o.switches)*tc.per {
				t.Errorf("%s: job %d: %d switches cost %v, want %v each", tc.spec, id, o.switches, o.loss, tc.per)
			}
		}
	}
}
