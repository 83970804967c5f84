package hardware

import (
	"math"
	"strconv"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/myrinet"
	"github.com/gangsim/gangsim/repro"
)

func TestEtsionItems(t *testing.T) {
	c := myrinet.ParPar()
	fig6, _, err := EtsionFig6(mustPreset(t, "parpar"))
	if err != nil {
		t.Fatal(err)
	}
	items := []repro.Item{EtsionFig5(c), fig6, EtsionSwitchCost(c)}
	names := []string{"fig-5", "fig-6", "switch-cost"}
	wantPaper := []int{len(myrinet.MessageSizes()), 0, 2}
	wantClaims := []int{3, 3, 6}
	if len(items) != len(names) {
		t.Fatalf("%d items", len(items))
	}
	for i, it := range items {
		if it.Paper != "etsion" || it.Name != names[i] || it.Unit == "" || it.Title == "" {
			t.Errorf("item %d: %s/%s %q %q", i, it.Paper, it.Name, it.Unit, it.Title)
		}
		if err := it.Validate(); err != nil {
			t.Error(err)
		}
		paper := 0
		for _, r := range it.Rows {
			if !r.Within() {
				t.Errorf("%s %v: %v vs paper %v ± %v", it.Name, r.Coords, r.Gangsim, r.Paper, r.Tolerance)
			}
			if r.HasPaper {
				paper++
			}
			if math.IsNaN(r.Gangsim) || r.Gangsim < 0 {
				t.Errorf("%s %v: %v", it.Name, r.Coords, r.Gangsim)
			}
		}
		if paper != wantPaper[i] {
			t.Errorf("%s: %d rows with a paper value, want %d", it.Name, paper, wantPaper[i])
		}
		if len(it.Claims) != wantClaims[i] {
			t.Errorf("%s: %d claims, want %d", it.Name, len(it.Claims), wantClaims[i])
		}
		for j, c := range it.Claims {
			// The one statement the paper's own figures contradict (see
			// doc.go): the send buffer is not the costlier to replace.
			wantHolds := !(it.Name == "switch-cost" && j == len(it.Claims)-1)
			if c.Holds != wantHolds {
				t.Errorf("%s claim %q holds %v, want %v (%s)", it.Name, c.Text, c.Holds, wantHolds, c.Note)
			}
		}
	}
	// The contradicted claim turns true if host memory copied at 70 MB/s.
	c.HostCopyBytesPerSecond = 70e6
	if cl := EtsionSwitchCost(c).Claims; !cl[len(cl)-1].Holds {
		t.Errorf("send buffer claim at 70 MB/s: %s", cl[len(cl)-1].Note)
	}
}

// TestEtsionFig6AgainstFormula checks the replays of etsion/fig-6 against
// the model's own equations: with buffer switching, the total relative to
// one job is myrinet.TotalBandwidth's (E&F 4.1's quantum/(quantum +
// switch); gs takes the switch out of the quantum instead, quantum -
// switch, and the last job runs alone, so they agree within 0.2%); with
// buffer division, 64 KB messages lose what Fig. 5's streaming bandwidth
// loses with contexts, within 2%, while small messages lose less, the
// job-level model charging each message a one-way latency that does not
// grow with contexts (the item's notes say so).
func TestEtsionFig6AgainstFormula(t *testing.T) {
	c := myrinet.ParPar()
	it, _, err := EtsionFig6(mustPreset(t, "parpar"))
	if err != nil {
		t.Fatal(err)
	}
	got := func(mech string, jobs int, size int64) float64 {
		for _, r := range it.Rows {
			if r.Coord("mechanism") == mech && r.Coord("jobs") == strconv.Itoa(jobs) && r.Coord("bytes") == strconv.FormatInt(size, 10) {
				return r.Gangsim
			}
		}
		t.Fatalf("no row %s, %d jobs, %d bytes", mech, jobs, size)
		return 0
	}
	for _, size := range myrinet.MessageSizes() {
		one := myrinet.TotalBandwidth(c, myrinet.CopyFull, 1, size, 1, myrinet.Fig6Quantum)
		for _, n := range etsionJobs(etsionSwitching)[1:] {
			want := myrinet.TotalBandwidth(c, myrinet.CopyFull, 1, size, n, myrinet.Fig6Quantum) / one
			share := got(etsionSwitching, n, size) / got(etsionSwitching, 1, size)
			if math.Abs(share/want-1) > 0.002 {
				t.Errorf("switching, %d jobs, %d B: %.5f of one job, the formula %.5f", n, size, share, want)
			}
		}
		for _, n := range etsionJobs(etsionDivision)[1:] {
			want := c.Bandwidth(myrinet.BufferDivision, size, n) / c.Bandwidth(myrinet.BufferDivision, size, 1)
			share := got(etsionDivision, n, size) / got(etsionDivision, 1, size)
			switch {
			case size == 65536 && math.Abs(share/want-1) > 0.02:
				t.Errorf("division, %d jobs, %d B: %.4f of one job, Fig. 5's model %.4f", n, size, share, want)
			case size <= 256 && n >= 4 && share <= want:
				t.Errorf("division, %d jobs, %d B: %.4f of one job, not above Fig. 5's streaming %.4f", n, size, share, want)
			}
		}
	}
}

// TestEtsionFig6CatchesModelChanges: a gang switch of about 0.4 s (halt
// and release five times slower) costs more than the claim allows.
func TestEtsionFig6CatchesModelChanges(t *testing.T) {
	p := editedPreset(t, "parpar", func(m map[string]any) {
		m["protocol_per_node_us"] = 5 * myrinet.ParPar().ProtocolPerNodeMicros
	})
	it, _, err := EtsionFig6(p)
	if err != nil {
		t.Fatal(err)
	}
	if it.Claims[0].Holds {
		t.Errorf("flat total bandwidth holds with a slow switch: %s", it.Claims[0].Note)
	}
}
