package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/swf"
)

func replayCmd(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return cli.Call(run, stdin, args...)
}

func TestReplayKTH(t *testing.T) {
	trace := sharedtraces.Trace(t, "KTH-SP2-1996-2.1-cln")
	dir := t.TempDir()
	out := filepath.Join(dir, "kth.parquet")
	series := filepath.Join(dir, "kth-ts.csv")
	_, stderr, err := replayCmd(t, nil, "--compat", "pyss", "--policy", "easy", trace, "-o", out, "--timeseries", series)
	if err != nil {
		t.Fatal(err)
	}
	// The oracle's n_jobs for KTH (../shared/oracle/metrics.csv).
	if !strings.Contains(stderr, "replay: easy on 100: 28467 jobs (0 rejected)") {
		t.Errorf("summary: %s", stderr)
	}
	f, _ := os.Open(out)
	defer f.Close()
	r, err := columnar.NewOutcomeReader(f, columnar.FormatParquet, out)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := model.ManifestOf(r.Header())
	if !ok || m.Tool != "replay" || len(m.Inputs) != 1 || len(m.Inputs[0].SHA256) != 64 || !m.HasSeed {
		t.Fatalf("manifest %+v", m)
	}
	if v, _ := m.Param("policy"); v != "easy" {
		t.Errorf("policy param %q", v)
	}
	if r.Header().MaxProcs() != 100 {
		t.Error("the input trace's header is not carried into the outcomes")
	}
	n := 0
	for {
		if _, err := r.Read(); err != nil {
			break
		}
		n++
	}
	if n != 28467 {
		t.Errorf("%d outcomes", n)
	}
	ts, err := os.ReadFile(series)
	if err != nil || !strings.Contains(string(ts), "time_s,in_system,queued,running,suspended,busy_procs") {
		t.Errorf("time series: %v", err)
	}
}

// TestDeterministic: the same input and flags give byte-identical outputs.
func TestDeterministic(t *testing.T) {
	trace := sharedtraces.Trace(t, "NASA-iPSC-1993-3.1-cln")
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		out := filepath.Join(dir, "o.parquet")
		if _, _, err := replayCmd(t, nil, "-p", "conservative", trace, "-o", out, "-q"); err != nil {
			t.Fatal(err)
		}
		files[i], _ = os.ReadFile(out)
	}
	if len(files[0]) == 0 || !bytes.Equal(files[0], files[1]) {
		t.Error("two identical runs wrote different files")
	}
}

// TestPipe feeds an Arrow stream on stdin, as from genwork, and writes the
// outcomes as an Arrow stream on stdout.
func TestPipe(t *testing.T) {
	var in bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}, {Key: model.KeyGangsimTool, Value: "genwork lublin"}}}
	w, _ := columnar.NewTraceWriter(&in, columnar.FormatArrow, &h)
	for i := 0; i < 10; i++ {
		j := model.Job{ID: int64(i + 1), Submit: model.Time(i) * model.Second, Runtime: 5 * model.Second,
			AllocProcs: 1 + i%4, Known: model.AllFields.Without(model.FieldEstimate)}
		w.Write(&j)
	}
	w.Close()
	stdout, _, err := replayCmd(t, &in, "-p", "fcfs", "-q")
	if err != nil {
		t.Fatal(err)
	}
	r, err := columnar.NewOutcomeReader(strings.NewReader(stdout), columnar.FormatArrow, "")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Header().Get("InputGangsimTool"); v != "genwork lublin" {
		t.Errorf("upstream manifest lost: %q", v)
	}
	n := 0
	for {
		o, err := r.Read()
		if err != nil {
			break
		}
		if o.Start < o.Submit || o.End-o.Start != 5*model.Second {
			t.Errorf("outcome %+v", o)
		}
		n++
	}
	if n != 10 {
		t.Errorf("%d outcomes", n)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n2 5 0 x 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	_, _, err := replayCmd(t, nil, bad, "-o", out)
	if err == nil || err.Error() != bad+`:3: field 4 (run time): invalid number "x"` {
		t.Errorf("bad input: %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("a failed run left %s", out)
	}
	for _, args := range [][]string{
		{"--policy", "sjf"},
		{"--machine", "12y3"},
		{"-o", "out.txt"},
		{"-o", "out.swf"},
		{"--sample-period", "soon"},
		{"--tau", "-1s"},
		{"a", "b"},
		{"--no-such-flag"},
	} {
		_, _, err := replayCmd(t, nil, args...)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v is not a usage error", args, err)
		}
	}
	if _, _, err := replayCmd(t, nil, filepath.Join(dir, "missing.swf")); err == nil || errors.Is(err, cli.ErrUsage) {
		t.Errorf("missing file: %v", err)
	}
}

