package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
)

// column is one column of a table.
type column struct {
	name string
	kind columnKind
}

type columnKind uint8

const (
	textColumn   columnKind = iota // a label: left-aligned, a JSON string
	numberColumn                   // a JSON number (null for NaN and infinities)
	boolColumn                     // true or false
	// ciColumn is the half-width of a confidence interval of the number in
	// the column before it: its own column in CSV and JSON, "± w" after
	// that number in Markdown.
	ciColumn
)

// value is one cell: its exact text (CSV, and JSON numbers) and, for
// numbers, the value itself.
type value struct {
	text string
	num  float64
}

func textValue(s string) value { return value{text: s, num: math.NaN()} }

func numberValue(v float64) value { return value{text: formatNumber(v), num: v} }

func boolValue(b bool) value {
	if b {
		return value{text: "true", num: 1}
	}
	return value{text: "false", num: 0}
}

// table is a printable result: named columns and rows of values, with the
// notes a Markdown rendering adds below it.
type table struct {
	cols  []column
	rows  [][]value
	notes []string
}

// write writes t in format (md, csv or json) to name ("-" for stdout),
// atomically, with the manifest man.
func (t *table) write(name, format string, man *model.Manifest, stdout io.Writer) error {
	if name == "" {
		name = "-"
	}
	f, err := atomicfile.Create(name, stdout)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriter(f)
	switch format {
	case "md":
		t.writeMarkdown(bw, man)
	case "csv":
		if err := t.writeCSV(bw, man); err != nil {
			return err
		}
	case "json":
		if err := t.writeJSON(bw, man); err != nil {
			return err
		}
	default:
		panic("analyze: table format " + format)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Commit()
}

// manifestLines returns the header lines a manifest is written as.
func manifestLines(man *model.Manifest) []model.HeaderLine {
	var h model.Header
	man.Apply(&h)
	return h.Lines
}

// writeCSV writes the manifest's lines as "# Key: value" comments, then
// the column names and the rows (columnar.CSVWriter).
func (t *table) writeCSV(w io.Writer, man *model.Manifest) error {
	cw := columnar.NewCSVWriter(w)
	cw.Manifest(man)
	rec := make([]string, len(t.cols))
	for i, c := range t.cols {
		rec[i] = c.name
	}
	if err := cw.Record(rec); err != nil {
		return err
	}
	for _, r := range t.rows {
		for i, v := range r {
			rec[i] = v.text
		}
		if err := cw.Record(rec); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// writeJSON writes {"manifest": {...}, "columns": [...], "rows": [{...}]},
// the manifest in model.Manifest's JSON form, each row an object with the
// columns in order; NaN and infinities are null.
func (t *table) writeJSON(w *bufio.Writer, man *model.Manifest) error {
	str := func(s string) string {
		b, _ := json.Marshal(s) // a string always marshals
		return string(b)
	}
	// The manifest in model.Manifest's one JSON form (as genwork stats
	// --json writes it), its parameters sorted by name as in every other
	// output.
	m := *man
	m.Params = sortedParams(man.Params)
	mj, err := json.MarshalIndent(&m, "  ", "  ")
	if err != nil {
		return err
	}
	w.WriteString("{\n  \"manifest\": ")
	w.Write(mj)
	w.WriteString(",\n  \"columns\": [")
	for i, c := range t.cols {
		if i > 0 {
			w.WriteString(", ")
		}
		w.WriteString(str(c.name))
	}
	w.WriteString("],\n  \"rows\": [")
	for k, r := range t.rows {
		if k > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n    {")
		for i, v := range r {
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(str(t.cols[i].name) + ": ")
			switch t.cols[i].kind {
			case textColumn:
				w.WriteString(str(v.text))
			case boolColumn:
				w.WriteString(v.text)
			default:
				if math.IsNaN(v.num) || math.IsInf(v.num, 0) {
					w.WriteString("null")
				} else {
					w.WriteString(v.text)
				}
			}
		}
		w.WriteString("}")
	}
	if len(t.rows) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("]\n}\n")
	return nil
}

// sortedParams returns the parameters sorted by name, as Apply writes
// them.
func sortedParams(ps []model.Param) []model.Param {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b model.Param) int { return strings.Compare(a.Name, b.Name) })
	return ps
}

// writeMarkdown writes a pipe table (numbers to six significant digits,
// intervals as "mean ± half-width"), the notes, and the manifest as a
// trailing HTML comment.
func (t *table) writeMarkdown(w *bufio.Writer, man *model.Manifest) {
	var shown []int
	for i, c := range t.cols {
		if c.kind != ciColumn {
			shown = append(shown, i)
		}
	}
	cells := make([]string, len(shown))
	for k, i := range shown {
		cells[k] = mdEscape(t.cols[i].name)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	for k, i := range shown {
		cells[k] = "---"
		if t.cols[i].kind == numberColumn {
			cells[k] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(cells, "|"))
	for _, r := range t.rows {
		for k, i := range shown {
			cells[k] = t.mdCell(r, i)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if len(t.notes) > 0 {
		w.WriteString("\n")
		for _, n := range t.notes {
			fmt.Fprintf(w, "%s\n", n)
		}
	}
	w.WriteString("\n")
	writeManifestComment(w, man)
}

// writeManifestComment writes man as an HTML comment, one "Key: value"
// line per manifest line, for Markdown outputs.
func writeManifestComment(w io.Writer, man *model.Manifest) {
	fmt.Fprint(w, "<!-- gangsim manifest\n")
	for _, l := range manifestLines(man) {
		// "--" may not appear inside an HTML comment.
		fmt.Fprintf(w, "%s: %s\n", l.Key, strings.ReplaceAll(strings.ReplaceAll(l.Value, "\n", " "), "--", "- -"))
	}
	fmt.Fprint(w, "-->\n")
}

// mdCell renders column i of row r for Markdown.
func (t *table) mdCell(r []value, i int) string {
	v := r[i]
	switch t.cols[i].kind {
	case textColumn, boolColumn:
		return mdEscape(v.text)
	}
	s := mdNumber(v.num)
	if i+1 < len(t.cols) && t.cols[i+1].kind == ciColumn {
		if ci := r[i+1].num; !math.IsNaN(ci) && !math.IsNaN(v.num) {
			s += " ± " + mdNumber(ci)
		}
	}
	return s
}

// mdNumber formats a number for reading: six significant digits.
func mdNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return repro.FormatValue(v)
}

// mdEscape makes text safe in a Markdown table cell: pipes and "<" (which
// would open an HTML tag, hiding "<stdin>") are escaped, newlines become
// blanks.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", `\<`, "\n", " ").Replace(s)
}
