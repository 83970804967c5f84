package swf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Options selects the normalization ("cleaning") rules. The zero value of
// every field leaves the jobs alone, so Options{} is the identity; presets
// such as PyssOptions switch rules on.
//
// Options is also the rules' JSON form (a workload spec's trace cleaning):
// each rule by its name, a treatment by the name of its value ("drop",
// "from-runtime"), a rule that leaves the jobs alone left out.
//
// The rules apply to each job in this order (a dropped job goes no
// further, so it is counted under the first rule that drops it):
//
//  1. WholeSeconds: truncate every known time toward zero to whole seconds.
//  2. DropBadSubmit: drop jobs whose submit time is missing or negative.
//  3. DropNoSize: drop jobs whose size (model.Job.Size: allocated
//     processors if positive, else requested) is not positive.
//  4. DropTooWide: drop jobs whose size exceeds the machine.
//  5. NoRuntime: jobs whose runtime is missing or <= 0.
//  6. UnifySize: write the size into fields 5 and 8.
//  7. NoEstimate: jobs whose estimate is missing or <= 0.
//  8. Overrun: jobs whose runtime exceeds their (positive) estimate.
//  9. Order: jobs whose submit time is earlier than an earlier kept job's.
type Options struct {
	// WholeSeconds truncates every known time field (submit, wait, run
	// time, average CPU time, estimate, think time) toward zero to whole
	// seconds, as pyss's int(float(x)) does.
	WholeSeconds bool `json:"whole_seconds,omitempty"`

	// DropBadSubmit drops jobs whose submit time is missing or negative.
	DropBadSubmit bool `json:"drop_bad_submit,omitempty"`

	// DropNoSize drops jobs with no positive size: allocated processors
	// (field 5) and requested processors (field 8) both missing or <= 0.
	DropNoSize bool `json:"drop_no_size,omitempty"`

	// DropTooWide drops jobs whose size is larger than the machine
	// (MachineProcs).
	DropTooWide bool `json:"drop_too_wide,omitempty"`

	// MachineProcs is the machine size in processors for DropTooWide; 0
	// takes the source header's MaxProcs.
	MachineProcs int `json:"machine_procs,omitempty"`

	// NoRuntime says what to do with jobs whose run time (field 4) is
	// missing or <= 0: jobs that never ran.
	NoRuntime NoRuntimeRule `json:"no_runtime,omitempty"`

	// UnifySize sets both allocated and requested processors (fields 5
	// and 8) of a job with a positive size to that size, so that every
	// reader of the output agrees on it. Jobs without a positive size are
	// left alone.
	UnifySize bool `json:"unify_size,omitempty"`

	// NoEstimate says what to do with jobs whose estimate (field 9,
	// requested time) is missing or <= 0.
	NoEstimate NoEstimateRule `json:"no_estimate,omitempty"`

	// Overrun says what to do with jobs that ran longer than their
	// estimate (both known, estimate > 0).
	Overrun OverrunRule `json:"overrun,omitempty"`

	// Order says what to do when the kept jobs' submit times are not
	// non-decreasing. A missing submit time sorts before every known one.
	Order OrderRule `json:"order,omitempty"`
}

// The four rules below that choose among treatments are strings: a
// treatment's value is its name, as genwork clean's flags and workload
// specs write it. A rule's zero value, "", is no treatment given, which
// leaves the jobs alone as its Keep treatment does (Options.Compact
// writes every Keep as ""); a name that is not one of its rule's is
// refused by Options.Check and NewNormalizer.

// NoRuntimeRule is the treatment of jobs whose run time is missing or <= 0.
type NoRuntimeRule string

// Treatments of jobs that never ran.
const (
	KeepNoRuntime    NoRuntimeRule = "keep"       // leave the job alone
	DropNoRuntime    NoRuntimeRule = "drop"       // drop the job
	OneSecondRuntime NoRuntimeRule = "one-second" // keep it as a job of 1 s
)

// NoEstimateRule is the treatment of jobs whose estimate is missing or <= 0.
type NoEstimateRule string

// Treatments of missing estimates.
const (
	KeepNoEstimate      NoEstimateRule = "keep"         // leave the estimate missing
	EstimateFromRuntime NoEstimateRule = "from-runtime" // set the estimate to the run time, when known
)

// OverrunRule is the treatment of jobs whose run time exceeds their estimate.
type OverrunRule string

