package hardware

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
	"github.com/gangsim/gangsim/repro"
)

// Reproduction is one of the papers' tables or figures made by code: the
// embedded preset it is computed on, how, and, for a figure, how it is
// drawn.
type Reproduction struct {
	// Paper and Name are the item's paper key and name, e.g. "etsion" and
	// "fig-5": results/<Paper>/<Name>.csv.
	Paper, Name string
	// Preset names the embedded preset the item is computed on.
	Preset string
	// Replays is set for an item computed by replaying benchmark
	// scenarios through the simulator (gang scheduling charged by the
	// preset), rather than by evaluating the model's equations.
	Replays bool

	build func(p presets.Preset) (product, error)
	plot  *figureSpec
	// source says what the item is computed on, as replay hw items
	// prints it, where it is more than the preset ("dcs replays on
	// calypso-nt").
	source string
}

// product is what an item's builder makes: the item, what its manifest
// adds to the preset's (parameters, the inputs replayed), and the figure
// where the builder draws it itself (a Gantt chart; nil where plot draws
// it from the rows, and for a table).
type product struct {
	item   repro.Item
	params []model.Param
	inputs []model.Input
	fig    plots.Drawer
}

// Source says what the item is computed on: its preset, or replays
// charged by it.
func (r Reproduction) Source() string {
	if r.source != "" {
		return r.source
	}
	return r.Preset
}

// Key returns "paper/name".
func (r Reproduction) Key() string { return r.Paper + "/" + r.Name }

// IsFigure reports whether the item is one of the papers' figures, which
// Figure draws: its name starts with "fig-".
func (r Reproduction) IsFigure() bool { return strings.HasPrefix(r.Name, "fig-") }

// Build computes the item on its embedded preset and returns it with the
// manifest its files record: the tool ("replay hw"), the gangsim version,
// the item, the preset and its SHA-256, and for an item made of replays
// what was replayed (scenario, policy, mechanisms, runs, seed).
func (r Reproduction) Build() (repro.Item, model.Manifest, error) {
	pr, man, err := r.make()
	return pr.item, man, err
}

// make is Build, with the figure of a builder that draws its own.
func (r Reproduction) make() (product, model.Manifest, error) {
	p, err := presets.Get(r.Preset)
	if err != nil {
		return product{}, model.Manifest{}, fmt.Errorf("%s: %w", r.Key(), err)
	}
	pr, err := r.build(p)
	if err != nil {
		return product{}, model.Manifest{}, fmt.Errorf("%s: %w", r.Key(), err)
	}
	man := model.Manifest{Tool: "replay hw", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Params: []model.Param{
		{Name: "command", Value: "items"},
		{Name: "item", Value: r.Key()},
		{Name: "preset", Value: p.Name()},
		{Name: "preset-sha256", Value: p.SHA256()},
	}, Inputs: pr.inputs}
	man.Params = append(man.Params, pr.params...)
	return pr, man, nil
}

// on adapts a family's item function, which evaluates the model on the
// preset's values, to the registry.
func on[T hwmodel.Preset](f func(T) repro.Item) func(presets.Preset) (product, error) {
	return func(p presets.Preset) (product, error) { return product{item: f(p.Cluster.(T))}, nil }
}

// withParams adapts an item function of replays, which returns the
// parameters its manifest adds, to the registry.
func withParams(f func(presets.Preset) (repro.Item, []model.Param, error)) func(presets.Preset) (product, error) {
	return func(p presets.Preset) (product, error) {
		it, params, err := f(p)
		return product{item: it, params: params}, err
	}
}

