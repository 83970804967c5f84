package pipelines

import (
	"errors"
	"io"
	"time"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"github.com/gangsim/gangsim/procsim"
)

// TraceScan is what one pass over a trace tells before it is replayed:
// its size and span, for a replay's progress, and for a process-level
// policy the jobs it cannot coschedule and the work it will simulate.
type TraceScan struct {
	Jobs       int        // jobs read
	LastSubmit model.Time // the last job's submit time: the arrivals' span from time 0
	// NoApp counts the jobs without application attributes (no
	// granularity, no per-process computation): under a process-level
	// policy their processes only compute, so that coscheduling has
	// nothing to act on.
	NoApp int
	// Units is the work a process-level replay simulates, in processor
	// quanta and iterations (EstimatedSeconds).
	Units float64
}

// ScanTrace reads r to its end for a replay under spec. The jobs are
// taken as read, before any cleaning: a scan informs, it decides nothing.
func ScanTrace(r model.JobReader, spec policies.Spec) (TraceScan, error) {
	quantum := 100 * model.Millisecond // the policies' default
	if q, ok := spec.Params["quantum"]; ok {
		if d, err := model.ParseDuration(q); err == nil && d > 0 {
			quantum = d
		}
	}
	var s TraceScan
	for {
		j, err := r.Read()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		s.Jobs++
		s.LastSubmit = max(s.LastSubmit, j.Submit)
		app := &j.App
		if app.Granularity == 0 && len(app.ProcCompute) == 0 {
			s.NoApp++
		}
		size, work := j.Size(), j.Runtime.Seconds()
		if size <= 0 || !(work > 0) {
			continue
		}
		// Every processor of the job sees a gang strobe or a local
		// quantum every quantum it runs, and every iteration its
		// computation ending and its rounds of messages arriving.
		units := float64(size) * work / quantum.Seconds()
		g := app.Granularity
		for _, c := range app.ProcCompute {
			g = max(g, c)
		}
		if g > 0 {
			rounds, fan, _ := procsim.Rounds(app.Pattern, size, app.MessageBytes)
			units += float64(size) * work / g.Seconds() * float64(1+rounds*fan)
		}
		s.Units += units
	}
}

// unitCost is what a process-level replay spends per unit of
// TraceScan.Units under FCS with Crescendo's costs, on this project's
// 2-core machine: 20 to 370 ns, measured on windows of the KTH-SP2 log
// (100 jobs: 76 ns without application attributes, 20 ns with the thesis'
// and times compressed 100 times; 400 jobs: 175 and 62 ns) and on the
// thesis' 1000 jobs without attributes (370 ns, most of it the fixed cost
// of a 0.56 s run). An estimate is therefore within a factor of 5 or so
// either way: enough to tell a replay of seconds from one of hours.
const unitCost = 100 * time.Nanosecond

// EstimatedSeconds is about how long a process-level replay of the
// scanned trace takes on one core.
func (s TraceScan) EstimatedSeconds() float64 { return s.Units * unitCost.Seconds() }