// Treatments of jobs that ran past their estimate.
const (
	KeepOverrun     OverrunRule = "keep"             // leave both times alone
	TruncateRuntime OverrunRule = "truncate-runtime" // cut the run time to the estimate (killed at the limit)
	RaiseEstimate   OverrunRule = "raise-estimate"   // raise the estimate to the run time
)

// OrderRule is the treatment of submit times that go backwards.
type OrderRule string

// Treatments of unsorted submit times.
const (
	// KeepOrder keeps file order (and counts the jobs out of order).
	KeepOrder OrderRule = "keep"
	// SortBySubmit sorts the kept jobs stably by submit time. It holds
	// the whole trace in memory.
	SortBySubmit OrderRule = "sort"
	// FailUnsorted fails with an error wrapping ErrUnsorted at the first
	// job submitted before an earlier one.
	FailUnsorted OrderRule = "fail"
)

// Check reports every rule of o whose treatment is not one of its rule's
// names, in the order of the rules, each error naming the rule and the
// names it takes.
func (o Options) Check() error {
	return errors.Join(
		checkRule("no-runtime", o.NoRuntime, KeepNoRuntime, DropNoRuntime, OneSecondRuntime),
		checkRule("no-estimate", o.NoEstimate, KeepNoEstimate, EstimateFromRuntime),
		checkRule("overrun", o.Overrun, KeepOverrun, TruncateRuntime, RaiseEstimate),
		checkRule("order", o.Order, KeepOrder, SortBySubmit, FailUnsorted))
}

func checkRule[R ~string](rule string, r R, names ...R) error {
	if r == "" || slices.Contains(names, r) {
		return nil
	}
	want := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			want += " or "
		default:
			want += ", "
		}
		want += string(n)
	}
	return fmt.Errorf("unknown %s rule %q (want %s)", rule, string(r), want)
}

// Compact returns o with every Keep treatment written as the zero rule,
// which leaves the jobs alone as well: the same rules, with only those
// that change jobs written in o's JSON form.
func (o Options) Compact() Options {
	o.NoRuntime = dropKeep(o.NoRuntime, KeepNoRuntime)
	o.NoEstimate = dropKeep(o.NoEstimate, KeepNoEstimate)
	o.Overrun = dropKeep(o.Overrun, KeepOverrun)
	o.Order = dropKeep(o.Order, KeepOrder)
	return o
}

func dropKeep[R ~string](r, keep R) R {
	if r == keep {
		return ""
	}
	return r
}

// ErrUnsorted: a job's submit time is earlier than an earlier job's, under
// FailUnsorted.
var ErrUnsorted = errors.New("submit times out of order")

// ErrMachineSize: DropTooWide is set but the machine size is unknown
// (MachineProcs is 0 and the header has no MaxProcs), or MachineProcs is
// negative.
var ErrMachineSize = errors.New("machine size unknown")

// DefaultOptions returns gangsim's own cleaning, replay's default: jobs
// with a missing or negative submit time and jobs that never ran (run time
// missing or <= 0) are dropped, missing estimates are set to the run time,
// and submit times must be sorted (FailUnsorted). Too-wide and sizeless
// jobs are left for the engine, which rejects them with a reason in the
// outcomes; jobs that overran their estimate keep their run time.
func DefaultOptions() Options {
	return Options{DropBadSubmit: true, NoRuntime: DropNoRuntime, NoEstimate: EstimateFromRuntime, Order: FailUnsorted}
}

// PyssOptions returns the cleaning applied before the pyss oracle runs
// (docs/engine.md, "The pyss rules", rule 1) for
// a machine of machineProcs processors (0: the header's MaxProcs): times
// truncated to whole seconds; dropped in this order: submit < 0, size <= 0,
// size > machine, run time <= 0; a missing or non-positive estimate set to
// the run time; a run time above the estimate cut to it; size = allocated
// processors if > 0 else requested, written to fields 5 and 8; file order
// kept.
//
// On every file the strict Reader accepts, the kept jobs' ID, submit time,
// run time, size and estimate equal clean_swf.py's. (pyss would also
// truncate fractional counts, which the Reader rejects with ErrFraction,
// and drop lines with negative processor counts, which it rejects with
// ErrRange.)
func PyssOptions(machineProcs int) Options {
	return Options{
		WholeSeconds:  true,
		DropBadSubmit: true,
		DropNoSize:    true,
		DropTooWide:   true,
		MachineProcs:  machineProcs,
		NoRuntime:     DropNoRuntime,
		UnifySize:     true,
		NoEstimate:    EstimateFromRuntime,
		Overrun:       TruncateRuntime,
		Order:         KeepOrder,
	}
}

