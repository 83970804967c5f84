package columnar

import (
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/format"

	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
)

// parquetRowGroupRows bounds a row group, so a writer holds at most this
// many rows in memory.
const parquetRowGroupRows = 65536

// The Parquet row types, one per table kind. Their fields follow the kind's
// columns in order (TestParquetSchemas checks names and types); a nil
// pointer or nil list is a null.

type traceRow struct {
	JobID        *int64    `parquet:"job_id,optional"`
	SubmitS      *float64  `parquet:"submit_s,optional"`
	WaitS        *float64  `parquet:"wait_s,optional"`
	RuntimeS     *float64  `parquet:"runtime_s,optional"`
	AllocProcs   *int32    `parquet:"alloc_procs,optional"`
	AvgCPUS      *float64  `parquet:"avg_cpu_s,optional"`
	UsedMemKB    *int64    `parquet:"used_mem_kb,optional"`
	ReqProcs     *int32    `parquet:"req_procs,optional"`
	EstimateS    *float64  `parquet:"estimate_s,optional"`
	ReqMemKB     *int64    `parquet:"req_mem_kb,optional"`
	Status       *int32    `parquet:"status,optional"`
	UserID       *int32    `parquet:"user_id,optional"`
	GroupID      *int32    `parquet:"group_id,optional"`
	ExecutableID *int32    `parquet:"executable_id,optional"`
	QueueID      *int32    `parquet:"queue_id,optional"`
	PartitionID  *int32    `parquet:"partition_id,optional"`
	PrecedingID  *int64    `parquet:"preceding_job_id,optional"`
	ThinkTimeS   *float64  `parquet:"think_time_s,optional"`
	Granularity  *float64  `parquet:"granularity_s,optional"`
	Pattern      *string   `parquet:"pattern,optional"`
	Comm         *string   `parquet:"comm,optional"`
	MessageBytes *int64    `parquet:"message_bytes,optional"`
	Imbalance    *float64  `parquet:"imbalance,optional"`
	ProcCompute  []float64 `parquet:"proc_compute_s,optional,list"`
	MemPerProcKB *int64    `parquet:"mem_per_proc_kb,optional"`
	Priority     *int32    `parquet:"priority,optional"`
	Pin          []int32   `parquet:"pin,optional,list"`
}

type outcomeRow struct {
	JobID     *int64   `parquet:"job_id,optional"`
	SubmitS   *float64 `parquet:"submit_s,optional"`
	StartS    *float64 `parquet:"start_s,optional"`
	EndS      *float64 `parquet:"end_s,optional"`
	WaitS     *float64 `parquet:"wait_s,optional"`
	ResponseS *float64 `parquet:"response_s,optional"`
	RuntimeS  *float64 `parquet:"runtime_s,optional"`
	Dedicated *float64 `parquet:"dedicated_s,optional"`
	Procs     *int32   `parquet:"procs,optional"`
	EstimateS *float64 `parquet:"estimate_s,optional"`
	Slowdown  *float64 `parquet:"slowdown,optional"`
	BSld      *float64 `parquet:"bounded_slowdown,optional"`
	Status    *string  `parquet:"status,optional"`
	Reason    *string  `parquet:"reason,optional"`
}

type sampleRow struct {
	TimeS     *float64 `parquet:"time_s,optional"`
	InSystem  *int64   `parquet:"in_system,optional"`
	Queued    *int64   `parquet:"queued,optional"`
	Running   *int64   `parquet:"running,optional"`
	Suspended *int64   `parquet:"suspended,optional"`
	BusyProcs *float64 `parquet:"busy_procs,optional"`
}

// rowPointers gives the row structs pointers into a batch's columns.
// int32 columns need their own storage (the batch keeps 64 bits).
type rowPointers struct {
	b   *batch
	i32 [][]int32 // per column, for int32 columns
}

func (p *rowPointers) load(b *batch) {
	p.b = b
	if len(p.i32) != len(b.cols) {
		p.i32 = make([][]int32, len(b.cols))
	}
	for c, spec := range b.k.cols {
		if spec.typ != tInt32 {
			continue
		}
		s := p.i32[c][:0]
		for _, v := range b.cols[c].ints {
			s = append(s, int32(v))
		}
		p.i32[c] = s
	}
}

func (p *rowPointers) i64(c, i int) *int64 {
	if d := &p.b.cols[c]; d.valid[i] {
		return &d.ints[i]
	}
	return nil
}

func (p *rowPointers) i32p(c, i int) *int32 {
	if p.b.cols[c].valid[i] {
		return &p.i32[c][i]
	}
	return nil
}

func (p *rowPointers) f64(c, i int) *float64 {
	if d := &p.b.cols[c]; d.valid[i] {
		return &d.flts[i]
	}
	return nil
}

func (p *rowPointers) str(c, i int) *string {
	if d := &p.b.cols[c]; d.valid[i] {
		return &d.strs[i]
	}
	return nil
}

