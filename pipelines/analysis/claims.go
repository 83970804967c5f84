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

// ClaimSpec is a paper's qualitative statement, checked on an item's rows.
// A and B select rows by coordinates (a row matches when it has every
// coordinate given).
//
// Kinds:
//
//   - "less": the one row A's value is below the one row B's.
//   - "less-everywhere": every row matching A is below the row matching B
//     that agrees with it on every other coordinate (Except names
//     coordinates not to compare; "saturated" and "averaged", the
//     replica counts of a "metrics" row, are never compared).
//   - "ratio-at-least": the one row A's value divided by the one row B's
//     is at least Value.
//   - "linear": the rows matching A, as points (the Over coordinate, the
//     value), fit a straight line with a coefficient of determination R^2
//     of at least Value.
//   - "less-all": every row matching A is below every row matching B.
//   - "at-most": every row matching A is at most Value.
//   - "at-least": every row matching A is at least Value.
//   - "in-window": every row matching A is at least Value and below Max,
//     the half-open window [Value, Max) of a workload.Window (the
//     windows a workload selection keeps).
//   - "ratio-between": the one row A's value divided by the one row B's
//     is between Value and Max.
//   - "increasing", "decreasing": the rows matching A, ordered by their
//     Over coordinate (a number), rise (fall) from each to the next by more
//     than Value (0: strictly).
//   - "spread-at-most": the largest and smallest of the rows matching A
//     differ by at most Value.
//   - "least": the one row A's value is below that of every other row
//     matching B.
//
// A coordinate's value in A or B may list alternatives separated by "|"
// ("SB|FCS"): a row matches with any of them.
//
// With Unsaturated set, rows whose replicas saturated by majority
// (metrics.MajoritySaturated) are left out, as the "metrics" figures leave
// them out.
type ClaimSpec struct {
	// Text states the claim with its source in the paper.
	Text        string            `json:"text"`
	Kind        string            `json:"kind"`
	A           map[string]string `json:"a"`
	B           map[string]string `json:"b,omitempty"`
	Over        string            `json:"over,omitempty"`
	Except      []string          `json:"except,omitempty"`
	Value       float64           `json:"value,omitempty"`
	Max         float64           `json:"max,omitempty"`
	Unsaturated bool              `json:"unsaturated,omitempty"`
}

func (c *ClaimSpec) validate() error {
	if c.Text == "" {
		return fmt.Errorf("claim without text")
	}
	switch c.Kind {
	case "less", "less-everywhere", "ratio-at-least", "less-all":
		if len(c.A) == 0 || len(c.B) == 0 {
			return fmt.Errorf("claim %q: kind %s needs rows a and b", c.Text, c.Kind)
		}
	case "ratio-between":
		if len(c.A) == 0 || len(c.B) == 0 || !(c.Value <= c.Max) {
			return fmt.Errorf("claim %q: kind ratio-between needs rows a and b and bounds value <= max", c.Text)
		}
	case "in-window":
		if len(c.A) == 0 || !(c.Value < c.Max) {
			return fmt.Errorf("claim %q: kind in-window needs rows a and a window value < max", c.Text)
		}
	case "at-most", "at-least", "spread-at-most":
		if len(c.A) == 0 {
			return fmt.Errorf("claim %q: kind %s needs rows a", c.Text, c.Kind)
		}
	case "least":
		if len(c.A) == 0 || len(c.B) == 0 {
			return fmt.Errorf("claim %q: kind least needs rows a and b", c.Text)
		}
	case "increasing", "decreasing":
		if len(c.A) == 0 || c.Over == "" {
			return fmt.Errorf("claim %q: kind %s needs rows a and a coordinate over", c.Text, c.Kind)
		}
	case "linear":
		if len(c.A) == 0 || c.Over == "" || c.Value <= 0 {
			return fmt.Errorf("claim %q: kind linear needs rows a, a coordinate over and a minimum R^2 value", c.Text)
		}
	default:
		return fmt.Errorf("claim %q: unknown kind %q (want less, less-everywhere, ratio-at-least, linear, less-all, at-most, at-least, in-window, ratio-between, increasing, decreasing, spread-at-most or least)", c.Text, c.Kind)
	}
	return nil
}

func (c *ClaimSpec) evaluate(rows []repro.Row) repro.Claim {
	holds, note := c.check(rows)
	return repro.Claim{Text: c.Text, Holds: holds, Note: note}
}

