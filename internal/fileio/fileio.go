// Package fileio opens the inputs and creates the outputs of gangsim's
// commands, in any format: SWF (plain or gzipped) and the columnar
// encodings (Parquet, Arrow IPC stream, CSV).
//
// An input is read twice: once to compute its SHA-256 digest, which every
// output's manifest records before any data, and once to parse it. A file is
// simply read twice; standard input is copied into an unlinked temporary
// file while it is hashed, so a pipe works with any format (Parquet needs
// random access) and memory stays bounded; each stage of a pipe starts once
// the previous one has finished writing.
package fileio

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// Input is an opened input file or standard input.
type Input struct {
	Name   string          // as given; "-" for standard input
	SHA256 string          // digest of the bytes, lower-case hex
	Format columnar.Format // detected from the first bytes
	f      *os.File
	size   int64
}

// Open opens name ("-" or "" for stdin), hashes it and detects its format.
func Open(name string, stdin io.Reader) (*Input, error) {
	in := &Input{Name: name}
	if name == "" || name == "-" {
		in.Name = "-"
		tmp, err := os.CreateTemp("", "gangsim-stdin-*")
		if err != nil {
			return nil, fmt.Errorf("spooling standard input: %w", err)
		}
		os.Remove(tmp.Name()) // unlinked: gone when closed, even on a crash
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(tmp, h), stdin)
		if err != nil {
			tmp.Close()
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		in.f, in.size, in.SHA256 = tmp, n, hex.EncodeToString(h.Sum(nil))
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		in.f, in.size, in.SHA256 = f, n, hex.EncodeToString(h.Sum(nil))
	}
	var prefix [512]byte
	n, _ := in.f.ReadAt(prefix[:], 0)
	in.Format = columnar.DetectFormat(prefix[:n])
	if in.size == 0 {
		in.Format = columnar.FormatSWF // an empty input is an empty SWF trace
	}
	return in, nil
}

// DisplayName is the name errors use: the file name, or "<stdin>".
func (in *Input) DisplayName() string {
	if in.Name == "-" {
		return "<stdin>"
	}
	return in.Name
}

// Manifest returns the input's manifest entry.
func (in *Input) Manifest() model.Input { return model.Input{Name: in.Name, SHA256: in.SHA256} }

// Close releases the input (and its spooled copy).
func (in *Input) Close() error { return in.f.Close() }

func (in *Input) reader() *io.SectionReader { return io.NewSectionReader(in.f, 0, in.size) }

// Trace opens the input as a trace. lenient applies to SWF input only: it
// skips and counts malformed lines instead of failing (see swf.Reader).
func (in *Input) Trace(lenient bool) (model.JobReader, error) {
	switch in.Format {
	case columnar.FormatSWF, columnar.FormatSWFGzip:
		r := swf.NewReader(bufio.NewReaderSize(in.reader(), 1<<16))
		r.Name = in.DisplayName()
		r.Lenient = lenient
		return r, nil
	}
	return columnar.NewTraceReader(in.reader(), in.Format, in.DisplayName())
}

// Outcomes opens the input as a per-job outcomes table.
func (in *Input) Outcomes() (*columnar.OutcomeReader, error) {
	if in.Format == columnar.FormatSWF || in.Format == columnar.FormatSWFGzip {
		return nil, fmt.Errorf("%s: not an outcomes table (Parquet, Arrow or CSV from replay); it looks like an SWF trace", in.DisplayName())
	}
	return columnar.NewOutcomeReader(in.reader(), in.Format, in.DisplayName())
}

// Samples opens the input as a time-series table.
func (in *Input) Samples() (*columnar.SampleReader, error) {
	if in.Format == columnar.FormatSWF || in.Format == columnar.FormatSWFGzip {
		return nil, fmt.Errorf("%s: not a time-series table", in.DisplayName())
	}
	return columnar.NewSampleReader(in.reader(), in.Format, in.DisplayName())
}

