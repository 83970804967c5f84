package columnar

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

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

func (t colType) isList() bool { return t == tFloat64List || t == tInt32List }

// colSpec describes one column: its snake_case name (units in the name),
// its type and what it holds. Every column is nullable.
type colSpec struct {
	name, doc string
	typ       colType
	// swf is the SWF field the column holds (trace tables), 0 for others.
	// A trace reader does not fail on a value of such a column it cannot
	// read: it reports it (TraceReader.UnreadValues) for the SWF rules to
	// judge.
	swf model.Field
	// app marks a column of an application attribute (trace tables): a
	// value a trace reader cannot read is reported as unread too, with
	// the column's name, for swf.Checker to refuse (or skip under
	// Lenient).
	app bool
}

// kind is one table schema, as the encodings see it: its columns in order.
type kind struct {
	name   string // "trace", "outcomes", "timeseries"
	schema string // value of KeySchema
	// parquetRoot names the Parquet schema's root group, as gangsim's
	// files have always named it.
	parquetRoot string
	cols        []colSpec
	index       map[string]int // column index by name
	// required lists the columns a file must have to be read as this kind;
	// each entry is a set of alternatives, one of which must be present.
	required [][]string
}

// field is one column of a table whose rows are values of type R: the
// column's spec and how a value moves between an R and the column. The
// constructors below (int64Field, secondsField, swfSeconds...) build them.
type field[R any] struct {
	colSpec
	// put appends r's value, or a null, to d. It fails for a value the
	// column cannot hold.
	put func(d *colData, r *R) error
	// get sets r from row i of d; nil for a derived column that is written
	// but not read back (it follows from the others).
	get func(d *colData, i int, r *R) error
}

// table is a kind whose rows are values of type R.
type table[R any] struct {
	*kind
	fields []field[R]
}

// newTable declares a table kind: its name, schema version, Parquet root
// name, the columns that must be present to read it, and its columns in
// order, each declared once.
func newTable[R any](name, schema, parquetRoot string, required [][]string, fields ...field[R]) *table[R] {
	k := &kind{name: name, schema: schema, parquetRoot: parquetRoot, index: map[string]int{}, required: required}
	for i, f := range fields {
		if _, dup := k.index[f.name]; dup {
			panic("columnar: column " + f.name + " declared twice in " + name)
		}
		k.cols = append(k.cols, f.colSpec)
		k.index[f.name] = i
	}
	for _, alts := range required {
		for _, n := range alts {
			if _, ok := k.index[n]; !ok {
				panic("columnar: required column " + n + " is not a column of " + name)
			}
		}
	}
	return &table[R]{kind: k, fields: fields}
}

// appendRow appends r as a row of b.
func (t *table[R]) appendRow(b *batch, r *R) error {
	for c := range t.fields {
		if err := t.fields[c].put(&b.cols[c], r); err != nil {
			b.truncate(b.n) // drop the partial row
			return fmt.Errorf("column %s: %w", t.fields[c].name, err)
		}
	}
	b.n++
	return nil
}

// rowAt sets *r to row i of b. (The caller provides r: a local R whose
// address goes to the fields' functions would be allocated per row.) A
// value a column cannot take fails, unless unread is not nil and the
// column holds an SWF field: the value's text then goes to unread and the
// field stays unset.
func (t *table[R]) rowAt(b *batch, i int, r *R, unread *[]model.UnreadValue) error {
	var zero R
	*r = zero
	if err := b.badAt(i); err != nil {
		return err
	}
	for c := range t.fields {
		if get := t.fields[c].get; get != nil {
			if err := get(&b.cols[c], i, r); err != nil {
				if f := t.fields[c].swf; f != 0 && unread != nil {
					*unread = append(*unread, model.UnreadValue{Field: f, Text: b.cols[c].text(t.fields[c].typ, i)})
					continue
				}
				if t.fields[c].app && unread != nil {
					*unread = append(*unread, model.UnreadValue{Column: t.fields[c].name, Text: err.Error()})
					continue
				}
				return &columnError{t.fields[c].name, err}
			}
		}
	}
	return nil
}

