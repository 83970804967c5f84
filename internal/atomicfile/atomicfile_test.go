package atomicfile

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

func TestCommitPublishes(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.csv")
	f, err := Create(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	f.Write([]byte("hello"))
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("output visible before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	if err != nil || string(b) != "hello" {
		t.Fatalf("read back %q, %v", b, err)
	}
	assertOnly(t, dir, "out.csv")
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.parquet")
	os.WriteFile(name, []byte("previous"), 0o644)
	f, err := Create(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(bytes.Repeat([]byte("x"), 1<<20))
	f.Abort()
	b, _ := os.ReadFile(name)
	if string(b) != "previous" {
		t.Fatalf("Abort clobbered the existing file: %d bytes", len(b))
	}
	assertOnly(t, dir, "out.parquet")
}

func TestStdout(t *testing.T) {
	var buf bytes.Buffer
	f, err := Create("-", &buf)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("data"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "data" {
		t.Fatalf("stdout got %q", buf.String())
	}
}

func assertOnly(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("directory holds %v, want only %v", names, want)
	}
}

// TestKilledWriterLeavesNothing runs a child process that starts writing an
// output and is killed with SIGKILL before committing: neither the output
// nor a temporary file may remain.
func TestKilledWriterLeavesNothing(t *testing.T) {
	if os.Getenv("ATOMICFILE_CHILD") != "" {
		f, err := Create(os.Getenv("ATOMICFILE_CHILD"), nil)
		if err != nil {
			os.Exit(3)
		}
		f.Write(bytes.Repeat([]byte("x"), 1<<20))
		os.Stdout.WriteString("ready\n")
		select {} // wait to be killed
	}
	if !unnamedSupported(t.TempDir()) {
		t.Skip("no O_TMPFILE here: a SIGKILL may leave a hidden temporary file")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=TestKilledWriterLeavesNothing")
	cmd.Env = append(os.Environ(), "ATOMICFILE_CHILD="+filepath.Join(dir, "out.arrow"))
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := io.ReadFull(stdout, buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("child did not start: %q %v", buf, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("killed writer left %v", ents)
	}
}

func unnamedSupported(dir string) bool {
	f, ok := openUnnamed(dir, "x")
	if ok {
		f.Close()
	}
	return ok
}

// TestDestinations: a regular file or a new name is replaced atomically
// (keeping an existing file's permissions), a symbolic link's target is
// replaced and the link kept, a device or a FIFO is written through and
// never replaced, a directory is an error.
func TestDestinations(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) error {
		f, err := Create(name, nil)
		if err != nil {
			return err
		}
		defer f.Abort()
		f.Write([]byte(data))
		return f.Commit()
	}
	// A regular file keeps its mode.
	reg := filepath.Join(dir, "reg.csv")
	os.WriteFile(reg, []byte("old"), 0o600)
	if err := write(reg, "new"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(reg); string(b) != "new" {
		t.Errorf("regular file holds %q", b)
	}
	if st, _ := os.Stat(reg); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	// A symbolic link (relative, to an existing file) stays a link.
	link := filepath.Join(dir, "link.csv")
	os.Symlink("reg.csv", link)
	if err := write(link, "via link"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(reg); string(b) != "via link" {
		t.Errorf("link target holds %q", b)
	}
	// A dangling link's target is created.
	dangling := filepath.Join(dir, "dangling.csv")
	os.Symlink(filepath.Join(dir, "sub-target.csv"), dangling)
	if err := write(dangling, "created"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub-target.csv")); string(b) != "created" {
		t.Errorf("dangling link target holds %q", b)
	}
	if st, _ := os.Lstat(dangling); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the dangling link was replaced by a file")
	}
	// /dev/null is written through, never replaced, whoever runs this.
	if err := write(os.DevNull, "discarded"); err != nil {
		t.Errorf("writing /dev/null: %v", err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a character device: %v %v", st.Mode(), err)
	}
	// A FIFO is written through: its reader gets the bytes.
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err == nil {
		got := make(chan string)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- string(b)
		}()
		if err := write(fifo, "through the pipe"); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != "through the pipe" {
			t.Errorf("FIFO reader got %q", s)
		}
		if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
			t.Error("the FIFO was replaced")
		}
	}
	// A directory is refused.
	if err := write(dir, "x"); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	assertOnly(t, dir, "dangling.csv", "fifo", "link.csv", "reg.csv", "sub-target.csv")
}

// TestWriteThroughError: a device that refuses the bytes (/dev/full) is
// an error at Commit.
func TestWriteThroughError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	f, err := Create("/dev/full", nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("data"))
	if err := f.Commit(); err == nil {
		t.Error("writing /dev/full succeeded")
	}
}

func TestDescriptorPath(t *testing.T) {
	pid := strconv.Itoa(os.Getpid())
	for p, want := range map[string]int{
		"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/7": 7, "/proc/self/fd/12": 12,
		"/proc/" + pid + "/fd/3": 3, "/proc/1/fd/3": -1, "/dev/fd/x": -1, "/dev/fd/07": -1, "/dev/null": -1,
		"out.csv": -1, "/dev/fd/": -1,
	} {
		if got := descriptorPath(p); got != want {
			t.Errorf("descriptorPath(%s) = %d, want %d", p, got, want)
		}
	}
}

// TestOpenDescriptorAppends: a path naming one of the process's open
// descriptors (/dev/fd/N, /proc/self/fd/N, a link to one) is written
// through that descriptor as it is open: a file opened for appending keeps
// its content and gets the output after it, the descriptor stays open, and
// no rename replaces the file.
func TestOpenDescriptorAppends(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "app.log")
	os.WriteFile(log, []byte("earlier\n"), 0o644)
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := strconv.Itoa(int(f.Fd()))
	link := filepath.Join(dir, "link")
	os.Symlink("/dev/fd/"+fd, link)
	want := "earlier\n"
	for _, name := range []string{"/dev/fd/" + fd, "/proc/self/fd/" + fd, link} {
		if _, err := os.Stat(name); err != nil {
			t.Skip(err)
		}
		out, err := Create(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		out.Write([]byte(name + "\n"))
		if err := out.Commit(); err != nil {
			t.Fatal(err)
		}
		want += name + "\n"
	}
	if _, err := f.Write([]byte("still open\n")); err != nil {
		t.Fatalf("the descriptor was closed: %v", err)
	}
	want += "still open\n"
	if b, _ := os.ReadFile(log); string(b) != want {
		t.Errorf("app.log holds\n%s\nwant\n%s", b, want)
	}
	assertOnly(t, dir, "app.log", "link")
}

// TestDevStdoutAppends: "-o /dev/stdout >> app.log" appends to app.log
// (a child process whose standard output is app.log opened for
// appending), where following /proc/self/fd/1 to the file and renaming
// over it lost its content.
func TestDevStdoutAppends(t *testing.T) {
	if os.Getenv("ATOMICFILE_STDOUT_CHILD") != "" {
		f, err := Create("/dev/stdout", nil)
		if err != nil {
			os.Exit(3)
		}
		f.Write([]byte("new\n"))
		if f.Commit() != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "app.log")
	os.WriteFile(log, []byte("earlier\n"), 0o644)
	out, _ := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	cmd := exec.Command(os.Args[0], "-test.run=^TestDevStdoutAppends$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_STDOUT_CHILD=1")
	cmd.Stdout = out
	err := cmd.Run()
	out.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(log); string(b) != "earlier\nnew\n" {
		t.Errorf("app.log holds %q, want earlier, then new", b)
	}
	assertOnly(t, dir, "app.log")
}

// TestWriteErrorNamesOutput: an error writing the unnamed temporary file
// (a full disk, here a descriptor closed underneath) names the output, as
// given, instead of "(unnamed)".
func TestWriteErrorNamesOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.csv")
	f, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if !f.unnamed {
		t.Skip("no O_TMPFILE here")
	}
	f.tmp.Close()
	_, err = f.Write(make([]byte, 1<<17))
	if err == nil {
		err = f.Commit()
	}
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "(unnamed)") {
		t.Errorf("%v, want an error naming %s", err, path)
	}
}

