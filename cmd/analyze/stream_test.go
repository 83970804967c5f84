package main

import (
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/workload"
)

// TestStreamingMatchesWholeRun: analyze streams a run through
// accumulators that keep only the values its columns need; every column
// of --all must be what a computation over the whole run in memory gives
// (a sorted copy for the order statistics, exactly; gonum's mean and
// standard deviation, to rounding), and the default columns the same
// values as --all's.
func TestStreamingMatchesWholeRun(t *testing.T) {
	tmp := t.TempDir()
	run, err := pipelines.ParseRun([]byte(`{"workload": {"source": {"lublin": {"jobs": 3000, "procs": 64}}, "seed": 5},
		"replay": {"policy": "easy"}}`))
	if err != nil {
		t.Fatal(err)
	}
	done, err := (&pipelines.Sweep{Cache: &pipelines.Cache{Dir: tmp}}).Do([]*pipelines.Run{run}, []pipelines.Point{{}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(done[0].Dir, "outcomes.parquet")
	whole, err := readOutcomes(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	tau := metrics.DefaultTau
	m := metrics.PerJob(whole.outcomes, tau)

	out, _ := mustAnalyze(t, nil, "-q", "--all", "--format", "csv", file)
	_, _, rows := csvTable(t, out)
	got := rows[0]
	num := func(col string) float64 {
		v, err := strconv.ParseFloat(got[col], 64)
		if err != nil {
			t.Fatalf("%s: %q", col, got[col])
		}
		return v
	}
	if got["jobs"] != strconv.Itoa(len(m.ID)) || num("makespan_s") != metrics.Makespan(whole.outcomes).Seconds() ||
		num("utilization") != metrics.Utilization(whole.outcomes, 64) {
		t.Errorf("run metrics: %v", got)
	}
	for _, c := range []struct {
		name string
		x    []float64
	}{{"wait_s", m.Wait}, {"response_s", m.Response}, {"bsld", m.BoundedSlowdown}, {"ts_bsld", m.TimeSharingBoundedSlowdown}} {
		s := slices.Clone(c.x)
		slices.Sort(s)
		for _, q := range []struct {
			suffix string
			p      float64
		}{{"min", 0}, {"p5", 0.05}, {"p25", 0.25}, {"median", 0.5}, {"p75", 0.75}, {"p95", 0.95}, {"max", 1}} {
			if want := metrics.Quantile(q.p, s); num(c.name+"_"+q.suffix) != want {
				t.Errorf("%s_%s = %v, want %v (a sorted copy's)", c.name, q.suffix, num(c.name+"_"+q.suffix), want)
			}
		}
		for _, st := range []struct {
			suffix string
			want   float64
		}{{"mean", stat.Mean(c.x, nil)}, {"sd", stat.StdDev(c.x, nil)}} {
			if v := num(c.name + "_" + st.suffix); math.Abs(v-st.want) > 1e-9*math.Abs(st.want) {
				t.Errorf("%s_%s = %v, want %v", c.name, st.suffix, v, st.want)
			}
		}
	}
	out, _ = mustAnalyze(t, nil, "-q", "--format", "csv", file)
	_, cols, rows := csvTable(t, out)
	for _, col := range cols[1:] {
		if rows[0][col] != got[col] {
			t.Errorf("default column %s = %s, --all's %s", col, rows[0][col], got[col])
		}
	}
}

// TestStdinNotSpooled: analyze reads standard input once, as it arrives,
// like replay, and never copies it to a temporary file (a 10-million-job
// pipe would write 1.8 GB to /tmp). Standard input is a pipe (no seeking)
// and TMPDIR a directory that does not exist, so any spool would fail; a
// Parquet stream, which must be spooled, shows that it would. Every
// input read from standard input (a run, --halves' FCFS run, a
// --timeseries) gives the same output as the same bytes from a file, the
// digest in the manifest being that of the bytes.
func TestStdinNotSpooled(t *testing.T) {
	dir := fixture(t)
	satDir, stable, _ := saturationFixture(t)
	ts := filepath.Join(satDir, "stable-ts.arrow")
	writeSeries(t, ts, runHeader(1, 1, []model.Param{p("load.target", "0.5")}, []model.Param{p("policy", "fcfs"), p("machine", "1")}), stableSeries(stable))
	stableCSV := filepath.Join(satDir, "stable.csv")
	easyArrow, fcfsCSV, easyParquet := filepath.Join(dir, "easy2.arrow"), filepath.Join(dir, "fcfs.csv"), filepath.Join(dir, "easy1.parquet")
	outDir := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(outDir, "missing"))

	// pipe feeds the file's bytes to analyze through an io.Pipe.
	pipe := func(file string) io.Reader {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r, w := io.Pipe()
		go func() { w.CloseWithError(func() error { _, err := w.Write(b); return err }()) }()
		return r
	}
	for _, c := range []struct {
		name string
		file string   // the bytes on standard input
		args []string // with "-" where the input goes
		ext  string   // of the output
	}{
		{"arrow run", easyArrow, []string{"--all", "--by", "policy", "-"}, ".csv"},
		{"csv run", fcfsCSV, []string{"--format", "json", "--by", "policy", "-"}, ".json"},
		{"halves", fcfsCSV, []string{"--halves", "-", "--columns", "jobs,response_s_mean", easyArrow}, ".csv"},
		{"timeseries", ts, []string{"--saturation", stableCSV, "--timeseries", "-"}, ".csv"},
		{"cdf", easyArrow, []string{"--plot", "cdf", "--by", "policy", "--logx", "-"}, ".svg"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fromFile := slices.Clone(c.args)
			fromFile[slices.Index(fromFile, "-")] = c.file
			out := filepath.Join(outDir, c.name+c.ext)
			mustAnalyze(t, nil, append([]string{"-q", "-o", out}, fromFile...)...)
			want, _ := os.ReadFile(out)
			mustAnalyze(t, pipe(c.file), append([]string{"-q", "-o", out}, c.args...)...)
			got, _ := os.ReadFile(out)
			// Only the input's name differs: "-" for standard input, in
			// the manifest's inputs and flags.
			if !strings.Contains(string(want), sha(t, c.file)) || !strings.Contains(string(want), c.file) {
				t.Fatalf("the output from the file does not name it with its digest:\n%s", want)
			}
			if wantText := strings.ReplaceAll(string(want), c.file, "-"); string(got) != wantText {
				t.Errorf("from standard input:\n%s\nfrom the file:\n%s", got, wantText)
			}
		})
	}

	// The check can fail: a Parquet stream is spooled, and that fails here.
	_, _, err := analyzeCmd(t, pipe(easyParquet), "-q", "-")
	if err == nil || !strings.Contains(err.Error(), "spooling standard input") {
		t.Errorf("Parquet on standard input with no temporary directory: %v, want a spooling error", err)
	}
}

// TestEveryGroupingHasALabel: every name analyze can group by (--by) or
// draw against (--x) has an entry in the label table (metrics.Label), so
// that a figure's legend or axis title reads "Hardware model", not "hw":
// every parameter replay writes (a real run's manifest, charged by a
// hardware model), every result genwork's transforms record (a selected,
// load-scaled workload), every JSON leaf of a workload spec at any depth
// (a Lublin class's parameters by name), analyze's own run and half;
// and every column.
func TestEveryGroupingHasALabel(t *testing.T) {
	names := map[string]bool{keyRun: true, keyHalf: true, "lenient": true, "strict": true} // the last two: cmd/replay's own
	run, err := pipelines.ParseRun([]byte(`{"workload": {"source": {"lublin": {"jobs": 200, "procs": 32,
		"select": {"load": {"min": 0, "max": 10}}}}, "load": {"target": 0.5}, "estimates": {"mode": "loose"},
		"attributes": {}, "compress": 100, "seed": 5},
		"replay": {"policy": "gs:mpl=2", "hw": "crescendo"}}`))
	if err != nil {
		t.Fatal(err)
	}
	done, err := (&pipelines.Sweep{Cache: &pipelines.Cache{Dir: t.TempDir()}}).Do([]*pipelines.Run{run}, []pipelines.Point{{}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := readOutcomes(filepath.Join(done[0].Dir, "outcomes.parquet"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range r.paramNames() {
		names[name] = true
	}
	for _, want := range []string{"hw", "mechanism", "policy", "result.load_reached", "result.selection_draw", "load.scale"} {
		if !names[want] {
			t.Errorf("the run's manifests lack %s: the test no longer sees every parameter", want)
		}
	}
	// Every JSON leaf of a workload spec, by its path (workload.Spec.Params).
	var leaves func(typ reflect.Type, path string)
	leaves = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		switch {
		case typ.Kind() == reflect.Map:
			for _, p := range workload.LublinParamNames() {
				names[path+"."+p] = true
			}
			return
		case typ.Kind() != reflect.Struct:
			names[path] = true
			return
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			if path != "" {
				tag = path + "." + tag
			}
			leaves(f.Type, tag)
		}
	}
	leaves(reflect.TypeFor[workload.Spec](), "")
	for _, c := range metrics.RunColumns() {
		names[c] = true
	}
	sorted := slices.Sorted(maps.Keys(names))
	for _, name := range sorted {
		if q, ok := metrics.Label(name); !ok || q.Label == "" || q.Label == name {
			t.Errorf("%s has no label (metrics.Label): a figure would title it %q", name, q.Label)
		}
	}
}
