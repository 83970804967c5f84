package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

func runGenwork(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return cli.Call(run, stdin, args...)
}

func mustRun(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, err := runGenwork(t, stdin, args...)
	if err != nil {
		t.Fatalf("genwork %v: %v\n%s", args, err, stderr)
	}
	return stdout, stderr
}

// readTrace reads a trace table or SWF file of any format.
func readTrace(t *testing.T, data []byte) *model.Trace {
	t.Helper()
	var r model.JobReader
	switch f := columnar.DetectFormat(data); f {
	case columnar.FormatSWF, columnar.FormatSWFGzip:
		r = swf.NewReader(bytes.NewReader(data))
	default:
		tr, err := columnar.NewTraceReader(bytes.NewReader(data), f, "")
		if err != nil {
			t.Fatal(err)
		}
		r = tr
	}
	tr, err := model.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestLublinPipe: genwork lublin on a pipe writes an Arrow stream that
// columnar reads back, with the manifest and the machine in its header.
func TestLublinPipe(t *testing.T) {
	stdout, stderr := mustRun(t, nil, "lublin", "--jobs", "500", "--procs", "32", "--seed", "7", "--app")
	r, err := columnar.NewTraceReader(strings.NewReader(stdout), columnar.FormatArrow, "")
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if h.MaxProcs() != 32 || h.MaxNodes() != 32 {
		t.Errorf("MaxProcs %d, MaxNodes %d; want 32", h.MaxProcs(), h.MaxNodes())
	}
	m, ok := model.ManifestOf(h)
	if !ok || m.Tool != "genwork lublin" || !m.HasSeed || m.Seed != 7 || m.Version == "" || len(m.Inputs) != 0 {
		t.Errorf("manifest %+v", m)
	}
	if v, _ := m.Param("source.lublin.procs"); v != "32" {
		t.Errorf("procs param %q", v)
	}
	tr, err := model.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 500 || tr.Jobs[0].App.Pattern != model.PatternRing || tr.Jobs[0].App.Granularity == 0 {
		t.Errorf("%d jobs, first %+v", len(tr.Jobs), tr.Jobs[0])
	}
	if !strings.Contains(stderr, "genwork lublin: 500 jobs written to <stdout> (arrow)") {
		t.Errorf("stderr: %s", stderr)
	}

	// The same Spec built in code gives the same jobs.
	spec := workload.Spec{Source: workload.Source{Lublin: &workload.LublinSource{Jobs: 500, Procs: 32}},
		Attributes: &workload.Attributes{}, Seed: 7}
	wr, err := spec.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	want, err := model.ReadAll(wr)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tr.Jobs, want.Jobs) {
		t.Error("genwork lublin and workload.Spec.Open give different jobs")
	}
}

// TestThesisWorkload: the thesis' dynamic workload (6.4.1: Lublin, 1000
// jobs, 32 processors, loose estimates, time / 100, load 0.74) has offered
// load 0.74 ± 0.005 (as genwork stats computes it from the file) and two
// runs give byte-identical files, in Parquet and in SWF.
func TestThesisWorkload(t *testing.T) {
	dir := t.TempDir()
	args := []string{"lublin", "--jobs", "1000", "--procs", "32", "--app", "--estimates", "loose",
		"--compress", "100", "--load", "0.74", "--seed", "3"}
	for _, ext := range []string{".parquet", ".swf"} {
		var files [2][]byte
		for i := range files {
			out := filepath.Join(dir, "thesis"+ext)
			_, stderr := mustRun(t, nil, append(args, "-o", out)...)
			if i == 0 && !strings.Contains(stderr, "-> 0.7400 (target 0.74)") {
				t.Errorf("stderr: %s", stderr)
			}
			files[i], _ = os.ReadFile(out)
		}
		if len(files[0]) == 0 || !bytes.Equal(files[0], files[1]) {
			t.Errorf("%s: two runs with the same flags wrote different files", ext)
		}
		stdout, _ := mustRun(t, nil, "stats", "--json", filepath.Join(dir, "thesis"+ext))
		var st workload.Stats
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatal(err)
		}
		var withManifest struct {
			Manifest model.Manifest `json:"manifest"`
		}
		if err := json.Unmarshal([]byte(stdout), &withManifest); err != nil {
			t.Fatal(err)
		}
		if m := withManifest.Manifest; m.Tool != "genwork stats" || len(m.Inputs) != 1 || len(m.Inputs[0].SHA256) != 64 {
			t.Errorf("%s: stats manifest %+v", ext, m)
		}
		if st.OfferedLoad == nil || math.Abs(*st.OfferedLoad-0.74) > 0.005 || st.Jobs != 1000 || st.MachineProcs != 32 {
			t.Errorf("%s: stats %s", ext, stdout)
		}
		if st.Estimates.Jobs != 1000 || st.Estimates.Overrun != 0 || st.Estimates.Accuracy.Min < 0.2-1e-6 || st.Estimates.Accuracy.Max > 1 {
			t.Errorf("%s: loose estimates: %+v", ext, st.Estimates)
		}
	}
}

