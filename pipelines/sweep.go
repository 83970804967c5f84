package pipelines

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/metrics"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/policies"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"
)

// Sweep runs many runs on all cores through a cache: a run whose key the
// cache has is not run again, so rerunning a sweep skips finished work and
// a killed sweep resumes where it stopped.
type Sweep struct {
	Cache *Cache
	// Workers is the number of runs in parallel; 0 means GOMAXPROCS.
	Workers int
	// Progress, when not nil, is told of every finished run.
	Progress Progress
	// Warn, when not nil, is told of a cached run whose files did not read
	// back, and which was made again.
	Warn func(msg string)

	memo runMemo // what the items reproduced through it read back

	mu     sync.Mutex
	fresh  map[string]bool  // keys Prefetch built, not yet met by Do
	failed map[string]error // keys whose run failed in Prefetch
	remade map[string]bool  // keys made again because their files did not read back
	remake singleflight.Group
}

// Prefetch runs runs (typically every run of several items) on the
// sweep's workers, so that the items' own Do calls then find them done:
// one pool for all the items keeps every core busy up to the last run,
// where item after item each ended on a single long run. What Do reports
// stays as it was: the first Do to meet a run Prefetch built reports it
// as run now rather than cached, and a run that failed fails again in the
// Do that meets it, without running again. Runs after a failure are not
// started (Do starts them then).
//
// The process-level replays start first: they are the long ones, and the
// short ones after them fill the cores to the end.
func (s *Sweep) Prefetch(runs []*Run) {
	runs = slices.Clone(runs)
	slices.SortStableFunc(runs, func(a, b *Run) int {
		return cmp.Compare(longRank(a), longRank(b))
	})
	results, errs := s.do(runs, nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fresh == nil {
		s.fresh, s.failed = map[string]bool{}, map[string]error{}
	}
	for i, r := range results {
		switch {
		case r == nil:
		case errs[i] != nil:
			s.failed[r.Key] = errs[i]
		case r.Info != nil && !r.Cached:
			s.fresh[r.Key] = true
		}
	}
}

// longRank orders runs by how long they are likely to take: 0 for a
// process-level replay, 1 for any other.
func longRank(r *Run) int {
	if spec, err := policies.ParseSpec(r.Replay.Policy); err == nil && policies.ProcessLevel(spec) {
		return 0
	}
	return 1
}

// prefetched tells Do what Prefetch did with the run of key: built it
// (reported once), or failed.
func (s *Sweep) prefetched(key string) (built bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.failed[key]; err != nil {
		return false, err
	}
	built = s.fresh[key]
	delete(s.fresh, key)
	return built, nil
}

// ReadOutcomes returns run f's per-job outcomes, which the sweep keeps for
// the items after this one that read the same run (up to a bound: see
// runMemo). The slice is shared: callers must not change it. A nil sweep
// reads them every time.
func (s *Sweep) ReadOutcomes(f *Finished) ([]model.Outcome, error) {
	return s.memoOf().outcomesOf(f)
}

// Saturation returns run f's saturation decision (metrics.Saturated over
// its jobs' arrival period, from its time series), made once per sweep; o
// are the run's outcomes.
func (s *Sweep) Saturation(f *Finished, o []model.Outcome) (metrics.Saturation, error) {
	return s.memoOf().saturationOf(f, o)
}

// memoOf is the sweep's memo, nil for a nil sweep.
func (s *Sweep) memoOf() *runMemo {
	if s == nil {
		return nil
	}
	return &s.memo
}

// Progress is told of a sweep's runs as they end (the commands draw it on
// the terminal). Its methods are called from the sweep's workers.
type Progress interface {
	Done(cached bool) // a run ended; cached: it was found in the cache
	Failed()          // a run failed
	Finish()          // the sweep's Do or Prefetch has returned
}

// Finished is a run of a sweep that is done, now or earlier.
type Finished struct {
	Run    *Run
	Point  Point  // the grid point it came from, if any
	Key    string // cache key
	Dir    string // cache directory with its files
	Info   *RunInfo
	Cached bool // found in the cache rather than run now

	sweep *Sweep // remakes the run when its files do not read back; nil: none
}

// Do runs runs (points, if not nil, labels each run with its grid point)
// and returns their results in the order given. It stops starting new runs
// at the first error and returns the first error in the order given, a
// *RunError.
//
// Runs are started in the order given, at most Workers at a time
// (errgroup's limit). Two runs with the same key (the same run listed twice)
// are built once: the second waits for the first's build (singleflight) or,
// if that has finished, finds it in the cache.
func (s *Sweep) Do(runs []*Run, points []Point) ([]*Finished, error) {
	results, errs := s.do(runs, points)
	for i, err := range errs {
		if err == nil {
			continue
		}
		if results == nil { // before any run: the cache or a key
			return nil, err
		}
		e := &RunError{Index: i, Err: err}
		if points != nil {
			e.Label = points[i].Describe()
		}
		return nil, e
	}
	return results, nil
}

// do is Do, with each run's result and error: results is nil when the
// sweep could not start (errs then holds that error alone), and a run not
// started after a failure has neither.
func (s *Sweep) do(runs []*Run, points []Point) (results []*Finished, errs []error) {
	if err := s.Cache.RemoveStale(); err != nil {
		return nil, []error{fmt.Errorf("run cache: %w", err)}
	}
	results = make([]*Finished, len(runs))
	errs = make([]error, len(runs))
	for i, r := range runs {
		key, err := r.Key()
		if err != nil {
			return nil, []error{fmt.Errorf("run %d: %w", i+1, err)}
		}
		results[i] = &Finished{Run: r, Key: key, Dir: s.Cache.Path(key), sweep: s}
		if points != nil {
			results[i].Point = points[i]
		}
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// A run takes a slot before it is started, here, so that whether it
	// starts depends on the failures before that moment alone, not on when
	// its goroutine first gets a processor; a failed run says so (stop)
	// before it gives its slot back.
	var g errgroup.Group
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	slots := make(chan struct{}, workers)
	var builds singleflight.Group
	for i := range results {
		slots <- struct{}{}
		if ctx.Err() != nil {
			break // a run failed, perhaps while this one waited: start no more
		}
		g.Go(func() error {
			defer func() { <-slots }()
			res := results[i]
			v, err, _ := builds.Do(res.Key, func() (any, error) {
				built, err := s.prefetched(res.Key)
				if err != nil {
					return nil, err
				}
				if info, ok := s.Cache.Get(res.Key); ok {
					if built {
						return build{info: info, by: i}, nil
					}
					return build{info: info, by: -1}, nil
				}
				info, err := s.Cache.Put(res.Key, func(dir string) (*RunInfo, error) {
					return res.Run.Execute(dir, res.Key)
				})
				return build{info: info, by: i}, err
			})
			if err != nil {
				errs[i] = err
				stop()
				if s.Progress != nil {
					s.Progress.Failed()
				}
				return err
			}
			b := v.(build)
			// A run built by a twin with the same key counts as cached.
			res.Info, res.Cached = b.info, b.by != i
			if s.Progress != nil {
				s.Progress.Done(res.Cached)
			}
			return nil
		})
	}
	g.Wait() // the error that matters is the first in the order given
	if s.Progress != nil {
		s.Progress.Finish()
	}
	return results, errs
}

// RunError is the failure of one run of a sweep.
type RunError struct {
	Index int    // the run's index in the runs given, from 0
	Label string // its grid point ("policy=easy, load=0.9", "no grid"); empty when not known
	Err   error
}

func (e *RunError) Error() string {
	if e.Label == "" {
		return fmt.Sprintf("run %d: %v", e.Index+1, e.Err)
	}
	return fmt.Sprintf("run %d (%s): %v", e.Index+1, e.Label, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// build is one run's outcome shared by every run of the same key: its
// information and the index of the run that executed it (-1: found in the
// cache).
type build struct {
	info *RunInfo
	by   int
}

// ReadRuns reads run descriptions, one JSON value after another (the JSON
// lines replay sweep --print-runs writes, or one indented document), and
// checks each. name labels errors.
func ReadRuns(r io.Reader, name string) ([]*Run, error) {
	d := json.NewDecoder(r)
	var runs []*Run
	for {
		var doc json.RawMessage
		if err := d.Decode(&doc); err != nil {
			if isEOF(err) {
				break
			}
			return nil, fmt.Errorf("%s: run %d: %w", name, len(runs)+1, err)
		}
		run, err := ParseRun(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: run %d: %w", name, len(runs)+1, err)
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no run description", name)
	}
	return runs, nil
}

// Describe names a grid point as "policy=easy, load=0.9" (a string value
// without its JSON quotes), or "no grid".
func (p Point) Describe() string {
	if len(p) == 0 {
		return "no grid"
	}
	s := ""
	for i, l := range p {
		if i > 0 {
			s += ", "
		}
		s += l.Axis + "=" + p.Text(l.Axis)
	}
	return s
}

// Outcomes reads the run's per-job outcomes and their table's header. A
// cached run whose table does not read back (damaged on disk) is made
// again, once, and read from its new copy.
func (r *Finished) Outcomes() ([]model.Outcome, *model.Header, error) {
	o, h, err := r.readOutcomes()
	if err != nil && r.remake(OutcomesFile, err) {
		o, h, err = r.readOutcomes()
	}
	return o, h, err
}

func (r *Finished) readOutcomes() ([]model.Outcome, *model.Header, error) {
	name := filepath.Join(r.Dir, OutcomesFile)
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	or, err := columnar.NewOutcomeReader(f, columnar.FormatParquet, name)
	if err != nil {
		return nil, nil, err
	}
	defer or.Close()
	out := make([]model.Outcome, 0, or.RowsHint())
	for {
		o, err := or.Read()
		if err != nil {
			if isEOF(err) {
				break
			}
			return nil, nil, err
		}
		out = append(out, o)
	}
	h := or.Header().Clone()
	return out, &h, nil
}

// Samples reads the run's time series; a table that does not read back
// is made again, as by Outcomes.
func (r *Finished) Samples() ([]model.Sample, error) {
	s, err := r.readSamples()
	if err != nil && r.remake(TimeSeriesFile, err) {
		s, err = r.readSamples()
	}
	return s, err
}

func (r *Finished) readSamples() ([]model.Sample, error) {
	name := filepath.Join(r.Dir, TimeSeriesFile)
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sr, err := columnar.NewSampleReader(f, columnar.FormatParquet, name)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	out := make([]model.Sample, 0, sr.RowsHint())
	for {
		s, err := sr.Read()
		if err != nil {
			if isEOF(err) {
				break
			}
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// remake makes run r again after its file name failed to read with err,
// and reports whether it did (or another reader of the run did it in this
// sweep already): the run is discarded from the cache and built anew.
func (r *Finished) remake(name string, err error) bool {
	s := r.sweep
	if s == nil {
		return false
	}
	_, rerr, _ := s.remake.Do(r.Key, func() (any, error) {
		s.mu.Lock()
		done := s.remade[r.Key]
		s.mu.Unlock()
		if done {
			return nil, nil
		}
		if err := s.Cache.Discard(r.Key); err != nil {
			return nil, err
		}
		info, err := s.Cache.Put(r.Key, func(dir string) (*RunInfo, error) {
			return r.Run.Execute(dir, r.Key)
		})
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		if s.remade == nil {
			s.remade = map[string]bool{}
		}
		s.remade[r.Key] = true
		s.mu.Unlock()
		r.Info = info
		if s.Warn != nil {
			s.Warn(fmt.Sprintf("run %s: its cached %s did not read back (%v): made again", r.Key[:16], name, err))
		}
		return nil, nil
	})
	return rerr == nil
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }
