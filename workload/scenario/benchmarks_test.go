package scenario

import (
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func TestBenchmarkScenarios(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     Options
		machine  string
		runtime  model.Time
		app      model.App
		computer string // a word the header's Computer names
	}{
		{"sweep3d", Options{Tasks: 2, Machines: 64}, "32x2", 217 * model.Second,
			model.App{Granularity: 3500 * model.Microsecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 4096}, "Crescendo"},
		{"sweep3d", Options{Tasks: 8, Machines: 1}, "1", 217 * model.Second,
			model.App{Granularity: 3500 * model.Microsecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 4096}, "Crescendo"},
		{"hori96-fib", Options{Tasks: 2, Machines: 8}, "8", 121500 * model.Millisecond,
			model.App{Pattern: model.PatternNone}, "SPARCstation"},
		{"hori96-rt", Options{Tasks: 2, Machines: 1}, "1", 4090 * model.Millisecond,
			model.App{Pattern: model.PatternNone}, "SPARCstation"},
		{"hori98-ep", Options{Tasks: 2, Machines: 64}, "64", 100 * model.Second,
			model.App{Pattern: model.PatternNone}, "RWC"},
		{"hori98-cg", Options{Tasks: 2, Machines: 16}, "16", 100 * model.Second,
			model.App{Granularity: 3163 * model.Microsecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 65536}, "RWC"},
		{"fm-bandwidth", Options{Tasks: 4, Machines: 16, MessageBytes: 1024}, "16", 600 * model.Second,
			model.App{Granularity: model.Microsecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 1024}, "ParPar"},
	} {
		tr, err := Build(tc.name, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Header.Machine().String(); got != tc.machine {
			t.Errorf("%s %+v: machine %s, want %s", tc.name, tc.opts, got, tc.machine)
		}
		if c, _ := tr.Header.Get(model.KeyComputer); !strings.Contains(c, tc.computer) {
			t.Errorf("%s: computer %q", tc.name, c)
		}
		if len(tr.Jobs) != tc.opts.Tasks {
			t.Fatalf("%s: %d jobs, want %d", tc.name, len(tr.Jobs), tc.opts.Tasks)
		}
		for _, j := range tr.Jobs {
			if j.Size() != tc.opts.Machines || j.Runtime != tc.runtime || j.Submit != 0 {
				t.Errorf("%s job %d: size %d, runtime %v, submit %v", tc.name, j.ID, j.Size(), j.Runtime, j.Submit)
			}
			if j.App.Granularity != tc.app.Granularity || j.App.Pattern != tc.app.Pattern || j.App.Comm != tc.app.Comm ||
				j.App.MessageBytes != tc.app.MessageBytes {
				t.Errorf("%s job %d: app %+v, want %+v", tc.name, j.ID, j.App, tc.app)
			}
		}
		if err := Validate(tr); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// hori96 Table 1, as printed.
	want := map[string][4]float64{"fib": {15.47, 77.7, 105.1, 121.5}, "rt": {4.09, 34.55, 35.56, 34.94}}
	for prog, row := range want {
		for i, n := range []int{1, 2, 4, 8} {
			if got := Hori96Runtimes()[prog][n].Seconds(); got != row[i] {
				t.Errorf("%s on %d: %v s, want %v", prog, n, got, row[i])
			}
		}
	}
}