// nonNil returns v, or an empty non-nil slice for a valid empty list.
func nonNilF(v []float64, ok bool) []float64 {
	if !ok {
		return nil
	}
	if v == nil {
		return []float64{}
	}
	return v
}

func nonNilI(v []int32, ok bool) []int32 {
	if !ok {
		return nil
	}
	if v == nil {
		return []int32{}
	}
	return v
}

func (r *traceRow) from(p *rowPointers, i int) {
	*r = traceRow{
		JobID: p.i64(0, i), SubmitS: p.f64(1, i), WaitS: p.f64(2, i), RuntimeS: p.f64(3, i),
		AllocProcs: p.i32p(4, i), AvgCPUS: p.f64(5, i), UsedMemKB: p.i64(6, i), ReqProcs: p.i32p(7, i),
		EstimateS: p.f64(8, i), ReqMemKB: p.i64(9, i), Status: p.i32p(10, i), UserID: p.i32p(11, i),
		GroupID: p.i32p(12, i), ExecutableID: p.i32p(13, i), QueueID: p.i32p(14, i), PartitionID: p.i32p(15, i),
		PrecedingID: p.i64(16, i), ThinkTimeS: p.f64(17, i), Granularity: p.f64(cGranularity, i),
		Pattern: p.str(cPattern, i), Comm: p.str(cComm, i), MessageBytes: p.i64(cMessage, i),
		Imbalance: p.f64(cImbalance, i), ProcCompute: nonNilF(p.b.getFList(cProcCompute, i)),
		MemPerProcKB: p.i64(cMem, i), Priority: p.i32p(cPriority, i), Pin: nonNilI(p.b.getIList(cPin, i)),
	}
}

func (r *traceRow) to(b *batch) {
	putI64(b, 0, r.JobID)
	putF64(b, 1, r.SubmitS)
	putF64(b, 2, r.WaitS)
	putF64(b, 3, r.RuntimeS)
	putI32(b, 4, r.AllocProcs)
	putF64(b, 5, r.AvgCPUS)
	putI64(b, 6, r.UsedMemKB)
	putI32(b, 7, r.ReqProcs)
	putF64(b, 8, r.EstimateS)
	putI64(b, 9, r.ReqMemKB)
	putI32(b, 10, r.Status)
	putI32(b, 11, r.UserID)
	putI32(b, 12, r.GroupID)
	putI32(b, 13, r.ExecutableID)
	putI32(b, 14, r.QueueID)
	putI32(b, 15, r.PartitionID)
	putI64(b, 16, r.PrecedingID)
	putF64(b, 17, r.ThinkTimeS)
	putF64(b, cGranularity, r.Granularity)
	putStr(b, cPattern, r.Pattern)
	putStr(b, cComm, r.Comm)
	putI64(b, cMessage, r.MessageBytes)
	putF64(b, cImbalance, r.Imbalance)
	b.flist(cProcCompute, r.ProcCompute, r.ProcCompute != nil)
	putI64(b, cMem, r.MemPerProcKB)
	putI32(b, cPriority, r.Priority)
	b.ilist(cPin, r.Pin, r.Pin != nil)
	b.endRow()
}

func (r *outcomeRow) from(p *rowPointers, i int) {
	*r = outcomeRow{
		JobID: p.i64(0, i), SubmitS: p.f64(1, i), StartS: p.f64(2, i), EndS: p.f64(3, i),
		WaitS: p.f64(4, i), ResponseS: p.f64(5, i), RuntimeS: p.f64(6, i), Dedicated: p.f64(7, i),
		Procs: p.i32p(8, i), EstimateS: p.f64(9, i), Slowdown: p.f64(10, i), BSld: p.f64(11, i),
		Status: p.str(12, i), Reason: p.str(13, i),
	}
}

func (r *outcomeRow) to(b *batch) {
	putI64(b, 0, r.JobID)
	putF64(b, 1, r.SubmitS)
	putF64(b, 2, r.StartS)
	putF64(b, 3, r.EndS)
	putF64(b, 4, r.WaitS)
	putF64(b, 5, r.ResponseS)
	putF64(b, 6, r.RuntimeS)
	putF64(b, 7, r.Dedicated)
	putI32(b, 8, r.Procs)
	putF64(b, 9, r.EstimateS)
	putF64(b, 10, r.Slowdown)
	putF64(b, 11, r.BSld)
	putStr(b, 12, r.Status)
	putStr(b, 13, r.Reason)
	b.endRow()
}

func (r *sampleRow) from(p *rowPointers, i int) {
	*r = sampleRow{TimeS: p.f64(0, i), InSystem: p.i64(1, i), Queued: p.i64(2, i), Running: p.i64(3, i),
		Suspended: p.i64(4, i), BusyProcs: p.f64(5, i)}
}

func (r *sampleRow) to(b *batch) {
	putF64(b, 0, r.TimeS)
	putI64(b, 1, r.InSystem)
	putI64(b, 2, r.Queued)
	putI64(b, 3, r.Running)
	putI64(b, 4, r.Suspended)
	putF64(b, 5, r.BusyProcs)
	b.endRow()
}

