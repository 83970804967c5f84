package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/plots"
	"github.com/gangsim/gangsim/repro"
)

// Experiment is one reproduced table or figure described as data: the run
// it varies, the grid of values it varies it over (policies, loads,
// seeds...), how the finished runs become the item's rows and drawing, the
// paper's values to set beside gangsim's, and the paper's claims to check.
// The repository keeps one per item, experiments/<paper>/<item>.json;
// `replay sweep` runs them and `make figures` runs them all.
//
// Adding a policy to an experiment is adding its name to the "policy"
// axis's values.
type Experiment struct {
	// Item is the results path, "paper/name" (results/<paper>/<name>.csv).
	Item string `json:"item"`
	// Title says what the item shows, with the paper's numbering.
	Title string `json:"title"`
	// Notes says how the setup differs from the paper's, for the report.
	Notes string `json:"notes,omitempty"`
	// Run is the base run description (a Run as JSON) that the grid varies.
	Run json.RawMessage `json:"run"`
	// Grid lists the axes; every combination of their values is one run.
	Grid []pipelines.Axis `json:"grid,omitempty"`
	// Also lists further grids over the same axes (same names, same
	// order), whose runs join the grid's: a costly policy at fewer seeds
	// beside cheap ones at many, in one item. No point may appear twice.
	// The analyses group runs by their coordinates, so a series with fewer
	// replicas is averaged (and votes) over the replicas it has.
	Also [][]pipelines.Axis `json:"also,omitempty"`
	// Analysis turns the finished runs into rows and a figure.
	Analysis Analysis `json:"analysis"`
	// Paper lists the paper's values for cells of the item.
	Paper []PaperValue `json:"paper,omitempty"`
	// Claims lists the paper's qualitative statements to check on the rows.
	Claims []ClaimSpec `json:"claims,omitempty"`
	// Figure sets the size, resolution and formats of the item's figure.
	Figure *FigureSpec `json:"figure,omitempty"`
}

// FigureSpec is how an experiment's figure is saved. Empty fields take
// the defaults: 16 x 10 cm (twice as wide and as tall as needed for
// panels), 96 dpi, PNG.
type FigureSpec struct {
	// Size is WIDTHxHEIGHT with units, e.g. "6inx4in" (plots.ParseSize).
	Size string `json:"size,omitempty"`
	// DPI is the PNG resolution in pixels per inch.
	DPI int `json:"dpi,omitempty"`
	// Formats lists the files to write: "png", "svg", "pdf".
	Formats []string `json:"formats,omitempty"`
}

// Options resolves the spec into FigureOptions.
func (f *FigureSpec) Options() (FigureOptions, error) {
	var o FigureOptions
	if f == nil {
		return o, nil
	}
	if f.Size != "" {
		s, err := plots.ParseSize(f.Size)
		if err != nil {
			return o, fmt.Errorf("figure: %w", err)
		}
		o.Size = &s
	}
	if f.DPI < 0 {
		return o, fmt.Errorf("figure: dpi %d is negative", f.DPI)
	}
	o.DPI = f.DPI
	for _, name := range f.Formats {
		fm, err := plots.ParseFormat(name)
		if err != nil {
			return o, fmt.Errorf("figure: format %w", err)
		}
		o.Formats = append(o.Formats, fm)
	}
	return o, nil
}

// FigureOptions are how a figure is saved: a size (nil for the drawing's
// own), a resolution (0 for 96 dpi) and formats (none for PNG).
type FigureOptions struct {
	Size    *plots.Size
	DPI     int
	Formats []plots.Format
}

// Key is o as stable text, for keys (ItemKey): two options that save a
// figure alike have the same key.
func (o FigureOptions) Key() string {
	k := fmt.Sprintf("dpi=%d formats=%v", o.DPI, o.Formats)
	if o.Size != nil {
		k += fmt.Sprintf(" size=%v", *o.Size)
	}
	return k
}

