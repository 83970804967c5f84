package version

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gangsim/gangsim"
)

// TestSourcesComplete: every file of the module that SourceDigest counts
// is embedded, so that an edit to any of them changes Code. A package
// deeper than the embed patterns of sources.go reach fails here.
func TestSourcesComplete(t *testing.T) {
	root, _ := filepath.Abs("../..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
				return fs.SkipDir
			}
			return nil
		}
		// The .json files that count are the presets the models embed;
		// experiments and runs are data, digested as inputs.
		if !IsSource(rel) || strings.HasSuffix(rel, ".json") && !strings.Contains(rel, "/presets/") {
			return nil
		}
		n++
		if _, err := fs.Stat(gangsim.Sources, rel); err != nil {
			t.Errorf("%s is not in gangsim.Sources: add a pattern to sources.go's go:embed line", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d source files found under %s", n, root)
	}
	// And nothing counts that the module does not have: no stray files.
	fs.WalkDir(gangsim.Sources, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && IsSource(p) {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				t.Errorf("embedded %s is not in the module", p)
			}
		}
		return nil
	})
}

func TestCodeChangesWithTheCode(t *testing.T) {
	base := fstest.MapFS{
		"go.mod":                   {Data: []byte("module x\n")},
		"go.sum":                   {Data: []byte("")},
		"sim/engine.go":            {Data: []byte("package sim\n")},
		"sim/engine_test.go":       {Data: []byte("package sim\n")},
		"sim/testdata/x.go":        {Data: []byte("package x\n")},
		"hwmodel/x/presets/a.json": {Data: []byte("{}")},
		"README.md":                {Data: []byte("# x\n")},
	}
	settings := []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"},
		{Key: "GOAMD64", Value: "v1"}, {Key: "-ldflags", Value: "-X rev=1"}, {Key: "vcs.revision", Value: "abc"}}
	code := func(fsys fstest.MapFS, goVersion string, s []debug.BuildSetting) string {
		t.Helper()
		c, err := CodeOf(fsys, goVersion, s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	want := code(base, "go1.26.8", settings)
	with := func(name, data string) fstest.MapFS {
		m := fstest.MapFS{}
		for k, v := range base {
			m[k] = v
		}
		if data == "" {
			delete(m, name)
		} else {
			m[name] = &fstest.MapFile{Data: []byte(data)}
		}
		return m
	}
	setting := func(key, value string) []debug.BuildSetting {
		out := []debug.BuildSetting{}
		found := false
		for _, s := range settings {
			if s.Key == key {
				s.Value, found = value, true
			}
			out = append(out, s)
		}
		if !found {
			out = append(out, debug.BuildSetting{Key: key, Value: value})
		}
		return out
	}
	changed := map[string]string{
		"an edited source":  code(with("sim/engine.go", "package sim // edited\n"), "go1.26.8", settings),
		"a new source":      code(with("sim/queue.go", "package sim\n"), "go1.26.8", settings),
		"a removed source":  code(with("sim/engine.go", ""), "go1.26.8", settings),
		"an edited go.sum":  code(with("go.sum", "x v1 h1:abc\n"), "go1.26.8", settings),
		"an edited preset":  code(with("hwmodel/x/presets/a.json", `{"switch_us": 1}`), "go1.26.8", settings),
		"another toolchain": code(base, "go1.27", settings),
		"another GOAMD64":   code(base, "go1.26.8", setting("GOAMD64", "v3")),
		"another GOARCH":    code(base, "go1.26.8", setting("GOARCH", "arm64")),
		"build tags":        code(base, "go1.26.8", setting("-tags", "purego")),
	}
	for what, c := range changed {
		if c == want {
			t.Errorf("%s leaves the code identity as it was", what)
		}
	}
	same := map[string]string{
		"an edited test":       code(with("sim/engine_test.go", "package sim // edited\n"), "go1.26.8", settings),
		"an edited testdata":   code(with("sim/testdata/x.go", "package y\n"), "go1.26.8", settings),
		"an edited README":     code(with("README.md", "# y\n"), "go1.26.8", settings),
		"another revision":     code(base, "go1.26.8", setting("vcs.revision", "def")),
		"other ldflags":        code(base, "go1.26.8", setting("-ldflags", "-X rev=2+modified")),
		"the race detector":    code(base, "go1.26.8", setting("-race", "true")),
		"settings in an order": code(base, "go1.26.8", append([]debug.BuildSetting{settings[2]}, append(settings[:2:2], settings[3:]...)...)),
	}
	for what, c := range same {
		if c != want {
			t.Errorf("%s changes the code identity", what)
		}
	}
}

// TestCodeOfThisBinary: the binary's own code identity is computed from its
// embedded sources and is stable.
func TestCodeOfThisBinary(t *testing.T) {
	c := Code()
	if len(c) != 64 || strings.Trim(c, "0123456789abcdef") != "" {
		t.Fatalf("Code() = %q, want 64 hex digits", c)
	}
	t.Logf("code %s", c)
	if Code() != c {
		t.Fatal("Code() changed between calls")
	}
}

func TestFromBuildInfo(t *testing.T) {
	defer func(r string) { Revision = r }(Revision)
	Revision = ""
	stamped := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	if b := FromBuildInfo(stamped, true); b.RevisionText() != "abc123+modified" || b.Version != "v1.2.3" || b.Go != "go1.99" {
		t.Errorf("stamped: %+v, revision %q", b, b.RevisionText())
	}
	devel := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "(devel)"}}
	if b := FromBuildInfo(devel, true); b.RevisionText() != "unknown" || b.Version != Version {
		t.Errorf("devel: %+v, revision %q", b, b.RevisionText())
	}
	Revision = "def456+modified"
	if b := FromBuildInfo(devel, true); b.RevisionText() != "def456+modified" || !b.Modified || b.Revision != "def456" {
		t.Errorf("make build's revision: %+v", b)
	}
	Revision = "def456"
	if b := FromBuildInfo(nil, false); b.RevisionText() != "def456" || b.Modified {
		t.Errorf("no build information: %+v", b)
	}
}