// TestSummaryTau: a workload compressed by 100 (genwork's manifest says
// compress=100) gets tau = 0.1 s in the summary, as analyze uses.
func TestSummaryTau(t *testing.T) {
	var in bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}}}
	(&model.Manifest{Tool: "genwork lublin", Params: []model.Param{{Name: "compress", Value: "100"}}}).Apply(&h)
	w, _ := columnar.NewTraceWriter(&in, columnar.FormatArrow, &h)
	// Two 0.5 s jobs on one processor each of a 1-processor machine: the
	// second waits 0.5 s; with tau 0.1 s its bounded slowdown is 2.
	for i := 0; i < 2; i++ {
		j := model.Job{ID: int64(i + 1), Runtime: 500 * model.Millisecond, AllocProcs: 4, Known: model.AllFields.Without(model.FieldEstimate)}
		w.Write(&j)
	}
	w.Close()
	_, stderr, err := replayCmd(t, bytes.NewReader(in.Bytes()), "-p", "fcfs", "-o", filepath.Join(t.TempDir(), "o.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "mean bounded slowdown (tau 0.1s) 1.500") {
		t.Errorf("summary: %s", stderr)
	}
	_, stderr, _ = replayCmd(t, bytes.NewReader(in.Bytes()), "-p", "fcfs", "--tau", "10s", "-o", filepath.Join(t.TempDir(), "o.csv"))
	if !strings.Contains(stderr, "mean bounded slowdown 1.000") {
		t.Errorf("summary with --tau 10s: %s", stderr)
	}
}

// arrowTrace is an Arrow trace of n one-processor jobs of the given run
// time on a 4-processor machine, as genwork would pipe it.
func arrowTrace(t *testing.T, n int, runtime model.Time) []byte {
	t.Helper()
	var in bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}}}
	w, _ := columnar.NewTraceWriter(&in, columnar.FormatArrow, &h)
	for i := 0; i < n; i++ {
		j := model.Job{ID: int64(i + 1), Submit: model.Time(i) * model.Second, Runtime: runtime,
			AllocProcs: 1, Known: model.AllFields.Without(model.FieldEstimate)}
		w.Write(&j)
	}
	w.Close()
	return in.Bytes()
}

// TestStreamedInputDigest: standard input is hashed while it is parsed;
// the digest reaches every output's manifest (its trailer), equal to that
// of the same bytes given as a file, in every output format.
func TestStreamedInputDigest(t *testing.T) {
	data := arrowTrace(t, 50, 3*model.Second)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	dir := t.TempDir()
	for _, ext := range []string{".parquet", ".arrow", ".csv"} {
		out, series := filepath.Join(dir, "o"+ext), filepath.Join(dir, "ts"+ext)
		if _, _, err := replayCmd(t, bytes.NewReader(data), "-p", "easy", "-q", "-o", out, "--timeseries", series); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{out, series} {
			in, err := fileio.Open(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			var h *model.Header
			if name == out {
				r, err := in.Outcomes()
				if err != nil {
					t.Fatal(err)
				}
				for _, err := r.Read(); err == nil; _, err = r.Read() {
				}
				h = r.Header()
			} else {
				r, _ := in.Samples()
				for _, err := r.Read(); err == nil; _, err = r.Read() {
				}
				h = r.Header()
			}
			m, _ := model.ManifestOf(h)
			if len(m.Inputs) != 1 || m.Inputs[0] != (model.Input{Name: "-", SHA256: digest}) {
				t.Errorf("%s: inputs %+v, want the digest of standard input %s", name, m.Inputs, digest)
			}
			in.Close()
		}
	}
}

// TestNoSilentShrinking: jobs dropped by cleaning are counted by reason on
// one stderr line even under -q, and in the manifest: pyss's whole seconds
// drop every job of a workload whose run times are under a second.
func TestNoSilentShrinking(t *testing.T) {
	data := arrowTrace(t, 20, 400*model.Millisecond)
	out := filepath.Join(t.TempDir(), "o.csv")
	_, stderr, err := replayCmd(t, bytes.NewReader(data), "--compat", "pyss", "-p", "fcfs", "-q", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "replay: cleaning pyss dropped 20 of 20 jobs: no-runtime 20 (pyss truncates run times to whole seconds"; !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr under -q:\n%s\nwant one line starting %s", stderr, want)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "# "+swf.KeyDropped+": no-runtime 20\n") {
		t.Errorf("the manifest does not record the drops:\n%s", b)
	}
}

// TestOddLog replays a log with values outside SWF 2.2 in every field
// replay does not use: every job is kept and replayed, the values counted
// by field on stderr and in the manifest; --strict refuses the log.
func TestOddLog(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	// Fields 1, 3, 6, 7, 10-18 odd: a repeated job number, bad times and
	// memory, status 9, negative IDs, a fractional queue, a word.
	odd := []string{
		"1 0 x 10 4 y -5 4 20 -7 9 -3 2.5 abc 7.5 -2 -9 z",
		"1 5 -1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1",
		"3 9 1 10 4 1e999 99999999999999999999 4 20 1 300 1 1 1 1 1 1 1",
	}
	for _, l := range odd {
		b.WriteString(l + "\n")
	}
	log := filepath.Join(t.TempDir(), "odd.swf")
	os.WriteFile(log, []byte(b.String()), 0o644)
	out := filepath.Join(t.TempDir(), "o.csv")
	_, stderr, err := replayCmd(t, nil, "-p", "fcfs", log, "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "easy") && !strings.Contains(stderr, "fcfs on 8: 3 jobs (0 rejected)") {
		t.Errorf("not every job replayed:\n%s", stderr)
	}
	for _, want := range []string{"in field 3 (wait time)", "in field 11 (status)", "in field 17 (preceding job number)", "1 repeated job number"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not count %q:\n%s", want, stderr)
		}
	}
	data, _ := os.ReadFile(out)
	if n := strings.Count(string(data), "# "+swf.KeyAnomaly+": "); n < 10 {
		t.Errorf("%d anomaly lines in the manifest:\n%s", n, data)
	}
	if _, _, err := replayCmd(t, nil, "-p", "fcfs", "--strict", log, "-o", out); err == nil || !strings.Contains(err.Error(), "odd.swf:2: field 3 (wait time): invalid number") {
		t.Errorf("--strict: %v", err)
	}
}