func (c *ClaimSpec) check(rows []repro.Row) (bool, string) {
	match := func(want map[string]string) []repro.Row {
		var out []repro.Row
		for _, r := range rows {
			if claimMatches(r, want) && (!c.Unsaturated || unsaturated(r)) {
				out = append(out, r)
			}
		}
		return out
	}
	one := func(want map[string]string) (repro.Row, error) {
		m := match(want)
		if len(m) != 1 {
			return repro.Row{}, fmt.Errorf("%d rows match %v, want 1", len(m), want)
		}
		return m[0], nil
	}
	v := repro.FormatValue
	switch c.Kind {
	case "less", "ratio-at-least", "ratio-between":
		a, err := one(c.A)
		if err != nil {
			return false, err.Error()
		}
		b, err := one(c.B)
		if err != nil {
			return false, err.Error()
		}
		if c.Kind == "less" {
			return a.Gangsim < b.Gangsim, fmt.Sprintf("%s < %s", v(a.Gangsim), v(b.Gangsim))
		}
		r := a.Gangsim / b.Gangsim
		if c.Kind == "ratio-between" {
			return c.Value <= r && r <= c.Max, fmt.Sprintf("ratio %s (%s to %s)", v(r), v(c.Value), v(c.Max))
		}
		return r >= c.Value, fmt.Sprintf("ratio %s (at least %s)", v(r), v(c.Value))
	case "less-all":
		as, bs := match(c.A), match(c.B)
		if len(as) == 0 || len(bs) == 0 {
			return false, fmt.Sprintf("%d rows match a, %d match b", len(as), len(bs))
		}
		hi, lo := slices.MaxFunc(as, byValue), slices.MinFunc(bs, byValue)
		return hi.Gangsim < lo.Gangsim, fmt.Sprintf("largest of a %s (%s) vs smallest of b %s (%s)",
			v(hi.Gangsim), describeRow(hi, nil), v(lo.Gangsim), describeRow(lo, nil))
	case "at-most":
		as := match(c.A)
		if len(as) == 0 {
			return false, "no rows match a"
		}
		hi := slices.MaxFunc(as, byValue)
		return hi.Gangsim <= c.Value, fmt.Sprintf("largest %s (%s), at most %s", v(hi.Gangsim), describeRow(hi, nil), v(c.Value))
	case "at-least":
		as := match(c.A)
		if len(as) == 0 {
			return false, "no rows match a"
		}
		lo := slices.MinFunc(as, byValue)
		return lo.Gangsim >= c.Value, fmt.Sprintf("smallest %s (%s), at least %s", v(lo.Gangsim), describeRow(lo, nil), v(c.Value))
	case "in-window":
		as := match(c.A)
		if len(as) == 0 {
			return false, "no rows match a"
		}
		var out []string
		for _, a := range as {
			if !(a.Gangsim >= c.Value && a.Gangsim < c.Max) {
				out = append(out, fmt.Sprintf("%s: %s", describeRow(a, nil), v(a.Gangsim)))
			}
		}
		lo, hi := slices.MinFunc(as, byValue), slices.MaxFunc(as, byValue)
		note := fmt.Sprintf("%d rows from %s to %s, window [%s, %s)", len(as), v(lo.Gangsim), v(hi.Gangsim), v(c.Value), v(c.Max))
		if len(out) > 0 {
			note += fmt.Sprintf("; %d outside: %s", len(out), strings.Join(out, "; "))
		}
		return len(out) == 0, note
	case "spread-at-most":
		as := match(c.A)
		if len(as) < 2 {
			return false, fmt.Sprintf("%d rows match a, want at least 2", len(as))
		}
		hi, lo := slices.MaxFunc(as, byValue), slices.MinFunc(as, byValue)
		return hi.Gangsim-lo.Gangsim <= c.Value, fmt.Sprintf("from %s to %s over %d rows: spread %s (at most %s)",
			v(lo.Gangsim), v(hi.Gangsim), len(as), v(hi.Gangsim-lo.Gangsim), v(c.Value))
	case "increasing", "decreasing":
		as := match(c.A)
		if len(as) < 2 {
			return false, fmt.Sprintf("%d rows match a, want at least 2", len(as))
		}
		xs := make([]float64, len(as))
		for i, a := range as {
			x, err := strconv.ParseFloat(a.Coord(c.Over), 64)
			if err != nil {
				return false, fmt.Sprintf("coordinate %s = %q is not a number", c.Over, a.Coord(c.Over))
			}
			xs[i] = x
		}
		idx := make([]int, len(as))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(xs[i], xs[j]) })
		var seq []string
		ok := true
		for k, i := range idx {
			seq = append(seq, fmt.Sprintf("%s: %s", repro.FormatValue(xs[i]), v(as[i].Gangsim)))
			if k > 0 {
				prev := as[idx[k-1]].Gangsim
				ok = ok && (c.Kind == "increasing" && as[i].Gangsim-prev > c.Value || c.Kind == "decreasing" && prev-as[i].Gangsim > c.Value)
			}
		}
		step := ""
		if c.Value > 0 {
			step = fmt.Sprintf(" (steps of more than %s)", v(c.Value))
		}
		return ok, fmt.Sprintf("%s by %s%s: %s", c.Kind, c.Over, step, strings.Join(seq, ", "))
	case "least":
		a, err := one(c.A)
		if err != nil {
			return false, err.Error()
		}
		others, beaten := 0, []string{}
		for _, b := range match(c.B) {
			if slices.Equal(b.Coords, a.Coords) {
				continue
			}
			others++
			if !(a.Gangsim < b.Gangsim) {
				beaten = append(beaten, fmt.Sprintf("%s: %s", describeRow(b, nil), v(b.Gangsim)))
			}
		}
		if others == 0 {
			return false, fmt.Sprintf("no other rows match %v", c.B)
		}
		if len(beaten) > 0 {
			return false, fmt.Sprintf("%s is not below %d of %d others: %s", v(a.Gangsim), len(beaten), others, strings.Join(beaten, "; "))
		}
		return true, fmt.Sprintf("%s, below all %d others", v(a.Gangsim), others)
	case "less-everywhere":
		as := match(c.A)
		pairs, worst := 0, math.Inf(-1)
		var failed []string
		for _, a := range as {
			want := map[string]string{}
			for _, co := range a.Coords {
				if _, inA := c.A[co.Name]; !inA && !slices.Contains(c.Except, co.Name) && !countCoord(co.Name) {
					want[co.Name] = co.Value
				}
			}
			for k, val := range c.B {
				want[k] = val
			}
			bs := match(want)
			if len(bs) != 1 {
				continue
			}
			pairs++
			worst = max(worst, a.Gangsim-bs[0].Gangsim)
			if !(a.Gangsim < bs[0].Gangsim) {
				failed = append(failed, fmt.Sprintf("%s: %s vs %s", describeRow(a, c.A), v(a.Gangsim), v(bs[0].Gangsim)))
			}
		}
		if pairs == 0 {
			return false, "no pairs of rows to compare"
		}
		if len(failed) > 0 {
			return false, fmt.Sprintf("%d of %d pairs fail: %s", len(failed), pairs, strings.Join(failed, "; "))
		}
		return true, fmt.Sprintf("%d of %d pairs hold; largest difference %s", pairs, pairs, v(worst))
	case "linear":
		as := match(c.A)
		var xs, ys []float64
		for _, a := range as {
			x, err := strconv.ParseFloat(a.Coord(c.Over), 64)
			if err != nil {
				return false, fmt.Sprintf("coordinate %s = %q is not a number", c.Over, a.Coord(c.Over))
			}
			xs, ys = append(xs, x), append(ys, a.Gangsim)
		}
		if len(xs) < 3 {
			return false, fmt.Sprintf("too few points to fit a line: %d of at least 3", len(xs))
		}
		r2, slope := linearFit(xs, ys)
		return r2 >= c.Value, fmt.Sprintf("R^2 %s over %d points (at least %s), slope %s", v(r2), len(xs), v(c.Value), v(slope))
	}
	return false, "unknown kind"
}