// TestCommitAll: files committed together replace their destinations
// all, or, when one fails (a write error before any rename, or a rename
// that fails after others were done), none: the earlier versions stay or
// come back, a new name is not left, and no temporary or backup file
// remains.
func TestCommitAll(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "item.csv"), filepath.Join(dir, "item.png"), filepath.Join(dir, "item.svg")
	os.WriteFile(a, []byte("old csv"), 0o644)
	os.WriteFile(b, []byte("old png"), 0o644)
	create := func(data map[string]string) []*File {
		var fs []*File
		for _, name := range []string{a, b, c} {
			f, err := Create(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte(data[name]))
			fs = append(fs, f)
		}
		return fs
	}
	check := func(when string, want map[string]string) {
		t.Helper()
		for _, name := range []string{a, b, c} {
			got, err := os.ReadFile(name)
			if w, ok := want[name]; !ok && err == nil || ok && string(got) != w {
				t.Errorf("%s: %s holds %q (%v), want %q", when, filepath.Base(name), got, err, want[name])
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) != len(want) {
			t.Errorf("%s: %d entries, want %d", when, len(ents), len(want))
		}
	}
	old := map[string]string{a: "old csv", b: "old png"}
	// A write error (the second file's descriptor closed underneath, as a
	// full disk would fail it): nothing is replaced.
	fs := create(map[string]string{a: "new csv", b: "new png", c: "new svg"})
	if fs[1].unnamed {
		fs[1].tmp.Close()
		fs[1].w.Write(make([]byte, 1<<17))
		if err := CommitAll(fs...); err == nil || !strings.Contains(err.Error(), b) {
			t.Errorf("write error: %v, want an error naming %s", err, b)
		}
		check("after a write error", old)
	}
	// A rename that fails (the third destination became a directory):
	// the two replaced come back, the new one goes.
	fs = create(map[string]string{a: "new csv", b: "new png", c: "new svg"})
	os.Mkdir(c, 0o755)
	os.WriteFile(filepath.Join(c, "x"), nil, 0o644)
	if err := CommitAll(fs...); err == nil || !strings.Contains(err.Error(), c) {
		t.Errorf("rename error: %v, want an error naming %s", err, c)
	}
	for name, data := range old {
		if got, _ := os.ReadFile(name); string(got) != data {
			t.Errorf("after a rename error: %s holds %q, want %q", filepath.Base(name), got, data)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("after a rename error: %d entries, want item.csv, item.png and the directory", len(ents))
	}
	os.RemoveAll(c)
	// All well: all three replaced.
	want := map[string]string{a: "new csv", b: "new png", c: "new svg"}
	if err := CommitAll(create(want)...); err != nil {
		t.Fatal(err)
	}
	check("committed", want)
}
