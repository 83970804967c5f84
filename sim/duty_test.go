package sim

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
)

var seedFlag = flag.Uint64("seed", 0, "seed of the randomized tests (0: a fixed set of seeds)")

// seeds returns the seeds a randomized test runs: the -seed flag's, or n
// fixed ones.
func seeds(n int) []uint64 {
	if *seedFlag != 0 {
		return []uint64{*seedFlag}
	}
	s := make([]uint64, n)
	for i := range s {
		s[i] = uint64(i + 1)
	}
	return s
}

// randomDuty draws a duty with a few lead windows, an origin around 0 and,
// mostly, a few periodic windows.
func randomDuty(r *rand.Rand) Duty {
	d := Duty{Origin: model.Time(r.IntN(40) - 20)}
	for t := d.Origin - model.Time(r.IntN(12)); t < d.Origin && r.IntN(3) > 0; {
		from := t + model.Time(r.IntN(3))
		if from >= d.Origin {
			break
		}
		to := from + 1 + model.Time(r.IntN(int(d.Origin-from)))
		d.Lead = append(d.Lead, Window{from, to})
		t = to + model.Time(r.IntN(2))
	}
	if r.IntN(5) == 0 {
		return d // always on from the origin
	}
	d.Period = model.Time(1 + r.IntN(20))
	for t := model.Time(0); t < d.Period; {
		from := t + model.Time(r.IntN(3))
		if from >= d.Period {
			break
		}
		to := from + 1 + model.Time(r.IntN(int(d.Period-from)))
		d.On = append(d.On, Window{from, to})
		t = to + 1
	}
	if len(d.On) == 0 {
		d.On = []Window{{0, d.Period}}
	}
	if err := d.check(); err != nil {
		panic(err)
	}
	return d
}

// onAt reports whether d is on during [t, t+1), by direct inspection.
func (d *Duty) onAt(t model.Time) bool {
	if t < d.Origin {
		for _, w := range d.Lead {
			if w.From <= t && t < w.To {
				return true
			}
		}
		return false
	}
	if !d.Periodic() {
		return true
	}
	x := ((t-d.Origin)%d.Period + d.Period) % d.Period
	for _, w := range d.On {
		if w.From <= x && x < w.To {
			return true
		}
	}
	return false
}

// TestDutyAgainstTicks checks cumulative and reach against counting the
// on microseconds one by one.
func TestDutyAgainstTicks(t *testing.T) {
	for _, seed := range seeds(200) {
		r := rand.New(rand.NewPCG(seed, 0))
		d := randomDuty(r)
		from := d.Origin - 40
		count := d.cumulative(from)
		for x := from; x < d.Origin+5*d.Period+7; x++ {
			if got := d.cumulative(x); got != count {
				t.Fatalf("seed %d: %+v: cumulative(%d) = %d, want %d", seed, d, x, got, count)
			}
			if d.onAt(x) != d.OnAt(x) {
				t.Fatalf("seed %d: %+v: OnAt(%d) = %v", seed, d, x, d.OnAt(x))
			}
			if d.onAt(x) {
				count++
				if got := d.reach(count); got != x+1 {
					t.Fatalf("seed %d: %+v: reach(%d) = %d, want %d", seed, d, count, got, x+1)
				}
			}
		}
	}
}

// dutyPolicy starts every job at once and applies scripted duty and rate
// changes to job 1.
type dutyPolicy struct {
	e       *Engine
	changes []dutyChange
	job     *Job
}

type dutyChange struct {
	at   model.Time
	duty Duty
	rate Rate
}

func (p *dutyPolicy) Attach(e *Engine) {
	p.e = e
	for i, c := range p.changes {
		e.SetTimer(c.at, int64(i))
	}
}
func (p *dutyPolicy) Arrive(j *Job) { p.job = j; p.e.Start(j) }
func (p *dutyPolicy) Complete(*Job) { p.job = nil }
func (p *dutyPolicy) Schedule()     {}
func (p *dutyPolicy) Timer(tag int64) {
	if p.job == nil {
		return
	}
	c := p.changes[tag]
	p.e.SetDuty(p.job, c.duty)
	p.e.SetRate(p.job, c.rate)
}

