package policies

import (
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// stormRun replays jobs on procs processors under the policy spec with
// hw's costs (a preset name, or "" for none) and returns the outcomes by job.
func stormRun(t *testing.T, spec, hw string, procs int, jobs ...model.Job) map[int64]model.Outcome {
	t.Helper()
	s, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Machine: model.FlatMachine(procs)}
	if hw != "" {
		env.Hardware = presetHardware(t, hw, "")
	}
	pol, err := New(s, env)
	if err != nil {
		t.Fatal(err)
	}
	var out model.OutcomeList
	if err := sim.New(sim.Config{Machine: env.Machine}, pol).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &out, nil); err != nil {
		t.Fatal(err)
	}
	return out.ByID()
}

func stormJob(id int64, submit, run model.Time, procs int) model.Job {
	return model.Job{ID: id, Submit: submit, Runtime: run, AllocProcs: procs, Estimate: run, Known: model.AllFields}
}

const ms = model.Millisecond

// TestStormDefaults: STORM's mechanics are on by default on a STORM
// cluster's hardware and off otherwise, and each switch overrides the
// storm default.
func TestStormDefaults(t *testing.T) {
	for _, tc := range []struct {
		params Params
		hw     string
		want   Storm
	}{
		{Params{}, "", Storm{}},
		{Params{}, "crescendo", Storm{Tick: true, Launch: true, Keep: true}},
		{Params{}, "parpar", Storm{}},
		{Params{"storm": "off"}, "crescendo", Storm{}},
		{Params{"storm": "on"}, "", Storm{Tick: true, Launch: true, Keep: true}},
		{Params{"launch": "false"}, "accelerando", Storm{Tick: true, Keep: true}},
		{Params{"storm": "off", "keep": "true", "binary": "1000"}, "crescendo", Storm{Keep: true, BinaryBytes: 1000}},
	} {
		env := Env{Machine: model.FlatMachine(4)}
		if tc.hw != "" {
			env.Hardware = presetHardware(t, tc.hw, "")
		}
		got, err := stormConfig(tc.params, env)
		if err != nil || got != tc.want {
			t.Errorf("%v on %q: %+v, %v; want %+v", tc.params, tc.hw, got, err, tc.want)
		}
	}
	if _, err := stormConfig(Params{"storm": "yes"}, Env{}); err == nil || !strings.Contains(err.Error(), "want on or off") {
		t.Errorf("storm=yes: %v", err)
	}
}

// TestStormTickAndNotice: with the machine manager's heartbeats every
// 100 ms, a job submitted at 50 ms is placed at 100 ms, and its processes,
// ending at 1.13 s, are noticed (it ends, freeing its processors) at
// 1.2 s; the job waiting for them is placed then, and its end, on a
// heartbeat, noticed at once.
func TestStormTickAndNotice(t *testing.T) {
	out := stormRun(t, "gs:mpl=1,tick=true", "", 4,
		stormJob(1, 50*ms, 1030*ms, 4), stormJob(2, 60*ms, 500*ms, 4))
	if o := out[1]; o.Start != 100*ms || o.End != 1200*ms {
		t.Errorf("job 1: start %v end %v, want 100ms and 1.2s", o.Start, o.End)
	}
	if o := out[2]; o.Start != 1200*ms || o.End != 1700*ms {
		t.Errorf("job 2: start %v end %v, want 1.2s and 1.7s (a heartbeat)", o.Start, o.End)
	}
	// Off: at once.
	out = stormRun(t, "gs:mpl=1", "", 4, stormJob(1, 50*ms, 1030*ms, 4), stormJob(2, 60*ms, 500*ms, 4))
	if out[1].Start != 50*ms || out[1].End != 1080*ms || out[2].Start != 1080*ms {
		t.Errorf("without tick: %+v %+v", out[1], out[2])
	}
}

// TestStormLaunch: on Crescendo (T_exec 10 ms, thesis 4.3.2.1) a job
// placed at a heartbeat has its binary sent by the next one (100 ms on)
// and its processes run from 10 ms after that; a 40 MB binary at 131 MiB/s
// (Eq. 4.8) takes 291 ms, so the launch ends at the heartbeat after it.
// Without tick the launch is placement + transfer + T_exec.
func TestStormLaunch(t *testing.T) {
	for _, tc := range []struct {
		spec     string
		start    model.Time
		end      model.Time
		describe string
	}{
		{"gs:mpl=1,storm=on", 0, 1200 * ms, "ready at 110 ms, done at 1.11 s, noticed at 1.2 s"},
		{"gs:mpl=1,storm=on,binary=40000000", 0, 1400 * ms, "transfer 291 ms: ready at 310 ms, done at 1.31 s, noticed at 1.4 s"},
		{"gs:mpl=1,storm=off,launch=true", 0, 1010 * ms, "ready at 10 ms (no binary, no heartbeat)"},
		{"gs:mpl=1,storm=on,launch=false", 0, 1000 * ms, "at once, done on a heartbeat"},
	} {
		out := stormRun(t, tc.spec, "crescendo", 64, stormJob(1, 0, 1000*ms, 64))
		if o := out[1]; o.Start != tc.start || o.End != tc.end {
			t.Errorf("%s: start %v end %v, want %v and %v (%s)", tc.spec, o.Start, o.End, tc.start, tc.end, tc.describe)
		}
	}
	// At process level alike (every process of a 4-process job without
	// communication computes alone).
	out := stormRun(t, "gs:mpl=1,storm=on,level=process", "crescendo", 4, stormJob(1, 0, 1000*ms, 4))
	if o := out[1]; o.Start != 0 || o.End != 1200*ms {
		t.Errorf("process level: start %v end %v, want 0 and 1.2s", o.Start, o.End)
	}
}

// TestStormKeep: the node managers' rule. On 4 processors at MPL 2, A (2
// processors) and C (2) share row 0, B (2, on A's processors) is row 1.
// With keep C's processors are free in row 1, so C runs on through B's
// slots and ends after its run time; A and B alternate. Without keep C
// runs only in row 0's slots, about twice as long.
func TestStormKeep(t *testing.T) {
	jobs := []model.Job{stormJob(1, 0, 2000*ms, 2), stormJob(2, 0, 2000*ms, 2), stormJob(3, 0, 2000*ms, 2)}
	// First fit: A and B fill row 0 (processors 0-1 and 2-3), C goes to
	// row 1 on processors 0-1; so here B plays the part of "C".
	keep := stormRun(t, "gs:mpl=2,quantum=100ms,keep=true", "", 4, jobs...)
	off := stormRun(t, "gs:mpl=2,quantum=100ms", "", 4, jobs...)
	if keep[2].End != 2000*ms || keep[2].Switches != 0 {
		t.Errorf("keep: B ends at %v after %d switches, want 2s and none (it runs on through row 1's slots)", keep[2].End, keep[2].Switches)
	}
	if off[2].End < 3900*ms {
		t.Errorf("without keep: B ends at %v, want about 4s", off[2].End)
	}
	for _, id := range []int64{1, 3} {
		if keep[id] != off[id] {
			t.Errorf("job %d: keep %+v, without %+v: A and C alternate either way", id, keep[id], off[id])
		}
	}
	// A job that loses any processor stops whole: C (processors 0-1 in
	// row 1) does not run on in row 0's slots, where A holds them.
	if keep[3].End < 3900*ms {
		t.Errorf("keep: C ends at %v, want about 4s", keep[3].End)
	}
}
