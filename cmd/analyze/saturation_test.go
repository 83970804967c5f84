package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/model"
)

// saturationFixture writes two FCFS runs of 50 jobs on one processor:
//
//	stable.csv     load.target=0.5: a job every 2 s that runs 1 s, so the
//	               system empties between arrivals (never saturated);
//	saturated.csv  load.target=2: a job every 1 s that runs 2 s, so the
//	               backlog grows by one job every 2 s.
func saturationFixture(t *testing.T) (dir string, stable, saturated []model.Outcome) {
	t.Helper()
	dir = t.TempDir()
	for i := range 50 {
		s := float64(i)
		stable = append(stable, job(int64(i+1), 2*s, 2*s, 2*s+1, 1))
		saturated = append(saturated, job(int64(i+1), s, 2*s, 2*s+2, 1))
	}
	own := []model.Param{p("policy", "fcfs"), p("machine", "1")}
	writeRun(t, filepath.Join(dir, "stable.csv"), runHeader(1, 1, []model.Param{p("load.target", "0.5")}, own), stable)
	writeRun(t, filepath.Join(dir, "saturated.csv"), runHeader(1, 1, []model.Param{p("load.target", "2")}, own), saturated)
	return dir, stable, saturated
}

func TestSaturation(t *testing.T) {
	dir, stable, _ := saturationFixture(t)
	files := []string{filepath.Join(dir, "saturated.csv"), filepath.Join(dir, "stable.csv")}
	out, _ := mustAnalyze(t, nil, append([]string{"--saturation", "--by", "load.target"}, files...)...)
	man, cols, rows := csvTable(t, out)
	if strings.Join(cols, ",") != "load.target,run,saturated,backlog,cleared_at,clear_level,median_in_system,at_last_arrival,trend,drain,arrival_span_s,judged_from" {
		t.Fatalf("columns %v", cols)
	}
	if len(rows) != 2 || !strings.Contains(strings.Join(man, "\n"), "GangsimParam: saturation=true") {
		t.Fatalf("%d rows, manifest %v", len(rows), man)
	}
	// Stable: nothing ever waits, so the clearing level is 0, last
	// reached at the last arrival (98 s); empty again 1 s later.
	checkCells(t, "stable", rows[0], map[string]string{"load.target": "0.5", "saturated": "false", "backlog": "queued", "cleared_at": "1",
		"clear_level": "0", "at_last_arrival": "1", "arrival_span_s": "98", "judged_from": "outcomes"})
	checkNumber(t, "stable", rows[0], "drain", 1.0/98)
	// Saturated: after the arrival at k s there are k+1 - floor(k/2) jobs
	// in the system, one of them running. So the queue's time-weighted
	// lower quartile over [0, 49] is 6 (12.25 s of 49 are at 6 or below),
	// last held until 13 s; at the last arrival (49 s) 50 - 24 = 26 jobs
	// are in the system.
	checkCells(t, "saturated", rows[1], map[string]string{"load.target": "2", "saturated": "true", "clear_level": "6",
		"at_last_arrival": "26", "arrival_span_s": "49"})
	checkNumber(t, "saturated", rows[1], "cleared_at", 13.0/49)
	// Watching the jobs in the system, the level is one more (the running
	// job), held over the same stretches.
	out, _ = mustAnalyze(t, nil, "--saturation", "--backlog", "in-system", files[0])
	_, _, rows = csvTable(t, out)
	checkCells(t, "in-system", rows[0], map[string]string{"saturated": "true", "backlog": "in-system", "clear_level": "7"})
	checkNumber(t, "in-system", rows[0], "cleared_at", 13.0/49)

	// The saturation point across load.target.
	out, _ = mustAnalyze(t, nil, append([]string{"--saturation", "--x", "load.target", "--by", "policy", "--format", "json"}, files...)...)
	if !strings.Contains(out, `{"policy": "fcfs", "saturation_point": 0.5, "first_saturated": 2, "monotone": true, "runs": 2, "decisions": "0.5:0/1 2:1/1"}`) {
		t.Errorf("saturation point:\n%s", out)
	}

	// From a time series: the same decision, judged from it.
	h := runHeader(1, 1, []model.Param{p("load.target", "0.5")}, []model.Param{p("policy", "fcfs"), p("machine", "1")})
	ts := filepath.Join(dir, "stable-ts.csv")
	writeSeries(t, ts, h, stableSeries(stable))
	out, stderr := mustAnalyze(t, nil, "--saturation", files[1], "--timeseries", ts)
	_, _, rows = csvTable(t, out)
	checkCells(t, "time series", rows[0], map[string]string{"saturated": "false", "cleared_at": "1", "judged_from": "timeseries"})
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	// A time series of another run is refused.
	if _, _, err := analyzeCmd(t, nil, "--saturation", files[0], "--timeseries", ts); err == nil || !strings.Contains(err.Error(), "the time series belongs to another run") {
		t.Errorf("a mismatched time series: %v", err)
	}
	// One that starts after the last arrival cannot judge it.
	late := filepath.Join(dir, "late.csv")
	writeSeries(t, late, h, []model.Sample{{At: 200 * model.Second}})
	if _, _, err := analyzeCmd(t, nil, "--saturation", files[1], "--timeseries", late); err == nil || !strings.Contains(err.Error(), "does not cover the arrival period") {
		t.Errorf("late time series: %v", err)
	}
	// A run of a single arrival time cannot be judged.
	one := filepath.Join(dir, "one.csv")
	writeRun(t, one, h, stable[:1])
	if _, _, err := analyzeCmd(t, nil, "--saturation", one); err == nil || !strings.Contains(err.Error(), "two different times") {
		t.Errorf("one job: %v", err)
	}
}

// stableSeries is the time series of the stable run: one job from 2i to
// 2i+1, none from 2i+1 to 2i+2.
func stableSeries(outcomes []model.Outcome) []model.Sample {
	var s []model.Sample
	for _, o := range outcomes {
		s = append(s, model.Sample{At: o.Start, InSystem: 1, Running: 1, BusyProcs: 1}, model.Sample{At: o.End})
	}
	return s
}

func writeSeries(t *testing.T, path string, h model.Header, samples []model.Sample) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := columnar.NewSampleWriter(f, columnar.FormatCSV, &h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range samples {
		w.WriteSample(&samples[i])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
