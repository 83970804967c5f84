package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

func gzipped(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	w.Write([]byte(text))
	w.Close()
	return b.Bytes()
}

func readErr(t *testing.T, data []byte, lenient ...bool) error {
	t.Helper()
	r := NewReader(bytes.NewReader(data))
	r.Name = "t.swf.gz"
	r.Lenient = len(lenient) > 0 && lenient[0]
	for {
		if _, err := r.Read(); err != nil {
			if err.Error() == "EOF" {
				return nil
			}
			return err
		}
	}
}

// TestGzipErrors: a gzipped input cut short or damaged says that the
// compression failed, and after how many lines; before, a truncated file
// said "unexpected EOF" alone.
func TestGzipErrors(t *testing.T) {
	var text strings.Builder
	text.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 20000; i++ {
		text.WriteString(line18(map[int]string{1: itoa(i)}) + "\n")
	}
	data := gzipped(t, text.String())
	if err := readErr(t, data); err != nil {
		t.Fatal(err)
	}
	cut := readErr(t, data[:len(data)/2])
	var de *DecompressError
	if !errors.As(cut, &de) || de.Lines < 1000 || de.Lines > 19000 ||
		!strings.Contains(cut.Error(), "t.swf.gz: the gzip compression failed (the compressed data end early: a truncated file?) after ") {
		t.Errorf("cut short: %v", cut)
	}
	damaged := append([]byte{}, data...)
	for i := len(damaged) / 2; i < len(damaged)/2+64; i++ {
		damaged[i] ^= 0x5a
	}
	// Damage may first show as garbled lines; read leniently, past them,
	// the decompression fails.
	if err := readErr(t, damaged, true); !errors.As(err, &de) || !strings.Contains(err.Error(), "the gzip compression failed") {
		t.Errorf("damaged: %v", err)
	}
	// The checksum alone wrong: every line read, then the error.
	sum := append([]byte{}, data...)
	sum[len(sum)-5] ^= 1
	if err := readErr(t, sum); !errors.As(err, &de) || !errors.Is(err, gzip.ErrChecksum) || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("bad checksum: %v", err)
	}
}

// TestDecompressionBomb: an input that expands past MaxInflateRatio ends
// in an error (here with the floor lowered to 1 MB, 2000 times over);
// one below the floor, or within the ratio, reads.
func TestDecompressionBomb(t *testing.T) {
	defer func(f int64) { inflateFloor = f }(inflateFloor)
	inflateFloor = 1 << 20
	line := line18(nil) + "\n"
	bomb := gzipped(t, "; MaxProcs: 8\n"+strings.Repeat(line, (8<<20)/len(line)))
	err := readErr(t, bomb)
	if !errors.Is(err, ErrInflateRatio) || !strings.Contains(err.Error(), "the gzip compression failed after ") {
		t.Fatalf("a bomb of %d bytes: %v", len(bomb), err)
	}
	small := gzipped(t, "; MaxProcs: 8\n"+strings.Repeat(line, (1<<20)/len(line)-1))
	if err := readErr(t, small); err != nil {
		t.Errorf("below the floor: %v", err)
	}
	defer func(r int64) { MaxInflateRatio = r }(MaxInflateRatio)
	MaxInflateRatio = 0
	if err := readErr(t, bomb); err != nil {
		t.Errorf("with no bound: %v", err)
	}
}
