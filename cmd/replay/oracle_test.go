package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// oracleStarts reads the pyss oracle's start times (integer seconds) by
// job number from <log>.<policy>.jobs.csv.gz; ok is false when the oracle
// has no such file.
func oracleStarts(t *testing.T, log, policy string) (map[int64]int64, bool) {
	t.Helper()
	dir, ok := sharedtraces.SharedDir()
	if !ok {
		return nil, false
	}
	path := filepath.Join(dir, "oracle", log+"."+policy+".jobs.csv.gz")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, false
	}
	starts := map[int64]int64{}
	for _, j := range sharedtraces.OracleJobs(t, path) {
		starts[j.ID] = j.Start
	}
	return starts, true
}

// replayAgainstOracle replays trace (a file, or standard input when in is
// not nil) with --compat pyss under policy and extra flags, and compares
// every job's start time with the oracle's, when it has the log.
func replayAgainstOracle(t *testing.T, what, log, policy string, trace string, in io.Reader, extra ...string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "o.arrow")
	args := append([]string{"--compat", "pyss", "--policy", policy, "-q", "-o", out}, extra...)
	if trace != "" {
		args = append(args, trace)
	}
	if _, stderr, err := replayCmd(t, in, args...); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, stderr)
	}
	starts, ok := oracleStarts(t, log, policy)
	if !ok {
		return // replayed: the oracle does not have this log
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := columnar.NewOutcomeReader(f, columnar.FormatArrow, out)
	if err != nil {
		t.Fatal(err)
	}
	n, bad := 0, 0
	for {
		o, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if want, ok := starts[o.JobID]; !ok || o.Start != model.FromSeconds(want) {
			if bad++; bad <= 3 {
				t.Errorf("%s: job %d starts at %v, pyss %d s (in the oracle: %v)", what, o.JobID, o.Start, want, ok)
			}
		}
	}
	if n != len(starts) || bad > 0 {
		t.Errorf("%s: %d jobs replayed, the oracle has %d; %d start times differ", what, n, len(starts), bad)
	}
}

// TestSharedLogsAgainstOracle replays every log in the shared traces
// directory (whatever it holds, not a fixed list) under FCFS and EASY
// through the command, as read from its file, and, where the pyss oracle
// has the log, requires every job's start time to be pyss's.
func TestSharedLogsAgainstOracle(t *testing.T) {
	dir := sharedtraces.Require(t)
	logs, err := filepath.Glob(filepath.Join(dir, "traces", "*.swf.gz"))
	if err != nil || len(logs) == 0 {
		sharedtraces.Missing(t, "no logs under "+filepath.Join(dir, "traces"))
	}
	for _, path := range logs {
		log := strings.TrimSuffix(filepath.Base(path), ".swf.gz")
		for _, policy := range []string{"fcfs", "easy"} {
			t.Run(log+"/"+policy, func(t *testing.T) {
				if testing.Short() && !strings.HasPrefix(log, "NASA") && !strings.HasPrefix(log, "KTH") {
					t.Skip("the small logs only in -short mode")
				}
				replayAgainstOracle(t, log+" "+policy, log, policy, path, nil)
			})
		}
	}
}

// swfHeaderValues are what a site writes for a field it did not record,
// and what a careless converter leaves: the archive's N/A, nothing, a
// negative number, a word.
var swfHeaderValues = []string{"N/A", "", "-7", "not recorded"}

// TestGeneratedHeaders replays the NASA iPSC log with headers in which
// each SWF 2.2 header field in turn holds N/A, nothing, a negative number
// or a word (the log's own line replaced, or a new one added), under FCFS
// and EASY, and requires pyss's start times job for job: no such header
// value stops a replay or changes it. MaxProcs and MaxNodes, which give
// the machine, are replayed with --procs, and with --lenient (the widest
// job's 128 processors, which is the log's MaxProcs). The integer fields
// are also replayed as CSV, Parquet and Arrow tables carrying the header.
func TestGeneratedHeaders(t *testing.T) {
	const log = "NASA-iPSC-1993-3.1-cln"
	path := sharedtraces.Trace(t, log)
	if _, ok := oracleStarts(t, log, "easy"); !ok {
		sharedtraces.Oracle(t, log+".easy.jobs.csv.gz")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	rest := whole
	for len(rest) > 0 && rest[0] == ';' {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		header = append(header, string(line))
		rest = after
	}
	jobs := rest
	withField := func(key, value string) []byte {
		var b bytes.Buffer
		found := false
		for _, l := range header {
			if k, _, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(l, ";"), " "), ":"); ok && k == key {
				if !found {
					b.WriteString("; " + key + ": " + value + "\n")
				}
				found = true
				continue
			}
			b.WriteString(l + "\n")
		}
		if !found {
			b.WriteString("; " + key + ": " + value + "\n")
		}
		b.Write(jobs)
		return b.Bytes()
	}
	policies := []string{"fcfs", "easy"}
	if testing.Short() {
		policies = policies[1:]
	}
	for _, key := range model.SWFHeaderKeys {
		for _, value := range swfHeaderValues {
			trace := withField(key, value)
			for _, policy := range policies {
				what := key + "=" + strconv.Quote(value) + " " + policy
				machine := key == model.KeyMaxProcs || key == model.KeyMaxNodes
				if !machine {
					replayAgainstOracle(t, what, log, policy, "", bytes.NewReader(trace))
					continue
				}
				replayAgainstOracle(t, what+" --procs 128", log, policy, "", bytes.NewReader(trace), "--procs", "128")
				if key == model.KeyMaxProcs {
					replayAgainstOracle(t, what+" --lenient", log, policy, "", bytes.NewReader(trace), "--lenient")
				}
			}
		}
		if !model.IsIntKey(key) || testing.Short() {
			continue
		}
		// The same header in each table format.
		r := swf.NewReader(bytes.NewReader(withField(key, "N/A")))
		tr, err := model.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []columnar.Format{columnar.FormatCSV, columnar.FormatParquet, columnar.FormatArrow} {
			file := filepath.Join(t.TempDir(), "t."+format.String())
			out, err := os.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			w, err := columnar.NewTraceWriter(out, format, &tr.Header)
			if err != nil {
				t.Fatal(err)
			}
			if err := model.WriteAll(w, tr.Jobs); err != nil {
				t.Fatal(err)
			}
			out.Close()
			extra := []string{}
			if key == model.KeyMaxProcs || key == model.KeyMaxNodes {
				extra = []string{"--procs", "128"}
			}
			replayAgainstOracle(t, key+"=N/A as "+format.String(), log, "easy", file, nil, extra...)
		}
	}
}
