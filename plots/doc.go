// Package plots draws the kinds of figure that the papers behind gangsim
// use, chiefly chapter 6 of Frachtenberg's thesis ("Leveraging Modern
// Interconnects for Parallel System Software"; Sections 6.3.2 and 6.4),
// with gonum.org/v1/plot, and saves them as PNG, SVG or PDF.
//
// Each kind is one function that takes plain data (slices of float64 and
// strings in this package's small structs, never another gangsim package's
// types) and returns a *Figure, or an error wrapping ErrEmpty, ErrLength,
// ErrValue, ErrLogScale or ErrLabel for bad input:
//
//   - CDF: empirical cumulative distributions, one step line per sample,
//     optionally on a logarithmic X axis. Fig. 6.13 (response times of
//     the 500 shortest and 500 longest jobs at 74% load, one line per
//     policy).
//   - PercentileBoxes: a box from the 25th to the 75th percentile with the
//     median, whiskers to the 5th and 95th, against a parameter, series
//     side by side, either axis logarithmic. Figs. 6.9 and 6.10 (response
//     time and bounded slowdown against the time quantum on two clusters),
//     and Fig. 6.8 against the MPL. The percentiles come from the caller
//     (metrics.Describe computes them), so figures and tables agree.
//   - StepLines: piecewise-constant time series, one step line per series.
//     Fig. 6.11 (jobs in the system over time under GS, one line per
//     offered load); metrics.JobsInSystem rebuilds it from outcomes.
//   - MarkedLines: a metric against a parameter, one line per series with
//     distinct markers. Fig. 6.12 (mean and median response time and
//     bounded slowdown against offered load, one line per policy) and
//     Fig. 6.8.
//   - GroupedBars: a cluster of bars per category, one bar per series.
//     Fig. 6.7 (turnaround and mean response time per synthetic scenario,
//     one bar per algorithm; Tables 6.1-6.4).
//   - StackedBars: one bar per category stacked from components. Fig. 6.14
//     (SAGE's run time with the filler squeezed into its holes, per machine
//     size), or any breakdown of time into components per policy.
//   - OusterhoutMatrix: the gang scheduler's matrix of time slots by
//     processors, each cell labelled with its job.
//   - Schedule: a Gantt chart of processors over time, colored and
//     labelled intervals per job or task, for gang scheduling and for
//     McLaughlin and Dasgupta's distributed context switching.
//
// Every figure has a title, axis titles that carry their unit (Axis.Unit,
// printed as "Label (unit)"), and a legend drawn beside the plot, or below
// it when a column would take a third of the width, never over the data.
// The typography follows the size a figure (or a grid's panel) is drawn
// at: below 16 x 10 cm the fonts shrink with the square root of the size
// (a 3.3-inch column figure's ticks are 7 pt), tick labels that would run
// together are thinned, and titles shrink to fit, so that a paper's
// figure is readable (TestSmallFiguresReadable: no text cut or
// overlapping at a column's size, 8 x 6 cm, or a 2 x 2 grid at 6 x 4 in);
// at the default size and above nothing changes. Series are told apart by a fixed palette (Okabe and Ito's
// colorblind-safe colors, SeriesColor), dash patterns (SeriesDashes) and
// marker shapes (SeriesGlyph), assigned by series order, so the same data
// always looks the same.
//
// Every figure counts every value: on a logarithmic axis, every kind
// draws the values below the axis floor (Axis.Floor, by default the power
// of ten at or below the smallest positive value; zeros are the usual
// case) at the floor, a CDF's fractions stay over all values, and the
// legend says how many of each series lie below ("easy (3 of 8 < 1 s)",
// "GS (2 of 7 points < 1 s)", "fcfs (1 of 4 bars < 0.01 s)"). Line figures leave headroom above their highest value, so no
// line runs along the plot's edge. Frame.Legend titles the legend.
//
// Save writes a figure as PNG, SVG or PDF by the file's extension, 16 x 10
// cm at 96 dpi by default (SaveSize and Render take another size or
// resolution; ParseSize reads "6inx4in"), through internal/atomicfile so
// that an interrupted run leaves no partial image. Output is deterministic: the same figure, size
// and format give the same bytes. NewGrid tiles several figures into one
// image, like the (a)-(d) panels of the thesis.
//
// The tests compare each kind pixel by pixel with testdata/*.png; after a
// deliberate change, regenerate them with "go test ./plots -update" and
// look at every image before committing it.
package plots