// TestDutyEngineAgainstTicks runs a job through random duty and rate
// changes and compares its end with a microsecond-by-microsecond account.
func TestDutyEngineAgainstTicks(t *testing.T) {
	for _, seed := range seeds(300) {
		r := rand.New(rand.NewPCG(seed, 1))
		work := model.Time(1 + r.IntN(60))
		var changes []dutyChange
		at := model.Time(0)
		for range r.IntN(5) {
			at += model.Time(1 + r.IntN(15))
			d := AlwaysOnFrom(at)
			if r.IntN(4) > 0 {
				d = randomDuty(r)
				for i := range d.Lead {
					d.Lead[i].From += at
					d.Lead[i].To += at
				}
				d.Origin += at
			}
			rate := []Rate{0, FullRate / 2, FullRate / 4, FullRate}[r.IntN(4)]
			if r.IntN(3) > 0 {
				rate = FullRate
			}
			changes = append(changes, dutyChange{at, d, rate})
		}
		// The naive account: progress in µs × FullRate, one µs at a time.
		want := model.Never
		done, duty, rate, next := int64(0), AlwaysOnFrom(0), FullRate, 0
		for x := model.Time(0); x < 100000; x++ {
			for next < len(changes) && changes[next].at == x {
				duty, rate = changes[next].duty, changes[next].rate
				next++
			}
			if done >= int64(work)*int64(FullRate) {
				want = x
				break
			}
			if duty.onAt(x) {
				done += int64(rate)
			}
		}
		pol := &dutyPolicy{changes: changes}
		job := model.Job{ID: 1, Runtime: work, AllocProcs: 1, Known: model.AllFields}
		var out model.OutcomeList
		if err := New(Config{Machine: model.FlatMachine(1)}, pol).Run(
			model.NewSliceReader(&model.Trace{Jobs: []model.Job{job}}), &out, nil); err != nil {
			if want != model.Never {
				t.Fatalf("seed %d: %v", seed, err)
			}
			continue // held at rate 0 forever: the engine reports the stuck job
		}
		got := model.Never
		for _, o := range out {
			if o.Completed() {
				got = o.End
			}
		}
		if got != want {
			t.Fatalf("seed %d: work %d, changes %+v: end %d, want %d", seed, work, changes, got, want)
		}
	}
}

// TestDutySameFrom checks SameFrom against comparing the two duties
// microsecond by microsecond over several periods: never the same where
// they differ, and the same wherever they coincide with the same cycle.
func TestDutySameFrom(t *testing.T) {
	same, differ := 0, 0
	for _, seed := range seeds(3000) {
		r := rand.New(rand.NewPCG(seed, 2))
		a := randomDuty(r)
		var b Duty
		switch r.IntN(3) {
		case 0:
			b = randomDuty(r)
		case 1: // the same cycle, another origin in phase, another lead
			b = a
			if a.Periodic() {
				b.Origin += a.Period * model.Time(r.IntN(3))
			} else {
				b.Origin = a.Origin - model.Time(r.IntN(5))
			}
			b.Lead = nil
			if r.IntN(2) == 0 {
				b.Lead = append([]Window(nil), a.Lead...)
			}
		case 2: // a lead that spells out a's first cycle
			b = a
			if a.Periodic() {
				b.Lead = append([]Window(nil), a.Lead...)
				for _, w := range a.On {
					b.Lead = append(b.Lead, Window{a.Origin + w.From, a.Origin + w.To})
				}
				b.Origin += a.Period
			}
		}
		if b.check() != nil {
			continue
		}
		from := model.Time(r.IntN(60) - 30)
		want := true
		limit := max(from, a.Origin, b.Origin) + 3*max(a.Period, b.Period, 1) + 5
		for x := from; x < limit; x++ {
			if a.onAt(x) != b.onAt(x) {
				want = false
				break
			}
		}
		got := a.SameFrom(b, from)
		norm := func(d Duty) model.Time {
			if d.Periodic() && d.on == d.Period {
				return 0
			}
			return d.Period
		}
		if got && !want || !got && want && norm(a) == norm(b) {
			t.Fatalf("seed %d: %+v SameFrom(%+v, %d) = %v, want %v", seed, a, b, from, got, want)
		}
		if want {
			same++
		} else {
			differ++
		}
	}
	if *seedFlag == 0 && (same < 300 || differ < 300) {
		t.Errorf("only %d same and %d differing cases: the test checks too little", same, differ)
	}
}
