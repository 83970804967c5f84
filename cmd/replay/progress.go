package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/fileio"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/pipelines"
	"github.com/gangsim/gangsim/policies"
)

// longReplay is the estimated time from which a process-level replay is
// announced with its estimate before it starts.
const longReplay = 30 * time.Second

// scanInput reads the trace file name once before the replay, for what the
// replay's progress and warnings need to know up front (its jobs, span,
// application attributes and cost). It returns nil when it cannot: the
// replay itself then reports the input's errors.
func scanInput(name string, mode fileio.SWFMode, needed model.FieldSet, spec policies.Spec) *pipelines.TraceScan {
	in, err := fileio.OpenStream(name, nil)
	if err != nil {
		return nil
	}
	defer in.Close()
	r, err := in.TraceNeeding(mode, needed)
	if err != nil {
		return nil
	}
	s, err := pipelines.ScanTrace(r, spec)
	if err != nil {
		return nil
	}
	return &s
}

// noAppAdvice says what a trace without application attributes means to a
// process-level policy, and how to give it some.
func noAppAdvice(spec policies.Spec) string {
	return fmt.Sprintf("their processes only compute, so %s has no communication to coschedule and its results say nothing of coscheduling; "+
		"genwork convert --app assigns the thesis' attributes (5, 50 or 500 ms iterations, a ring of blocking messages)", spec.Name)
}

// costNotice is the line said before a process-level replay estimated to
// take long.
func costNotice(spec policies.Spec, s *pipelines.TraceScan, procs int) string {
	est := time.Duration(s.EstimatedSeconds() * float64(time.Second))
	return fmt.Sprintf("%s simulates every process: this trace (%d jobs on %d processors, %s of arrivals) will take about %s "+
		"(a rough estimate, within a factor of 5 either way); a window of it (genwork convert --skip N --jobs N) or its times compressed "+
		"(genwork convert --compress 100, as the thesis did) replays far faster", spec, s.Jobs, procs, simSpan(s.LastSubmit), cli.Elapsed(est))
}

// simSpan formats a simulated duration in the unit that suits it.
func simSpan(t model.Time) string {
	s := t.Seconds()
	switch {
	case s < 2*3600:
		return fmt.Sprintf("%.0f s", s)
	case s < 3*86400:
		return fmt.Sprintf("%.1f h", s/3600)
	}
	return fmt.Sprintf("%.1f days", s/86400)
}

// replayWatch follows a replay for its progress line and its warning: the
// jobs the engine read and the outcomes it wrote, counted as they pass.
type replayWatch struct {
	src        model.JobReader
	next       model.OutcomeWriter
	spec       policies.Spec
	total      int64      // jobs in the trace, 0 when not known
	span       model.Time // the last submit time, 0 when not known
	read       atomic.Int64
	lastSubmit atomic.Int64
	finished   atomic.Int64
	lastEnd    atomic.Int64

	warn     io.Writer // where a job without attributes is said, nil: not watched
	warnOnce sync.Once
}

// Header and Read make the watch the engine's job reader.
func (w *replayWatch) Header() *model.Header { return w.src.Header() }

func (w *replayWatch) Read() (model.Job, error) {
	j, err := w.src.Read()
	if err != nil {
		return j, err
	}
	w.read.Add(1)
	w.lastSubmit.Store(int64(j.Submit))
	if w.warn != nil && j.App.Granularity == 0 && len(j.App.ProcCompute) == 0 {
		w.warnOnce.Do(func() {
			fmt.Fprintf(w.warn, "replay: %s: job %d has no application attributes (and maybe others after it): %s\n",
				w.spec, j.ID, noAppAdvice(w.spec))
		})
	}
	return j, nil
}

// Position, RowPositions and HeaderErr pass on what the source knows,
// so that errors name the line or row of a job as without the watch.
func (w *replayWatch) Position() (name string, line int) {
	if p, ok := w.src.(interface{ Position() (string, int) }); ok {
		return p.Position()
	}
	return "", 0
}

func (w *replayWatch) RowPositions() bool {
	r, ok := w.src.(interface{ RowPositions() bool })
	return ok && r.RowPositions()
}

func (w *replayWatch) HeaderErr() error { return model.HeaderErr(w.src) }

// Write and Close make the watch the engine's outcome writer.
func (w *replayWatch) Write(o *model.Outcome) error {
	w.finished.Add(1)
	if o.End > 0 {
		w.lastEnd.Store(int64(o.End))
	}
	if w.next == nil {
		return nil
	}
	return w.next.Write(o)
}

func (w *replayWatch) Close() error { return nil }

// render is the progress line: "replay: fcs: simulated 2.1 of 8.0 days
// (26%), 263 of 1000 jobs done, 120 jobs/s, about 6s left".
func (w *replayWatch) render(elapsed time.Duration) string {
	now := model.Time(max(w.lastSubmit.Load(), w.lastEnd.Load()))
	done := w.finished.Load()
	var b strings.Builder
	fmt.Fprintf(&b, "replay: %s: simulated ", w.spec)
	frac := -1.0
	if w.span > 0 {
		frac = min(now.Seconds()/w.span.Seconds(), 0.99)
		fmt.Fprintf(&b, "%s of %s (%.0f%%)", simSpan(now), simSpan(w.span), 100*frac)
	} else {
		b.WriteString(simSpan(now))
	}
	if w.total > 0 {
		fmt.Fprintf(&b, ", %d of %d jobs done", done, w.total)
		if frac < 0 {
			frac = min(float64(done)/float64(w.total), 0.99)
		}
	} else {
		fmt.Fprintf(&b, ", %d jobs done", done)
	}
	if s := elapsed.Seconds(); s > 0 {
		fmt.Fprintf(&b, ", %.0f jobs/s", float64(done)/s)
	}
	if frac > 0.005 {
		left := time.Duration(float64(elapsed) * (1 - frac) / frac)
		b.WriteString(", about " + cli.Elapsed(left) + " left")
	}
	return b.String()
}
