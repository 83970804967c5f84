package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// TestPlots draws every kind as PNG and SVG: the PNG decodes and carries
// the manifest in tEXt chunks, the SVG has the expected labels and legend
// entries.
func TestPlots(t *testing.T) {
	dir := fixture(t)
	satDir, _, _ := saturationFixture(t)
	runs := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "easy2.arrow"), filepath.Join(dir, "fcfs.csv")}
	fcfs := filepath.Join(dir, "fcfs.csv")
	for _, c := range []struct {
		name string
		args []string
		svg  []string // texts the SVG must hold
	}{
		{"cdf", append([]string{"--plot", "cdf", "--by", "policy", "--logx"}, runs...),
			[]string{">Response time (s)<", ">easy<", ">fcfs<", ">Cumulative fraction of jobs<"}},
		{"cdf-halves", append([]string{"--plot", "cdf", "--metric", "bsld", "--halves", fcfs}, runs[0], fcfs),
			[]string{">Bounded slowdown, tau = 0.1 s<", ">(a) Distribution of bounded slowdown, short jobs<",
				">(b) Distribution of bounded slowdown, long jobs<", ">" + runs[0] + "<", ">" + fcfs + "<"}},
		{"boxes", append([]string{"--plot", "boxes", "--metric", "wait", "--x", "load.target", "--by", "policy"}, runs...),
			[]string{">Wait time (s)<", ">Offered load<", ">0.5<", ">0.7<", ">Policy<"}},
		{"metric", append([]string{"--plot", "metric", "--metric", "response", "--stat", "median", "--x", "load.target", "--title", "Fig"}, runs...),
			[]string{">Median response time (s)<", ">Fig<"}},
		{"metric-column", append([]string{"--plot", "metric", "--metric", "utilization", "--x", "load.target", "--by", "policy", "--logy"}, runs...),
			[]string{">Utilization<", ">easy<"}},
		{"bars", append([]string{"--plot", "bars", "--metric", "bsld", "--by", "load.target,policy"}, runs...),
			[]string{">Mean bounded slowdown, tau = 0.1 s<", ">easy<", ">fcfs<", ">Offered load<", ">Policy<"}},
		{"bars-halves", append([]string{"--plot", "bars", "--metric", "response_s_p95", "--halves", fcfs, "--by", "policy"}, runs...),
			[]string{">95th percentile of response time (s)<", ">short<", ">long<"}},
		{"jobs-in-system", []string{"--plot", "jobs-in-system", "--by", "load.target",
			filepath.Join(satDir, "stable.csv"), filepath.Join(satDir, "saturated.csv")},
			[]string{">Jobs in the system<", ">Time (s)<", ">Offered load<", ">0.5<", ">2<"}},
		{"labels", append([]string{"--plot", "metric", "--metric", "wait", "--x", "load.target", "--by", "policy",
			"--xlabel", "Load (fraction of capacity)", "--ylabel", "Mean wait (s)", "--legend", "Scheduler", "--title", "Waits"}, runs...),
			[]string{">Load (fraction of capacity)<", ">Mean wait (s)<", ">Scheduler<", ">Waits<"}},
		{"cdf-waits-log", append([]string{"--plot", "cdf", "--metric", "wait", "--by", "policy", "--logx"}, runs...),
			[]string{">Wait time (s)<", ">Policy<"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), c.name)
			mustAnalyze(t, nil, append([]string{"-q", "-o", out + ".png"}, c.args...)...)
			b, err := os.ReadFile(out + ".png")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Fatalf("PNG: %v", err)
			}
			for _, want := range []string{"tEXtGangsimTool\x00analyze", "tEXtGangsimParam\x00plot=" + c.args[1], "tEXtGangsimInput\x00" + sha(t, c.args[len(c.args)-1])} {
				if !bytes.Contains(b, []byte(want)) {
					t.Errorf("PNG lacks %q", want)
				}
			}
			mustAnalyze(t, nil, append([]string{"-q", "-o", out + ".svg"}, c.args...)...)
			b, _ = os.ReadFile(out + ".svg")
			if !strings.Contains(string(b), "<!-- GangsimTool: analyze -->") {
				t.Error("SVG lacks its manifest")
			}
			for _, want := range c.svg {
				if !strings.Contains(string(b), want) {
					t.Errorf("SVG lacks %q:\n%s", want, b)
				}
			}
		})
	}

	// A failed figure leaves no file: a policy is not a number for an
	// axis.
	out := filepath.Join(t.TempDir(), "bad.png")
	_, _, err := analyzeCmd(t, nil, append([]string{"--plot", "boxes", "--metric", "wait", "--x", "policy", "-o", out}, runs...)...)
	if err == nil || !strings.Contains(err.Error(), `parameter policy="easy" is not a number`) {
		t.Errorf("non-numeric --x: %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Error("a failed figure left a file")
	}
}

