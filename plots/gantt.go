package plots

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// jobTint is how much white lightens a job's color in the Gantt charts, so
// that the black labels on it stay readable.
const jobTint = 0.45

// jobColors assigns each distinct job name a palette index in order of
// first appearance, so the same input always gets the same colors.
type jobColors struct {
	index map[string]int
	order []string
}

func (j *jobColors) of(job string) int {
	if j.index == nil {
		j.index = make(map[string]int)
	}
	i, ok := j.index[job]
	if !ok {
		i = len(j.order)
		j.index[job] = i
		j.order = append(j.order, job)
	}
	return i
}

// Matrix is an Ousterhout matrix: the gang scheduler's table with one row
// per time slot and one column per processor, each cell naming the job
// whose process runs on that processor in that slot.
type Matrix struct {
	// Cells[slot][processor] is the job in that cell; "" leaves it idle.
	// Every row has one cell per processor.
	Cells [][]string
	// Processors heads the columns; nil numbers them 1, 2, ...
	Processors []string
	// Slots heads the rows, drawn top to bottom; nil numbers them 1, 2, ...
	Slots []string
}

// OusterhoutMatrix draws a Matrix as a grid of cells, each colored after
// its job and labelled with the job's name; idle cells stay white. It
// illustrates gang scheduling (Hori et al. 1996, Frachtenberg ch. 6: the
// jobs of one row run together in one time slot, rows alternate every
// quantum). fr.X and fr.Y default to "Processor" and "Time slot".
func OusterhoutMatrix(fr Frame, m Matrix) (*Figure, error) {
	name := fmt.Sprintf("Ousterhout matrix %q", fr.Title)
	if fr.X.Label == "" {
		fr.X.Label = "Processor"
	}
	if fr.Y.Label == "" {
		fr.Y.Label = "Time slot"
	}
	if fr.X.Log || fr.Y.Log {
		return nil, fmt.Errorf("%s: a matrix has no logarithmic axis: %w", name, ErrLogScale)
	}
	if len(m.Cells) == 0 || len(m.Cells[0]) == 0 {
		return nil, fmt.Errorf("%s: no cells: %w", name, ErrEmpty)
	}
	slots, procs := len(m.Cells), len(m.Cells[0])
	for i, row := range m.Cells {
		if len(row) != procs {
			return nil, fmt.Errorf("%s: slot %d has %d cells, slot 0 has %d: %w", name, i, len(row), procs, ErrLength)
		}
	}
	procNames, err := headings(m.Processors, procs)
	if err != nil {
		return nil, fmt.Errorf("%s: processors: %w", name, err)
	}
	slotNames, err := headings(m.Slots, slots)
	if err != nil {
		return nil, fmt.Errorf("%s: slots: %w", name, err)
	}

	f := newFigure(fr)
	cells := newRects(draw.LineStyle{Color: color.Black, Width: vg.Points(0.75)})
	var colors jobColors
	for i, row := range m.Cells {
		y := float64(slots - 1 - i) // slot 0 on top
		for j, job := range row {
			c := rect{x0: float64(j) - 0.5, x1: float64(j) + 0.5, y0: y - 0.5, y1: y + 0.5, fill: color.White}
			if job != "" {
				c.fill, c.label = SeriesTint(colors.of(job), jobTint), job
			}
			cells.rs = append(cells.rs, c)
		}
	}
	f.Plot.Add(cells)
	categoryTicks(&f.Plot.X, procNames)
	f.xCategories = procNames
	reversed := make([]string, slots)
	for i, s := range slotNames {
		reversed[slots-1-i] = s
	}
	categoryTicks(&f.Plot.Y, reversed)
	f.Plot.X.Padding, f.Plot.Y.Padding = 0, 0
	return f, nil
}

// headings returns given, or 1..n when given is nil; it fails when given
// has the wrong length.
func headings(given []string, n int) ([]string, error) {
	if given == nil {
		given = make([]string, n)
		for i := range given {
			given[i] = strconv.Itoa(i + 1)
		}
	}
	if len(given) != n {
		return nil, fmt.Errorf("%d headings for %d: %w", len(given), n, ErrLength)
	}
	return given, nil
}