// Report counts what normalization did, per rule. Read = Kept + every
// Dropped count; the other counts are of kept jobs.
type Report struct {
	Read             int // jobs read from the source
	Kept             int // jobs returned
	TruncatedTimes   int // rule 1: kept jobs with a time changed by truncation to whole seconds
	DroppedBadSubmit int // rule 2: submit time missing or negative
	DroppedNoSize    int // rule 3: no positive size
	DroppedTooWide   int // rule 4: size above the machine
	DroppedNoRuntime int // rule 5: run time missing or <= 0, dropped
	RuntimeSetToOne  int // rule 5: run time missing or <= 0, set to 1 s
	SizeUnified      int // rule 6: kept jobs whose field 5 or 8 changed
	EstimateFromRun  int // rule 7: estimate missing or <= 0, set to the run time
	RuntimeTruncated int // rule 8: run time cut to the estimate
	EstimateRaised   int // rule 8: estimate raised to the run time
	OutOfOrder       int // rule 9: kept jobs submitted before the latest earlier kept job (file order)
	MachineProcs     int // the machine size used by DropTooWide; 0 when not used
}

// Minus returns what r counts beyond earlier, an earlier Report of the
// same Normalizer: what normalization did between the two, such as the
// jobs of a window of a log (MachineProcs is r's).
func (r Report) Minus(earlier Report) Report {
	return Report{
		Read: r.Read - earlier.Read, Kept: r.Kept - earlier.Kept,
		TruncatedTimes:   r.TruncatedTimes - earlier.TruncatedTimes,
		DroppedBadSubmit: r.DroppedBadSubmit - earlier.DroppedBadSubmit,
		DroppedNoSize:    r.DroppedNoSize - earlier.DroppedNoSize,
		DroppedTooWide:   r.DroppedTooWide - earlier.DroppedTooWide,
		DroppedNoRuntime: r.DroppedNoRuntime - earlier.DroppedNoRuntime,
		RuntimeSetToOne:  r.RuntimeSetToOne - earlier.RuntimeSetToOne,
		SizeUnified:      r.SizeUnified - earlier.SizeUnified,
		EstimateFromRun:  r.EstimateFromRun - earlier.EstimateFromRun,
		RuntimeTruncated: r.RuntimeTruncated - earlier.RuntimeTruncated,
		EstimateRaised:   r.EstimateRaised - earlier.EstimateRaised,
		OutOfOrder:       r.OutOfOrder - earlier.OutOfOrder,
		MachineProcs:     r.MachineProcs,
	}
}

// DropReason is why normalization dropped a job.
type DropReason uint8

// Reasons, in the order the rules apply.
const (
	ReasonBadSubmit DropReason = iota + 1 // rule 2: submit time missing or negative
	ReasonNoSize                          // rule 3: no positive size
	ReasonTooWide                         // rule 4: size above the machine
	ReasonNoRuntime                       // rule 5: run time missing or <= 0
)

var dropNames = [...]string{"", "bad-submit", "no-size", "too-wide", "no-runtime"}

// String returns "bad-submit", "no-size", "too-wide" or "no-runtime".
func (r DropReason) String() string {
	if int(r) < len(dropNames) && r > 0 {
		return dropNames[r]
	}
	return "drop(" + strconv.Itoa(int(r)) + ")"
}

// Dropped is the number of jobs dropped, for every reason.
func (r Report) Dropped() int {
	return r.DroppedBadSubmit + r.DroppedNoSize + r.DroppedTooWide + r.DroppedNoRuntime
}

// drops lists the nonzero drop counts by reason, in rule order.
func (r Report) drops() (reasons []DropReason, counts []int) {
	for i, n := range []int{r.DroppedBadSubmit, r.DroppedNoSize, r.DroppedTooWide, r.DroppedNoRuntime} {
		if n > 0 {
			reasons, counts = append(reasons, DropReason(i+1)), append(counts, n)
		}
	}
	return reasons, counts
}