// TestPlotZerosOnLog: waits of 0 on a log axis are counted, not dropped:
// the legend says how many of each series are below the floor, out of all
// its jobs.
func TestPlotZerosOnLog(t *testing.T) {
	dir := fixture(t)
	runs := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "easy2.arrow"), filepath.Join(dir, "fcfs.csv")}
	out := filepath.Join(t.TempDir(), "waits.svg")
	_, stderr := mustAnalyze(t, nil, append([]string{"-o", out, "--plot", "cdf", "--metric", "wait", "--by", "policy", "--logx"}, runs...)...)
	if strings.Contains(stderr, "left out") {
		t.Errorf("values left out: %s", stderr)
	}
	b, _ := os.ReadFile(out)
	// easy1 and easy2 each have two of four jobs that did not wait; the
	// smallest positive wait is 10 s, the floor.
	if !strings.Contains(string(b), ">easy (4 of 8 &lt; 10 s)<") {
		t.Errorf("the legend does not count the zeros:\n%s", b)
	}
}

// TestPlotKindsZerosOnLog: every kind that takes --logy draws zeros on
// it at the floor and counts them in the legend, instead of failing ("value
// 0 is 0"): a minimum wait of 0 against the load, the bars of a minimum
// wait, the jobs in the system (which start at 0) on both log axes.
func TestPlotKindsZerosOnLog(t *testing.T) {
	dir := fixture(t)
	satDir, _, _ := saturationFixture(t)
	runs := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "easy2.arrow"), filepath.Join(dir, "fcfs.csv")}
	for _, c := range []struct {
		name   string
		args   []string
		legend []string // legend entries the SVG must hold
	}{
		// Every run has a wait of 0: the minimum is 0 at both loads.
		{"metric", append([]string{"--plot", "metric", "--metric", "wait", "--stat", "min", "--x", "load.target", "--by", "policy", "--logy"}, runs...),
			[]string{">easy (1 of 1 points &lt; 1 s)<", ">fcfs (1 of 1 points &lt; 1 s)<"}},
		// One series: the easy runs' 25th percentiles are 0, fcfs' 7.5 s.
		{"metric-p25", append([]string{"--plot", "metric", "--metric", "wait", "--stat", "p25", "--x", "load.target", "--logy"}, runs...),
			[]string{">25th percentile of wait time (1 of 2 points &lt; 1 s)<"}},
		{"bars", append([]string{"--plot", "bars", "--metric", "wait", "--stat", "min", "--by", "load.target,policy", "--logy"}, runs...),
			[]string{">easy (1 of 1 bars &lt; 1 s)<", ">fcfs (1 of 1 bars &lt; 1 s)<"}},
		{"jobs-in-system", []string{"--plot", "jobs-in-system", "--by", "load.target", "--logx", "--logy",
			filepath.Join(satDir, "stable.csv"), filepath.Join(satDir, "saturated.csv")},
			[]string{"points &lt; 1)", "points with x &lt; 1 s)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), c.name+".svg")
			mustAnalyze(t, nil, append([]string{"-q", "-o", out}, c.args...)...)
			b, _ := os.ReadFile(out)
			for _, want := range c.legend {
				if !strings.Contains(string(b), want) {
					t.Errorf("SVG lacks %q:\n%s", want, b)
				}
			}
		})
	}
}

// TestPlotErrorNamesFigure: a figure that cannot be drawn fails naming
// the file it was to be.
func TestPlotErrorNamesFigure(t *testing.T) {
	dir := fixture(t)
	out := filepath.Join(t.TempDir(), "min.png")
	// One run, so no series: a bar of a statistic no job has (an empty
	// run) cannot be drawn.
	empty := filepath.Join(dir, "empty.csv")
	writeRun(t, empty, runHeader(4, 1, nil, []model.Param{p("policy", "easy"), p("machine", "4")}), nil)
	_, _, err := analyzeCmd(t, nil, "-q", "--plot", "bars", "--metric", "wait", "--stat", "min", "-o", out, empty)
	if err == nil || !strings.HasPrefix(err.Error(), out+": ") {
		t.Errorf("a figure that cannot be drawn: %v, want an error naming %s", err, out)
	}
}

// TestPlotFormatsAndSize: --size and --dpi set a PNG's pixels; .pdf writes
// a PDF with the manifest.
func TestPlotFormatsAndSize(t *testing.T) {
	dir := fixture(t)
	run := filepath.Join(dir, "easy1.parquet")
	out := filepath.Join(t.TempDir(), "f")
	mustAnalyze(t, nil, "-q", "--plot", "cdf", "--size", "6inx4in", "--dpi", "150", "-o", out+".png", run)
	b, _ := os.ReadFile(out + ".png")
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 900 || got.Y != 600 {
		t.Errorf("6 x 4 in at 150 dpi is %v pixels, want 900 x 600", got)
	}
	mustAnalyze(t, nil, "-q", "--plot", "cdf", "--size", "16cmx10cm", "-o", out+".pdf", run)
	b, _ = os.ReadFile(out + ".pdf")
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b, []byte("/GangsimTool (analyze)")) {
		t.Errorf("PDF without its manifest: %.40q", b)
	}
	for _, bad := range [][]string{{"--size", "6x4"}, {"--dpi", "0"}, {"--size", "6inx4in", "--format", "csv"}} {
		_, _, err := analyzeCmd(t, nil, append(append([]string{"--plot", "cdf", "-o", out + ".png"}, bad...), run)...)
		if err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, _, err := analyzeCmd(t, nil, "--size", "6inx4in", run); err == nil {
		t.Error("--size without --plot accepted")
	}
}

