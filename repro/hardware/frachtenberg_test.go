package hardware

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/qsnet"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload/scenario"
)

func TestFrachtenbergItems(t *testing.T) {
	w := qsnet.Wolverine()
	items := []repro.Item{FrachtenbergTable43(w), FrachtenbergFig412(w), FrachtenbergTable45(w)}
	for i, want := range []struct {
		name          string
		rows, withPap int
	}{{"table-4.3", 54, 54}, {"fig-4.12", 30, 2}, {"table-4.5", 6, 6}} {
		it := items[i]
		if it.Paper != "frachtenberg" || it.Name != want.name || it.Title == "" || it.Unit == "" || it.Notes == "" {
			t.Errorf("item %d: %s %q %q", i, it.Key(), it.Title, it.Unit)
		}
		if err := it.Validate(); err != nil {
			t.Error(err)
		}
		rw, rn, ch, cn := it.Check()
		if len(it.Rows) != want.rows || rn != want.withPap || rw != rn || ch != cn || cn < 4 || !it.Agrees() {
			t.Errorf("%s: %d rows, %d/%d within, %d/%d claims", it.Key(), len(it.Rows), rw, rn, ch, cn)
		}
		for _, c := range it.Claims {
			if !c.Holds {
				t.Errorf("%s: claim fails: %s (%s)", it.Key(), c.Text, c.Note)
			}
		}
		var buf bytes.Buffer
		if err := repro.WriteCSV(&buf, &it, nil); err != nil {
			t.Fatal(err)
		}
		back, _, err := repro.ReadCSV(&buf, it.Key())
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Rows) != len(it.Rows) || len(back.Claims) != len(it.Claims) {
			t.Errorf("%s: CSV round trip %d rows, %d claims", it.Key(), len(back.Rows), len(back.Claims))
		}
	}
	// The paper values the rows pin, with their tolerances.
	pinned := map[string][2]float64{
		"es40/64": {110, 0.5}, "es40/16384": {135, 0.5},
		"rsh/0": {3827.10, 2.0535}, "RMS/12": {317.67, 2.0535}, "GLUnix/0": {49.38, 2.0535},
		"Cplant/12": {22.73, 0.0115}, "BProc/12": {4.88, 0.0115}, "STORM/12": {0.11, 0.005},
	}
	for _, it := range items[1:] {
		for _, r := range it.Rows {
			if !r.HasPaper {
				continue
			}
			key := r.Coords[0].Value + "/" + r.Coords[1].Value
			p, ok := pinned[key]
			if !ok || r.Paper != p[0] || r.Tolerance != p[1] {
				t.Errorf("%s %s: paper %v ± %v, want %v", it.Key(), key, r.Paper, r.Tolerance, p)
			}
			delete(pinned, key)
		}
	}
	if len(pinned) != 0 {
		t.Errorf("rows not found: %v", pinned)
	}
	// Rows can fail: Eq. 4.3's printed factor 2 on the switch term (as if
	// T_switch were doubled) breaks Table 4.3, and a slower transfer
	// protocol breaks Fig. 4.12's 110 ms.
	c := qsnet.Wolverine()
	c.SwitchNanos *= 2
	if it := FrachtenbergTable43(c); it.Agrees() {
		t.Error("Table 4.3 agrees with the switch term doubled")
	}
	c = qsnet.Wolverine()
	c.TransferBytesPerSecond = 100 * qsnet.MiB
	if it := FrachtenbergFig412(c); it.Agrees() {
		t.Error("Fig. 4.12 agrees with a 100 MB/s transfer")
	}
}

// TestSweep3DReplaysAgainstFormula checks the replays of Figs. 4.13 and
// 4.15 against the switch's arithmetic: MPL copies of a job of T seconds,
// each slot of q losing the switch s, take MPL T q/(q - s), up to the last
// slots, when the copies end one after the other (at most a slot each),
// plus what STORM's machine manager adds to each copy's run: its launch, a
// heartbeat (q) and T_exec, and the notice of its end, up to a heartbeat
// later.
func TestSweep3DReplaysAgainstFormula(t *testing.T) {
	c := qsnet.Crescendo()
	sw := c.GangSwitch(c.Nodes).Seconds()
	exec := c.ExecMicros * 1e-6
	T := scenario.Sweep3DRuntime.Seconds()
	q50 := storm433Quantum.Seconds()
	alone := T + q50 + exec // one copy at 50 ms, before its end is noticed
	fig413, _, err := FrachtenbergFig413(mustPreset(t, "crescendo"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fig413.Rows {
		if r.Coord("run") != "mpl-2" {
			if r.Gangsim < 2*alone || r.Gangsim > 2*(alone+q50) {
				t.Errorf("fig-4.13 %v: %v, want twice %v plus up to a heartbeat", r.Coords, r.Gangsim, alone)
			}
			continue
		}
		q, _ := strconv.ParseFloat(r.Coord("quantum_ms"), 64)
		q /= 1e3
		want := 2*T*q/(q-sw) + q + exec
		if math.Abs(r.Gangsim-want) > 2*q {
			t.Errorf("fig-4.13 %v: %.4f s, the switch's arithmetic %.4f s", r.Coords, r.Gangsim, want)
		}
	}
	fig415, _, err := FrachtenbergFig415(mustPreset(t, "crescendo"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fig415.Rows {
		mpl, _ := strconv.Atoi(r.Coord("mpl"))
		want := float64(mpl) * T
		if r.Coord("run") == "gs" && mpl > 1 {
			want *= q50 / (q50 - sw)
		}
		if r.Coord("run") == "gs" {
			want += q50 + exec
		} else {
			want = float64(mpl) * alone
		}
		if math.Abs(r.Gangsim-want) > float64(mpl+1)*q50 {
			t.Errorf("fig-4.15 %v: %.4f s, want %.4f s", r.Coords, r.Gangsim, want)
		}
	}
}

// TestSweep3DCatchesModelChanges: a 1 ms node-manager switch (instead of
// the assumed 50 us) breaks the thesis' 2 ms claim of Fig. 4.13, and the
// scalability claim of Fig. 4.14 breaks when a strobe costs 5 ms more per
// fat-tree stage.
func TestSweep3DCatchesModelChanges(t *testing.T) {
	p := editedPreset(t, "crescendo", func(m map[string]any) { m["local_switch_us"] = 1000 })
	it, _, err := FrachtenbergFig413(p)
	if err != nil {
		t.Fatal(err)
	}
	if it.Claims[0].Holds || it.Agrees() {
		t.Errorf("fig-4.13 agrees with a 1 ms switch: %s", it.Claims[0].Note)
	}
	p = editedPreset(t, "crescendo", func(m map[string]any) { m["strobe_per_stage_us"] = 5000 })
	it, _, err = FrachtenbergFig414(p)
	if err != nil {
		t.Fatal(err)
	}
	if it.Agrees() {
		t.Errorf("fig-4.14 agrees with 5 ms per stage: %s", it.Claims[0].Note)
	}
}
