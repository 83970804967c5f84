package columnar

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"github.com/gangsim/gangsim/model"
)

// foreignJob is the job every foreign file below holds.
var foreignJob = model.Job{ID: 7, Submit: 3 * model.Second, Runtime: 1500 * model.Millisecond, ReqProcs: 4,
	Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).With(model.FieldReqProcs),
	App:   model.App{Pin: []int{3, 1, 2, 0}}}

// TestParquetForeign reads Parquet files written by another program:
// columns in another order, required or optional, of narrower or wider
// types (int32 job_id, float runtime_s, an integer submit_s, int64
// req_procs), pin as a three-level LIST of int64 and as a repeated leaf,
// and an extra column.
func TestParquetForeign(t *testing.T) {
	type threeLevel struct {
		Extra    string  `parquet:"extra"`
		Runtime  float32 `parquet:"runtime_s"`
		Pin      []int64 `parquet:"pin,list"`
		JobID    int32   `parquet:"job_id"`
		Submit   int64   `parquet:"submit_s"`
		ReqProcs *int64  `parquet:"req_procs,optional"`
	}
	type repeated struct {
		JobID    int64   `parquet:"job_id"`
		Submit   float64 `parquet:"submit_s"`
		Runtime  float64 `parquet:"runtime_s"`
		ReqProcs int32   `parquet:"req_procs"`
		Pin      []int32 `parquet:"pin"`
	}
	four := int64(4)
	for name, data := range map[string][]byte{
		"three-level": writeParquet(t, []threeLevel{{"x", 1.5, []int64{3, 1, 2, 0}, 7, 3, &four}}),
		"repeated":    writeParquet(t, []repeated{{7, 3, 1.5, 4, []int32{3, 1, 2, 0}}}),
	} {
		r, err := NewTraceReader(bytes.NewReader(data), FormatParquet, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := model.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Jobs) != 1 || !reflect.DeepEqual(got.Jobs[0], foreignJob) {
			t.Errorf("%s: got %+v, want %+v", name, got.Jobs, foreignJob)
		}
	}
}

