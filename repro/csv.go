package repro

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
)

// Metadata keys of an item's CSV file.
const (
	keyItem   = "gangsim.item"
	keyTitle  = "title"
	keyUnit   = "unit"
	keyFigure = "figure"
	keyNotes  = "notes"
	keyDrop   = "dropped"
	keyClaim  = "claim"
)

// The value columns that follow an item's coordinates.
var valueColumns = []string{"paper", "gangsim", "tolerance", "within"}

// FormatValue formats a value as the CSV files and the report write it:
// six significant digits, no exponent for magnitudes from 1e-4 to 1e9.
func FormatValue(v float64) string {
	if v == 0 {
		return "0"
	}
	a := v
	if a < 0 {
		a = -a
	}
	if a >= 1e-4 && a < 1e9 {
		// Round to 6 significant digits, then print without an exponent.
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// WriteCSV writes it as CSV: "# key: value" metadata lines (the item, its
// title, unit, figure, notes, the jobs its runs' cleaning dropped and its
// claims, then the lines of man, the
// manifest of the run that made it, if not nil), the header line
// (coordinate names, paper, gangsim, tolerance, within), and one line per
// row. A row without a paper value has empty paper, tolerance and within
// cells: there is nothing to be within.
func WriteCSV(w io.Writer, it *Item, man *model.Manifest) error {
	if err := it.Validate(); err != nil {
		return err
	}
	cw := columnar.NewCSVWriter(w)
	meta := func(k, v string) { cw.Comment(model.HeaderLine{Key: k, Value: v}) }
	meta(keyItem, it.Key())
	meta(keyTitle, it.Title)
	meta(keyUnit, it.Unit)
	if it.Figure != "" {
		meta(keyFigure, it.Figure)
	}
	if it.Notes != "" {
		meta(keyNotes, it.Notes)
	}
	for _, d := range it.Dropped {
		meta(keyDrop, d)
	}
	for _, c := range it.Claims {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		meta(keyClaim, string(b))
	}
	if man != nil {
		cw.Manifest(man)
	}
	var head []string
	if len(it.Rows) > 0 {
		for _, c := range it.Rows[0].Coords {
			head = append(head, c.Name)
		}
	}
	if err := cw.Record(append(head, valueColumns...)); err != nil {
		return err
	}
	rec := make([]string, 0, len(head)+len(valueColumns))
	for _, r := range it.Rows {
		rec = rec[:0]
		for _, c := range r.Coords {
			rec = append(rec, c.Value)
		}
		paper, tol, within := "", "", ""
		if r.HasPaper {
			paper, tol, within = FormatValue(r.Paper), FormatValue(r.Tolerance), strconv.FormatBool(r.Within())
		}
		rec = append(rec, paper, FormatValue(r.Gangsim), tol, within)
		if err := cw.Record(rec); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// ReadCSV reads an item written by WriteCSV; name is used in errors. Values
// come back rounded as FormatValue wrote them, and the manifest lines are
// returned as a header.
func ReadCSV(r io.Reader, name string) (*Item, *model.Header, error) {
	br := bufio.NewReader(r)
	it := &Item{}
	h := &model.Header{}
	line := 0
	for {
		b, err := br.Peek(1)
		if err != nil || b[0] != '#' {
			break
		}
		s, err := br.ReadString('\n')
		line++
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(s, "#")), ": ")
		if !ok {
			k, v = strings.TrimSuffix(k, ":"), ""
		}
		switch k {
		case keyItem:
			it.Paper, it.Name, _ = strings.Cut(v, "/")
		case keyTitle:
			it.Title = v
		case keyUnit:
			it.Unit = v
		case keyFigure:
			it.Figure = v
		case keyNotes:
			it.Notes = v
		case keyDrop:
			it.Dropped = append(it.Dropped, v)
		case keyClaim:
			var c Claim
			if err := json.Unmarshal([]byte(v), &c); err != nil {
				return nil, nil, fmt.Errorf("%s:%d: claim: %w", name, line, err)
			}
			it.Claims = append(it.Claims, c)
		default:
			h.Add(k, v)
		}
	}
	if it.Paper == "" {
		return nil, nil, fmt.Errorf("%s: no %q line: not a gangsim results file", name, keyItem)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = false
	head, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s:%d: header: %w", name, line+1, err)
	}
	nc := len(head) - len(valueColumns)
	if nc < 0 || strings.Join(head[nc:], ",") != strings.Join(valueColumns, ",") {
		return nil, nil, fmt.Errorf("%s:%d: header %q does not end with %s", name, line+1, head, strings.Join(valueColumns, ","))
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		row := Row{}
		for i := 0; i < nc; i++ {
			row.Coords = append(row.Coords, Coord{Name: head[i], Value: rec[i]})
		}
		ln, _ := cr.FieldPos(0)
		num := func(col int) (float64, error) {
			v, err := strconv.ParseFloat(rec[col], 64)
			if err != nil {
				return 0, fmt.Errorf("%s:%d: column %s: %w", name, line+ln, head[col], err)
			}
			return v, nil
		}
		if rec[nc] != "" {
			row.HasPaper = true
			if row.Paper, err = num(nc); err != nil {
				return nil, nil, err
			}
			if row.Tolerance, err = num(nc + 2); err != nil {
				return nil, nil, err
			}
		}
		if row.Gangsim, err = num(nc + 1); err != nil {
			return nil, nil, err
		}
		it.Rows = append(it.Rows, row)
	}
	return it, h, nil
}
