package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepItemUpToDate: a sweep that finds an item's experiment, runs and
// options unchanged, and its files as it wrote them, does not make the
// item again (its runs are not even read: they are gone from the cache
// here) and says what it said the first time; a change to the experiment,
// to a file of the item, or another results directory makes it again,
// with the same bytes.
func TestSweepItemUpToDate(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 20; i++ {
		run := 10 + i
		if i%4 == 0 {
			run = -1 // never ran: a drop the sweep reports every time
		}
		b.WriteString(strings.Join([]string{itoa(i), itoa(10 * i), "-1", itoa(run), "2 -1 -1 2 40 -1 1 1 1 1 1 -1 -1 -1\n"}, " "))
	}
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte(b.String()), 0o644)
	exp := filepath.Join(dir, "e.json")
	spec := func(title string) {
		os.WriteFile(exp, []byte(`{"item": "my-study/stamp", "title": "`+title+`",
  "grid": [{"name": "policy", "set": "replay.policy", "values": ["fcfs", "easy"]}],
  "run": {"workload": {"source": {"trace": {"path": "`+trace+`"}}}, "replay": {"policy": "fcfs"}},
  "analysis": {"kind": "metrics", "metrics": ["wait_s_mean"]}}`), 0o644)
	}
	spec("t")
	cache := filepath.Join(dir, "cache")
	results := filepath.Join(dir, "results")
	csvPath := filepath.Join(results, "my-study", "stamp.csv")
	sweep := func(results, want string) string {
		t.Helper()
		_, stderr, err := replayCmd(t, nil, "sweep", "--cache", cache, "-o", results, exp)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, "my-study/stamp: every run (2): replay cleaning default dropped 5 of 20 jobs") {
			t.Errorf("the drops are not said:\n%s", stderr)
		}
		if !strings.Contains(stderr, "my-study/stamp: 2 runs ("+want+"); cells within tolerance 0/0") {
			t.Errorf("stderr:\n%s\nwant the item %s", stderr, want)
		}
		csv, err := os.ReadFile(filepath.Join(results, "my-study", "stamp.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(csv)
	}
	first := sweep(results, "0 cached")
	if err := os.RemoveAll(filepath.Join(cache, "runs")); err != nil {
		t.Fatal(err)
	}
	if got := sweep(results, "up to date"); got != first {
		t.Errorf("an up-to-date item's file changed:\n%s\nwas\n%s", got, first)
	}
	// A file of the item edited: made again (its runs too: gone).
	os.WriteFile(csvPath, []byte(first+"# an edit\n"), 0o644)
	if got := sweep(results, "0 cached"); got != first {
		t.Errorf("the item made again differs:\n%s\nwas\n%s", got, first)
	}
	// Another results directory has no stamp of its own yet.
	other := filepath.Join(dir, "other")
	if got := sweep(other, "2 cached"); got != first {
		t.Errorf("the item in another directory differs:\n%s\nwas\n%s", got, first)
	}
	sweep(other, "up to date")
	// The file removed: made again.
	os.Remove(csvPath)
	sweep(results, "2 cached")
	// The experiment changed: made again, with the new title.
	spec("another title")
	if got := sweep(results, "2 cached"); !strings.Contains(got, "another title") {
		t.Errorf("the item does not carry the experiment's new title:\n%s", got)
	}
	sweep(results, "up to date")
}
