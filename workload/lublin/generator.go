package lublin

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gangsim/gangsim/model"
)

// Mix says which job classes a generator produces.
type Mix uint8

// Job class mixes. The zero value, BatchAndInteractive, is the reference
// program's default (INCLUDE_JOBS_TYPE 1).
const (
	// BatchAndInteractive merges a batch and an interactive arrival
	// stream, each with its own parameters; every job takes the class of
	// the stream that arrives first. Batch jobs get SWF queue 1,
	// interactive jobs queue 0, as the program writes them.
	BatchAndInteractive Mix = iota

	// Combined is a single stream with the single-class parameters
	// (INCLUDE_JOBS_TYPE 0). Its jobs have no queue number: the program
	// writes an arbitrary 0 ("interactive").
	Combined

	// BatchOnly is the batch stream alone (queue 1), an option the
	// reference program does not offer.
	BatchOnly

	// InteractiveOnly is the interactive stream alone (queue 0), an option
	// the reference program does not offer.
	InteractiveOnly
)

var mixNames = [...]string{"both", "combined", "batch", "interactive"}

// String returns the mix's name: "both", "combined", "batch" or
// "interactive".
func (m Mix) String() string {
	if int(m) < len(mixNames) {
		return mixNames[m]
	}
	return "mix(" + strconv.Itoa(int(m)) + ")"
}

// ParseMix parses a name written by Mix.String.
func ParseMix(s string) (Mix, error) {
	for i, n := range mixNames {
		if s == n {
			return Mix(i), nil
		}
	}
	return 0, fmt.Errorf("unknown job mix %q (want both, combined, batch or interactive)", s)
}

// SWF queue numbers of the job classes (the reference program's job type
// field, written in the queue column).
const (
	QueueInteractive = 0 // interactive jobs (m_lublin99.c, ACTIVE)
	QueueBatch       = 1 // batch jobs (m_lublin99.c, BATCH)
)

// Config configures a Generator. The zero value of each field selects the
// reference program's default.
type Config struct {
	// Procs is the machine size in processors; 0 means RefProcs (128).
	// The default parameters are adapted to it by Params.ForProcs.
	Procs int

	// Mix selects the job classes; the zero value is BatchAndInteractive.
	Mix Mix

	// Jobs is the number of jobs to generate; 0 means an endless stream.
	Jobs int64

	// StartHour is the hour of the day, 0 to 23, at which time 0 falls
	// (m_lublin99.c, START 0: midnight).
	StartHour int

	// Batch, Interactive and Combined are the parameters of the classes
	// that Mix uses. A zero Params selects the published values adapted to
	// Procs (BatchParams().ForProcs(Procs) and so on); a non-zero Params is
	// used as given, so it must already suit the machine (UHi at most
	// log2(Procs)).
	Batch, Interactive, Combined Params
}

// procs returns the machine size with the default applied.
func (c Config) procs() int {
	if c.Procs == 0 {
		return RefProcs
	}
	return c.Procs
}

// Class is one job class of a configuration.
type Class struct {
	Name   string // "batch", "interactive" or "combined"
	Queue  int    // SWF queue number of its jobs, or -1 for none
	Params Params // the class's parameters, defaults applied
}

// Classes returns the classes that c generates, with the default parameters
// applied, in the order the generator breaks arrival ties: interactive
// before batch, as the reference program does. It returns nil for an
// unknown Mix or a negative Procs.
func (c Config) Classes() []Class {
	if c.Procs < 0 {
		return nil
	}
	procs := c.procs()
	pick := func(given Params, def func() Params) Params {
		if given == (Params{}) {
			return def().ForProcs(procs)
		}
		return given
	}
	interactive := func() Class {
		return Class{"interactive", QueueInteractive, pick(c.Interactive, InteractiveParams)}
	}
	batch := func() Class { return Class{"batch", QueueBatch, pick(c.Batch, BatchParams)} }
	switch c.Mix {
	case BatchAndInteractive:
		return []Class{interactive(), batch()}
	case Combined:
		return []Class{{"combined", -1, pick(c.Combined, CombinedParams)}}
	case BatchOnly:
		return []Class{batch()}
	case InteractiveOnly:
		return []Class{interactive()}
	}
	return nil
}

