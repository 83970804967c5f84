package swf

import (
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// MaxInflateRatio bounds how many bytes a gzipped input may expand to per
// compressed byte, once it has expanded past InflateFloor: a decompression
// bomb (a few megabytes of gzip expanding to gigabytes of identical jobs)
// ends in a DecompressError instead of exhausting memory in what holds
// the jobs. Real logs expand 5 to 6 times (SDSC Blue: 4.1 MB to 22.5 MB);
// 200 leaves generated and repetitive traces ample room. The environment
// variable GANGSIM_MAX_INFLATE_RATIO sets another bound (0: none).
var MaxInflateRatio int64 = 200

// InflateFloor is the decompressed size below which no ratio is checked:
// small inputs of highly repetitive lines expand as much as they like.
const InflateFloor = 64 << 20

// inflateFloor is InflateFloor; tests lower it.
var inflateFloor int64 = InflateFloor

func init() {
	if v := os.Getenv("GANGSIM_MAX_INFLATE_RATIO"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			MaxInflateRatio = n
		}
	}
}

// ErrInflateRatio: a gzipped input expanded past MaxInflateRatio.
var ErrInflateRatio = errors.New("expands too much for its compressed size (a decompression bomb?)")

// DecompressError is a gzipped input that could not be decompressed:
// cut short, corrupt, a checksum that does not match, or one that expands
// beyond MaxInflateRatio. Lines is how many lines were read whole before
// it.
type DecompressError struct {
	Lines int
	Err   error
}

func (e *DecompressError) Error() string {
	what := "the gzip compression failed"
	switch {
	case errors.Is(e.Err, io.ErrUnexpectedEOF):
		what += " (the compressed data end early: a truncated file?)"
	case errors.Is(e.Err, gzip.ErrChecksum):
		what += " (checksum mismatch: a corrupt file)"
	}
	return fmt.Sprintf("%s after %d lines: %v", what, e.Lines, e.Err)
}

func (e *DecompressError) Unwrap() error { return e.Err }

// Is makes a gzip stream cut short match ErrTruncated, as every input cut
// short does.
func (e *DecompressError) Is(target error) bool {
	return target == ErrTruncated && errors.Is(e.Err, io.ErrUnexpectedEOF)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inflateGuard passes on a gzip reader's bytes, turning its errors into
// DecompressErrors and ending with ErrInflateRatio an output that
// outgrows MaxInflateRatio times the compressed bytes read.
type inflateGuard struct {
	zr  io.Reader
	in  *countingReader // the compressed bytes
	out int64
	err error
}

func (g *inflateGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.zr.Read(p)
	g.out += int64(n)
	if r := MaxInflateRatio; r > 0 && g.out > inflateFloor && g.out/r > max(g.in.n, 1) {
		g.err = &DecompressError{Err: fmt.Errorf("%w: %d bytes from %d compressed, more than %d times (GANGSIM_MAX_INFLATE_RATIO sets another bound)",
			ErrInflateRatio, g.out, g.in.n, r)}
		return 0, g.err
	}
	if err != nil && err != io.EOF {
		var corrupt flate.CorruptInputError
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &corrupt) {
			err = &DecompressError{Err: err}
		}
		g.err = err
	}
	return n, err
}
