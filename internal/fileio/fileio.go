// Package fileio opens the inputs and creates the outputs of gangsim's
// commands, in any format: SWF (plain or gzipped) and the columnar
// encodings (Parquet, Arrow IPC stream, CSV).
//
// Every output's manifest records the SHA-256 digest of every input. Open
// hashes a file before it is parsed (the file is simply read twice), so
// the digest is in the output's header from the start, and copies standard
// input into an unlinked temporary file while it hashes it, so that it can
// be read any number of times (workload transforms read their source up
// to three times) in any format (Parquet needs random access).
//
// OpenStream is for a single pass: standard input is parsed as it arrives
// and hashed while it is read, without a temporary copy, so the stages of a
// pipe overlap. Its digest is known only at the end (Finish): the output
// records it in its trailer (Output.AppendHeader; see the columnar and swf
// packages for where a trailer goes in each format). Parquet on standard
// input is still spooled, as it must be.
//
// A named input that is not a regular file (a FIFO, a process
// substitution's /dev/fd/N, a character device) is read as its bytes say,
// as standard input is: streamed by OpenStream (SWF, gzipped SWF, Arrow
// IPC streams and CSV as they arrive; Parquet spooled), spooled by Open.
package fileio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/shared"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// Input is an opened input file or standard input.
type Input struct {
	Name   string          // as given; "-" for standard input
	SHA256 string          // digest of the bytes, lower-case hex; "" for a stream until Finish
	Format columnar.Format // detected from the first bytes
	f      *os.File
	size   int64
	stream *bufio.Reader  // standard input or a pipe read once (OpenStream), over hash
	hash   *hashingReader // the digest of stream's bytes
	used   bool           // stream was handed out
	empty  bool           // no byte at all
	pipe   *os.File       // the named pipe or device stream reads, closed with the input
}

// hashingReader hashes the bytes read through it.
type hashingReader struct {
	r io.Reader
	h hash.Hash
}

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	return n, err
}

// OpenStream opens name ("-" or "" for stdin) for a single pass. A
// regular file is opened as by Open. Standard input, and a file that is
// not regular (a FIFO, a process substitution's /dev/fd/N, a character
// device), is read as a stream and hashed while it is read: SHA256 is
// empty until Finish, which reads what the parser left and sets it.
// Parquet, which needs random access, is spooled as by Open, its digest
// known at once.
func OpenStream(name string, stdin io.Reader) (*Input, error) {
	if name == "" || name == "-" {
		return openStream("-", stdin, nil)
	}
	if !isRegular(shared.Resolve(name)) {
		f, err := os.Open(shared.Resolve(name))
		if err != nil {
			return nil, shared.Hint(name, err)
		}
		in, err := openStream(name, f, f)
		if err != nil {
			f.Close()
		}
		return in, err
	}
	return Open(name, stdin)
}

// isRegular reports whether name is a regular file (symbolic links
// followed); false for a FIFO, a device, a pipe's /dev/fd/N, or a name that
// does not exist (whose error the open gives).
func isRegular(name string) bool {
	st, err := os.Stat(name)
	return err != nil || st.Mode().IsRegular() || st.IsDir()
}

// openStream reads r as the stream of the input named name ("-" for
// standard input); f, if not nil, is the file to close with it.
func openStream(name string, r io.Reader, f *os.File) (*Input, error) {
	in := &Input{Name: name, hash: &hashingReader{r: r, h: sha256.New()}, pipe: f}
	in.stream = bufio.NewReaderSize(in.hash, 1<<16)
	prefix, err := in.stream.Peek(512)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("reading %s: %w", in.what(), err)
	}
	if err := refuseArrowFile(prefix, in.what()); err != nil {
		return nil, err
	}
	in.Format = columnar.DetectFormat(prefix)
	if len(prefix) == 0 {
		in.empty = true
		in.Format = columnar.FormatSWF // read as SWF, whose reader refuses it as empty (swf.ErrEmpty)
	}
	if in.Format != columnar.FormatParquet {
		return in, nil
	}
	// Parquet needs random access: spooled.
	tmp, err := spool(in.stream, in.what())
	if err != nil {
		return nil, err
	}
	in.stream = nil
	in.f, in.size, in.SHA256 = tmp.f, tmp.n, hex.EncodeToString(in.hash.h.Sum(nil))
	return in, nil
}

// Streamed reports whether the input is read as a stream, its digest known
// only after Finish.
func (in *Input) Streamed() bool { return in.stream != nil }