func putI64(b *batch, c int, v *int64) {
	if v == nil {
		b.int(c, 0, false)
		return
	}
	b.int(c, *v, true)
}

func putI32(b *batch, c int, v *int32) {
	if v == nil {
		b.int(c, 0, false)
		return
	}
	b.int(c, int64(*v), true)
}

func putF64(b *batch, c int, v *float64) {
	if v == nil {
		b.flt(c, 0, false)
		return
	}
	b.flt(c, *v, true)
}

func putStr(b *batch, c int, v *string) {
	if v == nil {
		b.str(c, "", false)
		return
	}
	b.str(c, *v, true)
}

// fastSnappy is Parquet's SNAPPY codec with klauspost's fast Snappy encoder
// (s2.EncodeSnappy, standard Snappy output) instead of parquet-go's default
// "better" mode, which costs a tenth of a replay's time for a few percent
// of size. Decoding is parquet-go's.
type fastSnappy struct{ snappy.Codec }

func (fastSnappy) String() string                            { return "SNAPPY" }
func (fastSnappy) CompressionCodec() format.CompressionCodec { return format.Snappy }
func (fastSnappy) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst[:cap(dst)], src), nil
}

// parquetRow is implemented by the row types (through their pointers).
type parquetRow[T any] interface {
	*T
	from(p *rowPointers, i int)
	to(b *batch)
}

// parquetTable writes batches as a Parquet file.
type parquetTable[T any, P parquetRow[T]] struct {
	w    *parquet.GenericWriter[T]
	rows []T
	ptrs rowPointers
}

func newParquetTable[T any, P parquetRow[T]](out io.Writer, k *kind, h *model.Header) *parquetTable[T, P] {
	opts := []parquet.WriterOption{
		parquet.CreatedBy("gangsim", version.Version, ""),
		parquet.MaxRowsPerRowGroup(parquetRowGroupRows),
		parquet.Compression(&fastSnappy{}),
	}
	keys, values := metadata(k, h)
	for i := range keys {
		opts = append(opts, parquet.KeyValueMetadata(keys[i], values[i]))
	}
	return &parquetTable[T, P]{w: parquet.NewGenericWriter[T](out, opts...)}
}

func (t *parquetTable[T, P]) writeBatch(b *batch) error {
	t.ptrs.load(b)
	t.rows = t.rows[:0]
	for i := 0; i < b.n; i++ {
		var r T
		P(&r).from(&t.ptrs, i)
		t.rows = append(t.rows, r)
	}
	_, err := t.w.Write(t.rows)
	clear(t.rows) // drop the pointers into the batch
	return err
}

func (t *parquetTable[T, P]) close() error { return t.w.Close() }

// parquetSource reads batches from a Parquet file.
type parquetSource[T any, P parquetRow[T]] struct {
	r    *parquet.GenericReader[T]
	h    model.Header
	b    *batch
	rows []T
}

func newParquetSource[T any, P parquetRow[T]](in io.ReaderAt, size int64, k *kind) (*parquetSource[T, P], error) {
	f, err := parquet.OpenFile(in, size)
	if err != nil {
		return nil, fmt.Errorf("reading Parquet file: %w", err)
	}
	var keys []string
	for _, kv := range f.Metadata().KeyValueMetadata {
		keys = append(keys, kv.Key)
	}
	h, err := headerFrom(k, f.Lookup, keys)
	if err != nil {
		return nil, err
	}
	for _, spec := range k.cols {
		col, ok := f.Schema().Lookup(spec.name)
		if !ok {
			continue
		}
		if !parquetCompatible(spec.typ, col.Node) {
			return nil, fmt.Errorf("column %s: type %v, want %s", spec.name, col.Node.Type(), spec.typ)
		}
	}
	return &parquetSource[T, P]{
		r:    parquet.NewGenericReader[T](f),
		h:    h,
		b:    newBatch(k, 4096),
		rows: make([]T, 4096),
	}, nil
}

func parquetCompatible(t colType, n parquet.Node) bool {
	kind := n.Type().Kind()
	switch t {
	case tInt64, tInt32:
		return kind == parquet.Int32 || kind == parquet.Int64
	case tFloat64:
		return kind == parquet.Double || kind == parquet.Float || kind == parquet.Int32 || kind == parquet.Int64
	case tString:
		return kind == parquet.ByteArray
	}
	return true // lists: parquet-go converts or reports at read time
}

func (s *parquetSource[T, P]) header() model.Header { return s.h }

func (s *parquetSource[T, P]) readBatch() (*batch, error) {
	n, err := s.r.Read(s.rows)
	if n == 0 {
		if err == nil || errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading Parquet rows: %w", err)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading Parquet rows: %w", err)
	}
	s.b.reset()
	for i := 0; i < n; i++ {
		P(&s.rows[i]).to(s.b)
	}
	clear(s.rows[:n])
	return s.b, nil
}

func (s *parquetSource[T, P]) close() error { return s.r.Close() }
