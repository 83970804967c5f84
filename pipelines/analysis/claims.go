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

// claimKind is a kind of claim: what its spec must give, and its check.
type claimKind struct {
	name string
	// needs says what valid requires, for the error when it fails:
	// "claim %q: kind NAME needs NEEDS".
	needs string
	valid func(c *ClaimSpec) bool
	// check judges the claim on the rows and says why, in a note.
	check func(c *ClaimSpec, rs claimRows) (bool, string)
}

// Checks of what a kind's spec gives.
func hasA(c *ClaimSpec) bool       { return len(c.A) > 0 }
func hasAB(c *ClaimSpec) bool      { return len(c.A) > 0 && len(c.B) > 0 }
func hasAOver(c *ClaimSpec) bool   { return len(c.A) > 0 && c.Over != "" }
func boundsAB(c *ClaimSpec) bool   { return hasAB(c) && c.Value <= c.Max }
func windowA(c *ClaimSpec) bool    { return hasA(c) && c.Value < c.Max }
func linearSpec(c *ClaimSpec) bool { return hasAOver(c) && c.Value > 0 }

// claimKinds are the kinds of claim, in the order the error for an
// unknown kind lists them (ClaimSpec's comment says what each holds).
var claimKinds = []claimKind{
	{"less", "rows a and b", hasAB, checkLess},
	{"less-everywhere", "rows a and b", hasAB, checkLessEverywhere},
	{"ratio-at-least", "rows a and b", hasAB, checkRatioAtLeast},
	{"linear", "rows a, a coordinate over and a minimum R^2 value", linearSpec, checkLinear},
	{"less-all", "rows a and b", hasAB, checkLessAll},
	{"at-most", "rows a", hasA, checkAtMost},
	{"at-least", "rows a", hasA, checkAtLeast},
	{"in-window", "rows a and a window value < max", windowA, checkInWindow},
	{"ratio-between", "rows a and b and bounds value <= max", boundsAB, checkRatioBetween},
	{"increasing", "rows a and a coordinate over", hasAOver, checkMonotone},
	{"decreasing", "rows a and a coordinate over", hasAOver, checkMonotone},
	{"spread-at-most", "rows a", hasA, checkSpread},
	{"least", "rows a and b", hasAB, checkLeast},
}

// claimKindOf returns the kind called name.
func claimKindOf(name string) (claimKind, bool) {
	for _, k := range claimKinds {
		if k.name == name {
			return k, true
		}
	}
	return claimKind{}, false
}

