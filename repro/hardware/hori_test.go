package hardware

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/pm"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
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
	}
	t.Fatalf("unknown item %s", it.Key())
	return 0
}

func TestHoriItems(t *testing.T) {
	rwc, ss20 := pm.RWCPC2(), pm.SS20()
	items := []repro.Item{Hori98Table3(rwc), Hori96Table2(ss20), Hori96Table4(ss20), Hori96Table5(ss20), Hori98Fig6(rwc)}
	keys := []string{"hori98/table-3", "hori96/table-2", "hori96/table-4", "hori96/table-5", "hori98/fig-6"}
	rows := []int{8, 8, 32, 32, 24}
	paperRows := []int{8, 8, 32, 32, 2}
	claims := []int{2, 3, 3, 3, 8}
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
			if r.Tolerance != tol {
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
			c := pm.RWCPC2()
			c.ControlFanout, c.ControlHopMicros = 2, 100
			return Hori98Fig6(c)
		}},
		{"twice the overhead outside SCore-D", func() repro.Item {
			c := pm.RWCPC2()
			c.QuantumOverheadMicros *= 2
			return Hori98Fig6(c)
		}},
	} {
		if it := tc.item(); it.Agrees() {
			t.Errorf("%s: %s still agrees", tc.name, it.Key())
		}
	}
}