// TestPrintSpec: --print-spec gives the JSON that genwork spec runs to the
// same jobs.
func TestPrintSpec(t *testing.T) {
	args := []string{"lublin", "--jobs", "300", "--procs", "64", "--mix", "combined", "--max-estimate-factor", "3",
		"--granularity", "3ms,30ms", "--granularity-weights", "1,2", "--load", "0.6", "--scale", "arrivals", "--seed", "9"}
	specJSON, _ := mustRun(t, nil, append(args, "--print-spec")...)
	var spec workload.Spec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		t.Fatalf("%v\n%s", err, specJSON)
	}
	want := workload.Spec{
		Source:     workload.Source{Lublin: &workload.LublinSource{Jobs: 300, Procs: 64, Mix: "combined"}},
		Attributes: &workload.Attributes{Granularities: []model.Duration{3000, 30000}, Weights: []float64{1, 2}, Pattern: "ring", Comm: "blocking"},
		Estimates:  &workload.Estimates{Mode: "loose", MaxFactor: 3},
		Load:       &workload.Load{Target: 0.6, Scale: "arrivals"},
		Seed:       9,
	}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("spec:\n%s", specJSON)
	}
	viaFlags, _ := mustRun(t, nil, args...)
	viaSpec, stderr := mustRun(t, strings.NewReader(specJSON), "spec", "-")
	a, b := readTrace(t, []byte(viaFlags)), readTrace(t, []byte(viaSpec))
	if len(a.Jobs) != 300 || !reflect.DeepEqual(a.Jobs, b.Jobs) {
		t.Errorf("genwork spec gave other jobs than the flags (%d, %d jobs)", len(a.Jobs), len(b.Jobs))
	}
	if m, _ := model.ManifestOf(&b.Header); m.Tool != "genwork spec" {
		t.Errorf("tool %q", m.Tool)
	}
	if !strings.Contains(stderr, "submit times multiplied by") {
		t.Errorf("stderr: %s", stderr)
	}
	// A bad spec file is an input error, not a usage error.
	_, _, err := runGenwork(t, strings.NewReader(`{"source":{}}`), "spec", "-")
	if err == nil || errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "<stdin>: workload spec: source") {
		t.Errorf("bad spec: %v", err)
	}
}