func (c *ClaimSpec) validate() error {
	if c.Text == "" {
		return fmt.Errorf("claim without text")
	}
	k, ok := claimKindOf(c.Kind)
	if !ok {
		names := make([]string, len(claimKinds))
		for i, k := range claimKinds {
			names[i] = k.name
		}
		return fmt.Errorf("claim %q: unknown kind %q (want %s or %s)", c.Text, c.Kind,
			strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	if !k.valid(c) {
		return fmt.Errorf("claim %q: kind %s needs %s", c.Text, c.Kind, k.needs)
	}
	return nil
}

func (c *ClaimSpec) evaluate(rows []repro.Row) repro.Claim {
	holds, note := c.check(rows)
	return repro.Claim{Text: c.Text, Holds: holds, Note: note}
}

func (c *ClaimSpec) check(rows []repro.Row) (bool, string) {
	k, ok := claimKindOf(c.Kind)
	if !ok {
		return false, "unknown kind"
	}
	return k.check(c, claimRows{rows: rows, unsaturated: c.Unsaturated})
}

// claimRows are the rows a claim is checked on.
type claimRows struct {
	rows        []repro.Row
	unsaturated bool // only the rows not saturated by majority
}

// match returns the rows that have every coordinate of want.
func (rs claimRows) match(want map[string]string) []repro.Row {
	var out []repro.Row
	for _, r := range rs.rows {
		if claimMatches(r, want) && (!rs.unsaturated || unsaturated(r)) {
			out = append(out, r)
		}
	}
	return out
}

// one returns the one row that matches want.
func (rs claimRows) one(want map[string]string) (repro.Row, error) {
	m := rs.match(want)
	if len(m) != 1 {
		return repro.Row{}, fmt.Errorf("%d rows match %v, want 1", len(m), want)
	}
	return m[0], nil
}

// pair returns the one row of a and the one row of b.
func (rs claimRows) pair(c *ClaimSpec) (a, b repro.Row, err error) {
	if a, err = rs.one(c.A); err != nil {
		return a, b, err
	}
	b, err = rs.one(c.B)
	return a, b, err
}

// fv formats a value in a claim's note.
var fv = repro.FormatValue

func checkLess(c *ClaimSpec, rs claimRows) (bool, string) {
	a, b, err := rs.pair(c)
	if err != nil {
		return false, err.Error()
	}
	return a.Gangsim < b.Gangsim, fmt.Sprintf("%s < %s", fv(a.Gangsim), fv(b.Gangsim))
}

func checkRatioAtLeast(c *ClaimSpec, rs claimRows) (bool, string) {
	a, b, err := rs.pair(c)
	if err != nil {
		return false, err.Error()
	}
	r := a.Gangsim / b.Gangsim
	return r >= c.Value, fmt.Sprintf("ratio %s (at least %s)", fv(r), fv(c.Value))
}

func checkRatioBetween(c *ClaimSpec, rs claimRows) (bool, string) {
	a, b, err := rs.pair(c)
	if err != nil {
		return false, err.Error()
	}
	r := a.Gangsim / b.Gangsim
	return c.Value <= r && r <= c.Max, fmt.Sprintf("ratio %s (%s to %s)", fv(r), fv(c.Value), fv(c.Max))
}

func checkLessAll(c *ClaimSpec, rs claimRows) (bool, string) {
	as, bs := rs.match(c.A), rs.match(c.B)
	if len(as) == 0 || len(bs) == 0 {
		return false, fmt.Sprintf("%d rows match a, %d match b", len(as), len(bs))
	}
	hi, lo := slices.MaxFunc(as, byValue), slices.MinFunc(bs, byValue)
	return hi.Gangsim < lo.Gangsim, fmt.Sprintf("largest of a %s (%s) vs smallest of b %s (%s)",
		fv(hi.Gangsim), describeRow(hi, nil), fv(lo.Gangsim), describeRow(lo, nil))
}

func checkAtMost(c *ClaimSpec, rs claimRows) (bool, string) {
	as := rs.match(c.A)
	if len(as) == 0 {
		return false, "no rows match a"
	}
	hi := slices.MaxFunc(as, byValue)
	return hi.Gangsim <= c.Value, fmt.Sprintf("largest %s (%s), at most %s", fv(hi.Gangsim), describeRow(hi, nil), fv(c.Value))
}

func checkAtLeast(c *ClaimSpec, rs claimRows) (bool, string) {
	as := rs.match(c.A)
	if len(as) == 0 {
		return false, "no rows match a"
	}
	lo := slices.MinFunc(as, byValue)
	return lo.Gangsim >= c.Value, fmt.Sprintf("smallest %s (%s), at least %s", fv(lo.Gangsim), describeRow(lo, nil), fv(c.Value))
}

func checkInWindow(c *ClaimSpec, rs claimRows) (bool, string) {
	as := rs.match(c.A)
	if len(as) == 0 {
		return false, "no rows match a"
	}
	var out []string
	for _, a := range as {
		if !(a.Gangsim >= c.Value && a.Gangsim < c.Max) {
			out = append(out, fmt.Sprintf("%s: %s", describeRow(a, nil), fv(a.Gangsim)))
		}
	}
	lo, hi := slices.MinFunc(as, byValue), slices.MaxFunc(as, byValue)
	note := fmt.Sprintf("%d rows from %s to %s, window [%s, %s)", len(as), fv(lo.Gangsim), fv(hi.Gangsim), fv(c.Value), fv(c.Max))
	if len(out) > 0 {
		note += fmt.Sprintf("; %d outside: %s", len(out), strings.Join(out, "; "))
	}
	return len(out) == 0, note
}

func checkSpread(c *ClaimSpec, rs claimRows) (bool, string) {
	as := rs.match(c.A)
	if len(as) < 2 {
		return false, fmt.Sprintf("%d rows match a, want at least 2", len(as))
	}
	hi, lo := slices.MaxFunc(as, byValue), slices.MinFunc(as, byValue)
	return hi.Gangsim-lo.Gangsim <= c.Value, fmt.Sprintf("from %s to %s over %d rows: spread %s (at most %s)",
		fv(lo.Gangsim), fv(hi.Gangsim), len(as), fv(hi.Gangsim-lo.Gangsim), fv(c.Value))
}

// overValues returns the Over coordinate of rows as numbers.
func overValues(c *ClaimSpec, rows []repro.Row) ([]float64, error) {
	xs := make([]float64, len(rows))
	for i, a := range rows {
		x, err := strconv.ParseFloat(a.Coord(c.Over), 64)
		if err != nil {
			return nil, fmt.Errorf("coordinate %s = %q is not a number", c.Over, a.Coord(c.Over))
		}
		xs[i] = x
	}
	return xs, nil
}

// checkMonotone checks "increasing" and "decreasing".
func checkMonotone(c *ClaimSpec, rs claimRows) (bool, string) {
	as := rs.match(c.A)
	if len(as) < 2 {
		return false, fmt.Sprintf("%d rows match a, want at least 2", len(as))
	}
	xs, err := overValues(c, as)
	if err != nil {
		return false, err.Error()
	}
	idx := make([]int, len(as))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(xs[i], xs[j]) })
	var seq []string
	ok := true
	for k, i := range idx {
		seq = append(seq, fmt.Sprintf("%s: %s", repro.FormatValue(xs[i]), fv(as[i].Gangsim)))
		if k > 0 {
			prev := as[idx[k-1]].Gangsim
			ok = ok && (c.Kind == "increasing" && as[i].Gangsim-prev > c.Value || c.Kind == "decreasing" && prev-as[i].Gangsim > c.Value)
		}
	}
	step := ""
	if c.Value > 0 {
		step = fmt.Sprintf(" (steps of more than %s)", fv(c.Value))
	}
	return ok, fmt.Sprintf("%s by %s%s: %s", c.Kind, c.Over, step, strings.Join(seq, ", "))
}

