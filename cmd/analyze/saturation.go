package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/metrics"
)

// Where a saturation decision's time series came from.
const (
	fromTimeSeries = "timeseries"
	fromOutcomes   = "outcomes"
)

// judge decides whether a run was past saturation (the test over its
// arrival period), from its time series when it has one, else from the
// jobs in the system reconstructed from its outcomes.
func judge(r *resultRun, test metrics.SaturationTest) (metrics.Saturation, string, error) {
	first, last := r.firstArrival, r.lastArrival
	if last <= first {
		return metrics.Saturation{}, "", fmt.Errorf("%s: saturation needs completed jobs arriving at two different times at least", r.name)
	}
	if r.seriesFrom == "" {
		return test.Judge(metrics.JobsInSystem(r.outcomes), first, last), fromOutcomes, nil
	}
	if len(r.series) == 0 || r.series[0].At >= last {
		return metrics.Saturation{}, "", fmt.Errorf("%s: the time series %s does not cover the arrival period from %v to %v", r.name, r.seriesFrom, first, last)
	}
	return test.Judge(r.series, first, last), fromTimeSeries, nil
}

// saturationTable is one row per run (sorted by --by, then in input
// order): the decision and its evidence.
func saturationTable(opt *options, runs []*resultRun) (*table, error) {
	cells := make([]*cell, len(runs))
	for i, r := range runs {
		cells[i] = &cell{run: r}
	}
	groups, err := groupCells(cells, opt.by)
	if err != nil {
		return nil, err
	}
	t := &table{}
	for _, n := range opt.by {
		t.cols = append(t.cols, column{name: n})
	}
	if indexOf(opt.by, keyRun) < 0 {
		t.cols = append(t.cols, column{name: keyRun})
	}
	t.cols = append(t.cols,
		column{"saturated", boolColumn},
		column{"backlog", textColumn},
		column{"cleared_at", numberColumn},
		column{"clear_level", numberColumn},
		column{"median_in_system", numberColumn},
		column{"at_last_arrival", numberColumn},
		column{"trend", numberColumn},
		column{"drain", numberColumn},
		column{"arrival_span_s", numberColumn},
		column{"judged_from", textColumn},
	)
	for _, g := range groups {
		for _, c := range g.cells {
			s, from, err := judge(c.run, metrics.SaturationTest{Measure: opt.backlog})
			if err != nil {
				return nil, err
			}
			row := make([]value, 0, len(t.cols))
			for _, k := range g.keys {
				row = append(row, textValue(k))
			}
			if indexOf(opt.by, keyRun) < 0 {
				row = append(row, textValue(c.run.name))
			}
			row = append(row, boolValue(s.Saturated), textValue(opt.backlog.String()), numberValue(s.ClearedAt),
				numberValue(float64(s.ClearLevel)), numberValue(float64(s.MedianInSystem)),
				numberValue(float64(s.AtLastArrival)), numberValue(s.Trend), numberValue(s.Drain),
				value{text: string(s.Span.AppendSeconds(nil)), num: s.Span.Seconds()}, textValue(from))
			t.rows = append(t.rows, row)
		}
	}
	t.notes = append(t.notes,
		fmt.Sprintf("A run is saturated when its backlog (the jobs %s) was last at or below clear_level, its time-weighted lower quartile over the arrival period, before %v of the arrival period (cleared_at, a fraction of it); see package metrics.", backlogPhrase(opt.backlog), metrics.DefaultClearCutoff),
		"median_in_system and trend (in jobs per arrival period) are of all the jobs in the system; drain is the time from the last arrival to an empty system as a fraction of the arrival period (- if it never empties).")
	return t, nil
}

// saturationPointTable is one row per --by group: where the group's runs
// cross saturation as --x grows (metrics.SaturationPoint). Runs at the same
// --x value (seeds) vote (metrics.MajoritySaturated).
func saturationPointTable(opt *options, runs []*resultRun) (*table, error) {
	cells := make([]*cell, len(runs))
	for i, r := range runs {
		cells[i] = &cell{run: r}
	}
	groups, err := groupCells(cells, opt.by)
	if err != nil {
		return nil, err
	}
	if len(opt.by) == 0 {
		groups = []*group{{cells: cells}}
	}
	t := &table{}
	for _, n := range opt.by {
		t.cols = append(t.cols, column{name: n})
	}
	t.cols = append(t.cols,
		column{"saturation_point", numberColumn},
		column{"first_saturated", numberColumn},
		column{"monotone", boolColumn},
		column{"runs", numberColumn},
		column{"decisions", textColumn},
	)
	for _, g := range groups {
		points, err := byX(g.cells, opt.x)
		if err != nil {
			return nil, err
		}
		loads := make([]float64, len(points))
		saturated := make([]bool, len(points))
		var decisions []string
		for i, p := range points {
			k := 0
			for _, c := range p.cells {
				s, _, err := judge(c.run, metrics.SaturationTest{Measure: opt.backlog})
				if err != nil {
					return nil, err
				}
				if s.Saturated {
					k++
				}
			}
			loads[i], saturated[i] = p.x, metrics.MajoritySaturated(k, len(p.cells))
			decisions = append(decisions, fmt.Sprintf("%s:%d/%d", p.text, k, len(p.cells)))
		}
		b := metrics.SaturationPoint(loads, saturated)
		row := make([]value, 0, len(t.cols))
		for _, k := range g.keys {
			row = append(row, textValue(k))
		}
		row = append(row, numberValue(b.Point), numberValue(b.Above), boolValue(b.Monotone),
			numberValue(float64(len(g.cells))), textValue(strings.Join(decisions, " ")))
		t.rows = append(t.rows, row)
	}
	t.notes = append(t.notes, fmt.Sprintf("saturation_point is the highest %s judged not saturated below first_saturated, the lowest saturated one (- if the lowest is saturated, inf if none is); decisions lists %s:k/n, k of n runs saturated (a tie counts as saturated); monotone is false if a run above first_saturated was not saturated.", opt.x, opt.x))
	return t, nil
}

// backlogPhrase says what a backlog counts.
func backlogPhrase(b metrics.Backlog) string {
	if b == metrics.BacklogInSystem {
		return "in the system"
	}
	return "waiting to start"
}

// xPoint is the cells at one value of the --x parameter.
type xPoint struct {
	x     float64
	text  string
	cells []*cell
}

// byX groups cells by the numeric value of parameter x, in increasing
// order.
func byX(cells []*cell, x string) ([]*xPoint, error) {
	var points []*xPoint
	for _, c := range cells {
		v, err := c.key(x)
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: parameter %s=%q is not a number, so it cannot be an axis", c.run.name, x, v)
		}
		i := slices.IndexFunc(points, func(p *xPoint) bool { return p.x == f })
		if i < 0 {
			points = append(points, &xPoint{x: f, text: v})
			i = len(points) - 1
		}
		points[i].cells = append(points[i].cells, c)
	}
	slices.SortFunc(points, func(a, b *xPoint) int { return cmp.Compare(a.x, b.x) })
	return points, nil
}
