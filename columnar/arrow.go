package columnar

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/gangsim/gangsim/model"
)

// arrowBatchRows is the number of rows per Arrow record batch: large enough
// to amortize per-batch costs, small enough that a pipe of any length
// streams in a few megabytes.
const arrowBatchRows = 16384

func arrowType(t colType) arrow.DataType {
	switch t {
	case tInt64:
		return arrow.PrimitiveTypes.Int64
	case tInt32:
		return arrow.PrimitiveTypes.Int32
	case tFloat64:
		return arrow.PrimitiveTypes.Float64
	case tString:
		return arrow.BinaryTypes.String
	case tFloat64List:
		return arrow.ListOf(arrow.PrimitiveTypes.Float64)
	case tInt32List:
		return arrow.ListOf(arrow.PrimitiveTypes.Int32)
	}
	panic("columnar: unknown column type")
}

func arrowSchema(k *kind, h *model.Header) *arrow.Schema {
	fields := make([]arrow.Field, len(k.cols))
	for i, c := range k.cols {
		fields[i] = arrow.Field{Name: c.name, Type: arrowType(c.typ), Nullable: true}
	}
	keys, values := metadata(k, h)
	md := arrow.NewMetadata(keys, values)
	return arrow.NewSchema(fields, &md)
}

// arrowTable writes batches as an Arrow IPC stream.
type arrowTable struct {
	w   *ipc.Writer
	bld *array.RecordBuilder
}

func newArrowTable(out io.Writer, k *kind, h *model.Header) *arrowTable {
	mem := memory.NewGoAllocator()
	schema := arrowSchema(k, h)
	return &arrowTable{
		w:   ipc.NewWriter(out, ipc.WithSchema(schema), ipc.WithAllocator(mem)),
		bld: array.NewRecordBuilder(mem, schema),
	}
}

func (t *arrowTable) writeBatch(b *batch) error {
	for c, spec := range b.k.cols {
		d := &b.cols[c]
		switch spec.typ {
		case tInt64:
			t.bld.Field(c).(*array.Int64Builder).AppendValues(d.ints, d.valid)
		case tInt32:
			fb := t.bld.Field(c).(*array.Int32Builder)
			fb.Reserve(b.n)
			for i, v := range d.ints {
				if d.valid[i] {
					fb.UnsafeAppend(int32(v))
				} else {
					fb.UnsafeAppendBoolToBitmap(false)
				}
			}
		case tFloat64:
			t.bld.Field(c).(*array.Float64Builder).AppendValues(d.flts, d.valid)
		case tString:
			t.bld.Field(c).(*array.StringBuilder).AppendValues(d.strs, d.valid)
		case tFloat64List:
			lb := t.bld.Field(c).(*array.ListBuilder)
			vb := lb.ValueBuilder().(*array.Float64Builder)
			for i, v := range d.flist {
				if !d.valid[i] {
					lb.AppendNull()
					continue
				}
				lb.Append(true)
				vb.AppendValues(v, nil)
			}
		case tInt32List:
			lb := t.bld.Field(c).(*array.ListBuilder)
			vb := lb.ValueBuilder().(*array.Int32Builder)
			for i, v := range d.ilist {
				if !d.valid[i] {
					lb.AppendNull()
					continue
				}
				lb.Append(true)
				vb.AppendValues(v, nil)
			}
		}
	}
	rec := t.bld.NewRecord()
	defer rec.Release()
	return t.w.Write(rec)
}

func (t *arrowTable) close() error {
	t.bld.Release()
	return t.w.Close()
}

// arrowSource reads batches from an Arrow IPC stream.
type arrowSource struct {
	k    *kind
	r    *ipc.Reader
	h    model.Header
	cols []int // cols[c] = field index in the file of kind column c, or -1
	b    *batch
	rows int64 // rows read before the current record, for error positions
}

