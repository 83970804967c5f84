//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gangsim/gangsim/model"
)

// openPTY opens a pseudo-terminal pair: the master, which the test reads,
// and the slave, which the command writes to as its terminal (/dev/ptmx,
// unlocked with TIOCSPTLCK, the slave named by TIOCGPTN).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("opening the pseudo-terminal's slave: %v", err)
	}
	unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 200})
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// onTerminal runs replay with stderr on a pseudo-terminal and returns what
// the terminal got.
func onTerminal(t *testing.T, args ...string) string {
	t.Helper()
	master, slave := openPTY(t)
	var got bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&got, master) // ends with EIO once the slave is closed
		close(done)
	}()
	err := run(args, strings.NewReader(""), &bytes.Buffer{}, slave)
	slave.Close()
	<-done
	if err != nil {
		t.Fatalf("replay %v: %v\n%s", args, err, got.String())
	}
	return got.String()
}

// TestProgressOnTerminal: on a terminal a replay redraws a status line of
// the simulated time reached of the trace's span, the jobs done of all,
// the rate and the time left, and clears it before its summary; -q and CI
// keep it quiet. So does a sweep, with its runs done of all, cached and
// failed and the time left.
func TestProgressOnTerminal(t *testing.T) {
	t.Setenv("GANGSIM_PROGRESS_INTERVAL", "2ms")
	t.Setenv("CI", "")
	t.Setenv("TERM", "xterm")
	trace := filepath.Join(t.TempDir(), "bsp.parquet")
	bspTrace(t, trace, 40, 20*model.Second, 2*model.Millisecond) // about half a second
	args := []string{"-p", "sb", "--hw", "crescendo", trace, "-o", os.DevNull, "--format", "arrow"}

	out := onTerminal(t, args...)
	line := regexp.MustCompile(`\rreplay: sb: simulated \d+ s of 39 s \(\d+%\), \d+ of 40 jobs done, \d+ jobs/s(, about [0-9a-z.]+ left)?\x1b\[K`)
	if !line.MatchString(out) {
		t.Errorf("no progress line on the terminal:\n%q", out)
	}
	// Cleared before the summary, which starts its own line.
	if !strings.Contains(out, "\r\x1b[Kreplay: sb on 16") {
		t.Errorf("the status line is not cleared before the summary:\n%q", lastLines(out))
	}

	if out := onTerminal(t, append([]string{"-q"}, args...)...); out != "" {
		t.Errorf("-q on a terminal: %q", out)
	}
	t.Setenv("CI", "true")
	if out := onTerminal(t, args...); strings.Contains(out, "simulated") {
		t.Errorf("progress under CI: %q", lastLines(out))
	}
	t.Setenv("CI", "")

	// A sweep of a small experiment.
	exp := filepath.Join(t.TempDir(), "e.json")
	os.WriteFile(exp, []byte(`{"item": "study/progress", "title": "t",
  "run": {"workload": {"source": {"lublin": {"jobs": 120, "procs": 16}}, "attributes": {}, "compress": 100, "seed": 1},
          "replay": {"policy": "sb", "hw": "crescendo"}},
  "grid": [{"name": "seed", "set": "workload.seed", "values": [1, 2, 3, 4]}],
  "analysis": {"kind": "metrics", "replicas": "seed", "metrics": ["jobs"]}}`), 0o644)
	sweep := func(flags ...string) []string {
		return append(append([]string{"sweep"}, flags...), "-j", "1", "--cache", filepath.Join(t.TempDir(), "cache"), "-o", t.TempDir(), exp)
	}
	out = onTerminal(t, sweep()...)
	if !regexp.MustCompile(`\rreplay sweep: \d of 4 runs done \(0 cached, 0 failed\), [0-9a-z.]+(, about [0-9a-z.]+ left)?\x1b\[K`).MatchString(out) {
		t.Errorf("no sweep progress on the terminal:\n%q", out)
	}
	if out := onTerminal(t, sweep("-q")...); strings.Contains(out, "runs done") {
		t.Errorf("sweep -q on a terminal: %q", out)
	}
}

// lastLines is the end of a terminal's output, for a message.
func lastLines(s string) string {
	if len(s) > 400 {
		return "..." + s[len(s)-400:]
	}
	return s
}
