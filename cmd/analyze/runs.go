package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
)

// Grouping names that are not manifest parameters.
const (
	keyRun  = "run"  // the input's name
	keyHalf = "half" // short or long, with --halves
)

// paramCompress is genwork's time compression factor in a workload's
// manifest (workload.Spec's "compress").
const paramCompress = "compress"

// resultRun is one input: the outcomes of one replay run and what its
// manifests say about it.
type resultRun struct {
	name   string      // display name: the file name, or "<stdin>"
	input  model.Input // name and digest, for the output's manifest
	header model.Header
	chain  []model.Manifest // [0] the run's own manifest, [1] the step before it...
	// outcomes holds every outcome when the analysis needs them whole
	// (trimming, saturation or the jobs in the system without a time
	// series); otherwise they stream into the cells and are not kept.
	outcomes []model.Outcome
	// completed counts the completed jobs, whose first and last submit
	// times are the arrival period (metrics.ArrivalPeriod).
	completed                 int
	firstArrival, lastArrival model.Time
	procs                     int        // machine size for the utilization
	tau                       model.Time // short-job bound of the bounded slowdowns
	compress                  float64    // the workload's compression factor, 0 if none
	series                    []model.Sample
	// seriesFrom names the --timeseries file of the run, "" if none.
	seriesFrom string
	// skipped counts the rows --lenient skipped.
	skipped skippedRows
}

// manifestChain reads every manifest in h: the newest step's
// ("Gangsim..." keys) first, then the one before it ("InputGangsim..."),
// and so on. A level with no tool line is a zero Manifest.
func manifestChain(h *model.Header) []model.Manifest {
	var chain []model.Manifest
	for level := 0; ; level++ {
		prefix := strings.Repeat(model.KeyUpstreamPrefix, level)
		var sub model.Header
		for _, l := range h.Lines {
			if k, ok := strings.CutPrefix(l.Key, prefix); ok && strings.HasPrefix(k, model.KeyGangsimPrefix) {
				sub.Add(k, l.Value)
			}
		}
		if len(sub.Lines) == 0 {
			return chain
		}
		m, _ := model.ManifestOf(&sub)
		chain = append(chain, m)
	}
}

// param looks name up in the run's manifests, newest step first.
func (r *resultRun) param(name string) (string, bool) {
	for i := range r.chain {
		if v, ok := r.chain[i].Param(name); ok {
			return v, true
		}
	}
	return "", false
}

