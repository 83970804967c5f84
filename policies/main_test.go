package policies

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the tests with the gang scheduler's replan checked
// (checkReplan: every job left out of a replan would have kept its duty);
// benchmarks run without the check.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		checkReplan = true
	}
	os.Exit(m.Run())
}
