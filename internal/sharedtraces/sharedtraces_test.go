package sharedtraces

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequired: without the shared data a test that needs them skips, and
// fails when GANGSIM_REQUIRE_SHARED is set, as CI sets it.
func TestRequired(t *testing.T) {
	if os.Getenv("GANGSIM_TEST_SHARED_HELPER") != "" {
		Trace(t, Names[0])
		return
	}
	missing := filepath.Join(t.TempDir(), "nowhere")
	for _, require := range []bool{false, true} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRequired$", "-test.v")
		cmd.Env = append(os.Environ(), "GANGSIM_TEST_SHARED_HELPER=1", "GANGSIM_SHARED="+missing, RequireEnv+"=")
		if require {
			cmd.Env = append(cmd.Env, RequireEnv+"=1")
		}
		out, err := cmd.CombinedOutput()
		switch {
		case !require && (err != nil || !strings.Contains(string(out), "--- SKIP")):
			t.Errorf("not required: %v\n%s", err, out)
		case require && (err == nil || !strings.Contains(string(out), RequireEnv+" is set")):
			t.Errorf("required: %v\n%s", err, out)
		}
	}
}
