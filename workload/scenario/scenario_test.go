package scenario

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// optionsFor returns valid options for every scenario.
func optionsFor(name string) Options {
	switch name {
	case "calypso":
		return Options{Tasks: 7, Machines: 5, TaskLength: 100 * model.Second}
	case "fm-bandwidth":
		return Options{Tasks: 3, Machines: 16, MessageBytes: 4096}
	case "hori96-fib", "hori96-rt", "hori98-cg", "hori98-ep", "sweep3d":
		return Options{Tasks: 2, Machines: 8}
	case "sage-filler", "bcs-mpi-bench":
		return Options{Machines: 7, TaskLength: 30 * model.Second}
	}
	return Options{}
}

func TestList(t *testing.T) {
	want := []string{"balanced", "bcs-mpi-bench", "calypso", "calypso-3on2", "calypso-5on3", "complementing", "fm-bandwidth",
		"hori96-fib", "hori96-rt", "hori98-cg", "hori98-ep", "imbalanced", "mixed", "sage-filler", "sage-pair", "sage-sweep3d",
		"sweep3d", "sweep3d-pair"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
	for i, in := range List() {
		if in.Name != want[i] {
			t.Errorf("List()[%d].Name = %q, want %q", i, in.Name, want[i])
		}
		if in.Description == "" || in.Source == "" {
			t.Errorf("%s: empty description or source: %+v", in.Name, in)
		}
	}
}

func TestEveryScenarioBuildsAndValidates(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			tr, err := Build(name, optionsFor(name))
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(tr); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if len(tr.Jobs) == 0 {
				t.Fatal("no jobs")
			}
			n, _ := tr.Header.Int(model.KeyMaxJobs)
			if int(n) != len(tr.Jobs) {
				t.Errorf("MaxJobs %d for %d jobs", n, len(tr.Jobs))
			}
			if !tr.Header.Machine().Valid() {
				t.Errorf("header gives no machine: %+v", tr.Header)
			}
			notes := 0
			for _, l := range tr.Header.Lines {
				if l.Key == model.KeyNote {
					notes++
				}
			}
			if notes == 0 {
				t.Error("header has no note citing the source")
			}
			for i, j := range tr.Jobs {
				if j.ID != int64(i+1) || j.Submit != 0 || !j.Has(model.FieldSubmit) || j.Status != model.StatusCompleted {
					t.Errorf("job %d: ID %d, submit %s (known %v), status %s; want ID %d submitted at 0, completed",
						i, j.ID, j.Submit, j.Has(model.FieldSubmit), j.Status, i+1)
				}
				if j.AllocProcs != j.ReqProcs {
					t.Errorf("job %d: allocated %d, requested %d", j.ID, j.AllocProcs, j.ReqProcs)
				}
			}
		})
	}
}

// TestDeterminism builds every scenario twice and compares the traces,
// and checks that the second build shares no memory with the first.
func TestDeterminism(t *testing.T) {
	for _, name := range Names() {
		a, err := Build(name, optionsFor(name))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Build(name, optionsFor(name))
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two builds differ", name)
		}
		for i := range a.Jobs {
			if len(a.Jobs[i].App.Pin) > 0 {
				a.Jobs[i].App.Pin[0] = 99
			}
			if len(a.Jobs[i].App.ProcCompute) > 0 {
				a.Jobs[i].App.ProcCompute[0] = 1
			}
		}
		c, _ := Build(name, optionsFor(name))
		if !reflect.DeepEqual(b, c) {
			t.Errorf("%s: changing one build changed another", name)
		}
	}
}

func TestCommOption(t *testing.T) {
	for _, name := range []string{"balanced", "imbalanced", "complementing", "mixed"} {
		for _, tc := range []struct {
			opt, want model.Comm
		}{
			{model.CommUnspecified, model.CommBlocking},
			{model.CommBlocking, model.CommBlocking},
			{model.CommNonBlocking, model.CommNonBlocking},
		} {
			tr, err := Build(name, Options{Comm: tc.opt})
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range tr.Jobs {
				want := tc.want
				if j.App.Pattern == model.PatternNone {
					want = model.CommUnspecified // complementing's fillers do not communicate
				}
				if j.App.Comm != want {
					t.Errorf("%s with comm %q: job %d comm %q, want %q", name, tc.opt, j.ID, j.App.Comm, want)
				}
			}
			if !strings.Contains(noteText(tr), tc.want.String()+" communication") {
				t.Errorf("%s with comm %q: notes do not say %q", name, tc.opt, tc.want)
			}
		}
	}
}