// columnError is a value of a row that does not convert to its column's
// type.
type columnError struct {
	column string
	err    error
}

func (e *columnError) Error() string { return "column " + e.column + ": " + e.err.Error() }
func (e *columnError) Unwrap() error { return e.err }

// text formats the value of row i of a column of type t, for an unread
// value: an integer, or a float as Go prints it ("NaN", "+Inf").
func (d *colData) text(t colType, i int) string {
	switch t {
	case tInt64, tInt32:
		return strconv.FormatInt(d.ints[i], 10)
	case tFloat64:
		return strconv.FormatFloat(d.flts[i], 'g', -1, 64)
	case tString:
		return d.strs[i]
	}
	return ""
}

// appField marks f as the column of an application attribute.
func appField[R any](f field[R]) field[R] { f.app = true; return f }

// checkSeconds refuses a double of seconds that is not a time of an
// input: a NaN, an infinity, or beyond model.MaxSeconds.
func checkSeconds(v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%v is not a time", v)
	case !model.InRange(fromSecs(v)):
		return fmt.Errorf("%v s is beyond the range of every time (%d s)", v, int64(model.MaxSeconds))
	}
	return nil
}

// appSeconds is a double column of seconds holding an application
// attribute's time; a value checkSeconds refuses is an error.
func appSeconds[R any](name, doc string, get func(*R) (model.Time, bool), set func(*R, model.Time)) field[R] {
	f := secondsField(name, doc, get, set)
	f.get = func(d *colData, i int, r *R) error {
		if !d.valid[i] {
			return nil
		}
		if err := checkSeconds(d.flts[i]); err != nil {
			return err
		}
		set(r, fromSecs(d.flts[i]))
		return nil
	}
	return appField(f)
}

// appSecondsList is secondsListField for an application attribute: an
// element checkSeconds refuses is an error.
func appSecondsList[R any](name, doc string, get func(*R) []model.Time, set func(*R, []model.Time)) field[R] {
	f := secondsListField(name, doc, get, set)
	plain := f.get
	f.get = func(d *colData, i int, r *R) error {
		if d.valid[i] {
			for _, v := range d.flists[i] {
				if err := checkSeconds(v); err != nil {
					return err
				}
			}
		}
		return plain(d, i, r)
	}
	return appField(f)
}

// appFloat is a double column of an application attribute; a NaN or an
// infinity is an error.
func appFloat[R any](name, doc string, get func(*R) (float64, bool), set func(*R, float64)) field[R] {
	f := float64Field(name, doc, get, set)
	f.get = func(d *colData, i int, r *R) error {
		if !d.valid[i] {
			return nil
		}
		if v := d.flts[i]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%v is not a number", v)
		}
		set(r, d.flts[i])
		return nil
	}
	return appField(f)
}

// swfField marks f as the column of SWF field sf.
func swfField[R any](sf model.Field, f field[R]) field[R] { f.swf = sf; return f }

// Field constructors. Each takes the column's name (units in the name)
// and doc, a function returning a row's value and whether it is present (a
// null otherwise), and a function setting a row from a value read.

// int64Field is an int64 column; set may refuse a value out of its range.
func int64Field[R any](name, doc string, get func(*R) (int64, bool), set func(*R, int64) error) field[R] {
	return field[R]{colSpec: colSpec{name: name, doc: doc, typ: tInt64},
		put: func(d *colData, r *R) error { v, ok := get(r); d.int(v, ok); return nil },
		get: func(d *colData, i int, r *R) error {
			if d.valid[i] {
				return set(r, d.ints[i])
			}
			return nil
		}}
}

