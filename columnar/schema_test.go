package columnar

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/gangsim/gangsim/model"
)

// TestParquetSchemas checks that the derived Parquet schemas have the
// kinds' columns, in order, with the documented types, and lists as
// standard three-level LIST groups.
func TestParquetSchemas(t *testing.T) {
	for _, k := range kinds {
		tc := struct {
			k *kind
			s *parquet.Schema
		}{k, parquetSchema(k)}
		fields := tc.s.Fields()
		if len(fields) != len(tc.k.cols) {
			t.Fatalf("%s: %d Parquet fields, %d columns", tc.k.name, len(fields), len(tc.k.cols))
		}
		for i, c := range tc.k.cols {
			f := fields[i]
			if f.Name() != c.name || !f.Optional() {
				t.Errorf("%s field %d: %s (optional %v), want %s", tc.k.name, i, f.Name(), f.Optional(), c.name)
			}
			want := map[colType]string{tInt64: "INT64", tInt32: "INT32", tFloat64: "DOUBLE", tString: "BYTE_ARRAY"}[c.typ]
			if want != "" && fmt.Sprint(f.Type().Kind()) != want {
				t.Errorf("%s column %s: %v, want %s", tc.k.name, c.name, f.Type().Kind(), want)
			}
			if c.typ.isList() {
				l, ok := tc.s.Lookup(c.name, "list", "element")
				if !ok || l.MaxDefinitionLevel != defElement || l.MaxRepetitionLevel != 1 || l.ColumnIndex != i {
					t.Errorf("%s column %s: not a LIST of required elements at leaf %d: %+v", tc.k.name, c.name, i, l)
				}
			} else if l, ok := tc.s.Lookup(c.name); !ok || l.ColumnIndex != i || l.MaxDefinitionLevel != defPresent {
				t.Errorf("%s column %s: leaf %+v, want index %d", tc.k.name, c.name, l, i)
			}
		}
	}
}

func benchJobs(n int) []model.Job {
	jobs := make([]model.Job, n)
	for i := range jobs {
		jobs[i] = model.Job{ID: int64(i + 1), Submit: model.Time(i) * 137 * model.Second, Wait: model.Time(i%97) * model.Second,
			Runtime: model.Time(i%3601+1) * model.Second, AllocProcs: 1 << (i % 8), AvgCPU: model.Time(i%3600) * model.Second,
			UsedMemKB: int64(i % 5000), ReqProcs: 1 << (i % 8), Estimate: model.Time(i%7200+1) * model.Second, ReqMemKB: -1,
			Status: 1, User: i % 300, Group: i % 20, Executable: i % 50, Queue: i % 4, Partition: 1,
			Known: model.AllFields.Without(model.FieldReqMem).Without(model.FieldPreceding).Without(model.FieldThinkTime)}
	}
	return jobs
}

// Benchmark{Write,Read}Trace move 250,000 jobs (about the largest shared
// trace) through each encoding.
func BenchmarkWriteTrace(b *testing.B) {
	jobs := benchJobs(250_000)
	for _, f := range formats {
		b.Run(f.String(), func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for i := 0; i < b.N; i++ {
				var buf bytes.Buffer
				h := model.Header{}
				w, _ := NewTraceWriter(&buf, f, &h)
				if err := model.WriteAll(w, jobs); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
			b.ReportMetric(float64(size)/float64(len(jobs)), "bytes/job")
		})
	}
}

func BenchmarkReadTrace(b *testing.B) {
	jobs := benchJobs(250_000)
	for _, f := range formats {
		var buf bytes.Buffer
		h := model.Header{}
		w, _ := NewTraceWriter(&buf, f, &h)
		model.WriteAll(w, jobs)
		data := buf.Bytes()
		b.Run(f.String(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := NewTraceReader(bytes.NewReader(data), f, "")
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					if _, err := r.Read(); err != nil {
						break
					}
					n++
				}
				if n != len(jobs) {
					b.Fatalf("read %d jobs", n)
				}
			}
			b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}

// TestParquetSmallFileGarbage reads a 1000-job Parquet trace, the size of a
// sweep's run, and bounds the bytes the read allocates. Asking parquet-go for
// a 4096-row batch from a 1000-row file made it decode every column's page
// header again for each row past the end: about 37 kB of garbage per row
// missing, which made a 1170-run item read back for 40 s.
func TestParquetSmallFileGarbage(t *testing.T) {
	jobs := benchJobs(1000)
	var buf bytes.Buffer
	h := model.Header{}
	w, _ := NewTraceWriter(&buf, FormatParquet, &h)
	if err := model.WriteAll(w, jobs); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := NewTraceReader(bytes.NewReader(data), FormatParquet, "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		if _, err := r.Read(); err != nil {
			break
		}
		n++
	}
	runtime.ReadMemStats(&after)
	if n != len(jobs) {
		t.Fatalf("read %d jobs, want %d", n, len(jobs))
	}
	// A row of the trace table holds about 20 values; the bound leaves
	// room for parquet-go's buffers and is far below the 3096 x 37 kB of
	// the bug.
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("reading %d jobs allocated %d bytes, want at most 8 MB", n, got)
	}
}