func newArrowSource(in io.Reader, k *kind) (*arrowSource, error) {
	r, err := ipc.NewReader(in, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		return nil, fmt.Errorf("reading Arrow stream: %w", err)
	}
	schema := r.Schema()
	md := schema.Metadata()
	lookup := func(key string) (string, bool) {
		if i := md.FindKey(key); i >= 0 {
			return md.Values()[i], true
		}
		return "", false
	}
	h, err := headerFrom(k, lookup, md.Keys())
	if err != nil {
		r.Release()
		return nil, err
	}
	s := &arrowSource{k: k, r: r, h: h, cols: make([]int, len(k.cols)), b: newBatch(k, arrowBatchRows)}
	for c, spec := range k.cols {
		s.cols[c] = -1
		idx := schema.FieldIndices(spec.name)
		if len(idx) == 0 {
			continue
		}
		f := schema.Field(idx[0])
		if !arrowCompatible(spec.typ, f.Type) {
			r.Release()
			return nil, fmt.Errorf("column %s: type %s, want %s", spec.name, f.Type, spec.typ)
		}
		s.cols[c] = idx[0]
	}
	return s, nil
}

// arrowCompatible reports whether a file's column type can be read as t:
// the same type, or a narrower or wider integer or float.
func arrowCompatible(t colType, dt arrow.DataType) bool {
	switch t {
	case tInt64, tInt32:
		return arrow.IsInteger(dt.ID())
	case tFloat64:
		return arrow.IsFloating(dt.ID()) || arrow.IsInteger(dt.ID())
	case tString:
		return dt.ID() == arrow.STRING || dt.ID() == arrow.LARGE_STRING
	case tFloat64List, tInt32List:
		l, ok := dt.(*arrow.ListType)
		if !ok {
			return false
		}
		if t == tFloat64List {
			return arrow.IsFloating(l.Elem().ID()) || arrow.IsInteger(l.Elem().ID())
		}
		return arrow.IsInteger(l.Elem().ID())
	}
	return false
}

func (s *arrowSource) header() model.Header { return s.h }

func (s *arrowSource) readBatch() (*batch, error) {
	if !s.r.Next() {
		if err := s.r.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading Arrow stream after row %d: %w", s.rows, err)
		}
		return nil, io.EOF
	}
	rec := s.r.Record()
	n := int(rec.NumRows())
	b := s.b
	b.reset()
	for c, spec := range s.k.cols {
		if s.cols[c] < 0 {
			b.nullColumn(c, n)
			continue
		}
		col := rec.Column(s.cols[c])
		for i := 0; i < n; i++ {
			ok := col.IsValid(i)
			switch spec.typ {
			case tInt64, tInt32:
				v := int64(0)
				if ok {
					v = intAt(col, i)
				}
				b.int(c, v, ok)
			case tFloat64:
				v := 0.0
				if ok {
					v = floatAt(col, i)
				}
				b.flt(c, v, ok)
			case tString:
				v := ""
				if ok {
					v = col.ValueStr(i)
				}
				b.str(c, v, ok)
			case tFloat64List, tInt32List:
				if !ok {
					if spec.typ == tFloat64List {
						b.flist(c, nil, false)
					} else {
						b.ilist(c, nil, false)
					}
					continue
				}
				l := col.(*array.List)
				lo, hi := l.ValueOffsets(i)
				vals := l.ListValues()
				if spec.typ == tFloat64List {
					v := make([]float64, 0, hi-lo)
					for k := lo; k < hi; k++ {
						v = append(v, floatAt(vals, int(k)))
					}
					b.flist(c, v, true)
				} else {
					v := make([]int32, 0, hi-lo)
					for k := lo; k < hi; k++ {
						v = append(v, int32(intAt(vals, int(k))))
					}
					b.ilist(c, v, true)
				}
			}
		}
	}
	b.n = n
	s.rows += int64(n)
	return b, nil
}

func (s *arrowSource) close() error {
	s.r.Release()
	return nil
}

func intAt(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int64:
		return a.Value(i)
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint64:
		return int64(a.Value(i))
	}
	panic("columnar: not an integer array")
}

func floatAt(a arrow.Array, i int) float64 {
	switch a := a.(type) {
	case *array.Float64:
		return a.Value(i)
	case *array.Float32:
		return float64(a.Value(i))
	}
	return float64(intAt(a, i))
}
