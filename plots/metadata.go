package plots

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/gangsim/gangsim/internal/atomicfile"
)

// KeyValue is one metadata entry of a saved figure, e.g. the manifest line
// {"GangsimTool", "analyze"}.
type KeyValue struct {
	Key, Value string
}

// SaveWithMetadata is SaveSize that also records meta in the file: as PNG
// tEXt chunks (keyword = Key, text = Value; readable with any PNG tool,
// e.g. Python's PIL Image.info) or, in SVG, as XML comments
// "<!-- Key: Value -->" after the XML declaration. Keys must be 1 to 79
// printable Latin-1 characters (a PNG keyword's limits).
func SaveWithMetadata(d Drawer, path string, s Size, meta []KeyValue) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := Render(&buf, d, format, s); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	var out []byte
	switch format {
	case PNG:
		out, err = withPNGText(buf.Bytes(), meta)
	case SVG:
		out, err = withSVGComments(buf.Bytes(), meta)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := atomicfile.Create(path, nil)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(out); err != nil {
		return err
	}
	return f.Commit()
}

// ErrMetadata: a metadata key is not a valid PNG keyword.
var ErrMetadata = errors.New("invalid metadata key")

func checkKey(k string) error {
	if len(k) < 1 || len(k) > 79 || strings.HasPrefix(k, " ") || strings.HasSuffix(k, " ") {
		return fmt.Errorf("%q: %w (1 to 79 characters, no leading or trailing space)", k, ErrMetadata)
	}
	for _, r := range k {
		if r < 32 || r > 126 {
			return fmt.Errorf("%q: %w (printable ASCII only)", k, ErrMetadata)
		}
	}
	return nil
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// withPNGText inserts a tEXt chunk per entry after the IHDR chunk.
func withPNGText(png []byte, meta []KeyValue) ([]byte, error) {
	if !bytes.HasPrefix(png, pngSignature) || len(png) < len(pngSignature)+8 {
		return nil, errors.New("not a PNG image")
	}
	ihdrLen := binary.BigEndian.Uint32(png[8:12])
	end := 8 + 12 + int(ihdrLen) // signature, IHDR length+type+data+CRC
	if string(png[12:16]) != "IHDR" || end > len(png) {
		return nil, errors.New("PNG image without a leading IHDR chunk")
	}
	var out bytes.Buffer
	out.Write(png[:end])
	for _, kv := range meta {
		if err := checkKey(kv.Key); err != nil {
			return nil, err
		}
		data := append(append([]byte(kv.Key), 0), latin1(kv.Value)...)
		writeChunk(&out, "tEXt", data)
	}
	out.Write(png[end:])
	return out.Bytes(), nil
}

func writeChunk(w io.Writer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	w.Write([]byte(typ))
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// latin1 encodes s in ISO 8859-1, as tEXt requires; other characters
// become '?'.
func latin1(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 255 || r == 0 {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return b
}

// withSVGComments inserts an XML comment per entry after the XML
// declaration.
func withSVGComments(svg []byte, meta []KeyValue) ([]byte, error) {
	i := bytes.Index(svg, []byte("?>"))
	if !bytes.HasPrefix(svg, []byte("<?xml")) || i < 0 {
		return nil, errors.New("SVG without an XML declaration")
	}
	i += 2
	var out bytes.Buffer
	out.Write(svg[:i])
	for _, kv := range meta {
		if err := checkKey(kv.Key); err != nil {
			return nil, err
		}
		// "--" may not appear inside an XML comment.
		v := strings.ReplaceAll(kv.Key+": "+kv.Value, "--", "- -")
		fmt.Fprintf(&out, "\n<!-- %s -->", v)
	}
	out.Write(svg[i:])
	return out.Bytes(), nil
}
