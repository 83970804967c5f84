package plots

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/ from the current output")

// xorshift is a tiny deterministic generator for test data, independent of
// any library's random streams so that the golden images never change
// because a library did.
type xorshift uint64

func (x *xorshift) float() float64 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return float64(uint64(*x)>>11) / (1 << 53)
}

// logNormalSample returns n response times spread like a log-normal with
// the given median (s) and shape, deterministic for a seed.
func logNormalSample(seed xorshift, n int, median, sigma float64) []float64 {
	x := seed
	out := make([]float64, n)
	for i := range out {
		// Box-Muller from two uniforms in (0, 1].
		u1, u2 := 1-x.float(), x.float()
		z := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
		out[i] = median * math.Exp(sigma*z)
	}
	return out
}

// goldenFigure is a figure to compare with testdata/NAME.png, drawn at
// size (zero fields take the defaults).
type goldenFigure struct {
	name string
	fig  Drawer
	size Size
}

// goldenFigures is one figure per kind, on data shaped like the thesis's,
// and a few layouts: panels, a small size that turns category labels, and
// a wide matrix whose labels shrink and turn upright.
func goldenFigures(t *testing.T) []goldenFigure {
	mustFigure := func(f *Figure, err error) *Figure {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}

	// Fig. 6.13: CDF of the response times of short jobs, one line per
	// policy (illustrative data: the thesis's curves are not in the text).
	cdf := mustFigure(CDF(Frame{
		Title: "Response times of the 500 shortest jobs, 74% load",
		X:     Axis{Label: "Response time", Unit: "s", Log: true},
	}, []Sample{
		{Name: "FCFS", Values: logNormalSample(1, 500, 40, 1.6)},
		{Name: "GS", Values: logNormalSample(2, 500, 12, 1.3)},
		{Name: "SB", Values: logNormalSample(3, 500, 14, 1.3)},
		{Name: "FCS", Values: logNormalSample(4, 500, 7, 1.2)},
	}))

	// Figs. 6.9/6.10: distributions against the time quantum, both axes
	// logarithmic, two clusters (illustrative percentiles).
	quanta := []float64{50, 100, 200, 500, 1000, 2000}
	var cres, accel []Percentiles
	for i := range quanta {
		k := float64(i)
		cres = append(cres, Percentiles{P5: 2 + 0.6*k, P25: 12, P50: 40 + 3*k, P75: 180, P95: 1500})
		accel = append(accel, Percentiles{P5: 1.5 + 0.5*k, P25: 10 + k, P50: 35 + 4*k, P75: 160 + 5*k, P95: 1300})
	}
	cres[0].P95 = 2100 // the 50 ms quantum on Crescendo (Section 6.4.3)
	boxes := mustFigure(PercentileBoxes(Frame{
		Title: "Response time against time quantum",
		X:     Axis{Label: "Time quantum", Unit: "ms", Log: true},
		Y:     Axis{Label: "Response time", Unit: "s", Log: true},
	}, []BoxSeries{
		{Name: "Crescendo", Params: quanta, Boxes: cres},
		{Name: "Accelerando", Params: quanta, Boxes: accel},
	}))

	// Fig. 6.11: jobs in the system over time under GS, one line per load
	// (illustrative arrivals: bursts, and run times scaled by load).
	var steps []Series
	for i, load := range []float64{0.78, 0.83, 0.88, 0.93} {
		x := xorshift(99)
		var arr, dep []float64
		at := 0.0
		for j := range 300 {
			gap := 30 * x.float()
			if j >= 200 && j < 240 {
				gap /= 6 // the late arrival burst
			}
			at += gap
			arr = append(arr, at)
			run := 400 * load * load * load * x.float() * x.float()
			dep = append(dep, at+run*(1+2*float64(j)/300))
		}
		s, err := jobsInSystem(fmt.Sprintf("%.0f%%", load*100), arr, dep)
		if err != nil {
			t.Fatalf("load %d: %v", i, err)
		}
		steps = append(steps, s)
	}
	stepFig := mustFigure(StepLines(Frame{
		Title:  "Jobs in the system with GS",
		X:      Axis{Label: "Time", Unit: "s"},
		Y:      Axis{Label: "Jobs in the system"},
		Legend: "Offered load",
	}, steps))

	// Fig. 6.12(a): mean response time against offered load, each policy's
	// line ending at its saturation point (FCFS 78%, GS and SB 83%, FCS 88%:
	// Section 6.4.4); the response times are illustrative.
	loads := []float64{45, 52, 60, 67, 74, 78, 83, 88}
	resp := func(base float64, n int) Series {
		s := Series{X: loads[:n]}
		for _, l := range loads[:n] {
			s.Y = append(s.Y, base*l/(100-l))
		}
		return s
	}
	fcfs, gs, sb, fcs := resp(80, 6), resp(50, 7), resp(55, 7), resp(38, 8)
	fcfs.Name, gs.Name, sb.Name, fcs.Name = "FCFS", "GS", "SB", "FCS"
	marked := mustFigure(MarkedLines(Frame{
		Title:  "Mean response time against offered load",
		X:      Axis{Label: "Offered load", Unit: "%"},
		Y:      Axis{Label: "Mean response time", Unit: "s"},
		Legend: "Policy",
	}, []Series{fcfs, gs, sb, fcs}))

	// Fig. 6.7(a): turnaround per scenario and algorithm, Tables 6.1-6.4 of
	// the thesis (turnaround column, seconds); BCS in the first two
	// scenarios, PBCS in the last two (Section 6.3.2.5).
	nan := math.NaN()
	grouped := mustFigure(GroupedBars(Frame{
		Title: "Turnaround time per workload",
		X:     Axis{Label: "Workload"},
		Y:     Axis{Label: "Turnaround time", Unit: "s"},
	}, []string{"Balanced", "Imbalanced", "Complementing", "Mixed"}, []BarSeries{
		{Name: "FCFS", Values: []float64{120.12, 239.91, 420.67, 299.12}},
		{Name: "GS", Values: []float64{120.08, 240.60, 423.30, 298.75}},
		{Name: "SB", Values: []float64{124.09, 183.43, 271.09, 277.31}},
		{Name: "FCS", Values: []float64{120.35, 183.62, 250.15, 250.32}},
		{Name: "BCS", Values: []float64{131.72, 193.84, nan, nan}},
		{Name: "PBCS", Values: []float64{nan, nan, 270.17, 275.65}},
	}))

	// Fig. 6.14: SAGE and the filler run in its holes, stacked per machine
	// size. Only 62 processors is in the text (271 s SAGE, 58 s filler,
	// Section 6.5); the other sizes are illustrative.
	stacked := mustFigure(StackedBars(Frame{
		Title: "SAGE with a filler application under PBCS",
		X:     Axis{Label: "Processors"},
		Y:     Axis{Label: "Run time", Unit: "s"},
	}, []string{"8", "16", "32", "62"}, []BarSeries{
		{Name: "SAGE", Values: []float64{240, 250, 262, 271}},
		{Name: "Filler", Values: []float64{20, 31, 44, 58}},
	}))

	// An Ousterhout matrix: 4 time slots on 8 processors.
	matrix := mustFigure(OusterhoutMatrix(Frame{Title: "Ousterhout matrix"}, Matrix{
		Cells: [][]string{
			{"J1", "J1", "J1", "J1", "J2", "J2", "J3", "J3"},
			{"J4", "J4", "J4", "J4", "J4", "J4", "J4", "J4"},
			{"J5", "J5", "J6", "J6", "J6", "J6", "", ""},
			{"J7", "J7", "J7", "J7", "J7", "J7", "J7", ""},
		},
		Processors: []string{"PE 1", "PE 2", "PE 3", "PE 4", "PE 5", "PE 6", "PE 7", "PE 8"},
	}))

	// Distributed context switching (McLaughlin and Dasgupta, Section 3,
	// their Fig. 3): 4 tasks of t = 60 s on 3 machines in thirds, optimal
	// turnaround 4t/3 = 80 s with two switches (task 2 from machine 2 to 1,
	// task 3 from machine 3 to 2).
	sched := mustFigure(Schedule(Frame{
		Title: "4 tasks on 3 machines, optimal schedule",
		X:     Axis{Label: "Time", Unit: "s"},
		Y:     Axis{Label: "Machine"},
	}, []string{"M1", "M2", "M3"}, []Interval{
		{Row: 0, Start: 0, End: 60, Job: "Task 1", Label: "T1"},
		{Row: 0, Start: 60, End: 80, Job: "Task 2", Label: "T2 (3/3)"},
		{Row: 1, Start: 0, End: 40, Job: "Task 2", Label: "T2 (1-2/3)"},
		{Row: 1, Start: 40, End: 80, Job: "Task 3", Label: "T3 (2-3/3)"},
		{Row: 2, Start: 0, End: 20, Job: "Task 3", Label: "T3 (1/3)"},
		{Row: 2, Start: 20, End: 80, Job: "Task 4", Label: "T4"},
	}))

	// Fig. 6.13 has two panels: (a) the 500 shortest, (b) the 500 longest.
	long := mustFigure(CDF(Frame{
		Title: "Response times of the 500 longest jobs, 74% load",
		X:     Axis{Label: "Response time", Unit: "s", Log: true},
	}, []Sample{
		{Name: "FCFS", Values: logNormalSample(5, 500, 900, 0.9)},
		{Name: "GS", Values: logNormalSample(6, 500, 1300, 0.9)},
		{Name: "SB", Values: logNormalSample(7, 500, 1400, 0.9)},
		{Name: "FCS", Values: logNormalSample(8, 500, 1000, 0.9)},
	}))
	// Waits on a log axis: a third of one policy's jobs did not wait at
	// all; they are drawn at the floor and counted, not dropped.
	waits := func(seed xorshift, zeros int) []float64 {
		v := logNormalSample(seed, 300, 30, 1.5)
		for i := range zeros {
			v[i] = 0
		}
		return v
	}
	floorCDF := mustFigure(CDF(Frame{
		Title:  "Wait times, zeros at the axis floor",
		X:      Axis{Label: "Wait time", Unit: "s", Log: true},
		Legend: "Policy",
	}, []Sample{{Name: "FCFS", Values: waits(9, 20)}, {Name: "EASY", Values: waits(10, 100)}}))
	floorBoxes := mustFigure(PercentileBoxes(Frame{
		Title: "Wait time against offered load",
		X:     Axis{Label: "Offered load"},
		Y:     Axis{Label: "Wait time", Unit: "s", Log: true},
	}, []BoxSeries{{Name: "EASY", Params: []float64{0.5, 0.7, 0.9},
		Boxes: []Percentiles{{0, 0, 0, 3, 40}, {0, 0, 2, 30, 400}, {0, 5, 60, 600, 5000}}}}))

	panels, err := NewGrid(1, 2, cdf, long)
	if err != nil {
		t.Fatal(err)
	}

	// A 32-processor machine with 18 jobs: column headings upright, cell
	// labels shrunk to fit.
	var cells [][]string
	for s := range 6 {
		var row []string
		for p := range 32 {
			row = append(row, fmt.Sprintf("J%d", s*3+p/11))
		}
		cells = append(cells, row)
	}
	wide := mustFigure(OusterhoutMatrix(Frame{Title: "Ousterhout matrix, 32 processors"}, Matrix{Cells: cells}))

	// A paper's sizes: a one-column figure (fonts scaled down, the legend
	// below the plot as a column would take a third of the width) and a
	// 2 x 2 grid of panels on a 6 x 4 in page figure.
	small, err := NewGrid(2, 2, marked, boxes, stepFig, floorCDF)
	if err != nil {
		t.Fatal(err)
	}

	return []goldenFigure{
		{name: "cdf", fig: cdf},
		{name: "percentile_boxes", fig: boxes},
		{name: "step_lines", fig: stepFig},
		{name: "marked_lines", fig: marked},
		{name: "grouped_bars", fig: grouped},
		{name: "stacked_bars", fig: stacked},
		{name: "ousterhout_matrix", fig: matrix},
		{name: "schedule", fig: sched},
		{name: "cdf_panels", fig: panels, size: Size{Width: 2 * DefaultWidth}},
		{name: "grouped_bars_small", fig: grouped, size: Size{Width: 9 * vg.Centimeter, Height: 6 * vg.Centimeter}},
		{name: "ousterhout_matrix_32", fig: wide},
		{name: "cdf_floor", fig: floorCDF},
		{name: "percentile_boxes_floor", fig: floorBoxes},
		{name: "cdf_floor_column", fig: floorCDF, size: Size{Width: 3.3 * vg.Inch, Height: 2.2 * vg.Inch, DPI: 300}},
		{name: "panels_6x4in", fig: small, size: Size{Width: 6 * vg.Inch, Height: 4 * vg.Inch, DPI: 150}},
	}
}

