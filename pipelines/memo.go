package pipelines

import (
	"fmt"
	"sync"

	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
)

// runMemo keeps what the items of one sweep have read back from their
// runs, for the items after them: items share runs (fig-6.12 and
// saturation read the same 1,170 runs of the thesis' workload), and
// reading runs back from Parquet was most of the time of a sweep whose
// runs are all cached. It holds each run's outcomes, up to memoRows of
// them in all (the oldest run's go first), and each run's saturation
// decision, which is small. The analyses treat outcomes as read-only (an
// analysis that orders them sorts a copy), so one slice serves them all.
// The zero value is ready; a nil *runMemo reads every time.
type runMemo struct {
	mu       sync.Mutex
	outcomes map[string][]model.Outcome // by run key
	order    []string                   // keys of outcomes, oldest first
	rows     int                        // outcomes held
	limit    int                        // most outcomes held; 0: memoRows
	decided  map[string]metrics.Saturation
}

// memoRows bounds the outcomes a runMemo holds: about 270 MB of them, more
// than the largest item holds at once itself (fig-6.12, 1,300 runs of
// 1000 jobs).
const memoRows = 2 << 20

// outcomesOf returns run f's outcomes, read once.
func (m *runMemo) outcomesOf(f *Finished) ([]model.Outcome, error) {
	if m == nil {
		o, _, err := f.Outcomes()
		return o, err
	}
	m.mu.Lock()
	o, ok := m.outcomes[f.Key]
	m.mu.Unlock()
	if ok {
		return o, nil
	}
	o, _, err := f.Outcomes()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := m.limit
	if limit == 0 {
		limit = memoRows
	}
	if _, ok := m.outcomes[f.Key]; ok || len(o) > limit {
		return o, nil
	}
	if m.outcomes == nil {
		m.outcomes = map[string][]model.Outcome{}
	}
	for m.rows+len(o) > limit {
		old := m.order[0]
		m.order = m.order[1:]
		m.rows -= len(m.outcomes[old])
		delete(m.outcomes, old)
	}
	m.outcomes[f.Key] = o
	m.order = append(m.order, f.Key)
	m.rows += len(o)
	return o, nil
}

// saturationOf returns run f's saturation decision (metrics.Saturated
// over the jobs' arrival period), from its time series, read once; o are
// the run's outcomes.
func (m *runMemo) saturationOf(f *Finished, o []model.Outcome) (metrics.Saturation, error) {
	if m != nil {
		m.mu.Lock()
		v, ok := m.decided[f.Key]
		m.mu.Unlock()
		if ok {
			return v, nil
		}
	}
	s, err := f.Samples()
	if err != nil {
		return metrics.Saturation{}, err
	}
	first, last := metrics.ArrivalPeriod(o)
	if last <= first {
		// metrics.Saturated panics on an empty arrival period.
		return metrics.Saturation{}, fmt.Errorf("run %s: its saturation cannot be judged: fewer than two completed jobs, arriving at different times", f.Key)
	}
	v := metrics.Saturated(s, first, last)
	if m != nil {
		m.mu.Lock()
		if m.decided == nil {
			m.decided = map[string]metrics.Saturation{}
		}
		m.decided[f.Key] = v
		m.mu.Unlock()
	}
	return v, nil
}
