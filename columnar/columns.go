package columnar

// colType is the logical type of a column.
type colType uint8

const (
	tInt64       colType = iota // 64-bit integer
	tInt32                      // 32-bit integer
	tFloat64                    // double
	tString                     // UTF-8 string
	tFloat64List                // list of doubles
	tInt32List                  // list of 32-bit integers
)

var typeNames = [...]string{"int64", "int32", "double", "string", "list<double>", "list<int32>"}

func (t colType) String() string { return typeNames[t] }

// colSpec describes one column: its snake_case name (units in the name),
// its type and what it holds. Every column is nullable.
type colSpec struct {
	name, doc string
	typ       colType
}

// kind is one table schema.
type kind struct {
	name   string // "trace", "outcomes", "timeseries"
	schema string // value of KeySchema
	cols   []colSpec
	index  map[string]int // column index by name
}

func newKind(name, schema string, cols []colSpec) *kind {
	k := &kind{name: name, schema: schema, cols: cols, index: map[string]int{}}
	for i, c := range cols {
		k.index[c.name] = i
	}
	return k
}

// colData holds one column of a batch. Values of a null row are zero.
type colData struct {
	valid []bool
	ints  []int64     // tInt64, tInt32
	flts  []float64   // tFloat64
	strs  []string    // tString
	flist [][]float64 // tFloat64List
	ilist [][]int32   // tInt32List
}

// batch is a run of rows of one kind, column by column: the unit Arrow
// record batches and CSV blocks are written and read in.
type batch struct {
	k    *kind
	n    int
	cols []colData
}

func newBatch(k *kind, capacity int) *batch {
	b := &batch{k: k, cols: make([]colData, len(k.cols))}
	for i, c := range k.cols {
		d := &b.cols[i]
		d.valid = make([]bool, 0, capacity)
		switch c.typ {
		case tInt64, tInt32:
			d.ints = make([]int64, 0, capacity)
		case tFloat64:
			d.flts = make([]float64, 0, capacity)
		case tString:
			d.strs = make([]string, 0, capacity)
		case tFloat64List:
			d.flist = make([][]float64, 0, capacity)
		case tInt32List:
			d.ilist = make([][]int32, 0, capacity)
		}
	}
	return b
}

// reset empties the batch, keeping its buffers.
func (b *batch) reset() {
	b.n = 0
	for i := range b.cols {
		d := &b.cols[i]
		d.valid = d.valid[:0]
		d.ints = d.ints[:0]
		d.flts = d.flts[:0]
		clear(d.strs)
		d.strs = d.strs[:0]
		clear(d.flist)
		d.flist = d.flist[:0]
		clear(d.ilist)
		d.ilist = d.ilist[:0]
	}
}

// Appenders: each appends one value (or a null) to column c of the row
// being built; a row is complete when every column got one (endRow).

func (b *batch) int(c int, v int64, ok bool) {
	d := &b.cols[c]
	d.valid = append(d.valid, ok)
	if !ok {
		v = 0
	}
	d.ints = append(d.ints, v)
}

func (b *batch) flt(c int, v float64, ok bool) {
	d := &b.cols[c]
	d.valid = append(d.valid, ok)
	if !ok {
		v = 0
	}
	d.flts = append(d.flts, v)
}

func (b *batch) str(c int, v string, ok bool) {
	d := &b.cols[c]
	d.valid = append(d.valid, ok)
	if !ok {
		v = ""
	}
	d.strs = append(d.strs, v)
}

func (b *batch) flist(c int, v []float64, ok bool) {
	d := &b.cols[c]
	d.valid = append(d.valid, ok)
	if !ok {
		v = nil
	}
	d.flist = append(d.flist, v)
}

func (b *batch) ilist(c int, v []int32, ok bool) {
	d := &b.cols[c]
	d.valid = append(d.valid, ok)
	if !ok {
		v = nil
	}
	d.ilist = append(d.ilist, v)
}

func (b *batch) endRow() { b.n++ }

// nullColumn fills column c with n nulls: a column a foreign file lacks.
func (b *batch) nullColumn(c, n int) {
	for i := 0; i < n; i++ {
		switch b.k.cols[c].typ {
		case tInt64, tInt32:
			b.int(c, 0, false)
		case tFloat64:
			b.flt(c, 0, false)
		case tString:
			b.str(c, "", false)
		case tFloat64List:
			b.flist(c, nil, false)
		case tInt32List:
			b.ilist(c, nil, false)
		}
	}
}

// Getters for row i of column c.

func (b *batch) getInt(c, i int) (int64, bool)   { d := &b.cols[c]; return d.ints[i], d.valid[i] }
func (b *batch) getFlt(c, i int) (float64, bool) { d := &b.cols[c]; return d.flts[i], d.valid[i] }
func (b *batch) getStr(c, i int) (string, bool)  { d := &b.cols[c]; return d.strs[i], d.valid[i] }
func (b *batch) getFList(c, i int) ([]float64, bool) {
	d := &b.cols[c]
	return d.flist[i], d.valid[i]
}
func (b *batch) getIList(c, i int) ([]int32, bool) {
	d := &b.cols[c]
	return d.ilist[i], d.valid[i]
}
