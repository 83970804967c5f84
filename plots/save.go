package plots

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gangsim/gangsim/internal/atomicfile"
)

// pdfEpoch is the creation date every PDF carries, so that PDFs are
// reproducible, and pdfDates sets it once in fpdf, which keeps it in a
// package variable.
var (
	pdfEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	pdfDates sync.Once
)

// Size is the size of a rendered figure.
type Size struct {
	// Width and Height are the figure's dimensions.
	Width, Height vg.Length
	// DPI is the PNG resolution in pixels per inch; SVG and PDF, vector
	// formats, ignore it.
	DPI int
}

// Default figure size: 16 x 10 cm, which at 96 dpi is a 605 x 378 pixel
// PNG, half a printed page wide.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
	DefaultDPI    = 96
)

// DefaultSize returns the default figure size.
func DefaultSize() Size {
	return Size{Width: DefaultWidth, Height: DefaultHeight, DPI: DefaultDPI}
}

// withDefaults fills zero fields from DefaultSize.
func (s Size) withDefaults() Size {
	d := DefaultSize()
	if s.Width == 0 {
		s.Width = d.Width
	}
	if s.Height == 0 {
		s.Height = d.Height
	}
	if s.DPI == 0 {
		s.DPI = d.DPI
	}
	return s
}

// Format is an output image format.
type Format string

// The formats Render writes.
const (
	PNG Format = "png"
	SVG Format = "svg"
	PDF Format = "pdf"
)

// Formats lists the formats Render writes.
func Formats() []Format { return []Format{PNG, SVG, PDF} }

// ErrFormat: the output's extension names no supported image format.
var ErrFormat = errors.New("unsupported image format (want .png, .svg or .pdf)")

// FormatOf returns the format a path's extension names (case-insensitive).
func FormatOf(path string) (Format, error) {
	return ParseFormat(strings.TrimPrefix(filepath.Ext(path), "."))
}

// ParseFormat returns the format named s ("png", "svg" or "pdf", any
// case).
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case PNG, SVG, PDF:
		return f, nil
	}
	return "", fmt.Errorf("%q: %w", s, ErrFormat)
}

// ParseSize reads a figure size written WIDTHxHEIGHT, each a number and a
// unit: in, cm, mm or pt ("6inx4in", "16cmx10cm", "432ptx288pt"). The
// resolution is left 0, the default.
func ParseSize(s string) (Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return Size{}, fmt.Errorf("size %q: want WIDTHxHEIGHT with units, e.g. 6inx4in or 16cmx10cm: %w", s, ErrValue)
	}
	width, err := parseLength(w)
	if err != nil {
		return Size{}, fmt.Errorf("size %q: width: %w", s, err)
	}
	height, err := parseLength(h)
	if err != nil {
		return Size{}, fmt.Errorf("size %q: height: %w", s, err)
	}
	return Size{Width: width, Height: height}, nil
}

// parseLength reads a positive length with a unit: 6in, 16cm, 160mm, 432pt.
func parseLength(s string) (vg.Length, error) {
	s = strings.TrimSpace(s)
	for _, u := range []struct {
		suffix string
		unit   vg.Length
	}{{"in", vg.Inch}, {"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"pt", vg.Points(1)}} {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("%q is not a positive length: %w", s, ErrValue)
			}
			return vg.Length(v) * u.unit, nil
		}
	}
	return 0, fmt.Errorf("%q: give a unit, in, cm, mm or pt: %w", s, ErrValue)
}

// String writes the size as ParseSize reads it, in centimeters, and its
// resolution: "16cmx10cm@96dpi".
func (s Size) String() string {
	cm := func(l vg.Length) string { return strconv.FormatFloat(float64(l/vg.Centimeter), 'f', -1, 64) }
	return cm(s.Width) + "cmx" + cm(s.Height) + "cm@" + strconv.Itoa(s.DPI) + "dpi"
}

// Save writes d to path as PNG (at 96 dpi), SVG or PDF, chosen by the path's
// extension. A zero width or height takes the default (16 x 10 cm). The
// file appears complete or not at all: it is written to a temporary file
// in the same directory and renamed over path.
func Save(d Drawer, path string, width, height vg.Length) error {
	return SaveSize(d, path, Size{Width: width, Height: height})
}

// SaveSize is Save with a resolution as well; zero fields of s take their
// defaults.
func SaveSize(d Drawer, path string, s Size) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	f, err := atomicfile.Create(path, nil)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := Render(f, d, format, s); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Commit()
}

// Render draws d and writes it to w in the given format; zero fields of s
// take their defaults. The same figure, size and format give the same
// bytes.
func Render(w io.Writer, d Drawer, format Format, s Size) error {
	s = s.withDefaults()
	if s.Width < 0 || s.Height < 0 || s.DPI < 0 {
		return fmt.Errorf("figure size %v x %v at %d dpi: %w", s.Width, s.Height, s.DPI, ErrValue)
	}
	if px := func(l vg.Length) float64 { return float64(l/vg.Inch) * float64(s.DPI) }; format == PNG && (px(s.Width) < 1 || px(s.Height) < 1) {
		return fmt.Errorf("figure size %v x %v at %d dpi is under a pixel: %w", s.Width, s.Height, s.DPI, ErrValue)
	}
	var out io.WriterTo
	switch format {
	case PNG:
		c := vgimg.NewWith(vgimg.UseWH(s.Width, s.Height), vgimg.UseDPI(s.DPI))
		d.Draw(draw.New(c))
		out = vgimg.PngCanvas{Canvas: c}
	case SVG:
		c := vgsvg.New(s.Width, s.Height)
		d.Draw(draw.New(c))
		out = c
	case PDF:
		pdfDates.Do(func() {
			// fpdf stamps a document with the time it was made unless
			// given one; the same figure must give the same bytes.
			fpdf.SetDefaultCreationDate(pdfEpoch)
			fpdf.SetDefaultModificationDate(pdfEpoch)
		})
		c := vgpdf.New(s.Width, s.Height)
		d.Draw(draw.New(c))
		out = c
	default:
		return fmt.Errorf("format %q: %w", format, ErrFormat)
	}
	if _, err := out.WriteTo(w); err != nil {
		return fmt.Errorf("encoding %s: %w", format, err)
	}
	return nil
}
