package sharedtraces

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// OracleJob is one job of the pyss oracle's outputs, a row of
// <log>.<policy>.jobs.csv.gz, in integer seconds.
type OracleJob struct {
	ID, Submit, Start, End, Procs, Wait, Run, Estimate int64
}

// oracleColumns are the columns of a jobs file, in order.
const oracleColumns = "job_id,submit,start,end,procs,wait,run,estimate"

// OracleJobs reads the oracle's jobs file at path (Oracle finds it), in
// the file's order, failing the test on a malformed file.
func OracleJobs(tb testing.TB, path string) []OracleJob {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	r := csv.NewReader(gz)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil || strings.Join(head, ",") != oracleColumns {
		tb.Fatalf("%s: columns %q, %v; want %s", path, head, err, oracleColumns)
	}
	var jobs []OracleJob
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return jobs
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		var v [8]int64
		for i := range v {
			if v[i], err = strconv.ParseInt(rec[i], 10, 64); err != nil {
				tb.Fatalf("%s: %v", path, err)
			}
		}
		jobs = append(jobs, OracleJob{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]})
	}
}

// OracleMetrics returns the oracle's aggregate metrics of log under
// policy, metrics.csv's rows for them, as written (a number, or text such
// as a peer's name), by metric; the test is skipped (failed under
// RequireEnv) without metrics.csv.
func OracleMetrics(tb testing.TB, log, policy string) map[string]string {
	tb.Helper()
	path := Oracle(tb, "metrics.csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	m := map[string]string{}
	for _, r := range recs[1:] {
		if len(r) == 4 && r[0] == log && r[1] == policy {
			m[r[2]] = r[3]
		}
	}
	return m
}
