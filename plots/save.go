package plots

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gangsim/gangsim/internal/atomicfile"
)

// Size is the size of a rendered figure.
type Size struct {
	// Width and Height are the figure's dimensions.
	Width, Height vg.Length
	// DPI is the PNG resolution in pixels per inch; SVG ignores it.
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
)

// ErrFormat: the output's extension names no supported image format.
var ErrFormat = errors.New("unsupported image format (want .png or .svg)")

// FormatOf returns the format a path's extension names (case-insensitive).
func FormatOf(path string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))); f {
	case PNG, SVG:
		return f, nil
	}
	return "", fmt.Errorf("%s: %w", path, ErrFormat)
}

// Save writes d to path as PNG (at 96 dpi) or SVG, chosen by the path's
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
	default:
		return fmt.Errorf("format %q: %w", format, ErrFormat)
	}
	if _, err := out.WriteTo(w); err != nil {
		return fmt.Errorf("encoding %s: %w", format, err)
	}
	return nil
}
