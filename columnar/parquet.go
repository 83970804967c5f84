package columnar

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
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

// maxCachedStrings bounds the strings a Parquet table or source keeps
// (parquetTable.strs, parquetSource.strs); those beyond it are copied.
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

// parquetColumn is where a kind's column is in a file being read, and its
// reader in the current row group.
type parquetColumn struct {
	leaf int // leaf column index, -1 if the file lacks the column
	// list columns: the definition level at which the list is present
	// (below: null; at it, with one value: empty) and that of an element.
	present, element int

	values parquet.ColumnChunkValueReader // nil before the first row group
	buf    []parquet.Value                // values read, buf[pos:n] not yet taken
	pos, n int
	err    error // the chunk's reading error, if it failed
}

// next returns the column's next value in the current row group; ok is
// false when the row group's chunk has no more. A string value's bytes
// are the page's: they hold until the following call only.
func (pc *parquetColumn) next() (v parquet.Value, ok bool) {
	if !pc.fill() {
		return v, false
	}
	v = pc.buf[pc.pos]
	pc.pos++
	return v, true
}

// continues reports whether the column's next value belongs to the same
// list as the last one taken (its repetition level is not 0).
func (pc *parquetColumn) continues() bool {
	return pc.fill() && pc.buf[pc.pos].RepetitionLevel() != 0
}

// fill makes sure that buf holds a value not yet taken, reading the next
// ones from the chunk when it does not, and reports whether it could: when
// it could not, the chunk has ended or failed (missing says which).
func (pc *parquetColumn) fill() bool {
	if pc.pos < pc.n {
		return true
	}
	if pc.err != nil {
		return false
	}
	n, err := pc.values.ReadValues(pc.buf)
	if n == 0 && err != nil && !errors.Is(err, io.EOF) {
		pc.err = fmt.Errorf("reading values: %w", err)
	}
	pc.pos, pc.n = 0, n
	return n > 0
}

// missing is the error for a value fill could not give: the chunk's
// reading error, or its end before the row group's rows.
func (pc *parquetColumn) missing() error {
	if pc.err != nil {
		return pc.err
	}
	return errors.New("no value")
}

// parquetValueBuffer is how many values a column reads at once: a file's
// columns each have a buffer, so it is small.
const parquetValueBuffer = 128

