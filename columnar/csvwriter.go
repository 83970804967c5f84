package columnar

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// CSVWriter writes a CSV file in gangsim's form, the one writer of every
// CSV gangsim makes (tables, items, curves, analyze's tables): comment
// lines first, "# Key: value" (a line without a key as "# text", an empty
// one as "#"; a line break in a value written as a space, so that each
// stays one line), then records with encoding/csv's quoting. Comment lines
// may also follow records (a table's trailer). The first error is kept
// and returned by Record and Flush.
type CSVWriter struct {
	bw *bufio.Writer
	cw *csv.Writer // writes into bw
}

// NewCSVWriter returns a CSVWriter on w, buffered: Flush writes out what
// is left.
func NewCSVWriter(w io.Writer) *CSVWriter {
	bw := bufio.NewWriter(w)
	return &CSVWriter{bw: bw, cw: csv.NewWriter(bw)}
}

// Comment writes one comment line.
func (w *CSVWriter) Comment(l model.HeaderLine) {
	switch {
	case l.Key != "":
		fmt.Fprintf(w.bw, "# %s: %s\n", l.Key, strings.ReplaceAll(l.Value, "\n", " "))
	case l.Value == "":
		w.bw.WriteString("#\n")
	default:
		fmt.Fprintf(w.bw, "# %s\n", strings.ReplaceAll(l.Value, "\n", " "))
	}
}

// Comments writes comment lines.
func (w *CSVWriter) Comments(lines []model.HeaderLine) {
	for _, l := range lines {
		w.Comment(l)
	}
}

// Manifest writes the lines of a manifest (model.Manifest.Apply) as
// comments.
func (w *CSVWriter) Manifest(man *model.Manifest) {
	var h model.Header
	man.Apply(&h)
	w.Comments(h.Lines)
}

// Record writes one record.
func (w *CSVWriter) Record(rec []string) error { return w.cw.Write(rec) }

// Flush writes out everything written so far.
func (w *CSVWriter) Flush() error {
	w.cw.Flush()
	if err := w.cw.Error(); err != nil {
		return err
	}
	return w.bw.Flush()
}