func checkLeast(c *ClaimSpec, rs claimRows) (bool, string) {
	a, err := rs.one(c.A)
	if err != nil {
		return false, err.Error()
	}
	others, beaten := 0, []string{}
	for _, b := range rs.match(c.B) {
		if slices.Equal(b.Coords, a.Coords) {
			continue
		}
		others++
		if !(a.Gangsim < b.Gangsim) {
			beaten = append(beaten, fmt.Sprintf("%s: %s", describeRow(b, nil), fv(b.Gangsim)))
		}
	}
	if others == 0 {
		return false, fmt.Sprintf("no other rows match %v", c.B)
	}
	if len(beaten) > 0 {
		return false, fmt.Sprintf("%s is not below %d of %d others: %s", fv(a.Gangsim), len(beaten), others, strings.Join(beaten, "; "))
	}
	return true, fmt.Sprintf("%s, below all %d others", fv(a.Gangsim), others)
}

func checkLessEverywhere(c *ClaimSpec, rs claimRows) (bool, string) {
	pairs, worst := 0, math.Inf(-1)
	var failed []string
	for _, a := range rs.match(c.A) {
		want := map[string]string{}
		for _, co := range a.Coords {
			if _, inA := c.A[co.Name]; !inA && !slices.Contains(c.Except, co.Name) && !countCoord(co.Name) {
				want[co.Name] = co.Value
			}
		}
		for k, val := range c.B {
			want[k] = val
		}
		bs := rs.match(want)
		if len(bs) != 1 {
			continue
		}
		pairs++
		worst = max(worst, a.Gangsim-bs[0].Gangsim)
		if !(a.Gangsim < bs[0].Gangsim) {
			failed = append(failed, fmt.Sprintf("%s: %s vs %s", describeRow(a, c.A), fv(a.Gangsim), fv(bs[0].Gangsim)))
		}
	}
	if pairs == 0 {
		return false, "no pairs of rows to compare"
	}
	if len(failed) > 0 {
		return false, fmt.Sprintf("%d of %d pairs fail: %s", len(failed), pairs, strings.Join(failed, "; "))
	}
	return true, fmt.Sprintf("%d of %d pairs hold; largest difference %s", pairs, pairs, fv(worst))
}

func checkLinear(c *ClaimSpec, rs claimRows) (bool, string) {
	as := rs.match(c.A)
	xs, err := overValues(c, as)
	if err != nil {
		return false, err.Error()
	}
	ys := make([]float64, len(as))
	for i, a := range as {
		ys[i] = a.Gangsim
	}
	if len(xs) < 3 {
		return false, fmt.Sprintf("too few points to fit a line: %d of at least 3", len(xs))
	}
	r2, slope := linearFit(xs, ys)
	return r2 >= c.Value, fmt.Sprintf("R^2 %s over %d points (at least %s), slope %s", fv(r2), len(xs), fv(c.Value), fv(slope))
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
