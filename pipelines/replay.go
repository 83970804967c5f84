package pipelines

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/sim"
	"github.com/gangsim/gangsim/swf"
	"github.com/gangsim/gangsim/workload"
)

// Compat selects a compatibility mode: engine rules and cleaning that
// reproduce another simulator.
type Compat string

// Compatibility modes.
const (
	CompatNone Compat = ""     // gangsim's own defaults
	CompatPyss Compat = "pyss" // pyss: docs/engine.md, "The pyss rules"
)

// Replay is one simulation's configuration. The zero value plus a policy is
// a valid configuration: the machine comes from the trace header, the
// engine rules are gangsim's defaults, and the trace is cleaned with
// workload.CleanDefault.
type Replay struct {
	Policy policies.Spec // scheduling policy
	// Machine is the simulated machine; the zero value takes it from the
	// trace header (MaxNodes × MaxProcs/MaxNodes, or a flat MaxProcs).
	Machine model.Machine
	// Procs, when positive and Machine is zero, simulates a flat pool of
	// Procs processors.
	Procs int
	// NodeAllocation allocates whole nodes.
	NodeAllocation bool
	// Compat selects pyss compatibility: pyss's cleaning, engine order and
	// passes, and a flat machine of the header's MaxProcs.
	Compat Compat
	// Order and Passes are the engine rules (ignored under a Compat mode).
	Order  sim.Order
	Passes sim.Passes
	// Clean is the cleaning preset, one of package workload's:
	// workload.CleanDefault drops jobs that never ran and jobs with a
	// missing or negative submit time, and sets missing estimates to the
	// runtime (too-wide and sizeless jobs are left for the engine to
	// reject: they appear in the outcomes with a reason; jobs that overran
	// their estimate keep their runtime; submit times must be sorted);
	// workload.CleanPyss is the oracle's cleaning (swf.PyssOptions on the
	// simulated machine); workload.CleanNone replays the trace as it is.
	// Empty means workload.CleanDefault (workload.CleanPyss under
	// CompatPyss).
	Clean string
	// SamplePeriod, when positive, samples the time series at that period
	// instead of at every change.
	SamplePeriod model.Time
	// Tau is the short-job bound of the bounded slowdowns in the Result's
	// summary; 0 means metrics.DefaultTau (10 s). The per-job outcomes'
	// bsld_rt10s and ts_bsld_rt10s columns always use 10 s of real time
	// (model.RealTimeTau of the workload's compression).
	Tau model.Time
	// Hardware names the hardware cost model that time-sharing policies
	// charge: a preset's name ("crescendo", see replay hw list) or the
	// path of an edited preset file (.json); empty charges nothing.
	Hardware string
	// Mechanism is the variant of the preset's model family to charge
	// (e.g. "division" or "switching-full" for myrinet, "voluntary" for
	// pm); empty takes the family's first.
	Mechanism string
	// Seed seeds the random source of the policies that draw.
	Seed uint64
}

// ErrMachineUnknown: the replay is given no machine and the trace's header
// gives none (MaxProcs and MaxNodes absent, unknown or garbled).
var ErrMachineUnknown = errors.New("machine size unknown")

// WidestJob reads every job of src and returns a reader of them with
// src's header, and the largest size a job says (model.Job.Size): the
// machine a lenient replay simulates when neither it nor the header gives
// one. A trace in which no job says its size is an error.
func WidestJob(src model.JobReader) (model.JobReader, int, error) {
	tr, err := model.ReadAll(src)
	if err != nil {
		return nil, 0, err
	}
	widest := 0
	for i := range tr.Jobs {
		widest = max(widest, tr.Jobs[i].Size())
	}
	if widest <= 0 {
		return nil, 0, fmt.Errorf("%w: no job says its size either", ErrMachineUnknown)
	}
	return model.NewSliceReader(tr), widest, nil
}

// Result is what a replay reports besides its outcomes.
type Result struct {
	Machine  model.Machine     // the machine simulated
	Clean    swf.Report        // what cleaning did
	Summary  metrics.Summary   // aggregate metrics of the outcomes
	Hardware policies.Hardware // the cost model charged (none: free switches)
	// HardwareFile is the preset file Hardware was read from ("" for an
	// embedded preset), and HardwareEdited whether its JSON differs from
	// every embedded preset's.
	HardwareFile   string
	HardwareEdited bool
	// Switched reports whether the policy switches jobs in and out (it
	// reports switches: gs, the process-level policies, dcs), so that
	// what Hardware charges, or that switches are free, matters.
	Switched bool
}