var update = flag.Bool("update", false, "rewrite testdata/*.png golden images from the current output")

// TestRelabelledLegendGolden: --label names a figure's series (a policy
// matched in any parameter order), --legend "" draws the legend without a
// title, and a figure of two panels (--halves) draws its one legend once.
// The PNG is compared pixel by pixel with testdata/relabelled_legend.png
// (go test ./cmd/analyze -run Golden -update rewrites it, after checking
// the new image by eye).
func TestRelabelledLegendGolden(t *testing.T) {
	dir := t.TempDir()
	up := []model.Param{p("compress", "100"), p("load.target", "0.74")}
	gs := filepath.Join(dir, "gs.parquet")
	batch := filepath.Join(dir, "batch.parquet")
	writeRun(t, gs, runHeader(4, 1, up, []model.Param{p("policy", "gs:backfill=easy,mpl=6"), p("machine", "4")}), easyRun())
	writeRun(t, batch, runHeader(4, 1, up, []model.Param{p("policy", "gs:mpl=1"), p("machine", "4")}), fcfsRun())
	args := []string{"--plot", "cdf", "--by", "policy", "--halves", batch, "--size", "16cmx7cm",
		"--label", "gs:mpl=6,backfill=easy=GS", "--label", "gs:mpl=1=batch", "--legend", "", gs, batch}

	out := filepath.Join(dir, "fig")
	_, stderr := mustAnalyze(t, nil, append([]string{"-o", out + ".svg"}, args...)...)
	svg, _ := os.ReadFile(out + ".svg")
	for _, want := range []string{">GS<", ">batch<"} {
		if n := strings.Count(string(svg), want); n != 1 {
			t.Errorf("SVG has %d legend entries %q, want one (one legend for both panels)", n, want)
		}
	}
	for _, bad := range []string{">Policy<", ">gs:", "Policy:"} {
		if strings.Contains(string(svg), bad) {
			t.Errorf("SVG holds %q: the legend's title or a raw policy", bad)
		}
	}
	if strings.Contains(stderr, "--label") {
		t.Errorf("a --label that named a series is reported unused: %s", stderr)
	}

	mustAnalyze(t, nil, append([]string{"-q", "-o", out + ".png"}, args...)...)
	got, err := os.ReadFile(out + ".png")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "relabelled_legend.png")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/analyze -run Golden -update creates it)", err)
	}
	if n, err := pixelsDiffer(got, want); err != nil || n > 0 {
		keep := filepath.Join(os.TempDir(), "relabelled_legend-got.png")
		os.WriteFile(keep, got, 0o644)
		t.Errorf("%s: %d pixels differ (%v); this run's image is %s", golden, n, err, keep)
	}
}

// pixelsDiffer counts the pixels in which two PNGs differ (their text
// chunks, the manifest, may differ).
func pixelsDiffer(a, b []byte) (int, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	if ia.Bounds() != ib.Bounds() {
		return ia.Bounds().Dx() * ia.Bounds().Dy(), fmt.Errorf("size %v, want %v", ia.Bounds(), ib.Bounds())
	}
	n := 0
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				n++
			}
		}
	}
	return n, nil
}

// TestLabelFlag: --label's errors, and a --label that names no series is
// said on stderr.
func TestLabelFlag(t *testing.T) {
	dir := fixture(t)
	runs := []string{filepath.Join(dir, "easy1.parquet"), filepath.Join(dir, "fcfs.csv")}
	out := filepath.Join(t.TempDir(), "f.png")
	for _, bad := range []string{"GS", "=GS", "easy=", "gs:mpl=6="} {
		_, _, err := analyzeCmd(t, nil, append([]string{"--plot", "cdf", "--by", "policy", "-o", out, "--label", bad}, runs...)...)
		if err == nil || !strings.Contains(err.Error(), "want VALUE=NAME") {
			t.Errorf("--label %q: %v", bad, err)
		}
	}
	_, _, err := analyzeCmd(t, nil, append([]string{"--plot", "cdf", "--by", "policy", "-o", out, "--label", "easy=A", "--label", "easy=B"}, runs...)...)
	if err == nil || !strings.Contains(err.Error(), `easy is already named "A"`) {
		t.Errorf("two names for one value: %v", err)
	}
	_, _, err = analyzeCmd(t, nil, append([]string{"--by", "policy", "--label", "easy=EASY"}, runs...)...)
	if err == nil || !strings.Contains(err.Error(), "--label applies to --plot") {
		t.Errorf("--label on a table: %v", err)
	}
	_, stderr := mustAnalyze(t, nil, append([]string{"--plot", "cdf", "--by", "policy", "-o", out, "--label", "easy=EASY", "--label", "gs=GS"}, runs...)...)
	if !strings.Contains(stderr, "--label: no series is gs") {
		t.Errorf("an unused --label is not said: %q", stderr)
	}
}
