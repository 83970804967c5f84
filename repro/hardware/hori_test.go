package hardware

import (
	"bytes"
	"github.com/gangsim/gangsim/procsim"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/pm"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload/scenario"
)

// rowTolerance returns the tolerance the package states for a row of the
// item, independently of the row's own Tolerance field.
func rowTolerance(t *testing.T, it repro.Item, r repro.Row) float64 {
	t.Helper()
	switch it.Key() {
	case "hori98/table-3":
		return pm.Table3Tolerance
	case "hori96/table-2":
		return pm.Table2Tolerance
	case "hori96/table-4", "hori96/table-5":
		q, err := strconv.Atoi(r.Coord("tq_ms"))
		if err != nil {
			t.Fatal(err)
		}
		return pm.OverheadTolerance(model.Time(q) * model.Millisecond)
	case "hori98/fig-6":
		return 1
	case "hori96/fig-8":
		q, err := strconv.Atoi(r.Coord("tq_ms"))
		if err != nil {
			t.Fatal(err)
		}
		table := pm.Hori96Table4()
		if r.Coord("mechanism") == "voluntary" {
			table = pm.Hori96Table5()
		}
		for _, c := range table {
			if c.Program == r.Coord("program") && c.Quantum == model.Time(q)*model.Millisecond && strconv.Itoa(c.Processors) == r.Coord("processors") {
				d := pm.OverheadTolerance(c.Quantum)
				return (c.Millis+d)/(float64(q)-c.Millis-d)*100 - c.Millis/(float64(q)-c.Millis)*100
			}
		}
	}
	t.Fatalf("unknown item %s", it.Key())
	return 0
}

func TestHoriItems(t *testing.T) {
	rwc, ss20 := pm.RWCPC2(), pm.SS20()
	fig6, _, err := Hori98Fig6(mustPreset(t, "rwc-pc2"))
	if err != nil {
		t.Fatal(err)
	}
	fig8, _, err := Hori96Fig8(mustPreset(t, "ss20"))
	if err != nil {
		t.Fatal(err)
	}
	items := []repro.Item{Hori98Table3(rwc), Hori96Table2(ss20), Hori96Table4(ss20), Hori96Table5(ss20), fig6, fig8}
	keys := []string{"hori98/table-3", "hori96/table-2", "hori96/table-4", "hori96/table-5", "hori98/fig-6", "hori96/fig-8"}
	rows := []int{8, 8, 32, 32, 24, 64}
	paperRows := []int{8, 8, 32, 32, 2, 64}
	claims := []int{2, 3, 3, 3, 8, 4}
	if len(items) != len(keys) {
		t.Fatalf("%d items, want %d", len(items), len(keys))
	}
	for i, it := range items {
		if it.Key() != keys[i] || it.Title == "" || it.Unit == "" || it.Notes == "" {
			t.Errorf("item %d: %s %q %q", i, it.Key(), it.Title, it.Unit)
		}
		if err := it.Validate(); err != nil {
			t.Error(err)
		}
		var csvOut bytes.Buffer
		if err := repro.WriteCSV(&csvOut, &it, nil); err != nil || !strings.Contains(csvOut.String(), it.Key()) {
			t.Errorf("%s: WriteCSV: %v\n%s", it.Key(), err, csvOut.String())
		}
		if !it.Agrees() {
			t.Errorf("%s does not agree with the paper", it.Key())
		}
		w, n, h, c := it.Check()
		if len(it.Rows) != rows[i] || n != paperRows[i] || w != n || c != claims[i] || h != c {
			t.Errorf("%s: %d rows, %d/%d within, %d/%d claims; want %d rows, %d with paper values, %d claims",
				it.Key(), len(it.Rows), w, n, h, c, rows[i], paperRows[i], claims[i])
		}
		for _, r := range it.Rows {
			if math.IsNaN(r.Gangsim) || math.IsInf(r.Gangsim, 0) || r.Gangsim < 0 {
				t.Errorf("%s %v: gangsim %v", it.Key(), r.Coords, r.Gangsim)
			}
			if !r.HasPaper {
				continue
			}
			tol := rowTolerance(t, it, r)
			if math.Abs(r.Tolerance-tol) > 1e-9 {
				t.Errorf("%s %v: tolerance %v, the package states %v", it.Key(), r.Coords, r.Tolerance, tol)
			}
			if d := math.Abs(r.Gangsim - r.Paper); d > tol {
				t.Errorf("%s %v: gangsim %v, paper %v: off by %v > %v", it.Key(), r.Coords, r.Gangsim, r.Paper, d, tol)
			}
		}
		for _, cl := range it.Claims {
			if !cl.Holds || cl.Note == "" {
				t.Errorf("%s: claim %q: holds %v, note %q", it.Key(), cl.Text, cl.Holds, cl.Note)
			}
		}
	}
	// Every paper cell appears once, in the tables' values.
	t4 := items[2]
	for i, c := range pm.Hori96Table4() {
		r := t4.Rows[i]
		if r.Paper != c.Millis || r.Coord("program") != c.Program || r.Coord("processors") != strconv.Itoa(c.Processors) {
			t.Errorf("table-4 row %d: %v %v, want %+v", i, r.Coords, r.Paper, c)
		}
	}
}

