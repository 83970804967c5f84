package experiments

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/pipelines/analysis"
	"github.com/gangsim/gangsim/workload"
	"github.com/gangsim/gangsim/workload/lublin"
)

// powerOfTwoShare is the share of parallel jobs whose size is a power of
// two that the Lublin model's class p, adapted to procs processors (a
// power of two), is built to give: the jobs rounded to a power of two
// (Pow2Prob of all jobs, SerialProb serial), and of the others those whose
// size 2^x, x on the two-stage uniform, rounds to one.
func powerOfTwoShare(p lublin.Params, procs int) (share, unbiased float64) {
	p = p.ForProcs(procs)
	within := func(lo, hi float64) float64 { // measure of x in [lo, hi) with round(2^x) a power of two
		m := 0.0
		for k := 1; 1<<k <= procs; k++ {
			a, b := math.Log2(float64(int(1)<<k)-0.5), math.Log2(float64(int(1)<<k)+0.5)
			m += max(0, min(b, hi)-max(a, lo))
		}
		return m
	}
	unbiased = p.UProb*within(p.ULow, p.UMed)/(p.UMed-p.ULow) + (1-p.UProb)*within(p.UMed, p.UHi)/(p.UHi-p.UMed)
	rounded := p.Pow2Prob / (1 - p.SerialProb)
	return rounded + (1-rounded)*unbiased, unbiased
}

// TestThesisWorkloadReferences holds frachtenberg/workload's references
// to what they stand for: the windows of its claims are exactly the
// selection's (workload.ThesisSpanDays, ThesisMedianSize, ThesisRawLoad),
// its paper rows for the span and the raw load are those windows' closures,
// and the power-of-two share it compares with is the Lublin model's own,
// computed here from the model's parameters and checked against 200,000
// jobs drawn (within 4 standard errors), its tolerance at least 4 binomial
// standard errors of a workload's parallel jobs.
func TestThesisWorkloadReferences(t *testing.T) {
	e, _, err := analysis.LoadExperiment(filepath.Join("frachtenberg", "workload.json"))
	if err != nil {
		t.Fatal(err)
	}
	windows := map[string]workload.Window{"span_days": workload.ThesisSpanDays, "median_size": workload.ThesisMedianSize,
		"raw_load": workload.ThesisRawLoad}
	found := map[string]bool{}
	for _, c := range e.Claims {
		if c.Kind != "in-window" {
			continue
		}
		q := c.A["quantity"]
		w, ok := windows[q]
		if !ok || c.Value != w.Min || c.Max != w.Max {
			t.Errorf("claim on %s: window [%v, %v), the selection's %v", q, c.Value, c.Max, w)
		}
		found[q] = true
	}
	for q := range windows {
		if !found[q] {
			t.Errorf("no in-window claim on %s", q)
		}
	}
	share, unbiased := powerOfTwoShare(lublin.CombinedParams(), 32)
	t.Logf("expected power-of-two share of parallel jobs %.4f (without the bias %.4f)", share, unbiased)
	for _, p := range e.Paper {
		q := p.Coords["quantity"]
		if w, ok := windows[q]; ok && (math.Abs(p.Value-p.Tolerance-w.Min) > 1e-9 || math.Abs(p.Value+p.Tolerance-w.Max) > 1e-9) {
			t.Errorf("paper row %s: %v ± %v, the selection's window %v", q, p.Value, p.Tolerance, w)
		}
		if q == "median_size" {
			t.Errorf("paper row for the median: the thesis gives a phrase, not a number")
		}
		if q == "power_of_two_share_parallel" {
			// About 756 parallel jobs of 1000 (SerialProb 0.244).
			se := math.Sqrt(share * (1 - share) / 756)
			if math.Abs(p.Value-share) > 0.0005 || p.Tolerance < 4*se {
				t.Errorf("power-of-two share %v ± %v, the model's %.4f ± 4 standard errors %.4f", p.Value, p.Tolerance, share, 4*se)
			}
		}
	}
	cfg := lublin.Config{Procs: 32, Mix: lublin.Combined, Jobs: 200000}
	parallel, pow2 := 0, 0
	for j := range lublin.New(cfg, rand.New(rand.NewPCG(1, 2))).Jobs() {
		if n := j.Size(); n > 1 {
			parallel++
			if n&(n-1) == 0 {
				pow2++
			}
		}
	}
	got := float64(pow2) / float64(parallel)
	t.Logf("drawn: %d of %d parallel jobs of a power-of-two size (%.4f)", pow2, parallel, got)
	if se := math.Sqrt(share * (1 - share) / float64(parallel)); math.Abs(got-share) > 4*se {
		t.Errorf("power-of-two share %.4f of %d parallel jobs drawn, expected %.4f ± %.4f", got, parallel, share, 4*se)
	}
}
