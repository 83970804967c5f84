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
		{[]string{"--policy", "gs:alloc=buddy"}, "alloc=\"buddy\": want ff or dhc"},
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
