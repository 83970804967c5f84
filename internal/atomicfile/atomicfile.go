// Package atomicfile writes output files so that a failed or interrupted run
// leaves nothing behind: bytes go to a temporary file in the destination's
// directory, which is renamed over the destination only on Commit.
//
// On Linux the temporary file is unnamed (O_TMPFILE) until Commit, so even
// a run killed with SIGKILL leaves no trace; elsewhere, or on file systems
// without O_TMPFILE, it is a hidden ".NAME.tmp-*" file that Abort removes.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is an output being written. Write to it, then call Commit to publish
// it or Abort to throw it away. Abort after Commit does nothing, so
// "defer f.Abort()" is always safe.
type File struct {
	name    string
	tmp     *os.File // nil for standard output
	unnamed bool     // tmp is an O_TMPFILE file with no name yet
	w       *bufio.Writer
	stdout  io.Writer
	done    bool
}

// Create starts writing name. The name "-" writes to stdout instead; bytes
// written to stdout cannot be taken back, so Abort only stops further writes.
func Create(name string, stdout io.Writer) (*File, error) {
	if name == "-" || name == "" {
		return &File{name: "-", w: bufio.NewWriterSize(stdout, 1<<16), stdout: stdout}, nil
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	if tmp, ok := openUnnamed(dir); ok {
		return &File{name: name, tmp: tmp, unnamed: true, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", name, err)
	}
	return &File{name: name, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

// Name returns the destination name ("-" for standard output).
func (f *File) Name() string { return f.name }

// Write buffers p for the output.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, errors.New("atomicfile: write after Commit or Abort")
	}
	return f.w.Write(p)
}

// Commit flushes the output and publishes it under its name.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	if err := f.w.Flush(); err != nil {
		f.discard()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if f.tmp == nil {
		return nil
	}
	if err := f.tmp.Chmod(0o644); err != nil {
		f.discard()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	tmpName := f.tmp.Name()
	if f.unnamed {
		// Give the file a hidden name next to the destination, then rename
		// it over the destination (a link cannot replace a file).
		dir, base := filepath.Split(f.name)
		tmpName = filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d", base, os.Getpid()))
		os.Remove(tmpName)
		if err := link(f.tmp, tmpName); err != nil {
			f.tmp.Close()
			return fmt.Errorf("writing %s: %w", f.name, err)
		}
	}
	if err := f.tmp.Close(); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if err := os.Rename(tmpName, f.name); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	return nil
}

// Abort discards the output. It is a no-op after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.discard()
}

func (f *File) discard() {
	if f.tmp != nil {
		f.tmp.Close()
		if !f.unnamed {
			os.Remove(f.tmp.Name())
		}
	}
}
