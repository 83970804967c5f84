package main

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
)

// TestOutcomeTableChecks: analyze refuses an outcomes table with a row
// that cannot be right, naming the row (a CSV line) and its column, and
// under --lenient skips it, saying how many and why on stderr (even with
// -q). Each edit of one row of easyRun used to pass: end_s = NaN read as 0
// (a response of -10 s), end_s < start_s gave a negative response, procs =
// 1000000 on 4 processors a utilization of thousands, a repeated row
// counted twice.
func TestOutcomeTableChecks(t *testing.T) {
	h := runHeader(4, 1, nil, []model.Param{p("policy", "easy"), p("machine", "4")})
	var buf bytes.Buffer
	w, err := columnar.NewOutcomeWriter(&buf, columnar.FormatCSV, &h)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range easyRun() {
		w.Write(&o)
	}
	w.Close()
	lines := strings.SplitAfter(buf.String(), "\n")
	var names []string
	row := -1 // the line of job 2
	for i, l := range lines {
		if strings.HasPrefix(l, "job_id,") {
			names = strings.Split(strings.TrimSpace(l), ",")
		}
		if strings.HasPrefix(l, "2,") {
			row = i
		}
	}
	col := func(name string) int {
		for i, n := range names {
			if n == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	edit := func(column, value string) string {
		out := append([]string(nil), lines...)
		cells := strings.Split(strings.TrimSuffix(out[row], "\n"), ",")
		cells[col(column)] = value
		out[row] = strings.Join(cells, ",") + "\n"
		return strings.Join(out, "")
	}
	at := strconv.Itoa(row + 1)
	dir := t.TempDir()
	for _, tt := range []struct {
		name, table, want string
	}{
		{"NaN end", edit("end_s", "NaN"), ":" + at + ": column end_s: NaN is not a time"},
		{"end before start", edit("end_s", "5"), ":" + at + ": column end_s: end before start: 5 s, before start_s 10 s"},
		{"start before submit", edit("start_s", "-1"), ":" + at + ": column start_s: start before submit: -1 s, before submit_s 0 s"},
		{"too many processors", edit("procs", "1000000"), ":" + at + ": column procs: more processors than the machine: 1000000, on a machine of 4"},
		{"negative duration", edit("dedicated_s", "-20"), ":" + at + ": column dedicated_s: negative duration: -20 s"},
		{"repeated job", edit("job_id", "1"), ":" + at + ": column job_id: repeated job number: 1 (an earlier row has it)"},
		{"infinite start", edit("start_s", "+Inf"), ":" + at + ": column start_s: +Inf is not a time"},
		{"word in a time", edit("submit_s", "soon"), ":" + at + `: column submit_s: invalid number "soon"`},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".csv")
		if err := os.WriteFile(path, []byte(tt.table), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := analyzeCmd(t, nil, path, "--columns", "jobs")
		if want := path + tt.want; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s", tt.name, err, want)
		}
		out, stderr := mustAnalyze(t, nil, path, "--columns", "jobs,utilization", "--lenient", "-q", "--format", "csv")
		if !strings.Contains(out, ",3,") {
			t.Errorf("%s --lenient: table\n%s, want 3 jobs", tt.name, out)
		}
		if !strings.Contains(stderr, path+": 1 row skipped (1 ") || !strings.Contains(stderr, "first: "+path+tt.want) {
			t.Errorf("%s --lenient: stderr %q", tt.name, stderr)
		}
	}
}

// TestOutcomeTableNaNParquet: a NaN end_s in a Parquet table of another
// tool is refused with its row, not read as 0.
func TestOutcomeTableNaNParquet(t *testing.T) {
	type row struct {
		JobID  int64   `parquet:"job_id"`
		Submit float64 `parquet:"submit_s"`
		Start  float64 `parquet:"start_s"`
		End    float64 `parquet:"end_s"`
		Procs  int32   `parquet:"procs"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf)
	if _, err := w.Write([]row{{1, 0, 0, 10, 1}, {2, 3, 4, math.NaN(), 1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "other.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := analyzeCmd(t, nil, path, "--procs", "4")
	if want := path + ": row 2: column end_s: NaN is not a time"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
	out, stderr := mustAnalyze(t, nil, path, "--procs", "4", "--lenient", "--columns", "jobs,response_s_mean", "--format", "csv")
	if !strings.Contains(out, ",1,10\n") || !strings.Contains(stderr, "1 row skipped (1 unreadable value") {
		t.Errorf("--lenient:\n%s%s", out, stderr)
	}
}

// TestCutCSVStream: replay ... -o - --format csv | head -n 2000 | analyze
// used to exit 0 with the rows before the cut; the CSV's closing line
// ("# gangsim.end: N rows") is missing, so it fails now, at a row boundary
// as inside a row. The whole table reads, and so does one without the
// promise at its start (another tool's).
func TestCutCSVStream(t *testing.T) {
	h := runHeader(4, 1, nil, []model.Param{p("policy", "easy"), p("machine", "4")})
	var buf bytes.Buffer
	w, _ := columnar.NewOutcomeWriter(&buf, columnar.FormatCSV, &h)
	for i := range 3000 {
		o := job(int64(i+1), float64(i), float64(i), float64(i+1), 1)
		w.Write(&o)
	}
	w.AppendHeader(model.HeaderLine{Key: model.KeyGangsimInput, Value: workloadDigest + " -"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	head := strings.Join(lines[:2000], "")
	_, _, err := analyzeCmd(t, strings.NewReader(head), "--columns", "jobs")
	if !errors.Is(err, columnar.ErrTruncated) || !strings.Contains(err.Error(), "<stdin>: CSV after row ") {
		t.Errorf("cut at a row boundary: %v, want ErrTruncated", err)
	}
	if _, _, err := analyzeCmd(t, strings.NewReader(buf.String()[:buf.Len()-30]), "--columns", "jobs"); err == nil {
		t.Error("cut inside its trailer: no error")
	}
	out, _ := mustAnalyze(t, strings.NewReader(buf.String()), "--columns", "jobs", "--format", "csv")
	if !strings.Contains(out, "<stdin>,3000\n") {
		t.Errorf("whole:\n%s", out)
	}
	var foreign []string
	for _, l := range lines[:2000] {
		if !strings.HasPrefix(l, "# gangsim.end") {
			foreign = append(foreign, l)
		}
	}
	out, _ = mustAnalyze(t, strings.NewReader(strings.Join(foreign, "")), "--columns", "jobs", "--format", "csv", "--procs", "4")
	if !strings.Contains(out, ",19") {
		t.Errorf("a CSV without the promise:\n%s", out)
	}
}

// TestEmptyAndCutInputs: analyze </dev/null says its input is empty
// (it said "it looks like an SWF trace"), and an Arrow or Parquet file
// cut to a few bytes, shorter than its magic number, fails as a
// truncated one of its format (it was read as SWF text).
func TestEmptyAndCutInputs(t *testing.T) {
	_, _, err := analyzeCmd(t, strings.NewReader(""))
	if err == nil || err.Error() != "<stdin>: empty input: no outcomes table (Parquet, Arrow or CSV from replay)" {
		t.Errorf("empty standard input: %v", err)
	}
	dir := t.TempDir()
	h := runHeader(4, 1, nil, []model.Param{p("machine", "4")})
	for _, ext := range []string{".arrow", ".parquet"} {
		whole := filepath.Join(dir, "run"+ext)
		writeRun(t, whole, h, easyRun())
		data, _ := os.ReadFile(whole)
		for n := 1; n <= 3; n++ {
			cut := filepath.Join(dir, "cut"+ext)
			os.WriteFile(cut, data[:n], 0o644)
			_, _, err := analyzeCmd(t, nil, cut)
			if err == nil || strings.Contains(err.Error(), "SWF") ||
				!errors.Is(err, columnar.ErrTruncated) && !strings.Contains(err.Error(), "too short for a Parquet file") {
				t.Errorf("%s cut to %d bytes: %v, want a truncated %s", ext, n, err, ext)
			}
		}
	}
}
