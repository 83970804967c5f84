package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
)

// BenchmarkCTCEasy is the end-to-end target of the replay issue: EASY on
// CTC-SP2 (77,205 jobs after cleaning), from parsing the gzipped SWF to the
// written per-job results. pyss needs 42 s for it on this machine; the
// target is under 0.2 s.
func BenchmarkCTCEasy(b *testing.B) {
	trace := sharedtraces.Trace(b, "CTC-SP2-1996-3.1-cln")
	for _, mode := range []struct{ name, ext string }{{"pyss-parquet", ".parquet"}, {"pyss-arrow", ".arrow"}, {"pyss-csv", ".csv"}} {
		b.Run(mode.name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "ctc"+mode.ext)
			for i := 0; i < b.N; i++ {
				if err := run([]string{"--compat", "pyss", "-p", "easy", trace, "-o", out, "-q"}, strings.NewReader(""), io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
