package hardware

import (
	"testing"

	"github.com/gangsim/gangsim/hwmodel/calypso"
	"github.com/gangsim/gangsim/repro"
)

func TestMcLaughlinSwitchCost(t *testing.T) {
	items := []repro.Item{McLaughlinSwitchCost(calypso.CalypsoNT())}
	if len(items) != 1 {
		t.Fatalf("%d items", len(items))
	}
	it := items[0]
	if it.Paper != "mclaughlin" || it.Name != "switch-cost" || it.Unit != "s" {
		t.Errorf("item %s/%s in %s", it.Paper, it.Name, it.Unit)
	}
	paper := 0
	for _, r := range it.Rows {
		if !r.Within() {
			t.Errorf("%v: %v vs paper %v ± %v", r.Coords, r.Gangsim, r.Paper, r.Tolerance)
		}
		if r.HasPaper {
			paper++
		}
	}
	if paper != 4 || len(it.Rows) != 5 {
		t.Errorf("%d rows, %d with a paper value; want 5, 4", len(it.Rows), paper)
	}
	// An edited preset far from the estimates fails the rows.
	c := calypso.CalypsoNT()
	c.SwitchOverheadMicros = 3e6
	for _, r := range McLaughlinSwitchCost(c).Rows[2:] {
		if r.Within() {
			t.Errorf("3 s switch agrees with %v", r.Coords)
		}
	}
}