// Reproductions returns every reproduction of the hardware models, in the
// order of the papers (repro.Papers):
//
//   - etsion (parpar): fig-5, fig-6 (replays), switch-cost
//   - hori96 (ss20): table-2, table-4, table-5, fig-8 (replays)
//   - hori98 (rwc-pc2): table-3, fig-6 (replays)
//   - frachtenberg (wolverine): table-4.3, fig-4.12, table-4.5; (crescendo)
//     fig-4.13, fig-4.14, fig-4.15 (replays)
//   - mclaughlin (calypso-nt): switch-cost; exp-1, exp-2, fig-3, fig-4
//     (McLaughlin and Dasgupta's schedules replayed under dcs, drawn as
//     Gantt charts: mclaughlin_replay.go)
func Reproductions() []Reproduction {
	paperPoints := "paper"
	return []Reproduction{
		{Paper: "etsion", Name: "fig-5", Preset: "parpar", build: on(EtsionFig5), plot: &figureSpec{
			title: "E&F Fig. 5: FM bandwidth with buffer division (model)",
			x:     "bytes", xAxis: plots.Axis{Label: "Message size", Unit: "bytes", Log: true},
			yAxis: plots.Axis{Label: "Bandwidth", Unit: "MB/s"}, paper: paperPoints + " (4.1: none at 8)",
		}},
		{Paper: "etsion", Name: "fig-6", Preset: "parpar", Replays: true, build: withParams(EtsionFig6), plot: &figureSpec{
			title: "E&F Fig. 6: total bandwidth, buffer switching against division (replays)",
			x:     "bytes", xAxis: plots.Axis{Label: "Message size", Unit: "bytes", Log: true},
			yAxis: plots.Axis{Label: "Total bandwidth", Unit: "MB/s"},
			series: func(r repro.Row) string {
				if r.Coord("jobs") == "1" {
					return r.Coord("mechanism") + ", 1 job"
				}
				return r.Coord("mechanism") + ", " + r.Coord("jobs") + " jobs"
			},
		}},
		{Paper: "etsion", Name: "switch-cost", Preset: "parpar", build: on(EtsionSwitchCost)},
		{Paper: "hori96", Name: "table-2", Preset: "ss20", build: on(Hori96Table2)},
		{Paper: "hori96", Name: "table-4", Preset: "ss20", build: on(Hori96Table4)},
		{Paper: "hori96", Name: "table-5", Preset: "ss20", build: on(Hori96Table5)},
		{Paper: "hori96", Name: "fig-8", Preset: "ss20", Replays: true, build: withParams(Hori96Fig8), plot: &figureSpec{
			title: "Hori et al. 1996 Fig. 8: slowdown of fib (replays)",
			x:     "tq_ms", xAxis: plots.Axis{Label: "Time quantum", Unit: "ms"},
			yAxis: plots.Axis{Label: "Slowdown", Unit: "%"}, paper: paperPoints + " (Tables 4, 5 by 4.2's formula)",
			only: func(r repro.Row) bool { return r.Coord("program") == "fib" },
			series: func(r repro.Row) string {
				if r.Coord("processors") == "1" {
					return r.Coord("mechanism") + ", 1 PE"
				}
				return r.Coord("mechanism") + ", " + r.Coord("processors") + " PEs"
			},
		}},
		{Paper: "hori98", Name: "table-3", Preset: "rwc-pc2", build: on(Hori98Table3)},
		{Paper: "hori98", Name: "fig-6", Preset: "rwc-pc2", Replays: true, build: withParams(Hori98Fig6), plot: &figureSpec{
			title: "Hori et al. 1998 Fig. 6: slowdown by gang scheduling (replays)",
			x:     "time_slice_ms", xAxis: plots.Axis{Label: "Time slice", Unit: "ms"},
			yAxis: plots.Axis{Label: "Slowdown", Unit: "%"}, paper: paperPoints + " (bounds, 5, 6)",
			series: func(r repro.Row) string {
				return strings.ToUpper(r.Coord("application")) + ", " + r.Coord("processors") + " PEs"
			},
		}},
		{Paper: "frachtenberg", Name: "table-4.3", Preset: "wolverine", build: on(FrachtenbergTable43)},
		{Paper: "frachtenberg", Name: "fig-4.12", Preset: "wolverine", build: on(FrachtenbergFig412), plot: &figureSpec{
			title: "Frachtenberg Fig. 4.12: launch of a 12 MB binary (model)",
			x:     "nodes", xAxis: plots.Axis{Label: "Nodes", Log: true},
			yAxis: plots.Axis{Label: "Launch time", Unit: "ms"}, paper: paperPoints + " (4.3.1.1, 4.3.2.2)",
		}},
		{Paper: "frachtenberg", Name: "table-4.5", Preset: "wolverine", build: on(FrachtenbergTable45)},
		{Paper: "frachtenberg", Name: "fig-4.13", Preset: "crescendo", Replays: true, build: withParams(FrachtenbergFig413), plot: &figureSpec{
			title: "Frachtenberg Fig. 4.13: two SWEEP3D copies on Crescendo (replays)",
			x:     "quantum_ms", xAxis: plots.Axis{Label: "Time quantum", Unit: "ms", Log: true},
			yAxis: plots.Axis{Label: "Average run time", Unit: "s"},
			series: func(r repro.Row) string {
				if r.Coord("run") == "mpl-2" {
					return "MPL 2"
				}
				return "twice one copy alone"
			},
		}},
		{Paper: "frachtenberg", Name: "fig-4.14", Preset: "crescendo", Replays: true, build: withParams(FrachtenbergFig414), plot: &figureSpec{
			title: "Frachtenberg Fig. 4.14: SWEEP3D on 1 to 64 PEs, 50 ms (replays)",
			x:     "pes", xAxis: plots.Axis{Label: "PEs", Log: true},
			yAxis:  plots.Axis{Label: "Run time (MPL 2: total / 2)", Unit: "s"},
			series: func(r repro.Row) string { return "MPL " + r.Coord("mpl") },
		}},
		{Paper: "frachtenberg", Name: "fig-4.15", Preset: "crescendo", Replays: true, build: withParams(FrachtenbergFig415), plot: &figureSpec{
			title: "Frachtenberg Fig. 4.15: SWEEP3D by MPL on 64 PEs, 50 ms (replays)",
			x:     "mpl", xAxis: plots.Axis{Label: "Multiprogramming level"},
			yAxis: plots.Axis{Label: "Run time", Unit: "s"},
			series: func(r repro.Row) string {
				if r.Coord("run") == "gs" {
					return "gang scheduling"
				}
				return "linear slowdown"
			},
		}},
		{Paper: "mclaughlin", Name: "switch-cost", Preset: "calypso-nt", build: on(McLaughlinSwitchCost)},
		dcsItem("exp-1", func(p presets.Preset) (product, error) { return mclaughlinExperiment(1, p) }),
		dcsItem("exp-2", func(p presets.Preset) (product, error) { return mclaughlinExperiment(2, p) }),
		dcsItem("fig-3", func(presets.Preset) (product, error) { return mclaughlinSchedule(3, 4, 3) }),
		dcsItem("fig-4", func(presets.Preset) (product, error) { return mclaughlinSchedule(4, 7, 5) }),
	}
}

