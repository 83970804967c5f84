package columnar

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

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
			for i, v := range d.flists {
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
			for i, v := range d.ilists {
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
	msgs *arrowMessages
	r    *ipc.Reader
	h    model.Header
	cols []int // cols[c] = field index in the file of kind column c, or -1
	b    *batch
	rows int64 // rows read before the current record, for error positions
}

func newArrowSource(in io.Reader, k *kind) (src *arrowSource, err error) {
	defer recoverAs(&err, "malformed Arrow stream")
	msgs := &arrowMessages{r: in}
	r, err := ipc.NewReaderFromMessageReader(msgs, ipc.WithAllocator(memory.NewGoAllocator()))
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
	fields := schema.Fields()
	idx, err := matchColumns(k, len(fields), func(i int) string { return fields[i].Name },
		func(i int, t colType) (string, bool) {
			return fields[i].Type.String(), arrowCompatible(t, fields[i].Type)
		})
	if err != nil {
		r.Release()
		return nil, err
	}
	return &arrowSource{k: k, msgs: msgs, r: r, h: h, cols: idx, b: newBatch(k, arrowBatchRows)}, nil
}

// arrowCompatible reports whether a file's column type can be read as t:
// the same type, or a narrower or wider integer or float.
func arrowCompatible(t colType, dt arrow.DataType) bool {
	switch t {
	case tInt64, tInt32:
		return arrow.IsInteger(dt.ID())
	case tFloat64:
		return arrow.IsFloating(dt.ID()) && dt.ID() != arrow.FLOAT16 || arrow.IsInteger(dt.ID())
	case tString:
		return dt.ID() == arrow.STRING || dt.ID() == arrow.LARGE_STRING
	case tFloat64List, tInt32List:
		l, ok := dt.(*arrow.ListType)
		if !ok {
			return false
		}
		e := l.Elem().ID()
		if t == tFloat64List {
			return arrow.IsFloating(e) && e != arrow.FLOAT16 || arrow.IsInteger(e)
		}
		return arrow.IsInteger(e)
	}
	return false
}

func (s *arrowSource) header() model.Header { return s.h }

func (s *arrowSource) readBatch() (b *batch, err error) {
	defer recoverAs(&err, fmt.Sprintf("malformed Arrow stream after row %d", s.rows))
	if !s.r.Next() {
		if err := s.r.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading Arrow stream after row %d: %w", s.rows, err)
		}
		if !s.msgs.ended {
			return nil, fmt.Errorf("Arrow stream after row %d: %w", s.rows, ErrTruncated)
		}
		return nil, io.EOF
	}
	rec := s.r.Record()
	n := int(rec.NumRows())
	// A record's rows are bounded by its body (at least one bit of
	// validity or value per row of a column read); a larger count is a
	// corrupt header, not a reason to loop for ever.
	if n < 0 || int64(n) > 8*s.msgs.lastBody+64 {
		return nil, fmt.Errorf("malformed Arrow stream after row %d: a record batch of %d rows in %d bytes", s.rows, n, s.msgs.lastBody)
	}
	b = s.b
	b.reset()
	for c, spec := range s.k.cols {
		d := &b.cols[c]
		if s.cols[c] < 0 {
			b.nullColumn(c, n)
			continue
		}
		col := rec.Column(s.cols[c])
		if col.Len() != n {
			return nil, fmt.Errorf("malformed Arrow stream after row %d: column %s has %d rows, not %d", s.rows, spec.name, col.Len(), n)
		}
		for i := 0; i < n; i++ {
			if !col.IsValid(i) {
				d.null(spec.typ)
				continue
			}
			switch spec.typ {
			case tInt64, tInt32:
				v, ok := intAt(col, i)
				if !ok || spec.typ == tInt32 && (v < math.MinInt32 || v > math.MaxInt32) {
					return nil, fmt.Errorf("row %d: column %s: %s does not fit in %s", s.rows+int64(i)+1, spec.name, col.ValueStr(i), spec.typ)
				}
				d.int(v, true)
			case tFloat64:
				d.flt(floatAt(col, i), true)
			case tString:
				d.str(col.ValueStr(i), true)
			case tFloat64List, tInt32List:
				l := col.(*array.List)
				lo, hi := l.ValueOffsets(i)
				vals := l.ListValues()
				if lo < 0 || hi < lo || hi > int64(vals.Len()) {
					return nil, fmt.Errorf("malformed Arrow stream after row %d: column %s: list offsets %d..%d", s.rows, spec.name, lo, hi)
				}
				if spec.typ == tFloat64List {
					v := make([]float64, 0, hi-lo)
					for k := lo; k < hi; k++ {
						v = append(v, floatAt(vals, int(k)))
					}
					d.flist(v, true)
					continue
				}
				v := make([]int32, 0, hi-lo)
				for k := lo; k < hi; k++ {
					x, ok := intAt(vals, int(k))
					if !ok || x < math.MinInt32 || x > math.MaxInt32 {
						return nil, fmt.Errorf("row %d: column %s: %s does not fit in int32", s.rows+int64(i)+1, spec.name, vals.ValueStr(int(k)))
					}
					v = append(v, int32(x))
				}
				d.ilist(v, true)
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

// intAt returns element i of an integer array; ok is false for a uint64
// beyond int64.
func intAt(a arrow.Array, i int) (v int64, ok bool) {
	switch a := a.(type) {
	case *array.Int64:
		return a.Value(i), true
	case *array.Int32:
		return int64(a.Value(i)), true
	case *array.Int16:
		return int64(a.Value(i)), true
	case *array.Int8:
		return int64(a.Value(i)), true
	case *array.Uint32:
		return int64(a.Value(i)), true
	case *array.Uint16:
		return int64(a.Value(i)), true
	case *array.Uint8:
		return int64(a.Value(i)), true
	case *array.Uint64:
		u := a.Value(i)
		return int64(u), u <= math.MaxInt64
	}
	panic("columnar: not an integer array")
}

func floatAt(a arrow.Array, i int) float64 {
	switch a := a.(type) {
	case *array.Float64:
		return a.Value(i)
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Uint64:
		return float64(a.Value(i))
	}
	v, _ := intAt(a, i)
	return float64(v)
}

// ErrTruncated: a stream ended without its end marker, so rows may be
// missing (an Arrow IPC stream cut short, at a batch boundary or not).
var ErrTruncated = errors.New("truncated: the stream ends without its end-of-stream marker")

// maxArrowMetadata bounds an Arrow message's metadata (the schema with
// its key-value metadata, or a batch's buffer layout), in bytes.
const maxArrowMetadata = 64 << 20

// arrowMessages reads the messages of an Arrow IPC stream, as
// ipc.NewMessageReader does, but checks sizes before it trusts them
// (bodies are read as they arrive, never allocated from a length field
// alone) and tells the stream's end-of-stream marker (ended) from an
// input that stops between messages.
type arrowMessages struct {
	r        io.Reader
	ended    bool  // the end-of-stream marker was read
	lastBody int64 // body length of the last message, in bytes
	msg      *ipc.Message
	refs     int64
}

func (m *arrowMessages) Retain() { m.refs++ }

func (m *arrowMessages) Release() {
	if m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}

// Message returns the next message, or io.EOF after the end-of-stream
// marker or at the end of the input (ended tells them apart).
func (m *arrowMessages) Message() (msg *ipc.Message, err error) {
	defer recoverAs(&err, "malformed Arrow message")
	if m.ended {
		return nil, io.EOF
	}
	var word [4]byte
	if _, err := io.ReadFull(m.r, word[:]); err != nil {
		if err == io.EOF {
			return nil, io.EOF // between messages: not ended
		}
		return nil, fmt.Errorf("reading an Arrow message: %w", noEOF(err))
	}
	length := binary.LittleEndian.Uint32(word[:])
	if length == 0xFFFFFFFF { // continuation marker, then the length
		if _, err := io.ReadFull(m.r, word[:]); err != nil {
			return nil, fmt.Errorf("reading an Arrow message length: %w", noEOF(err))
		}
		length = binary.LittleEndian.Uint32(word[:])
	}
	if length == 0 {
		m.ended = true
		return nil, io.EOF
	}
	if length > maxArrowMetadata {
		return nil, fmt.Errorf("an Arrow message of %d bytes of metadata (at most %d)", length, maxArrowMetadata)
	}
	meta, err := readN(m.r, int64(length))
	if err != nil {
		return nil, fmt.Errorf("reading Arrow message metadata: %w", noEOF(err))
	}
	metaBuf := memory.NewBufferBytes(meta)
	probe := ipc.NewMessage(metaBuf, memory.NewBufferBytes(nil))
	bodyLen := probe.BodyLen()
	probe.Release()
	if bodyLen < 0 {
		return nil, fmt.Errorf("an Arrow message with a body of %d bytes", bodyLen)
	}
	body, err := readN(m.r, bodyLen)
	if err != nil {
		return nil, fmt.Errorf("reading an Arrow message body of %d bytes: %w", bodyLen, noEOF(err))
	}
	m.lastBody = bodyLen
	m.Release()
	m.msg = ipc.NewMessage(metaBuf, memory.NewBufferBytes(body))
	return m.msg, nil
}

// trustedBytes is how much readN allocates on a length field's word
// alone; beyond it, memory grows with the bytes that actually arrive.
const trustedBytes = 16 << 20

// readN reads exactly n bytes.
func readN(r io.Reader, n int64) ([]byte, error) {
	if n <= trustedBytes {
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		return b, err
	}
	var buf bytes.Buffer
	buf.Grow(trustedBytes)
	if _, err := io.CopyN(&buf, r, n); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// noEOF reports an input that ends inside a message as truncated.
func noEOF(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return ErrTruncated
	}
	return err
}
