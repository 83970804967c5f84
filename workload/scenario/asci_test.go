package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestASCIPairs checks the workloads of thesis Table 6.6: two jobs on the
// first 49 of 50 PEs of Accelerando, in the column's order, with the
// stand-ins' programs and run times.
func TestASCIPairs(t *testing.T) {
	sage := func(j model.Job) bool {
		return j.Runtime == SageRuntime && j.App.Pattern == model.PatternBarrier && j.App.Comm == model.CommBlocking &&
			j.App.ComputePerIteration(0, ASCIProcs) == 2*model.Millisecond &&
			j.App.ComputePerIteration(ASCIProcs-1, ASCIProcs) == 21*model.Millisecond && j.App.MemPerProcKB == 520<<10
	}
	sweep := func(j model.Job) bool {
		return j.Runtime == Sweep3DAccelerandoRuntime && j.App.Pattern == model.PatternRing && j.App.Comm == model.CommBlocking &&
			j.App.Imbalance == 0 && j.App.Granularity == 2*model.Millisecond && j.App.MessageBytes == 4096 &&
			j.App.MemPerProcKB == 277<<10
	}
	for name, want := range map[string][2]func(model.Job) bool{
		"sage-pair": {sage, sage}, "sweep3d-pair": {sweep, sweep}, "sage-sweep3d": {sage, sweep},
	} {
		tr, err := Build(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m := tr.Header.Machine(); m.Nodes != 25 || m.PEsPerNode != 2 {
			t.Errorf("%s: machine %v, want 25x2", name, m)
		}
		if len(tr.Jobs) != 2 {
			t.Fatalf("%s: %d jobs", name, len(tr.Jobs))
		}
		for i, j := range tr.Jobs {
			if !want[i](j) || j.Size() != 49 || j.Submit != 0 || len(j.App.Pin) != 49 || j.App.Pin[48] != 48 || j.App.Priority != 0 {
				t.Errorf("%s job %d: %+v", name, j.ID, j)
			}
		}
	}
	// The means of Table 6.6's FCFS runs.
	ms := func(s float64) model.Time {
		return (model.FromSecondsFloat(s) + model.Millisecond/2) / model.Millisecond * model.Millisecond
	}
	if SageRuntime != ms((224+224+223)/3.0) || Sweep3DAccelerandoRuntime != ms((217+217+221)/3.0) {
		t.Errorf("run times %v, %v", SageRuntime, Sweep3DAccelerandoRuntime)
	}
}

// TestSageFiller checks the workload of Fig. 6.14: a prioritized SAGE on
// the given PEs and, with a length, a 100 ms filler on the same PEs.
func TestSageFiller(t *testing.T) {
	tr, err := Build("sage-filler", Options{Machines: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 1 || tr.Jobs[0].Runtime != 271*model.Second || tr.Jobs[0].App.Priority <= 0 || tr.Jobs[0].Size() != 7 {
		t.Errorf("SAGE alone: %+v", tr.Jobs)
	}
	if m := tr.Header.Machine(); m.Nodes != 4 || m.PEsPerNode != 2 {
		t.Errorf("machine %v, want 4x2", m)
	}
	tr, err = Build("sage-filler", Options{Machines: 62, TaskLength: 58 * model.Second})
	if err != nil {
		t.Fatal(err)
	}
	f := tr.Jobs[1]
	if len(tr.Jobs) != 2 || f.Runtime != 58*model.Second || f.App.Priority != 0 || f.App.Granularity != 100*model.Millisecond ||
		f.App.Pattern != model.PatternRing || f.Size() != 62 || f.App.Pin[61] != 61 {
		t.Errorf("filler: %+v", f)
	}
	if err := Validate(tr); err != nil {
		t.Error(err)
	}
}

// TestBCSMPIBench checks the benchmark of Fig. 5.6 on Crescendo.
func TestBCSMPIBench(t *testing.T) {
	tr, err := Build("bcs-mpi-bench", Options{Machines: 62, TaskLength: 20 * model.Second})
	if err != nil {
		t.Fatal(err)
	}
	j := tr.Jobs[0]
	if len(tr.Jobs) != 1 || j.Size() != 62 || j.Runtime != 20*model.Second || j.App.Granularity != 10*model.Millisecond ||
		j.App.Pattern != model.PatternBarrier || j.App.Comm != model.CommBlocking {
		t.Errorf("benchmark: %+v", tr.Jobs)
	}
	if c, _ := tr.Header.Get(model.KeyComputer); !strings.Contains(c, "Crescendo") || tr.Header.Machine().Procs() != 62 {
		t.Errorf("machine: %q, %v", c, tr.Header.Machine())
	}
}

func TestSizedErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    Options
		mention string
	}{
		{"sage-filler", Options{}, "machines (processes) = 0, want 1 to 64"},
		{"sage-filler", Options{Machines: 8, TaskLength: -1}, "want 0 (no filler) or a positive time"},
		{"bcs-mpi-bench", Options{Machines: 65, TaskLength: model.Second}, "want 1 to 64"},
		{"bcs-mpi-bench", Options{Machines: 8}, "task length (the run time) = 0s, want a positive time"},
		{"bcs-mpi-bench", Options{Machines: 8, TaskLength: model.Second, Tasks: 2}, "tasks = 2 given"},
		{"sage-pair", Options{Machines: 8}, "apply only to"},
	} {
		_, err := Build(tc.name, tc.opts)
		if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("Build(%s, %+v) = %v, want a mention of %q", tc.name, tc.opts, err, tc.mention)
		}
	}
}
