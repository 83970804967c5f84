package plots

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// textBox is where a drawn string lies on the canvas: its bounding box,
// and the box in the frame of its rotation (angle), in which two strings
// turned alike are compared.
type textBox struct {
	s                      string
	minX, minY, maxX, maxY vg.Length
	angle                  float64
	local                  [4]vg.Length // minX, minY, maxX, maxY before the rotation
}

// overlaps reports whether two strings' ink overlaps by more than slack:
// in their common frame when turned alike, else by their bounding boxes.
func (a textBox) overlaps(b textBox, slack vg.Length) bool {
	if a.angle == b.angle {
		return a.local[0]+slack < b.local[2] && b.local[0]+slack < a.local[2] && a.local[1]+slack < b.local[3] && b.local[1]+slack < a.local[3]
	}
	return a.minX+slack < b.maxX && b.minX+slack < a.maxX && a.minY+slack < b.maxY && b.minY+slack < a.maxY
}

// drawnTexts draws d on a w x h recording canvas and returns the bounding
// box of every string drawn, rotations undone.
func drawnTexts(d Drawer, w, h vg.Length) []textBox {
	rec := &recorder.Canvas{}
	d.Draw(draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	type affine struct{ a, b, c, d, e, f float64 } // x' = a x + b y + e, y' = c x + d y + f
	cur := affine{1, 0, 0, 1, 0, 0}
	angle := 0.0
	var stack []affine
	var angles []float64
	apply := func(t affine, x, y vg.Length) (vg.Length, vg.Length) {
		return vg.Length(t.a*float64(x) + t.b*float64(y) + t.e), vg.Length(t.c*float64(x) + t.d*float64(y) + t.f)
	}
	var boxes []textBox
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.Push:
			stack, angles = append(stack, cur), append(angles, angle)
		case *recorder.Pop:
			cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
			angle, angles = angles[len(angles)-1], angles[:len(angles)-1]
		case *recorder.Rotate:
			angle += a.Angle
			s, c := math.Sincos(a.Angle)
			cur = affine{cur.a*c + cur.b*s, -cur.a*s + cur.b*c, cur.c*c + cur.d*s, -cur.c*s + cur.d*c, cur.e, cur.f}
		case *recorder.Translate:
			x, y := apply(cur, a.Point.X, a.Point.Y)
			cur.e, cur.f = float64(x), float64(y)
		case *recorder.Scale:
			cur = affine{cur.a * a.X, cur.b * a.Y, cur.c * a.X, cur.d * a.Y, cur.e, cur.f}
		case *recorder.FillString:
			sty := text.Style{Font: a.Font, Handler: plot.DefaultTextHandler}
			sty.Font.Size = a.Size
			// The ink of a line of text: from the descenders (a fifth of
			// the size below the baseline) to the capitals and ascenders
			// (three quarters above).
			x0, x1 := a.Point.X, a.Point.X+sty.Width(a.String)
			y0, y1 := a.Point.Y-0.2*a.Size, a.Point.Y+0.75*a.Size
			b := textBox{s: a.String, minX: vg.Length(math.Inf(1)), minY: vg.Length(math.Inf(1)), maxX: vg.Length(math.Inf(-1)), maxY: vg.Length(math.Inf(-1)),
				angle: angle, local: [4]vg.Length{x0, y0, x1, y1}}
			for _, p := range [][2]vg.Length{{x0, y0}, {x0, y1}, {x1, y0}, {x1, y1}} {
				x, y := apply(cur, p[0], p[1])
				b.minX, b.maxX = min(b.minX, x), max(b.maxX, x)
				b.minY, b.maxY = min(b.minY, y), max(b.maxY, y)
			}
			boxes = append(boxes, b)
		}
	}
	return boxes
}

// TestSmallFiguresReadable draws every kind of figure at the sizes a
// paper uses (a 3.3 x 2.2 in column, 8 x 6 cm, a 2 x 2 grid of panels at
// 6 x 4 in) and at the default size, and checks what a reader needs:
// every text lies inside the image (no title cut to "istribution") and no
// two texts overlap (tick labels running together, a legend over an axis
// title). Fonts, tick labels and the legend's place adapt to the size
// (Figure.Draw).
func TestSmallFiguresReadable(t *testing.T) {
	figs := goldenFigures(t)
	byName := map[string]Drawer{}
	for _, g := range figs {
		byName[g.name] = g.fig
	}
	grid, err := NewGrid(2, 2, byName["marked_lines"], byName["percentile_boxes"], byName["step_lines"], byName["cdf_floor"])
	if err != nil {
		t.Fatal(err)
	}
	type sized struct {
		name string
		fig  Drawer
		w, h vg.Length
	}
	var cases []sized
	for _, g := range figs {
		if g.name == "cdf_panels" {
			continue // a grid: drawn below
		}
		for _, s := range [][2]vg.Length{{3.3 * vg.Inch, 2.2 * vg.Inch}, {8 * vg.Centimeter, 6 * vg.Centimeter}, {DefaultWidth, DefaultHeight}} {
			cases = append(cases, sized{g.name, g.fig, s[0], s[1]})
		}
	}
	cases = append(cases, sized{"grid", grid, 6 * vg.Inch, 4 * vg.Inch}, sized{"cdf_panels", byName["cdf_panels"], 7 * vg.Inch, 2.5 * vg.Inch})
	const slack = vg.Length(0.5) // points
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%.1fx%.1fin", c.name, c.w/vg.Inch, c.h/vg.Inch), func(t *testing.T) {
			boxes := drawnTexts(c.fig, c.w, c.h)
			for _, b := range boxes {
				if b.minX < -slack || b.minY < -slack || b.maxX > c.w+slack || b.maxY > c.h+slack {
					t.Errorf("%q is cut by the image's edge: [%.1f, %.1f] x [%.1f, %.1f] of %.1f x %.1f pt", b.s, b.minX, b.maxX, b.minY, b.maxY, c.w, c.h)
				}
			}
			for i, a := range boxes {
				for _, b := range boxes[i+1:] {
					if a.overlaps(b, slack) {
						t.Errorf("%q and %q overlap", a.s, b.s)
					}
				}
			}
			// Drawing leaves the figure as it was: the same texts again.
			again := drawnTexts(c.fig, c.w, c.h)
			if fmt.Sprint(again) != fmt.Sprint(boxes) {
				t.Error("a second drawing differs from the first")
			}
		})
	}
}

// TestTypeScale: figures of the default size or larger (and the panels of
// a grid of them) keep the designed typography; smaller ones scale by the
// square root of their relative size, no lower than minTypeScale.
func TestTypeScale(t *testing.T) {
	at := func(w, h vg.Length) float64 {
		return typeScale(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	}
	for _, c := range []struct {
		w, h vg.Length
		want float64
	}{
		{DefaultWidth, DefaultHeight, 1},
		{2 * DefaultWidth, 2 * DefaultHeight, 1},
		{(2*DefaultWidth - gridPad) / 2, (2*DefaultHeight - gridPad) / 2, 1},
		{referenceWidth / 4, 2 * referenceHeight, 0.6}, // sqrt(1/4) = 0.5, raised to the least
		{referenceWidth / 2, referenceHeight, math.Sqrt(0.5)},
	} {
		if got := at(c.w, c.h); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v x %v: scale %v, want %v", c.w, c.h, got, c.want)
		}
	}
}