// TestUsageErrors: conflicting or meaningless flags and impossible values
// are usage errors (exit 2) with their reason.
func TestUsageErrors(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.arrow")
	os.WriteFile(trace, arrowTrace(t, 3, model.Second), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "parquet", "-o", "x.csv"}, "--format parquet contradicts the name x.csv"},
		{[]string{"--compat", "pyss", "--order", "pyss"}, "--order has no effect under --compat pyss"},
		{[]string{"--compat", "pyss", "--passes", "per-event"}, "--passes has no effect under --compat pyss"},
		{[]string{"--node-alloc"}, "--node-alloc needs --machine"},
		{[]string{"--compat", "slurm"}, `--compat "slurm": want pyss`},
		{[]string{"--clean", "all"}, `--clean "all": want default, pyss or none`},
		{[]string{"--procs", "-4"}, "--procs -4 is negative"},
		{[]string{"--procs", "99999999999"}, "--procs 99999999999: more than 2147483647 processors"},
		{[]string{"--machine", "100000x100000"}, "more than 2147483647 processors"},
		{[]string{"--machine", "4x2", "--procs", "8"}, "--machine and --procs both give the machine size"},
		{[]string{"--tau", "500ns"}, "not a whole number of microseconds"},
		{[]string{"--sample-period", "0", "--timeseries", "ts.csv"}, "want a positive duration"},
		{[]string{"--sample-period", "60s"}, "--sample-period samples the time series: it needs --timeseries FILE"},
		{[]string{"--strict", "--lenient"}, "--strict and --lenient contradict each other"},
		{[]string{"--timeseries", "ts.swf"}, "a time series cannot be written as SWF"},
	} {
		_, _, err := replayCmd(t, nil, append(tt.args, trace)...)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want a usage error saying %q", tt.args, err, tt.want)
		}
	}
	// A header machine beyond 32 bits is an input error, not a panic.
	huge := filepath.Join(t.TempDir(), "huge.csv")
	os.WriteFile(huge, []byte("# MaxProcs: 99999999999\njob_id,submit_s,runtime_s,req_procs\n1,0,1,1\n"), 0o644)
	if _, _, err := replayCmd(t, nil, huge, "-o", filepath.Join(t.TempDir(), "o.csv")); err == nil || errors.Is(err, cli.ErrUsage) ||
		!strings.Contains(err.Error(), `huge.csv: machine size unknown: value out of range "99999999999" in header MaxProcs`) {
		t.Errorf("huge header machine: %v", err)
	}
}

