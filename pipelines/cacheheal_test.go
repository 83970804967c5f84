package pipelines

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmpEntries lists Dir/tmp.
func tmpEntries(t *testing.T, c *Cache) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(c.Dir, "tmp"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestCacheRemovesDeadRuns: a temporary run directory that nobody holds
// (what a killed sweep leaves) is removed by the next sweep, however young;
// before, only those older than a day were.
func TestCacheRemovesDeadRuns(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	dead := filepath.Join(c.Dir, "tmp", "0123456789abcdef-42")
	os.MkdirAll(dead, 0o755)
	os.WriteFile(filepath.Join(dead, OutcomesFile), []byte("PAR1 half"), 0o644)
	runs, _ := sweepRuns(t)
	if _, err := (&Sweep{Cache: c, Workers: 1}).Do(runs[:1], nil); err != nil {
		t.Fatal(err)
	}
	if names := tmpEntries(t, c); len(names) != 0 {
		t.Errorf("left in the cache's tmp after a sweep: %v", names)
	}
}

// TestCacheOtherHosts: an unheld directory another host made (a run of a
// Slurm task elsewhere, on a file system whose locks might be that host's
// alone) stays until it is a day old.
func TestCacheOtherHosts(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	other := filepath.Join(c.Dir, "tmp", "0123456789abcdef-@node-17.elsewhere-4242")
	os.MkdirAll(other, 0o755)
	if err := c.RemoveStale(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("another host's young directory was removed: %v", err)
	}
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(other, old, old)
	c.RemoveStale()
	if _, err := os.Stat(other); err == nil {
		t.Error("another host's day-old unheld directory was kept")
	}
	if hostOf("0123456789abcdef-old-@a-b-c-99") != "a-b-c" || hostOf("0123456789abcdef-42") != "" {
		t.Error("hostOf")
	}
	tmp, err := c.newTemp("0123456789abcdef-")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.release()
	if hostOf(filepath.Base(tmp.path)) != thisHost() {
		t.Errorf("%s does not name this host %s", tmp.path, thisHost())
	}
}

// TestCacheKeepsLiveRuns: a run being built stays, whatever its
// directory's age, while another sweep cleans the cache: before, a
// directory whose mtime was a day old was deleted under the live run,
// which then failed.
func TestCacheKeepsLiveRuns(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	other := &Cache{Dir: c.Dir}
	started, finish := make(chan string), make(chan struct{})
	done := make(chan error, 1)
	key := strings.Repeat("ab", 32)
	go func() {
		_, err := c.Put(key, func(dir string) (*RunInfo, error) {
			started <- dir
			<-finish
			for _, name := range []string{OutcomesFile, TimeSeriesFile} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("PAR1\x00\x00\x00\x00\x04\x00\x00\x00PAR1"), 0o644); err != nil {
					return nil, err
				}
			}
			return &RunInfo{Key: key, Dropped: []string{}}, os.WriteFile(filepath.Join(dir, InfoFile), []byte(`{"key":"`+key+`","dropped":[]}`), 0o644)
		})
		done <- err
	}()
	dir := <-started
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(dir, old, old)
	if err := other.RemoveStale(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the live run's directory was removed: %v", err)
	}
	close(finish)
	if err := <-done; err != nil {
		t.Fatalf("the live run failed: %v", err)
	}
	if _, ok := c.Get(key); !ok {
		t.Error("the live run is not in the cache")
	}
}

// TestCacheRemovesKilledRun: a process that builds a run and is killed
// with SIGKILL leaves its directory, which the next sweep removes: the
// lock went with the process.
func TestCacheRemovesKilledRun(t *testing.T) {
	if os.Getenv("GANGSIM_TEST_HOLD_CACHE") != "" {
		c := &Cache{Dir: os.Getenv("GANGSIM_TEST_HOLD_CACHE")}
		c.Put(strings.Repeat("cd", 32), func(dir string) (*RunInfo, error) {
			os.WriteFile(filepath.Join(dir, OutcomesFile), []byte("PAR1"), 0o644)
			os.Stdout.WriteString("building\n")
			time.Sleep(time.Minute)
			return nil, errors.New("not killed")
		})
		return
	}
	c := &Cache{Dir: t.TempDir()}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheRemovesKilledRun$")
	cmd.Env = append(os.Environ(), "GANGSIM_TEST_HOLD_CACHE="+c.Dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	var got []byte
	for !bytes.Contains(got, []byte("building")) {
		n, err := out.Read(buf)
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("the helper process: %v (%s)", err, got)
		}
		got = append(got, buf[:n]...)
	}
	if err := c.RemoveStale(); err != nil {
		t.Fatal(err)
	}
	if len(tmpEntries(t, c)) != 1 {
		t.Fatal("the live process's run was removed")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if err := c.RemoveStale(); err != nil {
		t.Fatal(err)
	}
	if names := tmpEntries(t, c); len(names) != 0 {
		t.Errorf("the killed process's run is left: %v", names)
	}
}

// TestCacheHealsDamagedTables: a cached table cut short on disk makes the
// run missing (made again, as a damaged run.json does), and one damaged
// within, which passes that check, is made again when it fails to read
// back; either way the sweep goes on with the same outcomes. Before, every
// later sweep failed ("no Parquet magic at the end").
func TestCacheHealsDamagedTables(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	runs, _ := sweepRuns(t)
	var warned []string
	s := &Sweep{Cache: c, Workers: 1, Warn: func(m string) { warned = append(warned, m) }}
	first, err := s.Do(runs[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := first[0].Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	outcomes := filepath.Join(first[0].Dir, OutcomesFile)
	whole, _ := os.ReadFile(outcomes)

	os.WriteFile(outcomes, whole[:len(whole)/2], 0o644) // cut short
	again, err := (&Sweep{Cache: c, Workers: 1}).Do(runs[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Cached {
		t.Error("a run whose outcomes were cut short was taken from the cache")
	}
	if got, _, err := again[0].Outcomes(); err != nil || len(got) != len(want) {
		t.Fatalf("after the remake: %d outcomes, %v", len(got), err)
	}

	// Damaged within: the frame is whole, the footer's metadata garbled.
	damaged := append([]byte{}, whole...)
	footer := int(binary.LittleEndian.Uint32(whole[len(whole)-8:]))
	for i := len(whole) - 8 - footer; i < len(whole)-8-footer+16; i++ {
		damaged[i] = 0xff
	}
	os.WriteFile(outcomes, damaged, 0o644)
	s = &Sweep{Cache: c, Workers: 1, Warn: func(m string) { warned = append(warned, m) }}
	third, err := s.Do(runs[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if !third[0].Cached {
		t.Fatal("the damaged file did not pass the frame check: the test does not test reading back")
	}
	got, _, err := third[0].Outcomes()
	if err != nil || len(got) != len(want) {
		t.Fatalf("reading a damaged cached table: %d outcomes, %v", len(got), err)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("outcome %d after the remake: %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "did not read back") {
		t.Errorf("warnings %q", warned)
	}
	if b, _ := os.ReadFile(outcomes); !bytes.Equal(b, whole) {
		t.Error("the remade table is not the original's bytes")
	}
}