// TestFormats converts a small SWF trace to every format and back.
func TestFormats(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	text := "; MaxProcs: 8\n; MaxNodes: 4\n" +
		"1 0 5 10 2 -1 -1 2 20 -1 1 3 1 1 1 -1 -1 -1\n" +
		"2 50 0 20.5 8 -1 -1 8 -1 -1 1 3 1 1 1 -1 -1 -1\n" +
		"3 100 -1 100 1 -1 -1 1 150 -1 0 4 1 1 1 -1 -1 -1\n"
	os.WriteFile(in, []byte(text), 0o644)
	orig := readTrace(t, []byte(text))
	prev := in
	// CSV comes last: fileio detects a format from the first 512 bytes,
	// and a CSV whose header lines (the manifests) fill them reads as SWF.
	for _, ext := range []string{".parquet", ".arrow", ".swf.gz", ".swf", ".csv"} {
		out := filepath.Join(dir, "out"+ext)
		mustRun(t, nil, "convert", prev, "-o", out, "-q")
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got := readTrace(t, data)
		if !reflect.DeepEqual(got.Jobs, orig.Jobs) {
			t.Errorf("%s: jobs changed:\n%+v\n%+v", ext, got.Jobs, orig.Jobs)
		}
		if got.Header.MaxProcs() != 8 || got.Header.MaxNodes() != 4 {
			t.Errorf("%s: header %+v", ext, got.Header)
		}
		m, _ := model.ManifestOf(&got.Header)
		if m.Tool != "genwork convert" || m.HasSeed || len(m.Inputs) != 1 || m.Inputs[0].Name != prev {
			t.Errorf("%s: manifest %+v", ext, m)
		}
		prev = out
	}
	// --format overrides the extension; - is stdout.
	stdout, _ := mustRun(t, nil, "convert", in, "--format", "csv", "-o", "-")
	if !strings.HasPrefix(stdout, "# gangsim.schema: gangsim.trace/1") {
		t.Errorf("csv on stdout: %.80q", stdout)
	}
	// Input from stdin, detected from its bytes.
	arrow, _ := os.ReadFile(filepath.Join(dir, "out.arrow"))
	stdout, _ = mustRun(t, bytes.NewReader(arrow), "convert", "--format", "swf")
	if got := readTrace(t, []byte(stdout)); !reflect.DeepEqual(got.Jobs, orig.Jobs) {
		t.Error("stdin arrow -> swf changed the jobs")
	}
}

