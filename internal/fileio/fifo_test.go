//go:build unix

package fileio

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
)

// TestOpenFIFO: Open reads a FIFO once, into a spooled copy that can be
// read any number of times (a workload's passes), with its digest; a
// FIFO given to OpenStream is a stream, its digest known after Finish.
func TestOpenFIFO(t *testing.T) {
	dir := t.TempDir()
	data := []byte("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n2 5 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 -1 -1 -1\n")
	for _, stream := range []bool{false, true} {
		fifo := filepath.Join(dir, "fifo")
		os.Remove(fifo)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("no FIFOs: %v", err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Write(data)
				f.Close()
			}
		}()
		open := Open
		if stream {
			open = OpenStream
		}
		in, err := open(fifo, nil)
		if err != nil {
			t.Fatal(err)
		}
		if in.Format != columnar.FormatSWF || in.Streamed() != stream {
			t.Errorf("stream %v: format %v, streamed %v", stream, in.Format, in.Streamed())
		}
		passes := 2
		if stream {
			passes = 1
		}
		for p := 0; p < passes; p++ {
			r, err := in.TraceMode(SWFStrict)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := model.ReadAll(r)
			if err != nil || len(tr.Jobs) != 2 {
				t.Fatalf("stream %v, pass %d: %d jobs, %v", stream, p, len(tr.Jobs), err)
			}
		}
		if stream {
			if _, err := in.TraceMode(SWFStrict); err == nil {
				t.Error("a stream read twice")
			}
		}
		if err := in.Finish(); err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(data); in.SHA256 != hex.EncodeToString(sum[:]) || in.Name != fifo {
			t.Errorf("stream %v: %s %s", stream, in.Name, in.SHA256)
		}
		in.Close()
	}
}

// TestOpenShared: a name under ../shared is read where GANGSIM_SHARED
// says, keeping its name; a missing one's error says how to point at the
// data.
func TestOpenShared(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "traces"), 0o755)
	os.WriteFile(filepath.Join(dir, "traces", "x.swf"), []byte("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644)
	t.Setenv("GANGSIM_SHARED", dir)
	for _, open := range []func(string, io.Reader) (*Input, error){Open, OpenStream} {
		in, err := open("../shared/traces/x.swf", nil)
		if err != nil {
			t.Fatal(err)
		}
		if in.Name != "../shared/traces/x.swf" || in.Format != columnar.FormatSWF {
			t.Errorf("%s as %v", in.Name, in.Format)
		}
		in.Close()
		if _, err := open("../shared/traces/y.swf", nil); err == nil || !strings.Contains(err.Error(), "GANGSIM_SHARED="+dir) {
			t.Errorf("a missing shared file: %v", err)
		}
	}
}

// TestArrowFileRefused: an Arrow IPC file (random access, magic ARROW1),
// from a file or a pipe, is refused saying what it is, not read as SWF.
func TestArrowFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.arrow")
	os.WriteFile(path, []byte("ARROW1\x00\x00 the rest of an Arrow file"), 0o644)
	if _, err := Open(path, nil); err == nil || !strings.Contains(err.Error(), "is an Arrow IPC file") {
		t.Errorf("Open: %v", err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	if _, err := OpenStream("-", f); err == nil || !strings.Contains(err.Error(), "standard input is an Arrow IPC file") {
		t.Errorf("OpenStream: %v", err)
	}
}
