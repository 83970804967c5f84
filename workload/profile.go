package workload

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Profile is what E. Frachtenberg's thesis says of its dynamic workload
// (section 6.4.1), measured on any workload: "1000 jobs, that arrive over
// a period of about 8 days", "bursty", "the median [size] here at just
// under 4 PEs", "biased toward powers of two", and "a very high load of
// about 98% of the system capacity".
type Profile struct {
	// Jobs is the number of jobs.
	Jobs int `json:"jobs"`
	// SpanDays is the arrival span, last submit time minus first, in days
	// of 86,400 s.
	SpanDays float64 `json:"span_days"`
	// MedianSize is the sample median of the job sizes (model.Job.Size),
	// in processors: the middle size, or the mean of the two middle sizes
	// when the number of jobs is even (jobs without a size are left out).
	MedianSize float64 `json:"median_size"`
	// PowerOfTwoShare is the share of parallel jobs (size above 1) whose
	// size is a power of two.
	PowerOfTwoShare float64 `json:"power_of_two_share"`
	// Load is the offered load on the machine the profile was measured
	// for (see the package documentation); NaN when undefined.
	Load float64 `json:"load"`
	// InterarrivalCV is the coefficient of variation (standard deviation
	// over mean) of the times between consecutive submit times: 1 for
	// Poisson arrivals, above 1 for bursty ones.
	InterarrivalCV float64 `json:"interarrival_cv"`
}

// ProfileMeter accumulates a Profile from a stream of jobs in constant
// memory (one counter per job size). The zero value is an empty meter.
type ProfileMeter struct {
	load        LoadMeter
	sizes       []int // sizes[n] counts the jobs of n processors
	sized       int
	parallel    int
	powerOfTwo  int
	gaps        int
	gapMean     float64 // running mean and sum of squares of the gaps, seconds
	gapM2       float64
	prev        model.Time
	havePrev    bool
	outOfOrder  bool
	maxSizeSeen int
}

// Add counts j.
func (m *ProfileMeter) Add(j *model.Job) {
	m.load.Add(j)
	if n := j.Size(); n > 0 {
		if n >= len(m.sizes) {
			m.sizes = append(m.sizes, make([]int, n+1-len(m.sizes))...)
		}
		m.sizes[n]++
		m.sized++
		if n > 1 {
			m.parallel++
			if bits.OnesCount(uint(n)) == 1 {
				m.powerOfTwo++
			}
		}
		m.maxSizeSeen = max(m.maxSizeSeen, n)
	}
	if !j.Has(model.FieldSubmit) {
		return
	}
	if m.havePrev {
		gap := (j.Submit - m.prev).Seconds()
		if gap < 0 {
			m.outOfOrder = true
		}
		m.gaps++
		d := gap - m.gapMean
		m.gapMean += d / float64(m.gaps)
		m.gapM2 += d * (gap - m.gapMean)
	}
	m.prev, m.havePrev = j.Submit, true
}

// Profile returns the profile of the jobs added, with the offered load on
// procs processors.
func (m *ProfileMeter) Profile(procs int) Profile {
	p := Profile{Jobs: m.load.Jobs, SpanDays: m.load.Span().Seconds() / 86400, MedianSize: m.median(), Load: math.NaN(),
		PowerOfTwoShare: math.NaN(), InterarrivalCV: math.NaN()}
	if m.parallel > 0 {
		p.PowerOfTwoShare = float64(m.powerOfTwo) / float64(m.parallel)
	}
	if l, err := m.load.Load(procs); err == nil {
		p.Load = l
	}
	if m.gaps > 1 && m.gapMean > 0 && !m.outOfOrder {
		p.InterarrivalCV = math.Sqrt(m.gapM2/float64(m.gaps-1)) / m.gapMean
	}
	return p
}

// median is the sample median of the sizes counted, NaN with none.
func (m *ProfileMeter) median() float64 {
	if m.sized == 0 {
		return math.NaN()
	}
	lo, hi := (m.sized-1)/2, m.sized/2 // 0-based ranks of the middle size(s)
	at := func(rank int) int {
		seen := 0
		for n, c := range m.sizes {
			seen += c
			if seen > rank {
				return n
			}
		}
		return m.maxSizeSeen
	}
	return float64(at(lo)+at(hi)) / 2
}

// MeasureProfile reads every job of r and returns its Profile, with the
// offered load on procs processors (the header's MaxProcs when procs is
// 0).
func MeasureProfile(r model.JobReader, procs int) (Profile, error) {
	if procs == 0 {
		procs = r.Header().MaxProcs()
	}
	var m ProfileMeter
	for {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			return m.Profile(procs), nil
		}
		if err != nil {
			return Profile{}, err
		}
		m.Add(&j)
	}
}

// Window is the half-open interval [Min, Max) of a statistic.
type Window struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// Contains reports whether Min <= x < Max (false for NaN).
func (w Window) Contains(x float64) bool { return x >= w.Min && x < w.Max }

