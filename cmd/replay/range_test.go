package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// outcomesOf reads the outcomes a replay wrote as CSV on standard output.
func outcomesOf(t *testing.T, stdout string) []model.Outcome {
	t.Helper()
	r, err := columnar.NewOutcomeReader(strings.NewReader(stdout), columnar.FormatCSV, "outcomes.csv")
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Outcome
	for {
		o, err := r.Read()
		if err != nil {
			return out
		}
		out = append(out, o)
	}
}

// TestSubmitBeyondRange: a submit time beyond model.MaxSeconds (here
// 9223372036853 s, whose sum with a 10 s run time overflowed) is an error
// naming the line and field under every policy, and a counted drop under
// --lenient. The parser used to accept it: conservative then panicked
// (index out of range in its profile), the process-level policies panicked
// (an event pushed into the past), and fcfs, easy, gs and dcs reported the
// job completed with a run time of 0.
func TestSubmitBeyondRange(t *testing.T) {
	const bad = "1 9223372036853 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	const good = "2 9223372036 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	const want = `<stdin>:1: field 2 (submit time): value out of range "9223372036853" (more than 10000000000 s)`
	for _, pol := range []string{"conservative", "sb", "fcs", "bcs", "pbcs", "local", "gs:level=process", "fcfs", "easy", "gs", "dcs"} {
		t.Run(pol, func(t *testing.T) {
			for _, mode := range []string{"", "--strict"} {
				args := []string{"--procs", "64", "--policy", pol, "-o", "-", "--format", "csv"}
				if mode != "" {
					args = append(args, mode)
				}
				_, _, err := replayCmd(t, strings.NewReader(bad+good), args...)
				if err == nil || err.Error() != want {
					t.Errorf("%s: %v, want %s", mode, err, want)
				}
			}
			stdout, stderr, err := replayCmd(t, strings.NewReader(bad+good), "--procs", "64", "--policy", pol, "-o", "-", "--format", "csv", "--lenient")
			if err != nil {
				t.Fatalf("--lenient: %v", err)
			}
			if !strings.Contains(stderr, "1 malformed line skipped (1 in field 2 (submit time))") {
				t.Errorf("--lenient does not count the line: %s", stderr)
			}
			out := outcomesOf(t, stdout)
			if len(out) != 1 || out[0].JobID != 2 || out[0].End-out[0].Start < 10*model.Second || out[0].Start < out[0].Submit {
				t.Errorf("--lenient: outcomes %+v, want job 2 alone, run for its 10 s", out)
			}
		})
	}
}

// TestTableTimesBeyondRange: the same range holds in every table format.
// Parquet and Arrow used to clamp a submit_s of 1e300 silently (to
// 9223372036854.775807 s, which then overflowed like the SWF case) where
// SWF text refused it.
func TestTableTimesBeyondRange(t *testing.T) {
	type row struct {
		JobID    int64   `parquet:"job_id"`
		Submit   float64 `parquet:"submit_s"`
		Runtime  float64 `parquet:"runtime_s"`
		ReqProcs int32   `parquet:"req_procs"`
	}
	rows := []row{{1, 1e300, 10, 4}, {2, 5, 10, 4}}
	var pq bytes.Buffer
	w := parquet.NewGenericWriter[row](&pq)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "job_id", Type: arrow.PrimitiveTypes.Int64}, {Name: "submit_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "runtime_s", Type: arrow.PrimitiveTypes.Float64}, {Name: "req_procs", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.JobID)
		b.Field(1).(*array.Float64Builder).Append(r.Submit)
		b.Field(2).(*array.Float64Builder).Append(r.Runtime)
		b.Field(3).(*array.Int32Builder).Append(r.ReqProcs)
	}
	rec := b.NewRecord()
	var ar bytes.Buffer
	aw := ipc.NewWriter(&ar, ipc.WithSchema(schema))
	if err := aw.Write(rec); err != nil {
		t.Fatal(err)
	}
	aw.Close()
	rec.Release()
	dir := t.TempDir()
	files := map[string][]byte{
		"t.parquet": pq.Bytes(),
		"t.arrow":   ar.Bytes(),
		"t.csv":     []byte("job_id,submit_s,runtime_s,req_procs\n1,1e300,10,4\n2,5,10,4\n"),
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		where := path + ": row 1"
		if name == "t.csv" {
			where = path + ":2"
		}
		want := where + `: field 2 (submit time): value out of range "1e+300" (more than 10000000000 s)`
		for _, mode := range []string{"", "--strict"} {
			args := []string{"--procs", "4", "--policy", "easy", path, "-o", "-", "--format", "csv"}
			if mode != "" {
				args = append(args, mode)
			}
			if _, _, err := replayCmd(t, nil, args...); err == nil || err.Error() != want {
				t.Errorf("%s %s: %v, want %s", name, mode, err, want)
			}
		}
		stdout, stderr, err := replayCmd(t, nil, "--procs", "4", "--policy", "easy", path, "-o", "-", "--format", "csv", "--lenient")
		if err != nil {
			t.Fatalf("%s --lenient: %v", name, err)
		}
		if out := outcomesOf(t, stdout); len(out) != 1 || out[0].JobID != 2 || !strings.Contains(stderr, "1 malformed line skipped") {
			t.Errorf("%s --lenient: %+v, %s", name, out, stderr)
		}
	}
}

// TestEstimatesBeyondRange: estimates near 9.2e12 s used to overflow
// conservative backfilling's reservation sums, so that a job that must
// wait for the first was backfilled beside it; they are out of range now.
// Estimates within the range that add up past the engine's horizon stop
// the replay with an error (sim.ErrHorizon) instead of a wrong schedule,
// and those that stay below it give the schedule they should.
func TestEstimatesBeyondRange(t *testing.T) {
	trace := "1 0 -1 100 4 -1 -1 4 9223372036000 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 1 -1 100 4 -1 -1 4 9223372036000 -1 1 1 1 -1 1 -1 -1 -1\n"
	_, _, err := replayCmd(t, strings.NewReader(trace), "--procs", "4", "--policy", "conservative", "-o", "-", "--format", "csv")
	want := `<stdin>:1: field 9 (requested time): value out of range "9223372036000" (more than 10000000000 s)`
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %s", err, want)
	}
	// n jobs of the whole machine, each estimated at 10^10 s and running
	// 1 s: reserved one after the other, 10^10 s apart, then moved as each
	// ends early. 470 of them reach past the horizon (2^62 µs); the sums
	// overflowed from 923 on.
	chain := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(itoa(i) + " 0 -1 1 4 -1 -1 4 10000000000 -1 1 1 1 -1 1 -1 -1 -1\n")
		}
		return b.String()
	}
	for _, pol := range []string{"conservative", "conservative:replan=single"} {
		stdout, _, err := replayCmd(t, strings.NewReader(chain(400)), "--procs", "4", "--policy", pol, "-o", "-", "--format", "csv")
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		for i, o := range outcomesOf(t, stdout) {
			if o.Start != model.Time(i)*model.Second {
				t.Fatalf("%s: job %d started at %v, want %v", pol, o.JobID, o.Start, model.Time(i)*model.Second)
			}
		}
		_, _, err = replayCmd(t, strings.NewReader(chain(1000)), "--procs", "4", "--policy", pol, "-o", "/dev/null")
		if !errors.Is(err, sim.ErrHorizon) {
			t.Errorf("%s: 1000 jobs: %v, want the horizon's error", pol, err)
		}
	}
}
