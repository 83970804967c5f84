package columnar

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

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

// parquetSchema derives a kind's Parquet schema from its columns, in their
// order: every scalar column optional, every list column an optional LIST
// group (repeated group "list" of a required "element"). It is built as
// the schema of a Go struct type made for the purpose (reflect.StructOf),
// which keeps the field order (a parquet.Group would sort it by name).
func parquetSchema(k *kind) *parquet.Schema {
	fields := make([]reflect.StructField, len(k.cols))
	for i, c := range k.cols {
		var t reflect.Type
		tag := c.name + ",optional"
		switch c.typ {
		case tInt64:
			t = reflect.TypeFor[*int64]()
		case tInt32:
			t = reflect.TypeFor[*int32]()
		case tFloat64:
			t = reflect.TypeFor[*float64]()
		case tString:
			t = reflect.TypeFor[*string]()
		case tFloat64List:
			t, tag = reflect.TypeFor[[]float64](), tag+",list"
		case tInt32List:
			t, tag = reflect.TypeFor[[]int32](), tag+",list"
		}
		fields[i] = reflect.StructField{Name: "C" + strconv.Itoa(i), Type: t, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	return parquet.NewSchema(k.parquetRoot, parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Elem().Interface()))
}

// Definition levels of the written schema: a scalar is null at 0 and
// present at 1; a list is null at 0, empty at 1 (one value at that
// level), and each element is at 2, the first with repetition level 0 and
// the others at 1.
const (
	defNull    = 0
	defPresent = 1
	defElement = 2
)

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

// parquetTable writes batches as a Parquet file: column by column, in
// runs of parquetChunkRows rows of parquet.Value (with their definition
// and repetition levels), cutting a row group every parquetRowGroupRows
// rows. This is what parquet-go's row writers do inside (they cut pages
// only between such runs), so the bytes are those a parquet-go row writer
// gives, without its per-row overhead.
type parquetTable struct {
	w         *parquet.Writer
	k         *kind
	h         model.Header
	groupRows int // rows in the current row group
	vals      []parquet.Value
	strs      map[string][]byte // the bytes of the strings written, a small vocabulary
}

// parquetChunkRows is how many rows of a column go to the column writer at
// once: parquet-go's own run length, so pages end where its writers end
// them.
const parquetChunkRows = 64

func newParquetTable(out io.Writer, k *kind, h *model.Header) *parquetTable {
	opts := []parquet.WriterOption{
		parquetSchema(k),
		parquet.CreatedBy("gangsim", version.Version, ""),
		parquet.MaxRowsPerRowGroup(parquetRowGroupRows),
		parquet.Compression(&fastSnappy{}),
	}
	keys, values := metadata(k, h)
	for i := range keys {
		opts = append(opts, parquet.KeyValueMetadata(keys[i], values[i]))
	}
	return &parquetTable{w: parquet.NewWriter(out, opts...), k: k, h: h.Clone(), strs: map[string][]byte{}}
}

// maxCachedStrings bounds parquetTable.strs; strings beyond it are copied.
const maxCachedStrings = 256

func (t *parquetTable) bytesOf(s string) []byte {
	if p, ok := t.strs[s]; ok {
		return p
	}
	p := []byte(s)
	if len(t.strs) < maxCachedStrings {
		t.strs[s] = p
	}
	return p
}

func (t *parquetTable) writeBatch(b *batch) error {
	for start := 0; start < b.n; {
		end := min(b.n, start+parquetRowGroupRows-t.groupRows)
		cols := t.w.ColumnWriters()
		for c := range b.k.cols {
			for lo := start; lo < end; lo += parquetChunkRows {
				t.vals = t.appendValues(t.vals[:0], b, c, lo, min(end, lo+parquetChunkRows))
				if _, err := cols[c].WriteRowValues(t.vals); err != nil {
					return err
				}
			}
		}
		clear(t.vals) // drop the references to the batch's strings
		t.groupRows += end - start
		start = end
		if t.groupRows == parquetRowGroupRows {
			if err := t.w.Flush(); err != nil {
				return err
			}
			t.groupRows = 0
		}
	}
	return nil
}

// appendValues appends the values of rows lo to hi of column c: one loop
// per type, this being the hottest loop of writing Parquet.
func (t *parquetTable) appendValues(vals []parquet.Value, b *batch, c, lo, hi int) []parquet.Value {
	d := &b.cols[c]
	null := parquet.NullValue().Level(0, defNull, c)
	switch b.k.cols[c].typ {
	case tInt64:
		for i := lo; i < hi; i++ {
			if d.valid[i] {
				vals = append(vals, parquet.Int64Value(d.ints[i]).Level(0, defPresent, c))
			} else {
				vals = append(vals, null)
			}
		}
	case tInt32:
		for i := lo; i < hi; i++ {
			if d.valid[i] {
				vals = append(vals, parquet.Int32Value(int32(d.ints[i])).Level(0, defPresent, c))
			} else {
				vals = append(vals, null)
			}
		}
	case tFloat64:
		for i := lo; i < hi; i++ {
			if d.valid[i] {
				vals = append(vals, parquet.DoubleValue(d.flts[i]).Level(0, defPresent, c))
			} else {
				vals = append(vals, null)
			}
		}
	case tString:
		for i := lo; i < hi; i++ {
			if d.valid[i] {
				vals = append(vals, parquet.ByteArrayValue(t.bytesOf(d.strs[i])).Level(0, defPresent, c))
			} else {
				vals = append(vals, null)
			}
		}
	case tFloat64List:
		for i := lo; i < hi; i++ {
			switch {
			case !d.valid[i]:
				vals = append(vals, null)
			case len(d.flists[i]) == 0:
				vals = append(vals, parquet.NullValue().Level(0, defPresent, c))
			}
			for k, v := range d.flists[i] {
				vals = append(vals, parquet.DoubleValue(v).Level(min(k, 1), defElement, c))
			}
		}
	case tInt32List:
		for i := lo; i < hi; i++ {
			switch {
			case !d.valid[i]:
				vals = append(vals, null)
			case len(d.ilists[i]) == 0:
				vals = append(vals, parquet.NullValue().Level(0, defPresent, c))
			}
			for k, v := range d.ilists[i] {
				vals = append(vals, parquet.Int32Value(v).Level(min(k, 1), defElement, c))
			}
		}
	}
	return vals
}

// close ends the file; a trailer joins the header in the footer's
// metadata, which is written last anyway.
func (t *parquetTable) close(trailer []model.HeaderLine) error {
	if len(trailer) > 0 {
		full := model.Header{Lines: append(t.h.Lines, trailer...)}
		keys, values := metadata(t.k, &full)
		for i := range keys {
			t.w.SetKeyValueMetadata(keys[i], values[i])
		}
	}
	return t.w.Close()
}

// parquetColumn is where a kind's column is in a file being read.
type parquetColumn struct {
	leaf int // leaf column index, -1 if the file lacks the column
	// list columns: the definition level at which the list is present
	// (below: null; at it, with one value: empty) and that of an element.
	present, element int
}

// parquetSource reads batches from a Parquet file of any writer: columns
// are found by name, and their physical types convert (int32 and int64,
// float and double) to the kind's.
type parquetSource struct {
	k      *kind
	r      *parquet.Reader
	h      model.Header
	cols   []parquetColumn
	b      *batch
	rows   []parquet.Row
	starts []int // starts[l]: index in the current row of leaf l's first value
	nLeaf  int
	row    int64 // rows read before the current batch
	total  int64 // rows the footer declares
}

func newParquetSource(in io.ReaderAt, size int64, k *kind) (src *parquetSource, err error) {
	defer recoverAs(&err, "malformed Parquet file")
	if err := checkParquet(in, size); err != nil {
		return nil, fmt.Errorf("reading Parquet file: %w", err)
	}
	f, err := parquet.OpenFile(in, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
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
	schema := f.Schema()
	top := schema.Fields()
	shapes := make([]parquetShape, len(top))
	for i, fl := range top {
		shapes[i] = shapeOf(schema, fl)
	}
	idx, err := matchColumns(k, len(top), func(i int) string { return top[i].Name() },
		func(i int, t colType) (string, bool) { return shapes[i].desc, shapes[i].readableAs(t) })
	if err != nil {
		return nil, err
	}
	// Batches are no longer than the file: parquet-go asked for rows past
	// the last reads every column's page header again for each missing row
	// (40 MB of garbage for a 1000-job outcomes file in a 4096-row batch).
	batchRows := 4096
	if n := f.NumRows(); n < int64(batchRows) {
		batchRows = max(int(n), 1)
	}
	s := &parquetSource{k: k, h: h, cols: make([]parquetColumn, len(k.cols)), b: newBatch(k, batchRows),
		rows: make([]parquet.Row, batchRows), nLeaf: len(schema.Columns()), total: f.NumRows()}
	for c, i := range idx {
		s.cols[c] = parquetColumn{leaf: -1}
		if i >= 0 {
			sh := shapes[i]
			s.cols[c] = parquetColumn{leaf: sh.leaf, present: sh.present, element: sh.element}
		}
	}
	s.starts = make([]int, s.nLeaf+1)
	s.r = parquet.NewReader(f)
	return s, nil
}

// parquetShape is what a top-level field of a Parquet file holds.
type parquetShape struct {
	desc    string       // for errors: "int64", "list<double>", "group"
	leaf    int          // its leaf column, -1 for a shape gangsim cannot read
	kind    parquet.Kind // the leaf's physical type
	list    bool
	present int // list: definition level at which the list is present
	element int // list: definition level of a present element
}

// shapeOf recognizes a scalar (an optional or required leaf) or a list in
// any of Parquet's encodings: a repeated leaf, a group of one repeated leaf
// (two levels) or a group of one repeated group of one leaf (three levels,
// the standard LIST).
func shapeOf(schema *parquet.Schema, f parquet.Field) parquetShape {
	path := []string{f.Name()}
	n := parquet.Node(f)
	present := 0
	if f.Optional() {
		present = 1
	}
	list := false
	switch {
	case f.Leaf() && f.Repeated():
		list = true
	case !f.Leaf():
		kids := f.Fields()
		if len(kids) != 1 || !kids[0].Repeated() {
			return parquetShape{desc: "group", leaf: -1}
		}
		list = true
		n = kids[0]
		path = append(path, kids[0].Name())
		if !n.Leaf() {
			kids = n.Fields()
			if len(kids) != 1 || !kids[0].Leaf() || kids[0].Repeated() {
				return parquetShape{desc: "group", leaf: -1}
			}
			n = kids[0]
			path = append(path, kids[0].Name())
		}
	}
	col, ok := schema.Lookup(path...)
	if !ok {
		return parquetShape{desc: "group", leaf: -1}
	}
	sh := parquetShape{leaf: col.ColumnIndex, kind: n.Type().Kind(), list: list, present: present, element: col.MaxDefinitionLevel}
	sh.desc = strings.ToLower(sh.kind.String())
	if list {
		sh.desc = "list<" + sh.desc + ">"
	}
	return sh
}

// readableAs reports whether the shape reads as a column of type t.
func (sh parquetShape) readableAs(t colType) bool {
	if sh.leaf < 0 || sh.list != t.isList() {
		return false
	}
	isInt := sh.kind == parquet.Int32 || sh.kind == parquet.Int64
	switch t {
	case tInt64, tInt32, tInt32List:
		return isInt
	case tFloat64, tFloat64List:
		return isInt || sh.kind == parquet.Float || sh.kind == parquet.Double
	case tString:
		return sh.kind == parquet.ByteArray
	}
	return false
}

func (s *parquetSource) header() model.Header { return s.h }

func (s *parquetSource) readBatch() (b *batch, err error) {
	defer recoverAs(&err, "malformed Parquet file")
	want := s.rows
	if rest := s.total - s.row; rest < int64(len(want)) {
		want = want[:max(rest, 0)]
	}
	if len(want) == 0 {
		return nil, io.EOF
	}
	n, err := s.r.ReadRows(want)
	if n == 0 {
		if err == nil || errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading Parquet rows: %w", err)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading Parquet rows: %w", err)
	}
	b = s.b
	b.reset()
	for i := 0; i < n; i++ {
		if err := s.appendRow(b, s.rows[i]); err != nil {
			return nil, fmt.Errorf("row %d: %w", s.row+int64(i)+1, err)
		}
	}
	s.row += int64(n)
	return b, nil
}

// appendRow converts one row of the file to a row of b.
func (s *parquetSource) appendRow(b *batch, row parquet.Row) error {
	// starts[l] is where leaf l's values begin; values come in leaf order.
	l := 0
	for j, v := range row {
		for l <= v.Column() && l < s.nLeaf {
			s.starts[l] = j
			l++
		}
	}
	for ; l <= s.nLeaf; l++ {
		s.starts[l] = len(row)
	}
	for c, spec := range s.k.cols {
		pc := s.cols[c]
		d := &b.cols[c]
		if pc.leaf < 0 {
			d.null(spec.typ)
			continue
		}
		vs := row[s.starts[pc.leaf]:s.starts[pc.leaf+1]]
		if len(vs) == 0 {
			return fmt.Errorf("column %s: no value", spec.name)
		}
		if !spec.typ.isList() {
			if err := appendParquetValue(d, spec.typ, vs[0]); err != nil {
				return fmt.Errorf("column %s: %w", spec.name, err)
			}
			continue
		}
		switch def := vs[0].DefinitionLevel(); {
		case len(vs) == 1 && def < pc.present:
			d.null(spec.typ)
			continue
		case len(vs) == 1 && def == pc.present:
			vs = vs[:0] // an empty list
		}
		for _, v := range vs {
			if v.DefinitionLevel() != pc.element || v.IsNull() {
				return fmt.Errorf("column %s: a null element in a list", spec.name)
			}
		}
		if spec.typ == tFloat64List {
			list := make([]float64, len(vs))
			for k, v := range vs {
				list[k] = parquetFloat(v)
			}
			d.flist(list, true)
		} else {
			list := make([]int32, len(vs))
			for k, v := range vs {
				x := parquetInt(v)
				if x < math.MinInt32 || x > math.MaxInt32 {
					return fmt.Errorf("column %s: %d does not fit in 32 bits", spec.name, x)
				}
				list[k] = int32(x)
			}
			d.ilist(list, true)
		}
	}
	b.n++
	return nil
}

// appendParquetValue appends a scalar value (or its null) to a column of
// type t.
func appendParquetValue(d *colData, t colType, v parquet.Value) error {
	if v.IsNull() {
		d.null(t)
		return nil
	}
	switch t {
	case tInt64, tInt32:
		x := parquetInt(v)
		if t == tInt32 && (x < math.MinInt32 || x > math.MaxInt32) {
			return fmt.Errorf("%d does not fit in 32 bits", x)
		}
		d.int(x, true)
	case tFloat64:
		d.flt(parquetFloat(v), true)
	case tString:
		d.str(string(v.ByteArray()), true)
	}
	return nil
}

func parquetInt(v parquet.Value) int64 {
	if v.Kind() == parquet.Int32 {
		return int64(v.Int32())
	}
	return v.Int64()
}

func parquetFloat(v parquet.Value) float64 {
	switch v.Kind() {
	case parquet.Float:
		return float64(v.Float())
	case parquet.Double:
		return v.Double()
	}
	return float64(parquetInt(v))
}

// trailer is empty: a Parquet file's trailer is in its footer's header.
func (s *parquetSource) trailer() []model.HeaderLine { return nil }

func (s *parquetSource) close() error { return s.r.Close() }

// recoverAs turns a panic of a decoding library on malformed input into an
// error: what the bytes of a file cannot be allowed to do is crash the
// command.
func recoverAs(err *error, what string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: %v", what, p)
	}
}
