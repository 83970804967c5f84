package atomicfile

import (
	"bytes"
	"os"
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
