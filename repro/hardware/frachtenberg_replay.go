package hardware

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/hwmodel/qsnet"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload/scenario"
)

// The gang-scheduling runs of thesis 4.3.3 on Crescendo: copies of the
// SWEEP3D stand-in (scenario sweep3d), all launched at once, gang-scheduled
// by gs with one row per copy and charged by the crescendo preset.

// fig413Quanta returns the time quanta of the reproduction of Fig. 4.13,
// "from 300us to 8s" (4.3.3.1), at roughly three points per decade.
func fig413Quanta() []model.Time {
	us := []model.Time{300, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
		1000000, 2000000, 4000000, 8000000}
	out := make([]model.Time, len(us))
	for i, t := range us {
		out[i] = t * model.Microsecond
	}
	return out
}

// storm433Quantum is the timeslice of Figs. 4.14 and 4.15, 50 ms, which
// "provides a fairly responsive system" (4.3.3.1).
const storm433Quantum = 50 * model.Millisecond

// sweep3dRun replays copies of SWEEP3D on pes PEs with quantum q and
// returns the outcomes.
func sweep3dRun(p presets.Preset, copies, pes int, q model.Time) ([]model.Outcome, error) {
	r := replay{scenario: "sweep3d", opts: scenario.Options{Tasks: copies, Machines: pes},
		policy: gangPolicy(copies, q), preset: p}
	return r.outcomes()
}

// quantumMs formats a quantum in ms, as a coordinate ("0.3", "50", "8000").
func quantumMs(q model.Time) string {
	return strconv.FormatFloat(float64(q)/float64(model.Millisecond), 'f', -1, 64)
}

// sweep3dParams is the manifest of a SWEEP3D item.
func sweep3dParams(policy string, runs int) []model.Param {
	return []model.Param{
		{Name: "method", Value: "replays"},
		{Name: "scenario", Value: "sweep3d"},
		{Name: "policy", Value: policy},
		{Name: "mechanisms", Value: "es40"},
		{Name: "runs", Value: strconv.Itoa(runs)},
		{Name: "seed", Value: "0"},
	}
}

const sweep3dNote = "The SWEEP3D stand-in (scenario sweep3d): 3.5 ms compute steps on Crescendo (5.4.2), a neighbour exchange with blocking calls (5.4.3), 217 s alone (the thesis' dedicated SWEEP3D run, Table 6.6; its Crescendo run times are in the missing figures). " +
	"gs gives every copy a row and charges crescendo's gang switch, a strobe plus the node managers' local switch (%d us on %d nodes; local_switch_us assumed 50 us, the thesis giving no figure), at every slot; on QsNet each job keeps its own NIC context, so communication neither slows down with the other jobs nor overlaps with them. " +
	"Each copy's run includes what STORM's machine manager adds, acting at its heartbeats, every quantum (4.2.1, 4.3.1.1): the launch (the binary's transfer, a heartbeat, then T_exec, 10 ms) and the notice of its end at the next heartbeat. "

