package workload

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// Random streams. Every purpose draws from rand.New(rand.NewPCG(Spec.Seed,
// stream)) with its own constant, so that the streams are independent and
// switching one transform on or off leaves the others' draws alone.
const (
	StreamGenerator  uint64 = 0x67656e6572617465 // "generate": the Lublin generator
	StreamAttributes uint64 = 0x6174747269627574 // "attribut": granularity draws
	StreamEstimates  uint64 = 0x657374696d617465 // "estimate": loose estimate factors
)

// NewStream returns the random stream of the given purpose for seed.
func NewStream(seed, purpose uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, purpose)) }

// Reader yields the jobs of a workload, transformed as its Spec says. It
// implements model.JobReader and streams in constant memory, except under
// the "sort" cleaning rule, which holds a trace in memory.
//
// Load scaling needs the offered load before the first job is returned.
// Open then makes extra passes over the source before the one it returns
// jobs from: one that measures the source's load, one that measures the
// load of the transformed jobs (the load reached); a trace file is read
// again for each pass (standard input is spooled to a temporary file by
// package fileio), the generator is re-seeded. Either way memory stays
// constant.
type Reader struct {
	spec    Spec // resolved
	src     source
	header  model.Header
	pass    *transformer
	scaling *LoadScaling
	closed  bool
}

// Open validates s, opens its source and returns a Reader of its jobs.
// stdin is read when a trace source's path is "-". The caller must Close
// the Reader.
func (s *Spec) Open(stdin io.Reader) (*Reader, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	r := &Reader{spec: s.Resolved()}
	src, err := openSource(&r.spec, stdin)
	if err != nil {
		return nil, err
	}
	r.src = src
	if err := r.start(); err != nil {
		src.close()
		return nil, err
	}
	return r, nil
}

func (r *Reader) start() error {
	r.header = r.src.header().Clone()
	runtimeF, arrivalF := 1.0, 1.0
	if l := r.spec.Load; l != nil {
		procs := l.Procs
		if procs == 0 {
			procs = r.header.MaxProcs()
		}
		var m LoadMeter
		if err := r.measure(r.newPass(1, 1), &m); err != nil {
			return err
		}
		if procs == 0 {
			// The header gives no MaxProcs (absent, unknown, garbled): a
			// lenient trace source takes the widest job's size, as replay
			// --lenient does; otherwise it is an error that says so.
			t := r.spec.Source.Trace
			if t == nil || !t.Lenient || m.Widest <= 0 {
				return fmt.Errorf("scaling to load %v: %w: machine size unknown: %v; give load.procs, or make the trace source lenient to take the widest job's",
					l.Target, ErrNoLoad, r.header.IntErr(model.KeyMaxProcs))
			}
			procs = m.Widest
		}
		before, err := m.Load(procs)
		if err != nil {
			return fmt.Errorf("scaling to load %v: %w", l.Target, err)
		}
		if m.Work <= 0 {
			return fmt.Errorf("scaling to load %v: %w: the workload has no work (no job with a positive size and runtime)", l.Target, ErrNoLoad)
		}
		f := l.Factor(before)
		if l.Scale == ScaleArrivals {
			arrivalF = f
		} else {
			runtimeF = f
		}
		var reached LoadMeter
		if err := r.measure(r.newPass(runtimeF, arrivalF), &reached); err != nil {
			return err
		}
		after, err := reached.Load(procs)
		if err != nil {
			return fmt.Errorf("scaling to load %v: %w", l.Target, err)
		}
		r.scaling = &LoadScaling{Procs: procs, Scale: l.Scale, Before: before, Target: l.Target, Factor: f, Reached: after}
	}
	r.pass = r.newPass(runtimeF, arrivalF)
	if note := r.describe(); note != "" {
		r.header.Add(model.KeyNote, note)
		if runtimeF != 1 || r.spec.Compress != 0 {
			r.header.Delete(model.KeyMaxRuntime) // no longer true
		}
	}
	return nil
}

// measure reads every job of p into m.
func (r *Reader) measure(p *transformer, m *LoadMeter) error {
	if p.err != nil {
		return p.err
	}
	for {
		j, err := p.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		m.Add(&j)
	}
}