// TestShared runs convert, clean and stats on a real log.
func TestShared(t *testing.T) {
	trace := sharedtraces.Trace(t, "KTH-SP2-1996-2.1-cln")
	dir := t.TempDir()
	clean := filepath.Join(dir, "kth.parquet")
	_, stderr := mustRun(t, nil, "clean", "--preset", "pyss", trace, "-o", clean)
	// The pyss oracle's job count for KTH (../shared/oracle, as in cmd/replay).
	for _, want := range []string{"jobs read", "dropped: run time <= 0 or missing", "jobs kept                              28467",
		"genwork clean: 28467 jobs written to " + clean} {
		if !strings.Contains(stderr, want) {
			t.Errorf("clean stderr lacks %q:\n%s", want, stderr)
		}
	}
	stdout, _ := mustRun(t, nil, "stats", clean)
	for _, want := range []string{"jobs              28467", "machine           100 processors", "offered load      0.6990"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stats lacks %q:\n%s", want, stdout)
		}
	}
	converted := filepath.Join(dir, "kth.swf.gz")
	mustRun(t, nil, "convert", trace, "-o", converted, "-q")
	statsOnly := func(name string) string {
		out, _ := mustRun(t, nil, "stats", "--json", name)
		var st workload.Stats // the manifest (input name and digest) differs
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(st)
		return string(b)
	}
	if a, b := statsOnly(trace), statsOnly(converted); a != b {
		t.Errorf("stats differ after convert:\n%s\n%s", a, b)
	}
	// The pyss preset equals the rules given one by one.
	rules := filepath.Join(dir, "rules.parquet")
	mustRun(t, nil, "clean", "--whole-seconds", "--drop-bad-submit", "--drop-no-size", "--drop-too-wide",
		"--no-runtime", "drop", "--unify-size", "--no-estimate", "from-runtime", "--overrun", "truncate-runtime", trace, "-o", rules, "-q")
	x, _ := os.ReadFile(clean)
	y, _ := os.ReadFile(rules)
	tx, ty := readTrace(t, x), readTrace(t, y)
	if !reflect.DeepEqual(tx.Jobs, ty.Jobs) {
		t.Error("--preset pyss and the same rules one by one give different jobs")
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n2 5 0 x 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	for _, args := range [][]string{
		{"convert", bad},
		{"convert", bad, "--load", "0.5"},
		{"clean", "--preset", "pyss", bad},
		{"stats", bad},
	} {
		out := filepath.Join(dir, "out.parquet")
		_, _, err := runGenwork(t, nil, append(args, "-o", out)...)
		if args[0] == "stats" {
			_, _, err = runGenwork(t, nil, args...)
		}
		if err == nil || err.Error() != bad+`:3: field 4 (run time): invalid number "x"` {
			t.Errorf("%v: %v", args, err)
		}
		if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
			t.Errorf("%v: a failed run left %s", args, out)
		}
	}
	// Lenient mode skips the line and says so.
	_, stderr := mustRun(t, nil, "convert", "--lenient", bad, "-o", filepath.Join(dir, "ok.csv"))
	if !strings.Contains(stderr, "genwork convert: 1 malformed line skipped") {
		t.Errorf("lenient stderr: %s", stderr)
	}
	for _, args := range [][]string{
		{},
		{"generate"},
		{"lublin", "--jobs", "0"},
		{"lublin", "--procs", "-3"},
		{"lublin", "--mix", "all"},
		{"lublin", "--start-hour", "25"},
		{"lublin", "--batch-params", "u_hi"},
		{"lublin", "--batch-params", "uhi=3"},
		{"lublin", "extra"},
		{"lublin", "--no-such-flag"},
		{"lublin", "--granularity", "5ns"},
		{"lublin", "--granularity-weights", "1,x"},
		{"lublin", "--granularity-weights", "1,2"},
		{"lublin", "--pattern", "mesh"},
		{"lublin", "--comm", "async"},
		{"lublin", "--imbalance", "-1"},
		{"lublin", "--estimates", "guess"},
		{"lublin", "--estimates", "exact", "--max-estimate-factor", "3"},
		{"lublin", "--max-estimate-factor", "0.5"},
		{"lublin", "--load", "0"},
		{"lublin", "--load", "0.5", "--scale", "both"},
		{"lublin", "--scale", "arrivals"},
		{"lublin", "--compress", "-1"},
		{"lublin", "-o", "out.txt"},
		{"lublin", "--format", "xml"},
		{"convert", "a", "b"},
		{"clean", "--preset", "slurm", bad},
		{"clean", "--order", "random", bad},
		{"stats", "a", "b"},
		{"stats", "--procs", "-1", bad},
		{"scenario"},
		{"scenario", "a", "b"},
		{"scenario", "balanced", "--task-length", "long"},
		{"spec"},
	} {
		_, _, err := runGenwork(t, nil, args...)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
	for _, args := range [][]string{
		{"convert", filepath.Join(dir, "missing.swf"), "-o", filepath.Join(dir, "x.csv")},
		{"spec", filepath.Join(dir, "missing.json")},
		{"stats", filepath.Join(dir, "missing.swf")},
	} {
		if _, _, err := runGenwork(t, nil, args...); err == nil || errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v", args, err)
		}
	}
	// Help and the version are not errors, and go to stdout.
	for _, args := range [][]string{{"--help"}, {"lublin", "--help"}, {"stats", "-h"}, {"--version"}, {"convert", "--version"}} {
		stdout, stderr, err := runGenwork(t, nil, args...)
		if cli.Exit("genwork", err, io.Discard) != 0 || stderr != "" || !strings.Contains(stdout, "usage: genwork") && !strings.Contains(stdout, "(gangsim)") {
			t.Errorf("%v: %v, stdout %q, stderr %q", args, err, stdout, stderr)
		}
	}
}

// TestEstimatesFlags: --max-estimate-factor alone means loose estimates;
// the estimates do not change the jobs otherwise.
func TestEstimatesFlags(t *testing.T) {
	plain, _ := mustRun(t, nil, "lublin", "--jobs", "200", "--procs", "16", "-q")
	loose, _ := mustRun(t, nil, "lublin", "--jobs", "200", "--procs", "16", "--max-estimate-factor", "2", "-q")
	a, b := readTrace(t, []byte(plain)), readTrace(t, []byte(loose))
	for i := range a.Jobs {
		x, y := a.Jobs[i], b.Jobs[i]
		if x.Submit != y.Submit || x.Runtime != y.Runtime || x.Size() != y.Size() || x.Has(model.FieldEstimate) {
			t.Fatalf("job %d: %+v vs %+v", i, x, y)
		}
		if y.Estimate < y.Runtime || float64(y.Estimate) > 2*float64(y.Runtime)+0.5 {
			t.Fatalf("job %d: runtime %v, estimate %v with a maximum factor of 2", i, y.Runtime, y.Estimate)
		}
	}
	m, _ := model.ManifestOf(&b.Header)
	if v, _ := m.Param("estimates.max_factor"); v != "2" {
		t.Errorf("max factor param %q", v)
	}
}