// FrachtenbergFig413 reproduces thesis Fig. 4.13 through the simulator:
// the average run time in seconds of two SWEEP3D copies gang-scheduled on
// all 64 PEs of Crescendo (MPL 2), by time quantum from 300 us to 8 s,
// beside twice the run time of one copy alone (the ideal of two instances
// sharing the machine). The figure is missing from the text; its claims
// are checked.
func FrachtenbergFig413(p presets.Preset) (repro.Item, []model.Param, error) {
	c, ok := p.Cluster.(qsnet.Cluster)
	if !ok {
		return repro.Item{}, nil, fmt.Errorf("preset %s is not a qsnet preset", p.Name())
	}
	pes := c.Nodes * c.PEsPerNode
	it := repro.Item{
		Paper: "frachtenberg",
		Name:  "fig-4.13",
		Title: fmt.Sprintf("Fig. 4.13: average run time of two SWEEP3D copies (MPL 2) on %d PEs of Crescendo by time quantum, 300 us to 8 s, beside twice one copy's (replays; figure values not in the text)", pes),
		Unit:  "s",
		Notes: fmt.Sprintf(sweep3dNote, c.GangSwitch(c.Nodes)/model.Microsecond, c.Nodes) +
			"The thesis' shortest timeslice, 300 us, is the node manager's limit on Crescendo (4.3.3.1, min_quantum_us); gs does not enforce it, and the replay at 300 us shows what the switch alone costs there.",
	}
	costs, err := p.Costs("")
	if err != nil {
		return it, nil, err
	}
	sw := costs.Switch(hwmodel.SwitchState{Nodes: c.Nodes, Jobs: 2})
	alone, err := sweep3dRun(p, 1, pes, storm433Quantum)
	if err != nil {
		return it, nil, err
	}
	ideal := 2 * meanRuntime(alone)
	runs := 1
	mean := map[model.Time]float64{}
	var qs []model.Time // the quanta replayed
	for _, q := range fig413Quanta() {
		if q <= sw {
			it.Notes += fmt.Sprintf(" The %s ms quantum is left out: it is no longer than the switch, %d us, and no copy would progress.", quantumMs(q), sw/model.Microsecond)
			continue
		}
		qs = append(qs, q)
		out, err := sweep3dRun(p, 2, pes, q)
		if err != nil {
			return it, nil, err
		}
		runs++
		mean[q] = meanRuntime(out)
		it.Rows = append(it.Rows,
			repro.Row{Coords: []repro.Coord{{Name: "run", Value: "mpl-2"}, {Name: "quantum_ms", Value: quantumMs(q)}}, Gangsim: mean[q]},
			repro.Row{Coords: []repro.Coord{{Name: "run", Value: "2x-alone"}, {Name: "quantum_ms", Value: quantumMs(q)}}, Gangsim: ideal})
	}
	// Up to the chosen quantum the switches decide; above it STORM's
	// heartbeats do (a launch takes two, a termination is noticed at the
	// next), which the text does not discuss.
	monotone, small := len(qs) > 1, 0
	for i := 1; i < len(qs) && qs[i] <= storm433Quantum; i++ {
		monotone = monotone && mean[qs[i]] <= mean[qs[i-1]]
		small = i
	}
	at := func(q model.Time) float64 {
		if _, ok := mean[q]; !ok {
			return math.Inf(1) // not replayed: no progress
		}
		return mean[q]/ideal - 1
	}
	if len(qs) == 0 {
		return it, nil, fmt.Errorf("fig-4.13: every quantum is no longer than the switch, %v", sw)
	}
	short, chosen := 2*model.Millisecond, storm433Quantum
	it.Claims = []repro.Claim{
		{
			Text:  "with a timeslice as small as 2ms, STORM can run multiple instances of a parallel application with little performance degradation compared to a single instance (4.3.3.1), read as the average run time of the two copies at 2 ms within 5% of twice one copy's",
			Holds: at(short) <= 0.05,
			Note:  fmt.Sprintf("%.1f s at 2 ms against %.1f s: %+.2f%%; at %s ms %+.1f%%", mean[short], ideal, 100*at(short), quantumMs(qs[0]), 100*at(qs[0])),
		},
		{
			Text:  "STORM can handle small time quanta with no performance penalty; 50ms was chosen for the next experiments (4.3.3.1), read as the two copies at 50 ms within 1% of twice one copy's run time",
			Holds: at(chosen) <= 0.01,
			Note:  fmt.Sprintf("%.2f s at 50 ms against %.2f s: %+.3f%%", mean[chosen], ideal, 100*at(chosen)),
		},
		{
			Text:  "smaller timeslices cost throughput, through scheduling overhead that cannot be amortized (4.3.3), read as the average run time never growing with the quantum from 300 us to 50 ms, the quantum STORM chose for its responsiveness",
			Holds: monotone,
			Note: fmt.Sprintf("%.1f s at %s ms, %.1f s at 2 ms, %.2f s at %s ms (%d quanta compared); above it STORM's heartbeats dominate: %.2f s at 8 s, where the launch takes two heartbeats and the end is noticed at the next (4.3.1.1)",
				mean[qs[0]], quantumMs(qs[0]), mean[short], mean[qs[small]], quantumMs(qs[small]), small+1, mean[qs[len(qs)-1]]),
		},
	}
	return it, sweep3dParams("gs:mpl=2,quantum=Q (mpl=1 alone)", runs), nil
}

