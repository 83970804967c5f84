package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gangsim/gangsim/internal/version"
)

func TestExit(t *testing.T) {
	var buf bytes.Buffer
	if got := Exit("replay", nil, &buf); got != 0 || buf.Len() != 0 {
		t.Errorf("nil: %d %q", got, buf.String())
	}
	buf.Reset()
	if got := Exit("replay", Usagef("unknown policy %q", "x"), &buf); got != 2 {
		t.Errorf("usage: exit %d", got)
	}
	if want := "replay: unknown policy \"x\"\nrun 'replay --help' for usage\n"; buf.String() != want {
		t.Errorf("usage message %q, want %q", buf.String(), want)
	}
	buf.Reset()
	if got := Exit("replay", fmt.Errorf("reading x: %w", errors.New("boom")), &buf); got != 1 || buf.String() != "replay: reading x: boom\n" {
		t.Errorf("failure: %d %q", got, buf.String())
	}
	var stderr bytes.Buffer
	fs := NewFlagSet("replay", "usage: replay [flags]", &stderr)
	fs.Int("procs", 0, "machine size")
	err := Parse(fs, []string{"--procs", "many"})
	if !errors.Is(err, ErrUsage) {
		t.Errorf("bad flag value: %v is not a usage error", err)
	}
	if got := Exit("replay", Parse(fs, []string{"--help"}), &stderr); got != 0 {
		t.Errorf("--help exits %d", got)
	}
}

func TestProgressSilentOffTerminal(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b, 3, "runs", "sweep", false)
	p.Done(true)
	p.Done(false)
	p.Finish()
	if b.Len() != 0 {
		t.Errorf("progress drew on a non-terminal: %q", b.String())
	}
	if d, c := p.Counts(); d != 2 || c != 1 {
		t.Errorf("counts %d %d", d, c)
	}
}

// TestStatusLineShow: a line its caller draws is redrawn in place, kept
// with a newline, and not drawn at all when off.
func TestStatusLineShow(t *testing.T) {
	var b strings.Builder
	l := NewStatusLine(&b, true)
	l.Show("3 pending")
	l.Show("2 done")
	l.Keep()
	l.Keep() // nothing drawn since
	l.Show("x")
	l.Stop()
	l.Show("after")
	if want := "\r3 pending\x1b[K\r2 done\x1b[K\n\rx\x1b[K\r\x1b[K"; b.String() != want {
		t.Errorf("drew %q, want %q", b.String(), want)
	}
	b.Reset()
	off := NewStatusLine(&b, false)
	off.Show("x")
	off.Keep()
	off.Stop()
	if b.Len() != 0 {
		t.Errorf("an off line drew %q", b.String())
	}
}

// TestProgressLine: the status line says what is done, cached and failed,
// and the time left from the rate of the units made (not the cached).
func TestProgressLine(t *testing.T) {
	p := NewProgress(io.Discard, 10, "runs", "replay sweep", true)
	p.Done(true)
	p.Done(false)
	p.Done(false)
	p.Failed()
	got := p.render(4 * time.Second)
	if want := "replay sweep: 3 of 10 runs done (1 cached, 1 failed), 4s, about 14s left"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	for d, want := range map[time.Duration]string{850 * time.Millisecond: "850ms", 42 * time.Second: "42s",
		185 * time.Second: "3m05s", 72 * time.Minute: "1h12m"} {
		if got := Elapsed(d); got != want {
			t.Errorf("Elapsed(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestExitNamesSubcommand(t *testing.T) {
	var buf bytes.Buffer
	if got := Exit("replay", InCommand("replay hw", Usagef("no preset")), &buf); got != 2 {
		t.Errorf("exit %d", got)
	}
	if want := "replay: no preset\nrun 'replay hw --help' for usage\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	if InCommand("x", nil) != nil {
		t.Error("InCommand of nil is not nil")
	}
}

// failWriter fails every write, as /dev/full does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestRunHelpVersionWrites: --help and --version print to stdout and exit
// 0, and a failed write to stdout is exit 1 with a message, even when the
// command ignored it.
func TestRunHelpVersionWrites(t *testing.T) {
	body := func(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		fs := NewFlagSet("tool", "usage: tool [flags]", stderr)
		fs.Int("n", 0, "a number")
		if err := Parse(fs, args); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "data") // the error is ignored here
		return nil
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"--version"}} {
		var out, errs bytes.Buffer
		if code := Run("tool", body, args, nil, &out, &errs); code != 0 || errs.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs.String())
		}
		want := "usage: tool [flags]\n\nFlags:\n"
		if args[0] == "--version" {
			want = "tool (gangsim) "
		}
		if !strings.HasPrefix(out.String(), want) {
			t.Errorf("%v: stdout %q", args, out.String())
		}
		var errs2 bytes.Buffer
		if code := Run("tool", body, args, nil, failWriter{}, &errs2); code != 1 || !strings.Contains(errs2.String(), "tool: writing standard output: no space left on device") {
			t.Errorf("%v to a full device: exit %d, %q", args, code, errs2.String())
		}
	}
	var errs bytes.Buffer
	if code := Run("tool", body, nil, nil, failWriter{}, &errs); code != 1 || errs.String() != "tool: writing standard output: no space left on device\n" {
		t.Errorf("data to a full device: exit %d, %q", code, errs.String())
	}
	if code := Run("tool", body, []string{"-n", "x"}, nil, io.Discard, io.Discard); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
}

// TestIsTerminal: /dev/null is a character device but no terminal, so
// binary output may go there.
func TestIsTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&checkedWriter{w: f}) {
		t.Error("/dev/null is taken for a terminal")
	}
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is taken for a terminal")
	}
}

// TestVersionText: --version prints the build's module version when it
// has one (go install module@version), the constant otherwise ("(devel)"
// in a checkout); the stamped VCS revision, else the one make build sets.
func TestVersionText(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionText("replay", stamped, true), "replay (gangsim) v1.2.3\nrevision abc123 2026-01-02T03:04:05Z (modified)\ngo1.99\ncode "+version.Code()+"\n"; got != want {
		t.Errorf("stamped build:\n%s\nwant\n%s", got, want)
	}
	devel := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "(devel)"}}
	if got, want := versionText("replay", devel, true), "replay (gangsim) "+version.Version+"\nrevision unknown\ngo1.99\ncode "+version.Code()+"\n"; got != want {
		t.Errorf("devel build:\n%s\nwant\n%s", got, want)
	}
	defer func(r string) { version.Revision = r }(version.Revision)
	version.Revision = "def456+modified"
	if got := versionText("replay", devel, true); !strings.Contains(got, "\nrevision def456 (modified)\n") {
		t.Errorf("make build's revision not printed:\n%s", got)
	}
	if got := versionText("replay", nil, false); !strings.HasPrefix(got, "replay (gangsim) "+version.Version+"\nrevision def456 (modified)\n") {
		t.Errorf("no build information:\n%s", got)
	}
}

// TestMakeBuildRevision: make build passes the revision into the binary by
// the variable's real path, so a rename cannot silently drop it.
func TestMakeBuildRevision(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Skip(err)
	}
	if !strings.Contains(string(b), "-X github.com/gangsim/gangsim/internal/version.Revision=") {
		t.Error("make build does not set version.Revision")
	}
}
