package pipelines

import (
	"encoding/json"
	"strings"
	"testing"
)

func raw(s ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(s))
	for i, v := range s {
		out[i] = json.RawMessage(v)
	}
	return out
}

func TestExpand(t *testing.T) {
	base := json.RawMessage(`{"replay": {"policy": "fcfs", "procs": 32}, "workload": {"seed": 1}}`)
	runs, points, err := Expand(base, []Axis{
		{Name: "policy", Set: "replay.policy", Values: raw(`"fcfs"`, `"easy"`)},
		{Name: "load", Set: "workload.load.target", Values: raw(`0.5`, `0.95`, `1e0`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"replay":{"policy":"fcfs","procs":32},"workload":{"load":{"target":0.5},"seed":1}}`,
		`{"replay":{"policy":"fcfs","procs":32},"workload":{"load":{"target":0.95},"seed":1}}`,
		`{"replay":{"policy":"fcfs","procs":32},"workload":{"load":{"target":1e0},"seed":1}}`,
		`{"replay":{"policy":"easy","procs":32},"workload":{"load":{"target":0.5},"seed":1}}`,
		`{"replay":{"policy":"easy","procs":32},"workload":{"load":{"target":0.95},"seed":1}}`,
		`{"replay":{"policy":"easy","procs":32},"workload":{"load":{"target":1e0},"seed":1}}`,
	}
	if len(runs) != len(want) {
		t.Fatalf("%d runs, want %d", len(runs), len(want))
	}
	for i := range want {
		if string(runs[i]) != want[i] {
			t.Errorf("run %d:\n got %s\nwant %s", i, runs[i], want[i])
		}
	}
	if p := points[4]; p.Text("policy") != "easy" || p.Text("load") != "0.95" || p.Text("seed") != "" {
		t.Errorf("point 4 = %v", p)
	}
	one, _, err := Expand(base, nil)
	if err != nil || len(one) != 1 || !strings.Contains(string(one[0]), `"procs":32`) {
		t.Errorf("no axes: %s, %v", one, err)
	}
}

func TestExpandErrors(t *testing.T) {
	base := json.RawMessage(`{"replay": {"policy": "fcfs"}}`)
	for _, tt := range []struct {
		axes []Axis
		err  string
	}{
		{[]Axis{{Name: "p", Set: "replay.policy.name", Values: raw(`1`)}}, `grid axis "p": path "replay.policy.name": "replay.policy" is not an object`},
		{[]Axis{{Name: "p", Set: "x", Values: nil}}, `grid axis "p" has no values`},
		{[]Axis{{Name: "p", Set: "x", Values: raw(`1`)}, {Name: "p", Set: "y", Values: raw(`2`)}}, `grid axis "p" appears twice`},
		{[]Axis{{Set: "x", Values: raw(`1`)}}, `grid axis 1: needs a name and a path to set`},
		{[]Axis{{Name: "p", Set: "x", Values: raw(`{`)}}, `grid axis "p" value 1: unexpected EOF`},
	} {
		if _, _, err := Expand(base, tt.axes); err == nil || err.Error() != tt.err {
			t.Errorf("%+v: %v, want %s", tt.axes, err, tt.err)
		}
	}
	if _, _, err := Expand(json.RawMessage(`[1]`), nil); err == nil {
		t.Error("array base accepted")
	}
}

// TestExpandParams: an axis whose path ends in ":KEY" sets one parameter
// of the policy string, after the axes that set whole values whatever the
// order, in place when the key is there.
func TestExpandParams(t *testing.T) {
	base := json.RawMessage(`{"replay": {"policy": "gs:mpl=6,backfill=easy"}}`)
	runs, points, err := Expand(base, []Axis{
		{Name: "mpl", Set: "replay.policy:mpl", Values: raw(`1`, `2`)},
		{Name: "policy", Set: "replay.policy", Values: raw(`"gs"`, `"fcs:backfill=none"`)},
		{Name: "quantum", Set: "replay.policy:quantum", Values: raw(`0.05`, `"2s"`)},
		{Name: "alternate", Set: "replay.policy:alternate", Values: raw(`true`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"replay":{"policy":"gs:mpl=1,quantum=0.05,alternate=true"}}`,
		`{"replay":{"policy":"gs:mpl=1,quantum=2s,alternate=true"}}`,
		`{"replay":{"policy":"fcs:backfill=none,mpl=1,quantum=0.05,alternate=true"}}`,
		`{"replay":{"policy":"fcs:backfill=none,mpl=1,quantum=2s,alternate=true"}}`,
		`{"replay":{"policy":"gs:mpl=2,quantum=0.05,alternate=true"}}`,
		`{"replay":{"policy":"gs:mpl=2,quantum=2s,alternate=true"}}`,
		`{"replay":{"policy":"fcs:backfill=none,mpl=2,quantum=0.05,alternate=true"}}`,
		`{"replay":{"policy":"fcs:backfill=none,mpl=2,quantum=2s,alternate=true"}}`,
	}
	if len(runs) != len(want) {
		t.Fatalf("%d runs, want %d", len(runs), len(want))
	}
	for i := range want {
		if string(runs[i]) != want[i] {
			t.Errorf("run %d:\n got %s\nwant %s", i, runs[i], want[i])
		}
	}
	if p := points[3]; p.Text("mpl") != "1" || p.Text("quantum") != "2s" || p.Text("policy") != "fcs:backfill=none" {
		t.Errorf("point 3 = %v", p)
	}
	// In place: the base's mpl=6 becomes 3 where it stands.
	runs, _, err = Expand(base, []Axis{{Name: "mpl", Set: "replay.policy:mpl", Values: raw(`3`)}})
	if err != nil || string(runs[0]) != `{"replay":{"policy":"gs:mpl=3,backfill=easy"}}` {
		t.Errorf("in place: %s, %v", runs, err)
	}
	for _, tt := range []struct {
		axis Axis
		err  string
	}{
		{Axis{Name: "m", Set: "replay.mpl:mpl", Values: raw(`1`)}, `grid axis "m": path "replay.mpl:mpl": "replay.mpl" is not a policy string to set a parameter of`},
		{Axis{Name: "m", Set: "run.policy:mpl", Values: raw(`1`)}, `grid axis "m": path "run.policy:mpl": "run" is not an object`},
		{Axis{Name: "m", Set: "replay.policy:mpl", Values: raw(`[1]`)}, `grid axis "m": path "replay.policy:mpl": parameter mpl: want a number, a string or a boolean`},
		{Axis{Name: "m", Set: "replay.policy:mpl", Values: raw(`"1,alloc=dhc"`)}, `grid axis "m": path "replay.policy:mpl": parameter "mpl"="1,alloc=dhc" cannot be written into a policy string`},
		{Axis{Name: "m", Set: "replay.policy:", Values: raw(`1`)}, `grid axis "m": path "replay.policy:": parameter ""="1" cannot be written into a policy string`},
	} {
		if _, _, err := Expand(base, []Axis{tt.axis}); err == nil || err.Error() != tt.err {
			t.Errorf("%+v: %v, want %s", tt.axis, err, tt.err)
		}
	}
}
