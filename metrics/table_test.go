package metrics

import (
	"math"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func TestSummarize(t *testing.T) {
	r := Summarize(runOutcomes(), 4, DefaultTau)
	if r.Jobs != 3 || r.Rejected != 1 || r.Makespan != 120*model.Second {
		t.Errorf("jobs %d rejected %d makespan %v, want 3, 1, 120s", r.Jobs, r.Rejected, r.Makespan)
	}
	if math.Abs(r.Utilization-241.0/480) > 1e-15 || math.Abs(r.Throughput-0.025) > 1e-15 {
		t.Errorf("utilization %v throughput %v", r.Utilization, r.Throughput)
	}
	// Waits 0, 90, 10: sorted 0, 10, 90, h = 2p: p5 = 0.1×10 = 1,
	// p25 = 5, p75 = 10 + 0.5×80 = 50, p95 = 10 + 0.9×80 = 82; mean 100/3,
	// squared deviations sum to 4866.67 (exactly 14600/3), sd = sqrt(7300/3).
	w := r.Wait
	want := []float64{100.0 / 3, math.Sqrt(7300.0 / 3), 0, 1, 5, 10, 50, 82, 90}
	got := w.values()
	if w.N != 3 || !closeTo(got[:], want, 1e-12) {
		t.Errorf("wait distribution %+v, want %v", w, want)
	}
	// ts-bsld 1, 11, 1.1: sorted 1, 1.1, 11; median 1.1.
	if r.TimeSharingBoundedSlowdown.Median != 1.1 || r.TimeSharingBoundedSlowdown.Max != 11 {
		t.Errorf("ts-bsld %+v", r.TimeSharingBoundedSlowdown)
	}
	if r.BoundedSlowdown.Max != 5.5 || r.Response.Min != 11 {
		t.Errorf("bsld %+v response %+v", r.BoundedSlowdown, r.Response)
	}

	cols, vals, rec := RunColumns(), r.Values(), r.Record()
	if len(cols) != 5+4*9 || len(vals) != len(cols) || len(rec) != len(cols) {
		t.Fatalf("%d columns, %d values, %d fields", len(cols), len(vals), len(rec))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(cols)))) != len(cols) {
		t.Errorf("column names repeat: %v", cols)
	}
	for _, c := range []struct {
		col  string
		val  float64
		text string
	}{
		{"jobs", 3, "3"},
		{"rejected", 1, "1"},
		{"makespan_s", 120, "120"},
		{"utilization", 241.0 / 480, "0.5020833333333333"},
		{"throughput_per_s", 0.025, "0.025"},
		{"wait_s_p95", 82, "82"},
		{"response_s_median", 100, "100"},
		{"bsld_mean", 7.6 / 3, "2.533333333333333"},
		{"ts_bsld_max", 11, "11"},
	} {
		i := slices.Index(cols, c.col)
		if i < 0 {
			t.Errorf("no column %q", c.col)
			continue
		}
		if math.Abs(vals[i]-c.val) > 1e-12 || rec[i] != c.text {
			t.Errorf("%s = %v (%q), want %v (%q)", c.col, vals[i], rec[i], c.val, c.text)
		}
	}

	empty := Summarize(nil, 4, DefaultTau)
	er := empty.Record()
	if er[0] != "0" || er[2] != "0" || er[slices.Index(cols, "wait_s_mean")] != "NaN" {
		t.Errorf("record of an empty run: %v", er)
	}
}

// TestSummaryAgreesWithSummarize checks the streaming Summary against the
// slice functions on an M/M/P run.
func TestSummaryAgreesWithSummarize(t *testing.T) {
	out, _ := runFCFS(t, mmpJobs(7, 500, 4, 0.9), 4)
	var sum Summary
	for i := range out {
		sum.Add(&out[i])
	}
	r := Summarize(out, 4, DefaultTau)
	if sum.Jobs != r.Jobs || sum.Makespan() != r.Makespan {
		t.Fatalf("jobs %d/%d makespan %v/%v", sum.Jobs, r.Jobs, sum.Makespan(), r.Makespan)
	}
	// The sums are accumulated in different orders: agree to 1e-12
	// relative.
	for _, c := range []struct {
		name       string
		stream, sl float64
	}{
		{"wait", sum.MeanWait(), r.Wait.Mean},
		{"response", sum.MeanResponse(), r.Response.Mean},
		{"bsld", sum.MeanBoundedSlowdown(), r.BoundedSlowdown.Mean},
		{"ts-bsld", sum.MeanTimeSharingBoundedSlowdown(), r.TimeSharingBoundedSlowdown.Mean},
		{"utilization", sum.Utilization(4), r.Utilization},
		{"throughput", sum.Throughput(), r.Throughput},
	} {
		if math.Abs(c.stream-c.sl) > 1e-12*math.Abs(c.sl) {
			t.Errorf("%s: Summary %v, Summarize %v", c.name, c.stream, c.sl)
		}
	}
}