// Validate reports whether c is a valid configuration: Procs >= 0, Jobs >= 0,
// StartHour in [0, 23], a known Mix, and valid parameters (Params.Validate)
// whose largest size, 2^UHi, fits in the machine.
func (c Config) Validate() error {
	var errs []error
	if c.Procs < 0 {
		errs = append(errs, fmt.Errorf("machine size %d is negative", c.Procs))
	}
	if c.Jobs < 0 {
		errs = append(errs, fmt.Errorf("number of jobs %d is negative", c.Jobs))
	}
	if c.StartHour < 0 || c.StartHour > 23 {
		errs = append(errs, fmt.Errorf("start hour %d is not in [0, 23]", c.StartHour))
	}
	if int(c.Mix) >= len(mixNames) {
		errs = append(errs, fmt.Errorf("unknown job mix %d", c.Mix))
	}
	if c.Procs >= 0 {
		limit := math.Log2(float64(c.procs())) + 1e-9
		for _, cl := range c.Classes() {
			if err := cl.Params.Validate(); err != nil {
				errs = append(errs, fmt.Errorf("%s parameters: %w", cl.Name, err))
			} else if cl.Params.UHi > limit {
				errs = append(errs, fmt.Errorf("%s parameters: UHi = %v exceeds log2 of %d processors", cl.Name, cl.Params.UHi, c.procs()))
			}
		}
	}
	return errors.Join(errs...)
}

// Generator generates the jobs of one synthetic trace, one at a time, in
// constant memory. It implements model.JobReader. A Generator is not safe
// for concurrent use; its output is a pure function of its Config and of the
// sequence its random source produces.
type Generator struct {
	cfg     Config
	rnd     *rand.Rand
	classes []*class
	header  model.Header
	done    int64 // jobs returned so far
}

// New returns a Generator for cfg that draws its randomness from rnd.
//
// It panics if cfg is invalid (see Config.Validate; a caller taking a
// configuration from a user checks it with Validate first) or rnd is nil.
func New(cfg Config, rnd *rand.Rand) *Generator {
	if rnd == nil {
		panic("lublin: New with a nil *rand.Rand")
	}
	if err := cfg.Validate(); err != nil {
		panic("lublin: invalid configuration: " + err.Error())
	}
	g := &Generator{cfg: cfg, rnd: rnd, header: cfg.Header()}
	for _, cl := range cfg.Classes() {
		g.classes = append(g.classes, newClass(cl.Params, cl.Queue, cfg.procs(), cfg.StartHour))
	}
	// The program draws each stream's first arrival before the first job
	// (batch first), so no job arrives at time 0.
	for i := len(g.classes) - 1; i >= 0; i-- {
		g.classes[i].advance(rnd)
	}
	return g
}

// Reset starts a new trace: the same jobs that New(cfg, rnd) would give
// with the random stream where it stands now, without validating the
// configuration and computing the daily weights again. It is for drawing
// many traces in a row (workload selection).
func (g *Generator) Reset() {
	g.done = 0
	for _, c := range g.classes {
		c.restart()
	}
	for i := len(g.classes) - 1; i >= 0; i-- {
		g.classes[i].advance(g.rnd)
	}
}

// Header returns the trace header (see Config.Header).
func (g *Generator) Header() *model.Header { return &g.header }

// Read returns the next job, or io.EOF after Config.Jobs jobs (never, for an
// endless stream).
//
// A job has an ID (1, 2, ...), a submit time, a runtime, a size (AllocProcs
// and ReqProcs), the status "completed" and, when the mix distinguishes
// classes, a queue number; Known lists exactly these fields. Times are
// whole seconds, as the reference program writes them. Submit times never
// decrease.
func (g *Generator) Read() (model.Job, error) {
	if g.cfg.Jobs > 0 && g.done >= g.cfg.Jobs {
		return model.Job{}, io.EOF
	}
	return g.next(), nil
}

// Jobs returns an iterator over the remaining jobs, as Read returns them. It
// stops after Config.Jobs jobs or when the loop breaks; a later call goes on
// where the previous one stopped.
func (g *Generator) Jobs() iter.Seq[model.Job] {
	return func(yield func(model.Job) bool) {
		for g.cfg.Jobs == 0 || g.done < g.cfg.Jobs {
			if !yield(g.next()) {
				return
			}
		}
	}
}

const knownFields = model.FieldSet(0) | 1<<model.FieldJobID | 1<<model.FieldSubmit |
	1<<model.FieldRuntime | 1<<model.FieldAllocProcs | 1<<model.FieldReqProcs | 1<<model.FieldStatus