// fig414PEs returns the machine sizes of Fig. 4.14: 1 to 64 PEs by powers
// of two. The thesis says "nodes in the range 1-64" (4.3.3.2), but
// Crescendo has 32 nodes of 2 PEs (Table 1.1), so the range is read as PEs.
func fig414PEs() []int { return []int{1, 2, 4, 8, 16, 32, 64} }

// FrachtenbergFig414 reproduces thesis Fig. 4.14 through the simulator:
// the run time in seconds of SWEEP3D at MPL 1 (one copy) and MPL 2 (two
// copies, the makespan divided by 2, as the thesis normalizes it) on 1 to
// 64 PEs of Crescendo with a 50 ms timeslice. The figure is missing from
// the text; its claim is checked.
func FrachtenbergFig414(p presets.Preset) (repro.Item, []model.Param, error) {
	c, ok := p.Cluster.(qsnet.Cluster)
	if !ok {
		return repro.Item{}, nil, fmt.Errorf("preset %s is not a qsnet preset", p.Name())
	}
	it := repro.Item{
		Paper: "frachtenberg",
		Name:  "fig-4.14",
		Title: "Fig. 4.14: SWEEP3D run time on 1 to 64 PEs of Crescendo at MPL 1 and 2, 50 ms timeslice, MPL 2 normalized by dividing the total run time by 2 (replays; figure values not in the text)",
		Unit:  "s",
		Notes: fmt.Sprintf(sweep3dNote, c.GangSwitch(c.Nodes)/model.Microsecond, c.Nodes) +
			"The stand-in keeps its 217 s alone at every size (weak scaling, as the thesis' 'no visible increase in application run time' implies), so what changes with the size is the switch: a strobe grows by 1 us per fat-tree stage. " +
			"The thesis' 'nodes in the range 1-64' are read as PEs: Crescendo has 32 nodes of 2 PEs; one PE is a one-PE node.",
	}
	norm := map[string]float64{} // by "mpl/pes"
	runs := 0
	for _, mpl := range []int{1, 2} {
		for _, pes := range fig414PEs() {
			out, err := sweep3dRun(p, mpl, pes, storm433Quantum)
			if err != nil {
				return it, nil, err
			}
			runs++
			v := makespan(out).Seconds() / float64(mpl)
			norm[fmt.Sprint(mpl, "/", pes)] = v
			it.Rows = append(it.Rows, repro.Row{
				Coords:  []repro.Coord{{Name: "mpl", Value: strconv.Itoa(mpl)}, {Name: "pes", Value: strconv.Itoa(pes)}},
				Gangsim: v,
			})
		}
	}
	growth, overhead := 0.0, 0.0
	for _, mpl := range []int{1, 2} {
		base := norm[fmt.Sprint(mpl, "/1")]
		for _, pes := range fig414PEs() {
			growth = max(growth, norm[fmt.Sprint(mpl, "/", pes)]/base-1)
		}
	}
	for _, pes := range fig414PEs() {
		overhead = max(overhead, norm[fmt.Sprint(2, "/", pes)]/norm[fmt.Sprint(1, "/", pes)]-1)
	}
	it.Claims = []repro.Claim{{
		Text:  "no visible increase in either the application run time or overhead with the increase in the number of PEs (4.3.3.2), read as the normalized run time on every size within 1% of that on one PE at MPL 1 and 2, and MPL 2 within 1% of MPL 1 on every size",
		Holds: growth <= 0.01 && overhead <= 0.01,
		Note: fmt.Sprintf("largest growth over one PE %.3f%%; largest MPL-2 overhead %.3f%% (%.3f s on 64 PEs against %.3f s)",
			100*growth, 100*overhead, norm["2/64"], norm["1/64"]),
	}}
	return it, sweep3dParams("gs:mpl=MPL,quantum=50ms", runs), nil
}

