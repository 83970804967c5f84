package plots

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"regexp"
	"strconv"
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
// e.g. Python's PIL Image.info); in SVG, as XML comments
// "<!-- Key: Value -->" after the XML declaration; in PDF, as entries of
// the document information dictionary (/Key (Value), the values of a
// repeated key joined by newlines; pdfinfo -custom shows them), added as
// an incremental update. Keys must be 1 to 79 printable ASCII characters
// (a PNG keyword's limits).
func SaveWithMetadata(d Drawer, path string, s Size, meta []KeyValue) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	return SaveWithMetadataAs(d, path, format, s, meta)
}

// SaveWithMetadataAs is SaveWithMetadata in the given format, whatever
// the path's extension: for a device, FIFO or process substitution
// (/dev/stdout, >(...)), which package atomicfile writes through.
func SaveWithMetadataAs(d Drawer, path string, format Format, s Size, meta []KeyValue) error {
	out, err := EncodeWithMetadata(d, format, s, meta)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return WriteFile(path, out)
}

// WithMetadata returns a figure Render made, in format, with meta recorded
// as SaveWithMetadata records it; the same figure and metadata give the
// same bytes.
func WithMetadata(figure []byte, format Format, meta []KeyValue) ([]byte, error) {
	switch format {
	case PNG:
		return withPNGText(figure, meta)
	case SVG:
		return withSVGComments(figure, meta)
	case PDF:
		return withPDFInfo(figure, meta)
	}
	return nil, fmt.Errorf("figure format %q: %w", format, ErrValue)
}

// WriteFile writes a figure's bytes to path, which appears complete or not
// at all (package atomicfile).
func WriteFile(path string, out []byte) error {
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

// EncodeWithMetadata renders d in format at size s with meta, as
// SaveWithMetadataAs writes it, and returns the file's bytes: for a caller
// that publishes several files together.
func EncodeWithMetadata(d Drawer, format Format, s Size, meta []KeyValue) ([]byte, error) {
	var buf bytes.Buffer
	if err := Render(&buf, d, format, s); err != nil {
		return nil, err
	}
	return WithMetadata(buf.Bytes(), format, meta)
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

var (
	pdfSize      = regexp.MustCompile(`/Size (\d+)`)
	pdfRoot      = regexp.MustCompile(`/Root (\d+ \d+ R)`)
	pdfStartXref = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
)

// withPDFInfo appends to a PDF an incremental update whose trailer points
// at a new information dictionary holding meta (keys as names, values as
// literal strings, a repeated key's values joined by newlines).
func withPDFInfo(pdf []byte, meta []KeyValue) ([]byte, error) {
	last := bytes.LastIndex(pdf, []byte("trailer"))
	xref := pdfStartXref.FindSubmatch(pdf)
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || last < 0 || xref == nil {
		return nil, errors.New("not a PDF document with a trailer")
	}
	size, root := pdfSize.FindSubmatch(pdf[last:]), pdfRoot.FindSubmatch(pdf[last:])
	if size == nil || root == nil {
		return nil, errors.New("PDF trailer without /Size or /Root")
	}
	n, err := strconv.Atoi(string(size[1]))
	if err != nil {
		return nil, fmt.Errorf("PDF trailer /Size %s: %w", size[1], err)
	}
	var keys []string
	values := map[string][]string{}
	for _, kv := range meta {
		if err := checkKey(kv.Key); err != nil {
			return nil, err
		}
		for _, r := range kv.Key {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-') {
				return nil, fmt.Errorf("%q: %w (a PDF name: letters, digits, '.', '_' and '-')", kv.Key, ErrMetadata)
			}
		}
		if _, ok := values[kv.Key]; !ok {
			keys = append(keys, kv.Key)
		}
		values[kv.Key] = append(values[kv.Key], kv.Value)
	}
	var out bytes.Buffer
	out.Write(pdf)
	if !bytes.HasSuffix(pdf, []byte("\n")) {
		out.WriteByte('\n')
	}
	offset := out.Len()
	fmt.Fprintf(&out, "%d 0 obj\n<<\n/Producer (gangsim with gonum/plot)\n", n)
	for _, k := range keys {
		fmt.Fprintf(&out, "/%s (%s)\n", k, pdfString(strings.Join(values[k], "\n")))
	}
	fmt.Fprintf(&out, ">>\nendobj\n")
	xrefAt := out.Len()
	fmt.Fprintf(&out, "xref\n%d 1\n%010d 00000 n \ntrailer\n<<\n/Size %d\n/Root %s\n/Info %d 0 R\n/Prev %s\n>>\nstartxref\n%d\n%%%%EOF\n",
		n, offset, n+1, root[1], n, xref[1], xrefAt)
	return out.Bytes(), nil
}

// pdfString escapes s for a PDF literal string, in Latin-1.
func pdfString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`, "\n", `\n`, "\r", `\r`)
	return r.Replace(string(latin1(s)))
}

// ReadMetadata returns the entries SaveWithMetadata recorded in a saved
// figure of format f (a repeated PDF key's values split again), in file
// order; a file without any gives none. Text is read back as written:
// PNG text as Latin-1, PDF strings unescaped.
func ReadMetadata(data []byte, f Format) []KeyValue {
	var out []KeyValue
	switch f {
	case PNG:
		if !bytes.HasPrefix(data, pngSignature) {
			return nil
		}
		for i := len(pngSignature); i+12 <= len(data); {
			n := int(binary.BigEndian.Uint32(data[i : i+4]))
			typ := string(data[i+4 : i+8])
			if n < 0 || i+12+n > len(data) || typ == "IDAT" || typ == "IEND" {
				break // the text chunks come before the image data
			}
			if typ == "tEXt" {
				if k, v, ok := bytes.Cut(data[i+8:i+8+n], []byte{0}); ok {
					runes := make([]rune, len(v))
					for j, b := range v {
						runes[j] = rune(b)
					}
					out = append(out, KeyValue{string(k), string(runes)})
				}
			}
			i += 12 + n
		}
	case SVG:
		head, _, _ := bytes.Cut(data, []byte("<svg"))
		for _, m := range svgComment.FindAllSubmatch(head, -1) {
			out = append(out, KeyValue{string(m[1]), string(m[2])})
		}
	case PDF:
		i := bytes.LastIndex(data, []byte("/Producer (gangsim with gonum/plot)\n"))
		if i < 0 {
			return nil
		}
		dict, _, _ := bytes.Cut(data[i:], []byte("\n>>"))
		for _, m := range pdfEntry.FindAllSubmatch(dict, -1) {
			if string(m[1]) == "Producer" {
				continue
			}
			for _, v := range strings.Split(pdfUnescape(string(m[2])), "\n") {
				out = append(out, KeyValue{string(m[1]), v})
			}
		}
	}
	return out
}

var (
	svgComment = regexp.MustCompile(`<!-- ([!-~]+?): (.*?) -->`)
	pdfEntry   = regexp.MustCompile(`(?m)^/([A-Za-z0-9._-]+) \(((?:[^()\\]|\\.)*)\)$`)
)

// pdfUnescape undoes pdfString's escapes (Latin-1 bytes as runes).
func pdfUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			default:
				c = s[i]
			}
		}
		b.WriteRune(rune(c))
	}
	return b.String()
}