// TestHeaderErrors: an integer in a trace's header that is not usable
// (unknown: N/A, a word, a negative count; garbled: 1e30, 12.7, 64abc) is
// read as absent, in every format: never a 1-processor machine from
// "1e30". Where the replay needs it (the machine size, without --procs) it
// is an error naming the key and value; --lenient then simulates the
// widest job's processors, saying so; with --procs it is counted on
// stderr; --strict refuses it with the file and line (SWF, CSV) or
// metadata key (Parquet, Arrow). A corrupt gzip header says so.
func TestHeaderErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.csv")
	job := "1 0 -1 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n"
	for _, v := range []struct{ key, value, err string }{
		{"MaxProcs", "1e30", `invalid number "1e30" in header MaxProcs (want an integer)`},
		{"MaxProcs", "12.7", `invalid number "12.7" in header MaxProcs (want an integer)`},
		{"MaxProcs", "64abc", `invalid number "64abc" in header MaxProcs (want an integer)`},
		{"MaxProcs", "-5", `unknown value "-5" in header MaxProcs (want 0 or more)`},
		{"MaxProcs", "N/A", `unknown value "N/A" in header MaxProcs (want an integer)`},
		{"UnixStartTime", "soon", `unknown value "soon" in header UnixStartTime (want an integer)`},
	} {
		h := model.Header{Lines: []model.HeaderLine{{Key: "Version", Value: "2.2"}, {Key: v.key, Value: v.value}}}
		files := map[string]string{
			"t.swf": "; Version: 2.2\n; " + v.key + ": " + v.value + "\n" + job,
			"t.csv": "# Version: 2.2\n# " + v.key + ": " + v.value + "\njob_id,submit_s,runtime_s,alloc_procs\n1,0,100,4\n",
		}
		for name, text := range files {
			os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
		}
		for _, f := range []columnar.Format{columnar.FormatParquet, columnar.FormatArrow} {
			var buf bytes.Buffer
			w, err := columnar.NewTraceWriter(&buf, f, &h)
			if err != nil {
				t.Fatal(err)
			}
			j := model.Job{ID: 1, Runtime: 100 * model.Second, AllocProcs: 4, Known: model.FieldSet(0).With(model.FieldJobID).
				With(model.FieldSubmit).With(model.FieldRuntime).With(model.FieldAllocProcs)}
			if err := errors.Join(w.Write(&j), w.Close()); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, "t."+f.String()), buf.Bytes(), 0o644)
		}
		for _, name := range []string{"t.swf", "t.csv", "t.parquet", "t.arrow"} {
			in := filepath.Join(dir, name)
			where := in + ":2: "
			if name == "t.parquet" || name == "t.arrow" {
				where = in + ": metadata gangsim.header: "
			}
			// Needed: the machine size.
			why := v.err
			if v.key != "MaxProcs" {
				why = "the trace header has no MaxProcs"
			}
			_, _, err := replayCmd(t, nil, in, "-o", out)
			if err == nil || err.Error() != in+": machine size unknown: "+why+"; give one (--procs or --machine), or read the trace leniently (--lenient) to simulate the widest job's processors" {
				t.Errorf("%s %s %s: %v", name, v.key, v.value, err)
			}
			// Not needed: counted.
			if _, stderr, err := replayCmd(t, nil, "--procs", "8", in, "-o", out); err != nil || !strings.Contains(stderr, "header values read as unknown: "+v.key) {
				t.Errorf("%s %s %s --procs 8: %v\n%s", name, v.key, v.value, err, stderr)
			} else if b, _ := os.ReadFile(out); !strings.Contains(string(b), "# GangsimAnomaly: 1 header "+v.key+": header value not usable ("+v.err+")\n") {
				t.Errorf("%s %s %s: the manifest does not record it:\n%s", name, v.key, v.value, b)
			}
			// --lenient: the widest job's 4 processors.
			if v.key == "MaxProcs" {
				_, stderr, err := replayCmd(t, nil, "--lenient", in, "-o", out)
				b, _ := os.ReadFile(out)
				if err != nil || !strings.Contains(stderr, "--lenient simulates 4 processors, the widest job's") ||
					!strings.Contains(string(b), "# GangsimParam: machine=4\n") || !strings.Contains(string(b), "# GangsimParam: machine_fallback=4 processors, the widest job's\n") {
					t.Errorf("%s %s %s --lenient: %v\n%s\n%s", name, v.key, v.value, err, stderr, b)
				}
			}
			// --strict: refused, where it is.
			for _, procs := range [][]string{nil, {"--procs", "8"}} {
				_, _, err := replayCmd(t, nil, append(append(procs, "--strict"), in, "-o", out)...)
				if err == nil || err.Error() != where+v.err {
					t.Errorf("%s %s %s --strict %v: %v\nwant %s", name, v.key, v.value, procs, err, where+v.err)
				}
			}
			// Standard input says where too.
			data, _ := os.ReadFile(in)
			if _, _, err := replayCmd(t, bytes.NewReader(data), "--strict", "-o", out); err == nil || !strings.Contains(err.Error(), v.err) {
				t.Errorf("%s on stdin %s %s: %v", name, v.key, v.value, err)
			}
		}
	}
	os.Remove(out)
	gz := filepath.Join(dir, "t.swf.gz")
	os.WriteFile(gz, []byte("\x1f\x8bnot gzip at all"), 0o644)
	if _, _, err := replayCmd(t, nil, gz, "-o", out); err == nil || !strings.Contains(err.Error(), "gzip: invalid header") {
		t.Errorf("corrupt gzip: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s", out)
	}
}