// Finish reads the rest of a streamed input, so that its digest covers
// every byte, and sets SHA256. It does nothing for other inputs.
func (in *Input) Finish() error {
	if in.stream == nil || in.SHA256 != "" {
		return nil
	}
	if _, err := io.Copy(io.Discard, in.stream); err != nil {
		return fmt.Errorf("reading %s: %w", in.what(), err)
	}
	in.SHA256 = hex.EncodeToString(in.hash.h.Sum(nil))
	return nil
}

type spooled struct {
	f *os.File
	n int64
}

// spool copies r, the input named name in errors, into an unlinked
// temporary file.
func spool(r io.Reader, name string) (spooled, error) {
	tmp, err := os.CreateTemp("", "gangsim-stdin-*")
	if err != nil {
		return spooled{}, fmt.Errorf("spooling %s: %w", name, err)
	}
	os.Remove(tmp.Name()) // unlinked: gone when closed, even on a crash
	n, err := io.Copy(tmp, r)
	if err != nil {
		tmp.Close()
		return spooled{}, fmt.Errorf("reading %s: %w", name, err)
	}
	return spooled{tmp, n}, nil
}

// Open opens name ("-" or "" for stdin), hashes it and detects its format.
// A name under ../shared is read where GANGSIM_SHARED says
// (shared.Resolve), and keeps its name in manifests and messages.
// Standard input, and a file that is not regular (a FIFO, a process
// substitution, a character device), which can be read only once, is
// copied into an unlinked temporary file while it is hashed, so that it
// can be read any number of times, in any format.
func Open(name string, stdin io.Reader) (*Input, error) {
	in := &Input{Name: name}
	switch {
	case name == "" || name == "-":
		in.Name = "-"
		if err := in.spoolFrom(stdin); err != nil {
			return nil, err
		}
	case !isRegular(shared.Resolve(name)):
		f, err := os.Open(shared.Resolve(name))
		if err != nil {
			return nil, shared.Hint(name, err)
		}
		err = in.spoolFrom(f)
		f.Close()
		if err != nil {
			return nil, err
		}
	default:
		f, err := os.Open(shared.Resolve(name))
		if err != nil {
			return nil, shared.Hint(name, err)
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
	if err := refuseArrowFile(prefix[:n], in.what()); err != nil {
		in.Close()
		return nil, err
	}
	in.Format = columnar.DetectFormat(prefix[:n])
	if in.size == 0 {
		in.empty = true
		in.Format = columnar.FormatSWF // read as SWF, whose reader refuses it as empty (swf.ErrEmpty)
	}
	return in, nil
}

// spoolFrom copies r into the input's temporary file, hashing it.
func (in *Input) spoolFrom(r io.Reader) error {
	h := &hashingReader{r: r, h: sha256.New()}
	tmp, err := spool(h, in.what())
	if err != nil {
		return err
	}
	in.f, in.size, in.SHA256 = tmp.f, tmp.n, hex.EncodeToString(h.h.Sum(nil))
	return nil
}

// DisplayName is the name errors use: the file name, or "<stdin>".
func (in *Input) DisplayName() string {
	if in.Name == "-" {
		return "<stdin>"
	}
	return in.Name
}

// refuseArrowFile returns an error for an input that is an Arrow IPC file
// (the random-access format, magic "ARROW1"), which gangsim does not read,
// rather than let it be taken for SWF text.
func refuseArrowFile(prefix []byte, name string) error {
	if !bytes.HasPrefix(prefix, []byte("ARROW1")) {
		return nil
	}
	return fmt.Errorf("%s is an Arrow IPC file (the random-access format), which gangsim does not read: give it as an Arrow IPC stream (pyarrow.ipc.new_stream, .arrows) or as Parquet", name)
}

// what names the input in messages: "standard input", or the file.
func (in *Input) what() string {
	if in.Name == "-" {
		return "standard input"
	}
	return in.Name
}

// Manifest returns the input's manifest entry.
func (in *Input) Manifest() model.Input { return model.Input{Name: in.Name, SHA256: in.SHA256} }

// Close releases the input (and its spooled copy).
func (in *Input) Close() error {
	var err error
	if in.pipe != nil {
		err = in.pipe.Close()
	}
	if in.f == nil {
		return err
	}
	return errors.Join(err, in.f.Close())
}

// reader returns the input's bytes from the start: a new reader each time,
// except for a stream, which can be read once.
func (in *Input) reader() (io.Reader, error) {
	if in.stream != nil {
		if in.used {
			return nil, fmt.Errorf("%s, read as a stream, can be read once only", in.DisplayName())
		}
		in.used = true
		return in.stream, nil
	}
	return io.NewSectionReader(in.f, 0, in.size), nil
}

// SWFMode is how strictly a trace is read, in any format (see swf.Reader
// and swf.Checker).
type SWFMode uint8

// SWF reading modes.
const (
	SWFDefault SWFMode = iota // values outside SWF 2.2 kept and counted while the needed fields are usable
	SWFStrict                 // every value outside SWF 2.2 an error
	SWFLenient                // lines (rows) with unusable needed fields skipped and counted
)

// ModeOf is the mode of the flags --strict and --lenient (strict first;
// neither: SWFDefault).
func ModeOf(strict, lenient bool) SWFMode {
	switch {
	case strict:
		return SWFStrict
	case lenient:
		return SWFLenient
	}
	return SWFDefault
}

// Trace opens the input as a trace, an SWF input in the default mode or,
// with lenient, skipping and counting malformed lines (see swf.Reader).
func (in *Input) Trace(lenient bool) (model.JobReader, error) {
	if lenient {
		return in.TraceMode(SWFLenient)
	}
	return in.TraceMode(SWFDefault)
}

// TraceMode opens the input as a trace, read in mode m with the SWF rules
// on values (TraceNeeding with swf.NeededFields).
func (in *Input) TraceMode(m SWFMode) (model.JobReader, error) {
	return in.TraceNeeding(m, 0)
}

// TraceNeeding opens the input as a trace whose jobs pass the SWF 2.2 rules
// on values in mode m, whatever the format: an SWF input through
// swf.Reader, a table (Parquet, Arrow, CSV) through swf.Checker, so that a
// status of 9, a negative user, a repeated job number or a word in an
// unused column are counted alike (Anomalies) and refused alike by
// SWFStrict. needed are the fields the replay uses (0: swf.NeededFields):
// an unusable value in one of them stops the reader, or skips the job under
// SWFLenient. An input with no header line and no job (an empty file or
// pipe) is an error (swf.ErrEmpty), not an empty workload.
func (in *Input) TraceNeeding(m SWFMode, needed model.FieldSet) (model.JobReader, error) {
	r, err := in.reader()
	if err != nil {
		return nil, err
	}
	switch in.Format {
	case columnar.FormatSWF, columnar.FormatSWFGzip:
		sr := swf.NewReader(r)
		sr.Name = in.DisplayName()
		sr.Strict = m == SWFStrict
		sr.Lenient = m == SWFLenient
		sr.Needed = needed
		sr.EmptyIsError = true
		return sr, nil
	}
	tr, err := columnar.NewTraceReader(r, in.Format, in.DisplayName())
	if err != nil {
		return nil, err
	}
	ck := swf.NewChecker(tr)
	ck.Name = in.DisplayName()
	ck.Strict = m == SWFStrict
	ck.Lenient = m == SWFLenient
	ck.Needed = needed
	ck.EmptyIsError = true
	return ck, nil
}

// Anomalies returns what a trace reader of TraceNeeding counted so far
// (final once it has returned io.EOF): values outside SWF 2.2, repeated
// job numbers, skipped lines; nil for another reader.
func Anomalies(r model.JobReader) swf.Anomalies {
	if a, ok := r.(interface{ Anomalies() swf.Anomalies }); ok {
		return a.Anomalies()
	}
	return nil
}

// Outcomes opens the input as a per-job outcomes table.
func (in *Input) Outcomes() (*columnar.OutcomeReader, error) {
	if in.empty {
		return nil, fmt.Errorf("%s: empty input: no outcomes table (Parquet, Arrow or CSV from replay)", in.DisplayName())
	}
	if in.Format == columnar.FormatSWF || in.Format == columnar.FormatSWFGzip {
		return nil, fmt.Errorf("%s: not an outcomes table (Parquet, Arrow or CSV from replay); it looks like an SWF trace", in.DisplayName())
	}
	r, err := in.reader()
	if err != nil {
		return nil, err
	}
	return columnar.NewOutcomeReader(r, in.Format, in.DisplayName())
}

// Samples opens the input as a time-series table.
func (in *Input) Samples() (*columnar.SampleReader, error) {
	if in.empty {
		return nil, fmt.Errorf("%s: empty input: no time-series table", in.DisplayName())
	}
	if in.Format == columnar.FormatSWF || in.Format == columnar.FormatSWFGzip {
		return nil, fmt.Errorf("%s: not a time-series table", in.DisplayName())
	}
	r, err := in.reader()
	if err != nil {
		return nil, err
	}
	return columnar.NewSampleReader(r, in.Format, in.DisplayName())
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
	// trailer and appender: header lines for the end of the table, and
	// the table writer's AppendHeader.
	trailer  []model.HeaderLine
	appender func(...model.HeaderLine)
}

// ResolveFormat picks an output's format: the explicit format name if
// given, else the name's extension, else def for standard output and for
// a device, FIFO or process substitution. A format that contradicts
// the name's extension (--format parquet -o x.csv) is an error.
func ResolveFormat(name, format string, def columnar.Format) (columnar.Format, error) {
	if format != "" {
		f, err := columnar.ParseFormat(format)
		if err != nil {
			return f, err
		}
		if ext := columnar.FormatFromName(name); ext != columnar.FormatUnknown && ext != f {
			return f, fmt.Errorf("--format %s contradicts the name %s, which says %s", format, name, ext)
		}
		return f, nil
	}
	if f := columnar.FormatFromName(name); f != columnar.FormatUnknown {
		return f, nil
	}
	if name != "" && name != "-" && !IsStream(name) {
		return columnar.FormatUnknown, fmt.Errorf("%s: cannot tell the format from the name (use .swf, .swf.gz, .parquet, .arrow or .csv, or --format)", name)
	}
	return def, nil
}

// IsStream reports whether name is an existing file that is not regular
// (a device such as /dev/null, a FIFO) or names an open descriptor of the
// process (/dev/stdout, a process substitution's /dev/fd/N), which take the
// format of standard output when the name does not tell one.
func IsStream(name string) bool {
	if atomicfile.OpenDescriptor(name) >= 0 {
		return true // /dev/stdout on a file is still standard output
	}
	st, err := os.Stat(name)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// SameOutput reports whether outputs named a and b ("-" for standard
// output) would write the same file: the same name once resolved (symbolic
// links followed, relative to the working directory), the same open
// descriptor (/dev/stdout is "-"), or the same existing file (a descriptor
// open on it included). Two outputs on one path would lose one, so a
// command refuses them; /dev/null takes any number.
func SameOutput(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fdOf := func(name string) int {
		if name == "-" {
			return 1
		}
		return atomicfile.OpenDescriptor(name)
	}
	fa, fb := fdOf(a), fdOf(b)
	if fa >= 0 && fa == fb {
		return true
	}
	sa, ea := statOutput(a, fa)
	sb, eb := statOutput(b, fb)
	if ea == nil && eb == nil {
		if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(sa, null) {
			return false
		}
		return os.SameFile(sa, sb)
	}
	if fa >= 0 || fb >= 0 {
		return false
	}
	return atomicfile.Target(a) == atomicfile.Target(b)
}

// statOutput stats an output: its descriptor fd when it names one, else
// the file its name resolves to.
func statOutput(name string, fd int) (os.FileInfo, error) {
	if fd >= 0 {
		return os.Stat("/dev/fd/" + strconv.Itoa(fd))
	}
	return os.Stat(name)
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
		w.MarkEnd = true // a reader tells a cut output, a pipe's above all, from a whole one
		o.closer, o.appender = w.Close, w.AppendHeader
		return &traceWriter{JobWriter: w, o: o, swf: w}, nil
	}
	w, err := columnar.NewTraceWriter(o.w(), o.Format, h)
	if err != nil {
		return nil, err
	}
	o.closer, o.appender = w.Close, w.AppendHeader
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
	o.closer, o.appender = w.Close, w.AppendHeader
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
	o.closer, o.appender = w.Close, w.AppendHeader
	return w, nil
}

// AppendHeader adds lines to the header of the table being written that
// are known only at its end: the digest of a streamed input, what cleaning
// dropped. Call it before Commit (see columnar's and swf's AppendHeader
// for where each format puts them).
func (o *Output) AppendHeader(lines ...model.HeaderLine) {
	o.trailer = append(o.trailer, lines...)
}

// closeTable closes the table writer once, whoever asks first.
func (o *Output) closeTable() error {
	if o.closed || o.closer == nil {
		return nil
	}
	o.closed = true
	if len(o.trailer) > 0 && o.appender != nil {
		o.appender(o.trailer...)
	}
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