// int32Field is an int32 column: writing a value beyond 32 bits fails.
func int32Field[R any](name, doc string, get func(*R) (int64, bool), set func(*R, int64) error) field[R] {
	return field[R]{colSpec: colSpec{name: name, doc: doc, typ: tInt32},
		put: func(d *colData, r *R) error {
			v, ok := get(r)
			if ok && (v < math.MinInt32 || v > math.MaxInt32) {
				return fmt.Errorf("%d does not fit in 32 bits", v)
			}
			d.int(v, ok)
			return nil
		},
		get: func(d *colData, i int, r *R) error {
			if d.valid[i] {
				return set(r, d.ints[i])
			}
			return nil
		}}
}

func float64Field[R any](name, doc string, get func(*R) (float64, bool), set func(*R, float64)) field[R] {
	return field[R]{colSpec: colSpec{name: name, doc: doc, typ: tFloat64},
		put: func(d *colData, r *R) error { v, ok := get(r); d.flt(v, ok); return nil },
		get: func(d *colData, i int, r *R) error {
			if d.valid[i] {
				set(r, d.flts[i])
			}
			return nil
		}}
}

// secondsField is a double column of seconds holding a model.Time. A
// value that is no simulated time, a NaN, an infinity or one beyond
// model.Horizon (which a replay never reaches), is an error: read as a
// saturated or zero time it would pass for data.
func secondsField[R any](name, doc string, get func(*R) (model.Time, bool), set func(*R, model.Time)) field[R] {
	f := float64Field(name, doc,
		func(r *R) (float64, bool) { t, ok := get(r); return secs(t), ok },
		func(r *R, v float64) { set(r, fromSecs(v)) })
	f.get = func(d *colData, i int, r *R) error {
		if !d.valid[i] {
			return nil
		}
		v := d.flts[i]
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("%v is not a time", v)
		case math.Abs(v) > secs(model.Horizon):
			return fmt.Errorf("%v s is beyond any simulated time (%v)", v, model.Horizon)
		}
		set(r, fromSecs(v))
		return nil
	}
	return f
}

// stringField is a string column; set may refuse a value (an unknown name).
func stringField[R any](name, doc string, get func(*R) (string, bool), set func(*R, string) error) field[R] {
	return field[R]{colSpec: colSpec{name: name, doc: doc, typ: tString},
		put: func(d *colData, r *R) error { v, ok := get(r); d.str(v, ok); return nil },
		get: func(d *colData, i int, r *R) error {
			if d.valid[i] {
				return set(r, d.strs[i])
			}
			return nil
		}}
}

// derived marks a column as written only: its value follows from the
// others, so it is not read back.
func derived[R any](f field[R]) field[R] { f.get = nil; return f }

// secondsListField is a list<double> column of seconds holding a
// []model.Time; an empty list is a null.
func secondsListField[R any](name, doc string, get func(*R) []model.Time, set func(*R, []model.Time)) field[R] {
	return field[R]{colSpec: colSpec{name: name, doc: doc, typ: tFloat64List},
		put: func(d *colData, r *R) error {
			ts := get(r)
			if len(ts) == 0 {
				d.flist(nil, false)
				return nil
			}
			v := make([]float64, len(ts))
			for i, t := range ts {
				v[i] = secs(t)
			}
			d.flist(v, true)
			return nil
		},
		get: func(d *colData, i int, r *R) error {
			if v := d.flists[i]; d.valid[i] && len(v) > 0 {
				ts := make([]model.Time, len(v))
				for k, s := range v {
					ts[k] = fromSecs(s)
				}
				set(r, ts)
			}
			return nil
		}}
}

