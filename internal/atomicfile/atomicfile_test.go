package atomicfile

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

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

func assertOnly(t *testing.T, dir string, want string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != want {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only %s", names, want)
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
	f, ok := openUnnamed(dir)
	if ok {
		f.Close()
	}
	return ok
}