// FrachtenbergFig415 reproduces thesis Fig. 4.15 through the simulator:
// the run time in seconds of 1, 2, 4 and 8 SWEEP3D copies launched
// together on all 64 PEs of Crescendo with a 50 ms timeslice (the time the
// last ends), beside linear slowdown, MPL times one copy's run time. The
// figure is missing from the text; its claims are checked, and the one
// the job-level model cannot bear out says why.
func FrachtenbergFig415(p presets.Preset) (repro.Item, []model.Param, error) {
	c, ok := p.Cluster.(qsnet.Cluster)
	if !ok {
		return repro.Item{}, nil, fmt.Errorf("preset %s is not a qsnet preset", p.Name())
	}
	pes := c.Nodes * c.PEsPerNode
	it := repro.Item{
		Paper: "frachtenberg",
		Name:  "fig-4.15",
		Title: fmt.Sprintf("Fig. 4.15: run time of 1, 2, 4 and 8 SWEEP3D copies on %d PEs of Crescendo, 50 ms timeslice, against linear slowdown (replays; figure values not in the text)", pes),
		Unit:  "s",
		Notes: fmt.Sprintf(sweep3dNote, c.GangSwitch(c.Nodes)/model.Microsecond, c.Nodes) +
			"Linear slowdown is MPL times one copy's run time. The thesis stops at MPL 8, where more copies would exhaust the memory (4.3.3.3); gs does not model memory.",
	}
	var alone float64
	excess := map[int]float64{}
	runs := 0
	for _, mpl := range []int{1, 2, 4, 8} {
		out, err := sweep3dRun(p, mpl, pes, storm433Quantum)
		if err != nil {
			return it, nil, err
		}
		runs++
		t := makespan(out).Seconds()
		if mpl == 1 {
			alone = t
		}
		linear := float64(mpl) * alone
		excess[mpl] = t/linear - 1
		m := strconv.Itoa(mpl)
		it.Rows = append(it.Rows,
			repro.Row{Coords: []repro.Coord{{Name: "run", Value: "gs"}, {Name: "mpl", Value: m}}, Gangsim: t},
			repro.Row{Coords: []repro.Coord{{Name: "run", Value: "linear"}, {Name: "mpl", Value: m}}, Gangsim: linear})
	}
	worst, gain := 0.0, true
	var per []string
	for _, mpl := range []int{2, 4, 8} {
		worst = max(worst, excess[mpl])
		gain = gain && excess[mpl] < 0
		per = append(per, fmt.Sprintf("MPL %d %+.3f%%", mpl, 100*excess[mpl]))
	}
	sw := c.GangSwitch(c.Nodes)
	it.Claims = []repro.Claim{
		{
			Text:  "no degradation in performance compared to a linear slowdown (4.3.3.3), read as the run time within 1% of linear at MPL 2, 4 and 8",
			Holds: worst <= 0.01,
			Note:  "run time over linear: " + strings.Join(per, ", "),
		},
		{
			Text:  "in fact a slight performance gain over linear slowdown, due to the overlapping of computation and communication (4.3.3.3)",
			Holds: gain,
			Note: fmt.Sprintf("not in gangsim: %s. The job-level model overlaps nothing: a copy's communication does not proceed while another computes, and QsNet's per-job NIC contexts neither slow nor speed a running copy; each 50 ms slot loses the %d us switch (%.2f%%), so the run time can only exceed linear",
				strings.Join(per, ", "), sw/model.Microsecond, 100*sw.Seconds()/storm433Quantum.Seconds()),
		},
	}
	return it, sweep3dParams("gs:mpl=MPL,quantum=50ms", runs), nil
}
