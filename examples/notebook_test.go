package examples

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/repro"
)

// notebookFile is the notebook under test, relative to this package.
const notebookFile = "fig-6.12.ipynb"

// notebook is the part of an nbformat 4 document the tests read.
type notebook struct {
	NBFormat      int `json:"nbformat"`
	NBFormatMinor int `json:"nbformat_minor"`
	Metadata      struct {
		Kernelspec *struct {
			Name     string `json:"name"`
			Language string `json:"language"`
		} `json:"kernelspec"`
	} `json:"metadata"`
	Cells []notebookCell `json:"cells"`
}

type notebookCell struct {
	Type           string            `json:"cell_type"`
	ID             string            `json:"id"`
	Source         json.RawMessage   `json:"source"` // a string or a list of lines
	Outputs        []json.RawMessage `json:"outputs"`
	ExecutionCount *int              `json:"execution_count"`
}

// text is the cell's source as one string.
func (c *notebookCell) text() (string, error) {
	var s string
	if err := json.Unmarshal(c.Source, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(c.Source, &lines); err != nil {
		return "", fmt.Errorf("cell %q: source is neither a string nor a list of strings", c.ID)
	}
	return strings.Join(lines, ""), nil
}

// readNotebook parses a notebook and returns it with the sources of its
// code cells.
func readNotebook(t *testing.T, path string) (*notebook, []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	var code []string
	for i := range nb.Cells {
		src, err := nb.Cells[i].text()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if nb.Cells[i].Type == "code" {
			code = append(code, src)
		}
	}
	return &nb, code
}

// sqlConstant matches the notebook's SQL string constants, NAME_SQL = """...""".
var sqlConstant = regexp.MustCompile(`(?ms)^([A-Z][A-Z0-9_]*_SQL) = r?"""(.*?)"""`)

// notebookSQL returns the notebook's SQL constants by name.
func notebookSQL(code []string) map[string]string {
	out := map[string]string{}
	for _, src := range code {
		for _, m := range sqlConstant.FindAllStringSubmatch(src, -1) {
			out[m[1]] = m[2]
		}
	}
	return out
}

// TestNotebookFormat checks that the notebook is a valid nbformat 4
// document for a Python 3 kernel, committed either clean (no outputs, no
// execution counts) or fully executed without errors, that its first cell
// says how to get the data and what to install, that it keeps its SQL in
// the constants and views TestNotebookOnRuns runs, and, when python3 is
// installed, that every code cell parses as Python.
func TestNotebookFormat(t *testing.T) {
	nb, code := readNotebook(t, notebookFile)
	if nb.NBFormat != 4 || nb.NBFormatMinor < 4 {
		t.Errorf("nbformat %d.%d, want 4.4 or later", nb.NBFormat, nb.NBFormatMinor)
	}
	if ks := nb.Metadata.Kernelspec; ks == nil || ks.Name != "python3" || ks.Language != "python" {
		t.Errorf("kernel spec %+v, want name python3, language python", ks)
	}
	if len(nb.Cells) == 0 || nb.Cells[0].Type != "markdown" {
		t.Fatal("the first cell must be Markdown saying what the notebook does")
	}
	intro, _ := nb.Cells[0].text()
	for _, want := range []string{"make figures", "genwork lublin", "replay --policy", "pip install duckdb pandas matplotlib",
		"GANGSIM_CACHE", ".cache/gangsim"} {
		if !strings.Contains(intro, want) {
			t.Errorf("the first cell does not mention %q", want)
		}
	}

	ids := map[string]bool{}
	executed, clean := 0, 0
	for _, c := range nb.Cells {
		if nb.NBFormatMinor >= 5 && (c.ID == "" || ids[c.ID]) {
			t.Errorf("cell id %q missing or repeated (nbformat 4.5 wants unique ids)", c.ID)
		}
		ids[c.ID] = true
		switch c.Type {
		case "markdown", "raw":
		case "code":
			if len(c.Outputs) == 0 && c.ExecutionCount == nil {
				clean++
				continue
			}
			executed++
			for _, o := range c.Outputs {
				var out struct {
					Type string `json:"output_type"`
				}
				if json.Unmarshal(o, &out) != nil || out.Type == "error" {
					t.Errorf("cell %q has an error output", c.ID)
				}
			}
		default:
			t.Errorf("cell %q: unknown cell type %q", c.ID, c.Type)
		}
	}
	if executed > 0 && clean > 0 {
		t.Errorf("%d code cells have outputs and %d do not: commit the notebook clean (clear all outputs), "+
			"or executed from top to bottom", executed, clean)
	}

	sql := notebookSQL(code)
	for _, name := range []string{"RUNS_SQL", "RUN_STATS_SQL", "FIGURE_SQL"} {
		if strings.TrimSpace(sql[name]) == "" {
			t.Errorf("no %s = \"\"\"...\"\"\" constant in a code cell", name)
		}
	}
	for name, want := range map[string][]string{
		"RUNS_SQL":      {"parquet_kv_metadata(", "gangsim.header"},
		"RUN_STATS_SQL": {"read_parquet(", "filename = true"},
	} {
		for _, w := range want {
			if !strings.Contains(sql[name], w) {
				t.Errorf("%s does not use %s", name, w)
			}
		}
	}
	// The views and the table TestNotebookOnRuns gives the queries must be
	// the ones the notebook makes.
	all := strings.Join(code, "\n")
	for _, want := range []string{
		`CREATE VIEW runs AS {RUNS_SQL}`, `CREATE VIEW run_stats AS {RUN_STATS_SQL}`, `con.register("grid", grid)`,
		`con.sql(FIGURE_SQL)`, `"GANGSIM_CACHE"`, `"GANGSIM_EXPERIMENT"`, `"GANGSIM_RESULTS"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the notebook's code has no %s", want)
		}
	}

	python, err := exec.LookPath("python3")
	if err != nil {
		t.Logf("python3 not found: the code cells' syntax is not checked")
		return
	}
	for i, src := range code {
		cmd := exec.Command(python, "-c", "import ast, sys; ast.parse(sys.stdin.read())")
		cmd.Stdin = strings.NewReader(src)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("code cell %d is not valid Python: %v\n%s", i+1, err, out)
		}
	}
}

// duckDB returns node and the directory of conformance/duckdb, or skips the
// test when Node.js or @duckdb/node-api is missing, unless
// GANGSIM_REQUIRE_DUCKDB is set (as CI sets it).
func duckDB(t *testing.T) (node, dir string) {
	t.Helper()
	dir, _ = filepath.Abs(filepath.Join("..", "conformance", "duckdb"))
	node, err := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api"))
	if err != nil || modErr != nil {
		if os.Getenv("GANGSIM_REQUIRE_DUCKDB") != "" {
			t.Fatalf("DuckDB required but not runnable (node: %v; module: %v); run npm install in %s", err, modErr, dir)
		}
		t.Skipf("Node.js or @duckdb/node-api not installed (npm install in %s); skipping the notebook's queries", dir)
	}
	return node, dir
}

// queryRows are query.mjs's output: each named query's rows.
type queryRows map[string][]map[string]any

// runQueries runs named SQL texts in order with query.mjs against dir,
// each one a view for the next, and returns their rows.
func runQueries(t *testing.T, node, script, dir string, queries [][2]string) (queryRows, error) {
	t.Helper()
	tmp := t.TempDir()
	args := []string{script, dir}
	for i, q := range queries {
		f := filepath.Join(tmp, fmt.Sprintf("%d-%s.sql", i, q[0]))
		if err := os.WriteFile(f, []byte(q[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, q[0]+"="+f)
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var rows queryRows
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		return nil, fmt.Errorf("query.mjs output: %w", err)
	}
	return rows, nil
}

// miniExperiment writes a small copy of experiments/frachtenberg/fig-6.12.json
// into dir: the same base run with 200 jobs, policies fcfs and easy, loads
// 0.6 and 0.9 and seeds 1 and 2 (8 runs), and no claims (they name loads
// it does not have). It returns the file's path.
func miniExperiment(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "experiments", "frachtenberg", "fig-6.12.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var e map[string]any
	if err := d.Decode(&e); err != nil {
		t.Fatal(err)
	}
	// The experiment's workload (the thesis preset, 1000 jobs selected for
	// the thesis' statistics) is replaced by 200 plain Lublin jobs of the
	// same machine, transforms and time compression: the notebook's
	// queries care for the runs' shape, not their statistics.
	run, ok := e["run"].(map[string]any)
	if !ok {
		t.Fatal("fig-6.12.json: no run")
	}
	run["workload"] = map[string]any{
		"source":    map[string]any{"lublin": map[string]any{"jobs": 200, "procs": 32}},
		"estimates": map[string]any{"mode": "loose"},
		"load":      map[string]any{"target": 0.74},
		"compress":  100,
		"seed":      1,
	}
	values := map[string][]any{"policy": {"fcfs", "easy"}, "load": {0.6, 0.9}, "seed": {1, 2}}
	grid, _ := e["grid"].([]any)
	for _, a := range grid {
		axis := a.(map[string]any)
		v, ok := values[axis["name"].(string)]
		if !ok {
			t.Fatalf("fig-6.12.json: unexpected grid axis %v", axis["name"])
		}
		axis["values"] = v
	}
	if len(grid) != len(values) {
		t.Fatalf("fig-6.12.json: %d grid axes, want policy, load and seed", len(grid))
	}
	delete(e, "claims")
	delete(e, "also") // the process-level policies' extra runs: the grid above is the whole sweep
	out, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "fig-6.12.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runStats are a run's parameters and the per-run statistics the
// notebook computes, here from package metrics.
type runStats struct {
	file      string // its outcomes.parquet
	tool      string // GangsimTool
	inGrid    bool   // a run of the experiment's grid
	policy    string
	machine   string // as the run's manifest names it: its NODESxPES, or the workload's processors
	load      float64
	seed      uint64
	jobs      int64
	estimates string
	compress  float64
	tau       model.Time
	completed int
	// values holds the mean and median response time (seconds) and
	// time-sharing bounded slowdown, by the notebook's column names.
	values map[string]float64
}

func (r *runStats) point() string { return fmt.Sprintf("%s %v", r.policy, r.load) }

// writeAsPipe writes a finished run's outcomes to path as the pipe
// "genwork lublin | replay -o path" would: the replay's manifest names the
// tool "replay" and its own seed, 1 (replay's default), whatever the
// workload's seed.
func writeAsPipe(t *testing.T, f *pipelines.Finished, path string) {
	t.Helper()
	outs, h, err := f.Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range h.Lines {
		switch l.Key {
		case model.KeyGangsimTool:
			h.Lines[i].Value = "replay"
		case model.KeyGangsimSeed:
			h.Lines[i].Value = "1"
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	w, err := columnar.NewOutcomeWriter(file, columnar.FormatParquet, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range outs {
		if err := w.Write(&outs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(w.Close(), file.Close()); err != nil {
		t.Fatal(err)
	}
}

// expectedStats computes a finished run's statistics with metrics.Summarize,
// as gangsim's fig-6.12 analysis does.
func expectedStats(t *testing.T, f *pipelines.Finished, tau model.Time, inGrid bool) runStats {
	t.Helper()
	o, _, err := f.Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	w := f.Run.Workload
	s := metrics.Summarize(o, w.Source.Lublin.Procs, tau)
	machine := f.Run.Replay.Machine
	if machine == "" {
		machine = strconv.Itoa(w.Source.Lublin.Procs)
	}
	return runStats{
		file: filepath.Join(f.Dir, pipelines.OutcomesFile), tool: pipelines.SweepTool, inGrid: inGrid,
		policy: f.Run.Replay.Policy, machine: machine, load: w.Load.Target, seed: w.Seed, jobs: w.Source.Lublin.Jobs,
		estimates: w.Estimates.Mode, compress: w.Compress, tau: tau, completed: s.Jobs,
		values: map[string]float64{
			"response_s_mean": s.Response.Mean, "response_s_median": s.Response.Median,
			"ts_bsld_mean": s.TimeSharingBoundedSlowdown.Mean, "ts_bsld_median": s.TimeSharingBoundedSlowdown.Median,
		},
	}
}

// agree reports whether a and b agree within rel relative to the larger.
func agree(a, b, rel float64) bool {
	return a == b || math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// relTol is how closely DuckDB's statistics must match gangsim's: they
// differ only by rounding (DuckDB works on seconds as doubles, gangsim on
// integer microseconds; sums in another order), a few ulps, far below it.
const relTol = 1e-9

// TestNotebookOnRuns makes real runs with gangsim's own code (a small
// fig-6.12 sweep in a temporary run cache, 2 policies x 2 loads x 2 seeds
// of 200 jobs, plus one run outside the grid), runs the notebook's SQL on
// them with DuckDB (conformance/duckdb/query.mjs) and checks every row:
// one per run with the policy, load and seed parsed from the metadata, the
// per-run statistics and the per-(policy, load) means over seeds equal to
// those computed with package metrics and to gangsim's own analysis.
// When Python has duckdb, pandas, matplotlib and nbconvert it then
// executes the whole notebook on the same runs.
func TestNotebookOnRuns(t *testing.T) {
	node, duckDir := duckDB(t)
	_, code := readNotebook(t, notebookFile)
	sql := notebookSQL(code)

	tmp := t.TempDir()
	cacheDir := filepath.Join(tmp, "cache")
	expFile := miniExperiment(t, tmp)
	e, sha, err := pipelines.LoadExperiment(expFile)
	if err != nil {
		t.Fatal(err)
	}
	sweep := &pipelines.Sweep{Cache: &pipelines.Cache{Dir: cacheDir}}
	rep, err := e.Reproduce(sweep, "fig-6.12.json", sha)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rep.Write(filepath.Join(tmp, "results")); err != nil {
		t.Fatal(err)
	}
	runs, _, err := e.Runs()
	if err != nil {
		t.Fatal(err)
	}
	tau := e.Tau(runs)
	if tau != 100*model.Millisecond {
		t.Fatalf("the experiment's tau is %v, the notebook says 0.1 s", tau)
	}

	// One run of the same workload outside the grid (load 0.75, seed 2),
	// written where and as a pipe "genwork lublin ... | replay -o" would
	// write it: in a directory of its own name, by the tool "replay" with
	// its own seed (1) beside the workload's. The runs query must list it
	// with the workload's seed; the figure must leave it out.
	extraDocs, extraPoints, err := pipelines.Expand(e.Run, []pipelines.Axis{
		{Name: "policy", Set: "replay.policy", Values: []json.RawMessage{json.RawMessage(`"easy"`)}},
		{Name: "load", Set: "workload.load.target", Values: []json.RawMessage{json.RawMessage(`0.75`)}},
		{Name: "seed", Set: "workload.seed", Values: []json.RawMessage{json.RawMessage(`2`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	extraRun, err := pipelines.ParseRun(extraDocs[0])
	if err != nil {
		t.Fatal(err)
	}
	extra, err := (&pipelines.Sweep{Cache: &pipelines.Cache{Dir: filepath.Join(tmp, "other-cache")}}).Do(
		[]*pipelines.Run{extraRun}, extraPoints)
	if err != nil {
		t.Fatal(err)
	}
	pipeDir := filepath.Join(cacheDir, "runs", "pipe", "easy-0.75-2")
	writeAsPipe(t, extra[0], filepath.Join(pipeDir, pipelines.OutcomesFile))

	want := map[string]runStats{} // by run name: the cache key, or the pipe's directory
	for _, f := range rep.Runs {
		want[f.Key] = expectedStats(t, f, tau, true)
	}
	pipe := expectedStats(t, extra[0], tau, false)
	pipe.file, pipe.tool = filepath.Join(pipeDir, pipelines.OutcomesFile), "replay"
	want[filepath.Base(pipeDir)] = pipe
	if len(want) != 9 {
		t.Fatalf("%d distinct runs, want 9", len(want))
	}

	// The grid table, as the notebook's grid cell builds it from the
	// experiment file.
	var grid []string
	for _, r := range runs {
		w := r.Workload
		grid = append(grid, fmt.Sprintf("('%s', '%s'::DOUBLE, %d, %d, '%s', '%s'::DOUBLE)", r.Replay.Policy,
			strconv.FormatFloat(w.Load.Target, 'g', -1, 64), w.Seed, w.Source.Lublin.Jobs, w.Estimates.Mode,
			strconv.FormatFloat(w.Compress, 'g', -1, 64)))
	}
	gridSQL := "SELECT * FROM (VALUES " + strings.Join(grid, ", ") +
		") AS grid(policy, load, seed, jobs, estimates, compress)"

	rows, err := runQueries(t, node, filepath.Join(duckDir, "query.mjs"), cacheDir, [][2]string{
		{"grid", gridSQL}, {"runs", sql["RUNS_SQL"]}, {"run_stats", sql["RUN_STATS_SQL"]}, {"figure", sql["FIGURE_SQL"]},
	})
	if err != nil {
		t.Fatalf("the notebook's SQL fails in DuckDB: %v", err)
	}

	t.Run("runs", func(t *testing.T) {
		checkRuns(t, rows["runs"], want)
	})
	t.Run("run_stats", func(t *testing.T) {
		checkRunStats(t, rows["run_stats"], want)
	})
	t.Run("figure", func(t *testing.T) {
		checkFigure(t, rows["figure"], want, rep)
	})
	t.Run("execute", func(t *testing.T) {
		executeNotebook(t, map[string]string{
			"GANGSIM_CACHE":      cacheDir,
			"GANGSIM_EXPERIMENT": expFile,
			"GANGSIM_RESULTS":    filepath.Join(tmp, "results", "frachtenberg", "fig-6.12.csv"),
		})
	})
}

// str and num read a column of a query.mjs row, failing the test
// when it is missing or of another type.
func str(t *testing.T, row map[string]any, col string) string {
	t.Helper()
	v, ok := row[col].(string)
	if !ok {
		t.Fatalf("column %s = %#v, want text (row %v)", col, row[col], row)
	}
	return v
}

func num(t *testing.T, row map[string]any, col string) float64 {
	t.Helper()
	v, ok := row[col].(float64)
	if !ok {
		t.Fatalf("column %s = %#v, want a number (row %v)", col, row[col], row)
	}
	return v
}

func checkRuns(t *testing.T, rows []map[string]any, want map[string]runStats) {
	if len(rows) != len(want) {
		t.Errorf("RUNS_SQL gives %d rows, want one per run: %d", len(rows), len(want))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		key := str(t, row, "run")
		w, ok := want[key]
		if !ok || seen[key] {
			t.Errorf("run %q: not a run of the cache, or listed twice", key)
			continue
		}
		seen[key] = true
		for _, c := range []struct {
			col       string
			got, want any
		}{
			{"file", str(t, row, "file"), w.file},
			{"tool", str(t, row, "tool"), w.tool},
			{"policy", str(t, row, "policy"), w.policy},
			{"machine", str(t, row, "machine"), w.machine},
			{"load", num(t, row, "load"), w.load},
			{"seed", num(t, row, "seed"), float64(w.seed)},
			{"jobs", num(t, row, "jobs"), float64(w.jobs)},
			{"estimates", str(t, row, "estimates"), w.estimates},
			{"compress", num(t, row, "compress"), w.compress},
			{"tau_s", num(t, row, "tau_s"), w.tau.Seconds()},
		} {
			if c.got != c.want {
				t.Errorf("run %.12s: %s = %v, want %v", key, c.col, c.got, c.want)
			}
		}
	}
}

func checkRunStats(t *testing.T, rows []map[string]any, want map[string]runStats) {
	if len(rows) != len(want) {
		t.Errorf("RUN_STATS_SQL gives %d rows, want one per run: %d", len(rows), len(want))
	}
	for _, row := range rows {
		key := str(t, row, "run")
		w, ok := want[key]
		if !ok {
			t.Errorf("run %q: not a run of the cache", key)
			continue
		}
		if got := num(t, row, "completed"); got != float64(w.completed) {
			t.Errorf("run %.12s (%s, seed %d): %v completed jobs, want %d", key, w.point(), w.seed, got, w.completed)
		}
		for col, wv := range w.values {
			if got := num(t, row, col); !agree(got, wv, relTol) {
				t.Errorf("run %.12s (%s, seed %d): %s = %v, metrics gives %v", key, w.point(), w.seed, col, got, wv)
			}
		}
	}
}

func checkFigure(t *testing.T, rows []map[string]any, want map[string]runStats, rep *pipelines.Reproduction) {
	// The means over seeds of the grid's runs, from package metrics.
	type point struct {
		runs int
		sums map[string]float64
	}
	points := map[string]*point{}
	for _, w := range want {
		if !w.inGrid {
			continue
		}
		p := points[w.point()]
		if p == nil {
			p = &point{sums: map[string]float64{}}
			points[w.point()] = p
		}
		p.runs++
		for col, v := range w.values {
			p.sums[col] += v
		}
	}
	if len(rows) != len(points) {
		t.Errorf("FIGURE_SQL gives %d rows, want one per policy and load of the grid: %d", len(rows), len(points))
	}
	cols := []string{"response_s_mean", "ts_bsld_mean", "response_s_median", "ts_bsld_median"}
	for _, row := range rows {
		policy, load := str(t, row, "policy"), num(t, row, "load")
		name := fmt.Sprintf("%s %v", policy, load)
		p, ok := points[name]
		if !ok {
			t.Errorf("FIGURE_SQL has a point %s outside the grid", name)
			continue
		}
		if r, s := num(t, row, "runs"), num(t, row, "seeds"); r != float64(p.runs) || s != float64(p.runs) {
			t.Errorf("%s: %v runs of %v seeds, want %d of %d", name, r, s, p.runs, p.runs)
		}
		for _, col := range cols {
			got, mean := num(t, row, col), p.sums[col]/float64(p.runs)
			if !agree(got, mean, relTol) {
				t.Errorf("%s: %s = %v, the mean over seeds from metrics is %v", name, col, got, mean)
			}
			// gangsim's own fig-6.12 analysis of the same runs.
			i := slices.IndexFunc(rep.Item.Rows, func(r2 repro.Row) bool {
				return r2.Coord("policy") == policy && r2.Coord("load") == strconv.FormatFloat(load, 'g', -1, 64) &&
					r2.Coord("metric") == col
			})
			if i < 0 {
				t.Errorf("%s: gangsim's item has no %s row", name, col)
			} else if g := rep.Item.Rows[i].Gangsim; !agree(got, g, relTol) {
				t.Errorf("%s: %s = %v, gangsim's analysis gives %v", name, col, got, g)
			}
		}
	}
}

// executeNotebook runs the whole notebook with nbconvert, with env added to
// the environment (the notebook's settings), when python3 has the packages
// it needs, and checks that it ran to the end and compared every point
// with gangsim's CSV.
func executeNotebook(t *testing.T, env map[string]string) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the notebook itself is not executed")
	}
	if out, err := exec.Command(python, "-c", "import duckdb, pandas, matplotlib, nbconvert").CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Skipf("%s lacks a package the notebook needs (%s); pip install duckdb pandas matplotlib nbconvert ipykernel "+
			"to execute it here: the notebook itself is not executed, only its SQL", python, lines[len(lines)-1])
	}
	nbPath, _ := filepath.Abs(notebookFile)
	outDir := t.TempDir()
	cmd := exec.Command(python, "-m", "nbconvert", "--to", "notebook", "--execute",
		"--ExecutePreprocessor.timeout=300", "--output-dir", outDir, nbPath)
	cmd.Env = append(os.Environ(), "MPLBACKEND=Agg")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("executing the notebook: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(outDir, notebookFile))
	if err != nil {
		t.Fatal(err)
	}
	var done struct {
		Cells []struct {
			Outputs []struct {
				Type string `json:"output_type"`
				Text any    `json:"text"` // a string or a list of lines
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &done); err != nil {
		t.Fatal(err)
	}
	var printed strings.Builder
	for _, c := range done.Cells {
		for _, o := range c.Outputs {
			switch x := o.Text.(type) {
			case string:
				printed.WriteString(x)
			case []any:
				for _, l := range x {
					fmt.Fprint(&printed, l)
				}
			}
		}
	}
	t.Logf("the notebook printed:\n%s", printed.String())
	for _, want := range []string{"9 runs", "8 of the grid's 8 runs found", "4 of 4 points compared with fig-6.12.csv",
		"largest relative difference"} {
		if !strings.Contains(printed.String(), want) {
			t.Errorf("the executed notebook did not print %q", want)
		}
	}
}

// TestManifestSQL runs examples/manifest.sql, the query the README shows
// for reading a file's manifest from SQL, with DuckDB on an outcomes file
// replay wrote, and compares its rows with the header gangsim reads back:
// every line, in order. The README must show the same SQL.
func TestManifestSQL(t *testing.T) {
	sql, err := os.ReadFile("manifest.sql")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var body []string // the query without its leading comment
	for _, l := range strings.Split(strings.TrimSpace(string(sql)), "\n") {
		if len(body) > 0 || !strings.HasPrefix(l, "--") {
			body = append(body, l)
		}
	}
	if !strings.Contains(string(readme), "```sql\n"+strings.Join(body, "\n")+"\n```") {
		t.Errorf("README.md does not show manifest.sql's query")
	}
	node, duckDir := duckDB(t)

	// One small run, as replay -o writes it.
	tmp := t.TempDir()
	doc := []byte(`{"workload": {"source": {"lublin": {"jobs": 50, "procs": 16}}, "seed": 3}, "replay": {"policy": "easy"}}`)
	run, err := pipelines.ParseRun(doc)
	if err != nil {
		t.Fatal(err)
	}
	done, err := (&pipelines.Sweep{Cache: &pipelines.Cache{Dir: filepath.Join(tmp, "cache")}}).Do([]*pipelines.Run{run}, []pipelines.Point{{}})
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(done[0].Dir, "outcomes.parquet")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "outcomes.parquet"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := fileio.Open(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd, err := in.Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	want := rd.Header().Clone().Lines
	rd.Close()

	rows, err := runQueries(t, node, filepath.Join(duckDir, "query.mjs"), tmp, [][2]string{{"manifest", string(sql)}})
	if err != nil {
		t.Fatal(err)
	}
	got := rows["manifest"]
	if len(got) != len(want) {
		t.Fatalf("%d rows, the header has %d lines", len(got), len(want))
	}
	tools := 0
	for i, w := range want {
		if num(t, got[i], "line") != float64(i+1) || str(t, got[i], "key") != w.Key || str(t, got[i], "value") != w.Value {
			t.Errorf("row %d: %v, want %d %s: %s", i+1, got[i], i+1, w.Key, w.Value)
		}
		if w.Key == "GangsimTool" || w.Key == "InputGangsimTool" {
			tools++
		}
	}
	if tools != 2 {
		t.Errorf("the header holds %d manifests, want the replay's and the workload's", tools)
	}
}
