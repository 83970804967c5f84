package columnar

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// checkArrowMessage verifies the flatbuffer of an Arrow IPC message before
// arrow/ipc decodes it (arrow-go trusts it: a corrupt vector length makes
// it allocate without bound). It walks the tables the Arrow format
// defines for a stream's messages (Message.fbs, Schema.fbs: Message,
// Schema, Field, KeyValue, DictionaryEncoding, RecordBatch,
// DictionaryBatch) and checks that every table, string and vector lies
// inside the buffer and that vectors have sane lengths. Compressed bodies
// are refused: their uncompressed sizes are trusted too, and gangsim
// never writes them.
//
// A schema fills l with the field nodes and buffers its record batches
// must have (arrow-go reads a batch's i-th node and buffer without
// checking that the batch has them: a batch with fewer makes it read
// lengths out of the bytes past them, and allocate what they say); a
// record or dictionary batch is checked against l.
func checkArrowMessage(b []byte, l *arrowLayout) error {
	c := fbCheck{b: b}
	if len(b) < 4 {
		return errors.New("message metadata too short")
	}
	msg, err := c.root()
	if err != nil {
		return err
	}
	if err := c.keyValues(msg, 4); err != nil {
		return err
	}
	htype, _, err := c.scalar(msg, 1, 1)
	if err != nil {
		return err
	}
	header, ok, err := c.tableField(msg, 2)
	if err != nil || !ok {
		return fmt.Errorf("message without a header: %v", err)
	}
	body, _, err := c.scalar(msg, 3, 8)
	if err != nil {
		return err
	}
	if int64(body) < 0 {
		return fmt.Errorf("a message body of %d bytes", int64(body))
	}
	switch htype {
	case 1: // Schema
		if err := c.schema(header); err != nil {
			return err
		}
		return c.schemaLayout(header, l)
	case 2: // DictionaryBatch
		data, ok, err := c.tableField(header, 1)
		if err != nil || !ok {
			return fmt.Errorf("dictionary batch without data: %v", err)
		}
		id, _, err := c.scalar(header, 0, 8)
		if err != nil {
			return err
		}
		want, ok := l.dicts[int64(id)]
		if !ok {
			return fmt.Errorf("a dictionary batch of id %d, which no field of the schema has", int64(id))
		}
		return c.recordBatch(data, int64(body), want)
	case 3: // RecordBatch
		if !l.known {
			return errors.New("a record batch before the schema")
		}
		return c.recordBatch(header, int64(body), l.batch)
	}
	return fmt.Errorf("message of type %d: not a schema, dictionary or record batch", htype)
}

// Limits of what a gangsim reader accepts in one message.
const (
	maxArrowFields  = 4096    // fields (and children of a field)
	maxArrowDepth   = 32      // nesting of fields
	maxArrowKVs     = 1 << 16 // key-value metadata entries
	maxArrowBuffers = 1 << 20 // field nodes and buffers of a batch
)

// fbCheck reads a flatbuffer defensively.
type fbCheck struct{ b []byte }

func (c fbCheck) u32(pos int) (uint32, error) {
	if pos < 0 || pos+4 > len(c.b) {
		return 0, errors.New("flatbuffer offset out of bounds")
	}
	return binary.LittleEndian.Uint32(c.b[pos:]), nil
}

func (c fbCheck) root() (int, error) {
	off, err := c.u32(0)
	if err != nil {
		return 0, err
	}
	return c.table(int(off))
}

// table checks the table at pos and its vtable, and returns pos.
func (c fbCheck) table(pos int) (int, error) {
	soff, err := c.u32(pos)
	if err != nil {
		return 0, err
	}
	vt := pos - int(int32(soff))
	if vt < 0 || vt+4 > len(c.b) {
		return 0, errors.New("flatbuffer vtable out of bounds")
	}
	vlen := int(binary.LittleEndian.Uint16(c.b[vt:]))
	tlen := int(binary.LittleEndian.Uint16(c.b[vt+2:]))
	if vlen < 4 || vlen%2 != 0 || vt+vlen > len(c.b) || pos+tlen > len(c.b) {
		return 0, errors.New("flatbuffer table out of bounds")
	}
	return pos, nil
}

// field returns the absolute position of field slot of the table at pos,
// or 0 if it is absent.
func (c fbCheck) field(pos, slot int) int {
	soff, _ := c.u32(pos)
	vt := pos - int(int32(soff))
	vlen := int(binary.LittleEndian.Uint16(c.b[vt:]))
	o := 4 + 2*slot
	if o+2 > vlen {
		return 0
	}
	f := int(binary.LittleEndian.Uint16(c.b[vt+o:]))
	if f == 0 {
		return 0
	}
	return pos + f
}