// TestOutputsToDevices: -o and --timeseries to /dev/null write through
// (never replacing it), and standard output that is /dev/null is no
// terminal; /dev/full fails with exit 1 for every output: outcomes,
// time series, standard output.
func TestOutputsToDevices(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "t.arrow")
	os.WriteFile(trace, arrowTrace(t, 30, model.Second), 0o644)
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer devNull.Close()
	if code := cli.Run("replay", run, []string{"-q", "-p", "fcfs", trace}, nil, devNull, io.Discard); code != 0 {
		t.Errorf("replay > /dev/null: exit %d", code)
	}
	if _, _, err := replayCmd(t, nil, "-q", trace, "-o", os.DevNull, "--timeseries", os.DevNull); err != nil {
		t.Errorf("-o /dev/null: %v", err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null replaced: %v", st.Mode())
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		return
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"-q", trace, "-o", "/dev/full"},
		{"-q", trace, "-o", filepath.Join(t.TempDir(), "o.csv"), "--timeseries", "/dev/full"},
		{"-q", trace, "--format", "csv"},
		{"--list-policies"},
		{"--help"},
		{"sweep", "--print-runs", filepath.Join("..", "..", "experiments", "frachtenberg", "fig-6.11.json")},
		{"hw", "list"},
		{"hw", "--help"},
		{"hw", "--version"},
		{"sweep", "--version"},
	} {
		var stderr bytes.Buffer
		if code := cli.Run("replay", run, args, nil, full, &stderr); code != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v to /dev/full: exit %d, %q", args, code, stderr.String())
		}
	}
}

// TestItemsToDevices: a reproduced item whose file is a link to a device
// is written through (a link to /dev/null: nothing replaced), and one that
// cannot be written (/dev/full) fails with exit 1.
func TestItemsToDevices(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	for _, dev := range []string{os.DevNull, "/dev/full"} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "hori98"), 0o755)
		item := filepath.Join(dir, "hori98", "fig-6.csv")
		os.Symlink(dev, item)
		var stderr bytes.Buffer
		code := cli.Run("replay", run, []string{"hw", "items", "-o", dir, "--only", "hori98/fig-6", "-q"}, nil, io.Discard, &stderr)
		if want := map[string]int{os.DevNull: 0, "/dev/full": 1}[dev]; code != want {
			t.Errorf("item linked to %s: exit %d, want %d: %s", dev, code, want, stderr.String())
		}
		if st, err := os.Lstat(item); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("item linked to %s: the link was replaced", dev)
		}
	}
}

// TestUpstreamTrailer: an input's trailer (here genwork clean's drops)
// reaches the outcomes as upstream manifest lines, as its header does.
func TestUpstreamTrailer(t *testing.T) {
	var in bytes.Buffer
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}}}
	(&model.Manifest{Tool: "genwork clean"}).Apply(&h)
	w, _ := columnar.NewTraceWriter(&in, columnar.FormatArrow, &h)
	j := model.Job{ID: 1, Runtime: model.Second, AllocProcs: 1, Known: model.AllFields.Without(model.FieldEstimate)}
	w.Write(&j)
	w.AppendHeader(model.HeaderLine{Key: swf.KeyDropped, Value: "no-runtime 7"}, model.HeaderLine{Value: "a note"})
	w.Close()
	out := filepath.Join(t.TempDir(), "o.csv")
	if _, _, err := replayCmd(t, &in, "-q", "-o", out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "# InputGangsimTool: genwork clean\n") || !strings.Contains(string(b), "# Input"+swf.KeyDropped+": no-runtime 7\n") ||
		!strings.Contains(string(b), "# a note\n") {
		t.Errorf("outcomes:\n%s", b)
	}
}

