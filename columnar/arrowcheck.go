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
func checkArrowMessage(b []byte) error {
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
	switch htype {
	case 1: // Schema
		return c.schema(header)
	case 2: // DictionaryBatch
		data, ok, err := c.tableField(header, 1)
		if err != nil || !ok {
			return fmt.Errorf("dictionary batch without data: %v", err)
		}
		return c.recordBatch(data)
	case 3: // RecordBatch
		return c.recordBatch(header)
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

func (c fbCheck) recordBatch(rb int) error {
	if _, _, err := c.vector(rb, 1, 16, maxArrowBuffers); err != nil { // nodes
		return err
	}
	if _, _, err := c.vector(rb, 2, 16, maxArrowBuffers); err != nil { // buffers
		return err
	}
	if _, ok, err := c.tableField(rb, 3); err != nil {
		return err
	} else if ok {
		return errors.New("compressed Arrow record batches are not supported")
	}
	_, _, err := c.vector(rb, 4, 8, maxArrowBuffers) // variadic buffer counts
	return err
}