// dcsItem is one of McLaughlin and Dasgupta's items made by replays under
// dcs, charged by calypso-nt where the item charges switches.
func dcsItem(name string, build func(presets.Preset) (product, error)) Reproduction {
	return Reproduction{Paper: mclaughlinPaper, Name: name, Preset: "calypso-nt", build: build, source: "dcs replays on calypso-nt"}
}

// Keys returns the keys of Reproductions, in order.
func Keys() []string {
	var out []string
	for _, r := range Reproductions() {
		out = append(out, r.Key())
	}
	return out
}

// Find returns the reproduction with the key "paper/name", or an error
// that lists the keys there are.
func Find(key string) (Reproduction, error) {
	for _, r := range Reproductions() {
		if r.Key() == key {
			return r, nil
		}
	}
	return Reproduction{}, fmt.Errorf("unknown hardware reproduction %q (want one of %s)", key, strings.Join(Keys(), ", "))
}

// figureSpec says how a figure item is drawn: one coordinate on the X
// axis, one line per value of the others.
type figureSpec struct {
	title        string
	x            string     // the coordinate on the X axis
	xAxis, yAxis plots.Axis // Y: Gangsim and Paper
	// series labels the line a row belongs to; nil joins the other
	// coordinates as "name=value, ...".
	series func(r repro.Row) string
	// only, if not nil, says which rows the figure draws (all others are
	// in the item alone).
	only func(r repro.Row) bool
	// paper is the legend entry of the paper's values ("" when the item
	// has none).
	paper string
}