// TestSweepSaysDrops: a sweep whose runs lose jobs to cleaning says so on
// stderr even under -q, and the item's CSV records it.
func TestSweepSaysDrops(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 20; i++ {
		run := 10
		if i%4 == 0 {
			run = -1 // never ran
		}
		b.WriteString(strings.Join([]string{itoa(i), itoa(10 * i), "-1", itoa(run), "2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n"}, " "))
	}
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte(b.String()), 0o644)
	exp := filepath.Join(dir, "e.json")
	os.WriteFile(exp, []byte(`{"item": "my-study/drops", "title": "t",
  "run": {"workload": {"source": {"trace": {"path": "`+trace+`"}}}, "replay": {"policy": "fcfs"}},
  "analysis": {"kind": "metrics", "metrics": ["wait_s_mean"]}}`), 0o644)
	results := filepath.Join(dir, "results")
	_, stderr, err := replayCmd(t, nil, "sweep", "-q", "--cache", filepath.Join(dir, "cache"), "-o", results, exp)
	if err != nil {
		t.Fatal(err)
	}
	const want = "replay sweep: my-study/drops: the run: replay cleaning default dropped 5 of 20 jobs: no-runtime 5\n"
	if stderr != want {
		t.Errorf("stderr under -q:\n%s\nwant\n%s", stderr, want)
	}
	csv, _ := os.ReadFile(filepath.Join(results, "my-study", "drops.csv"))
	if !strings.Contains(string(csv), "# dropped: the run: replay cleaning default dropped 5 of 20 jobs: no-runtime 5\n") {
		t.Errorf("the item does not record the drops:\n%s", csv)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestOddTableEveryFormat: a CSV, Parquet or Arrow trace follows the SWF
// rules on values, as an SWF log does: a status of 9, a negative user, a
// negative wait time and a repeated job number keep their jobs and are
// counted by field on stderr and in the manifest; a word in an unused
// CSV column is counted, not fatal; --strict refuses each with its line
// (CSV) or row (Parquet, Arrow); a bad estimate stops only a policy that
// reads estimates.
func TestOddTableEveryFormat(t *testing.T) {
	dir := t.TempDir()
	csvText := "# MaxProcs: 8\njob_id,submit_s,wait_s,runtime_s,alloc_procs,estimate_s,status,user_id\n" +
		"1,0,1,10,4,20,1,1\n" +
		"2,5,-7,10,4,20,9,-5\n" +
		"2,9,1,10,4,20,hello,1\n"
	files := map[string]string{"t.csv": csvText}
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "8"}}}
	known := model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldWait).With(model.FieldRuntime).
		With(model.FieldAllocProcs).With(model.FieldEstimate).With(model.FieldStatus).With(model.FieldUser)
	jobs := []model.Job{
		{ID: 1, Submit: 0, Wait: model.Second, Runtime: 10 * model.Second, AllocProcs: 4, Estimate: 20 * model.Second, Status: 1, User: 1, Known: known},
		{ID: 2, Submit: 5 * model.Second, Wait: -7 * model.Second, Runtime: 10 * model.Second, AllocProcs: 4, Estimate: 20 * model.Second, Status: 9, User: -5, Known: known},
		{ID: 2, Submit: 9 * model.Second, Wait: model.Second, Runtime: 10 * model.Second, AllocProcs: 4, Estimate: 20 * model.Second, Status: 1, User: 1, Known: known},
	}
	for _, f := range []columnar.Format{columnar.FormatParquet, columnar.FormatArrow} {
		var buf bytes.Buffer
		w, _ := columnar.NewTraceWriter(&buf, f, &h)
		if err := errors.Join(model.WriteAll(w, jobs), w.Close()); err != nil {
			t.Fatal(err)
		}
		files["t."+f.String()] = buf.String()
	}
	for name, text := range files {
		in := filepath.Join(dir, name)
		os.WriteFile(in, []byte(text), 0o644)
		out := filepath.Join(dir, "o.csv")
		_, stderr, err := replayCmd(t, nil, "-p", "fcfs", in, "-o", out)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		wantCounts := "jobs kept with values outside SWF 2.2: 1 in field 3 (wait time), 1 in field 11 (status), 1 in field 12 (user ID), 1 repeated job number"
		if name == "t.csv" {
			wantCounts = "jobs kept with values outside SWF 2.2: 1 in field 3 (wait time), 2 in field 11 (status), 1 in field 12 (user ID), 1 repeated job number"
		}
		if !strings.Contains(stderr, wantCounts) || !strings.Contains(stderr, "fcfs on 8: 3 jobs (0 rejected)") {
			t.Errorf("%s: stderr\n%s\nwant %q and every job replayed", name, stderr, wantCounts)
		}
		data, _ := os.ReadFile(out)
		if n := strings.Count(string(data), "# "+swf.KeyAnomaly+": "); n < 4 {
			t.Errorf("%s: %d anomaly lines in the manifest:\n%s", name, n, data)
		}
		_, _, err = replayCmd(t, nil, "-p", "fcfs", "--strict", in, "-o", out)
		want := in + `: row 2: field 3 (wait time): value out of range "-7" (want 0 or more, or -1 for missing)`
		if name == "t.csv" {
			want = in + `:4: field 3 (wait time): value out of range "-7" (want 0 or more, or -1 for missing)`
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s --strict: %v\nwant %s", name, err, want)
		}
	}
	// A bad estimate: refused under EASY, which plans with it; counted
	// under FCFS, which never reads it.
	bad := filepath.Join(dir, "est.csv")
	os.WriteFile(bad, []byte("# MaxProcs: 8\njob_id,submit_s,runtime_s,alloc_procs,req_procs,estimate_s\n1,0,10,4,x,soon\n"), 0o644)
	if _, _, err := replayCmd(t, nil, "-p", "easy", bad, "-o", filepath.Join(dir, "o.csv")); err == nil ||
		err.Error() != bad+`:3: field 9 (requested time): invalid number "soon"` {
		t.Errorf("bad estimate under easy: %v", err)
	}
	_, stderr, err := replayCmd(t, nil, "-p", "fcfs", bad, "-o", filepath.Join(dir, "o.csv"))
	if err != nil || !strings.Contains(stderr, "1 in field 8 (requested processors), 1 in field 9 (requested time)") {
		t.Errorf("bad estimate and requested processors under fcfs: %v\n%s", err, stderr)
	}
}