func (g *Generator) next() model.Job {
	// The job is the class whose next arrival comes first; the earlier
	// class in g.classes (interactive) wins a tie, as in the program.
	c := g.classes[0]
	for _, o := range g.classes[1:] {
		if o.next < c.next {
			c = o
		}
	}
	submit := c.next
	c.advance(g.rnd)
	n := c.size(g.rnd)
	rt := c.runtime(g.rnd, n)
	g.done++
	j := model.Job{
		ID:         g.done,
		Submit:     model.FromSeconds(int64(submit)),
		Runtime:    model.FromSeconds(int64(rt)),
		AllocProcs: n,
		ReqProcs:   n,
		Status:     model.StatusCompleted,
		Known:      knownFields,
	}
	if c.queue >= 0 {
		j.Queue = c.queue
		j.Known = j.Known.With(model.FieldQueue)
	}
	return j
}

// Generate returns a whole trace of cfg.Jobs jobs drawn from rnd, with the
// header Config.Header. It panics if cfg is invalid, cfg.Jobs is 0 (an
// endless stream) or rnd is nil.
func Generate(cfg Config, rnd *rand.Rand) *model.Trace {
	if cfg.Jobs == 0 {
		panic("lublin: Generate with an endless stream (Config.Jobs = 0)")
	}
	g := New(cfg, rnd)
	t := &model.Trace{Header: g.header.Clone(), Jobs: make([]model.Job, 0, cfg.Jobs)}
	for j := range g.Jobs() {
		t.Jobs = append(t.Jobs, j)
	}
	return t
}

// Citation is the reference of the model.
const Citation = `U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers: ` +
	`modeling the characteristics of rigid jobs", J. Parallel Distrib. Comput. 63(11):1105-1122, 2003`

// Header returns the SWF header of a trace generated with c: Version,
// Computer ("Lublin-Feitelson model"), Acknowledge and Information (as the
// reference program writes them), MaxJobs and MaxRecords (when Jobs > 0),
// MaxNodes and MaxProcs (the machine size), MaxRuntime (MaxRuntimeSeconds),
// Queue lines for the classes, and Notes giving the model, its citation, the
// mix, the start hour and every class's parameters. It does not validate c.
func (c Config) Header() model.Header {
	var h model.Header
	procs := strconv.Itoa(c.procs())
	h.Add(model.KeyVersion, "2.2")
	h.Add(model.KeyComputer, "Lublin-Feitelson model (synthetic workload)")
	h.Add("Acknowledge", "Uri Lublin and Dror G. Feitelson, Hebrew University")
	h.Add("Information", "https://www.cs.huji.ac.il/labs/parallel/workload/m_lublin99/")
	if c.Jobs > 0 {
		n := strconv.FormatInt(c.Jobs, 10)
		h.Add(model.KeyMaxJobs, n)
		h.Add(model.KeyMaxRecords, n)
	}
	h.Add(model.KeyMaxNodes, procs)
	h.Add(model.KeyMaxProcs, procs)
	h.Add(model.KeyMaxRuntime, strconv.Itoa(MaxRuntimeSeconds))
	classes := c.Classes()
	for _, cl := range classes {
		if cl.Queue >= 0 {
			h.Add("Queue", strconv.Itoa(cl.Queue)+" "+cl.Name+" jobs")
		}
	}
	h.Add(model.KeyNote, "Synthetic workload generated with the Lublin-Feitelson model: "+Citation+
		"; reference program m_lublin99.c")
	h.Add(model.KeyNote, fmt.Sprintf("Job mix %s on %s processors; time 0 is %02d:00 of the model's day; "+
		"times in whole seconds; no wait times, estimates, memory or users", c.Mix, procs, c.StartHour))
	for _, cl := range classes {
		h.Add(model.KeyNote, "Parameters of "+cl.Name+" jobs: "+cl.Params.String())
	}
	return h
}

// ManifestParams returns the configuration as manifest parameters (see
// model.Manifest): procs, mix, jobs, start-hour and the parameters of each
// class, with the defaults applied.
func (c Config) ManifestParams() []model.Param {
	ps := []model.Param{
		{Name: "procs", Value: strconv.Itoa(c.procs())},
		{Name: "mix", Value: c.Mix.String()},
		{Name: "jobs", Value: strconv.FormatInt(c.Jobs, 10)},
		{Name: "start-hour", Value: strconv.Itoa(c.StartHour)},
	}
	for _, cl := range c.Classes() {
		ps = append(ps, model.Param{Name: cl.Name, Value: cl.Params.String()})
	}
	return ps
}
