package columnar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// checkParquet verifies the structure of a Parquet file before
// parquet-go decodes it: parquet-go trusts the lengths in the file's
// Thrift metadata and page headers, so a corrupt list size or page size
// makes it allocate without bound (the process then dies, beyond any
// recover). The footer and every page header must be well-formed Thrift
// (compact protocol) whose lists and strings fit in the bytes that hold
// them; pages must lie inside their column chunks and the file, and hold
// a sane number of values.
func checkParquet(r io.ReaderAt, size int64) error {
	if size < 12 {
		return errors.New("too short for a Parquet file")
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return errors.New("no Parquet magic at the end (an encrypted or damaged file?)")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 || n > maxParquetFooter {
		return fmt.Errorf("footer of %d bytes in a file of %d", n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	var chunks [][3]int64 // start, length (compressed), of every column chunk
	var meta [16]int64    // fields of the ColumnMetaData being walked
	w := thriftWalker{b: footer, scalar: func(path []int16, v int64) {
		// FileMetaData.row_groups[].columns[].meta_data: 4.1.3.<field>
		if len(path) == 4 && path[0] == 4 && path[1] == 1 && path[2] == 3 && path[3] < int16(len(meta)) {
			meta[path[3]] = v
		}
	}, structEnd: func(path []int16) {
		if len(path) == 3 && path[0] == 4 && path[1] == 1 && path[2] == 3 {
			start := meta[9] // data_page_offset
			if d := meta[11]; d > 0 && d < start {
				start = d // dictionary_page_offset
			}
			chunks = append(chunks, [3]int64{start, meta[7], meta[5]}) // total_compressed_size, num_values
			meta = [16]int64{}
		}
	}}
	if err := w.walkStruct(nil); err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	for _, c := range chunks {
		if err := checkParquetChunk(r, size-8-n, c[0], c[1]); err != nil {
			return err
		}
	}
	return nil
}

// Bounds of what a gangsim reader accepts in a Parquet file.
const (
	maxParquetFooter     = 64 << 20  // footer bytes
	maxThriftList        = 1 << 20   // elements of one Thrift list, set or map
	maxThriftDepth       = 32        // nesting of Thrift structs
	maxParquetPage       = 512 << 20 // bytes of a page, compressed or not
	maxParquetPageValues = 1 << 26   // values in a page
	maxPageHeader        = 1 << 20   // bytes of a page header
)

// checkParquetChunk walks the page headers of a column chunk of length
// bytes at start, which must end before end (the footer).
func checkParquetChunk(r io.ReaderAt, end, start, length int64) error {
	if start < 4 || length < 0 || start > end || length > end-start {
		return fmt.Errorf("column chunk at %d of %d bytes outside the file", start, length)
	}
	buf := make([]byte, 4096)
	for at := start; at < start+length; {
		var compressed, uncompressed int64
		var w thriftWalker
		// A page header is small; read more only if it does not fit.
		for n := int64(4096); ; n *= 16 {
			n = min(n, maxPageHeader, start+length-at)
			if int64(cap(buf)) < n {
				buf = make([]byte, n)
			}
			buf = buf[:n]
			if _, err := r.ReadAt(buf, at); err != nil && err != io.EOF {
				return err
			}
			compressed, uncompressed = -1, -1
			w = thriftWalker{b: buf, scalar: func(path []int16, v int64) {
				switch {
				case len(path) == 1 && path[0] == 2:
					uncompressed = v
				case len(path) == 1 && path[0] == 3:
					compressed = v
				case len(path) == 2 && (path[0] == 5 || path[0] == 7 || path[0] == 8) && path[1] == 1:
					if v < 0 || v > maxParquetPageValues {
						compressed = -2 // an impossible value count
					}
				}
			}}
			err := w.walkStruct(nil)
			if err == nil {
				break
			}
			if n == maxPageHeader || n == start+length-at {
				return fmt.Errorf("page header at %d: %w", at, err)
			}
		}
		switch {
		case compressed == -2:
			return fmt.Errorf("page at %d: a value count beyond %d", at, maxParquetPageValues)
		case compressed < 0 || uncompressed < 0 || compressed > maxParquetPage || uncompressed > maxParquetPage:
			return fmt.Errorf("page at %d: sizes %d (compressed), %d", at, compressed, uncompressed)
		}
		at += int64(w.pos) + compressed
		if at > start+length {
			return fmt.Errorf("page at %d runs past its column chunk", at)
		}
	}
	return nil
}

// thriftWalker reads Thrift compact protocol without allocating, checking
// that every length fits in the bytes left, and reports the integer
// fields on the way by their path of field ids (list elements keep their
// list's id).
type thriftWalker struct {
	b         []byte
	pos       int
	depth     int
	scalar    func(path []int16, v int64)
	structEnd func(path []int16)
}

var errThrift = errors.New("malformed Thrift")

func (w *thriftWalker) byte() (byte, error) {
	if w.pos >= len(w.b) {
		return 0, errThrift
	}
	w.pos++
	return w.b[w.pos-1], nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.pos:])
	if n <= 0 {
		return 0, errThrift
	}
	w.pos += n
	return v, nil
}

func (w *thriftWalker) zigzag() (int64, error) {
	u, err := w.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (w *thriftWalker) walkStruct(path []int16) error {
	if w.depth++; w.depth > maxThriftDepth {
		return errThrift
	}
	defer func() { w.depth-- }()
	var id int16
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == 0 {
			if w.structEnd != nil {
				w.structEnd(path)
			}
			return nil
		}
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			v, err := w.zigzag()
			if err != nil || v < -32768 || v > 32767 {
				return errThrift
			}
			id = int16(v)
		}
		if err := w.walkValue(typ, append(path, id)); err != nil {
			return err
		}
	}
}

func (w *thriftWalker) walkValue(typ byte, path []int16) error {
	switch typ {
	case 1, 2: // bool in the field header
		w.report(path, int64(2-typ))
	case 3:
		b, err := w.byte()
		w.report(path, int64(int8(b)))
		return err
	case 4, 5, 6:
		v, err := w.zigzag()
		w.report(path, v)
		return err
	case 7:
		if w.pos+8 > len(w.b) {
			return errThrift
		}
		w.pos += 8
	case 8: // binary
		n, err := w.uvarint()
		if err != nil || n > uint64(len(w.b)-w.pos) {
			return errThrift
		}
		w.pos += int(n)
	case 9, 10: // list, set
		h, err := w.byte()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		// Every element takes a byte at least.
		if n > maxThriftList || n > uint64(len(w.b)-w.pos) {
			return fmt.Errorf("%w: a list of %d elements", errThrift, n)
		}
		et := h & 0x0f
		for i := uint64(0); i < n; i++ {
			if et == 1 || et == 2 { // bool elements are one byte each
				if _, err := w.byte(); err != nil {
					return err
				}
				continue
			}
			if err := w.walkValue(et, path); err != nil {
				return err
			}
		}
	case 11: // map
		n, err := w.uvarint()
		if err != nil || n > maxThriftList || 2*n > uint64(len(w.b)-w.pos) {
			return errThrift
		}
		if n == 0 {
			return nil
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		for i := uint64(0); i < n; i++ {
			if err := w.walkValue(kv>>4, path); err != nil {
				return err
			}
			if err := w.walkValue(kv&0x0f, path); err != nil {
				return err
			}
		}
	case 12:
		return w.walkStruct(path)
	default:
		return fmt.Errorf("%w: type %d", errThrift, typ)
	}
	return nil
}

func (w *thriftWalker) report(path []int16, v int64) {
	if w.scalar != nil {
		w.scalar(path, v)
	}
}