// DropSummary says on one line what was dropped, e.g. "dropped 1,200 of
// 77,222 jobs: no-runtime 1,150, bad-submit 50"; "" when nothing was.
func (r Report) DropSummary() string {
	reasons, counts := r.drops()
	if len(reasons) == 0 {
		return ""
	}
	parts := make([]string, len(reasons))
	for i := range reasons {
		parts[i] = reasons[i].String() + " " + strconv.Itoa(counts[i])
	}
	return "dropped " + strconv.Itoa(r.Dropped()) + " of " + strconv.Itoa(r.Read) + " jobs: " + strings.Join(parts, ", ")
}

// KeyDropped is the manifest key under which an output records the jobs
// cleaning dropped, one line per reason: "no-runtime 1150".
const KeyDropped = model.KeyGangsimPrefix + "Dropped"

// HeaderLines returns the drop counts as manifest lines (KeyDropped).
func (r Report) HeaderLines() []model.HeaderLine {
	reasons, counts := r.drops()
	lines := make([]model.HeaderLine, len(reasons))
	for i := range reasons {
		lines[i] = model.HeaderLine{Key: KeyDropped, Value: reasons[i].String() + " " + strconv.Itoa(counts[i])}
	}
	return lines
}

// String formats the report as a two-column table, one line per count.
func (r Report) String() string {
	rows := []struct {
		name string
		n    int
	}{
		{"jobs read", r.Read},
		{"dropped: submit time missing or < 0", r.DroppedBadSubmit},
		{"dropped: size <= 0 or missing", r.DroppedNoSize},
		{"dropped: size > machine (" + strconv.Itoa(r.MachineProcs) + ")", r.DroppedTooWide},
		{"dropped: run time <= 0 or missing", r.DroppedNoRuntime},
		{"run time <= 0 or missing set to 1 s", r.RuntimeSetToOne},
		{"times truncated to whole seconds", r.TruncatedTimes},
		{"size written to fields 5 and 8", r.SizeUnified},
		{"estimate missing set to run time", r.EstimateFromRun},
		{"run time cut to estimate", r.RuntimeTruncated},
		{"estimate raised to run time", r.EstimateRaised},
		{"submitted out of order", r.OutOfOrder},
		{"jobs kept", r.Kept},
	}
	var b strings.Builder
	for _, row := range rows {
		n := strconv.Itoa(row.n)
		b.WriteString(row.name)
		b.WriteString(strings.Repeat(" ", max(1, 44-len(row.name)-len(n))))
		b.WriteString(n)
		b.WriteByte('\n')
	}
	return b.String()
}

// Normalizer applies Options to the jobs of a model.JobReader. It is
// itself a model.JobReader with the source's header, and streams in
// constant memory, except under SortBySubmit, which reads the whole source
// at the first Read.
type Normalizer struct {
	// OnDrop, if set, is called with every job a rule drops (before the
	// rules changed it, except truncation to whole seconds) and the
	// reason.
	OnDrop func(j *model.Job, reason DropReason)

	src    model.JobReader
	opt    Options
	rep    Report
	last   model.Time // largest submit key among the kept jobs so far
	seen   bool       // a job was kept
	sorted []model.Job
	next   int
	loaded bool
	err    error
}

// NewNormalizer returns a Normalizer over src. It reads src's header to
// find the machine size when DropTooWide is set and MachineProcs is 0, and
// fails with ErrMachineSize when there is none.
func NewNormalizer(src model.JobReader, opt Options) (*Normalizer, error) {
	if err := model.HeaderErr(src); err != nil {
		return nil, err // the header's own error, not a missing MaxProcs
	}
	opt, err := resolve(opt, src.Header())
	if err != nil {
		return nil, err
	}
	n := &Normalizer{src: src, opt: opt}
	n.rep.MachineProcs = opt.MachineProcs
	return n, nil
}

func resolve(opt Options, h *model.Header) (Options, error) {
	if err := opt.Check(); err != nil {
		return opt, err
	}
	if opt.MachineProcs < 0 {
		return opt, fmt.Errorf("%w: MachineProcs %d is negative", ErrMachineSize, opt.MachineProcs)
	}
	if opt.DropTooWide && opt.MachineProcs == 0 {
		opt.MachineProcs = h.MaxProcs()
		if opt.MachineProcs <= 0 {
			why := h.IntErr(model.KeyMaxProcs)
			if why == nil {
				why = fmt.Errorf("header MaxProcs is %d", opt.MachineProcs)
			}
			return opt, fmt.Errorf("%w: set the machine size, the header has no positive MaxProcs (%v)", ErrMachineSize, why)
		}
	}
	if !opt.DropTooWide {
		opt.MachineProcs = 0
	}
	return opt, nil
}

