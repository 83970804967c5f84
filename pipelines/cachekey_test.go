package pipelines

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/shared"
	"github.com/gangsim/gangsim/internal/version"
)

// keyTrace is a small trace: 64 processors, jobs that overlap, so that gang
// scheduling switches them and a hardware preset's switch cost shows.
func keyTrace(extra string) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "%d %d -1 %d 32 -1 -1 32 %d -1 1 1 1 -1 1 -1 -1 -1\n", i, i*20, 300+i*7, 600+i*7)
	}
	b.WriteString(extra)
	return b.String()
}

// TestCacheKeyCoversEveryInput: a run is made again when any of what decides
// its outputs changes (the trace's bytes, an edited hardware preset file,
// the run's description, the code), and found in the cache when nothing
// did. Before, the key held neither the preset file nor the code: an edited
// preset returned the old run's numbers.
func TestCacheKeyCoversEveryInput(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.swf")
	preset := filepath.Join(dir, "my.json")
	os.WriteFile(trace, []byte(keyTrace("")), 0o644)
	crescendo, err := os.ReadFile("../hwmodel/qsnet/presets/crescendo.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(preset, crescendo, 0o644)
	run, err := ParseRun([]byte(fmt.Sprintf(`{"workload": {"source": {"trace": {"path": %q}}},
		"replay": {"policy": "gs:mpl=2,quantum=50ms", "hw": %q}}`, trace, preset)))
	if err != nil {
		t.Fatal(err)
	}
	s := &Sweep{Cache: &Cache{Dir: filepath.Join(dir, "cache")}, Workers: 1}
	do := func(what string, wantCached bool) *Finished {
		t.Helper()
		f, err := s.Do([]*Run{run}, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if f[0].Cached != wantCached {
			t.Errorf("%s: cached %v, want %v", what, f[0].Cached, wantCached)
		}
		return f[0]
	}
	meanResponse := func(f *Finished) float64 {
		o, _, err := f.Outcomes()
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, x := range o {
			sum += x.Response().Seconds()
		}
		return sum / float64(len(o))
	}

	first := do("the first sweep", false)
	do("the same run again", true)
	if first.Info.Code != version.Code() || first.Info.Revision == "" {
		t.Errorf("run.json: code %q, revision %q", first.Info.Code, first.Info.Revision)
	}
	before := meanResponse(first)

	// The preset file edited as the researcher did: every switch
	// now costs a cache refill.
	os.WriteFile(preset, bytes.Replace(crescendo, []byte(`"refill_penalty_us": 0`), []byte(`"refill_penalty_us": 20000`), 1), 0o644)
	edited := do("an edited hardware preset", false)
	if after := meanResponse(edited); after <= before {
		t.Errorf("mean response %v with a 20 ms refill, %v without: the edit did not reach the run", after, before)
	}
	do("the edited preset again", true)

	os.WriteFile(trace, []byte(keyTrace("41 900 -1 100 8 -1 -1 8 200 -1 1 1 1 -1 1 -1 -1 -1\n")), 0o644)
	if f := do("an edited trace", false); f.Info.Jobs != 41 {
		t.Errorf("the edited trace's run has %d jobs, want 41", f.Info.Jobs)
	}
	do("the edited trace again", true)

	run.Replay.Policy = "gs:mpl=3,quantum=50ms"
	do("another policy parameter", false)
	do("that run again", true)

	defer func(c func() string) { codeIdentity = c }(codeIdentity)
	codeIdentity = func() string { return "0ther" }
	if f := do("other code", false); f.Info.Code != "0ther" {
		t.Errorf("run.json records code %q", f.Info.Code)
	}
	do("the other code again", true)
}

// TestCacheKeySharedDir: a trace under ../shared is read, and digested,
// where GANGSIM_SHARED says, while the run's description keeps its name.
func TestCacheKeySharedDir(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for i, d := range []string{a, b} {
		os.MkdirAll(filepath.Join(d, "traces"), 0o755)
		os.WriteFile(filepath.Join(d, "traces", "x.swf"), []byte(keyTrace(strings.Repeat("\n", i))), 0o644)
	}
	run, err := ParseRun([]byte(`{"workload": {"source": {"trace": {"path": "../shared/traces/x.swf"}}}, "replay": {"policy": "fcfs"}}`))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(shared.EnvVar, a)
	ka, err := run.Key()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(shared.EnvVar, b)
	kb, err := run.Key()
	if err != nil {
		t.Fatal(err)
	}
	if ka == kb {
		t.Error("two different files under two GANGSIM_SHARED directories give the same key")
	}
	info, err := run.Execute(t.TempDir(), kb)
	if err != nil {
		t.Fatal(err)
	}
	if info.Jobs != 40 {
		t.Errorf("%d jobs", info.Jobs)
	}
	t.Setenv(shared.EnvVar, filepath.Join(b, "nowhere"))
	if _, err := run.Key(); err == nil || !strings.Contains(err.Error(), "GANGSIM_SHARED=") {
		t.Errorf("a missing shared trace: %v", err)
	}
}

// TestCacheKeyPolicyOrder: a policy's parameters in another order name the
// same policy, so the run has one key (one directory in the cache): an
// experiment whose axis sets a parameter ("replay.policy:mpl" writes
// "gs:alloc=dhc,backfill=easy,mpl=6") and one that names the policy
// ("gs:mpl=6,backfill=easy,alloc=dhc") share their runs, and a notebook
// that reads the cache by canonical policy, load and seed finds each run
// once. Another value is another run.
func TestCacheKeyPolicyOrder(t *testing.T) {
	key := func(policy string) string {
		t.Helper()
		run, err := ParseRun([]byte(fmt.Sprintf(`{"workload": {"preset": "thesis", "seed": 3},
			"replay": {"policy": %q, "hw": "crescendo", "machine": "16x2"}}`, policy)))
		if err != nil {
			t.Fatal(err)
		}
		k, err := run.Key()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	a, b := key("gs:mpl=6,backfill=easy,alloc=dhc"), key("gs:alloc=dhc,backfill=easy,mpl=6")
	if a != b {
		t.Errorf("one policy, two keys: %s and %s", a, b)
	}
	if c := key("gs:alloc=dhc,backfill=easy,mpl=5"); c == a {
		t.Errorf("mpl=5 and mpl=6 share the key %s", c)
	}
}
