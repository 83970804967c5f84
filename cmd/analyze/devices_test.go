package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
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
