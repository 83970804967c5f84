package analysis

import (
	"encoding"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/repro"
)

// schemaRow is a row of the experiment schema table (docs/experiments.md): its first
// cell (the field or fields it documents) and its whole text.
type schemaRow struct{ field, text string }

// readmeSchemaRows returns the rows of the table after "Every field
// (`analysis.Experiment`" in docs/experiments.md, where the README links
// the schema.
func readmeSchemaRows(t *testing.T) []schemaRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "experiments.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "Every field (`analysis.Experiment`")
	if !ok {
		t.Fatal("docs/experiments.md: no experiment schema table (\"Every field (`analysis.Experiment`\")")
	}
	var rows []schemaRow
	inTable := false
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "field" {
			continue
		}
		rows = append(rows, schemaRow{field: cells[1], text: line})
	}
	if len(rows) == 0 {
		t.Fatal("docs/experiments.md: the experiment schema table has no rows")
	}
	return rows
}

// jsonFields lists the JSON fields of struct type t: their names and
// types, embedded structs' fields inline, "-" fields left out.
func jsonFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		f.Name = name
		out = append(out, f)
	}
	return out
}

// TestREADMESchemaComplete: every JSON field of an experiment (Experiment,
// the run's workload.Spec and ReplaySpec, Analysis and its PlotSpec, the
// grid's axes, paper values, claims, figure), at any depth, is named in
// the schema table of docs/experiments.md: in a row of its own ("`analysis.truth`", or
// "`.truth`" in a row of analysis fields), or, for the fields inside one,
// in the row of the nearest documented field above it (the `run.workload`
// row names `source`, `trace`, `path`...). A field added to a struct
// without a word in the schema table fails here.
func TestREADMESchemaComplete(t *testing.T) {
	rows := readmeSchemaRows(t)
	// rowOf finds the row documenting path, whose last element is name
	// and whose parent path is parent.
	rowOf := func(path, parent, name string) *schemaRow {
		for i, r := range rows {
			if strings.Contains(r.field, "`"+path+"`") || strings.Contains(r.field, "`"+path+"[]`") ||
				parent != "" && strings.HasPrefix(strings.TrimSpace(r.field), "`"+parent) && strings.Contains(r.field, "`."+name+"`") {
				return &rows[i]
			}
		}
		return nil
	}
	unmarshaler := reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler := reflect.TypeFor[encoding.TextUnmarshaler]()
	var walk func(typ reflect.Type, path string, doc *schemaRow)
	walk = func(typ reflect.Type, path string, doc *schemaRow) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			if typ.Kind() == reflect.Slice {
				path += "[]"
			}
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || reflect.PointerTo(typ).Implements(unmarshaler) || reflect.PointerTo(typ).Implements(textUnmarshaler) {
			return
		}
		for _, f := range jsonFields(typ) {
			q := f.Name
			if path != "" {
				q = path + "." + f.Name
			}
			ft := f.Type
			if path == "" && f.Name == "run" {
				ft = reflect.TypeFor[pipelines.Run]() // json.RawMessage in Experiment, a Run once parsed
			}
			r := rowOf(q, path, f.Name)
			if r == nil && doc != nil && strings.Contains(doc.text, "`"+f.Name+"`") {
				r = doc
			}
			if r == nil {
				where := "a row of its own"
				if doc != nil {
					where = "the row of " + strings.TrimSpace(doc.field)
				}
				t.Errorf("docs/experiments.md: the experiment schema table does not name %s (in %s)", q, where)
				continue
			}
			walk(ft, q, r)
		}
	}
	walk(reflect.TypeFor[Experiment](), "", nil)

	// The item row names every reserved key (repro.Papers): a study may
	// not take one.
	for _, r := range rows {
		if strings.TrimSpace(r.field) != "`item`" {
			continue
		}
		for _, key := range repro.Papers {
			if !strings.Contains(r.text, "`"+key+"`") {
				t.Errorf("docs/experiments.md: the item row does not name the reserved key %s", key)
			}
		}
	}
}
