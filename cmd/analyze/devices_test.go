package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gangsim/gangsim/internal/cli"
)

// TestOutputDevices checks every kind of analyze output (a table to
// standard output or -o, a figure, the report) against the output rules:
// standard output on /dev/null is no terminal; a symbolic link to a
// regular file has its target replaced and stays a link; a link to a
// device is written through; /dev/full fails with exit 1 and a message.
func TestOutputDevices(t *testing.T) {
	dir := fixture(t)
	runs := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "fcfs.csv")}
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer devNull.Close()
	if code := cli.Run("analyze", run, runs, nil, devNull, io.Discard); code != 0 {
		t.Errorf("analyze > /dev/null: exit %d", code)
	}
	// -o through a symbolic link, to a regular file and to a device.
	target := filepath.Join(dir, "target.csv")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.csv")
	os.Symlink(target, link)
	mustAnalyze(t, nil, append([]string{"-o", link}, runs...)...)
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("-o replaced the link")
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "jobs") {
		t.Errorf("link target holds %q", b)
	}
	nullLink := filepath.Join(dir, "null.csv")
	os.Symlink(os.DevNull, nullLink)
	mustAnalyze(t, nil, append([]string{"-o", nullLink}, runs...)...)
	if st, _ := os.Stat(os.DevNull); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null replaced")
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		return
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	fullPNG := filepath.Join(dir, "full.png")
	os.Symlink("/dev/full", fullPNG)
	fullCSV := filepath.Join(dir, "full.csv")
	os.Symlink("/dev/full", fullCSV)
	for _, args := range [][]string{
		runs,
		append([]string{"--format", "json"}, runs...),
		append([]string{"-o", fullCSV}, runs...),
		append([]string{"--plot", "cdf", "-o", fullPNG}, runs...),
		{"--list-columns"},
		{"--help"},
	} {
		var stderr bytes.Buffer
		if code := cli.Run("analyze", run, args, nil, full, &stderr); code != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v to /dev/full: exit %d, %q", args, code, stderr.String())
		}
	}
}

// TestOutputFormatChoices: --format must agree with -o's extension when
// both name a format (exit 2 otherwise, as in replay and genwork); a
// device, FIFO or process substitution whose name says no format takes
// standard output's default for a table (CSV) and --format for a figure,
// which can then be written to it.
func TestOutputFormatChoices(t *testing.T) {
	dir := fixture(t)
	runs := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "fcfs.csv")}
	for _, args := range [][]string{
		{"--format", "json", "-o", filepath.Join(dir, "x.csv")},
		{"--format", "md", "-o", filepath.Join(dir, "x.png")},
		{"--format", "csv", "-o", filepath.Join(dir, "x.parquet")},
		{"--plot", "cdf", "--format", "svg", "-o", filepath.Join(dir, "x.png")},
		{"--plot", "cdf", "--format", "csv", "-o", filepath.Join(dir, "x.png")},
		{"--plot", "cdf", "-o", os.DevNull},
		{"--plot", "cdf", "-o", filepath.Join(dir, "x.txt")},
		{"-o", filepath.Join(dir, "x.txt")},
	} {
		if _, _, err := analyzeCmd(t, nil, append(args, runs...)...); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	// A name without a format's extension takes --format.
	mustAnalyze(t, nil, append([]string{"--format", "json", "-o", filepath.Join(dir, "x.txt")}, runs...)...)
	if b, _ := os.ReadFile(filepath.Join(dir, "x.txt")); !bytes.HasPrefix(b, []byte("{")) {
		t.Errorf("--format json -o x.txt wrote %.40q", b)
	}
	// /dev/null: a table without --format, a figure with one.
	mustAnalyze(t, nil, append([]string{"-o", os.DevNull}, runs...)...)
	mustAnalyze(t, nil, append([]string{"--plot", "cdf", "--format", "pdf", "-o", os.DevNull}, runs...)...)
	if st, _ := os.Stat(os.DevNull); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null replaced")
	}
	// A FIFO, as a process substitution gives: the table as CSV, the
	// figure in the format asked.
	for _, tt := range []struct {
		args   []string
		prefix string
	}{
		{nil, "# GangsimTool: analyze"},
		{[]string{"--plot", "cdf", "--format", "png"}, "\x89PNG"},
		{[]string{"--plot", "cdf", "--format", "svg"}, "<?xml"},
	} {
		fifo := filepath.Join(dir, "fifo")
		os.Remove(fifo)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		got := make(chan []byte)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- b
		}()
		mustAnalyze(t, nil, append(append(tt.args, "-o", fifo), runs...)...)
		if b := <-got; !bytes.HasPrefix(b, []byte(tt.prefix)) {
			t.Errorf("%v to a FIFO: %.40q, want it to start %q", tt.args, b, tt.prefix)
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%v: the FIFO was replaced", tt.args)
		}
	}
}
