package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
)

const benchTrace = "SDSC-BLUE-2000-4.2-cln"

// benchRead reads the file at path to the end, b.N times.
func benchRead(b *testing.B, path string, size int64) {
	b.SetBytes(size) // uncompressed bytes parsed per op
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r := NewReader(f)
		n := 0
		for {
			_, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if n != 243306 {
			b.Fatalf("read %d jobs, want 243306", n)
		}
	}
}

// plainCopy decompresses the shared trace into a temporary file and returns
// its path and size.
func plainCopy(b *testing.B) (string, int64) {
	src, err := os.Open(sharedtraces.Trace(b, benchTrace))
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	zr, err := gzip.NewReader(src)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), benchTrace+".swf")
	dst, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(dst, zr)
	if err != nil {
		b.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		b.Fatal(err)
	}
	return path, n
}

// BenchmarkReadSDSCBlue parses the 22.5 MB SDSC Blue Horizon log from a
// plain file (target: under 0.15 s per op).
func BenchmarkReadSDSCBlue(b *testing.B) {
	path, size := plainCopy(b)
	benchRead(b, path, size)
}

// BenchmarkReadSDSCBlueGzip parses the same log from its .gz (target: under
// 0.4 s per op).
func BenchmarkReadSDSCBlueGzip(b *testing.B) {
	_, size := plainCopy(b)
	benchRead(b, sharedtraces.Trace(b, benchTrace), size)
}

// BenchmarkWrite writes the SDSC Blue Horizon log's jobs to io.Discard.
func BenchmarkWrite(b *testing.B) {
	tr := readShared(b, benchTrace)
	var out bytes.Buffer
	if err := model.WriteAll(NewWriter(&out, &tr.Header), tr.Jobs); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(out.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := model.WriteAll(NewWriter(io.Discard, &tr.Header), tr.Jobs); err != nil {
			b.Fatal(err)
		}
	}
}