// TestUnsortedWhere: a job submitted before the one before it is an error
// naming the file and its line (SWF, CSV) or row (Parquet, Arrow), under
// the default cleaning (which refuses it) and without cleaning or under
// --compat pyss (where the engine does), on a file or standard input; the
// engine's hint names a flag that exists.
func TestUnsortedWhere(t *testing.T) {
	dir := t.TempDir()
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "8"}}}
	known := model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).With(model.FieldAllocProcs)
	jobs := []model.Job{
		{ID: 1, Submit: 10 * model.Second, Runtime: 100 * model.Second, AllocProcs: 4, Known: known},
		{ID: 2, Submit: 0, Runtime: 100 * model.Second, AllocProcs: 4, Known: known},
	}
	files := map[string]string{
		"t.swf": "; MaxProcs: 8\n1 10 -1 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n",
		"t.csv": "# MaxProcs: 8\njob_id,submit_s,runtime_s,alloc_procs\n1,10,100,4\n2,0,100,4\n",
	}
	for _, f := range []columnar.Format{columnar.FormatParquet, columnar.FormatArrow} {
		var buf bytes.Buffer
		w, _ := columnar.NewTraceWriter(&buf, f, &h)
		if err := errors.Join(model.WriteAll(w, jobs), w.Close()); err != nil {
			t.Fatal(err)
		}
		files["t."+f.String()] = buf.String()
	}
	for name, text := range files {
		in := filepath.Join(dir, name)
		os.WriteFile(in, []byte(text), 0o644)
		where := in + ":3: "
		switch name {
		case "t.csv":
			where = in + ":4: " // after the comment and the column names
		case "t.parquet", "t.arrow":
			where = in + ": row 2: "
		}
		for _, args := range [][]string{nil, {"--clean", "none"}, {"--compat", "pyss"}} {
			_, _, err := replayCmd(t, nil, append(args, in, "-o", filepath.Join(dir, "o.csv"))...)
			if err == nil || !strings.HasPrefix(err.Error(), where+"job 2 submitted at 0s, before ") {
				t.Errorf("%s %v: %v\nwant it to start %s", name, args, err, where)
			}
			if len(args) > 0 && (err == nil || !strings.Contains(err.Error(), "genwork clean --order sort")) {
				t.Errorf("%s %v: %v: no working hint", name, args, err)
			}
		}
	}
	_, _, err := replayCmd(t, strings.NewReader(files["t.csv"]), "--clean", "none", "-o", filepath.Join(dir, "o.csv"))
	if err == nil || !strings.HasPrefix(err.Error(), "<stdin>:4: job 2") {
		t.Errorf("stdin: %v", err)
	}
}

// TestSlurmPollDuration: --slurm-poll reads the one duration syntax, says
// it in its help, and refuses what it refuses (no Slurm needed: the flags
// are checked before anything is submitted).
func TestSlurmPollDuration(t *testing.T) {
	for _, v := range []string{"500ns", "0", "soon", "-2s"} {
		if _, _, err := replayCmd(t, nil, "sweep", "--slurm", "--dry-run", "--slurm-poll", v, "x.json"); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("--slurm-poll %s: %v is not a usage error", v, err)
		}
	}
	stdout, _, _ := replayCmd(t, nil, "sweep", "--help")
	if i := strings.Index(stdout, "--slurm-poll"); i < 0 || !strings.Contains(stdout[i:], model.DurationSyntax) {
		t.Errorf("--slurm-poll's help does not state the duration syntax:\n%s", stdout)
	}
}

// TestMachineBounds: every policy takes every machine it can hold and
// refuses a larger one with a usage error before allocating anything (no
// out-of-memory death); a header's machine too large for the policy is an
// error naming the bound.
func TestMachineBounds(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 8\n1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	out := filepath.Join(dir, "o.csv")
	for _, p := range policies.Names() {
		spec, _ := policies.ParseSpec(p)
		max := policies.MaxProcs(spec)
		for _, args := range [][]string{{"--procs", strconv.Itoa(max + 1)}, {"--machine", strconv.Itoa(max+1) + "x1"}, {"--procs", "2147483647"}} {
			if max == model.MaxProcs && args[1] == "2147483647" {
				continue // a batch policy takes it (below)
			}
			_, _, err := replayCmd(t, nil, append([]string{"-p", p, "-q"}, append(args, trace, "-o", out)...)...)
			if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "processors") {
				t.Errorf("%s %v: %v, want a usage error", p, args, err)
			}
		}
	}
	// The batch policies keep no state per processor: the largest machine
	// is fine.
	for _, p := range []string{"fcfs", "easy", "conservative"} {
		if _, _, err := replayCmd(t, nil, "-p", p, "-q", "--procs", "2147483647", trace, "-o", out); err != nil {
			t.Errorf("%s on 2147483647 processors: %v", p, err)
		}
	}
	huge := filepath.Join(dir, "huge.swf")
	os.WriteFile(huge, []byte("; MaxProcs: 2147483647\n1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	if _, _, err := replayCmd(t, nil, "-p", "fcs", huge, "-o", out); err == nil || !strings.Contains(err.Error(), "fcs simulates at most 1048576") {
		t.Errorf("fcs on a header's 2147483647 processors: %v", err)
	}
}