// scalar returns a field of size bytes (0 if absent).
func (c fbCheck) scalar(pos, slot, size int) (uint64, bool, error) {
	at := c.field(pos, slot)
	if at == 0 {
		return 0, false, nil
	}
	if at+size > len(c.b) {
		return 0, false, errors.New("flatbuffer field out of bounds")
	}
	var v uint64
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint64(c.b[at+i])
	}
	return v, true, nil
}

// indirect follows the offset at at.
func (c fbCheck) indirect(at int) (int, error) {
	off, err := c.u32(at)
	if err != nil {
		return 0, err
	}
	return at + int(off), nil
}

func (c fbCheck) tableField(pos, slot int) (int, bool, error) {
	at := c.field(pos, slot)
	if at == 0 {
		return 0, false, nil
	}
	t, err := c.indirect(at)
	if err != nil {
		return 0, false, err
	}
	t, err = c.table(t)
	return t, err == nil, err
}

// vector returns the start and length of a vector field of elements of
// elem bytes, at most max of them.
func (c fbCheck) vector(pos, slot, elem, max int) (start, n int, err error) {
	at := c.field(pos, slot)
	if at == 0 {
		return 0, 0, nil
	}
	v, err := c.indirect(at)
	if err != nil {
		return 0, 0, err
	}
	l, err := c.u32(v)
	if err != nil {
		return 0, 0, err
	}
	if int64(l) > int64(max) || int64(v)+4+int64(l)*int64(elem) > int64(len(c.b)) {
		return 0, 0, fmt.Errorf("flatbuffer vector of %d elements out of bounds", l)
	}
	return v + 4, int(l), nil
}

// tables checks a vector of tables and calls each with every one.
func (c fbCheck) tables(pos, slot, max int, each func(int) error) error {
	start, n, err := c.vector(pos, slot, 4, max)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		t, err := c.indirect(start + 4*i)
		if err != nil {
			return err
		}
		if t, err = c.table(t); err != nil {
			return err
		}
		if err := each(t); err != nil {
			return err
		}
	}
	return nil
}

func (c fbCheck) str(pos, slot int) error {
	_, _, err := c.vector(pos, slot, 1, len(c.b))
	return err
}

func (c fbCheck) keyValues(pos, slot int) error {
	return c.tables(pos, slot, maxArrowKVs, func(kv int) error {
		if err := c.str(kv, 0); err != nil {
			return err
		}
		return c.str(kv, 1)
	})
}

func (c fbCheck) schema(s int) error {
	if err := c.keyValues(s, 2); err != nil {
		return err
	}
	if _, _, err := c.vector(s, 3, 8, maxArrowFields); err != nil { // features
		return err
	}
	return c.fields(s, 1, 0)
}

func (c fbCheck) fields(pos, slot, depth int) error {
	if depth > maxArrowDepth {
		return errors.New("Arrow fields nested too deep")
	}
	return c.tables(pos, slot, maxArrowFields, func(f int) error {
		if err := c.str(f, 0); err != nil { // name
			return err
		}
		// The type: a table of scalars, but for a Union's type ids and a
		// Timestamp's time zone.
		typeType, _, err := c.scalar(f, 2, 1)
		if err != nil {
			return err
		}
		if typ, ok, err := c.tableField(f, 3); err != nil {
			return err
		} else if ok {
			switch typeType {
			case 14: // Union
				_, _, err = c.vector(typ, 1, 4, maxArrowFields)
			case 10: // Timestamp
				err = c.str(typ, 1)
			}
			if err != nil {
				return err
			}
		}
		if d, ok, err := c.tableField(f, 4); err != nil { // dictionary encoding
			return err
		} else if ok {
			if _, _, err := c.tableField(d, 1); err != nil { // its index type
				return err
			}
		}
		if err := c.keyValues(f, 6); err != nil {
			return err
		}
		return c.fields(f, 5, depth+1) // children
	})
}

// arrowLayout is what the record batches of a schema hold: field nodes
// and buffers, for the record batches and for each dictionary (by id).
type arrowLayout struct {
	known bool // a schema was read
	batch layoutCount
	dicts map[int64]layoutCount
}

type layoutCount struct{ nodes, buffers int }

