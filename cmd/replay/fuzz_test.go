package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/fuzzcorpus"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/model"
)

// FuzzReplay drives whole replays through the command's entry point: any
// bytes on standard input (an SWF trace, a CSV, Arrow or Parquet table,
// whatever the format detection makes of them), under one of every
// policy, with flags drawn from the second and third arguments. A replay
// may fail with an error; it must not panic, and the outcomes of one that
// succeeds must be possible: no job starts before its submission or ends
// before its start, and a batch policy runs every job for its run time.
// Its seed corpus is testdata/fuzz/FuzzReplay (go test -run
// TestFuzzReplayCorpus -fuzzcorpus rewrites the seed-* files); CI runs it
// for a bounded time (.ci/run).
func FuzzReplay(f *testing.F) {
	for _, s := range replaySeeds(f) {
		f.Add(s.trace, s.policy, s.flags)
	}
	f.Fuzz(func(t *testing.T, trace []byte, policy, flags uint8) {
		checkReplay(t, trace, policy, flags)
	})
}

// fuzzPolicies are the policies FuzzReplay draws from: every registered
// policy, the process-level ones with easy in front too, and the batch
// ones planning with the actual run times.
var fuzzPolicies = []string{
	"fcfs", "easy", "easy:estimates=actual", "conservative", "conservative:replan=single",
	"gs", "gs:backfill=easy,mpl=2,quantum=1s", "gs:level=process,quantum=1s",
	"local:quantum=1s", "sb:quantum=1s", "fcs:quantum=1s,backfill=easy", "bcs:quantum=1s", "pbcs:quantum=1s",
	"dcs", "dcs:mode=eager", "dcs:mode=rr,quantum=5s",
}

// batchPolicies run every job undisturbed for its run time.
var batchPolicies = map[string]bool{"fcfs": true, "easy": true, "easy:estimates=actual": true,
	"conservative": true, "conservative:replan=single": true}

// fuzzArgs are the flags of a fuzzed replay: the policy, the machine
// (1, 4, 16 or 64 processors), a reading mode (default, lenient,
// strict), pyss compatibility, and a hardware model that charges the
// switches.
func fuzzArgs(policy, flags uint8) []string {
	pol := fuzzPolicies[int(policy)%len(fuzzPolicies)]
	args := []string{"--policy", pol, "--procs", fmt.Sprint([]int{1, 4, 16, 64}[flags&3]), "-o", "-", "--format", "csv", "-q"}
	switch flags >> 2 & 3 {
	case 1:
		args = append(args, "--lenient")
	case 2:
		args = append(args, "--strict")
	}
	if flags&16 != 0 {
		args = append(args, "--compat", "pyss")
	}
	if flags&32 != 0 && !strings.HasPrefix(pol, "dcs") && pol != "fcfs" && !batchPolicies[pol] {
		args = append(args, "--hw", "crescendo")
	}
	return args
}

// maxFuzzSteps bounds the steps a fuzzed replay may take: a
// process-level replay steps through every quantum and BSP iteration of
// every process, so a trace of a few jobs of 10^9 s (which the batch
// policies and job-level gang scheduling replay in microseconds, their
// completions computed) would take hours.
const maxFuzzSteps = 2e5

// fuzzSteps estimates the steps of a replay of trace under policy pol:
// for a policy that steps through quanta or iterations, a job's run time
// over its quantum (1 s, 5 s for round robin of dcs) or its computation
// per iteration, times its processes; 0 for the others. ok is false when
// the trace does not read (the replay itself then fails).
func fuzzSteps(trace []byte, pol string) (steps float64, ok bool) {
	stepped := !batchPolicies[pol] && pol != "dcs" && pol != "dcs:mode=eager" &&
		!strings.HasPrefix(pol, "gs:backfill") && pol != "gs"
	if !stepped {
		return 0, true
	}
	quantum := float64(model.Second)
	if strings.HasPrefix(pol, "dcs") {
		quantum = 5 * float64(model.Second)
	}
	in, err := fileio.OpenStream("-", bytes.NewReader(trace))
	if err != nil {
		return 0, false
	}
	defer in.Close()
	r, err := in.TraceMode(fileio.SWFLenient)
	if err != nil {
		return 0, false
	}
	for {
		j, err := r.Read()
		if err != nil {
			return steps, true
		}
		if j.Runtime <= 0 {
			continue
		}
		procs := float64(max(j.Size(), 1))
		steps += float64(j.Runtime) / quantum * procs
		g := j.App.Granularity
		for _, c := range j.App.ProcCompute {
			if c > 0 && (g <= 0 || c < g) {
				g = c
			}
		}
		if g > 0 {
			steps += float64(j.Runtime) / float64(g) * procs
		}
		if steps > maxFuzzSteps {
			return steps, true
		}
	}
}