func noteText(tr *model.Trace) string {
	var b strings.Builder
	for _, l := range tr.Header.Lines {
		if l.Key == model.KeyNote {
			b.WriteString(l.Value + "\n")
		}
	}
	return b.String()
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		sentinel error
		mention  []string // substrings the message must contain
	}{
		{"gang", Options{}, ErrUnknownScenario,
			[]string{`"gang"`, "balanced, bcs-mpi-bench, calypso, calypso-3on2, calypso-5on3, complementing, fm-bandwidth, hori96-fib, hori96-rt, hori98-cg, hori98-ep, imbalanced, mixed, sage-filler, sage-pair, sage-sweep3d, sweep3d, sweep3d-pair"}},
		{"", Options{}, ErrUnknownScenario, []string{`""`}},
		{"calypso", Options{}, ErrInvalidOptions,
			[]string{"tasks = 0, want 1 to 65536", "machines = 0, want 1 to 65536", "task length = 0s, want a positive time"}},
		{"calypso", Options{Tasks: 3, Machines: 2, TaskLength: -model.Second}, ErrInvalidOptions,
			[]string{"task length = -1s"}},
		{"calypso", Options{Tasks: -1, Machines: 2, TaskLength: model.Second}, ErrInvalidOptions,
			[]string{"tasks = -1"}},
		{"calypso", Options{Tasks: 3, Machines: MaxCalypsoSize + 1, TaskLength: model.Second}, ErrInvalidOptions,
			[]string{"machines = 65537"}},
		{"calypso", Options{Tasks: 3, Machines: 2, TaskLength: model.Second, Comm: model.CommBlocking}, ErrInvalidOptions,
			[]string{"do not communicate"}},
		{"calypso-3on2", Options{Tasks: 3}, ErrInvalidOptions,
			[]string{"apply only to scenario calypso and the benchmark scenarios (calypso-3on2 fixes them)"}},
		{"calypso-5on3", Options{Comm: model.CommNonBlocking}, ErrInvalidOptions,
			[]string{"non-blocking"}},
		{"balanced", Options{Machines: 4}, ErrInvalidOptions,
			[]string{"apply only to scenario calypso and the benchmark scenarios; got tasks = 0, machines = 4"}},
		{"sweep3d", Options{}, ErrInvalidOptions,
			[]string{"tasks (copies) = 0, want 1 to 64", "machines (processors) = 0, want 1 to 65536"}},
		{"sweep3d", Options{Tasks: 65, Machines: 64, TaskLength: model.Second}, ErrInvalidOptions,
			[]string{"tasks (copies) = 65", "task length = 1s given, but sweep3d fixes its run time"}},
		{"hori96-rt", Options{Tasks: 2, Machines: 3}, ErrInvalidOptions,
			[]string{"machines = 3, want 1, 2, 4 or 8 (hori96 Table 1)"}},
		{"hori98-cg", Options{Tasks: 2, Machines: 8, Comm: model.CommNonBlocking}, ErrInvalidOptions,
			[]string{"hori98-cg fixes its program's communication"}},
		{"fm-bandwidth", Options{Tasks: 2, Machines: 16}, ErrInvalidOptions,
			[]string{"message size = 0 bytes, want a positive size"}},
		{"hori98-ep", Options{Tasks: 2, Machines: 8, MessageBytes: 16}, ErrInvalidOptions,
			[]string{"applies only to scenario fm-bandwidth; got 16 bytes"}},
		{"mixed", Options{Comm: model.Comm(9)}, ErrInvalidOptions,
			[]string{"comm(9) is not blocking or non-blocking"}},
	}
	for _, tc := range tests {
		tr, err := Build(tc.name, tc.opts)
		if !errors.Is(err, tc.sentinel) {
			t.Errorf("Build(%q, %+v) = %v, want %v", tc.name, tc.opts, err, tc.sentinel)
			continue
		}
		if tr != nil {
			t.Errorf("Build(%q, %+v) returned a trace with its error", tc.name, tc.opts)
		}
		for _, m := range tc.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("Build(%q, %+v) error %q does not mention %q", tc.name, tc.opts, err, m)
			}
		}
		if !strings.HasPrefix(err.Error(), "scenario") {
			t.Errorf("error %q lacks the package prefix", err)
		}
	}
}

