package metrics

import (
	"math"
	"testing"

	"github.com/gangsim/gangsim/model"
)

func TestBoundedSlowdown(t *testing.T) {
	s := model.Second
	tests := []struct {
		wait, run, tau model.Time
		want           float64
	}{
		{0, 100 * s, 10 * s, 1},
		{100 * s, 100 * s, 10 * s, 2},
		{9 * s, 1 * s, 10 * s, 1},  // short job: (9+1)/10
		{29 * s, 1 * s, 10 * s, 3}, // (29+1)/10
		{0, 1 * s, 10 * s, 1},      // never below 1
		{50 * s, 200 * s, 10 * s, 1.25},
	}
	for _, tt := range tests {
		if got := BoundedSlowdown(tt.wait, tt.run, tt.tau); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("BoundedSlowdown(%v, %v, %v) = %v, want %v", tt.wait, tt.run, tt.tau, got, tt.want)
		}
	}
	// Time sharing: a job that ran 60 s of a 30 s dedicated runtime after a
	// 30 s wait has slowdown (30+60)/30 = 3; with tau = 0.1 s (10 s / 100).
	if got := TimeSharingBoundedSlowdown(30*s, 60*s, 30*s, 100*model.Millisecond); got != 3 {
		t.Errorf("TimeSharingBoundedSlowdown = %v, want 3", got)
	}
	if got := TimeSharingBoundedSlowdown(0, 50*model.Millisecond, 20*model.Millisecond, 100*model.Millisecond); got != 1 {
		t.Errorf("short time-sharing job = %v, want 1 (bounded by tau)", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("tau 0 did not panic")
		}
	}()
	BoundedSlowdown(1, 1, 0)
}

func TestSummary(t *testing.T) {
	s := model.Second
	var sum Summary
	for _, o := range []model.Outcome{
		{Submit: 0, Start: 0, End: 100 * s, Procs: 2, Runtime: 100 * s, Dedicated: 100 * s},
		{Submit: 10 * s, Start: 100 * s, End: 120 * s, Procs: 4, Runtime: 20 * s, Dedicated: 10 * s},
		{Submit: 20 * s, Reason: model.RejectTooWide},
	} {
		sum.Add(&o)
	}
	if sum.Jobs != 2 || sum.Rejected != 1 {
		t.Fatalf("jobs %d rejected %d", sum.Jobs, sum.Rejected)
	}
	if got := sum.Makespan(); got != 120*s {
		t.Errorf("makespan %v", got)
	}
	if got := sum.MeanWait(); got != 45 {
		t.Errorf("mean wait %v, want (0+90)/2", got)
	}
	if got := sum.MeanResponse(); got != 105 {
		t.Errorf("mean response %v, want (100+110)/2", got)
	}
	// bsld: job 1 = 1; job 2 = 110/20 = 5.5; mean 3.25.
	if got := sum.MeanBoundedSlowdown(); got != 3.25 {
		t.Errorf("mean bsld %v, want 3.25", got)
	}
	// time sharing: job 2 = 110/max(10, 10) = 11; mean 6.
	if got := sum.MeanTimeSharingBoundedSlowdown(); got != 6 {
		t.Errorf("mean ts-bsld %v, want 6", got)
	}
	// Work counts dedicated runtimes: job 2 ran 20 s of a 10 s dedicated
	// runtime, so (2*100 + 4*10) / (4 * 120) = 240/480.
	if got := sum.Utilization(4); math.Abs(got-240.0/480) > 1e-15 {
		t.Errorf("utilization %v, want 240/480", got)
	}
	if got := sum.Throughput(); math.Abs(got-2.0/120) > 1e-15 {
		t.Errorf("throughput %v, want 2/120 jobs/s", got)
	}
}