// indexListField is a list<int32> column of non-negative indices holding
// a []int; an empty list is a null.
func indexListField[R any](name, doc string, get func(*R) []int, set func(*R, []int)) field[R] {
	return field[R]{colSpec: colSpec{name: name, doc: doc, typ: tInt32List},
		put: func(d *colData, r *R) error {
			xs := get(r)
			if len(xs) == 0 {
				d.ilist(nil, false)
				return nil
			}
			v := make([]int32, len(xs))
			for i, x := range xs {
				if x < 0 || x > math.MaxInt32 {
					return fmt.Errorf("%d out of range", x)
				}
				v[i] = int32(x)
			}
			d.ilist(v, true)
			return nil
		},
		get: func(d *colData, i int, r *R) error {
			if v := d.ilists[i]; d.valid[i] && len(v) > 0 {
				xs := make([]int, len(v))
				for k, x := range v {
					xs[k] = int(x)
				}
				set(r, xs)
			}
			return nil
		}}
}

// enumField is a string column of a small enumeration whose values print
// with String; names lists the values in order, so that reading maps a
// name back to its value.
func enumField[R any, E interface {
	~uint8
	String() string
}](name, doc string, values []E, get func(*R) (E, bool), set func(*R, E)) field[R] {
	return stringField(name, doc,
		func(r *R) (string, bool) { e, ok := get(r); return e.String(), ok },
		func(r *R, s string) error {
			for _, e := range values {
				if e.String() == s {
					set(r, e)
					return nil
				}
			}
			names := make([]string, len(values))
			for i, e := range values {
				names[i] = e.String()
			}
			return fmt.Errorf("unknown value %q (want %s)", s, strings.Join(names, ", "))
		})
}

// SWF fields of a trace: present when the job's Known set has the field,
// and marking it known when read.

func swfInt64(name string, f model.Field, doc string, p func(*model.Job) *int64) field[model.Job] {
	return swfField(f, int64Field(name, doc,
		func(j *model.Job) (int64, bool) { return *p(j), j.Known.Has(f) },
		func(j *model.Job, v int64) error { *p(j) = v; j.Known = j.Known.With(f); return nil }))
}

func swfInt32(name string, f model.Field, doc string, p func(*model.Job) *int) field[model.Job] {
	return swfField(f, int32Field(name, doc,
		func(j *model.Job) (int64, bool) { return int64(*p(j)), j.Known.Has(f) },
		func(j *model.Job, v int64) error {
			if int64(int(v)) != v {
				return fmt.Errorf("%d out of range", v)
			}
			*p(j) = int(v)
			j.Known = j.Known.With(f)
			return nil
		}))
}

// count returns a setter of an int count, for int32Field and int64Field.
func count[R any](p func(*R) *int) func(*R, int64) error {
	return func(r *R, v int64) error {
		if int64(int(v)) != v {
			return fmt.Errorf("%d out of range", v)
		}
		*p(r) = int(v)
		return nil
	}
}

// swfSeconds is a double column of seconds holding an SWF time field; a
// NaN, an infinity or a value beyond model.MaxSeconds is no time (an
// error, so that a trace reader reports it as unread, and the SWF rules
// refuse it as out of range with its text).
func swfSeconds(name string, f model.Field, doc string, p func(*model.Job) *model.Time) field[model.Job] {
	fl := secondsField(name, doc,
		func(j *model.Job) (model.Time, bool) { return *p(j), j.Known.Has(f) },
		func(j *model.Job, v model.Time) { *p(j) = v; j.Known = j.Known.With(f) })
	fl.get = func(d *colData, i int, j *model.Job) error {
		if !d.valid[i] {
			return nil
		}
		if err := checkSeconds(d.flts[i]); err != nil {
			return err
		}
		*p(j) = fromSecs(d.flts[i])
		j.Known = j.Known.With(f)
		return nil
	}
	return swfField(f, fl)
}

// colData holds one column of a batch. Values of a null row are zero.
type colData struct {
	valid  []bool
	ints   []int64     // tInt64, tInt32
	flts   []float64   // tFloat64
	strs   []string    // tString
	flists [][]float64 // tFloat64List
	ilists [][]int32   // tInt32List
}

// Appenders: each appends one value, or a null when ok is false.

func (d *colData) int(v int64, ok bool) {
	d.valid = append(d.valid, ok)
	if !ok {
		v = 0
	}
	d.ints = append(d.ints, v)
}