// paramNames lists the parameter names the run's manifests know, for an
// error message.
func (r *resultRun) paramNames() []string {
	var names []string
	for i := range r.chain {
		for _, p := range r.chain[i].Params {
			if indexOf(names, p.Name) < 0 {
				names = append(names, p.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// key returns the value of a grouping name for the run.
func (r *resultRun) key(name string) (string, error) {
	if name == keyRun {
		return r.name, nil
	}
	if v, ok := r.param(name); ok {
		return v, nil
	}
	have := strings.Join(r.paramNames(), ", ")
	if have == "" {
		have = "none: the file has no gangsim manifest"
	}
	return "", fmt.Errorf("%s: no parameter %q in its manifest or those of the steps before it (parameters: %s)", r.name, name, have)
}

// readOutcomes opens an outcomes table and reads all of it into memory.
func readOutcomes(name string, stdin io.Reader) (*resultRun, error) {
	return readRun(name, stdin, true, rowRules{}, nil, nil)
}

// rowRules are how readRun judges the rows of an outcomes table: tables
// of other tools are welcome (README), so every row is checked before
// any metric sees it.
type rowRules struct {
	// lenient skips the rows that fail (counted in resultRun.skipped)
	// instead of failing on the first.
	lenient bool
	// machine finds the run's machine size before its rows are read
	// (machineSize with procs; an error if it is unknown, once the rows
	// are read), and refuses a completed job on more processors than it
	// has.
	machine bool
	procs   int
}

// badRow is a row of an outcomes table that cannot be right.
type badRow struct {
	column string // the column it names
	why    string // the cause, counted under --lenient
	detail string // the values
}

// checkOutcome returns what is wrong with outcome o, nil if nothing is: a
// negative duration, a completed job without its start or end, or ending
// before it started or starting before its submission, on more
// processors than the machine's procs (0: not checked) or on none. ids
// remembers the job numbers, a repeated one being wrong too.
func checkOutcome(o *model.Outcome, procs int, ids *model.IDSet) *badRow {
	secs := func(t model.Time) string { return string(t.AppendSeconds(nil)) }
	for _, d := range []struct {
		column string
		t      model.Time
	}{{"dedicated_s", o.Dedicated}, {"estimate_s", o.Estimate}, {"switch_loss_s", o.SwitchLoss},
		{"cpu_s", o.CPU}, {"spin_s", o.Spin}, {"blocked_s", o.Blocked}} {
		if d.t < 0 {
			return &badRow{d.column, "negative duration", secs(d.t) + " s"}
		}
	}
	if o.Switches < 0 {
		return &badRow{"switches", "negative count", strconv.FormatInt(o.Switches, 10)}
	}
	if o.Completed() {
		switch {
		case o.Start == model.Never:
			return &badRow{"start_s", "completed job without a start", "null"}
		case o.End == model.Never:
			return &badRow{"end_s", "completed job without an end", "null"}
		case o.Start < o.Submit:
			return &badRow{"start_s", "start before submit", secs(o.Start) + " s, before submit_s " + secs(o.Submit) + " s"}
		case o.End < o.Start:
			return &badRow{"end_s", "end before start", secs(o.End) + " s, before start_s " + secs(o.Start) + " s"}
		case o.Runtime < 0:
			return &badRow{"runtime_s", "negative duration", secs(o.Runtime) + " s"}
		case o.Procs <= 0:
			return &badRow{"procs", "completed job on no processors", strconv.Itoa(o.Procs)}
		case procs > 0 && o.Procs > procs:
			return &badRow{"procs", "more processors than the machine", strconv.Itoa(o.Procs) + ", on a machine of " + strconv.Itoa(procs)}
		}
	}
	if ids.Seen(o.JobID) {
		return &badRow{"job_id", "repeated job number", strconv.FormatInt(o.JobID, 10) + " (an earlier row has it)"}
	}
	return nil
}

// skippedRows counts the rows of a run that --lenient skipped, by cause.
type skippedRows struct {
	n      int
	causes []string
	counts map[string]int
	first  string // the first one's error
}

func (s *skippedRows) add(why, err string) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	if s.counts[why] == 0 {
		s.causes = append(s.causes, why)
	}
	s.counts[why]++
	if s.n == 0 {
		s.first = err
	}
	s.n++
}

// String says it on one line: "3 rows skipped (2 end before start, 1
// repeated job number; first: x.csv:5: column end_s: ...)".
func (s *skippedRows) String() string {
	var parts []string
	for _, c := range s.causes {
		parts = append(parts, strconv.Itoa(s.counts[c])+" "+c)
	}
	what := "rows"
	if s.n == 1 {
		what = "row"
	}
	return fmt.Sprintf("%d %s skipped (%s; first: %s)", s.n, what, strings.Join(parts, ", "), s.first)
}

// readRun opens an outcomes table and reads it through: begin is called
// once the header is known (the manifests are in r.chain), each with
// every outcome in the order of the file. The outcomes are kept in
// r.outcomes only with hold; without it the run takes constant memory
// beyond what each keeps. The arrival period is tracked either way.
// Standard input is read once, as it arrives (fileio.OpenStream: nothing
// is spooled unless it is Parquet), its digest known once it is read
// through.
//
// Every row is checked first (checkOutcome, and the reader's own refusal
// of a value that is no time, such as a NaN): a row that fails is an error
// naming it and its column, or, under rules.lenient, skipped and counted
// in r.skipped.
func readRun(name string, stdin io.Reader, hold bool, rules rowRules, begin func(*resultRun) error, each func(*resultRun, *model.Outcome)) (*resultRun, error) {
	in, err := fileio.OpenStream(name, stdin)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	rd, err := in.Outcomes()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	r := &resultRun{name: in.DisplayName(), header: rd.Header().Clone()}
	r.chain = manifestChain(&r.header)
	var machineErr error // said once the rows are read, as their own errors come first
	if rules.machine {
		machineErr = r.machineSize(rules.procs)
	}
	if begin != nil {
		if err := begin(r); err != nil {
			return nil, err
		}
	}
	var ids model.IDSet
	for {
		o, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *columnar.RowError
		if errors.As(err, &re) {
			if !rules.lenient {
				return nil, fmt.Errorf("%w (analyze --lenient skips such rows)", err)
			}
			r.skipped.add("unreadable value", err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		if bad := checkOutcome(&o, r.procs, &ids); bad != nil {
			err := fmt.Errorf("%s: column %s: %s: %s", rd.Where(), bad.column, bad.why, bad.detail)
			if !rules.lenient {
				return nil, fmt.Errorf("%w (analyze --lenient skips such rows)", err)
			}
			r.skipped.add(bad.why, err.Error())
			continue
		}
		if o.Completed() {
			if r.completed == 0 {
				r.firstArrival, r.lastArrival = o.Submit, o.Submit
			}
			r.completed++
			r.firstArrival, r.lastArrival = min(r.firstArrival, o.Submit), max(r.lastArrival, o.Submit)
		}
		if hold {
			r.outcomes = append(r.outcomes, o)
		}
		if each != nil {
			each(r, &o)
		}
	}
	if machineErr != nil {
		return nil, machineErr
	}
	// Again at the end: the header then has the table's trailer (what is
	// known only once the run was written, such as the input's digest).
	r.header = rd.Header().Clone()
	r.chain = manifestChain(&r.header)
	if err := in.Finish(); err != nil { // a stream's digest covers every byte
		return nil, err
	}
	r.input = in.Manifest()
	return r, nil
}

// readSeries reads a time-series table, standard input as a stream (as
// readRun does).
func readSeries(name string, stdin io.Reader) ([]model.Sample, model.Input, *model.Header, error) {
	in, err := fileio.OpenStream(name, stdin)
	if err != nil {
		return nil, model.Input{}, nil, err
	}
	defer in.Close()
	rd, err := in.Samples()
	if err != nil {
		return nil, model.Input{}, nil, err
	}
	defer rd.Close()
	var samples []model.Sample
	for {
		s, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, model.Input{}, nil, err
		}
		if n := len(samples); n > 0 && s.At < samples[n-1].At {
			return nil, model.Input{}, nil, fmt.Errorf("%s: row %d: time %v is before the previous row's %v", in.DisplayName(), n+1, s.At, samples[n-1].At)
		}
		samples = append(samples, s)
	}
	h := rd.Header().Clone()
	if err := in.Finish(); err != nil {
		return nil, model.Input{}, nil, err
	}
	return samples, in.Manifest(), &h, nil
}

// sameRun reports whether two headers carry the same manifests (tools,
// seeds, parameters, inputs), as the outcomes and the time series of one
// replay do.
func sameRun(a, b *model.Header) bool {
	return slices.EqualFunc(manifestChain(a), manifestChain(b), func(x, y model.Manifest) bool {
		return x.Tool == y.Tool && x.Version == y.Version && x.HasSeed == y.HasSeed && x.Seed == y.Seed &&
			slices.Equal(x.Params, y.Params) && slices.Equal(x.Inputs, y.Inputs)
	})
}

// machineSize finds the processors a run's utilization is measured
// against: --procs, else the run's "machine" parameter, else its header.
func (r *resultRun) machineSize(override int) error {
	if override > 0 {
		r.procs = override
		return nil
	}
	if len(r.chain) > 0 {
		if v, ok := r.chain[0].Param("machine"); ok {
			m, err := model.ParseMachine(v)
			if err != nil {
				return fmt.Errorf("%s: parameter machine: %w", r.name, err)
			}
			r.procs = m.Procs()
			return nil
		}
	}
	if p := r.header.Machine().Procs(); p > 0 {
		r.procs = p
		return nil
	}
	return fmt.Errorf("%s: machine size unknown (no machine parameter and no MaxProcs in the header): give --procs", r.name)
}

// chooseTau sets the run's tau: the given one, else 10 s of real time in
// the workload's time (metrics.CompressedTau of its compression factor).
func (r *resultRun) chooseTau(given model.Time) error {
	if v, ok := r.param(paramCompress); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) {
			return fmt.Errorf("%s: parameter %s=%q is not a positive factor", r.name, paramCompress, v)
		}
		r.compress = f
	}
	switch {
	case given > 0:
		r.tau = given
	case r.compress > 0:
		r.tau = metrics.CompressedTau(r.compress)
	default:
		r.tau = metrics.DefaultTau
	}
	return nil
}

// cell is the part of a run a table row or figure series is made of: the
// whole run, or one of its halves, after trimming. Its outcomes stream
// into acc.
type cell struct {
	run  *resultRun
	half metrics.Length // Unclassified without --halves
	acc  *metrics.RunAccumulator

	summary *metrics.RunSummary
}

// newCell returns an empty cell of run r keeping the values of keep.
func newCell(r *resultRun, half metrics.Length, keep []metrics.JobMetric) *cell {
	return &cell{run: r, half: half, acc: metrics.NewRunAccumulator(r.tau, keep...)}
}

// summarize returns the cell's RunSummary, computing it once.
func (c *cell) summarize() *metrics.RunSummary {
	if c.summary == nil {
		s := c.acc.Summary(c.run.procs)
		c.summary = &s
	}
	return c.summary
}

// values returns the cell's values of a per-job metric, which must have
// been kept.
func (c *cell) values(m metrics.JobMetric) *metrics.Values { return c.acc.Values(m) }

// key returns the value of a grouping name for the cell.
func (c *cell) key(name string) (string, error) {
	if name == keyHalf {
		return c.half.String(), nil
	}
	return c.run.key(name)
}

// group is the cells that share the values of the grouping names.
type group struct {
	keys  []string
	cells []*cell
}

// groupCells groups cells by the values of names, in order of the values
// (numbers numerically, else as text). With no names, every cell is its
// own group, in the cells' order.
func groupCells(cells []*cell, names []string) ([]*group, error) {
	var groups []*group
	if len(names) == 0 {
		for _, c := range cells {
			groups = append(groups, &group{cells: []*cell{c}})
		}
		return groups, nil
	}
	index := map[string]*group{}
	for _, c := range cells {
		keys := make([]string, len(names))
		for i, n := range names {
			v, err := c.key(n)
			if err != nil {
				return nil, err
			}
			keys[i] = v
		}
		id := strings.Join(keys, "\x00")
		g := index[id]
		if g == nil {
			g = &group{keys: keys}
			index[id] = g
			groups = append(groups, g)
		}
		g.cells = append(g.cells, c)
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return compareKeys(names, a.keys, b.keys) })
	return groups, nil
}

// compareKeys orders two key tuples of the grouping names value by value:
// short before long, numbers numerically and before text, text as
// strings.
func compareKeys(names, a, b []string) int {
	for i := range a {
		c := 0
		if names[i] == keyHalf {
			c = cmp.Compare(halfRank(a[i]), halfRank(b[i]))
		}
		if c = cmp.Or(c, compareValues(a[i], b[i])); c != 0 {
			return c
		}
	}
	return 0
}

// halfRank orders the halves as the thesis presents them: short, long.
func halfRank(s string) int {
	switch s {
	case metrics.Short.String():
		return 0
	case metrics.Long.String():
		return 1
	}
	return 2
}

func compareValues(a, b string) int {
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	switch {
	case errX == nil && errY == nil:
		return cmp.Or(cmp.Compare(x, y), strings.Compare(a, b))
	case errX == nil:
		return -1
	case errY == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// label names a group in a legend: its values joined by ", ", each number
// as name=value so that it says what it is.
func label(names, values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = v
		if _, err := strconv.ParseFloat(v, 64); err == nil && len(names) > i {
			parts[i] = names[i] + "=" + v
		}
	}
	return strings.Join(parts, ", ")
}
