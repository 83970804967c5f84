package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/fuzzcorpus"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/model"
)

// FuzzAnalyze feeds any bytes to analyze's entry point on standard input,
// an outcomes table of any format or none, with one of a few flag sets
// (the default table, every column, --lenient, saturation, a figure, a
// grouping): analyze may refuse the input, never panic, and a table it
// writes holds no NaN (an undefined statistic is empty, null or -). Its seed corpus is testdata/fuzz/FuzzAnalyze (go
// test -run TestFuzzAnalyzeCorpus -args -fuzzcorpus rewrites it).
func FuzzAnalyze(f *testing.F) {
	for _, s := range analyzeSeeds(f) {
		f.Add(s.table, s.flags)
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		args := fuzzAnalyzeArgs[int(flags)%len(fuzzAnalyzeArgs)]
		out, _, err := cli.Call(run, bytes.NewReader(data), args...)
		table := !strings.Contains(strings.Join(args, " "), "--plot")
		if err == nil && table && strings.Contains(strings.ToLower(out), "nan") {
			t.Errorf("analyze %q wrote a NaN:\n%s", args, out)
		}
	})
}

// fuzzAnalyzeArgs are the flag sets FuzzAnalyze draws from.
var fuzzAnalyzeArgs = [][]string{
	{"-q", "--format", "csv", "--procs", "8"},
	{"-q", "--format", "csv", "--all", "--lenient", "--procs", "8"},
	{"-q", "--format", "json", "--all", "--by", "policy", "--lenient"},
	{"-q", "--format", "csv", "--saturation", "--procs", "8", "--lenient"},
	{"-q", "--format", "csv", "--trim", "0.1,0.1", "--all", "--procs", "8"},
	{"-q", "--plot", "cdf", "--metric", "wait", "--logx", "--format", "svg", "-o", "/dev/null", "--procs", "8", "--lenient"},
	{"-q", "--plot", "jobs-in-system", "--format", "svg", "-o", "/dev/null", "--procs", "8"},
}

type analyzeSeed struct {
	table []byte
	flags uint8
}

// analyzeSeeds are outcomes tables in every format: a batch run with a
// rejected job, and a process-level run.
func analyzeSeeds(tb testing.TB) []analyzeSeed {
	h := runHeader(8, 1, nil, []model.Param{p("policy", "easy"), p("machine", "8")})
	runs := [][]model.Outcome{
		append(easyRun(), model.Outcome{JobID: 9, Submit: 3 * model.Second, Start: model.Never, End: model.Never, Procs: 99, Reason: model.RejectTooWide}),
		{{JobID: 1, Submit: 0, Start: model.Second, End: 9 * model.Second, Runtime: 8 * model.Second, Dedicated: 5 * model.Second, Procs: 4,
			Sharing: model.ProcessLevel, Switches: 3, SwitchLoss: 1000, CPU: 20 * model.Second, Spin: model.Second, Blocked: 2, Classes: model.FCSClasses{CS: 0.5, F: 0.25, DC: 0.25}},
			{JobID: 2, Submit: 2 * model.Second, Start: 2 * model.Second, End: 4 * model.Second, Runtime: 2 * model.Second, Dedicated: 2 * model.Second, Procs: 2}},
	}
	var seeds []analyzeSeed
	for i, f := range []columnar.Format{columnar.FormatCSV, columnar.FormatArrow, columnar.FormatParquet} {
		for k, run := range runs {
			var b bytes.Buffer
			w, err := columnar.NewOutcomeWriter(&b, f, &h)
			if err != nil {
				tb.Fatal(err)
			}
			for j := range run {
				w.Write(&run[j])
			}
			if err := w.Close(); err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, analyzeSeed{b.Bytes(), uint8(3*i + k)})
		}
	}
	return seeds
}

// TestFuzzAnalyzeCorpus checks that the seed corpus of FuzzAnalyze exists
// (and with -fuzzcorpus writes it), in Go's corpus encoding.
func TestFuzzAnalyzeCorpus(t *testing.T) {
	var seeds [][]any
	for _, s := range analyzeSeeds(t) {
		seeds = append(seeds, []any{s.table, s.flags})
	}
	fuzzcorpus.Check(t, "FuzzAnalyze", seeds)
}
