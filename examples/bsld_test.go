package examples

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/repro"
)

// columnMean reads a double column of a Parquet file as a notebook would
// (parquet-go's pages, not gangsim's reader) and returns the mean of its
// non-null values and their count.
func columnMean(t *testing.T, path, column string) (float64, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	leaf, ok := pf.Schema().Lookup(column)
	if !ok {
		t.Fatalf("%s has no column %s", path, column)
	}
	var sum float64
	n := 0
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
		for {
			p, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			vals := make([]parquet.Value, p.NumValues())
			if k, err := p.Values().ReadValues(vals); err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			} else {
				vals = vals[:k]
			}
			for _, v := range vals {
				if !v.IsNull() {
					sum += v.Double()
					n++
				}
			}
		}
		pages.Close()
	}
	return sum / float64(n), n
}

// TestBoundedSlowdownColumnsMatchTools: the outcome files' bounded
// slowdown columns are what gangsim's summaries and items report, so that
// a notebook's mean of a column is the tools' number. On a workload
// compressed 100 times (the thesis'), under gang scheduling (where the
// time-sharing form differs from the classic one): the mean of
// bsld_rt10s is the summary's classic mean and an item's bsld_mean, the
// mean of ts_bsld_rt10s its time-sharing mean and ts_bsld_mean. Before,
// the file's one column, bounded_slowdown, used 10 s of the compressed
// time: a mean of 8.28 where the tools said 304.4 on make run's EASY run.
func TestBoundedSlowdownColumnsMatchTools(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "bsld.json")
	os.WriteFile(exp, []byte(`{
  "item": "bsld-check/gs",
  "title": "bounded slowdowns",
  "run": {
    "workload": {"source": {"lublin": {"jobs": 300, "procs": 32}}, "estimates": {"mode": "loose"},
                 "load": {"target": 0.8}, "compress": 100, "seed": 4},
    "replay": {"policy": "gs:mpl=3,backfill=easy", "hw": "crescendo"}
  },
  "grid": [{"name": "policy", "set": "replay.policy", "values": ["gs:mpl=3,backfill=easy", "easy"]},
           {"name": "load", "set": "workload.load.target", "values": [0.8]}],
  "analysis": {"kind": "metrics", "x": "load", "series": "policy", "metrics": ["bsld_mean", "ts_bsld_mean"]}
}`), 0o644)
	e, sha, err := analysis.LoadExperiment(exp)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Reproduce(&pipelines.Sweep{Cache: &pipelines.Cache{Dir: filepath.Join(dir, "cache")}}, "bsld.json", sha)
	if err != nil {
		t.Fatal(err)
	}
	item := map[string]float64{} // "policy metric" -> value
	for _, r := range rep.Item.Rows {
		item[r.Coord("policy")+" "+r.Coord("metric")] = r.Gangsim
	}
	differs := false
	for _, f := range rep.Runs {
		policy := f.Run.Replay.Policy
		file := filepath.Join(f.Dir, pipelines.OutcomesFile)
		bsld, n := columnMean(t, file, "bsld_rt10s")
		ts, _ := columnMean(t, file, "ts_bsld_rt10s")

		// The replay's own summary (replay's stderr line), at the tau it
		// takes from the workload's manifest.
		o, h, err := f.Outcomes()
		if err != nil {
			t.Fatal(err)
		}
		factor, err := model.CompressionOf(h)
		if err != nil || factor != 100 {
			t.Fatalf("%s: compression %v, %v", policy, factor, err)
		}
		sum := metrics.Summary{Tau: metrics.CompressedTau(factor)}
		for i := range o {
			sum.Add(&o[i])
		}
		// analyze's table, from the same outcomes and tau.
		acc := metrics.NewRunAccumulator(metrics.CompressedTau(factor))
		for i := range o {
			acc.Add(&o[i])
		}
		table := acc.Summary(32)
		if n != table.Jobs {
			t.Errorf("%s: %d values in the column, %d completed jobs", policy, n, table.Jobs)
		}
		for _, c := range []struct {
			what       string
			file, tool float64
		}{
			{"bsld_rt10s against the summary", bsld, sum.MeanBoundedSlowdown()},
			{"ts_bsld_rt10s against the summary", ts, sum.MeanTimeSharingBoundedSlowdown()},
			{"bsld_rt10s against analyze's bsld_mean", bsld, table.BoundedSlowdown.Mean},
			{"ts_bsld_rt10s against analyze's ts_bsld_mean", ts, table.TimeSharingBoundedSlowdown.Mean},
			{"bsld_rt10s against the item's bsld_mean", bsld, item[policy+" bsld_mean"]},
			{"ts_bsld_rt10s against the item's ts_bsld_mean", ts, item[policy+" ts_bsld_mean"]},
		} {
			// The item rounds to 6 significant digits (repro.FormatValue).
			if want := repro.FormatValue(c.tool); repro.FormatValue(c.file) != want || !agree(c.file, c.tool, 1e-12) && !strings.Contains(c.what, "item") {
				t.Errorf("%s, %s: the file's mean %v, the tool's %v", policy, c.what, c.file, c.tool)
			}
		}
		if math.Abs(bsld-ts) > 1e-9*ts {
			differs = true
		}
		if bsld < 1 || ts < 1 {
			t.Errorf("%s: means %v and %v below 1", policy, bsld, ts)
		}
	}
	if !differs {
		t.Error("the two forms agree on every run: gang scheduling should stretch runtimes past the dedicated ones")
	}
}

// TestBoundedSlowdownUncompressed: without a compression in the manifests
// (a real log), the columns' tau is 10 s.
func TestBoundedSlowdownUncompressed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	h := model.Header{}
	(&model.Manifest{Tool: "replay"}).Apply(&h)
	w, err := columnar.NewOutcomeWriter(f, columnar.FormatParquet, &h)
	if err != nil {
		t.Fatal(err)
	}
	if w.Tau() != 10*model.Second {
		t.Errorf("tau %v", w.Tau())
	}
	// Wait 4 s and 2 s of runtime: 6 / max(2, 10) is below 1, so 1; wait
	// 30 s and 20 s (dedicated 10 s): 50 / 20 and 50 / 10.
	for _, o := range []model.Outcome{
		{JobID: 1, Submit: 0, Start: 4 * model.Second, End: 6 * model.Second, Runtime: 2 * model.Second, Dedicated: 2 * model.Second, Procs: 1},
		{JobID: 2, Submit: 0, Start: 30 * model.Second, End: 50 * model.Second, Runtime: 20 * model.Second, Dedicated: 10 * model.Second, Procs: 1},
		{JobID: 3, Submit: 0, Start: model.Never, End: model.Never, Procs: 99, Reason: model.RejectTooWide},
	} {
		if err := w.Write(&o); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if m, n := columnMean(t, path, "bsld_rt10s"); n != 2 || m != (1+2.5)/2 {
		t.Errorf("bsld_rt10s: mean %v of %d", m, n)
	}
	if m, n := columnMean(t, path, "ts_bsld_rt10s"); n != 2 || m != (1+5.0)/2 {
		t.Errorf("ts_bsld_rt10s: mean %v of %d", m, n)
	}
}