// resolve returns the cleaning options, engine config and machine for a
// trace with header h.
func (r *Replay) resolve(h *model.Header) (swf.Options, sim.Config, error) {
	var cfg sim.Config
	clean := r.Clean
	switch r.Compat {
	case CompatNone:
		cfg.Order, cfg.Passes = r.Order, r.Passes
		if clean == "" {
			clean = workload.CleanDefault
		}
	case CompatPyss:
		cfg.Order, cfg.Passes = sim.OrderPyss, sim.PassPerEvent
		if clean == "" {
			clean = workload.CleanPyss
		}
	default:
		return swf.Options{}, cfg, fmt.Errorf("unknown compatibility mode %q (want pyss)", r.Compat)
	}
	switch {
	case r.Machine.Valid():
		cfg.Machine = r.Machine
	case r.Procs > 0:
		cfg.Machine = model.FlatMachine(r.Procs)
	case r.Compat == CompatPyss:
		cfg.Machine = model.FlatMachine(h.MaxProcs())
	default:
		cfg.Machine = h.Machine()
	}
	if !cfg.Machine.Valid() {
		why := h.MachineErr()
		if r.Compat == CompatPyss {
			why = h.IntErr(model.KeyMaxProcs) // pyss's machine is MaxProcs processors, flat
			if why == nil {
				why = fmt.Errorf("header MaxProcs is %d", h.MaxProcs())
			}
		}
		return swf.Options{}, cfg, fmt.Errorf("%w: %v; give one (--procs or --machine), or read the trace leniently (--lenient) to simulate the widest job's processors",
			ErrMachineUnknown, why)
	}
	if err := r.checkProcs(cfg.Machine.Procs()); err != nil {
		return swf.Options{}, cfg, err
	}
	cfg.NodeAllocation = r.NodeAllocation
	cfg.SamplePeriod = r.SamplePeriod
	if clean == workload.CleanNone {
		return swf.Options{}, cfg, nil
	}
	opt, ok := workload.PresetOptions(clean, cfg.Machine.Procs())
	if !ok {
		return opt, cfg, fmt.Errorf("unknown cleaning %q (want default, pyss or none)", clean)
	}
	return opt, cfg, nil
}

// CheckMachine reports a machine given to the replay (Machine, Procs)
// that the policy cannot simulate (policies.MaxProcs); a machine from the
// trace's header is checked when the replay resolves it.
func (r *Replay) CheckMachine() error {
	switch {
	case r.Machine.Valid():
		return r.checkProcs(r.Machine.Procs())
	case r.Procs > 0:
		return r.checkProcs(r.Procs)
	}
	return nil
}

func (r *Replay) checkProcs(n int) error {
	p := r.policy()
	if max := policies.MaxProcs(p); n > max {
		return fmt.Errorf("a machine of %d processors: %s simulates at most %d (its state per processor would not fit in memory)", n, p.Name, max)
	}
	return nil
}

// Needed returns the trace fields the replay uses, whose unusable values
// stop the reading of a trace (swf.Reader.Needed): swf.NeededFields, less
// the estimate when neither the policy (policies.UsesEstimates) nor the
// rules read it (pyss's cleaning cuts run times to estimates, and its
// event order looks at them).
func (r *Replay) Needed() model.FieldSet {
	if r.Compat == CompatPyss || r.Clean == workload.CleanPyss || policies.UsesEstimates(r.policy()) {
		return swf.NeededFields
	}
	return swf.NeededFields.Without(model.FieldEstimate)
}

// policy returns the policy to run. Under CompatPyss, conservative
// backfilling sweeps its queue once per termination, as pyss does, unless
// the spec sets replan.
func (r *Replay) policy() policies.Spec {
	if r.Compat != CompatPyss || r.Policy.Name != "conservative" {
		return r.Policy
	}
	if _, ok := r.Policy.Params["replan"]; ok {
		return r.Policy
	}
	s := policies.Spec{Name: r.Policy.Name, Params: map[string]string{"replan": "single"}}
	for k, v := range r.Policy.Params {
		s.Params[k] = v
	}
	return s
}

// Params lists the resolved parameters of a replay of a trace with header
// h, for the run manifest.
func (r *Replay) Params(h *model.Header) ([]model.Param, error) {
	_, cfg, err := r.resolve(h)
	if err != nil {
		return nil, err
	}
	clean := r.Clean
	if clean == "" {
		clean = workload.CleanDefault
		if r.Compat == CompatPyss {
			clean = workload.CleanPyss
		}
	}
	compat := string(r.Compat)
	if compat == "" {
		compat = "none"
	}
	hw, digest, err := r.hardware()
	if err != nil {
		return nil, err
	}
	hwName, mech := "none", ""
	if hw.Charged() {
		hwName, mech = hw.Preset, hw.Mechanism
	}
	params := []model.Param{
		{Name: "policy", Value: r.policy().String()},
		{Name: "hw", Value: hwName},
		{Name: "mechanism", Value: mech},
		{Name: "hw_sha256", Value: digest},
	}
	if path, edited := r.hardwareFile(digest); path != "" {
		// A preset file: hw is the name inside it, which does not say
		// whether its numbers were changed.
		params = append(params, model.Param{Name: "hw_file", Value: path},
			model.Param{Name: "hw_edited", Value: strconv.FormatBool(edited)})
	}
	return append(params,
		model.Param{Name: "machine", Value: cfg.Machine.String()},
		model.Param{Name: "node_allocation", Value: strconv.FormatBool(cfg.NodeAllocation)},
		model.Param{Name: "compat", Value: compat},
		model.Param{Name: "order", Value: cfg.Order.String()},
		model.Param{Name: "passes", Value: cfg.Passes.String()},
		model.Param{Name: "clean", Value: clean},
		model.Param{Name: "sample_period_s", Value: string(cfg.SamplePeriod.AppendSeconds(nil))},
	), nil
}