// Output is an output being written: a file that appears only when
// committed, or standard output.
type Output struct {
	Name   string          // as given; "-" for standard output
	Format columnar.Format // the encoding
	file   *atomicfile.File
	gz     *gzip.Writer
	closer func() error // the table writer's Close, run once before commit
	closed bool
}

// ResolveFormat picks an output's format: the explicit format name if
// given, else the name's extension, else def.
func ResolveFormat(name, format string, def columnar.Format) (columnar.Format, error) {
	if format != "" {
		return columnar.ParseFormat(format)
	}
	if f := columnar.FormatFromName(name); f != columnar.FormatUnknown {
		return f, nil
	}
	if name != "" && name != "-" {
		return columnar.FormatUnknown, fmt.Errorf("%s: cannot tell the format from the name (use .swf, .swf.gz, .parquet, .arrow or .csv, or --format)", name)
	}
	return def, nil
}

// Create starts an output named name ("-" or "" for stdout) in format f.
func Create(name string, f columnar.Format, stdout io.Writer) (*Output, error) {
	if name == "" {
		name = "-"
	}
	file, err := atomicfile.Create(name, stdout)
	if err != nil {
		return nil, err
	}
	return &Output{Name: name, Format: f, file: file}, nil
}

func (o *Output) w() io.Writer {
	if o.gz != nil {
		return o.gz
	}
	return o.file
}

// TraceWriter starts writing a trace with header h.
func (o *Output) TraceWriter(h *model.Header) (model.JobWriter, error) {
	switch o.Format {
	case columnar.FormatSWF, columnar.FormatSWFGzip:
		if o.Format == columnar.FormatSWFGzip {
			o.gz = gzip.NewWriter(o.file) // no name or time in the header: deterministic
		}
		w := swf.NewWriter(o.w(), h)
		o.closer = w.Close
		return &traceWriter{JobWriter: w, o: o, swf: w}, nil
	}
	w, err := columnar.NewTraceWriter(o.w(), o.Format, h)
	if err != nil {
		return nil, err
	}
	o.closer = w.Close
	return &traceWriter{JobWriter: w, o: o}, nil
}

// traceWriter routes Close through the Output, so the table is closed once
// whether the caller closes it or leaves it to Commit.
type traceWriter struct {
	model.JobWriter
	o   *Output
	swf *swf.Writer
}

func (w *traceWriter) Close() error { return w.o.closeTable() }

// DroppedApps reports how many jobs lost their application attributes
// because the output is SWF (0 for other formats).
func DroppedApps(w model.JobWriter) int {
	if t, ok := w.(*traceWriter); ok && t.swf != nil {
		return t.swf.DroppedApps()
	}
	return 0
}

// OutcomeWriter starts writing an outcomes table with header h. Commit
// closes it.
func (o *Output) OutcomeWriter(h *model.Header) (model.OutcomeWriter, error) {
	w, err := columnar.NewOutcomeWriter(o.w(), o.Format, h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	o.closer = w.Close
	return &outcomeWriter{OutcomeWriter: w, o: o}, nil
}

type outcomeWriter struct {
	*columnar.OutcomeWriter
	o *Output
}

func (w *outcomeWriter) Close() error { return w.o.closeTable() }

// SampleWriter starts writing a time-series table with header h. Commit
// closes it.
func (o *Output) SampleWriter(h *model.Header) (model.SampleWriter, error) {
	w, err := columnar.NewSampleWriter(o.w(), o.Format, h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	o.closer = w.Close
	return w, nil
}

// closeTable closes the table writer once, whoever asks first.
func (o *Output) closeTable() error {
	if o.closed || o.closer == nil {
		return nil
	}
	o.closed = true
	return o.closer()
}

// Commit finishes the table (closing its writer if the caller has not) and
// publishes the output.
func (o *Output) Commit() error {
	err := o.closeTable()
	if o.gz != nil {
		err = errors.Join(err, o.gz.Close())
	}
	if err != nil {
		o.file.Abort()
		return fmt.Errorf("writing %s: %w", o.Name, err)
	}
	return o.file.Commit()
}

// Abort discards the output (a no-op after Commit).
func (o *Output) Abort() { o.file.Abort() }
