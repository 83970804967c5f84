package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/repro"
)

func (c *analysisContext) saturationRows() error {
	a := &c.exp.Analysis
	var notes []string
	for _, s := range c.seriesValues() {
		// Per load: how many of its replicas saturated; per replica: its
		// own sweep, for the notes.
		var loads []float64
		saturated, runs := map[float64]int{}, map[float64]int{}
		perReplica := map[string]*struct {
			loads []float64
			sat   []bool
		}{}
		for i, f := range c.runs {
			if a.Series != "" && f.Point.Text(a.Series) != s {
				continue
			}
			x, err := strconv.ParseFloat(f.Point.Text(a.X), 64)
			if err != nil {
				return fmt.Errorf("x axis %q value %q is not a number", a.X, f.Point.Text(a.X))
			}
			d, err := c.saturation(i)
			if err != nil {
				return err
			}
			if runs[x] == 0 {
				loads = append(loads, x)
			}
			runs[x]++
			if d.Saturated {
				saturated[x]++
			}
			rep := f.Point.Text(a.Replicas)
			if perReplica[rep] == nil {
				perReplica[rep] = &struct {
					loads []float64
					sat   []bool
				}{}
			}
			perReplica[rep].loads = append(perReplica[rep].loads, x)
			perReplica[rep].sat = append(perReplica[rep].sat, d.Saturated)
		}
		decisions := make([]bool, len(loads))
		var votes []string
		for k, x := range loads {
			decisions[k] = metrics.MajoritySaturated(saturated[x], runs[x])
			votes = append(votes, fmt.Sprintf("%s: %d/%d", repro.FormatValue(x), saturated[x], runs[x]))
		}
		var coords []repro.Coord
		if a.Series != "" {
			coords = append(coords, repro.Coord{Name: a.Series, Value: s})
		}
		b := metrics.SaturationPoint(loads, decisions)
		c.item.Rows = append(c.item.Rows, repro.Row{Coords: coords, Gangsim: b.Point})
		if a.Replicas == "" {
			continue
		}
		var per []string
		for _, rep := range c.replicaValues() {
			r := perReplica[rep]
			if r == nil {
				continue // a series of an Also grid with fewer replicas
			}
			per = append(per, fmt.Sprintf("%s %s: %s", a.Replicas, rep, describeBracket(metrics.SaturationPoint(r.loads, r.sat), r.loads)))
		}
		notes = append(notes, fmt.Sprintf("%s: point %s; saturated runs per load %s; each replica alone %s",
			c.seriesName(s), describeBracket(b, loads), strings.Join(votes, ", "), strings.Join(per, ", ")))
	}
	if len(notes) > 0 {
		c.item.Notes = strings.TrimSpace(c.item.Notes + " " + strings.Join(notes, ". ") + ".")
	}
	return nil
}

// describeBracket says where a sweep of loads crossed saturation.
func describeBracket(b metrics.SaturationBracket, loads []float64) string {
	text := repro.FormatValue(b.Point)
	switch {
	case math.IsNaN(b.Point):
		return "below " + repro.FormatValue(slices.Min(loads))
	case math.IsInf(b.Above, 1):
		return "at least " + text + " (never saturated)"
	case !b.Monotone:
		return text + " (not monotone)"
	}
	return text
}

// checkCell is one group of a saturation check: the coordinates of the
// axes other than X and Replicas, and per replica its loads and decisions
// in grid order.
type checkCell struct {
	coords   []repro.Coord
	replicas []string
	loads    map[string][]float64
	sat      map[string][]bool
}

// judgeAll decides every run's saturation on all cores, keeping only the
// decisions (a check reads thousands of runs; their outcomes are not
// kept).
func (c *analysisContext) judgeAll() error {
	return c.preload(false, true)
}

// saturationCheck measures the saturation test's error against the known
// saturation load.
func (c *analysisContext) saturationCheck() error {
	if err := c.judgeAll(); err != nil {
		return err
	}
	cells, err := c.checkCells()
	if err != nil {
		return err
	}
	var notes []string
	for _, cell := range cells {
		note, err := c.checkCellRows(cell)
		if err != nil {
			return err
		}
		notes = append(notes, note)
	}
	if len(notes) > 0 {
		c.item.Notes = strings.TrimSpace(c.item.Notes + " " + strings.Join(notes, ". ") + ".")
	}
	return nil
}

// checkCells groups the runs of a saturation check by the values of the
// axes other than X and Replicas, in the order met.
func (c *analysisContext) checkCells() ([]*checkCell, error) {
	a := &c.exp.Analysis
	var cells []*checkCell
	index := map[string]*checkCell{}
	for i, f := range c.runs {
		var cs []repro.Coord
		var key strings.Builder
		for _, ax := range c.exp.Grid {
			if ax.Name == a.X || ax.Name == a.Replicas {
				continue
			}
			v := f.Point.Text(ax.Name)
			cs = append(cs, repro.Coord{Name: ax.Name, Value: v})
			key.WriteString(v + "\x00")
		}
		cell := index[key.String()]
		if cell == nil {
			cell = &checkCell{coords: cs, loads: map[string][]float64{}, sat: map[string][]bool{}}
			index[key.String()] = cell
			cells = append(cells, cell)
		}
		x, err := strconv.ParseFloat(f.Point.Text(a.X), 64)
		if err != nil {
			return nil, fmt.Errorf("x axis %q value %q is not a number", a.X, f.Point.Text(a.X))
		}
		d, err := c.saturation(i)
		if err != nil {
			return nil, err
		}
		rep := f.Point.Text(a.Replicas)
		if _, ok := cell.loads[rep]; !ok {
			cell.replicas = append(cell.replicas, rep)
		}
		cell.loads[rep] = append(cell.loads[rep], x)
		cell.sat[rep] = append(cell.sat[rep], d.Saturated)
	}
	return cells, nil
}