func (w Window) String() string {
	return fmt.Sprintf("[%s, %s)", formatFloat(w.Min), formatFloat(w.Max))
}

func (w *Window) validate(name string) error {
	if w == nil {
		return nil
	}
	if math.IsNaN(w.Min) || math.IsNaN(w.Max) || math.IsInf(w.Min, 0) || math.IsInf(w.Max, 0) || !(w.Min < w.Max) {
		return fmt.Errorf("%s window %v: want finite min < max", name, w)
	}
	return nil
}

// DefaultMaxDraws is the number of workloads a Selection draws at most
// when its MaxDraws is 0.
const DefaultMaxDraws = 10000

// Selection keeps, of the workloads a generator draws one after another
// from its random stream, the first whose Profile falls in every window
// given: the way to pick generated workloads by statistics a paper states
// of its own (for the thesis' workload, ThesisPreset). The seed still
// decides everything: seed s draws from the generator stream of s, and the
// same seed always selects the same workload. The draw selected is
// reported (Reader.Selection); the statistics are those of the generated
// jobs, before any transform.
type Selection struct {
	// SpanDays is the window of the arrival span, days.
	SpanDays *Window `json:"span_days,omitempty"`
	// MedianSize is the window of the median job size, processors.
	MedianSize *Window `json:"median_size,omitempty"`
	// PowerOfTwoShare is the window of the share of parallel jobs whose
	// size is a power of two.
	PowerOfTwoShare *Window `json:"power_of_two_share,omitempty"`
	// Load is the window of the offered load on the generator's machine.
	Load *Window `json:"load,omitempty"`
	// MaxDraws bounds the search: when none of that many workloads
	// passes, opening the workload fails. 0 means DefaultMaxDraws.
	MaxDraws int `json:"max_draws,omitempty"`
}

func (s Selection) withDefaults() Selection {
	if s.MaxDraws == 0 {
		s.MaxDraws = DefaultMaxDraws
	}
	return s
}

// Validate reports windows that are empty or not finite, and a negative
// MaxDraws.
func (s *Selection) Validate() error {
	errs := []error{s.SpanDays.validate("span_days"), s.MedianSize.validate("median_size"),
		s.PowerOfTwoShare.validate("power_of_two_share"), s.Load.validate("load")}
	if s.MaxDraws < 0 {
		errs = append(errs, fmt.Errorf("max_draws %d is negative", s.MaxDraws))
	}
	return errors.Join(errs...)
}

// Accepts reports whether p falls in every window of s.
func (s *Selection) Accepts(p Profile) bool {
	for _, c := range []struct {
		w *Window
		x float64
	}{{s.SpanDays, p.SpanDays}, {s.MedianSize, p.MedianSize}, {s.PowerOfTwoShare, p.PowerOfTwoShare}, {s.Load, p.Load}} {
		if c.w != nil && !c.w.Contains(c.x) {
			return false
		}
	}
	return true
}

// String says what s asks for, e.g. "span_days in [7, 9), load in [0.93, 1.03)".
func (s *Selection) String() string {
	var parts []string
	for _, c := range []struct {
		name string
		w    *Window
	}{{"span_days", s.SpanDays}, {"median_size", s.MedianSize}, {"power_of_two_share", s.PowerOfTwoShare}, {"load", s.Load}} {
		if c.w != nil {
			parts = append(parts, c.name+" in "+c.w.String())
		}
	}
	if len(parts) == 0 {
		return "any workload"
	}
	return strings.Join(parts, ", ")
}

// Selected reports which draw a Selection kept.
type Selected struct {
	// Draw is the number of the workload kept, 1 for the first drawn.
	Draw int
	// Profile is its profile.
	Profile Profile
}

// ParseSelection parses "name=MIN..MAX,..." into a Selection: names
// span_days, median_size, power_of_two_share and load, each window
// [MIN, MAX).
func ParseSelection(s string) (*Selection, error) {
	sel := &Selection{}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, val, ok := strings.Cut(kv, "=")
		lo, hi, ok2 := strings.Cut(val, "..")
		if !ok || !ok2 {
			return nil, fmt.Errorf("selection %q: want name=MIN..MAX", kv)
		}
		var w Window
		var err error
		if w.Min, err = strconv.ParseFloat(strings.TrimSpace(lo), 64); err != nil {
			return nil, fmt.Errorf("selection %q: %q is not a number", kv, lo)
		}
		if w.Max, err = strconv.ParseFloat(strings.TrimSpace(hi), 64); err != nil {
			return nil, fmt.Errorf("selection %q: %q is not a number", kv, hi)
		}
		dst := map[string]**Window{"span_days": &sel.SpanDays, "median_size": &sel.MedianSize,
			"power_of_two_share": &sel.PowerOfTwoShare, "load": &sel.Load}[strings.TrimSpace(name)]
		if dst == nil {
			return nil, fmt.Errorf("selection %q: unknown statistic %q (want span_days, median_size, power_of_two_share or load)", kv, name)
		}
		*dst = &w
	}
	return sel, sel.Validate()
}
