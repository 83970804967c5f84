// Package fuzzcorpus keeps the seed corpora of the fuzz targets, for their
// tests: testdata/fuzz/<target>/seed-N, one file per seed in Go's corpus
// encoding. A test checks that the files are there, or, run with
// -fuzzcorpus, rewrites them from its seeds:
//
//	go test -run TestFuzzReplayCorpus -args -fuzzcorpus
package fuzzcorpus

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("fuzzcorpus", false, "rewrite the seed corpora of the fuzz targets in testdata/fuzz")

// header starts every file of a corpus.
const header = "go test fuzz v1\n"

// Encode returns one seed's file: the arguments of its f.Add, each a
// []byte or a byte, one per line.
func Encode(args ...any) string {
	var b strings.Builder
	b.WriteString(header)
	for _, a := range args {
		switch a := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", a)
		case byte:
			fmt.Fprintf(&b, "byte(%q)\n", a)
		default:
			panic(fmt.Sprintf("fuzzcorpus: an argument of type %T", a))
		}
	}
	return b.String()
}

// Check checks that testdata/fuzz/target holds seed-i for every seed i
// (each the arguments of one f.Add, as Encode takes them), its first
// argument a []byte; under -fuzzcorpus it writes them instead.
func Check(t testing.TB, target string, seeds [][]any) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	for i, s := range seeds {
		path := filepath.Join(dir, fmt.Sprintf("seed-%d", i))
		if *rewrite {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(path, []byte(Encode(s...)), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(got), header+"[]byte(") {
			t.Errorf("%s: %v (go test -run %s -args -fuzzcorpus writes it)", path, err, t.Name())
		}
	}
}
