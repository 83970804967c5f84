package pipelines

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/shared"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/workload"
)

// Run is one simulation described as data, self-contained: how to make the
// workload and how to replay it. Its JSON form is what an experiment's grid
// varies, what the run cache keys on, and what a cluster scheduler would be
// handed to run it elsewhere (gangsim replay sweep --run).
type Run struct {
	Workload workload.Spec `json:"workload"`
	Replay   ReplaySpec    `json:"replay"`
}

// ReplaySpec is the JSON form of a Replay. Empty fields take Replay's
// defaults.
type ReplaySpec struct {
	// Policy is NAME[:KEY=VALUE,...], e.g. "easy" or "easy:estimates=actual".
	Policy string `json:"policy"`
	// Machine is "P" (a flat pool) or "NODESxPES"; empty takes the
	// workload header's.
	Machine        string `json:"machine,omitempty"`
	NodeAllocation bool   `json:"node_allocation,omitempty"`
	// Compat is "" or "pyss".
	Compat string `json:"compat,omitempty"`
	// Order and Passes are the engine rules ("ends-first", "pyss";
	// "per-time", "per-event").
	Order  string `json:"order,omitempty"`
	Passes string `json:"passes,omitempty"`
	// Clean is the replay's cleaning preset: "default", "pyss" or "none".
	Clean string `json:"clean,omitempty"`
	// SamplePeriod samples the time series at this period instead of at
	// every change.
	SamplePeriod model.Duration `json:"sample_period,omitempty"`
	// Hardware is the hardware cost model charged under time sharing: a
	// preset name or a preset file; empty charges nothing. Mechanism is its
	// family's variant (empty: the first).
	Hardware  string `json:"hw,omitempty"`
	Mechanism string `json:"mechanism,omitempty"`
	// Seed seeds the policy's random source (0 is a seed like any other).
	Seed uint64 `json:"seed,omitempty"`
}

// Replay resolves s into a Replay, checking every field.
func (s *ReplaySpec) Replay() (Replay, error) {
	r := Replay{Compat: Compat(s.Compat), Clean: s.Clean, NodeAllocation: s.NodeAllocation,
		SamplePeriod: s.SamplePeriod.Time(), Hardware: s.Hardware, Mechanism: s.Mechanism, Seed: s.Seed}
	var err error
	if r.Policy, err = policies.ParseSpec(s.Policy); err != nil {
		return r, err
	}
	if err := policies.Check(r.Policy); err != nil {
		return r, err
	}
	if s.Machine != "" {
		if r.Machine, err = model.ParseMachine(s.Machine); err != nil {
			return r, err
		}
		if err := r.CheckMachine(); err != nil {
			return r, err
		}
	}
	if err := r.CheckHardware(); err != nil {
		return r, err
	}
	if s.Order != "" {
		if r.Order, err = sim.ParseOrder(s.Order); err != nil {
			return r, err
		}
	}
	if s.Passes != "" {
		if r.Passes, err = sim.ParsePasses(s.Passes); err != nil {
			return r, err
		}
	}
	return r, nil
}