// describe returns a header note that says what the transforms did, or ""
// when there are none.
func (r *Reader) describe() string {
	var parts []string
	s := &r.spec
	if a := s.Attributes; a != nil {
		gs := make([]string, len(a.Granularities))
		for i, g := range a.Granularities {
			gs[i] = g.String()
		}
		note := fmt.Sprintf("application attributes: granularity drawn from %s, %s pattern, %s calls, imbalance %v, %d-byte messages",
			strings.Join(gs, "/"), a.Pattern, a.Comm, a.Imbalance, a.MessageBytes)
		if a.MemPerProcKB > 0 {
			note += fmt.Sprintf(", %d KB per process", a.MemPerProcKB)
		}
		parts = append(parts, note)
	}
	if e := s.Estimates; e != nil {
		switch e.Mode {
		case EstimatesExact:
			parts = append(parts, "estimates set to the runtimes")
		case EstimatesLoose:
			parts = append(parts, fmt.Sprintf("estimates set to the runtimes times a factor uniform on [1, %v]", e.MaxFactor))
		}
	}
	if sc := r.scaling; sc != nil {
		what := "runtimes and estimates"
		if sc.Scale == ScaleArrivals {
			what = "submit times"
		}
		parts = append(parts, fmt.Sprintf("%s multiplied by %s to take the offered load on %d processors from %s to %s",
			what, formatFloat(sc.Factor), sc.Procs, formatFloat(sc.Before), formatFloat(sc.Reached)))
	}
	if s.Compress != 0 {
		parts = append(parts, "all times divided by "+formatFloat(s.Compress))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Transformed by gangsim (package workload): " + strings.Join(parts, "; ")
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Header returns the trace header: the source's, with a Note saying what
// the transforms did (and without MaxRuntime once runtimes changed). It
// keeps the source's MaxProcs and MaxNodes.
func (r *Reader) Header() *model.Header { return &r.header }

// Read returns the next job, or io.EOF after the last one.
func (r *Reader) Read() (model.Job, error) {
	return r.pass.Read()
}

// Close releases the source (files, spooled standard input).
func (r *Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return r.src.close()
}

// Spec returns the resolved Spec the Reader runs (see Spec.Resolved).
func (r *Reader) Spec() Spec { return r.spec }

// LoadScaling reports what load scaling did; ok is false when the Spec has
// no Load.
func (r *Reader) LoadScaling() (s LoadScaling, ok bool) {
	if r.scaling == nil {
		return LoadScaling{}, false
	}
	return *r.scaling, true
}

// Cleaning returns what cleaning did so far (final once Read has returned
// io.EOF); ok is false when the source is not a cleaned trace. For a
// window of a log (a trace source's Skip), it counts the jobs from the
// end of the jobs skipped on: what cleaning did to the span of the log
// the window covers.
func (r *Reader) Cleaning() (rep swf.Report, ok bool) {
	if r.pass.norm == nil {
		return swf.Report{}, false
	}
	if w := r.pass.window; w != nil && w.started {
		return r.pass.norm.Report().Minus(w.before), true
	}
	return r.pass.norm.Report(), true
}

// Anomalies returns what the trace source's reader counted so far (final
// once Read has returned io.EOF): values outside SWF 2.2 kept, repeated job
// numbers, lines or rows skipped under a lenient source, in every format.
func (r *Reader) Anomalies() swf.Anomalies {
	if r.pass.raw == nil {
		return nil
	}
	return fileio.Anomalies(r.pass.raw)
}

// Position returns where the job Read returned last came from, for a
// trace source: its file name and line (or row, RowPositions), 0 when
// unknown (a generated workload, a sorted trace). Errors about a job (out
// of order for the engine) name it through Position.
func (r *Reader) Position() (name string, line int) {
	var p any = r.pass.raw
	if r.pass.norm != nil {
		p = r.pass.norm
	}
	if pos, ok := p.(swf.Positioner); ok {
		return pos.Position()
	}
	return "", 0
}

// RowPositions reports whether Position gives rows of a table.
func (r *Reader) RowPositions() bool {
	rp, ok := r.pass.raw.(interface{ RowPositions() bool })
	return ok && rp.RowPositions()
}

// Inputs returns the manifest entries of the files the workload reads (a
// trace source's file and its SHA-256).
func (r *Reader) Inputs() []model.Input { return r.src.inputs() }

// Selection reports which draw a Lublin source's Selection kept and its
// profile; ok is false without a selection.
func (r *Reader) Selection() (s Selected, ok bool) {
	if l, isLublin := r.src.(*lublinSource); isLublin && l.selected != nil {
		return *l.selected, true
	}
	return Selected{}, false
}

// Params returns the manifest parameters: the Spec's (Spec.Params), after
// load scaling "result.load_procs", "result.load_before",
// "result.load_factor" and "result.load_reached", and under a selection
// "result.selection_draw" (the draw kept).
func (r *Reader) Params() []model.Param {
	ps := r.spec.Params()
	if sc := r.scaling; sc != nil {
		ps = append(ps,
			model.Param{Name: "result.load_before", Value: formatFloat(sc.Before)},
			model.Param{Name: "result.load_factor", Value: formatFloat(sc.Factor)},
			model.Param{Name: "result.load_procs", Value: strconv.Itoa(sc.Procs)},
			model.Param{Name: "result.load_reached", Value: formatFloat(sc.Reached)})
	}
	if sel, ok := r.Selection(); ok {
		ps = append(ps, model.Param{Name: "result.selection_draw", Value: strconv.Itoa(sel.Draw)})
	}
	return ps
}

// Manifest returns the manifest of an output made from this workload by
// tool (e.g. "genwork lublin"): the gangsim version, the seed when the
// Spec uses randomness, Params and Inputs.
func (r *Reader) Manifest(tool string) model.Manifest {
	return model.Manifest{Tool: tool, Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Seed: r.spec.Seed,
		HasSeed: r.spec.UsesRandomness(), Params: r.Params(), Inputs: r.Inputs()}
}

// transformer is one pass over the source with the transforms applied.
type transformer struct {
	src      model.JobReader
	norm     *swf.Normalizer
	raw      model.JobReader // the trace reader of a trace source, if any
	window   *windowReader   // the window of a trace source, if any
	attrs    *Attributes
	attrRnd  *rand.Rand
	est      *Estimates
	estRnd   *rand.Rand
	runtimeF float64
	arrivalF float64
	compress float64
	err      error
}

// newPass starts a pass over the source with fresh random streams, so that
// every pass yields the same jobs. Runtime and arrival factors of 1 leave
// those times alone.
func (r *Reader) newPass(runtimeF, arrivalF float64) *transformer {
	t := &transformer{runtimeF: runtimeF, arrivalF: arrivalF, compress: r.spec.Compress}
	p, err := r.src.pass()
	if err != nil {
		t.err = err
		return t
	}
	t.src, t.norm, t.raw, t.window = p.jobs, p.norm, p.raw, p.window
	if a := r.spec.Attributes; a != nil {
		t.attrs, t.attrRnd = a, NewStream(r.spec.Seed, StreamAttributes)
	}
	if e := r.spec.Estimates; e != nil && e.Mode != EstimatesTrace {
		t.est, t.estRnd = e, NewStream(r.spec.Seed, StreamEstimates)
	}
	return t
}

// Read returns the next transformed job.
func (t *transformer) Read() (model.Job, error) {
	if t.err != nil {
		return model.Job{}, t.err
	}
	j, err := t.src.Read()
	if err != nil {
		t.err = err
		return model.Job{}, err
	}
	if t.attrs != nil {
		t.attrs.apply(&j, t.attrRnd)
	}
	if t.est != nil {
		t.est.apply(&j, t.estRnd)
	}
	if t.runtimeF != 1 {
		ScaleRuntime(&j, t.runtimeF)
	}
	if t.arrivalF != 1 {
		ScaleArrival(&j, t.arrivalF)
	}
	if t.compress != 0 && t.compress != 1 {
		Compress(&j, t.compress)
	}
	return j, nil
}

// sourcePass is one read of a source from its start.
type sourcePass struct {
	jobs   model.JobReader
	norm   *swf.Normalizer // the cleaning of a trace source, if any
	raw    model.JobReader // the trace reader of a trace source, if any
	window *windowReader   // the window of a trace source, if any
}

// source is an opened workload source that can be read from its start any
// number of times.
type source interface {
	header() *model.Header
	pass() (sourcePass, error)
	inputs() []model.Input
	close() error
}

func openSource(s *Spec, stdin io.Reader) (source, error) {
	switch {
	case s.Source.Trace != nil:
		return openTrace(s.Source.Trace, stdin)
	case s.Source.Lublin != nil:
		return openLublin(s.Source.Lublin, s.Seed)
	case s.Source.Scenario != nil:
		return openScenario(s.Source.Scenario)
	case s.Source.Synthetic != nil:
		return openSynthetic(s.Source.Synthetic, s.Seed)
	}
	return nil, errors.New("workload: no source")
}

// traceSource re-reads an opened input on every pass.
type traceSource struct {
	in      *fileio.Input
	lenient bool
	strict  bool
	needed  model.FieldSet // the fields the replay uses (0: all it may)
	clean   *swf.Options
	skip    int // the window: jobs left out before it, and its length (0: to the end)
	jobs    int
	h       model.Header
	cur     interface{ Close() error } // the current pass's table reader
}

func openTrace(t *TraceSource, stdin io.Reader) (*traceSource, error) {
	if t.Path == "-" && stdin == nil {
		return nil, errors.New("trace source \"-\": no standard input")
	}
	// A path under ../shared is read where GANGSIM_SHARED says (fileio);
	// the manifest keeps the name as given, so outputs do not depend on it.
	in, err := fileio.Open(t.Path, stdin)
	if err != nil {
		return nil, err
	}
	s := &traceSource{in: in, lenient: t.Lenient, strict: t.Strict, needed: t.Needed, skip: t.Skip, jobs: t.Jobs}
	if t.Clean != nil {
		opt, err := t.Clean.Rules()
		if err != nil {
			in.Close()
			return nil, err
		}
		s.clean = &opt
	}
	p, err := s.pass()
	if err != nil {
		s.close()
		return nil, err
	}
	s.h = p.jobs.Header().Clone()
	return s, nil
}

func (s *traceSource) header() *model.Header { return &s.h }
func (s *traceSource) inputs() []model.Input { return []model.Input{s.in.Manifest()} }

func (s *traceSource) pass() (sourcePass, error) {
	s.closePass()
	raw, err := s.in.TraceNeeding(fileio.ModeOf(s.strict, s.lenient), s.needed)
	if err != nil {
		return sourcePass{}, err
	}
	if c, ok := raw.(interface{ Close() error }); ok {
		s.cur = c
	}
	if err := model.HeaderErr(raw); err != nil {
		return sourcePass{}, err // before anything reads the header's machine size
	}
	p := sourcePass{jobs: raw}
	p.raw = raw
	if s.clean != nil {
		n, err := swf.NewNormalizer(raw, *s.clean)
		if err != nil {
			return sourcePass{}, fmt.Errorf("%s: %w", s.in.DisplayName(), err)
		}
		p.jobs, p.norm = n, n
	}
	if s.skip > 0 || s.jobs > 0 {
		p.window = &windowReader{JobReader: p.jobs, skip: s.skip, left: s.jobs, norm: p.norm}
		p.jobs = p.window
	}
	return p, nil
}

// windowReader passes on the jobs of a window of r: left jobs (0: all)
// after the first skip.
type windowReader struct {
	model.JobReader
	skip, left int
	all        bool // left was 0: no end but r's
	started    bool
	norm       *swf.Normalizer // the cleaning under the window, if any
	before     swf.Report      // norm's report once the skipped jobs were read
}

func (w *windowReader) Read() (model.Job, error) {
	if !w.started {
		w.started, w.all = true, w.left == 0
		var err error
		for ; w.skip > 0 && err == nil; w.skip-- {
			_, err = w.JobReader.Read()
		}
		if w.norm != nil {
			w.before = w.norm.Report()
		}
		if err != nil {
			return model.Job{}, err
		}
	}
	if !w.all {
		if w.left == 0 {
			return model.Job{}, io.EOF
		}
		w.left--
	}
	return w.JobReader.Read()
}

func (s *traceSource) closePass() error {
	if s.cur == nil {
		return nil
	}
	err := s.cur.Close()
	s.cur = nil
	return err
}

func (s *traceSource) close() error {
	return errors.Join(s.closePass(), s.in.Close())
}