// TestGolden renders each figure at its size and compares it pixel by
// pixel, with no tolerance, against testdata/NAME.png. Regenerate with
// "go test ./plots -update" after checking the new images by eye.
func TestGolden(t *testing.T) {
	for _, g := range goldenFigures(t) {
		t.Run(g.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Render(&buf, g.fig, PNG, g.size); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", g.name+".png")
			if *update {
				if err := SaveSize(g.fig, path, g.size); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./plots -update to create it)", err)
			}
			if diff, err := pixelDiff(buf.Bytes(), want); err != nil || diff != "" {
				got := filepath.Join(t.TempDir(), g.name+".png")
				if keep, e := os.CreateTemp("", "plots-"+g.name+"-*.png"); e == nil {
					keep.Write(buf.Bytes())
					keep.Close()
					got = keep.Name()
				}
				t.Errorf("%s differs from the golden image: %s %v; this run's image is %s", path, diff, err, got)
			}
		})
	}
}

// pixelDiff decodes two PNGs and describes how they differ: "" when every
// pixel is equal.
func pixelDiff(got, want []byte) (string, error) {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return "", fmt.Errorf("decoding the rendered image: %w", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return "", fmt.Errorf("decoding the golden image: %w", err)
	}
	if g.Bounds() != w.Bounds() {
		return fmt.Sprintf("size %v, want %v", g.Bounds(), w.Bounds()), nil
	}
	n, first := 0, image.Point{-1, -1}
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := g.At(x, y).RGBA()
			r2, g2, b2, a2 := w.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
			}
		}
	}
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d of %d pixels differ, the first at %v", n, b.Dx()*b.Dy(), first), nil
}