// Header returns the source's header, unchanged.
func (n *Normalizer) Header() *model.Header { return n.src.Header() }

// Report returns the counts so far; they are final once Read has returned
// io.EOF.
func (n *Normalizer) Report() Report { return n.rep }

// Read returns the next kept job, or io.EOF after the last one. A source
// error is returned as is; under FailUnsorted, an error wrapping
// ErrUnsorted names the job and, when the source is a *Reader, its line.
func (n *Normalizer) Read() (model.Job, error) {
	if n.err != nil {
		return model.Job{}, n.err
	}
	if n.opt.Order == SortBySubmit {
		return n.readSorted()
	}
	for {
		j, err := n.src.Read()
		if err != nil {
			n.err = err
			return model.Job{}, err
		}
		if reason := n.opt.apply(&j, &n.rep); reason != 0 {
			if n.OnDrop != nil {
				n.OnDrop(&j, reason)
			}
			continue
		}
		if err := n.checkOrder(&j); err != nil {
			n.err = err
			return model.Job{}, err
		}
		n.rep.Kept++
		return j, nil
	}
}

func (n *Normalizer) readSorted() (model.Job, error) {
	if !n.loaded {
		n.loaded = true
		for {
			j, err := n.src.Read()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					n.err = err
					return model.Job{}, err
				}
				break
			}
			if reason := n.opt.apply(&j, &n.rep); reason != 0 {
				if n.OnDrop != nil {
					n.OnDrop(&j, reason)
				}
				continue
			}
			n.checkOrder(&j) // counts only: SortBySubmit never fails
			n.rep.Kept++
			n.sorted = append(n.sorted, j)
		}
		sortBySubmit(n.sorted)
	}
	if n.next >= len(n.sorted) {
		n.sorted = nil
		n.err = io.EOF
		return model.Job{}, io.EOF
	}
	j := n.sorted[n.next]
	n.sorted[n.next] = model.Job{} // release App slices early
	n.next++
	return j, nil
}

// submitKey orders jobs by submit time, missing first.
func submitKey(j *model.Job) model.Time {
	if !j.Has(model.FieldSubmit) {
		return math.MinInt64
	}
	return j.Submit
}