func TestParams(t *testing.T) {
	tests := []struct {
		opts Options
		want []model.Param
	}{
		{Options{}, nil},
		{Options{Comm: model.CommNonBlocking}, []model.Param{{Name: "comm", Value: "non-blocking"}}},
		{Options{Tasks: 5, Machines: 3, TaskLength: 159500 * model.Millisecond}, []model.Param{
			{Name: "machines", Value: "3"}, {Name: "task-length", Value: "159.5s"}, {Name: "tasks", Value: "5"}}},
		{Options{Comm: model.CommBlocking, Tasks: 1}, []model.Param{
			{Name: "comm", Value: "blocking"}, {Name: "tasks", Value: "1"}}},
	}
	for _, tc := range tests {
		got := tc.opts.Params()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v.Params() = %v, want %v", tc.opts, got, tc.want)
		}
		if !slices.IsSortedFunc(got, func(a, b model.Param) int { return strings.Compare(a.Name, b.Name) }) {
			t.Errorf("%+v.Params() not sorted by name", tc.opts)
		}
	}
}

// TestValidateCatches breaks a valid scenario in each way Validate guards
// against and checks that the message names the problem.
func TestValidateCatches(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(tr *model.Trace)
		want   string
	}{
		{"pin count", func(tr *model.Trace) { tr.Jobs[0].App.Pin = []int{0, 1, 2} }, "job 1: 3 pinned processors for 4 processes"},
		{"compute count", func(tr *model.Trace) { tr.Jobs[1].App.ProcCompute = tr.Jobs[1].App.ProcCompute[:2] }, "job 2: 2 per-process compute times for 4 processes"},
		{"pin outside", func(tr *model.Trace) { tr.Jobs[0].App.Pin[3] = 4 }, "job 1: process 3 pinned to processor 4 outside [0, 4)"},
		{"pin negative", func(tr *model.Trace) { tr.Jobs[0].App.Pin[0] = -1 }, "job 1: process 0 pinned to processor -1"},
		{"same PE twice", func(tr *model.Trace) { tr.Jobs[1].App.Pin[2] = 0 }, "job 2: processes 0 and 2 both pinned to processor 0"},
		{"granularity", func(tr *model.Trace) { tr.Jobs[0].App.Granularity = 6 * model.Millisecond }, "granularity 0.006s is not the fastest process's compute time 0.003s"},
		{"zero compute", func(tr *model.Trace) { tr.Jobs[0].App.ProcCompute[1] = 0 }, "per-process compute time 0s not positive"},
		{"size", func(tr *model.Trace) { tr.Jobs[0].AllocProcs, tr.Jobs[0].ReqProcs = 8, 8 }, "job 1: size 8 outside [1, 4]"},
		{"duplicate ID", func(tr *model.Trace) { tr.Jobs[1].ID = 1 }, "job 1: job number repeated"},
		{"runtime", func(tr *model.Trace) { tr.Jobs[1].Runtime = 0 }, "job 2: run time missing or not positive"},
		{"submit", func(tr *model.Trace) { tr.Jobs[0].Submit = -model.Second }, "job 1: negative submit time -1s"},
		{"header", func(tr *model.Trace) { tr.Header.Delete(model.KeyMaxProcs) }, "MaxProcs missing"},
		{"pattern", func(tr *model.Trace) { tr.Jobs[0].App.Pattern = 9 }, "unknown communication pattern"},
		{"comm", func(tr *model.Trace) { tr.Jobs[0].App.Comm = 9 }, "unknown communication mode"},
	}
	for _, tc := range tests {
		tr, err := Build("imbalanced", Options{})
		if err != nil {
			t.Fatal(err)
		}
		tc.mutate(tr)
		err = Validate(tr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate = %v, want a message containing %q", tc.name, err, tc.want)
		}
	}
}
