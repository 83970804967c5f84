package pipelines

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
)

// memoRun writes a run directory with n outcomes and as many samples.
func memoRun(t *testing.T, key string, n int) *Finished {
	t.Helper()
	dir := filepath.Join(t.TempDir(), key)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, fill func(f *os.File, h *model.Header) error) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := fill(f, &model.Header{}); err != nil {
			t.Fatal(err)
		}
	}
	write(OutcomesFile, func(f *os.File, h *model.Header) error {
		w, err := columnar.NewOutcomeWriter(f, columnar.FormatParquet, h)
		if err != nil {
			return err
		}
		for i := range n {
			s := model.Time(i) * model.Second
			o := model.Outcome{JobID: int64(i + 1), Procs: 1, Submit: s, Start: s, End: s + model.Second,
				Runtime: model.Second, Dedicated: model.Second}
			if err := w.Write(&o); err != nil {
				return err
			}
		}
		return w.Close()
	})
	write(TimeSeriesFile, func(f *os.File, h *model.Header) error {
		w, err := columnar.NewSampleWriter(f, columnar.FormatParquet, h)
		if err != nil {
			return err
		}
		for i := range n {
			s := model.Sample{At: model.Time(i) * model.Second, InSystem: 1, Running: 1}
			if err := w.WriteSample(&s); err != nil {
				return err
			}
		}
		return w.Close()
	})
	return &Finished{Key: key, Dir: dir}
}

// TestRunMemo checks that a sweep's memo reads a run once while it holds
// it, lets the oldest go past its limit, and keeps saturation decisions.
func TestRunMemo(t *testing.T) {
	a, b, c := memoRun(t, "a", 1000), memoRun(t, "b", 1000), memoRun(t, "c", 1000)
	m := &runMemo{limit: 2500}
	for _, f := range []*Finished{a, b} {
		o, err := m.outcomesOf(f)
		if err != nil || len(o) != 1000 {
			t.Fatalf("%s: %d outcomes, %v", f.Key, len(o), err)
		}
	}
	// Held: a's file gone, its outcomes still come back.
	os.Remove(filepath.Join(a.Dir, OutcomesFile))
	if o, err := m.outcomesOf(a); err != nil || len(o) != 1000 || o[999].JobID != 1000 {
		t.Fatalf("a from the memo: %d outcomes, %v", len(o), err)
	}
	// c pushes a, the oldest, out: a is read again, and is gone.
	if _, err := m.outcomesOf(c); err != nil {
		t.Fatal(err)
	}
	if _, err := m.outcomesOf(a); err == nil {
		t.Error("a still held past the limit")
	}
	if m.rows != 2000 || len(m.order) != 2 {
		t.Errorf("held %d outcomes of %d runs, want 2000 of 2", m.rows, len(m.order))
	}
	// Saturation decisions are kept whatever the outcomes' limit.
	o, _ := m.outcomesOf(b)
	want, err := m.saturationOf(b, o)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(b.Dir, TimeSeriesFile))
	if got, err := m.saturationOf(b, o); err != nil || fmt.Sprint(got) != fmt.Sprint(want) { // Drain may be NaN
		t.Errorf("b's decision from the memo: %+v, %v; want %+v", got, err, want)
	}
	// A nil memo reads every time.
	var none *runMemo
	if _, err := none.saturationOf(b, o); err == nil {
		t.Error("a nil memo found a decision")
	}
}