func TestScenario(t *testing.T) {
	stdout, _ := mustRun(t, nil, "scenario", "--list")
	for _, name := range []string{"balanced", "imbalanced", "complementing", "mixed", "calypso", "calypso-3on2", "calypso-5on3"} {
		if !strings.Contains(stdout, "\n"+name+" ") && !strings.HasPrefix(stdout, name+" ") {
			t.Errorf("--list lacks %s:\n%s", name, stdout)
		}
	}
	out := filepath.Join(t.TempDir(), "mixed.parquet")
	mustRun(t, nil, "scenario", "mixed", "--comm", "non-blocking", "-o", out)
	data, _ := os.ReadFile(out)
	tr := readTrace(t, data)
	if len(tr.Jobs) != 3 || tr.Header.MaxProcs() != 4 || len(tr.Jobs[1].App.ProcCompute) != 4 || len(tr.Jobs[1].App.Pin) != 4 {
		t.Errorf("mixed: %d jobs, header %d procs, job 2 %+v", len(tr.Jobs), tr.Header.MaxProcs(), tr.Jobs[1].App)
	}
	m, _ := model.ManifestOf(&tr.Header)
	if v, _ := m.Param("source.scenario.comm"); m.Tool != "genwork scenario" || v != "non-blocking" || m.HasSeed {
		t.Errorf("manifest %+v", m)
	}
	for _, args := range [][]string{{"scenario", "nosuch"}, {"scenario", "calypso"}, {"scenario", "balanced", "--tasks", "3"}} {
		if _, _, err := runGenwork(t, nil, args...); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
}

// TestPresetThesis: --preset thesis is the thesis' workload (the spec the
// preset gives), flags given replace its values and keep the rest, and
// the workload written has the thesis' statistics.
func TestPresetThesis(t *testing.T) {
	specJSON, _ := mustRun(t, nil, "lublin", "--preset", "thesis", "--seed", "4", "--load", "0.8",
		"--estimates", "exact", "--print-spec")
	var spec workload.Spec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		t.Fatalf("%v\n%s", err, specJSON)
	}
	want := workload.ThesisPreset()
	want.Preset, want.Seed = "thesis", 4
	want.Load = &workload.Load{Target: 0.8, Scale: "runtimes"}
	want.Estimates = &workload.Estimates{Mode: "exact"}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("spec:\n%s", specJSON)
	}

	stdout, stderr := mustRun(t, nil, "lublin", "--preset", "thesis", "--seed", "2")
	tr := readTrace(t, []byte(stdout))
	p, err := workload.MeasureProfile(model.NewSliceReader(tr), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Time is divided by 100: the span in days is a hundredth of the raw.
	if p.Jobs != 1000 || !workload.ThesisSpanDays.Contains(p.SpanDays*100) || !workload.ThesisMedianSize.Contains(p.MedianSize) ||
		!workload.ThesisRawLoad.Contains(p.Load) || tr.Jobs[0].App.Granularity == 0 || !tr.Jobs[0].Has(model.FieldEstimate) {
		t.Errorf("profile %+v, first job %+v", p, tr.Jobs[0])
	}
	m, _ := model.ManifestOf(&tr.Header)
	if v, _ := m.Param("preset"); v != "thesis" {
		t.Errorf("manifest preset %q", v)
	}
	if v, ok := m.Param("result.selection_draw"); !ok || v == "" {
		t.Errorf("manifest has no selection draw: %v", m.Params)
	}
	if !strings.Contains(stderr, "1000 jobs written") {
		t.Errorf("stderr %s", stderr)
	}

	// A source flag replaces the preset's value.
	specJSON, _ = mustRun(t, nil, "lublin", "--preset", "thesis", "--jobs", "500", "--max-draws", "50", "--print-spec")
	spec = workload.Spec{}
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		t.Fatal(err)
	}
	if l := spec.Source.Lublin; l.Jobs != 500 || l.Procs != 32 || l.Select.MaxDraws != 50 || l.Select.Load == nil {
		t.Errorf("--jobs and --max-draws over the preset: %s", specJSON)
	}
	for _, args := range [][]string{
		{"lublin", "--preset", "nope"},
		{"lublin", "--select", "span=1..2"},
		{"lublin", "--select", "load=2..1"},
		{"lublin", "--max-draws", "5"},
		{"synthetic", "--size", "5"},
		{"synthetic", "--arrivals", "bursty"},
		{"synthetic", "--runtimes", "pareto"},
		{"lublin", "--model-procs", "-4"},
	} {
		if _, _, err := runGenwork(t, nil, args...); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestModelProcsFlag: --model-procs draws sizes for a larger machine and
// cuts them to --procs: the jobs are the larger machine's with their sizes
// cut, on a trace of --procs processors; over the thesis preset it
// replaces the preset's (none).
func TestModelProcsFlag(t *testing.T) {
	stdout, _ := mustRun(t, nil, "lublin", "--jobs", "500", "--procs", "32", "--model-procs", "128", "--mix", "combined", "--seed", "3")
	tr := readTrace(t, []byte(stdout))
	wide, _ := mustRun(t, nil, "lublin", "--jobs", "500", "--procs", "128", "--mix", "combined", "--seed", "3")
	big := readTrace(t, []byte(wide))
	cut := 0
	for i, j := range tr.Jobs {
		if j.Size() != min(big.Jobs[i].Size(), 32) || j.Runtime != big.Jobs[i].Runtime {
			t.Fatalf("job %d: %+v, want %+v cut to 32", i+1, j, big.Jobs[i])
		}
		if big.Jobs[i].Size() > 32 {
			cut++
		}
	}
	if cut == 0 || tr.Header.MaxProcs() != 32 {
		t.Errorf("%d sizes cut, MaxProcs %d", cut, tr.Header.MaxProcs())
	}
	m, _ := model.ManifestOf(&tr.Header)
	if v, _ := m.Param("source.lublin.model_procs"); v != "128" {
		t.Errorf("manifest model_procs %q", v)
	}
	specJSON, _ := mustRun(t, nil, "lublin", "--preset", "thesis", "--model-procs", "64", "--print-spec")
	if !strings.Contains(specJSON, `"model_procs": 64`) {
		t.Errorf("--model-procs over the preset: %s", specJSON)
	}
}

// TestSelectFlag: --select keeps a workload with the statistics asked for,
// and reports when none of --max-draws has them.
func TestSelectFlag(t *testing.T) {
	stdout, _ := mustRun(t, nil, "lublin", "--jobs", "300", "--procs", "32", "--mix", "combined",
		"--select", "median_size=4..100,load=0.8..5", "--seed", "5")
	tr := readTrace(t, []byte(stdout))
	p, _ := workload.MeasureProfile(model.NewSliceReader(tr), 0)
	if p.MedianSize < 4 || p.Load < 0.8 {
		t.Errorf("selected profile %+v", p)
	}
	_, _, err := runGenwork(t, nil, "lublin", "--jobs", "300", "--select", "load=50..60", "--max-draws", "2", "-o", filepath.Join(t.TempDir(), "w.csv"))
	if err == nil || !strings.Contains(err.Error(), "none of 2 workloads drawn with seed 1 has load in [50, 60)") {
		t.Errorf("impossible selection: %v", err)
	}
}

// TestSynthetic: genwork synthetic writes jobs of one size on the machine
// asked for, at the load asked for.
func TestSynthetic(t *testing.T) {
	stdout, stderr := mustRun(t, nil, "synthetic", "--jobs", "2000", "--procs", "16", "--size", "4", "--arrivals", "daily",
		"--load", "0.9", "--seed", "2")
	tr := readTrace(t, []byte(stdout))
	if len(tr.Jobs) != 2000 || tr.Header.MaxProcs() != 16 {
		t.Fatalf("%d jobs on %d processors", len(tr.Jobs), tr.Header.MaxProcs())
	}
	for _, j := range tr.Jobs {
		if j.Size() != 4 {
			t.Fatalf("job of size %d", j.Size())
		}
	}
	if load, _ := workload.OfferedLoad(tr.Jobs, 16); math.Abs(load-0.9) > 1e-3 || !strings.Contains(stderr, "(target 0.9)") {
		t.Errorf("offered load %v; stderr %s", load, stderr)
	}
	m, _ := model.ManifestOf(&tr.Header)
	if v, _ := m.Param("source.synthetic.arrivals"); v != "daily" || m.Tool != "genwork synthetic" || !m.HasSeed {
		t.Errorf("manifest %+v", m)
	}
}

// TestCleanDefaultDropped: genwork clean --preset default is replay's
// default cleaning; --dropped lists every dropped job with its line and
// reason; the drops reach stderr on one line under -q, and the manifest.
func TestCleanDefaultDropped(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.swf")
	os.WriteFile(in, []byte("; MaxProcs: 8\n"+
		"1 0 0 10 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n"+
		"2 1 0 0 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"+
		"3 -1 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"+
		"4 3 0 -1 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	out, list := filepath.Join(dir, "c.csv"), filepath.Join(dir, "dropped.csv")
	_, stderr := mustRun(t, nil, "clean", "--preset", "default", "-q", in, "-o", out, "--dropped", list)
	if want := "genwork clean: cleaning dropped 3 of 4 jobs: bad-submit 1, no-runtime 2\n"; stderr != want {
		t.Errorf("stderr under -q %q, want %q", stderr, want)
	}
	b, _ := os.ReadFile(list)
	if want := "job_id,line,reason\n2,3,no-runtime\n3,4,bad-submit\n4,5,no-runtime\n"; string(b) != want {
		t.Errorf("dropped list:\n%s\nwant:\n%s", b, want)
	}
	b, _ = os.ReadFile(out)
	if !strings.Contains(string(b), "# GangsimDropped: no-runtime 2\n") || !strings.Contains(string(b), "\n1,0,0,10,4,") {
		t.Errorf("output:\n%s", b)
	}
	// The kept job got its estimate from its run time, as replay's
	// default does.
	if !strings.Contains(string(b), ",10,") {
		t.Errorf("estimate not filled:\n%s", b)
	}
	// The list and the workload on one file would lose one: a usage
	// error, by the same name, through a link, or both on standard error.
	link := filepath.Join(dir, "link.csv")
	os.Symlink(out, link)
	for _, pair := range [][2]string{{out, out}, {out, link}, {"-", "/dev/stderr"}} {
		_, _, err := runGenwork(t, nil, "clean", "--preset", "default", in, "--dropped", pair[0], "-o", pair[1], "--format", "csv")
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "same file") {
			t.Errorf("--dropped %s -o %s: %v, want a usage error", pair[0], pair[1], err)
		}
	}
}

// TestOddValuesKept: a log with values outside SWF 2.2 in unused fields
// converts with every job, the values counted in stats (text and JSON),
// on stderr and in the output's manifest; --strict refuses it.
func TestOddValuesKept(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "odd.swf")
	os.WriteFile(in, []byte("; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 20 -1 9 -3 1 1 1 1 -1 -1\n2 5 0 10 4 -1 -1 4 20 -1 1 1 1 1 x 1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "o.csv")
	_, stderr := mustRun(t, nil, "convert", "-q", in, "-o", out)
	if !strings.Contains(stderr, "jobs kept with values outside SWF 2.2: 1 in field 11 (status), 1 in field 12 (user ID), 1 in field 15 (queue number)") {
		t.Errorf("stderr: %s", stderr)
	}
	b, _ := os.ReadFile(out)
	if strings.Count(string(b), "# GangsimAnomaly: ") != 3 || strings.Count(string(b), "\n") < 3 {
		t.Errorf("output:\n%s", b)
	}
	text, _ := mustRun(t, nil, "stats", in)
	js, _ := mustRun(t, nil, "stats", "--json", in)
	for _, s := range []string{text, js} {
		if !strings.Contains(s, "1 field 11 (status): value out of range") {
			t.Errorf("stats do not count the odd status:\n%s", s)
		}
	}
	if _, _, err := runGenwork(t, nil, "convert", "--strict", in, "-o", out); err == nil || !strings.Contains(err.Error(), "odd.swf:2: field 11 (status)") {
		t.Errorf("--strict: %v", err)
	}
}

// TestOutputDevices: genwork writes to /dev/null (as -o and as standard
// output, which is no terminal) and fails with exit 1 on /dev/full, for
// every kind of output: a trace, stats, a spec.
func TestOutputDevices(t *testing.T) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer devNull.Close()
	if code := cli.Run("genwork", run, []string{"lublin", "--jobs", "50", "-q"}, nil, devNull, io.Discard); code != 0 {
		t.Errorf("genwork lublin > /dev/null: exit %d", code)
	}
	if _, _, err := runGenwork(t, nil, "lublin", "--jobs", "50", "-q", "-o", os.DevNull); err != nil {
		t.Errorf("-o /dev/null: %v", err)
	}
	if st, _ := os.Stat(os.DevNull); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null replaced")
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	trace := filepath.Join(t.TempDir(), "t.csv")
	mustRun(t, nil, "lublin", "--jobs", "50", "-q", "-o", trace)
	for _, args := range [][]string{
		{"lublin", "--jobs", "50", "-q"},
		{"lublin", "--jobs", "50", "-q", "-o", "/dev/full"},
		{"stats", trace},
		{"stats", "--json", trace},
		{"lublin", "--print-spec"},
		{"scenario", "--list"},
		{"--help"},
	} {
		var stderr bytes.Buffer
		if code := cli.Run("genwork", run, args, nil, full, &stderr); code != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v to /dev/full: exit %d, %q", args, code, stderr.String())
		}
	}
}

// TestDurationFlagsHelp: every duration flag's help states the one
// duration syntax, and the flags read it alike.
func TestDurationFlagsHelp(t *testing.T) {
	for cmd, flags := range map[string][]string{
		"synthetic": {"--mean-interarrival", "--mean-runtime", "--granularity"},
		"lublin":    {"--granularity"},
		"scenario":  {"--task-length"},
	} {
		stdout, _, _ := runGenwork(t, nil, cmd, "--help")
		for _, f := range flags {
			i := strings.Index(stdout, f+" string")
			end := -1
			if i >= 0 {
				end = strings.Index(stdout[i:], "\n      --")
			}
			if end < 0 || !strings.Contains(stdout[i:i+end], model.DurationSyntax) {
				t.Errorf("genwork %s %s: help does not state the duration syntax:\n%s", cmd, f, stdout)
			}
		}
	}
	for _, v := range []string{"500ns", "1e30", "-5s"} {
		if _, _, err := runGenwork(t, nil, "synthetic", "--mean-interarrival", v, "--print-spec"); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("--mean-interarrival %s: %v", v, err)
		}
	}
}

