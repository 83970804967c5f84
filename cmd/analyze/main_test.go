package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/model"
)

func analyzeCmd(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return cli.Call(run, stdin, args...)
}

func mustAnalyze(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, err := analyzeCmd(t, stdin, args...)
	if err != nil {
		t.Fatalf("analyze %v: %v\n%s", args, err, stderr)
	}
	return stdout, stderr
}

// workloadDigest stands for the SHA-256 of the trace every test run
// replayed.
const workloadDigest = "0000000000000000000000000000000000000000000000000000000000000001"

// runHeader is the header of a replay run's outcomes on a machine of
// procs processors: genwork's manifest (upstream, with its seed and
// params) under replay's (own).
func runHeader(procs int, seed uint64, upstream, own []model.Param) model.Header {
	h := model.Header{Lines: []model.HeaderLine{{Key: model.KeyMaxProcs, Value: strconv.Itoa(procs)}}}
	(&model.Manifest{Tool: "genwork lublin", Version: "test", Seed: seed, HasSeed: true, Params: upstream}).Apply(&h)
	(&model.Manifest{Tool: "replay", Version: "test", Params: own,
		Inputs: []model.Input{{Name: "-", SHA256: workloadDigest}}}).Apply(&h)
	return h
}

func p(name, value string) model.Param { return model.Param{Name: name, Value: value} }

// job is a completed outcome with times in seconds.
func job(id int64, submit, start, end float64, procs int) model.Outcome {
	o := model.Outcome{JobID: id, Submit: model.FromSecondsFloat(submit), Start: model.FromSecondsFloat(start),
		End: model.FromSecondsFloat(end), Procs: procs}
	o.Runtime = o.End - o.Start
	o.Dedicated, o.Estimate = o.Runtime, o.Runtime
	return o
}

// scale multiplies every time of the outcomes by k.
func scale(os []model.Outcome, k float64) []model.Outcome {
	out := make([]model.Outcome, len(os))
	for i, o := range os {
		out[i] = job(o.JobID, o.Submit.Seconds()*k, o.Start.Seconds()*k, o.End.Seconds()*k, o.Procs)
	}
	return out
}

// easyRun is the outcomes every table test checks by hand, on 4
// processors:
//
//	job submit start end procs | wait response | bsld tau=10s  tau=0.1s
//	1   0      0     10  1     | 0    10       | 1             1
//	2   0      10    30  2     | 10   30       | 30/20=1.5     1.5
//	3   5      30    35  4     | 25   30       | 30/10=3       30/5=6
//	4   10     10    50  1     | 0    40       | 1             1
//
// in completion order. Makespan 50 s; work 10+40+20+40 = 110
// processor-seconds of 4 x 50, utilization 0.55; throughput 4/50.
func easyRun() []model.Outcome {
	return []model.Outcome{job(1, 0, 0, 10, 1), job(2, 0, 10, 30, 2), job(3, 5, 30, 35, 4), job(4, 10, 10, 50, 1)}
}

// fcfsRun is the same workload under FCFS: runtimes 10, 20, 5, 40, so the
// short half is jobs 3 and 1.
func fcfsRun() []model.Outcome {
	return []model.Outcome{job(1, 0, 0, 10, 1), job(2, 0, 10, 30, 2), job(3, 5, 30, 35, 4), job(4, 10, 35, 75, 1)}
}