// Run cleans src, replays it and writes the outcomes to out and, if samples
// is not nil, the time series to samples. It does not close out.
func (r *Replay) Run(src model.JobReader, out model.OutcomeWriter, samples sim.SampleWriter) (*Result, error) {
	if err := model.HeaderErr(src); err != nil {
		return nil, err // the header's own error, not a machine size it lacks
	}
	opt, cfg, err := r.resolve(src.Header())
	if err != nil {
		return nil, err
	}
	hw, digest, err := r.hardware()
	if err != nil {
		return nil, err
	}
	env := policies.Env{Machine: cfg.Machine, NodeAllocation: cfg.NodeAllocation, Hardware: hw,
		Rand: rand.New(rand.NewPCG(r.Seed, 0x67616e6773696d))} // "gangsim"
	pol, err := policies.New(r.policy(), env)
	if err != nil {
		return nil, err
	}
	norm, err := swf.NewNormalizer(src, opt)
	if err != nil {
		return nil, err
	}
	res := &Result{Machine: cfg.Machine, Summary: metrics.Summary{Tau: r.Tau}, Hardware: hw}
	res.HardwareFile, res.HardwareEdited = r.hardwareFile(digest)
	_, res.Switched = pol.(sim.Reporter)
	tee := &teeOutcomes{sum: &res.Summary, next: out}
	if err := sim.New(cfg, pol).Run(norm, tee, samples); err != nil {
		if errors.Is(err, sim.ErrUnsorted) || errors.Is(err, sim.ErrTimeRange) {
			// The job the engine read last is the one out of order.
			return nil, fmt.Errorf("%s: %w", swf.Where(norm, norm.Report().Read), err)
		}
		return nil, err
	}
	res.Clean = norm.Report()
	return res, nil
}

// teeOutcomes feeds every outcome to the summary and then to next.
type teeOutcomes struct {
	sum  *metrics.Summary
	next model.OutcomeWriter
}

func (t *teeOutcomes) Write(o *model.Outcome) error {
	t.sum.Add(o)
	if t.next == nil {
		return nil
	}
	return t.next.Write(o)
}

func (t *teeOutcomes) Close() error { return nil }

// hardwareIsFile reports whether r.Hardware names a preset file rather
// than an embedded preset.
func (r *Replay) hardwareIsFile() bool {
	return strings.HasSuffix(r.Hardware, ".json") || strings.ContainsRune(r.Hardware, filepath.Separator)
}

// hardwareFile returns the preset file r.Hardware names ("" for an
// embedded preset or none) and whether the file, whose JSON has the
// SHA-256 digest, is edited: no embedded preset has the same JSON.
func (r *Replay) hardwareFile(digest string) (path string, edited bool) {
	if r.Hardware == "" || !r.hardwareIsFile() {
		return "", false
	}
	for _, p := range presets.All() {
		if p.SHA256() == digest {
			return r.Hardware, false
		}
	}
	return r.Hardware, true
}

// CheckHardware reports a hardware preset or mechanism that cannot be
// resolved (unknown, unreadable, or a mechanism of another family).
func (r *Replay) CheckHardware() error {
	_, _, err := r.hardware()
	return err
}

// hardware resolves r.Hardware and r.Mechanism into the cost model the
// policy charges, and the SHA-256 of the preset's JSON ("" for none).
func (r *Replay) hardware() (policies.Hardware, string, error) {
	if r.Hardware == "" {
		if r.Mechanism != "" {
			return policies.Hardware{}, "", fmt.Errorf("mechanism %q without a hardware preset (--hw)", r.Mechanism)
		}
		return policies.Hardware{}, "", nil
	}
	var p presets.Preset
	var err error
	if r.hardwareIsFile() {
		f, err := os.Open(r.Hardware)
		if err != nil {
			return policies.Hardware{}, "", fmt.Errorf("hardware preset: %w", err)
		}
		defer f.Close()
		if p, err = presets.Load(f); err != nil {
			return policies.Hardware{}, "", fmt.Errorf("hardware preset %s: %w", r.Hardware, err)
		}
	} else if p, err = presets.Get(r.Hardware); err != nil {
		return policies.Hardware{}, "", fmt.Errorf("hardware preset: %w", err)
	}
	costs, err := p.Costs(r.Mechanism)
	if err != nil {
		return policies.Hardware{}, "", fmt.Errorf("hardware preset %s: %w", p.Name(), err)
	}
	mech := r.Mechanism
	if mech == "" {
		mech = p.DefaultVariant()
	}
	return policies.Hardware{Costs: costs, Preset: p.Name(), Family: p.Family, Mechanism: mech}, p.SHA256(), nil
}