// parquetSource reads batches from a Parquet file of any writer: columns
// are found by name, and their physical types convert (int32 and int64,
// float and double) to the kind's. It reads the file column by column,
// one row group at a time (a batch never spans two): parquet-go's row
// reader assembles every row's values first, which took most of the time
// of reading a run back.
type parquetSource struct {
	k         *kind
	groups    []parquet.RowGroup
	h         model.Header
	hWhere    []string // where each line of h is in the metadata
	cols      []parquetColumn
	b         *batch
	batchRows int
	group     int   // the next row group to open
	groupLeft int64 // rows of the open row group not yet read
	row       int64 // rows read before the current batch
	total     int64 // rows the footer declares
	strs      map[string]string
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
	h, where, err := headerFrom(k, f.Lookup, keys)
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
	// Batches are no longer than the file, whose row groups are read
	// whole when they are short.
	batchRows := 4096
	if n := f.NumRows(); n < int64(batchRows) {
		batchRows = max(int(n), 1)
	}
	s := &parquetSource{k: k, groups: f.RowGroups(), h: h, hWhere: where, cols: make([]parquetColumn, len(k.cols)),
		b: newBatch(k, batchRows), batchRows: batchRows, total: f.NumRows(), strs: map[string]string{}}
	for c, i := range idx {
		s.cols[c] = parquetColumn{leaf: -1}
		if i >= 0 {
			sh := shapes[i]
			s.cols[c] = parquetColumn{leaf: sh.leaf, present: sh.present, element: sh.element,
				buf: make([]parquet.Value, parquetValueBuffer)}
		}
	}
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

func (s *parquetSource) headerWhere(i int) (int, string) { return 0, s.hWhere[i] }

func (s *parquetSource) readBatch() (b *batch, err error) {
	defer recoverAs(&err, "malformed Parquet file")
	if s.row >= s.total {
		// The footer's row count ends the table, even where a row group
		// declares more (as a crafted file can).
		return nil, io.EOF
	}
	for s.groupLeft == 0 {
		if s.group == len(s.groups) {
			return nil, io.EOF
		}
		if err := s.openGroup(); err != nil {
			return nil, err
		}
	}
	want := int(min(int64(s.batchRows), s.groupLeft, s.total-s.row))
	b = s.b
	b.reset()
	for c, spec := range s.k.cols {
		if s.cols[c].leaf < 0 {
			b.nullColumn(c, want)
			continue
		}
		if i, err := s.readColumn(&b.cols[c], c, want); err != nil {
			return nil, fmt.Errorf("row %d: column %s: %w", s.row+int64(i)+1, spec.name, err)
		}
	}
	b.n = want
	s.row += int64(want)
	s.groupLeft -= int64(want)
	return b, nil
}

// openGroup starts reading the next row group: every column the kind
// reads from the file from its chunk in the group.
func (s *parquetSource) openGroup() error {
	g := s.groups[s.group]
	chunks := g.ColumnChunks()
	for c := range s.cols {
		pc := &s.cols[c]
		if pc.leaf < 0 {
			continue
		}
		if pc.leaf >= len(chunks) {
			return fmt.Errorf("row group %d has %d columns", s.group+1, len(chunks))
		}
		if pc.values != nil {
			pc.values.Close()
		}
		pc.values = parquet.NewColumnChunkValueReader(chunks[pc.leaf])
		pc.pos, pc.n, pc.err = 0, 0, nil
	}
	if g.NumRows() < 0 {
		return fmt.Errorf("row group %d declares %d rows", s.group+1, g.NumRows())
	}
	s.group++
	s.groupLeft = g.NumRows()
	return nil
}

// readColumn appends n rows of column c to d, from the file's column in
// the open row group. On an error, i is the row (in the batch) it is in.
func (s *parquetSource) readColumn(d *colData, c, n int) (i int, err error) {
	pc := &s.cols[c]
	t := s.k.cols[c].typ
	if !t.isList() {
		// Scalars: the values buffered, a run at a time.
		for i < n {
			if !pc.fill() {
				return i, pc.missing()
			}
			run := pc.buf[pc.pos:min(pc.n, pc.pos+n-i)]
			if k, err := s.appendValues(d, t, run); err != nil {
				return i + k, err
			}
			pc.pos += len(run)
			i += len(run)
		}
		return n, nil
	}
	var flist []float64
	var ilist []int32
	for ; i < n; i++ {
		v, ok := pc.next()
		if !ok {
			return i, pc.missing()
		}
		if v.RepetitionLevel() != 0 {
			return i, errors.New("a list's value where a row should begin")
		}
		// A single value at or below the list's level: a null or an
		// empty list; elements are at the element's level.
		if def := v.DefinitionLevel(); def <= pc.present && !pc.continues() {
			if def < pc.present {
				d.null(t)
			} else if t == tFloat64List {
				d.flist([]float64{}, true)
			} else {
				d.ilist([]int32{}, true)
			}
			continue
		}
		flist, ilist = flist[:0], ilist[:0]
		for first := true; first || pc.continues(); first = false {
			if !first {
				v, _ = pc.next()
			}
			if v.DefinitionLevel() != pc.element || v.IsNull() {
				return i, errors.New("a null element in a list")
			}
			if t == tFloat64List {
				flist = append(flist, parquetFloat(v))
				continue
			}
			x := parquetInt(v)
			if x < math.MinInt32 || x > math.MaxInt32 {
				return i, fmt.Errorf("%d does not fit in 32 bits", x)
			}
			ilist = append(ilist, int32(x))
		}
		if pc.err != nil { // the list's end not known
			return i, pc.err
		}
		if t == tFloat64List {
			d.flist(slices.Clone(flist), true)
		} else {
			d.ilist(slices.Clone(ilist), true)
		}
	}
	return n, nil
}

// appendValues appends scalar values (or their nulls) to a column of type
// t, one loop per type: a column's values are most of what reading a file
// does. On an error, k is the value's index in vs.
func (s *parquetSource) appendValues(d *colData, t colType, vs []parquet.Value) (k int, err error) {
	switch t {
	case tInt64, tInt32:
		for k, v := range vs {
			if v.IsNull() {
				d.int(0, false)
				continue
			}
			x := parquetInt(v)
			if t == tInt32 && (x < math.MinInt32 || x > math.MaxInt32) {
				return k, fmt.Errorf("%d does not fit in 32 bits", x)
			}
			d.int(x, true)
		}
	case tFloat64:
		for _, v := range vs {
			if v.IsNull() {
				d.flt(0, false)
				continue
			}
			d.flt(parquetFloat(v), true)
		}
	case tString:
		for _, v := range vs {
			if v.IsNull() {
				d.str("", false)
				continue
			}
			d.str(s.intern(v.ByteArray()), true)
		}
	}
	return len(vs), nil
}

// intern returns b as a string, the same string for the same bytes while
// the source has seen fewer than maxCachedStrings: string columns (pattern,
// comm, status, reason) hold a few words, each repeated on every row.
func (s *parquetSource) intern(b []byte) string {
	if v, ok := s.strs[string(b)]; ok {
		return v
	}
	v := string(b)
	if len(s.strs) < maxCachedStrings {
		s.strs[v] = v
	}
	return v
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

// rows is the number of rows the footer declares (reader.RowsHint).
func (s *parquetSource) rows() int64 { return max(s.total, 0) }

// trailer is empty: a Parquet file's trailer is in its footer's header.
func (s *parquetSource) trailer() []model.HeaderLine { return nil }

func (s *parquetSource) close() error {
	var errs []error
	for c := range s.cols {
		if v := s.cols[c].values; v != nil {
			errs = append(errs, v.Close())
		}
	}
	return errors.Join(errs...)
}

// recoverAs turns a panic of a decoding library on malformed input into an
// error: what the bytes of a file cannot be allowed to do is crash the
// command.
func recoverAs(err *error, what string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: %v", what, p)
	}
}