// ParseRun reads a run description, rejecting unknown fields, and checks
// it.
func ParseRun(b []byte) (*Run, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var r Run
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("run description: %w", err)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Validate checks the workload and the replay.
func (r *Run) Validate() error {
	if err := r.Workload.Validate(); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if _, err := r.Replay.Replay(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// Canonical returns r's canonical JSON: the workload with every default
// written out and the policy's parameters in canonical order
// (policies.Spec.String: "gs:mpl=6,backfill=easy" and
// "gs:backfill=easy,mpl=6" are one policy), compact, so that two
// descriptions of the same run are the same bytes, one run in the cache.
func (r *Run) Canonical() []byte {
	c := Run{Workload: r.Workload.Resolved(), Replay: r.Replay}
	if spec, err := policies.ParseSpec(r.Replay.Policy); err == nil {
		c.Replay.Policy = spec.String()
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic(fmt.Sprintf("pipelines: run description does not marshal: %v", err))
	}
	return b
}

// Key is the run's cache key: the SHA-256 of everything that decides its
// outputs, so that a change to any of them makes a new key and the run is
// made again: the code (version.Code: a digest of the sources the binary
// was built from, its toolchain and target), the canonical description,
// and the digest of every file the run reads (InputFiles: the trace, an
// edited hardware preset file).
func (r *Run) Key() (string, error) { return r.keyFor(codeIdentity()) }

// codeIdentity is version.Code; tests replace it to play a change of code.
var codeIdentity = version.Code

func (r *Run) keyFor(code string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "gangsim run\ncode %s\n", code)
	h.Write(r.Canonical())
	for _, in := range r.InputFiles() {
		sum, err := fileDigest(in.Path)
		if err != nil {
			return "", fmt.Errorf("%s: %w", in.Role, err)
		}
		fmt.Fprintf(h, "\ninput %s %s", in.Role, sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// InputFile is a file a run reads, and what it is to the run.
type InputFile struct {
	Role string // "workload trace", "hardware preset"
	Path string // as the run names it (a path under ../shared is read where shared.Resolve says)
}

// InputFiles lists the files the run reads, whose bytes its key digests:
// the workload's trace (a path under ../shared read where GANGSIM_SHARED
// says, shared.Resolve) and a hardware preset file (replay --hw FILE).
// The other sources of a workload (the Lublin model, the scenarios, the
// synthetic workloads, the presets) and the embedded hardware presets are
// code, which the key covers as such.
func (r *Run) InputFiles() []InputFile {
	var files []InputFile
	if t := r.Workload.Source.Trace; t != nil {
		files = append(files, InputFile{Role: "workload trace", Path: t.Path})
	}
	if rep := (Replay{Hardware: r.Replay.Hardware}); rep.Hardware != "" && rep.hardwareIsFile() {
		files = append(files, InputFile{Role: "hardware preset", Path: rep.Hardware})
	}
	return files
}

// SHA256 is the lower-case hex SHA-256 of the file's bytes, as the run's
// key digests them.
func (in InputFile) SHA256() (string, error) { return fileDigest(in.Path) }

// fileDigest is the lower-case hex SHA-256 of a file's bytes; a path
// under ../shared is read where GANGSIM_SHARED says.
func fileDigest(path string) (string, error) {
	f, err := os.Open(shared.Resolve(path))
	if err != nil {
		return "", shared.Hint(path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// RunInfo is what a finished run records beside its tables (run.json in its
// cache directory).
type RunInfo struct {
	Key     string `json:"key"`
	Version string `json:"version"`
	// Revision and Code are the VCS revision ("unknown" when the build
	// did not know it; "+modified" for uncommitted changes) and the code
	// identity (version.Code) of the binary that made the run: the
	// revision may be older than the sweep's that reuses the run when no
	// code changed in between.
	Revision string          `json:"revision"`
	Code     string          `json:"code"`
	Run      json.RawMessage `json:"run"`    // the canonical description
	Params   []model.Param   `json:"params"` // the outcome table's manifest parameters
	Jobs     int             `json:"jobs"`
	// Rejected counts the jobs the engine refused at submission.
	Rejected int `json:"rejected"`
	// Dropped says what cleaning dropped, one line per step that dropped
	// jobs: the workload's trace cleaning ("workload cleaning dropped 160
	// of 1160 jobs: no-runtime 160") and the replay's ("replay cleaning
	// default dropped ..."); empty when none did. It is always written
	// (an empty list when nothing was dropped): a run.json without it was
	// written before it was recorded, and Cache.Get takes that run as
	// missing, so that no sweep reports a cached run's drops as none.
	Dropped []string `json:"dropped"`
	// Seconds is the wall-clock time the run took, for the sweep's report
	// only; it never enters a result.
	Seconds float64 `json:"wall_seconds"`
}

// elapsedSince is the wall-clock time since t in seconds; runs report it,
// simulations never read it.
func elapsedSince(t time.Time) float64 { return time.Since(t).Seconds() }

// Files of a finished run's directory.
const (
	OutcomesFile   = "outcomes.parquet"
	TimeSeriesFile = "timeseries.parquet"
	InfoFile       = "run.json"
)

// WorkloadTool is the tool name a run's workload step records in the
// manifest: the genwork subcommand that makes the same jobs from a Spec.
const WorkloadTool = "genwork spec"

// SweepTool is the tool name of a run made by a sweep.
const SweepTool = "replay sweep"

// Execute makes the run's workload, replays it, and writes into dir (which
// must exist) the per-job outcomes (OutcomesFile), the time series
// (TimeSeriesFile) and the run's RunInfo (InfoFile). Both tables carry the
// manifests of the workload step and of the replay, as the pipe
// "genwork spec | replay" would write them.
func (r *Run) Execute(dir, key string) (*RunInfo, error) {
	start := time.Now()
	rep, err := r.Replay.Replay()
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	w := r.Workload
	if t := w.Source.Trace; t != nil {
		needed := *t
		needed.Needed = rep.Needed() // a bad estimate stops only a replay that reads it
		w.Source.Trace = &needed
	}
	wr, err := w.Open(nil)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	defer wr.Close()
	h := wr.Header().Clone()
	wm := wr.Manifest(WorkloadTool)
	wm.Apply(&h)
	var jobs model.JobReader = wr
	params, err := rep.Params(&h)
	if errors.Is(err, ErrMachineUnknown) && w.Source.Trace != nil && w.Source.Trace.Lenient {
		// A lenient trace source: the widest job's processors, as replay
		// --lenient takes them.
		var widest int
		if jobs, widest, err = WidestJob(wr); err != nil {
			return nil, err
		}
		rep.Procs = widest
		if params, err = rep.Params(&h); err == nil {
			params = append(params, model.Param{Name: "machine_fallback", Value: fmt.Sprintf("%d processors, the widest job's", widest)})
		}
	}
	if err != nil {
		return nil, err
	}
	man := model.Manifest{Tool: SweepTool, Version: version.Version, Revision: version.RevisionText(), Code: codeIdentity(), Seed: r.Workload.Seed, HasSeed: true,
		Params: params, Inputs: wr.Inputs()}
	man.Apply(&h)

	out, err := newTableFile(filepath.Join(dir, OutcomesFile))
	if err != nil {
		return nil, err
	}
	defer out.f.Close()
	ow, err := columnar.NewOutcomeWriter(out.w, columnar.FormatParquet, &h)
	if err != nil {
		return nil, err
	}
	ts, err := newTableFile(filepath.Join(dir, TimeSeriesFile))
	if err != nil {
		return nil, err
	}
	defer ts.f.Close()
	sw, err := columnar.NewSampleWriter(ts.w, columnar.FormatParquet, &h)
	if err != nil {
		return nil, err
	}
	res, err := rep.Run(jobs, ow, sw)
	if err != nil {
		return nil, err
	}
	// What is known only now goes into the tables' trailer, as the pipe
	// writes it: the workload step's cleaning and anomalies (upstream
	// lines), then the replay's cleaning.
	wclean, _ := wr.Cleaning()
	var trailer []model.HeaderLine
	for _, l := range append(wclean.HeaderLines(), wr.Anomalies().HeaderLines()...) {
		trailer = append(trailer, model.Upstream(l))
	}
	trailer = append(trailer, res.Clean.HeaderLines()...)
	ow.AppendHeader(trailer...)
	sw.AppendHeader(trailer...)
	if err := errors.Join(ow.Close(), sw.Close(), out.close(), ts.close()); err != nil {
		return nil, fmt.Errorf("writing run %s: %w", key, err)
	}
	dropped := []string{}
	if s := wclean.DropSummary(); s != "" {
		dropped = append(dropped, "workload cleaning "+s)
	}
	if s := res.Clean.DropSummary(); s != "" {
		clean, _ := paramOf(params, "clean")
		dropped = append(dropped, "replay cleaning "+clean+" "+s)
	}
	info := &RunInfo{Key: key, Version: version.Version, Revision: version.RevisionText(), Code: codeIdentity(),
		Run: r.Canonical(), Params: man.Params,
		Jobs: res.Summary.Jobs, Rejected: res.Summary.Rejected, Dropped: dropped, Seconds: elapsedSince(start)}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, InfoFile), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	return info, nil
}

// paramOf returns the value of the named parameter.
func paramOf(ps []model.Param, name string) (string, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// tableFile is a plain output file with a buffer; a run's files need no
// atomic rename of their own, since the whole run directory is renamed
// into the cache when it is complete.
type tableFile struct {
	f *os.File
	w *bufio.Writer
}

func newTableFile(name string) (*tableFile, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	return &tableFile{f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

func (t *tableFile) close() error {
	return errors.Join(t.w.Flush(), t.f.Close())
}
