package columnar

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// duckDBTypes is the DuckDB type each documented column type must read as.
var duckDBTypes = map[colType]string{
	tInt64: "BIGINT", tInt32: "INTEGER", tFloat64: "DOUBLE", tString: "VARCHAR",
	tFloat64List: "DOUBLE[]", tInt32List: "INTEGER[]",
}

type duckColumn struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	NonNull int    `json:"non_null"`
}

type duckSpec struct {
	File    string            `json:"file"`
	Rows    int               `json:"rows"`
	Columns []duckColumn      `json:"columns"`
	KV      map[string]string `json:"kv"`
}

// expect lists k's documented columns with DuckDB's type names; every
// column has rows non-null values except those in nonNull.
func expect(file string, k *kind, rows int, nonNull map[string]int) duckSpec {
	s := duckSpec{File: file, Rows: rows, KV: map[string]string{
		KeySchema: k.schema, "MaxProcs": "338", model.KeyGangsimTool: "conformance",
	}}
	for _, c := range k.cols {
		n, ok := nonNull[c.name]
		if !ok {
			n = rows
		}
		s.Columns = append(s.Columns, duckColumn{Name: c.name, Type: duckDBTypes[c.typ], NonNull: n})
	}
	return s
}

// TestDuckDBConformance writes every kind of Parquet file gangsim writes
// (trace, outcomes, time series) and has DuckDB (the npm package
// @duckdb/node-api, run by conformance/duckdb/check.mjs) open them and
// compare column names, types, row counts, null counts and key-value
// metadata with the documented schema. It skips when Node.js or the npm
// package is missing, unless GANGSIM_REQUIRE_DUCKDB is set, as CI sets it.
func TestDuckDBConformance(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "conformance", "duckdb"))
	node, err := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api"))
	if err != nil || modErr != nil {
		if os.Getenv("GANGSIM_REQUIRE_DUCKDB") != "" {
			t.Fatalf("DuckDB check required but not runnable (node: %v; module: %v); run npm install in %s", err, modErr, dir)
		}
		t.Skipf("Node.js or @duckdb/node-api not installed (npm install in %s); skipping", dir)
	}

	tmp := t.TempDir()
	h := testHeader()
	(&model.Manifest{Tool: "conformance", Version: "test", Seed: 7, HasSeed: true}).Apply(&h)
	write := func(name string, fill func(f *os.File) error) string {
		p := filepath.Join(tmp, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := fill(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}

	jobs := testJobs() // full, all missing, three fields and a pattern
	trace := write("trace.parquet", func(f *os.File) error {
		w, err := NewTraceWriter(f, FormatParquet, &h)
		if err != nil {
			return err
		}
		return model.WriteAll(w, jobs)
	})
	traceNulls := map[string]int{"job_id": 2, "submit_s": 2, "runtime_s": 2, "pattern": 2}
	for _, c := range traceKind.cols {
		if _, ok := traceNulls[c.name]; !ok {
			traceNulls[c.name] = 1
		}
	}

	outs := []model.Outcome{
		{JobID: 1, Submit: 0, Start: 10 * model.Second, End: 110 * model.Second, Procs: 4, Estimate: model.Hour,
			Runtime: 100 * model.Second, Dedicated: 50 * model.Second, Sharing: model.JobLevel, Switches: 4, SwitchLoss: 8 * model.Millisecond},
		{JobID: 2, Submit: 5, Start: model.Never, End: model.Never, Procs: 4096, Dedicated: 7, Reason: model.RejectTooWide},
		{JobID: 3, Submit: 6, Start: 6, End: 9, Procs: 1, Runtime: 3, Dedicated: 3, Sharing: model.ProcessLevel, Switches: 1,
			CPU: 2, Spin: 1, Classes: model.FCSClasses{CS: 1}},
	}
	outcomes := write("outcomes.parquet", func(f *os.File) error {
		w, err := NewOutcomeWriter(f, FormatParquet, &h)
		if err != nil {
			return err
		}
		for i := range outs {
			if err := w.Write(&outs[i]); err != nil {
				return err
			}
		}
		return w.Close()
	})
	samples := write("timeseries.parquet", func(f *os.File) error {
		w, err := NewSampleWriter(f, FormatParquet, &h)
		if err != nil {
			return err
		}
		for i := 0; i < 100_000; i++ { // more than one row group
			s := model.Sample{At: model.Time(i) * model.Second, InSystem: i % 7, Queued: i % 3, Running: i%7 - i%3, BusyProcs: float64(i%5) / 2,
				Sharing: model.Sharing(i % 3), Rows: i % 4, Switching: 0.01, Computing: 1, Spinning: 0.5, Ready: 2}
			if err := w.WriteSample(&s); err != nil {
				return err
			}
		}
		return w.Close()
	})

	specs := []duckSpec{
		expect(trace, traceKind, 3, traceNulls),
		expect(outcomes, outcomeKind, 3, map[string]int{
			"start_s": 2, "end_s": 2, "wait_s": 2, "response_s": 2, "runtime_s": 2, "slowdown": 2,
			"bsld_rt10s": 2, "ts_bsld_rt10s": 2, "estimate_s": 1, "reason": 1,
			"switches": 2, "switch_loss_s": 2, "cpu_s": 1, "spin_s": 1, "blocked_s": 1, "class_cs": 1, "class_f": 1, "class_dc": 1,
		}),
		// Sharing cycles none, job, process: 33,334, 33,333 and 33,333 rows.
		expect(samples, sampleKind, 100_000, map[string]int{"rows": 66_666, "switching": 66_666,
			"computing": 33_333, "spinning": 33_333, "blocked_procs": 33_333, "ready": 33_333}),
	}
	specFile := filepath.Join(tmp, "expect.json")
	b, _ := json.MarshalIndent(specs, "", " ")
	if err := os.WriteFile(specFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "check.mjs"), specFile)
	out, err := cmd.CombinedOutput()
	t.Logf("DuckDB:\n%s", out)
	if err != nil {
		t.Fatalf("DuckDB does not read gangsim's Parquet files as documented: %v", err)
	}
}