// schemaLayout counts the nodes and buffers of schema s's record batches,
// as arrow-go's loader reads them, and those of each dictionary. A type
// it does not know (unions, views, run-end encoding) is refused.
func (c fbCheck) schemaLayout(s int, l *arrowLayout) error {
	*l = arrowLayout{known: true, dicts: map[int64]layoutCount{}}
	return c.fieldsLayout(s, 1, 0, &l.batch, l)
}

func (c fbCheck) fieldsLayout(pos, slot, depth int, n *layoutCount, l *arrowLayout) error {
	if depth > maxArrowDepth {
		return errors.New("Arrow fields nested too deep")
	}
	return c.tables(pos, slot, maxArrowFields, func(f int) error {
		d, dict, err := c.tableField(f, 4) // dictionary encoding
		if err != nil {
			return err
		}
		if !dict {
			return c.fieldLayout(f, depth, n, l)
		}
		// The batch holds the indices; the dictionary batch the values.
		n.nodes++
		n.buffers += 2
		id, _, err := c.scalar(d, 0, 8)
		if err != nil {
			return err
		}
		var values layoutCount
		if err := c.fieldLayout(f, depth, &values, l); err != nil {
			return err
		}
		l.dicts[int64(id)] = values
		return nil
	})
}

// fieldLayout adds the nodes and buffers of field f's type (not
// dictionary encoded) to n.
func (c fbCheck) fieldLayout(f, depth int, n *layoutCount, l *arrowLayout) error {
	typeType, _, err := c.scalar(f, 2, 1)
	if err != nil {
		return err
	}
	n.nodes++
	switch typeType {
	case 1: // Null
	case 2, 3, 6, 7, 8, 9, 10, 11, 15, 18: // Int, FloatingPoint, Bool, Decimal, Date, Time, Timestamp, Interval, FixedSizeBinary, Duration
		n.buffers += 2
	case 4, 5, 19, 20: // Binary, Utf8, LargeBinary, LargeUtf8
		n.buffers += 3
	case 12, 17, 21: // List, Map, LargeList
		n.buffers += 2
		return c.fieldsLayout(f, 5, depth+1, n, l)
	case 13, 16: // Struct_, FixedSizeList
		n.buffers++
		return c.fieldsLayout(f, 5, depth+1, n, l)
	default:
		return fmt.Errorf("an Arrow field of type %d (a union, view or run-end encoding): not supported", typeType)
	}
	return nil
}

func (c fbCheck) recordBatch(rb int, body int64, want layoutCount) error {
	// A batch's rows, and each field node's values, are bounded by its
	// body: at least one bit of validity or value per row of a column.
	maxRows := 8*body + 64
	if n, _, err := c.scalar(rb, 0, 8); err != nil {
		return err
	} else if int64(n) < 0 || int64(n) > maxRows {
		return fmt.Errorf("a record batch of %d rows in a body of %d bytes", int64(n), body)
	}
	start, n, err := c.vector(rb, 1, 16, maxArrowBuffers) // nodes: length, null count
	if err != nil {
		return err
	}
	if n < want.nodes {
		return fmt.Errorf("a record batch of %d field nodes, where its schema has %d", n, want.nodes)
	}
	for i := 0; i < n; i++ {
		length := int64(binary.LittleEndian.Uint64(c.b[start+16*i:]))
		nulls := int64(binary.LittleEndian.Uint64(c.b[start+16*i+8:]))
		if length < 0 || length > maxRows || nulls < 0 || nulls > length {
			return fmt.Errorf("a field node of %d values (%d null) in a body of %d bytes", length, nulls, body)
		}
	}
	// Every buffer lies inside the body: arrow-go allocates a buffer's
	// length as the metadata says (128 TB of a corrupt length).
	start, n, err = c.vector(rb, 2, 16, maxArrowBuffers)
	if err != nil {
		return err
	}
	if n < want.buffers {
		return fmt.Errorf("a record batch of %d buffers, where its schema has %d", n, want.buffers)
	}
	for i := 0; i < n; i++ {
		off := int64(binary.LittleEndian.Uint64(c.b[start+16*i:]))
		length := int64(binary.LittleEndian.Uint64(c.b[start+16*i+8:]))
		if off < 0 || length < 0 || off > body || length > body-off {
			return fmt.Errorf("a buffer of %d bytes at %d, outside the body of %d bytes", length, off, body)
		}
	}
	if _, ok, err := c.tableField(rb, 3); err != nil {
		return err
	} else if ok {
		return errors.New("compressed Arrow record batches are not supported")
	}
	_, _, err = c.vector(rb, 4, 8, maxArrowBuffers) // variadic buffer counts
	return err
}
