package hardware

import (
	"math"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/myrinet"
	"github.com/gangsim/gangsim/repro"
)

func TestEtsionItems(t *testing.T) {
	c := myrinet.ParPar()
	items := []repro.Item{EtsionFig5(c), EtsionFig6(c), EtsionSwitchCost(c)}
	names := []string{"fig-5", "fig-6", "switch-cost"}
	wantPaper := []int{len(myrinet.MessageSizes()), 0, 2}
	wantClaims := []int{3, 1, 6}
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