// TestProcsBounds: every processor flag of every command has the same
// bounds (cli.CheckProcs): negative is a usage error, and so is more than
// 32 bits, with the same message, never an overflow or a header replay
// refuses.
func TestProcsBounds(t *testing.T) {
	for _, args := range [][]string{
		{"synthetic", "--procs"}, {"lublin", "--procs"}, {"lublin", "--load", "0.5", "--load-procs"},
		{"synthetic", "--size"}, {"stats", "--procs"}, {"clean", "--drop-too-wide", "--machine-procs"},
	} {
		for _, v := range []struct{ n, want string }{
			{"3000000000", "3000000000: more than 2147483647 processors"},
			{"99999999999", "99999999999: more than 2147483647 processors"},
			{"-4", "-4 is negative"},
		} {
			rest := "--print-spec"
			if args[0] == "stats" {
				rest = "no-such.swf" // checked before it is opened
			}
			_, _, err := runGenwork(t, nil, append(args, v.n, rest)...)
			want := args[len(args)-1] + " " + v.want
			if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), want) {
				t.Errorf("%v %s: %v, want a usage error saying %q", args, v.n, err, want)
			}
		}
	}
	// A spec's machine sizes are bounded alike.
	for _, spec := range []string{
		`{"source": {"synthetic": {"jobs": 5, "procs": 3000000000}}}`,
		`{"source": {"lublin": {"jobs": 5, "procs": 3000000000}}}`,
		`{"source": {"lublin": {"jobs": 5}}, "load": {"target": 0.5, "procs": 3000000000}}`,
	} {
		_, _, err := runGenwork(t, strings.NewReader(spec), "spec", "-", "--print-spec")
		if err == nil || !strings.Contains(err.Error(), "more than 2147483647 processors") {
			t.Errorf("%s: %v", spec, err)
		}
	}
}
