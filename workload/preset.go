package workload

import (
	"fmt"
	"slices"
	"strings"
)

// PresetThesis names the thesis' dynamic workload, ThesisPreset.
const PresetThesis = "thesis"

// ThesisMedianSize, ThesisSpanDays and ThesisRawLoad are the statistics E.
// Frachtenberg's thesis states of its dynamic workload (section 6.4.1),
// which ThesisPreset selects its workloads by, with the tolerances this
// package reads into the words.
var (
	// ThesisSpanDays: "1000 jobs, that arrive over a period of about 8
	// days"; "about" read as ±1 day.
	ThesisSpanDays = Window{Min: 7, Max: 9}
	// ThesisMedianSize: "the median here at just under 4 PEs"; read as at
	// least 3 and below 4 processors.
	ThesisMedianSize = Window{Min: 3, Max: 4}
	// ThesisRawLoad: "Using the raw workload data, this leads to a very
	// high load of about 98% of the system capacity"; "about" read as
	// ±0.05.
	ThesisRawLoad = Window{Min: 0.93, Max: 1.03}
)

// ThesisPreset returns the thesis' dynamic workload (E. Frachtenberg, PhD
// thesis, section 6.4.1) as a Spec, without a load target or a seed: the
// experiments of sections 6.4.2-6.4.4 set the load ("we divide the
// execution times by another factor"), and the seed picks one of many
// workloads with the thesis' statistics.
//
// What the thesis says, and how the preset meets it:
//
//   - "a workload model proposed by Lublin [70]", "1000 jobs", "32
//     processors": the Lublin-Feitelson model (package lublin), 1000
//     jobs, adapted to 32 processors by the reference program's own rule
//     (lublin.Params.ForProcs: UHi = log2(32) = 5, UMed = UHi - 2.5).
//   - "the median here at just under 4 PEs", "biased toward powers of
//     two": the model's single-class ("combined") parameters, the
//     reference program's INCLUDE_JOBS_TYPE 0 option, which gives a median
//     of 3 in about 59% of workloads, with no parameter changed. With the
//     program's default two classes the median on 32 processors is 2 in
//     every workload (interactive jobs, the majority, are small). The
//     single class's power-of-two share of parallel jobs is about 0.87.
//   - "arrive over a period of about 8 days", "a very high load of about
//     98%": the model's arrival and runtime parameters are the published
//     ones; of the workloads it draws for 32 processors, 1000 jobs span 10
//     days and offer 0.59 of the machine at the median, and about 0.7%
//     have a span within ThesisSpanDays, a median within ThesisMedianSize
//     and a raw load within ThesisRawLoad at once (TestThesisPresetRate,
//     4000 draws). A Selection keeps those: seed s gives the first
//     workload drawn from s's stream that has all three (about 140 draws
//     on average).
//   - "loose estimates that are up to 5 times longer": Estimates loose,
//     factor uniform on [1, 5].
//   - the synthetic BSP application with granularity "chosen randomly with
//     equal probability" from 5, 50 and 500 ms, ring pattern: Attributes
//     with the thesis' defaults.
//   - "we reduce time by a factor of 100": Compress 100.
//
// Other levers were tried and not kept. Sizes drawn for a larger machine
// and cut to 32 (LublinSource.ModelProcs, genwork lublin --model-procs;
// TestSizeLevers, 1000 draws each): for 64 processors the two classes
// give a median of 4 in 90% of workloads and 3 in 10% (median raw load
// 0.74, span 5.7 days), the single class 4 in every one (load 1.04); for
// 128 processors the single class gives 4 in 97% and a median load of
// 1.73. Moving UMed within the range the program allows ([UHi-3.5,
// UHi-1.5]) trades the median for the load; changing the arrival rate
// to center the span on 8 days (ARAR 0.98 instead of the published
// 1.0225: median span 7.8 days) raises the share of workloads with all
// three statistics from 0.85% to 1.35% of 2000 draws, which saves draws
// but changes a published parameter, so the preset keeps it.
func ThesisPreset() Spec {
	return Spec{
		Source: Source{Lublin: &LublinSource{
			Jobs:  1000,
			Procs: 32,
			Mix:   "combined",
			Select: &Selection{
				SpanDays:   ptr(ThesisSpanDays),
				MedianSize: ptr(ThesisMedianSize),
				Load:       ptr(ThesisRawLoad),
			},
		}},
		Attributes: &Attributes{},
		Estimates:  &Estimates{Mode: EstimatesLoose},
		Compress:   100,
	}
}

func ptr[T any](v T) *T { return &v }

// presets lists the named specs.
var presets = map[string]func() Spec{PresetThesis: ThesisPreset}

// PresetNames returns the names of the presets, sorted.
func PresetNames() []string {
	var names []string
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Preset returns the named spec.
func Preset(name string) (Spec, error) {
	f, ok := presets[name]
	if !ok {
		return Spec{}, fmt.Errorf("unknown workload preset %q (want %s)", name, strings.Join(PresetNames(), ", "))
	}
	s := f()
	s.Preset = name
	return s, nil
}

// withPreset returns s with the fields it leaves unset (the source, each
// transform, Compress 0) taken from its preset; s itself when it names
// none or an unknown one (Validate reports that).
func (s Spec) withPreset() Spec {
	if s.Preset == "" {
		return s
	}
	p, err := Preset(s.Preset)
	if err != nil {
		return s
	}
	r := s
	if s.Source == (Source{}) {
		r.Source = p.Source
	}
	if r.Attributes == nil {
		r.Attributes = p.Attributes
	}
	if r.Estimates == nil {
		r.Estimates = p.Estimates
	}
	if r.Load == nil {
		r.Load = p.Load
	}
	if r.Compress == 0 {
		r.Compress = p.Compress
	}
	return r
}
