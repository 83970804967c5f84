// Package atomicfile writes output files so that a failed or interrupted run
// leaves nothing behind: bytes go to a temporary file in the destination's
// directory, which is renamed over the destination only on Commit.
//
// Only a regular file, or a name that does not exist yet, is written that
// way; a symbolic link's final target is, so the link stays a link. Any
// other existing file (a character device such as /dev/null, a FIFO) is
// written through, in place: renaming over it would replace /dev/null, or
// leave the reader of a pipe waiting. A name of one of the process's open
// descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N: OpenDescriptor),
// whatever it is open on, is written through that descriptor, so that
// "-o /dev/stdout >> app.log" appends. What is written through cannot be
// taken back.
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
	"io/fs"
	"os"
	"path/filepath"
)

// File is an output being written. Write to it, then call Commit to publish
// it or Abort to throw it away. Abort after Commit does nothing, so
// "defer f.Abort()" is always safe.
type File struct {
	name    string // as given
	target  string // the regular file to replace: name, or its symbolic link's target
	mode    os.FileMode
	tmp     *os.File // nil for standard output and written-through files
	through *os.File // an existing file that is not regular, written in place
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
	if fd := OpenDescriptor(name); fd >= 0 {
		// Written through the descriptor as it is open: following
		// /proc/self/fd/1 to a file and renaming over it would replace
		// what ">> app.log" appends to.
		f, err := dupFile(fd, name)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", name, err)
		}
		return &File{name: name, target: name, through: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
	}
	target, mode, through, err := destination(name)
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", name, err)
	}
	if through {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", name, err)
		}
		return &File{name: name, target: name, through: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	if tmp, ok := openUnnamed(dir, name); ok {
		return &File{name: name, target: target, mode: mode, tmp: tmp, unnamed: true, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", name, err)
	}
	return &File{name: name, target: target, mode: mode, tmp: tmp, w: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

// maxLinks bounds the symbolic links followed to a destination.
const maxLinks = 40

// destination resolves name: the regular file to replace (name, or the
// final target of the symbolic links it names, existing or not) and the
// permissions to give it (an existing file's, else 0644), or through for
// an existing file that is not regular.
func destination(name string) (target string, mode os.FileMode, through bool, err error) {
	st, err := os.Stat(name)
	switch {
	case err == nil && st.IsDir():
		return "", 0, false, errors.New("is a directory")
	case err == nil && !st.Mode().IsRegular():
		return name, 0, true, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", 0, false, err
	}
	mode = 0o644
	if err == nil {
		mode = st.Mode().Perm()
	}
	// Follow the links one by one: the last one may point to a file that
	// does not exist yet, which is then created.
	target = name
	for i := 0; ; i++ {
		lst, err := os.Lstat(target)
		if err != nil || lst.Mode()&os.ModeSymlink == 0 {
			return target, mode, false, nil
		}
		if i == maxLinks {
			return "", 0, false, errors.New("too many levels of symbolic links")
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", 0, false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
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
	tmpName, err := f.prepare()
	if err != nil || tmpName == "" {
		return err
	}
	if err := os.Rename(tmpName, f.target); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	return nil
}

// prepare does all of Commit but the rename: it flushes the output and
// gives the temporary file a name beside the destination, which it
// returns ("" for standard output and a file written through, which are
// done). On error nothing is left behind.
func (f *File) prepare() (tmpName string, err error) {
	if f.done {
		return "", errors.New("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	if err := f.w.Flush(); err != nil {
		f.discard()
		return "", fmt.Errorf("writing %s: %w", f.name, err)
	}
	if f.through != nil {
		if err := f.through.Close(); err != nil {
			return "", fmt.Errorf("writing %s: %w", f.name, err)
		}
		return "", nil
	}
	if f.tmp == nil {
		return "", nil
	}
	if err := f.tmp.Chmod(f.mode); err != nil {
		f.discard()
		return "", fmt.Errorf("writing %s: %w", f.name, err)
	}
	tmpName = f.tmp.Name()
	if f.unnamed {
		// Give the file a hidden name next to the destination, then rename
		// it over the destination (a link cannot replace a file).
		dir, base := filepath.Split(f.target)
		tmpName = filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d", base, os.Getpid()))
		os.Remove(tmpName)
		if err := link(f.tmp, tmpName); err != nil {
			f.tmp.Close()
			return "", fmt.Errorf("writing %s: %w", f.name, err)
		}
	}
	if err := f.tmp.Close(); err != nil {
		os.Remove(tmpName)
		return "", fmt.Errorf("writing %s: %w", f.name, err)
	}
	return tmpName, nil
}

// CommitAll publishes files together: every one, or, if one fails, none.
// It first finishes each (flushed and named beside its destination), so
// that a full disk fails before any destination is touched; then renames
// each over its destination, the one it replaces kept under a hidden name
// until all are in place; if a rename fails, the files already replaced
// get their earlier versions back (and those that did not exist are
// removed). Standard output and files written through cannot be taken
// back; they are done in the first step. Every file is committed or
// aborted when CommitAll returns.
func CommitAll(files ...*File) error {
	tmps := make([]string, len(files))
	var err error
	for i, f := range files {
		if err != nil {
			f.Abort()
			continue
		}
		tmps[i], err = f.prepare()
	}
	if err != nil {
		for _, t := range tmps {
			if t != "" {
				os.Remove(t)
			}
		}
		return err
	}
	// backups[i] holds the destination's earlier version ("" if it had
	// none) once file i is in place.
	backups := make([]string, len(files))
	done := 0
	for i, f := range files {
		if tmps[i] == "" {
			done++
			continue
		}
		backup := ""
		if _, statErr := os.Lstat(f.target); statErr == nil {
			dir, base := filepath.Split(f.target)
			backup = filepath.Join(dir, fmt.Sprintf(".%s.old-%d", base, os.Getpid()))
			os.Remove(backup)
			if err = os.Link(f.target, backup); err != nil {
				err = fmt.Errorf("writing %s: keeping its earlier version: %w", f.name, err)
				break
			}
		}
		if err = os.Rename(tmps[i], f.target); err != nil {
			if backup != "" {
				os.Remove(backup)
			}
			err = fmt.Errorf("writing %s: %w", f.name, err)
			break
		}
		backups[i] = backup
		done++
	}
	if err == nil {
		for _, b := range backups {
			if b != "" {
				os.Remove(b)
			}
		}
		return nil
	}
	// Roll back: the files in place get their earlier versions back.
	for i := 0; i < done; i++ {
		if tmps[i] == "" {
			continue
		}
		if backups[i] != "" {
			os.Rename(backups[i], files[i].target)
		} else {
			os.Remove(files[i].target)
		}
	}
	for i := done; i < len(files); i++ {
		if tmps[i] != "" {
			os.Remove(tmps[i])
		}
	}
	return err
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
	if f.through != nil {
		f.through.Close()
	}
	if f.tmp != nil {
		f.tmp.Close()
		if !f.unnamed {
			os.Remove(f.tmp.Name())
		}
	}
}