// writeRun writes outcomes with header h to path in the format its
// extension names.
func writeRun(t *testing.T, path string, h model.Header, outcomes []model.Outcome) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := columnar.NewOutcomeWriter(f, columnar.FormatFromName(path), &h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range outcomes {
		if err := w.Write(&outcomes[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// fixture writes the runs of the table tests into a temporary directory:
//
//	easy1.parquet  policy=easy, load.target=0.5, compress=100, seed 1: easyRun
//	easy2.arrow    policy=easy, load.target=0.5, compress=100, seed 2: easyRun with times x2
//	fcfs.csv       policy=fcfs, load.target=0.7, compress=100, seed 1: fcfsRun
func fixture(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	up := func(load string) []model.Param {
		return []model.Param{p("compress", "100"), p("load.target", load), p("source.lublin.jobs", "4")}
	}
	own := func(policy string) []model.Param { return []model.Param{p("policy", policy), p("machine", "4")} }
	writeRun(t, filepath.Join(dir, "easy1.parquet"), runHeader(4, 1, up("0.5"), own("easy")), easyRun())
	writeRun(t, filepath.Join(dir, "easy2.arrow"), runHeader(4, 2, up("0.5"), own("easy")), scale(easyRun(), 2))
	writeRun(t, filepath.Join(dir, "fcfs.csv"), runHeader(4, 1, up("0.7"), own("fcfs")), fcfsRun())
	return dir
}

// csvTable parses analyze's CSV output: the manifest lines and the rows as
// maps from column name to cell.
func csvTable(t *testing.T, out string) (manifest []string, cols []string, rows []map[string]string) {
	t.Helper()
	var body strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(line, "# ") {
			manifest = append(manifest, strings.TrimSpace(line[2:]))
		} else {
			body.WriteString(line)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(body.String())).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("not CSV (%v):\n%s", err, out)
	}
	cols = recs[0]
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, c := range cols {
			m[c] = r[i]
		}
		rows = append(rows, m)
	}
	return manifest, cols, rows
}

// checkCells compares named cells of a row with their expected text.
func checkCells(t *testing.T, what string, row map[string]string, want map[string]string) {
	t.Helper()
	for col, w := range want {
		if got, ok := row[col]; !ok || got != w {
			t.Errorf("%s: %s = %q, want %q", what, col, got, w)
		}
	}
}

// checkNumber compares a cell with a value to a relative tolerance of
// 1e-12 (the last bits of float64 arithmetic).
func checkNumber(t *testing.T, what string, row map[string]string, col string, want float64) {
	t.Helper()
	got, err := strconv.ParseFloat(row[col], 64)
	if err != nil || math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s: %s = %q, want %v", what, col, row[col], want)
	}
}

func sha(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestSummaryValues checks one run's row against the hand computation of
// easyRun, with tau = 0.1 s from the workload's compression by 100.
func TestSummaryValues(t *testing.T) {
	dir := fixture(t)
	run1 := filepath.Join(dir, "easy1.parquet")
	out, stderr := mustAnalyze(t, nil, "--all", run1)
	if !strings.Contains(stderr, "analyze: "+run1+": workload time compressed by 100 (genwork --compress): bounded slowdowns with tau = 0.1 s") {
		t.Errorf("stderr does not explain tau:\n%s", stderr)
	}
	man, cols, rows := csvTable(t, out)
	if cols[0] != "run" || len(cols) != 1+41 || len(rows) != 1 {
		t.Fatalf("columns %v, %d rows", cols, len(rows))
	}
	checkCells(t, "easy1", rows[0], map[string]string{
		"run": run1, "jobs": "4", "rejected": "0", "makespan_s": "50", "utilization": "0.55", "throughput_per_s": "0.08",
		"wait_s_mean": "8.75", "wait_s_min": "0", "wait_s_p25": "0", "wait_s_median": "5", "wait_s_p75": "13.75",
		"wait_s_max": "25", "response_s_mean": "27.5", "response_s_median": "30", "response_s_min": "10",
		"bsld_mean": "2.375", "bsld_median": "1.25", "bsld_max": "6", "ts_bsld_mean": "2.375",
	})
	// The sample standard deviation of the waits 0, 10, 25, 0:
	// sqrt(((8.75)^2*2 + 1.25^2 + 16.25^2) / 3).
	checkNumber(t, "easy1", rows[0], "wait_s_sd", math.Sqrt((2*8.75*8.75+1.25*1.25+16.25*16.25)/3))
	// Type 7 percentiles: h = 3 x 0.95 = 2.85 between the 3rd and 4th
	// values (10 and 25 for the waits, 30 and 40 for the responses).
	checkNumber(t, "easy1", rows[0], "wait_s_p95", 10+0.85*15)
	checkNumber(t, "easy1", rows[0], "response_s_p95", 30+0.85*10)
	wantMan := []string{"GangsimTool: analyze", "GangsimParam: all=true", "GangsimParam: format=csv", "GangsimParam: tau_s=0.1",
		"GangsimInput: " + sha(t, run1) + " " + run1}
	for _, w := range wantMan {
		if !strings.Contains(strings.Join(man, "\n"), w) {
			t.Errorf("manifest lacks %q:\n%s", w, strings.Join(man, "\n"))
		}
	}

	// --tau 10s: job 3's bounded slowdown is 30/10 = 3, the mean 1.625.
	out, stderr = mustAnalyze(t, nil, "--tau", "10s", "--columns", "bsld_mean,bsld_median,ts_bsld_max", run1)
	if stderr != "" {
		t.Errorf("with --tau, stderr: %s", stderr)
	}
	man, cols, rows = csvTable(t, out)
	if strings.Join(cols, ",") != "run,bsld_mean,bsld_median,ts_bsld_max" {
		t.Errorf("--columns: %v", cols)
	}
	checkCells(t, "tau 10s", rows[0], map[string]string{"bsld_mean": "1.625", "bsld_median": "1.25", "ts_bsld_max": "3"})
	if !strings.Contains(strings.Join(man, "\n"), "GangsimParam: tau_s=10") || !strings.Contains(strings.Join(man, "\n"), "GangsimParam: columns=bsld_mean,bsld_median,ts_bsld_max") {
		t.Errorf("manifest: %v", man)
	}
}

// TestGroups groups by a run parameter (policy) and by an upstream one
// (load.target): the two easy runs (the second at twice the times) make
// one group with means and Student t intervals.
func TestGroups(t *testing.T) {
	dir := fixture(t)
	files := []string{filepath.Join(dir, "fcfs.csv"), filepath.Join(dir, "easy2.arrow"), filepath.Join(dir, "easy1.parquet")}
	// t(0.975, 1 degree of freedom) = 12.706204736174707; for the means
	// 8.75 and 17.5 of the waits, s/sqrt(2) = 8.75/2 = 4.375.
	const t975 = 12.706204736174707
	for _, by := range []string{"policy", "load.target"} {
		out, _ := mustAnalyze(t, nil, append([]string{"-q", "--by", by, "--columns", "jobs,wait_s_mean,response_s_mean,makespan_s"}, files...)...)
		_, cols, rows := csvTable(t, out)
		want := by + ",runs,jobs,jobs_ci95,wait_s_mean,wait_s_mean_ci95,response_s_mean,response_s_mean_ci95,makespan_s,makespan_s_ci95"
		if strings.Join(cols, ",") != want {
			t.Fatalf("--by %s: columns %v", by, cols)
		}
		if len(rows) != 2 {
			t.Fatalf("--by %s: %d rows", by, len(rows))
		}
		easy, fcfs := rows[0], rows[1]
		if by == "load.target" {
			checkCells(t, by, easy, map[string]string{"load.target": "0.5"})
			checkCells(t, by, fcfs, map[string]string{"load.target": "0.7"})
		} else {
			checkCells(t, by, easy, map[string]string{"policy": "easy"})
			checkCells(t, by, fcfs, map[string]string{"policy": "fcfs"})
		}
		checkCells(t, by, easy, map[string]string{"runs": "2", "jobs": "4", "jobs_ci95": "0",
			"wait_s_mean": "13.125", "response_s_mean": "41.25", "makespan_s": "75"})
		checkNumber(t, by, easy, "wait_s_mean_ci95", t975*4.375)
		checkNumber(t, by, easy, "response_s_mean_ci95", t975*27.5/2)
		// One run: its own values, no interval. FCFS waits 0, 10, 25, 25.
		checkCells(t, by, fcfs, map[string]string{"runs": "1", "jobs": "4", "wait_s_mean": "15", "wait_s_mean_ci95": "", "makespan_s": "75"})
	}

	out, _ := mustAnalyze(t, nil, append([]string{"-q", "--by", "policy", "--confidence", "0.9", "--columns", "wait_s_mean"}, files...)...)
	_, cols, rows := csvTable(t, out)
	if cols[3] != "wait_s_mean_ci90" {
		t.Fatalf("columns %v", cols)
	}
	// t(0.95, 1) = 6.313751514675041.
	checkNumber(t, "confidence 0.9", rows[0], "wait_s_mean_ci90", 6.313751514675041*4.375)

	// A name no manifest has is an error that lists the names there are.
	_, _, err := analyzeCmd(t, nil, "--by", "nosuch", files[0])
	if err == nil || !strings.Contains(err.Error(), `no parameter "nosuch"`) || !strings.Contains(err.Error(), "load.target") || errors.Is(err, cli.ErrUsage) {
		t.Errorf("unknown --by name: %v", err)
	}
}

// TestParamPrecedence: a name is looked up in the run's own manifest
// before the steps before it.
func TestParamPrecedence(t *testing.T) {
	h := runHeader(4, 1, []model.Param{p("policy", "upstream"), p("only_up", "u")}, []model.Param{p("policy", "own")})
	r := &resultRun{name: "x", header: h, chain: manifestChain(&h)}
	if len(r.chain) != 2 || r.chain[0].Tool != "replay" || r.chain[1].Tool != "genwork lublin" || r.chain[1].Seed != 1 {
		t.Fatalf("chain %+v", r.chain)
	}
	for name, want := range map[string]string{"policy": "own", "only_up": "u", "run": "x"} {
		if got, err := r.key(name); err != nil || got != want {
			t.Errorf("key %s = %q, %v; want %q", name, got, err, want)
		}
	}
}

// TestHalves splits by runtime under FCFS (short: jobs 3 and 1) and trims.
func TestHalves(t *testing.T) {
	dir := fixture(t)
	fcfs, easy := filepath.Join(dir, "fcfs.csv"), filepath.Join(dir, "easy1.parquet")
	out, _ := mustAnalyze(t, nil, "-q", "--halves", fcfs, "--columns", "jobs,response_s_mean,wait_s_max", easy)
	man, cols, rows := csvTable(t, out)
	if strings.Join(cols, ",") != "run,half,jobs,response_s_mean,wait_s_max" || len(rows) != 2 {
		t.Fatalf("columns %v, %d rows", cols, len(rows))
	}
	// Short: jobs 1 and 3, responses 10 and 30; long: jobs 2 and 4, 30 and 40.
	checkCells(t, "short", rows[0], map[string]string{"half": "short", "jobs": "2", "response_s_mean": "20", "wait_s_max": "25"})
	checkCells(t, "long", rows[1], map[string]string{"half": "long", "jobs": "2", "response_s_mean": "35", "wait_s_max": "10"})
	if !strings.Contains(strings.Join(man, "\n"), "GangsimInput: "+sha(t, fcfs)+" "+fcfs) {
		t.Errorf("the FCFS run is not among the inputs: %v", man)
	}

	// Grouped by policy, half comes last; short before long.
	out, _ = mustAnalyze(t, nil, "-q", "--halves", fcfs, "--by", "policy", "--columns", "response_s_mean", easy, fcfs)
	_, cols, rows = csvTable(t, out)
	var got []string
	for _, r := range rows {
		got = append(got, r["policy"]+"/"+r["half"]+"="+r["response_s_mean"])
	}
	if strings.Join(cols[:3], ",") != "policy,half,runs" || strings.Join(got, " ") != "easy/short=20 easy/long=35 fcfs/short=20 fcfs/long=47.5" {
		t.Errorf("columns %v, rows %v", cols, got)
	}

	// --trim 0.25,0.25 drops job 1 (first by submit, ID breaking the tie
	// with job 2) and job 4 (last): responses 30, 30; waits 10, 25.
	out, _ = mustAnalyze(t, nil, "-q", "--trim", "0.25,0.25", "--columns", "jobs,response_s_mean,wait_s_mean", easy)
	_, _, rows = csvTable(t, out)
	checkCells(t, "trim", rows[0], map[string]string{"jobs": "2", "response_s_mean": "30", "wait_s_mean": "17.5"})

	// A run with jobs the FCFS run lacks: they are left out, and said so.
	other := filepath.Join(dir, "other.csv")
	writeRun(t, other, runHeader(4, 1, nil, []model.Param{p("policy", "easy"), p("machine", "4")}),
		append(easyRun(), job(9, 1, 1, 2, 1)))
	_, stderr := mustAnalyze(t, nil, "--halves", fcfs, other)
	if !strings.Contains(stderr, "1 of 5 jobs are not among the FCFS run's completed jobs") {
		t.Errorf("stderr: %s", stderr)
	}
}

// TestFormats checks the shapes of the JSON and Markdown tables and that
// -o picks the format by extension and writes atomically.
func TestFormats(t *testing.T) {
	dir := fixture(t)
	files := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "easy2.arrow")}

	js := filepath.Join(dir, "out.json")
	mustAnalyze(t, nil, append([]string{"-q", "--by", "policy", "-o", js, "--columns", "wait_s_mean,wait_s_sd"}, files...)...)
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Manifest model.Manifest           `json:"manifest"` // the one JSON form of a manifest
		Columns  []string                 `json:"columns"`
		Rows     []map[string]interface{} `json:"rows"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	by, _ := doc.Manifest.Param("by")
	format, _ := doc.Manifest.Param("format")
	if doc.Manifest.Tool != "analyze" || by != "policy" || format != "json" ||
		len(doc.Manifest.Inputs) != 2 || doc.Manifest.Inputs[1].SHA256 != sha(t, files[1]) {
		t.Errorf("manifest %+v", doc.Manifest)
	}
	if strings.Join(doc.Columns, ",") != "policy,runs,wait_s_mean,wait_s_mean_ci95,wait_s_sd,wait_s_sd_ci95" || len(doc.Rows) != 1 {
		t.Fatalf("columns %v rows %v", doc.Columns, doc.Rows)
	}
	if r := doc.Rows[0]; r["policy"] != "easy" || r["runs"] != 2.0 || r["wait_s_mean"] != 13.125 {
		t.Errorf("row %v", r)
	}
	// Column order is kept in the file, not sorted.
	if !strings.Contains(string(b), `{"policy": "easy", "runs": 2, "wait_s_mean": 13.125, "wait_s_mean_ci95": `) {
		t.Errorf("row order:\n%s", b)
	}

	// A NaN is null in JSON: one job has no standard deviation.
	one := filepath.Join(dir, "one.csv")
	writeRun(t, one, runHeader(4, 1, nil, []model.Param{p("policy", "easy"), p("machine", "4")}), easyRun()[:1])
	out, _ := mustAnalyze(t, nil, "--format", "json", "--columns", "wait_s_sd", one)
	if !strings.Contains(out, `"wait_s_sd": null`) {
		t.Errorf("NaN in JSON:\n%s", out)
	}
	// ... and empty in CSV, never "NaN"; so is the interval of a group of
	// one run.
	out, _ = mustAnalyze(t, nil, "--format", "csv", "--columns", "jobs,wait_s_sd", "--by", "policy", one)
	if _, cols, rows := csvTable(t, out); strings.Join(cols, ",") != "policy,runs,jobs,jobs_ci95,wait_s_sd,wait_s_sd_ci95" ||
		rows[0]["jobs_ci95"] != "" || rows[0]["wait_s_sd"] != "" || rows[0]["wait_s_sd_ci95"] != "" || rows[0]["jobs"] != "1" ||
		strings.Contains(out, "NaN") {
		t.Errorf("undefined statistics in CSV:\n%s", out)
	}

	md := filepath.Join(dir, "out.md")
	mustAnalyze(t, nil, append([]string{"-q", "--by", "policy", "-o", md, "--columns", "jobs,wait_s_mean"}, files...)...)
	b, _ = os.ReadFile(md)
	want := "| policy | runs | jobs | wait_s_mean |\n|---|---:|---:|---:|\n| easy | 2 | 4 ± 0 | 13.125 ± 55.5896 |\n"
	if !strings.HasPrefix(string(b), want) {
		t.Errorf("Markdown table:\n%s\nwant it to start with\n%s", b, want)
	}
	if !strings.Contains(string(b), "\n<!-- gangsim manifest\nGangsimTool: analyze\n") || !strings.HasSuffix(string(b), "-->\n") ||
		!strings.Contains(string(b), "GangsimInput: "+sha(t, files[0])+" "+files[0]+"\n") {
		t.Errorf("Markdown manifest:\n%s", b)
	}

	// Default columns are the same short set in every format.
	out, _ = mustAnalyze(t, nil, "-q", "--format", "md", files[0])
	if !strings.HasPrefix(out, "| run | "+strings.Join(defaultColumns, " | ")+" |\n") {
		t.Errorf("default Markdown columns:\n%s", out)
	}
	out, _ = mustAnalyze(t, nil, "-q", "--format", "csv", files[0])
	if _, cols, _ := csvTable(t, out); strings.Join(cols, ",") != "run,"+strings.Join(defaultColumns, ",") {
		t.Errorf("default CSV columns: %v", cols)
	}

	// Byte-identical outputs from identical inputs and flags.
	again := filepath.Join(dir, "again.md")
	mustAnalyze(t, nil, append([]string{"-q", "--by", "policy", "-o", again, "--columns", "jobs,wait_s_mean"}, files...)...)
	if b2, _ := os.ReadFile(again); !bytes.Equal(b, b2) {
		t.Error("two identical analyses differ")
	}
}

// TestPipe feeds replay's Arrow stream on stdin, as in
// "genwork ... | replay ... | analyze".
func TestPipe(t *testing.T) {
	var in bytes.Buffer
	h := runHeader(4, 7, []model.Param{p("source.lublin.jobs", "4")}, []model.Param{p("policy", "easy"), p("machine", "4")})
	w, err := columnar.NewOutcomeWriter(&in, columnar.FormatArrow, &h)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range easyRun() {
		w.Write(&o)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(in.Bytes())
	digest := sha256.Sum256(data)
	out, stderr := mustAnalyze(t, &in, "--columns", "jobs,bsld_mean")
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	man, _, rows := csvTable(t, out)
	// Not compressed: tau is 10 s and the mean bounded slowdown 1.625.
	checkCells(t, "pipe", rows[0], map[string]string{"run": "<stdin>", "jobs": "4", "bsld_mean": "1.625"})
	if !strings.Contains(strings.Join(man, "\n"), "GangsimInput: "+hex.EncodeToString(digest[:])+" -") {
		t.Errorf("manifest %v", man)
	}
	// In Markdown, "<stdin>" must not read as an HTML tag.
	out, _ = mustAnalyze(t, bytes.NewReader(data), "--format", "md", "--columns", "jobs")
	if !strings.Contains(out, "| \\<stdin> | 4 |") {
		t.Errorf("Markdown:\n%s", out)
	}
}

// TestBadInput: a malformed row is the reader's positioned error, exit 1,
// and no output is left behind.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("# gangsim.schema: gangsim.outcomes/1\njob_id,submit_s,start_s,end_s,procs,status\n1,0,0,10,1,completed\n2,x,0,10,1,completed\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	_, _, err := analyzeCmd(t, nil, bad, "-o", out)
	if err == nil || errors.Is(err, cli.ErrUsage) || !strings.HasPrefix(err.Error(), bad+":4: column submit_s: ") {
		t.Errorf("bad input: %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Error("a failed analysis left its output")
	}
	swfFile := filepath.Join(dir, "trace.swf")
	os.WriteFile(swfFile, []byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	if _, _, err := analyzeCmd(t, nil, swfFile); err == nil || !strings.Contains(err.Error(), "not an outcomes table") {
		t.Errorf("SWF input: %v", err)
	}
	if _, _, err := analyzeCmd(t, nil, filepath.Join(dir, "missing.parquet")); err == nil || errors.Is(err, cli.ErrUsage) {
		t.Errorf("missing file: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := fixture(t)
	f := filepath.Join(dir, "easy1.parquet")
	for _, args := range [][]string{
		{"--no-such-flag", f},
		{"--format", "xml", f},
		{"-o", "out.txt", f},
		{"--columns", "jobs,nosuch", f},
		{"--columns", "jobs,jobs", f},
		{"--by", "policy,", f},
		{"--tau", "soon", f},
		{"--tau", "-1s", f},
		{"--confidence", "1", f},
		{"--trim", "0.5", f},
		{"--trim", "0.5,0.5", f},
		{"--trim", "-0.1,0", f},
		{"--by", "half", f},
		{"--procs", "-1", f},
		{"-", "-"},
		{"--halves", "-", "-"},
		{"--saturation", "--timeseries", "a.csv", f, f},
		{"--timeseries", "a.csv", f},
		{"--x", "load.target", f},
		{"--saturation", "--halves", f, f},
		{"--saturation", "--trim", "0.1,0.1", f},
		{"--saturation", "--columns", "jobs", f},
		{"--saturation", "--backlog", "running", f},
		{"--backlog", "in-system", f},
		{"--plot", "pie", "-o", "x.png", f},
		{"--plot", "cdf", f},
		{"--plot", "cdf", "-o", "x.eps", f},
		{"--plot", "cdf", "-o", "x.png", "--format", "csv", f},
		{"--plot", "cdf", "-o", "x.png", "--metric", "utilization", f},
		{"--plot", "boxes", "-o", "x.png", f},
		{"--plot", "metric", "-o", "x.png", "--x", "load.target", "--metric", "nosuch", f},
		{"--plot", "metric", "-o", "x.png", "--x", "load.target", "--stat", "mode", f},
		{"--plot", "bars", "-o", "x.png", "--metric", "utilization", "--stat", "median", f},
		{"--plot", "bars", "-o", "x.png", "--logx", f},
		{"--plot", "metric", "-o", "x.png", "--x", "policy", "--by", "policy", f},
		{"--plot", "jobs-in-system", "-o", "x.png", "--halves", f, f},
		{"--plot", "cdf", "-o", "x.png", "--saturation", f},
		{"--metric", "response", f},
		{"--logy", f},
		{"report", "a", "b"},
		{"report", "--no-such-flag"},
	} {
		_, _, err := analyzeCmd(t, nil, args...)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
}
