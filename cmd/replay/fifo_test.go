//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// traceIn returns a small trace's bytes in format f.
func traceIn(t *testing.T, f columnar.Format) []byte {
	t.Helper()
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "4"}}}
	var jobs []model.Job
	for i := 0; i < 200; i++ {
		jobs = append(jobs, model.Job{ID: int64(i + 1), Submit: model.Time(i) * model.Second, Runtime: model.Time(1+i%7) * model.Second,
			AllocProcs: 1 + i%4, Known: model.AllFields.Without(model.FieldEstimate)})
	}
	var buf bytes.Buffer
	var err error
	switch f {
	case columnar.FormatSWF, columnar.FormatSWFGzip:
		var w io.Writer = &buf
		var gz *gzip.Writer
		if f == columnar.FormatSWFGzip {
			gz = gzip.NewWriter(&buf)
			w = gz
		}
		err = model.WriteAll(swf.NewWriter(w, &h), jobs)
		if gz != nil {
			err = errors.Join(err, gz.Close())
		}
	default:
		var w *columnar.TraceWriter
		if w, err = columnar.NewTraceWriter(&buf, f, &h); err == nil {
			err = model.WriteAll(w, jobs)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// outcomeRows reads an outcomes file's rows.
func outcomeRows(t *testing.T, path string) []model.Outcome {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := columnar.NewOutcomeReader(f, columnar.FormatCSV, path)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Outcome
	for {
		o, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
}

// TestNamedPipeInputs: an input that is a FIFO, or a process
// substitution's /dev/fd/N (replay --policy easy <(zcat log.swf.gz)), is
// read as its bytes say, as the same bytes in a file are: each streaming
// format (SWF, gzipped SWF, Arrow stream, CSV) as it arrives, Parquet
// spooled; the outcomes are the file's and the manifest records the
// stream's digest under its name. Before, such an input was "not a
// Parquet, Arrow or CSV format".
func TestNamedPipeInputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []columnar.Format{columnar.FormatSWF, columnar.FormatSWFGzip, columnar.FormatArrow, columnar.FormatCSV, columnar.FormatParquet} {
		data := traceIn(t, f)
		sum := sha256.Sum256(data)
		file := filepath.Join(dir, "t."+f.String())
		os.WriteFile(file, data, 0o644)
		want := filepath.Join(dir, "want-"+f.String()+".csv")
		if _, stderr, err := replayCmd(t, nil, "-p", "easy", "-q", file, "-o", want); err != nil {
			t.Fatalf("%v from a file: %v\n%s", f, err, stderr)
		}

		fifo := filepath.Join(dir, "fifo-"+f.String())
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what, name string
			feed       func() error
		}{
			{"a FIFO", fifo, func() error {
				p, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				_, err = p.Write(data)
				return errors.Join(err, p.Close())
			}},
			{"a process substitution", fmt.Sprintf("/dev/fd/%d", r.Fd()), func() error {
				_, err := w.Write(data)
				return errors.Join(err, w.Close())
			}},
		} {
			fed := make(chan error, 1)
			go func() { fed <- c.feed() }()
			got := filepath.Join(dir, "got.csv")
			_, stderr, err := replayCmd(t, nil, "-p", "easy", "-q", c.name, "-o", got)
			if err != nil {
				t.Fatalf("%v through %s: %v\n%s", f, c.what, err, stderr)
			}
			if err := <-fed; err != nil {
				t.Fatalf("%v: feeding %s: %v", f, c.what, err)
			}
			if a, b := outcomeRows(t, got), outcomeRows(t, want); len(a) != 200 || !equalOutcomes(a, b) {
				t.Errorf("%v through %s: %d outcomes, not the file's %d", f, c.what, len(a), len(b))
			}
			b, _ := os.ReadFile(got)
			if !strings.Contains(string(b), "# GangsimInput: "+hex.EncodeToString(sum[:])+" "+c.name+"\n") {
				t.Errorf("%v through %s: the manifest does not record its digest:\n%s", f, c.what, b)
			}
		}
		r.Close()
	}
}

func equalOutcomes(a, b []model.Outcome) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