func sortBySubmit(jobs []model.Job) {
	slices.SortStableFunc(jobs, func(a, b model.Job) int {
		ka, kb := submitKey(&a), submitKey(&b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
}

// checkOrder counts a kept job submitted before an earlier kept one, and
// under FailUnsorted returns the error.
func (n *Normalizer) checkOrder(j *model.Job) error {
	k := submitKey(j)
	if !n.seen || k >= n.last {
		n.seen, n.last = true, k
		return nil
	}
	n.rep.OutOfOrder++
	if n.opt.Order != FailUnsorted {
		return nil
	}
	return fmt.Errorf("%s: job %d submitted at %v, before %v of an earlier job: %w",
		Where(n.src, n.rep.Read), j.ID, submitString(j), n.last, ErrUnsorted)
}

func submitString(j *model.Job) string {
	if !j.Has(model.FieldSubmit) {
		return "(missing)"
	}
	return j.Submit.String()
}

// Positioner is a job source that knows where the job it returned last
// came from: a file name ("" if none) and a 1-based line (SWF, CSV) or
// row (Parquet, Arrow). A source of rows also has a method RowPositions()
// bool that returns true.
type Positioner interface {
	Position() (name string, line int)
}

// rowPositions reports whether src's positions are rows of a table.
func rowPositions(src any) bool {
	r, ok := src.(interface{ RowPositions() bool })
	return ok && r.RowPositions()
}

// Where names the position of src's last job for an error: "name:line" or
// "name: row N" for a Positioner, else "input job n".
func Where(src any, n int) string {
	if p, ok := src.(Positioner); ok {
		if name, line := p.Position(); line > 0 {
			switch {
			case rowPositions(src) && name == "":
				return "row " + strconv.Itoa(line)
			case rowPositions(src):
				return name + ": row " + strconv.Itoa(line)
			case name == "":
				return "line " + strconv.Itoa(line)
			}
			return name + ":" + strconv.Itoa(line)
		}
	}
	return "input job " + strconv.Itoa(n)
}

// Position returns the source's position of the job Read returned last,
// when the source is a Positioner and the jobs are not sorted (under
// SortBySubmit, line 0): what an error about the job (out of order for the
// engine) names.
func (n *Normalizer) Position() (name string, line int) {
	p, ok := n.src.(Positioner)
	if !ok {
		return "", 0
	}
	name, line = p.Position()
	if n.opt.Order == SortBySubmit {
		line = 0
	}
	return name, line
}

// RowPositions reports whether Position gives rows of a table.
func (n *Normalizer) RowPositions() bool { return rowPositions(n.src) }

// apply runs rules 1 to 8 on j, counting in rep, and returns why j is
// dropped, or 0 if it is kept.
func (o *Options) apply(j *model.Job, rep *Report) DropReason {
	rep.Read++
	truncated := o.WholeSeconds && truncateTimes(j)
	if o.DropBadSubmit && (!j.Has(model.FieldSubmit) || j.Submit < 0) {
		rep.DroppedBadSubmit++
		return ReasonBadSubmit
	}
	size := j.Size()
	if o.DropNoSize && size <= 0 {
		rep.DroppedNoSize++
		return ReasonNoSize
	}
	if o.DropTooWide && size > o.MachineProcs {
		rep.DroppedTooWide++
		return ReasonTooWide
	}
	if !j.Has(model.FieldRuntime) || j.Runtime <= 0 {
		switch o.NoRuntime {
		case DropNoRuntime:
			rep.DroppedNoRuntime++
			return ReasonNoRuntime
		case OneSecondRuntime:
			j.Runtime = model.Second
			j.Known = j.Known.With(model.FieldRuntime)
			rep.RuntimeSetToOne++
		}
	}
	if truncated {
		rep.TruncatedTimes++
	}
	if o.UnifySize && size > 0 {
		want := j.Known.With(model.FieldAllocProcs).With(model.FieldReqProcs)
		if j.AllocProcs != size || j.ReqProcs != size || j.Known != want {
			j.AllocProcs, j.ReqProcs, j.Known = size, size, want
			rep.SizeUnified++
		}
	}
	hasRun := j.Has(model.FieldRuntime)
	if o.NoEstimate == EstimateFromRuntime && hasRun && (!j.Has(model.FieldEstimate) || j.Estimate <= 0) {
		j.Estimate = j.Runtime
		j.Known = j.Known.With(model.FieldEstimate)
		rep.EstimateFromRun++
	}
	if hasRun && j.Has(model.FieldEstimate) && j.Estimate > 0 && j.Runtime > j.Estimate {
		switch o.Overrun {
		case TruncateRuntime:
			j.Runtime = j.Estimate
			rep.RuntimeTruncated++
		case RaiseEstimate:
			j.Estimate = j.Runtime
			rep.EstimateRaised++
		}
	}
	return 0
}

// truncateTimes truncates every known time of j toward zero to whole
// seconds, and reports whether any changed.
func truncateTimes(j *model.Job) bool {
	changed := false
	for _, p := range [...]*model.Time{&j.Submit, &j.Wait, &j.Runtime, &j.AvgCPU, &j.Estimate, &j.ThinkTime} {
		if t := *p / model.Second * model.Second; t != *p {
			*p, changed = t, true
		}
	}
	return changed
}

// Normalize applies opt to t in place: it removes the dropped jobs,
// changes the kept ones, and sorts them under SortBySubmit. The machine
// size defaults to t's header. Under FailUnsorted it fails with an error
// wrapping ErrUnsorted and leaves t's jobs in an unspecified state.
func Normalize(t *model.Trace, opt Options) (Report, error) {
	opt, err := resolve(opt, &t.Header)
	if err != nil {
		return Report{}, err
	}
	rep := Report{MachineProcs: opt.MachineProcs}
	kept := t.Jobs[:0]
	var last model.Time
	for i := range t.Jobs {
		j := t.Jobs[i]
		if opt.apply(&j, &rep) != 0 {
			continue
		}
		k := submitKey(&j)
		if len(kept) > 0 && k < last {
			rep.OutOfOrder++
			if opt.Order == FailUnsorted {
				return rep, fmt.Errorf("job %d (index %d): submitted at %v, before %v of an earlier job: %w",
					j.ID, i, submitString(&j), last, ErrUnsorted)
			}
		} else {
			last = k
		}
		kept = append(kept, j)
	}
	clear(t.Jobs[len(kept):])
	t.Jobs = kept
	rep.Kept = len(kept)
	if opt.Order == SortBySubmit {
		sortBySubmit(t.Jobs)
	}
	return rep, nil
}
