package shared

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Setenv(EnvVar, "")
	for _, p := range []string{"../shared/traces/x.swf.gz", "x.swf", "/abs/shared/x"} {
		if got := Resolve(p); got != p {
			t.Errorf("unset: Resolve(%q) = %q", p, got)
		}
	}
	dir := t.TempDir()
	t.Setenv(EnvVar, dir)
	cases := map[string]string{
		"../shared/traces/x.swf.gz": filepath.Join(dir, "traces", "x.swf.gz"),
		"../shared":                 dir,
		"../sharedx/y":              "../sharedx/y",
		"../../shared/y":            "../../shared/y",
		"traces/x.swf":              "traces/x.swf",
	}
	for p, want := range cases {
		if got := Resolve(p); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestHint(t *testing.T) {
	t.Setenv(EnvVar, "")
	_, err := os.Open("../shared/no/such/file")
	if err == nil {
		t.Skip("the file exists")
	}
	e := Hint("../shared/no/such/file", err)
	if !errors.Is(e, fs.ErrNotExist) || !strings.Contains(e.Error(), "GANGSIM_SHARED=DIR") {
		t.Errorf("Hint: %v", e)
	}
	if e := Hint("elsewhere", err); e != err {
		t.Errorf("Hint of a path outside ../shared: %v", e)
	}
	t.Setenv(EnvVar, "/nowhere")
	if e := Hint("../shared/no/such/file", err); !strings.Contains(e.Error(), "GANGSIM_SHARED=/nowhere") {
		t.Errorf("Hint with the variable set: %v", e)
	}
}