// TestHoriItemsCatchModelChanges checks that the reproductions fail when the
// model drifts: each edit below breaks an item that passes with the
// preset.
func TestHoriItemsCatchModelChanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		item func() repro.Item
	}{
		{"PCI receive save rate 10% low", func() repro.Item {
			c := pm.RWCPC2()
			c.SaveReceiveBytesPerSecond *= 0.9
			return Hori98Table3(c)
		}},
		{"S-Bus restore fixed cost +0.02 ms", func() repro.Item {
			c := pm.SS20()
			c.RestoreFixedMicros += 20
			return Hori96Table2(c)
		}},
		{"no SIGSTOP delay", func() repro.Item {
			c := pm.SS20()
			c.StopDelayMaxMicros = 0
			return Hori96Table4(c)
		}},
		{"25 ms more per switch outside SCore-D", func() repro.Item {
			c := pm.SS20()
			c.QuantumOverheadMicros += 25000
			return Hori96Table4(c)
		}},
		{"no yield skew", func() repro.Item {
			c := pm.SS20()
			c.YieldSkewMaxMicros = 0
			return Hori96Table5(c)
		}},
		{"a binary control tree and slower hops", func() repro.Item {
			return replayed(t, Hori98Fig6, "rwc-pc2", func(m map[string]any) { m["control_fanout"], m["control_hop_us"] = 2, 100 })
		}},
		{"twice the overhead outside SCore-D", func() repro.Item {
			return replayed(t, Hori98Fig6, "rwc-pc2", func(m map[string]any) { m["quantum_overhead_us"] = 2 * pm.RWCPC2().QuantumOverheadMicros })
		}},
		{"a SIGSTOP delay like the yield skew", func() repro.Item {
			return replayed(t, Hori96Fig8, "ss20", func(m map[string]any) { m["stop_delay_max_us"] = pm.SS20().YieldSkewMaxMicros })
		}},
	} {
		if it := tc.item(); it.Agrees() {
			t.Errorf("%s: %s still agrees", tc.name, it.Key())
		}
	}
}

// replayed builds a replayed item with build on an edited copy of the
// named preset.
func replayed(t *testing.T, build func(presets.Preset) (repro.Item, []model.Param, error), name string, edit func(m map[string]any)) repro.Item {
	t.Helper()
	p := editedPreset(t, name, edit)
	it, _, err := build(p)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// TestHoriReplaysAgainstFormula checks the replays of hori96/fig-8 and
// hori98/fig-6 against hori96 4.2's formula, T_o/(T_q - T_o) with T_o the
// model's switch: they differ only by how the runs end (the copies finish
// within a slice of each other), at most one slice's worth of the two
// copies' work.
func TestHoriReplaysAgainstFormula(t *testing.T) {
	fig8, _, err := Hori96Fig8(mustPreset(t, "ss20"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fig8.Rows {
		mode := pm.Signal
		if r.Coord("mechanism") == "voluntary" {
			mode = pm.Voluntary
		}
		n, _ := strconv.Atoi(r.Coord("processors"))
		q, _ := strconv.Atoi(r.Coord("tq_ms"))
		over := pm.Model{Cluster: pm.SS20(), Stop: mode}.Breakdown(n, 0).Overhead()
		want := formulaSlowdown(float64(over)/1e3, float64(q))
		work := 2 * scenario.Hori96Runtimes()[r.Coord("program")][n].Seconds()
		if d := math.Abs(r.Gangsim - want); d > float64(q)/1e3/work*100 {
			t.Errorf("hori96/fig-8 %v: replayed %.4f%%, formula %.4f%%", r.Coords, r.Gangsim, want)
		}
	}
	fig6, _, err := Hori98Fig6(mustPreset(t, "rwc-pc2"))
	if err != nil {
		t.Fatal(err)
	}
	m := pm.Model{Cluster: pm.RWCPC2(), Stop: pm.Signal}
	apps, occ := pm.Fig6Applications(m)
	for _, r := range fig6.Rows {
		a := slices.Index(apps, r.Coord("application"))
		n, _ := strconv.Atoi(r.Coord("processors"))
		q, _ := strconv.Atoi(r.Coord("time_slice_ms"))
		want := pm.Slowdown(m.Breakdown(n, occ[a]).Overhead(), model.Time(q)*model.Millisecond) * 100
		if d := math.Abs(r.Gangsim - want); d > float64(q)/1e3/(2*scenario.Hori98Runtime.Seconds())*100 {
			t.Errorf("hori98/fig-6 %v: replayed %.4f%%, formula %.4f%%", r.Coords, r.Gangsim, want)
		}
	}
}

// TestHori98CGOccupancy: the CG stand-in communicates the share of its
// time that the rwc-pc2 model needs as CG's buffer occupancy, which is
// what gs charges its switches with.
func TestHori98CGOccupancy(t *testing.T) {
	m := pm.Model{Cluster: pm.RWCPC2(), Stop: pm.Signal}
	_, occ := pm.Fig6Applications(m)
	comm := procsim.CallTime(model.PatternRing, 64, scenario.Hori98CGMessageBytes, m, 2) // both neighbours at once
	share := float64(comm) / float64(scenario.Hori98CGGranularity+comm)
	if math.Abs(share-occ[1]) > 1e-4 {
		t.Errorf("CG stand-in communicates %.5f of its time, the model's CG occupancy is %.5f", share, occ[1])
	}
}