// checkCellRows adds a cell's rows for each replica count, and returns its
// note: the saturated runs per load, then per replica count the points'
// mean and largest error and those beyond the grid.
func (c *analysisContext) checkCellRows(cell *checkCell) (string, error) {
	a := &c.exp.Analysis
	n := len(cell.replicas)
	counts := a.ReplicaCounts
	if len(counts) == 0 {
		counts = []int{1, n}
	}
	loads := cell.loads[cell.replicas[0]]
	sat := make([][]bool, n)
	for r, rep := range cell.replicas {
		if !slices.Equal(cell.loads[rep], loads) {
			return "", fmt.Errorf("replica %s has other loads than replica %s", rep, cell.replicas[0])
		}
		sat[r] = cell.sat[rep]
	}
	order := make([]int, len(loads)) // load indices, lowest load first
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(loads[i], loads[j]) })
	var votes []string
	for _, k := range order {
		v := 0
		for r := range sat {
			if sat[r][k] {
				v++
			}
		}
		votes = append(votes, fmt.Sprintf("%s: %d", repro.FormatValue(loads[k]), v))
	}
	summary := []string{fmt.Sprintf("saturated runs per load (of %d) %s", n, strings.Join(votes, ", "))}
	for _, m := range counts {
		if m > n {
			return "", fmt.Errorf("replica count %d exceeds the %d replicas", m, n)
		}
		bv := metrics.VoteBlocks(loads, sat, m)
		c.checkRows(cell, m, loads, order, bv)
		summary = append(summary, c.checkSummary(cell, m, loads, order, bv))
	}
	var where []string
	for _, cd := range cell.coords {
		where = append(where, cd.Name+" "+cd.Value)
	}
	return fmt.Sprintf("%s: %s; points by replicas voting %s", strings.Join(where, ", "), summary[0], strings.Join(summary[1:], "; ")), nil
}

// checkRows adds the rows of a cell's blocks of m replicas: the points'
// statistics (x "all"), and per load the blocks' error rate there.
func (c *analysisContext) checkRows(cell *checkCell, m int, loads []float64, order []int, bv metrics.BlockVotes) {
	a := &c.exp.Analysis
	row := func(load, stat string, v float64) {
		cs := append(slices.Clone(cell.coords), repro.Coord{Name: "replicas", Value: strconv.Itoa(m)},
			repro.Coord{Name: a.X, Value: load}, repro.Coord{Name: "statistic", Value: stat})
		c.item.Rows = append(c.item.Rows, repro.Row{Coords: cs, Gangsim: v})
	}
	mean, absMean, absMax := bv.Errors(a.Truth)
	below, above := bv.CensoredCounts()
	k := float64(len(bv.Points))
	for _, st := range []struct {
		name string
		v    float64
	}{
		{"point_mean", mean}, {"abs_error_mean", absMean}, {"abs_error_max", absMax},
		{"censored_share", float64(below+above) / k}, {"non_monotone_share", float64(bv.NonMonotone) / k}, {"blocks", k},
	} {
		row("all", st.name, st.v)
	}
	for _, i := range order {
		x, v := loads[i], float64(bv.Called[i])/k
		switch {
		case math.Abs(x-a.Truth) <= 1e-9*math.Max(1, math.Abs(a.Truth)):
			row(repro.FormatValue(x), "saturated_rate", v)
		case x < a.Truth:
			row(repro.FormatValue(x), "false_positive_rate", v)
		default:
			row(repro.FormatValue(x), "false_negative_rate", 1-v)
		}
	}
}

// checkSummary says of a cell's blocks of m replicas their points' mean
// and largest error, and which are beyond the grid (naming the single
// replicas, m = 1).
func (c *analysisContext) checkSummary(cell *checkCell, m int, loads []float64, order []int, bv metrics.BlockVotes) string {
	a := &c.exp.Analysis
	mean, _, absMax := bv.Errors(a.Truth)
	below, above := bv.CensoredCounts()
	if below+above == 0 {
		return fmt.Sprintf("%d: mean %s, largest error %s", m, repro.FormatValue(mean), repro.FormatValue(absMax))
	}
	lo, hi := repro.FormatValue(loads[order[0]]), repro.FormatValue(loads[order[len(order)-1]])
	var parts []string
	if above > 0 {
		parts = append(parts, fmt.Sprintf("%d above %s", above, hi))
	}
	if below > 0 {
		parts = append(parts, fmt.Sprintf("%d below %s", below, lo))
	}
	s := fmt.Sprintf("%d: mean %s and largest error at least %s (%d of %d points beyond the grid, counted at its edge: %s",
		m, repro.FormatValue(mean), repro.FormatValue(absMax), below+above, len(bv.Points), strings.Join(parts, ", "))
	if m == 1 {
		var beyond []string // single replicas beyond the grid
		for b, side := range bv.Censored {
			switch side {
			case -1:
				beyond = append(beyond, fmt.Sprintf("%s %s <%s", a.Replicas, cell.replicas[b], lo))
			case 1:
				beyond = append(beyond, fmt.Sprintf("%s %s >%s", a.Replicas, cell.replicas[b], hi))
			}
		}
		s += "; " + strings.Join(beyond, ", ")
	}
	return s + ")"
}