// checkReplay replays trace and checks the outcomes of a replay that
// succeeded.
func checkReplay(t *testing.T, trace []byte, policy, flags uint8) {
	args := fuzzArgs(policy, flags)
	if steps, ok := fuzzSteps(trace, args[1]); ok && steps > maxFuzzSteps {
		t.Skipf("%s would step through about %.3g quanta and iterations", args[1], steps)
	}
	stdout, stderr, err := cli.Call(run, bytes.NewReader(trace), args...)
	if err != nil {
		if strings.Contains(err.Error(), "(unnamed)") {
			t.Errorf("%v: an error that does not name its file", err)
		}
		return
	}
	r, err := columnar.NewOutcomeReader(strings.NewReader(stdout), columnar.FormatCSV, "outcomes.csv")
	if err != nil {
		t.Fatalf("replay %q succeeded, its outcomes do not read: %v\n%s", args, err, stderr)
	}
	batch := batchPolicies[args[1]]
	for {
		o, err := r.Read()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("replay %q: outcomes: %v", args, err)
			}
			break
		}
		if o.Reason != model.Accepted {
			continue
		}
		if o.Start < o.Submit || o.End < o.Start {
			t.Fatalf("replay %q: job %d submitted at %v, started at %v, ended at %v", args, o.JobID, o.Submit, o.Start, o.End)
		}
		if batch && o.End-o.Start != o.Dedicated {
			t.Fatalf("replay %q: job %d of %v ran %v", args, o.JobID, o.Dedicated, o.End-o.Start)
		}
	}
}

// replaySeed is one seed of FuzzReplay.
type replaySeed struct {
	trace         []byte
	policy, flags uint8
}

// replaySeeds are small traces in every format, one seed for each policy:
// an SWF log with estimates, overruns and odd values; a CSV, Arrow and
// Parquet trace of BSP jobs with communication; and the times at the edge
// of the range.
func replaySeeds(tb testing.TB) []replaySeed {
	swfTrace := []byte("; MaxProcs: 16\n" +
		"1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 -1 50 16 -1 -1 16 40 -1 1 2 1 -1 1 -1 -1 -1\n" +
		"3 10 -1 5 1 -1 -1 1 -1 -1 9 -3 1 -1 1 -1 -1 -1\n" +
		"4 20.5 -1 0.25 2 -1 -1 2 1e3 -1 1 1 1 -1 1 -1 -1 -1\n")
	edge := []byte("1 9999999999 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 9999999999 -1 9999999999 1 -1 -1 1 9999999999 -1 1 1 1 -1 1 -1 -1 -1\n")
	jobs := []model.Job{
		{ID: 1, Submit: 0, Runtime: 2 * model.Second, AllocProcs: 4, Estimate: 4 * model.Second,
			App: model.App{Granularity: 50 * model.Millisecond, Pattern: model.PatternRing, Comm: model.CommBlocking, MessageBytes: 4096}},
		{ID: 2, Submit: model.Second, Runtime: 3 * model.Second, AllocProcs: 2, Estimate: 3 * model.Second,
			App: model.App{Granularity: 5 * model.Millisecond, Pattern: model.PatternAllToAll, Imbalance: 0.5, Priority: 1}},
		{ID: 3, Submit: model.Second, Runtime: model.Second, AllocProcs: 1, Estimate: model.Second,
			App: model.App{ProcCompute: []model.Time{10 * model.Millisecond}, Pin: []int{0}}},
	}
	for i := range jobs {
		jobs[i].ReqProcs = jobs[i].AllocProcs
		jobs[i].Known = model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).
			With(model.FieldAllocProcs).With(model.FieldReqProcs).With(model.FieldEstimate)
	}
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "16"}}}
	table := func(f columnar.Format) []byte {
		var b bytes.Buffer
		w, err := columnar.NewTraceWriter(&b, f, &h)
		if err != nil {
			tb.Fatal(err)
		}
		if err := model.WriteAll(w, jobs); err != nil {
			tb.Fatal(err)
		}
		return b.Bytes()
	}
	traces := [][]byte{swfTrace, table(columnar.FormatCSV), table(columnar.FormatArrow), table(columnar.FormatParquet), edge}
	var seeds []replaySeed
	for p := range fuzzPolicies {
		tr := traces[p%len(traces)]
		seeds = append(seeds, replaySeed{tr, uint8(p), uint8(p*5) & 63})
	}
	return seeds
}

// TestFuzzReplayCorpus checks that the seed corpus of FuzzReplay exists
// (and with -fuzzcorpus writes it), in Go's corpus encoding.
func TestFuzzReplayCorpus(t *testing.T) {
	var seeds [][]any
	for _, s := range replaySeeds(t) {
		seeds = append(seeds, []any{s.trace, s.policy, s.flags})
	}
	fuzzcorpus.Check(t, "FuzzReplay", seeds)
}
