package pipelines

import (
	"os"
	"path/filepath"
	"testing"
)

// TestItemKeyCoversEveryInput: an item's key changes with each of what its
// files are made from (the experiment's digest, a run, the runs' order,
// the code, the options) and with nothing else; a stamp stands only
// under its key and while its files are as written.
func TestItemKeyCoversEveryInput(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.swf")
	os.WriteFile(trace, []byte(keyTrace("")), 0o644)
	run := func(policy string) *Run {
		r, err := ParseRun([]byte(`{"workload": {"source": {"trace": {"path": "` + trace + `"}}}, "replay": {"policy": "` + policy + `"}}`))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run("fcfs"), run("easy")
	key := func(spec string, runs []*Run, options string) string {
		k, err := ItemKey("p/i", spec, runs, options)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key("s", []*Run{a, b}, "")
	if again := key("s", []*Run{run("fcfs"), run("easy")}, ""); again != base {
		t.Error("the same item has two keys")
	}
	others := map[string]string{
		"another spec":     key("t", []*Run{a, b}, ""),
		"another run":      key("s", []*Run{a, run("conservative")}, ""),
		"the runs swapped": key("s", []*Run{b, a}, ""),
		"other options":    key("s", []*Run{a, b}, "dpi=300"),
	}
	func() {
		defer func(c func() string) { codeIdentity = c }(codeIdentity)
		codeIdentity = func() string { return "0ther" }
		others["other code"] = key("s", []*Run{a, b}, "")
	}()
	os.WriteFile(trace, []byte(keyTrace("41 900 -1 100 8 -1 -1 8 200 -1 1 1 1 -1 1 -1 -1 -1\n")), 0o644)
	others["an edited trace"] = key("s", []*Run{a, b}, "")
	for what, k := range others {
		if k == base {
			t.Errorf("%s: the key is unchanged", what)
		}
	}

	c := &Cache{Dir: filepath.Join(dir, "cache")}
	results := filepath.Join(dir, "results")
	file := filepath.Join(results, "p", "i.csv")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte("x\n"), 0o644)
	if err := c.StampItem(results, ItemStamp{Key: base, Item: "p/i", Runs: 2}, []string{file}); err != nil {
		t.Fatal(err)
	}
	if s, ok := c.ItemUpToDate(results, "p/i", base); !ok || s.Runs != 2 {
		t.Errorf("the stamped item is not up to date: %+v %v", s, ok)
	}
	if _, ok := c.ItemUpToDate(results, "p/i", others["other code"]); ok {
		t.Error("up to date under another key")
	}
	if _, ok := c.ItemUpToDate(results, "p/j", base); ok {
		t.Error("another item is up to date by this one's stamp")
	}
	if _, ok := c.ItemUpToDate(filepath.Join(dir, "else"), "p/i", base); ok {
		t.Error("up to date in another results directory")
	}
	os.WriteFile(file, []byte("y\n"), 0o644)
	if _, ok := c.ItemUpToDate(results, "p/i", base); ok {
		t.Error("up to date with its file edited")
	}
}
