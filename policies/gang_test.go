package policies_test

import (
	"os"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/swf"
)

// replayTrace replays a shared trace under policy with gangsim's default
// cleaning and rules and returns the outcomes by job.
func replayTrace(t *testing.T, path, policy string) map[int64]model.Outcome {
	t.Helper()
	spec, err := policies.ParseSpec(policy)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := swf.NewReader(f)
	r.Name = path
	var out model.OutcomeList
	rp := pipelines.Replay{Policy: spec}
	if _, err := rp.Run(r, &out, nil); err != nil {
		t.Fatal(err)
	}
	return out.ByID()
}

// TestGangMPL1IsBatch: gang scheduling with one row and first fit is space
// sharing: with FCFS in front of the matrix every job starts and ends
// exactly when FCFS has it start and end, and with EASY backfilling
// exactly as EASY, on the real logs. (DHC, the default placement, leaves
// processors idle that a flat machine would use.)
func TestGangMPL1IsBatch(t *testing.T) {
	names := sharedtraces.Names
	if testing.Short() {
		names = sharedtraces.Small
	}
	for _, name := range names {
		for _, pair := range [][2]string{{"fcfs", "gs:mpl=1,backfill=none,alloc=ff"}, {"easy", "gs:mpl=1,backfill=easy,alloc=ff"}} {
			t.Run(name+"/"+pair[0], func(t *testing.T) {
				path := sharedtraces.Trace(t, name)
				want := replayTrace(t, path, pair[0])
				got := replayTrace(t, path, pair[1])
				if len(got) != len(want) {
					t.Fatalf("%s: %d outcomes, %s has %d", pair[1], len(got), pair[0], len(want))
				}
				bad := 0
				for id, w := range want {
					g := got[id]
					if g.Start != w.Start || g.End != w.End || g.Reason != w.Reason {
						if bad < 5 {
							t.Errorf("job %d: %s start %v end %v, %s start %v end %v", id, pair[1], g.Start, g.End, pair[0], w.Start, w.End)
						}
						bad++
					}
				}
				if bad > 0 {
					t.Fatalf("%d of %d jobs differ", bad, len(want))
				}
			})
		}
	}
}