// Figure draws the figure item it, as Build made it: the model's values
// (Gangsim) as marked lines, one per value of the coordinates other than
// the X axis's, and the paper's values, where the text states them, as
// black rings of their own. It fails for an item that is not a figure.
func (r Reproduction) Figure(it *repro.Item) (*plots.Figure, error) {
	lines, paper, err := r.figureData(it)
	if err != nil {
		return nil, err
	}
	spec := r.plot
	f, err := plots.MarkedLines(plots.Frame{Title: spec.title, X: spec.xAxis, Y: spec.yAxis}, lines)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Key(), err)
	}
	if len(paper) > 0 {
		sc, err := plotter.NewScatter(paper)
		if err != nil {
			return nil, fmt.Errorf("%s: paper values: %w", r.Key(), err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.RingGlyph{}}
		f.Plot.Add(sc)
		f.Legend.Add(spec.paper, sc)
	}
	return f, nil
}

// figureData returns the lines of a figure item, each sorted by X, and its
// paper points (none when the spec gives them no legend entry).
func (r Reproduction) figureData(it *repro.Item) ([]plots.Series, plotter.XYs, error) {
	spec := r.plot
	if spec == nil {
		return nil, nil, fmt.Errorf("%s is not a figure", r.Key())
	}
	label := spec.series
	if label == nil {
		label = func(row repro.Row) string {
			var parts []string
			for _, c := range row.Coords {
				if c.Name != spec.x {
					parts = append(parts, c.Name+"="+c.Value)
				}
			}
			return strings.Join(parts, ", ")
		}
	}
	var lines []plots.Series
	var paper plotter.XYs
	for _, row := range it.Rows {
		if spec.only != nil && !spec.only(row) {
			continue
		}
		x, err := strconv.ParseFloat(row.Coord(spec.x), 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: coordinate %s of row %v: %w", r.Key(), spec.x, row.Coords, err)
		}
		name := label(row)
		i := slices.IndexFunc(lines, func(s plots.Series) bool { return s.Name == name })
		if i < 0 {
			lines = append(lines, plots.Series{Name: name})
			i = len(lines) - 1
		}
		lines[i].X = append(lines[i].X, x)
		lines[i].Y = append(lines[i].Y, row.Gangsim)
		if row.HasPaper && spec.paper != "" {
			paper = append(paper, plotter.XY{X: x, Y: row.Paper})
		}
	}
	for i := range lines {
		sortByX(&lines[i])
	}
	return lines, paper, nil
}

// sortByX orders a series' points by X, keeping the order of equal X.
func sortByX(s *plots.Series) {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.X[a], s.X[b]) })
	x, y := make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		x[i], y[i] = s.X[j], s.Y[j]
	}
	s.X, s.Y = x, y
}

// Write computes the item and saves it under resultsDir with repro.Write:
// resultsDir/<paper>/<name>.csv and, for a figure, .png, with the
// manifest. It returns the item and the paths written.
func (r Reproduction) Write(resultsDir string) (*repro.Item, []string, error) {
	return r.WriteFormats(resultsDir, plots.DefaultSize(), nil)
}

// WriteFormats is Write with the figure saved at size in each of formats
// (none means PNG alone), as repro.WriteFormats saves it.
func (r Reproduction) WriteFormats(resultsDir string, size plots.Size, formats []plots.Format) (*repro.Item, []string, error) {
	pr, man, err := r.make()
	if err != nil {
		return nil, nil, err
	}
	it, fig := &pr.item, pr.fig
	if fig == nil && r.IsFigure() {
		f, err := r.Figure(it)
		if err != nil {
			return nil, nil, err
		}
		fig = f
	}
	written, err := repro.WriteFormats(resultsDir, it, &man, fig, size, formats)
	return it, written, err
}