// TestSameOutputs: two outputs on one file lose one: -o and --timeseries
// naming the same file, by the same name, through a link, a relative and
// an absolute path, or /dev/stdout and -, are a usage error; /dev/null
// takes both.
func TestSameOutputs(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.arrow")
	os.WriteFile(trace, arrowTrace(t, 3, model.Second), 0o644)
	same := filepath.Join(dir, "same.csv")
	link := filepath.Join(dir, "link.csv")
	os.Symlink("same.csv", link)
	t.Chdir(dir)
	for _, pair := range [][2]string{{same, same}, {same, link}, {"same.csv", same}, {"-", "/dev/stdout"}, {"/dev/stdout", "/dev/fd/1"}} {
		_, _, err := replayCmd(t, nil, trace, "-o", pair[0], "--timeseries", pair[1], "--format", "csv")
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "same file") {
			t.Errorf("-o %s --timeseries %s: %v, want a usage error", pair[0], pair[1], err)
		}
		if _, err := os.Stat(same); !os.IsNotExist(err) {
			t.Errorf("-o %s --timeseries %s: wrote %s", pair[0], pair[1], same)
		}
	}
	if _, _, err := replayCmd(t, nil, trace, "-o", os.DevNull, "--timeseries", os.DevNull, "--format", "csv"); err != nil {
		t.Errorf("both to /dev/null: %v", err)
	}
	if _, _, err := replayCmd(t, nil, trace, "-o", "a.csv", "--timeseries", "b.csv"); err != nil {
		t.Errorf("two files: %v", err)
	}
}

// TestEmptyInput: an input with no header and no job (an empty file or
// pipe, blank lines, a CSV of column names) is an error naming it, not a
// replay of 0 jobs with exit 0, with or without --procs; a header alone is
// a workload of no jobs.
func TestEmptyInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.csv")
	for name, text := range map[string]string{"e.swf": "", "blank.swf": "\n \n\t\n", "cols.csv": "job_id,submit_s,runtime_s,alloc_procs\n"} {
		in := filepath.Join(dir, name)
		os.WriteFile(in, []byte(text), 0o644)
		for _, procs := range [][]string{nil, {"--procs", "4"}} {
			if _, _, err := replayCmd(t, nil, append(procs, in, "-o", out)...); err == nil || err.Error() != in+": empty input: no header and no job lines" {
				t.Errorf("%s %v: %v", name, procs, err)
			}
			if _, _, err := replayCmd(t, strings.NewReader(text), append(procs, "-o", out)...); err == nil || err.Error() != "<stdin>: empty input: no header and no job lines" {
				t.Errorf("%s on stdin %v: %v", name, procs, err)
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: wrote %s", name, out)
		}
	}
	if _, stderr, err := replayCmd(t, strings.NewReader("; MaxProcs: 4\n"), "-o", out); err != nil || !strings.Contains(stderr, "0 jobs") {
		t.Errorf("a header alone: %v\n%s", err, stderr)
	}
}

// TestCSVByteOrderMark: a CSV saved with a UTF-8 byte order mark (as
// spreadsheets save it) reads as without, with or without "#" lines.
func TestCSVByteOrderMark(t *testing.T) {
	for _, text := range []string{
		"\xef\xbb\xbfjob_id,submit_s,runtime_s,alloc_procs\n1,0,10,2\n",
		"\xef\xbb\xbf# MaxProcs: 4\njob_id,submit_s,runtime_s,alloc_procs\n1,0,10,2\n",
	} {
		in := filepath.Join(t.TempDir(), "bom.csv")
		os.WriteFile(in, []byte(text), 0o644)
		for _, stdin := range []io.Reader{nil, strings.NewReader(text)} {
			args := []string{"--procs", "4", "-o", filepath.Join(t.TempDir(), "o.csv")}
			if stdin == nil {
				args = append(args, in)
			}
			if _, stderr, err := replayCmd(t, stdin, args...); err != nil || !strings.Contains(stderr, "1 jobs (0 rejected)") {
				t.Errorf("%q: %v\n%s", text, err, stderr)
			}
		}
	}
}
