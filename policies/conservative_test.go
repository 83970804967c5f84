package policies_test

import (
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/swf"
)

// fiveJobs is a case on 10 processors where the two rules differ: job 1 ends 90 s before its
// estimate, at 10 s. Both replanning rules move job 4 into the freed
// processors at 10 s. The repeated sweep then moves job 3 from 100 s to 60 s,
// where job 4 ends, so job 5 (arriving at 20 s) finds nothing before 160 s;
// the single sweep leaves job 3 at 100 s until the next termination, so job 5
// takes 50 s-90 s and job 3 moves to 90 s when job 2 ends at 50 s.
const fiveJobs = `; MaxProcs: 10
1 0 -1 10 5 -1 -1 5 100 -1 1 1 1 -1 -1 -1 -1 -1
2 0 -1 50 5 -1 -1 5 50 -1 1 1 1 -1 -1 -1 -1 -1
3 1 -1 100 10 -1 -1 10 100 -1 1 1 1 -1 -1 -1 -1 -1
4 2 -1 50 5 -1 -1 5 50 -1 1 1 1 -1 -1 -1 -1 -1
5 20 -1 40 5 -1 -1 5 40 -1 1 1 1 -1 -1 -1 -1 -1
`

func TestConservativeReplanFiveJobs(t *testing.T) {
	single := map[int64]int64{1: 0, 2: 0, 3: 90, 4: 10, 5: 50}
	repeat := map[int64]int64{1: 0, 2: 0, 3: 60, 4: 10, 5: 160}
	for _, tt := range []struct {
		policy     string
		compat     pipelines.Compat
		wantPolicy string // as the manifest records it
		want       map[int64]int64
	}{
		{"conservative", pipelines.CompatNone, "conservative", repeat},
		{"conservative:replan=single", pipelines.CompatNone, "conservative:replan=single", single},
		{"conservative", pipelines.CompatPyss, "conservative:replan=single", single},
		{"conservative:replan=repeat", pipelines.CompatPyss, "conservative:replan=repeat", repeat},
		{"conservative:estimates=user", pipelines.CompatPyss, "conservative:estimates=user,replan=single", single},
	} {
		t.Run(tt.policy+"/compat="+string(tt.compat), func(t *testing.T) {
			spec, err := policies.ParseSpec(tt.policy)
			if err != nil {
				t.Fatal(err)
			}
			r := pipelines.Replay{Policy: spec, Compat: tt.compat}
			src := swf.NewReader(strings.NewReader(fiveJobs))
			var out model.OutcomeList
			if _, err := r.Run(src, &out, nil); err != nil {
				t.Fatal(err)
			}
			params, err := r.Params(src.Header())
			if err != nil {
				t.Fatal(err)
			}
			if m := (model.Manifest{Params: params}); !hasParam(&m, "policy", tt.wantPolicy) {
				t.Errorf("manifest params %v, want policy %s", params, tt.wantPolicy)
			}
			byID := out.ByID()
			for id, want := range tt.want {
				if got := byID[id].Start; got != model.FromSeconds(want) {
					t.Errorf("job %d starts at %v, want %ds", id, got, want)
				}
			}
		})
	}
}

func hasParam(m *model.Manifest, name, value string) bool {
	v, ok := m.Param(name)
	return ok && v == value
}