// Over returns o with the fields set in override replacing its own:
// make figures' options over an experiment's.
func (o FigureOptions) Over(override FigureOptions) FigureOptions {
	if override.Size != nil {
		o.Size = override.Size
	}
	if override.DPI > 0 {
		o.DPI = override.DPI
	}
	if len(override.Formats) > 0 {
		o.Formats = override.Formats
	}
	return o
}

// PaperValue is the paper's value of the cell whose coordinates include
// Coords, and the tolerance gangsim's value is held to.
type PaperValue struct {
	Coords    map[string]string `json:"coords"`
	Value     float64           `json:"value"`
	Tolerance float64           `json:"tolerance"`
	// Source cites the value: section, table, figure, page.
	Source string `json:"source"`
}

// LoadExperiment reads an experiment file, rejecting unknown fields, and
// checks it. It returns the file's SHA-256 too, which every output made
// from it records.
func LoadExperiment(path string) (*Experiment, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(b)
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var e Experiment
	if err := d.Decode(&e); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if err := e.Validate(); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return &e, hex.EncodeToString(sum[:]), nil
}

// Validate checks the item name, the grid, the analysis and that every
// expanded run is valid.
func (e *Experiment) Validate() error {
	paper, name, ok := strings.Cut(e.Item, "/")
	probe := repro.Item{Paper: paper, Name: name}
	if !ok {
		return fmt.Errorf("item %q: want paper/name", e.Item)
	}
	if err := probe.Validate(); err != nil {
		return err
	}
	_, points, err := e.Runs()
	if err != nil {
		return err
	}
	axes := map[string]bool{}
	for _, a := range e.Grid {
		axes[a.Name] = true
	}
	if err := e.Analysis.validate(axes); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	if err := e.checkAxes(points); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	for _, c := range e.Claims {
		if err := c.validate(); err != nil {
			return err
		}
	}
	if _, err := e.Figure.Options(); err != nil {
		return err
	}
	return nil
}

// checkAxes checks the analysis against the grid's points
// (analysisContext.checkAxes) before anything runs.
func (e *Experiment) checkAxes(points []pipelines.Point) error {
	stubs := make([]*pipelines.Finished, len(points))
	for i, p := range points {
		stubs[i] = &pipelines.Finished{Point: p}
	}
	return (&analysisContext{exp: e, runs: stubs}).checkAxes()
}

// Runs expands the grid, then each of the Also grids, into runs, each
// labeled with its grid point.
func (e *Experiment) Runs() ([]*pipelines.Run, []pipelines.Point, error) {
	docs, points, err := pipelines.Expand(e.Run, e.Grid)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, p := range points {
		seen[p.Describe()] = true
	}
	for k, g := range e.Also {
		if len(g) != len(e.Grid) {
			return nil, nil, fmt.Errorf("also[%d]: %d axes, the grid has %d (give the same axes, in the same order)", k, len(g), len(e.Grid))
		}
		for i, a := range g {
			if a.Name != e.Grid[i].Name || a.Set != e.Grid[i].Set {
				return nil, nil, fmt.Errorf("also[%d]: axis %d is %q setting %q, the grid's is %q setting %q", k, i+1, a.Name, a.Set, e.Grid[i].Name, e.Grid[i].Set)
			}
		}
		d, p, err := pipelines.Expand(e.Run, g)
		if err != nil {
			return nil, nil, fmt.Errorf("also[%d]: %w", k, err)
		}
		for _, pt := range p {
			if seen[pt.Describe()] {
				return nil, nil, fmt.Errorf("also[%d]: point %s is already in the grid", k, pt.Describe())
			}
			seen[pt.Describe()] = true
		}
		docs, points = append(docs, d...), append(points, p...)
	}
	runs := make([]*pipelines.Run, len(docs))
	for i, d := range docs {
		if runs[i], err = pipelines.ParseRun(d); err != nil {
			return nil, nil, fmt.Errorf("run %d (%s): %w", i+1, points[i].Describe(), err)
		}
	}
	return runs, points, nil
}

