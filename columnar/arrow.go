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
	flatbuffers "github.com/google/flatbuffers/go"

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
	out     io.Writer
	schema  *arrow.Schema
	w       *ipc.Writer
	bld     *array.RecordBuilder
	written bool // a batch was written (and with it the schema)
}

func newArrowTable(out io.Writer, k *kind, h *model.Header) *arrowTable {
	mem := memory.NewGoAllocator()
	schema := arrowSchema(k, h)
	return &arrowTable{
		out:    out,
		schema: schema,
		w:      ipc.NewWriter(out, ipc.WithSchema(schema), ipc.WithAllocator(mem)),
		bld:    array.NewRecordBuilder(mem, schema),
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
	t.written = true
	return t.w.Write(rec)
}

// close ends the stream. A trailer is a record batch of no rows whose
// message carries it as custom metadata, just before the end-of-stream
// marker: the ipc.Writer writes each message to out as it goes, so the
// trailer's message is written to out between the last batch and Close.
func (t *arrowTable) close(trailer []model.HeaderLine) error {
	defer t.bld.Release()
	if len(trailer) > 0 {
		if !t.written { // the schema goes out with the first batch
			rec := t.bld.NewRecord()
			err := t.w.Write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		if _, err := t.out.Write(arrowTrailerMessage(t.schema, trailer)); err != nil {
			return err
		}
	}
	return t.w.Close()
}

// keyTrailer is the custom metadata key of an Arrow stream's trailer.
const keyTrailer = "gangsim.trailer"

// arrowTrailerMessage encodes, framed for an IPC stream, a RecordBatch
// message of no rows for schema whose custom_metadata holds the trailer
// under keyTrailer. The flatbuffer follows the Arrow format's Message.fbs
// (Message: version, header type, header, body length, custom metadata)
// and Schema.fbs (RecordBatch: length, nodes, buffers; KeyValue: key,
// value): one field node per field and child, and its buffers (validity
// and values; strings and lists also offsets), all empty.
func arrowTrailerMessage(schema *arrow.Schema, trailer []model.HeaderLine) []byte {
	nodes, buffers := 0, 0
	var count func(dt arrow.DataType)
	count = func(dt arrow.DataType) {
		nodes++
		switch dt := dt.(type) {
		case *arrow.StringType:
			buffers += 3
		case *arrow.ListType:
			buffers += 2
			count(dt.Elem())
		default:
			buffers += 2
		}
	}
	for _, f := range schema.Fields() {
		count(f.Type)
	}
	b := flatbuffers.NewBuilder(1024)
	key := b.CreateString(keyTrailer)
	value := b.CreateString(headerJSON(trailer))
	b.StartObject(2) // KeyValue
	b.PrependUOffsetTSlot(0, key, 0)
	b.PrependUOffsetTSlot(1, value, 0)
	kv := b.EndObject()
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(kv)
	kvs := b.EndVector(1)
	zeros := func(n int) flatbuffers.UOffsetT { // n structs of two int64
		b.StartVector(16, n, 8)
		for i := 0; i < 2*n; i++ {
			b.PrependInt64(0)
		}
		return b.EndVector(n)
	}
	nodeVec := zeros(nodes)
	bufVec := zeros(buffers)
	b.StartObject(5) // RecordBatch; length 0 is the default
	b.PrependUOffsetTSlot(1, nodeVec, 0)
	b.PrependUOffsetTSlot(2, bufVec, 0)
	batch := b.EndObject()
	b.StartObject(5)                   // Message
	b.PrependInt16Slot(0, 4, 0)        // version: V5
	b.PrependByteSlot(1, 3, 0)         // header type: RecordBatch
	b.PrependUOffsetTSlot(2, batch, 0) // header
	b.PrependUOffsetTSlot(4, kvs, 0)   // custom_metadata; body length 0 is the default
	b.Finish(b.EndObject())
	msg := b.FinishedBytes()
	padded := (len(msg) + 7) &^ 7
	out := make([]byte, 8+padded)
	binary.LittleEndian.PutUint32(out, 0xFFFFFFFF)
	binary.LittleEndian.PutUint32(out[4:], uint32(padded))
	copy(out[8:], msg)
	return out
}

// trailerOf returns the trailer lines in a message's custom metadata
// (flatbuffer Message field 4), if it has the trailer key.
func trailerOf(meta []byte) ([]model.HeaderLine, error) {
	if len(meta) < 4 {
		return nil, nil
	}
	t := flatbuffers.Table{Bytes: meta, Pos: flatbuffers.GetUOffsetT(meta)}
	o := flatbuffers.UOffsetT(t.Offset(12))
	if o == 0 {
		return nil, nil
	}
	var lines []model.HeaderLine
	vec, n := t.Vector(o), t.VectorLen(o)
	for i := 0; i < n; i++ {
		kv := flatbuffers.Table{Bytes: meta, Pos: t.Indirect(vec + flatbuffers.UOffsetT(i)*4)}
		ko, vo := flatbuffers.UOffsetT(kv.Offset(4)), flatbuffers.UOffsetT(kv.Offset(6))
		if ko == 0 || vo == 0 || kv.String(ko+kv.Pos) != keyTrailer {
			continue
		}
		h, err := headerFromJSON(kv.String(vo + kv.Pos))
		if err != nil {
			return nil, fmt.Errorf("Arrow trailer: %w", err)
		}
		lines = append(lines, h...)
	}
	return lines, nil
}

// arrowSource reads batches from an Arrow IPC stream.
type arrowSource struct {
	k      *kind
	msgs   *arrowMessages
	r      *ipc.Reader
	h      model.Header
	hWhere []string // where each line of h is in the metadata
	cols   []int    // cols[c] = field index in the file of kind column c, or -1
	b      *batch
	rows   int64 // rows read before the current record, for error positions
}

func (s *arrowSource) headerWhere(i int) (int, string) { return 0, s.hWhere[i] }

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
	h, where, err := headerFrom(k, lookup, md.Keys())
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
	return &arrowSource{k: k, msgs: msgs, r: r, h: h, hWhere: where, cols: idx, b: newBatch(k, arrowBatchRows)}, nil
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

func (s *arrowSource) trailer() []model.HeaderLine { return s.msgs.trailer }

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
// missing: an Arrow IPC stream cut short, at a batch boundary or not, or
// a CSV table whose closing KeyEnd line, promised at its start, is
// missing or gives another number of rows.
var ErrTruncated = errors.New("truncated: the input ends without its end marker")

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
	trailer  []model.HeaderLine // from the custom metadata of the messages
	ended    bool               // the end-of-stream marker was read
	lastBody int64              // body length of the last message, in bytes
	layout   arrowLayout        // what the schema's batches hold, checked before arrow-go reads them
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
	if err := checkArrowMessage(meta, &m.layout); err != nil {
		return nil, fmt.Errorf("malformed Arrow message: %w", err)
	}
	tr, err := trailerOf(meta)
	if err != nil {
		return nil, err
	}
	m.trailer = append(m.trailer, tr...)
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