// TestDeterministic renders every figure twice in each format: the bytes
// must be equal.
func TestDeterministic(t *testing.T) {
	for _, g := range goldenFigures(t) {
		for _, format := range []Format{PNG, SVG} {
			var a, b bytes.Buffer
			if err := Render(&a, g.fig, format, DefaultSize()); err != nil {
				t.Fatal(err)
			}
			if err := Render(&b, g.fig, format, DefaultSize()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s as %s: two renderings differ (%d and %d bytes)", g.name, format, a.Len(), b.Len())
			}
		}
	}
}

// jobsInSystem returns the number of jobs in the system (arrived and not
// yet departed) over time as a series for StepLines: a point at the first
// arrival with count 0, then one point per distinct event time with the
// count after every arrival and departure at that time. arrivals[i] and
// departures[i] are job i's times in any one unit; a job must not depart
// before it arrives.
func jobsInSystem(name string, arrivals, departures []float64) (Series, error) {
	what := fmt.Sprintf("jobs in system %q", name)
	if len(arrivals) == 0 {
		return Series{}, fmt.Errorf("%s: %w", what, ErrEmpty)
	}
	if len(arrivals) != len(departures) {
		return Series{}, fmt.Errorf("%s: %d arrivals, %d departures: %w", what, len(arrivals), len(departures), ErrLength)
	}
	if err := checkValues(what+" arrivals", arrivals, false); err != nil {
		return Series{}, err
	}
	if err := checkValues(what+" departures", departures, false); err != nil {
		return Series{}, err
	}
	type event struct {
		at    float64
		delta float64
	}
	events := make([]event, 0, 2*len(arrivals))
	for i, a := range arrivals {
		if departures[i] < a {
			return Series{}, fmt.Errorf("%s: job %d departs at %v before it arrives at %v: %w", what, i, departures[i], a, ErrValue)
		}
		events = append(events, event{a, 1}, event{departures[i], -1})
	}
	slices.SortStableFunc(events, func(a, b event) int { return cmp.Compare(a.at, b.at) })
	s := Series{Name: name, X: []float64{events[0].at}, Y: []float64{0}}
	count := 0.0
	for i, e := range events {
		count += e.delta
		if i+1 < len(events) && events[i+1].at == e.at {
			continue // one point per event time, after all its events
		}
		s.X = append(s.X, e.at)
		s.Y = append(s.Y, count)
	}
	return s, nil
}