// Tau is the short-job bound of the bounded slowdowns: the analysis's, or
// 10 s of real time divided by the base run's time compression (the
// thesis' 0.1 s at /100, section 6.4.1).
func (e *Experiment) Tau(runs []*pipelines.Run) model.Time {
	if e.Analysis.Tau > 0 {
		return e.Analysis.Tau.Time()
	}
	// Resolved: a preset's compression (the thesis' 100) counts too.
	if len(runs) > 0 {
		if f := runs[0].Workload.Resolved().Compress; f > 1 {
			return metrics.CompressedTau(f)
		}
	}
	return metrics.DefaultTau
}

// Reproduce runs the experiment's runs through sweep and builds its item
// (and figure, drawn into resultsDir/<paper>/<name>.png when the analysis
// draws one). specName and specSHA identify the experiment file in the
// outputs' manifest.
func (e *Experiment) Reproduce(sweep *pipelines.Sweep, specName, specSHA string) (*Reproduction, error) {
	runs, points, err := e.Runs()
	if err != nil {
		return nil, err
	}
	if err := e.checkAxes(points); err != nil { // before any run is made
		return nil, fmt.Errorf("%s: %w", e.Item, err)
	}
	done, err := sweep.Do(runs, points)
	if err != nil {
		return nil, err
	}
	paper, name, _ := strings.Cut(e.Item, "/")
	it := &repro.Item{Paper: paper, Name: name, Title: e.Title, Notes: e.Notes}
	rep := &Reproduction{Item: it, Runs: done}
	ctx := &analysisContext{exp: e, runs: done, tau: e.Tau(runs), item: it, sweep: sweep}
	if err := ctx.analyze(); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Item, err)
	}
	rep.Figure = ctx.figure
	if f := rep.Figure; f != nil {
		// Axis and legend titles a reader understands: the label table's
		// name for an axis the analysis left bare ("policy" is "Policy").
		if q, ok := metrics.Label(f.x.Label); ok && f.x.Unit == "" {
			f.x = axisLabel{Label: q.Label, Unit: q.Unit}
		}
		if f.legendTitle == "" && e.Analysis.Series != "" {
			q, _ := metrics.Label(e.Analysis.Series)
			f.legendTitle = q.Label
		}
	}
	rep.FigureOptions, _ = e.Figure.Options() // checked by Validate
	if err := e.applyPaper(it); err != nil {
		return nil, err
	}
	for _, c := range e.Claims {
		c.A, c.B = e.Analysis.labelCoords(c.A), e.Analysis.labelCoords(c.B)
		it.Claims = append(it.Claims, c.evaluate(it.Rows))
	}
	it.Dropped = droppedNotes(done)
	cached := 0
	var inputs []model.Input
	inputs = append(inputs, model.Input{Name: specName, SHA256: specSHA})
	seen := map[string]bool{}
	for _, f := range done {
		if f.Cached {
			cached++
		}
		for _, in := range f.Run.InputFiles() { // the traces, the hardware preset files
			if seen[in.Path] {
				continue
			}
			seen[in.Path] = true
			sum, err := in.SHA256()
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, model.Input{Name: in.Path, SHA256: sum})
		}
	}
	rep.Cached = cached
	rep.Manifest = model.Manifest{Tool: pipelines.SweepTool, Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Params: []model.Param{
		{Name: "item", Value: e.Item},
		{Name: "analysis", Value: e.Analysis.Kind},
		{Name: "runs", Value: fmt.Sprint(len(done))},
		{Name: "tau_s", Value: string(ctx.tau.AppendSeconds(nil))},
	}, Inputs: inputs}
	return rep, nil
}