func (d *colData) flt(v float64, ok bool) {
	d.valid = append(d.valid, ok)
	if !ok {
		v = 0
	}
	d.flts = append(d.flts, v)
}

func (d *colData) str(v string, ok bool) {
	d.valid = append(d.valid, ok)
	if !ok {
		v = ""
	}
	d.strs = append(d.strs, v)
}

func (d *colData) flist(v []float64, ok bool) {
	d.valid = append(d.valid, ok)
	if !ok {
		v = nil
	}
	d.flists = append(d.flists, v)
}

func (d *colData) ilist(v []int32, ok bool) {
	d.valid = append(d.valid, ok)
	if !ok {
		v = nil
	}
	d.ilists = append(d.ilists, v)
}

// null appends a null to a column of type t.
func (d *colData) null(t colType) {
	switch t {
	case tInt64, tInt32:
		d.int(0, false)
	case tFloat64:
		d.flt(0, false)
	case tString:
		d.str("", false)
	case tFloat64List:
		d.flist(nil, false)
	case tInt32List:
		d.ilist(nil, false)
	}
}

// truncate keeps the first n values.
func (d *colData) truncate(n int) {
	if len(d.valid) <= n {
		return
	}
	d.valid = d.valid[:n]
	if len(d.ints) > n {
		d.ints = d.ints[:n]
	}
	if len(d.flts) > n {
		d.flts = d.flts[:n]
	}
	if len(d.strs) > n {
		clear(d.strs[n:])
		d.strs = d.strs[:n]
	}
	if len(d.flists) > n {
		clear(d.flists[n:])
		d.flists = d.flists[:n]
	}
	if len(d.ilists) > n {
		clear(d.ilists[n:])
		d.ilists = d.ilists[:n]
	}
}

// batch is a run of rows of one kind, column by column: the unit every
// encoding writes and reads.
type batch struct {
	k    *kind
	n    int
	cols []colData
	// lines[i] is the file line of row i (CSV), else empty.
	lines []int
	// unread are the cells of SWF columns a CSV trace reader could not
	// parse as their type, by row (nulls in cols).
	unread []unreadCell
	// bad are the cells of other columns a CSV reader could not parse as
	// their type (nulls in cols): each makes its row an error.
	bad []badCell
}

// badCell is a cell that could not be parsed as its column's type.
type badCell struct {
	row    int
	column string
	err    error
}

// badAt returns the first bad cell of row i as a *columnError, nil if
// there is none.
func (b *batch) badAt(i int) error {
	for _, c := range b.bad {
		if c.row == i {
			return &columnError{c.column, c.err}
		}
	}
	return nil
}

// unreadCell is a cell of an SWF column that could not be parsed.
type unreadCell struct {
	row int
	v   model.UnreadValue
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
			d.flists = make([][]float64, 0, capacity)
		case tInt32List:
			d.ilists = make([][]int32, 0, capacity)
		}
	}
	return b
}

// reset empties the batch, keeping its buffers.
func (b *batch) reset() {
	b.truncate(0)
	b.lines, b.unread, b.bad = b.lines[:0], b.unread[:0], b.bad[:0]
}

// truncate keeps the first n rows.
func (b *batch) truncate(n int) {
	b.n = n
	for i := range b.cols {
		b.cols[i].truncate(n)
	}
}

// nullColumn fills column c with n nulls: a column a foreign file lacks.
func (b *batch) nullColumn(c, n int) {
	d := &b.cols[c]
	t := b.k.cols[c].typ
	d.valid = slices.Grow(d.valid, n)
	for i := 0; i < n; i++ {
		d.null(t)
	}
}

func secs(t model.Time) float64 { return t.Seconds() }

// fromSecs converts seconds read from a file to Time, exactly for any value
// written by secs.
func fromSecs(s float64) model.Time { return model.FromSecondsFloat(s) }
