package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
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
	p := NewProgress(&b, 3, "runs")
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
