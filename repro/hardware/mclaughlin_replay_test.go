package hardware

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/workload/scenario"
)

// TestMcLaughlinExperimentsAreReplays checks every run time of exp-1 and exp-2
// against a replay of the same scenario and policy through
// pipelines.Replay, the path of "replay --policy ... --hw calypso-nt".
func TestMcLaughlinExperimentsAreReplays(t *testing.T) {
	for n, name := range map[int]string{1: "exp-1", 2: "exp-2"} {
		r, err := Find(mclaughlinPaper + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		pr, _, err := r.make()
		if err != nil {
			t.Fatal(err)
		}
		it, fig := pr.item, pr.fig
		if fig != nil {
			t.Errorf("%s draws a figure", name)
		}
		e := scenario.CalypsoExperiments()[n-1]
		for _, row := range it.Rows {
			spec, hw := "dcs:mode="+row.Coord("schedule"), r.Preset
			switch row.Coord("schedule") {
			case "round-robin":
				spec = "dcs:mode=rr,quantum=" + row.Coord("quantum_s") + "s"
			case "optimal-free-switches":
				spec, hw = "dcs:mode=optimal", ""
			}
			tr, err := scenario.Build(e.Scenario, scenario.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s, err := policies.ParseSpec(spec)
			if err != nil {
				t.Fatal(err)
			}
			var out model.OutcomeList
			if _, err := (&pipelines.Replay{Policy: s, Hardware: hw}).Run(model.NewSliceReader(tr), &out, nil); err != nil {
				t.Fatal(err)
			}
			if end := makespan(out); end.Seconds() != row.Gangsim {
				t.Errorf("%s %v: item %v s, replay %v", name, row.Coords, row.Gangsim, end)
			}
		}
	}
}

// TestMcLaughlinItems checks what the replays must give whatever the round robin's
// fate: eager scheduling exactly the paper's times (the task length is
// derived from them), the optimal allocation p t / m plus its switches,
// p - 1 changes of task, the figures' schedules agreeing with the paper,
// and every item within 5% where its claims say so.
func TestMcLaughlinItems(t *testing.T) {
	items := map[string]*repro.Item{}
	for _, r := range mclaughlinItems() {
		pr, man, err := r.make()
		if err != nil {
			t.Fatal(err)
		}
		it, fig := &pr.item, pr.fig
		if err := it.Validate(); err != nil {
			t.Fatal(err)
		}
		if (fig != nil) != strings.HasPrefix(r.Name, "fig-") {
			t.Errorf("%s: figure %v", r.Key(), fig != nil)
		}
		if man.Tool != "replay hw" || len(man.Inputs) != 1 || man.Inputs[0].SHA256 == "" {
			t.Errorf("%s: manifest %+v", r.Key(), man)
		}
		items[r.Name] = it
	}
	for _, name := range []string{"exp-1", "exp-2"} {
		it := items[name]
		var eager, opt repro.Row
		for _, row := range it.Rows {
			switch row.Coord("schedule") {
			case "eager":
				eager = row
			case "optimal":
				opt = row
			}
		}
		if eager.Gangsim != eager.Paper {
			t.Errorf("%s: eager %v s, paper %v s", name, eager.Gangsim, eager.Paper)
		}
		if !opt.HasPaper || !opt.Within() || math.Abs(opt.Tolerance-0.05*opt.Paper) > 1e-9 {
			t.Errorf("%s: optimal %+v", name, opt)
		}
		for _, c := range it.Claims {
			if (strings.Contains(c.Text, "p - 1") || strings.Contains(c.Text, "turnaround")) && !c.Holds {
				t.Errorf("%s: claim %q fails: %s", name, c.Text, c.Note)
			}
		}
	}
	for _, name := range []string{"exp-2", "fig-3", "fig-4"} {
		if !items[name].Agrees() {
			t.Errorf("%s disagrees with the paper: %+v", name, items[name])
		}
	}
}

// TestMcLaughlinWrite writes every item replayed under dcs twice: the same bytes, a CSV per item and a
// PNG per figure.
func TestMcLaughlinWrite(t *testing.T) {
	var dirs [2]string
	for i := range dirs {
		dirs[i] = t.TempDir()
		for _, r := range mclaughlinItems() {
			if _, _, err := r.Write(dirs[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range mclaughlinItems() {
		exts := []string{".csv"}
		if strings.HasPrefix(r.Name, "fig-") {
			exts = append(exts, ".png")
		}
		for _, ext := range exts {
			a, err := os.ReadFile(filepath.Join(dirs[0], r.Paper, r.Name+ext))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(dirs[1], r.Paper, r.Name+ext))
			if !bytes.Equal(a, b) {
				t.Errorf("%s%s differs between two runs", r.Key(), ext)
			}
		}
	}
}

// mclaughlinItems is the registry's items replayed under dcs.
func mclaughlinItems() []Reproduction {
	var out []Reproduction
	for _, r := range Reproductions() {
		if r.source != "" {
			out = append(out, r)
		}
	}
	return out
}
