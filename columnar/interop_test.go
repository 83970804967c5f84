package columnar

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/gangsim/gangsim/model"
)

// TestParquetReadByArrow writes a trace with this package's Parquet writer
// (parquet-go) and reads it with a second, independent implementation, the
// Parquet reader of apache/arrow/go: the same column names and types, the
// same values and nulls, and the metadata.
func TestParquetReadByArrow(t *testing.T) {
	h := testHeader()
	var buf bytes.Buffer
	w, err := NewTraceWriter(&buf, FormatParquet, &h)
	if err != nil {
		t.Fatal(err)
	}
	jobs := testJobs()
	if err := model.WriteAll(w, jobs); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	kv := pf.MetaData().KeyValueMetadata()
	if v := kv.FindValue(KeySchema); v == nil || *v != "gangsim.trace/1" {
		t.Errorf("schema metadata %v", v)
	}
	if v := kv.FindValue("MaxNodes"); v == nil || *v != "338 (batch partition; 512 total)" {
		t.Errorf("MaxNodes metadata %v", v)
	}
	var pairs [][2]string
	if v := kv.FindValue(KeyHeader); v == nil || json.Unmarshal([]byte(*v), &pairs) != nil || len(pairs) != len(h.Lines) {
		t.Errorf("lossless header metadata: %v", pairs)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumRows() != int64(len(jobs)) || int(tbl.NumCols()) != len(traceKind.cols) {
		t.Fatalf("%d rows, %d columns", tbl.NumRows(), tbl.NumCols())
	}
	for c, spec := range traceKind.cols {
		f := tbl.Schema().Field(c)
		if f.Name != spec.name || !f.Nullable {
			t.Errorf("column %d: %s (nullable %v), want %s", c, f.Name, f.Nullable, spec.name)
		}
		if !arrow.TypeEqual(f.Type, arrowType(spec.typ)) {
			// pqarrow names list elements "element"; compare element types.
			lt, ok1 := f.Type.(*arrow.ListType)
			wt, ok2 := arrowType(spec.typ).(*arrow.ListType)
			if !ok1 || !ok2 || !arrow.TypeEqual(lt.Elem(), wt.Elem()) {
				t.Errorf("column %s: type %s, want %s", spec.name, f.Type, arrowType(spec.typ))
			}
		}
	}
	col := func(name string) arrow.Array {
		idx := tbl.Schema().FieldIndices(name)
		return tbl.Column(idx[0]).Data().Chunk(0)
	}
	// Job 0 has every field; job 1 none (all nulls).
	if v := col("submit_s").(*array.Float64); v.Value(0) != 1.5 || !v.IsNull(1) || v.Value(2) != -1 {
		t.Errorf("submit_s = %v", v)
	}
	if v := col("runtime_s").(*array.Float64); v.Value(0) != 489.000001 {
		t.Errorf("runtime_s = %v", v.Value(0))
	}
	if v := col("used_mem_kb").(*array.Int64); v.Value(0) != 1<<40 {
		t.Errorf("used_mem_kb = %v", v.Value(0))
	}
	if v := col("alloc_procs").(*array.Int32); v.Value(0) != 32 || !v.IsNull(1) || !v.IsNull(2) {
		t.Errorf("alloc_procs = %v", v)
	}
	if v := col("pattern").(*array.String); v.Value(0) != "ring" || !v.IsNull(1) || v.Value(2) != "all-to-all" {
		t.Errorf("pattern = %v", v)
	}
	l := col("proc_compute_s").(*array.List)
	lo, hi := l.ValueOffsets(0)
	vals := l.ListValues().(*array.Float64)
	if hi-lo != 4 || vals.Value(int(lo)) != 0.006 || vals.Value(int(lo)+3) != 0.003001 || !l.IsNull(1) {
		t.Errorf("proc_compute_s = %v", l)
	}
	pin := col("pin").(*array.List)
	lo, hi = pin.ValueOffsets(0)
	if iv := pin.ListValues().(*array.Int32); hi-lo != 4 || iv.Value(int(lo)+2) != 3 {
		t.Errorf("pin = %v", pin)
	}
}

// TestArrowStreamIsStandard reads this package's Arrow stream with the
// plain arrow/ipc reader, through a pipe, while the writer is still
// producing batches: the stream is consumed batch by batch.
func TestArrowStreamIsStandard(t *testing.T) {
	pr, pw := io.Pipe()
	const n = 5 * writerBatchRows
	go func() {
		h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "128"}}}
		w, err := NewTraceWriter(pw, FormatArrow, &h)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		for i := 0; i < n; i++ {
			j := model.Job{ID: int64(i), Known: model.FieldSet(0).With(model.FieldJobID)}
			if err := w.Write(&j); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(w.Close())
	}()
	r, err := ipc.NewReader(pr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	md := r.Schema().Metadata()
	if i := md.FindKey("MaxProcs"); i < 0 || md.Values()[i] != "128" {
		t.Errorf("schema metadata %v", md)
	}
	if r.Schema().Field(0).Name != "job_id" || r.Schema().Field(0).Type.ID() != arrow.INT64 {
		t.Errorf("first field %v", r.Schema().Field(0))
	}
	batches, rows := 0, 0
	for r.Next() {
		rec := r.Record()
		ids := rec.Column(0).(*array.Int64)
		for i := 0; i < ids.Len(); i++ {
			if ids.Value(i) != int64(rows) {
				t.Fatalf("row %d has job_id %d", rows, ids.Value(i))
			}
			rows++
		}
		batches++
	}
	if err := r.Err(); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if rows != n || batches != 5 {
		t.Errorf("%d rows in %d batches, want %d in 5", rows, batches, n)
	}
}