// claimMatches reports whether r has every coordinate of want, each a
// value or alternatives separated by "|".
func claimMatches(r repro.Row, want map[string]string) bool {
	for k, alts := range want {
		if !slices.Contains(strings.Split(alts, "|"), r.Coord(k)) {
			return false
		}
	}
	return true
}

func byValue(a, b repro.Row) int { return cmp.Compare(a.Gangsim, b.Gangsim) }

// unsaturated reports whether a row's replicas were not saturated by
// majority (metrics.MajoritySaturated of its "saturated" coordinate k/n; no
// coordinate counts as unsaturated): the rows a "metrics" figure draws.
func unsaturated(r repro.Row) bool {
	var k, n int
	if _, err := fmt.Sscanf(r.Coord("saturated"), "%d/%d", &k, &n); err != nil || n == 0 {
		return r.Coord("saturated") == ""
	}
	return !metrics.MajoritySaturated(k, n)
}

// countCoord reports whether a coordinate counts a "metrics" row's
// replicas ("saturated", "averaged") rather than placing it.
func countCoord(name string) bool { return name == "saturated" || name == "averaged" }

func describeRow(r repro.Row, skip map[string]string) string {
	var parts []string
	for _, c := range r.Coords {
		if _, ok := skip[c.Name]; !ok && !countCoord(c.Name) {
			parts = append(parts, c.Name+"="+c.Value)
		}
	}
	return strings.Join(parts, ",")
}

// linearFit returns the coefficient of determination and the slope of the
// least-squares line through (xs, ys).
func linearFit(xs, ys []float64) (r2, slope float64) {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, 0
	}
	return sxy * sxy / (sxx * syy), sxy / sxx
}
