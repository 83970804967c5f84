package examples

import (
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
	"github.com/gangsim/gangsim/internal/notebook"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/repro"
)

// notebookFile is the notebook under test, relative to this package.
const notebookFile = "fig-6.12.ipynb"

// readNotebook parses the notebook and returns it with the sources of its
// code cells.
func readNotebook(t *testing.T, path string) (*notebook.Notebook, []string) {
	t.Helper()
	nb, code, err := notebook.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return nb, code
}

// conSQL matches the notebook's queries whose results it reads.
var conSQL = regexp.MustCompile(`con\.sql\(([^)]*)\)`)

// TestNotebookFormat checks that the notebook is a valid nbformat 4
// document for a Python 3 kernel, committed either clean (no outputs, no
// execution counts) or fully executed without errors, that its first cell
// says how to get the data (today's experiment: the thesis preset on 16x2
// Crescendo) and what to install, that it keeps its SQL in the constants
// and views the tests run and reads every result as SELECT * FROM a view,
// and, when python3 is installed, that every code cell parses as Python.
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
	intro, _ := nb.Cells[0].Text()
	for _, want := range []string{"make figures", "genwork lublin --preset thesis", "replay --policy", "--hw crescendo",
		"--machine 16x2", "pip install duckdb pandas matplotlib", "GANGSIM_CACHE", ".cache/gangsim", "also"} {
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

	sql := notebook.SQL(code)
	for _, v := range notebook.Views {
		if strings.TrimSpace(sql[v[1]]) == "" {
			t.Errorf("no %s = \"\"\"...\"\"\" constant in a code cell", v[1])
		}
	}
	for name, want := range map[string][]string{
		"RUNS_SQL":      {"parquet_kv_metadata(", "gangsim.header", "'preset'", "'hw'", "'machine'"},
		"GRID_SQL":      {"getvariable('experiment')", "'also'", "list_sort(", "'labels'"},
		"RUN_STATS_SQL": {"read_parquet(", "filename = true", "ts_bsld_rt10s"},
		"FIGURE_SQL":    {"JOIN grid", "label"},
	} {
		for _, w := range want {
			if !strings.Contains(sql[name], w) {
				t.Errorf("%s does not use %s", name, w)
			}
		}
	}
	// The views the tests give the queries must be the ones the notebook
	// makes, and it must read every result from one of them.
	all := strings.Join(code, "\n")
	for _, v := range notebook.Views {
		if want := "CREATE VIEW " + v[0] + " AS {" + v[1] + "}"; !strings.Contains(all, want) {
			t.Errorf("the notebook's code has no %s", want)
		}
	}
	for _, want := range []string{`SET VARIABLE experiment`, `"GANGSIM_CACHE"`, `"GANGSIM_EXPERIMENT"`, `"GANGSIM_RESULTS"`} {
		if !strings.Contains(all, want) {
			t.Errorf("the notebook's code has no %s", want)
		}
	}
	for _, m := range conSQL.FindAllStringSubmatch(all, -1) {
		if !regexp.MustCompile(`^"SELECT \* FROM \w+"$`).MatchString(m[1]) {
			t.Errorf("the notebook reads con.sql(%s): read every result as \"SELECT * FROM view\"", m[1])
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
	root, _ := filepath.Abs("..")
	node, dir, err := notebook.DuckDB(root)
	if err != nil {
		if os.Getenv("GANGSIM_REQUIRE_DUCKDB") != "" {
			t.Fatalf("DuckDB required but not runnable: %v", err)
		}
		t.Skipf("%v; skipping the notebook's queries", err)
	}
	return node, dir
}

// runQueries runs named SQL texts in order with query.mjs against dir,
// each one a view for the next, and returns their rows.
func runQueries(t *testing.T, node, duckDir, dir string, queries [][2]string) (notebook.Rows, error) {
	t.Helper()
	return notebook.Query(node, duckDir, dir, nil, queries)
}

// studyFile is the small experiment TestNotebookOnRuns gives the notebook:
// the thesis preset on 16x2 Crescendo, EASY and GS (a policy whose
// parameters the grid orders otherwise than the manifests) at two loads
// and two seeds, SB in an also grid at one seed, each labelled.
const studyFile = "testdata/notebook-study.json"

// runStats are a run's parameters and the per-run statistics the
// notebook computes, here from package metrics.
type runStats struct {
	file      string // its outcomes.parquet
	tool      string // GangsimTool
	inGrid    bool   // a run of the experiment's grids
	policy    string // canonical
	label     string // the experiment's name for it
	load      float64
	seed      uint64
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
// as gangsim's analysis does.
func expectedStats(t *testing.T, f *pipelines.Finished, tau model.Time, inGrid bool, labels map[string]string) runStats {
	t.Helper()
	o, _, err := f.Outcomes()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := policies.ParseSpec(f.Run.Replay.Policy)
	if err != nil {
		t.Fatal(err)
	}
	w := f.Run.Workload
	s := metrics.Summarize(o, 32, tau)
	return runStats{
		file: filepath.Join(f.Dir, pipelines.OutcomesFile), tool: pipelines.SweepTool, inGrid: inGrid,
		policy: spec.String(), label: labels[f.Run.Replay.Policy], load: w.Load.Target, seed: w.Seed, tau: tau, completed: s.Jobs,
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

// TestNotebookOnRuns makes real runs with gangsim's own code (the small
// experiment studyFile, in a temporary run cache, plus one run outside its
// grids written as a genwork | replay -o pipe writes it), runs the
// notebook's SQL on them verbatim with DuckDB (conformance/duckdb/query.mjs)
// and checks every row: one per run with the policy (canonical), machine,
// hardware, preset, load and seed parsed from the metadata; the grids'
// runs with their labels; the per-run statistics and the per-(policy,
// load) means over seeds equal to those computed with package metrics and
// to gangsim's own analysis. Then it runs the notebook's Python cells on
// those results (package notebook: python3 with pandas and matplotlib) and
// checks what they print. (The experiment itself, fig-6.12 as committed,
// is checked the same way after experiments' TestResultsUpToDate has made
// its runs: TestNotebookOnFig612 there.)
func TestNotebookOnRuns(t *testing.T) {
	node, duckDir := duckDB(t)
	_, code := readNotebook(t, notebookFile)
	sql := notebook.SQL(code)

	tmp := t.TempDir()
	cacheDir := filepath.Join(tmp, "cache")
	expFile, _ := filepath.Abs(studyFile)
	e, sha, err := analysis.LoadExperiment(expFile)
	if err != nil {
		t.Fatal(err)
	}
	sweep := &pipelines.Sweep{Cache: &pipelines.Cache{Dir: cacheDir}}
	rep, err := e.Reproduce(sweep, studyFile, sha)
	if err != nil {
		t.Fatal(err)
	}
	resultsDir := filepath.Join(tmp, "results")
	if _, err := rep.Write(resultsDir); err != nil {
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
	labels := e.Analysis.Labels["policy"]

	// One run of the same workload outside the grids (EASY at load 0.65,
	// seed 2), written where and as a pipe "genwork lublin ... | replay -o"
	// would write it: in a directory of its own name, by the tool "replay"
	// with its own seed (1) beside the workload's. The runs query must
	// list it with the workload's seed; the figure must leave it out.
	extraDocs, extraPoints, err := pipelines.Expand(e.Run, []pipelines.Axis{
		{Name: "policy", Set: "replay.policy", Values: []json.RawMessage{json.RawMessage(`"easy"`)}},
		{Name: "load", Set: "workload.load.target", Values: []json.RawMessage{json.RawMessage(`0.65`)}},
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
	pipeDir := filepath.Join(cacheDir, "runs", "pipe", "easy-0.65-2")
	writeAsPipe(t, extra[0], filepath.Join(pipeDir, pipelines.OutcomesFile))

	want := map[string]runStats{} // by run name: the cache key, or the pipe's directory
	for _, f := range rep.Runs {
		want[f.Key] = expectedStats(t, f, tau, true, labels)
	}
	pipe := expectedStats(t, extra[0], tau, false, labels)
	pipe.file, pipe.tool = filepath.Join(pipeDir, pipelines.OutcomesFile), "replay"
	want[filepath.Base(pipeDir)] = pipe
	if len(want) != 11 {
		t.Fatalf("%d distinct runs, want 11", len(want))
	}

	rows, err := notebook.RunViews(node, duckDir, cacheDir, expFile, sql)
	if err != nil {
		t.Fatalf("the notebook's SQL fails in DuckDB: %v", err)
	}
	t.Run("runs", func(t *testing.T) {
		checkRuns(t, rows["runs"], want)
	})
	t.Run("grid", func(t *testing.T) {
		if n := len(rows["grid"]); n != len(runs) {
			t.Errorf("GRID_SQL gives %d runs, the experiment %d", n, len(runs))
		}
		for _, row := range rows["grid"] {
			if str(t, row, "policy") == "gs:backfill=easy,mpl=6" && str(t, row, "label") != "GS" {
				t.Errorf("GS's row %v", row)
			}
		}
	})
	t.Run("run_stats", func(t *testing.T) {
		checkRunStats(t, rows["run_stats"], want)
	})
	t.Run("figure", func(t *testing.T) {
		checkFigure(t, rows["figure"], want, rep)
	})
	t.Run("cells", func(t *testing.T) {
		printed := runCells(t, rows, map[string]string{
			"GANGSIM_CACHE":      cacheDir,
			"GANGSIM_EXPERIMENT": expFile,
			"GANGSIM_RESULTS":    filepath.Join(resultsDir, "study", "notebook.csv"),
		})
		for _, want := range []string{"11 outcome files", "11 runs", "notebook-study.json: 10 runs in its grids, policies EASY, GS, SB",
			"10 of the grids' 10 runs found", "points compared with notebook.csv", "largest relative difference"} {
			if !strings.Contains(printed, want) {
				t.Errorf("the notebook's cells did not print %q:\n%s", want, printed)
			}
		}
	})
}

// runCells runs the notebook's Python cells on rows (package notebook),
// and returns what they printed; it skips when there is no python3 with
// pandas and matplotlib, unless GANGSIM_REQUIRE_PYTHON is set (as CI sets
// it).
func runCells(t *testing.T, rows notebook.Rows, env map[string]string) string {
	t.Helper()
	python, err := notebook.Python()
	if err != nil {
		if os.Getenv("GANGSIM_REQUIRE_PYTHON") != "" {
			t.Fatalf("the notebook's Python cells required but not runnable: %v", err)
		}
		t.Skipf("%v: the notebook's Python cells are not run", err)
	}
	nbPath, _ := filepath.Abs(notebookFile)
	printed, err := notebook.RunCells(python, nbPath, rows, t.TempDir(), env, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the notebook's cells printed:\n%s", printed)
	return printed
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
			{"machine", str(t, row, "machine"), "16x2"},
			{"hw", str(t, row, "hw"), "crescendo"},
			{"preset", str(t, row, "preset"), "thesis"},
			{"load", num(t, row, "load"), w.load},
			{"seed", num(t, row, "seed"), float64(w.seed)},
			{"jobs", num(t, row, "jobs"), 1000.0},
			{"compress", num(t, row, "compress"), 100.0},
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

// checkFigure compares FIGURE_SQL's points with the means over seeds from
// package metrics, and with gangsim's own analysis where it averaged every
// seed (its averaged coordinate a/n with a = n).
func checkFigure(t *testing.T, rows []map[string]any, want map[string]runStats, rep *analysis.Reproduction) {
	type point struct {
		label string
		runs  int
		sums  map[string]float64
	}
	points := map[string]*point{}
	for _, w := range want {
		if !w.inGrid {
			continue
		}
		p := points[w.point()]
		if p == nil {
			p = &point{label: w.label, sums: map[string]float64{}}
			points[w.point()] = p
		}
		p.runs++
		for col, v := range w.values {
			p.sums[col] += v
		}
	}
	if len(rows) != len(points) {
		t.Errorf("FIGURE_SQL gives %d rows, want one per policy and load of the grids: %d", len(rows), len(points))
	}
	cols := []string{"response_s_mean", "ts_bsld_mean", "response_s_median", "ts_bsld_median"}
	compared := 0
	for _, row := range rows {
		policy, label, load := str(t, row, "policy"), str(t, row, "label"), num(t, row, "load")
		name := fmt.Sprintf("%s %v", policy, load)
		p, ok := points[name]
		if !ok {
			t.Errorf("FIGURE_SQL has a point %s outside the grids", name)
			continue
		}
		if label != p.label {
			t.Errorf("%s: label %q, want %q", name, label, p.label)
		}
		if r, s := num(t, row, "runs"), num(t, row, "seeds"); r != float64(p.runs) || s != float64(p.runs) {
			t.Errorf("%s: %v runs of %v seeds, want %d of %d", name, r, s, p.runs, p.runs)
		}
		for _, col := range cols {
			got, mean := num(t, row, col), p.sums[col]/float64(p.runs)
			if !agree(got, mean, relTol) {
				t.Errorf("%s: %s = %v, the mean over seeds from metrics is %v", name, col, got, mean)
			}
			// gangsim's own analysis of the same runs, where it averaged
			// every seed.
			i := slices.IndexFunc(rep.Item.Rows, func(r2 repro.Row) bool {
				l, err := strconv.ParseFloat(r2.Coord("load"), 64)
				return r2.Coord("policy") == label && err == nil && l == load && r2.Coord("metric") == col
			})
			if i < 0 {
				t.Errorf("%s: gangsim's item has no %s row for %s", name, col, label)
				continue
			}
			r2 := rep.Item.Rows[i]
			if r2.Coord("averaged") != fmt.Sprintf("%d/%d", p.runs, p.runs) {
				continue // gangsim left saturated runs out of its mean
			}
			compared++
			if g := r2.Gangsim; !agree(got, g, relTol) {
				t.Errorf("%s: %s = %v, gangsim's analysis gives %v", name, col, got, g)
			}
		}
	}
	if compared == 0 {
		t.Error("no point of the figure compared with gangsim's analysis")
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

	rows, err := runQueries(t, node, duckDir, tmp, [][2]string{{"manifest", string(sql)}})
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