// droppedNotes says which runs lost jobs to cleaning: one line per
// distinct drop (RunInfo.Dropped) with the runs that share it, in the
// order of the runs; nil when none did.
func droppedNotes(done []*pipelines.Finished) []string {
	var texts []string
	runs := map[string][]pipelines.Point{}
	for _, f := range done {
		if f.Info == nil || len(f.Info.Dropped) == 0 {
			continue
		}
		text := strings.Join(f.Info.Dropped, "; ")
		if _, ok := runs[text]; !ok {
			texts = append(texts, text)
		}
		runs[text] = append(runs[text], f.Point)
	}
	all := make([]pipelines.Point, len(done))
	for i, f := range done {
		all[i] = f.Point
	}
	var out []string
	for _, text := range texts {
		out = append(out, describeRuns(runs[text], all)+": "+text)
	}
	return out
}

// describeRuns names some of an item's runs (all) by the grid values they
// share that not every run has: "window=5000 (4 runs)", "every run (8)",
// or a single run's point.
func describeRuns(points, all []pipelines.Point) string {
	switch {
	case len(points) == len(all) && len(all) == 1:
		return "the run"
	case len(points) == len(all):
		return fmt.Sprintf("every run (%d)", len(all))
	case len(points) == 1:
		return points[0].Describe()
	}
	constant := func(ps []pipelines.Point, axis string) bool {
		for _, p := range ps[1:] {
			if p.Text(axis) != ps[0].Text(axis) {
				return false
			}
		}
		return true
	}
	var shared []string
	for _, l := range points[0] {
		if constant(points, l.Axis) && !constant(all, l.Axis) {
			shared = append(shared, l.Axis+"="+points[0].Text(l.Axis))
		}
	}
	if len(shared) == 0 {
		names := make([]string, len(points))
		for i, p := range points {
			names[i] = p.Describe()
		}
		return strings.Join(names, "; ")
	}
	return fmt.Sprintf("%s (%d runs)", strings.Join(shared, ", "), len(points))
}

// Reproduction is a reproduced item with what made it.
type Reproduction struct {
	Item   *repro.Item
	Figure *Drawing // nil for a table
	// FigureOptions are the experiment's own (its "figure" field).
	FigureOptions FigureOptions
	Runs          []*pipelines.Finished
	Cached        int // runs found in the cache
	Manifest      model.Manifest
}

// Write writes the item's CSV (and its figure, if any) under resultsDir,
// atomically, with the manifest, and returns the paths written. The
// figure is saved as the experiment's "figure" field says.
func (r *Reproduction) Write(resultsDir string) ([]string, error) {
	return r.WriteWith(resultsDir, FigureOptions{})
}

// WriteWith is Write with figure options that override the experiment's
// (make figures' FIGURE_SIZE, FIGURE_DPI, FIGURE_FORMATS).
func (r *Reproduction) WriteWith(resultsDir string, override FigureOptions) ([]string, error) {
	if r.Figure == nil {
		return repro.Write(resultsDir, r.Item, &r.Manifest, nil, plots.Size{})
	}
	fig, size, err := r.Figure.build()
	if err != nil {
		return nil, fmt.Errorf("%s/%s: figure: %w", r.Item.Paper, r.Item.Name, err)
	}
	o := r.FigureOptions.Over(override)
	if o.Size != nil {
		size.Width, size.Height = o.Size.Width, o.Size.Height
	}
	if o.DPI > 0 {
		size.DPI = o.DPI
	}
	return repro.WriteFormats(resultsDir, r.Item, &r.Manifest, fig, size, o.Formats)
}

func (e *Experiment) applyPaper(it *repro.Item) error {
	for _, p := range e.Paper {
		matched := 0
		coords := e.Analysis.labelCoords(p.Coords)
		for i := range it.Rows {
			if rowMatches(it.Rows[i], coords) {
				it.Rows[i].Paper, it.Rows[i].HasPaper, it.Rows[i].Tolerance = p.Value, true, p.Tolerance
				matched++
			}
		}
		if matched == 0 {
			return fmt.Errorf("%s: paper value %v at %v matches no cell", e.Item, p.Value, p.Coords)
		}
	}
	return nil
}

// rowMatches reports whether r has every coordinate of want.
func rowMatches(r repro.Row, want map[string]string) bool {
	for k, v := range want {
		if r.Coord(k) != v {
			return false
		}
	}
	return true
}