func writeParquet[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestWrongSchema checks, in every encoding, that a file lacking required
// columns or holding columns of the wrong type fails naming each of them,
// as a *SchemaError, instead of reading as jobs of null fields.
func TestWrongSchema(t *testing.T) {
	type wrong struct {
		JobID   int64  `parquet:"job_id"`
		Submit  string `parquet:"submit_s"`
		Pattern int64  `parquet:"pattern"`
		Pin     int32  `parquet:"pin"`
	}
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "job_id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "submit_s", Type: arrow.BinaryTypes.String},
		{Name: "pattern", Type: arrow.PrimitiveTypes.Int64},
		{Name: "pin", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	var arrowBuf bytes.Buffer
	aw := ipc.NewWriter(&arrowBuf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	aw.Close()
	for _, tc := range []struct {
		f    Format
		data []byte
		want string
	}{
		{FormatParquet, writeParquet(t, []wrong{{1, "x", 2, 3}}),
			"x: not a trace table: missing columns runtime_s, alloc_procs or req_procs; mistyped columns submit_s (byte_array, want double), pattern (int64, want string), pin (int32, want list<int32>)"},
		{FormatArrow, arrowBuf.Bytes(),
			"x: not a trace table: missing columns runtime_s, alloc_procs or req_procs; mistyped columns submit_s (utf8, want double), pattern (int64, want string), pin (int32, want list<int32>)"},
		{FormatCSV, []byte("job_id,submit_s\n1,2\n"),
			"x:1: not a trace table: missing columns runtime_s, alloc_procs or req_procs"},
	} {
		_, err := NewTraceReader(bytes.NewReader(tc.data), tc.f, "x")
		var se *SchemaError
		if err == nil || err.Error() != tc.want || !errors.As(err, &se) {
			t.Errorf("%v:\n got %v\nwant %s", tc.f, err, tc.want)
		}
	}
	// The other kinds have required columns too.
	h := model.Header{}
	var buf bytes.Buffer
	w, _ := NewTraceWriter(&buf, FormatCSV, &h)
	w.Close()
	if _, err := NewOutcomeReader(strings.NewReader("job_id,submit_s\n"), FormatCSV, "o.csv"); err == nil ||
		!strings.Contains(err.Error(), "not an outcomes table: missing columns start_s, end_s, procs") {
		t.Errorf("outcomes without times: %v", err)
	}
	if _, err := NewSampleReader(strings.NewReader("time_s\n"), FormatCSV, "s.csv"); err == nil ||
		!strings.Contains(err.Error(), "missing columns in_system, queued, running, suspended, busy_procs") {
		t.Errorf("time series without counts: %v", err)
	}
}

// TestArrowForeign reads an Arrow stream of another writer with narrower
// and unsigned types, and refuses a uint64 that does not fit.
func TestArrowForeign(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "runtime_s", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "job_id", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "submit_s", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "req_procs", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "pin", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	encode := func(id uint64) []byte {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		b.Field(0).(*array.Float32Builder).Append(1.5)
		b.Field(1).(*array.Uint64Builder).Append(id)
		b.Field(2).(*array.Int16Builder).Append(3)
		b.Field(3).(*array.Uint8Builder).Append(4)
		lb := b.Field(4).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int64Builder).AppendValues([]int64{3, 1, 2, 0}, nil)
		rec := b.NewRecord()
		defer rec.Release()
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		w.Close()
		return buf.Bytes()
	}
	r, err := NewTraceReader(bytes.NewReader(encode(7)), FormatArrow, "a")
	if err != nil {
		t.Fatal(err)
	}
	got, err := model.ReadAll(r)
	if err != nil || len(got.Jobs) != 1 || !reflect.DeepEqual(got.Jobs[0], foreignJob) {
		t.Errorf("got %+v, %v; want %+v", got.Jobs, err, foreignJob)
	}
	r, _ = NewTraceReader(bytes.NewReader(encode(1<<63)), FormatArrow, "a")
	if _, err := model.ReadAll(r); err == nil || !strings.Contains(err.Error(), "column job_id: 9223372036854775808 does not fit in int64") {
		t.Errorf("a uint64 beyond int64: %v", err)
	}
}

// TestArrowTruncated cuts an Arrow stream at a batch boundary (its
// end-of-stream marker removed) and inside a batch: both are errors, never
// a shorter table.
func TestArrowTruncated(t *testing.T) {
	h := model.Header{}
	var buf bytes.Buffer
	w, _ := NewTraceWriter(&buf, FormatArrow, &h)
	for i := 0; i < 2*writerBatchRows; i++ {
		j := model.Job{ID: int64(i), Known: model.AllFields}
		w.Write(&j)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for name, cut := range map[string][]byte{
		"at a batch boundary": data[:len(data)-8],
		"inside a batch":      data[:len(data)-1000],
		"inside a length":     data[:len(data)-6],
	} {
		r, err := NewTraceReader(bytes.NewReader(cut), FormatArrow, "t.arrow")
		if err == nil {
			_, err = model.ReadAll(r)
		}
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %v, want ErrTruncated", name, err)
		}
	}
	r, _ := NewTraceReader(bytes.NewReader(data), FormatArrow, "t.arrow")
	if tr, err := model.ReadAll(r); err != nil || len(tr.Jobs) != 2*writerBatchRows {
		t.Errorf("whole stream: %d jobs, %v", len(tr.Jobs), err)
	}
}

// TestCutAnywhere cuts a table of each kind, in each format, at every
// byte (every 23rd inside an Arrow or Parquet body): every cut is an error, never a shorter table, row boundaries
// included (a CSV's closing "# gangsim.end: N rows" line, an Arrow
// stream's end-of-stream marker, Parquet's footer). Only a CSV missing
// its last newline reads whole.
func TestCutAnywhere(t *testing.T) {
	for _, f := range formats {
		for k, data := range fuzzSeeds(t, f) {
			read := func(b []byte) error {
				var err error
				switch k {
				case 0:
					var r *TraceReader
					if r, err = NewTraceReader(bytes.NewReader(b), f, "t"); err == nil {
						_, err = model.ReadAll(r)
					}
				case 1:
					var r *OutcomeReader
					if r, err = NewOutcomeReader(bytes.NewReader(b), f, "t"); err == nil {
						for err == nil {
							_, err = r.Read()
						}
					}
				default:
					var r *SampleReader
					if r, err = NewSampleReader(bytes.NewReader(b), f, "t"); err == nil {
						for err == nil {
							_, err = r.Read()
						}
					}
				}
				if err == io.EOF {
					return nil
				}
				return err
			}
			if err := read(data); err != nil {
				t.Fatalf("%v table %d whole: %v", f, k, err)
			}
			for n := 0; n < len(data); n++ {
				if f != FormatCSV && n > 256 && n < len(data)-256 && n%23 != 0 {
					continue // the binary formats' bodies, sampled (a millisecond a cut)
				}
				err := read(data[:n])
				if f == FormatCSV && n == len(data)-1 {
					if err != nil {
						t.Errorf("%v table %d without its last newline: %v", f, k, err)
					}
					continue
				}
				if err == nil {
					t.Errorf("%v table %d cut to %d of %d bytes: read without an error", f, k, n, len(data))
				}
			}
		}
	}
}