// Interval is one stretch of a processor's time given to a job or task.
type Interval struct {
	// Row indexes the processor in Schedule's rows.
	Row int
	// Start and End bound the interval, in the unit of the X axis; Start <
	// End.
	Start, End float64
	// Job keys the interval's color and its legend entry; it must not be
	// empty.
	Job string
	// Label is written inside the interval when it fits; empty for Job.
	Label string
}

// Schedule draws a Gantt chart of task schedules: one row per processor,
// top to bottom in the order of rows, and a colored bar per interval,
// labelled inside and colored by job, with a legend of the jobs in order
// of first appearance. Gaps between bars are idle time or context
// switches. It illustrates gang scheduling over time (Frachtenberg ch. 6,
// Hori et al.) and McLaughlin and Dasgupta's distributed context switching
// (p tasks on m machines, each task moving between machines).
//
// fr.X needs a label (time, with its unit); fr.Y defaults to "Processor".
// On a logarithmic X axis, interval ends below its floor (Axis.Floor, by
// default the power of ten at or below the smallest positive time: a
// schedule starts at 0) are drawn at the floor, and the legend says how
// many of each job's intervals start below it.
func Schedule(fr Frame, rows []string, intervals []Interval) (*Figure, error) {
	name := fmt.Sprintf("schedule %q", fr.Title)
	if fr.Y.Label == "" {
		fr.Y.Label = "Processor"
	}
	if err := checkLabel("X", fr.X); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if fr.Y.Log {
		return nil, fmt.Errorf("%s: Y axis: rows have no logarithmic scale: %w", name, ErrLogScale)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows: %w", name, ErrEmpty)
	}
	if len(intervals) == 0 {
		return nil, fmt.Errorf("%s: no intervals: %w", name, ErrEmpty)
	}
	var colors jobColors
	const height = 0.7 // of the spacing of two rows
	bars := newRects(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)})
	var times []float64
	for _, iv := range intervals {
		times = append(times, iv.Start, iv.End)
	}
	floor := fr.X.drawnFloor(times)
	var below, of []int // per job in colors.order: intervals starting below the floor, all
	for i, iv := range intervals {
		what := fmt.Sprintf("%s: interval %d", name, i)
		if iv.Row < 0 || iv.Row >= len(rows) {
			return nil, fmt.Errorf("%s: row %d of %d: %w", what, iv.Row, len(rows), ErrValue)
		}
		if iv.Job == "" {
			return nil, fmt.Errorf("%s: no job: %w", what, ErrValue)
		}
		if err := checkValues(what, []float64{iv.Start, iv.End}, false); err != nil {
			return nil, err
		}
		if !(iv.Start < iv.End) {
			return nil, fmt.Errorf("%s: ends at %v, not after its start %v: %w", what, iv.End, iv.Start, ErrValue)
		}
		label := iv.Label
		if label == "" {
			label = iv.Job
		}
		y := float64(len(rows) - 1 - iv.Row)
		k := colors.of(iv.Job)
		if k == len(of) {
			below, of = append(below, 0), append(of, 0)
		}
		of[k]++
		if iv.Start < floor {
			below[k]++
		}
		bars.rs = append(bars.rs, rect{
			x0: max(iv.Start, floor), x1: max(iv.End, floor), y0: y - height/2, y1: y + height/2,
			fill: SeriesTint(k, jobTint), label: label,
		})
	}
	f := newFigure(fr)
	f.Plot.Add(gridLines(true, false), bars)
	for k, job := range colors.order {
		name := job
		if below[k] > 0 {
			name += belowFloorOf(below[k], of[k], "intervals starting", floor, fr.X.Unit)
		}
		f.addLegend(name, swatch{fill: SeriesTint(k, jobTint), edge: bars.edge})
	}
	reversed := make([]string, len(rows))
	for i, r := range rows {
		reversed[len(rows)-1-i] = r
	}
	categoryTicks(&f.Plot.Y, reversed)
	f.Plot.Y.Min, f.Plot.Y.Max = -0.5, float64(len(rows))-0.5
	fixLogRange(&f.Plot.X, fr.X.Log)
	return f, nil
}
