package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/cli"
)

// TestGangUsageErrors: bad gang-scheduling parameters and hardware that
// cannot be charged are usage errors (exit 2) that say what is wrong.
func TestGangUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "gs:mpl=0"}, "mpl=\"0\": want an integer from 1 to 64"},
		{[]string{"--policy", "gs:quantum=-1s"}, "quantum: duration \"-1s\" is negative"},
		{[]string{"--policy", "gs:quantum=0"}, "quantum=\"0\": want at least 0.000001s"},
		{[]string{"--policy", "gs:alloc=buddy"}, "alloc=\"buddy\": want ff, firstfit or dhc"},
		{[]string{"--policy", "gs:backfill=conservative"}, "backfill=\"conservative\": want none or easy"},
		{[]string{"--policy", "gs:slices=3"}, "policy gs has no parameter \"slices\""},
		{[]string{"--policy", "gs", "--hw", "crescendo", "--mechanism", "division"}, "unknown model variant \"division\" for qsnet"},
		{[]string{"--policy", "gs", "--hw", "cray-1"}, "unknown preset \"cray-1\""},
		{[]string{"--policy", "gs", "--mechanism", "voluntary"}, "mechanism \"voluntary\" without a hardware preset"},
	} {
		_, _, err := replayCmd(t, strings.NewReader(""), tc.args...)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
	// Found once the machine is known, before anything runs: still usage
	// errors, not failures of the run.
	trace := twoJobTrace(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "gs:mpl=2,quantum=10ms", "--hw", "parpar", "--mechanism", "switching-full"}, "every gang switch on parpar (myrinet, switching-full) costs at least 0.080447s, no shorter than the quantum"},
		{[]string{"--policy", "dcs", "--hw", "crescendo"}, "only the calypso family models"},
		{[]string{"--policy", "dcs:mode=rr,quantum=1s", "--hw", "calypso-nt"}, "a distributed context switch costs 1.6s on calypso-nt"},
	} {
		args := append(tc.args, trace, "-o", filepath.Join(t.TempDir(), "out.csv"))
		_, _, err := replayCmd(t, nil, args...)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
}

// twoJobTrace writes two 4-processor jobs of 10 s on 4 processors, both
// submitted at 0, and returns the file's name.
func twoJobTrace(t *testing.T) string {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "two.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 4\n1 0 -1 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return trace
}

// TestGangFreeSwitchesSummary: without --hw the summary of a policy that
// switches jobs says its switches are free; a batch policy's says nothing
// of switches.
func TestGangFreeSwitchesSummary(t *testing.T) {
	trace := twoJobTrace(t)
	for _, tc := range []struct {
		policy string
		free   bool
	}{{"gs:mpl=2", true}, {"easy", false}} {
		_, stderr, err := replayCmd(t, nil, "--policy", tc.policy, trace, "-o", filepath.Join(t.TempDir(), "out.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(stderr, "switches free (no hardware model: --hw)"); got != tc.free {
			t.Errorf("%s: summary %q says switches are free: %v, want %v", tc.policy, stderr, got, tc.free)
		}
	}
}

// TestEditedPresetManifest: a preset file is recorded by its path and
// whether its JSON is an embedded preset's (hw_edited), beside its name
// and digest, and the summary says so.
func TestEditedPresetManifest(t *testing.T) {
	trace := twoJobTrace(t)
	dir := t.TempDir()
	orig, _, err := replayCmd(t, nil, "hw", "preset", "crescendo")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(orig, `"refill_penalty_us": 0,`, `"refill_penalty_us": 500,`, 1)
	if edited == orig {
		t.Fatal("the crescendo preset has no refill_penalty_us of 0 to edit")
	}
	for _, tc := range []struct {
		name, json, edited string
	}{{"copy.json", orig, "false"}, {"edited.json", edited, "true"}} {
		file := filepath.Join(dir, tc.name)
		if err := os.WriteFile(file, []byte(tc.json), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out-"+tc.name+".csv")
		_, stderr, err := replayCmd(t, nil, "--policy", "gs:mpl=2", "--hw", file, trace, "-o", out)
		if err != nil {
			t.Fatal(err)
		}
		word := map[string]string{"false": "unedited", "true": "edited"}[tc.edited]
		if !strings.Contains(stderr, "charged by crescendo (qsnet, es40) from "+file+" ("+word+")") {
			t.Errorf("%s: summary %s", tc.name, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"GangsimParam: hw=crescendo\n", "GangsimParam: hw_file=" + file + "\n", "GangsimParam: hw_edited=" + tc.edited + "\n", "GangsimParam: hw_sha256="} {
			if !strings.Contains(string(data), want) {
				t.Errorf("%s: the outcomes' manifest lacks %q", tc.name, want)
			}
		}
	}
}

// TestGangReplay replays a small workload under gang scheduling charged by
// a hardware preset: the summary and the manifest name the preset and the
// mechanism, and two jobs that share the machine are switched.
func TestGangReplay(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "two.swf")
	// Two 4-processor jobs of 10 s on 4 processors, both submitted at 0.
	os.WriteFile(trace, []byte("; MaxProcs: 4\n1 0 -1 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	_, stderr, err := replayCmd(t, nil, "--policy", "gs:mpl=2,quantum=1s", "--hw", "rwc-pc2", "--mechanism", "voluntary", trace, "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	// Each job is alone half the time: the time-sharing bounded slowdown
	// is 2, a little more with the switches.
	if !strings.Contains(stderr, "gs:mpl=2,quantum=1s on 4, charged by rwc-pc2 (pm, voluntary): 2 jobs (0 rejected)") ||
		!strings.Contains(stderr, "mean time-sharing bounded slowdown 2.0") {
		t.Errorf("summary: %s", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GangsimParam: hw=rwc-pc2", "GangsimParam: mechanism=voluntary", "GangsimParam: hw_sha256="} {
		if !strings.Contains(string(data), want) {
			t.Errorf("outcomes' manifest lacks %q", want)
		}
	}
}
