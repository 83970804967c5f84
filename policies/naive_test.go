package policies

// A deliberately naive reference scheduler: it steps through every tick of
// simulated time, keeps free processors as an array over future ticks, and
// decides every question by brute force. It shares no code with the engine
// or the policies, so agreement on many random traces checks both.

import (
	"github.com/gangsim/gangsim/model"
)

type naiveJob struct {
	id        int64
	submit    model.Time
	run, est  model.Time // actual runtime; runtime the scheduler assumes
	size      int
	start     model.Time
	startedAt bool
	ended     bool
	res       model.Time
	hasRes    bool
}

type naiveKind int

const (
	naiveFCFS naiveKind = iota
	naiveEASY
	naiveConservative       // sweeps until nothing moves, at every pass
	naiveConservativeSingle // one sweep per termination, at its pass
)

// naiveRun simulates jobs (in submit order) on m processors and returns
// each job's start time. pyss selects the pyss event semantics (on-estimate
// ends, then each arrival, then other ends, with a pass after every event);
// otherwise all ends, then all arrivals, then one pass, at every tick.
func naiveRun(kind naiveKind, m int, jobs []*naiveJob, pyss bool) []model.Time {
	var queue, running []*naiveJob
	horizon := model.Time(0)
	for _, j := range jobs {
		horizon = max(horizon, j.submit)
	}
	for _, j := range jobs {
		horizon += j.run + j.est + 1
	}
	next := 0
	// wake: for conservative, the earliest reservation start after the last
	// pass, skipping the instant right after it while a job overruns (see
	// Conservative.setWake).
	wake := model.Never
	for now := model.Time(0); now <= horizon; now++ {
		ends := func(onEstimate bool) []*naiveJob {
			var out []*naiveJob
			for _, j := range running {
				if !j.ended && j.start+j.run == now && (!pyss || (j.run == j.est) == onEstimate) {
					out = append(out, j)
				}
			}
			return out
		}
		end := func(j *naiveJob) {
			j.ended = true
			running = remove(running, j)
		}
		// sweeps is the number of sweeps a pass owes (single sweeps only).
		pass := func(sweeps int) {
			if kind == naiveConservativeSingle {
				queue, running = naiveSinglePass(m, now, queue, running, sweeps)
			} else {
				queue, running = naivePass(kind, m, now, queue, running)
			}
			if kind == naiveConservative || kind == naiveConservativeSingle {
				wake = model.Never
				first := now + 1
				if overrunning(running, now) {
					first = now + 2
				}
				for _, j := range queue {
					if j.res >= first && j.res < wake {
						wake = j.res
					}
				}
			}
		}
		due := wake == now
		// arrive queues a job; a single-sweep conservative scheduler places
		// it at once, unless the plan is out of date (a job ended off its
		// estimate at this instant, or one is overrunning), when the
		// instant's sweep places it.
		arrive := func(j *naiveJob, outOfDate bool) {
			queue = append(queue, j)
			if kind == naiveConservativeSingle && !outOfDate && !overrunning(running, now) {
				naivePlace(m, now, queue, running, j)
			}
		}
		if pyss {
			// Every job ending at now, in start order (ties: the order they
			// were started in a pass, which running preserves).
			var ending []*naiveJob
			for _, j := range running {
				if j.start+j.run == now {
					ending = append(ending, j)
				}
			}
			// pyss's profile frees the jobs ending at their estimate from
			// the start of the instant...
			for _, j := range ending {
				if j.run == j.est {
					end(j)
				}
			}
			for next < len(jobs) && jobs[next].submit == now {
				arrive(jobs[next], false)
				next++
				pass(0)
			}
			// ...and each termination, in start order, triggers a pass.
			for _, j := range ending {
				if !j.ended {
					end(j)
				}
				pass(1)
			}
			if due {
				pass(0)
			}
		} else {
			// A pass only when something happened: schedulers act on events.
			acted, offEstimate, ended := false, false, 0
			for _, j := range ends(false) {
				end(j)
				acted = true
				offEstimate = offEstimate || j.run != j.est
				ended++
			}
			for next < len(jobs) && jobs[next].submit == now {
				arrive(jobs[next], offEstimate)
				next++
				acted = true
			}
			if acted || due {
				pass(ended)
			}
		}
	}
	out := make([]model.Time, len(jobs))
	for i, j := range jobs {
		out[i] = model.Never
		if j.startedAt {
			out[i] = j.start
		}
	}
	return out
}

func remove(s []*naiveJob, j *naiveJob) []*naiveJob {
	for i, x := range s {
		if x == j {
			return append(s[:i:i], s[i+1:]...)
		}
	}
	panic("not found")
}

// expEnd is when the scheduler expects a running job to free its
// processors: start + assumed runtime, or the next tick once overrun.
func expEnd(j *naiveJob, now model.Time) model.Time {
	e := j.start + j.est
	if e <= now {
		return now + 1
	}
	return e
}

// freeArray returns free[t-now] for every tick t in [now, now+len), counting
// the running jobs' expected intervals.
func freeArray(m int, now model.Time, n int, running []*naiveJob) []int {
	free := make([]int, n)
	for i := range free {
		free[i] = m
	}
	for _, j := range running {
		for t := now; t < expEnd(j, now) && int(t-now) < n; t++ {
			free[t-now] -= j.size
		}
	}
	return free
}

// earliestFit scans the free array for the first tick from which size
// processors stay free for dur ticks.
func earliestFit(free []int, size int, dur model.Time) int {
	for s := 0; s < len(free); s++ {
		ok := true
		for t := s; t < s+int(max(dur, 1)); t++ {
			if t >= len(free) || free[t] < size {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	panic("no fit within the horizon")
}

func occupy(free []int, from int, dur model.Time, size, sign int) {
	for t := from; t < from+int(dur) && t < len(free); t++ {
		free[t] -= sign * size
	}
}

func naivePass(kind naiveKind, m int, now model.Time, queue, running []*naiveJob) ([]*naiveJob, []*naiveJob) {
	start := func(j *naiveJob) {
		j.start, j.startedAt = now, true
		running = append(running, j)
	}
	const span = 4096
	switch kind {
	case naiveFCFS, naiveEASY:
		for len(queue) > 0 && freeArray(m, now, 1, running)[0] >= queue[0].size {
			start(queue[0])
			queue = queue[1:]
		}
		if kind == naiveFCFS || len(queue) < 2 {
			return queue, running
		}
		head := queue[0]
		var kept []*naiveJob
		kept = append(kept, head)
		for _, c := range queue[1:] {
			free := freeArray(m, now, span, running)
			before := earliestFit(free, head.size, head.est)
			if free[0] < c.size {
				kept = append(kept, c)
				continue
			}
			occupy(free, 0, max(c.est, 1), c.size, 1)
			// c may start only if the head can still start as early as before.
			if earliestFit(free, head.size, head.est) <= before {
				start(c)
			} else {
				kept = append(kept, c)
			}
		}
		return kept, running
	case naiveConservative:
		free := freeArray(m, now, span, running)
		for _, j := range queue {
			if j.hasRes {
				j.res = max(j.res, now)
				occupy(free, int(j.res-now), j.est, j.size, 1)
			}
		}
		for moved := true; moved; {
			moved = false
			for _, j := range queue {
				had, old := j.hasRes, j.res
				if had {
					occupy(free, int(j.res-now), j.est, j.size, -1)
				}
				t := earliestFit(free, j.size, j.est)
				j.res, j.hasRes = now+model.Time(t), true
				occupy(free, t, j.est, j.size, 1)
				moved = moved || (had && j.res != old)
			}
		}
		var kept []*naiveJob
		for _, j := range queue {
			if j.res == now && freeArray(m, now, 1, running)[0] >= j.size {
				start(j)
			} else {
				kept = append(kept, j)
			}
		}
		return kept, running
	}
	panic("unknown kind")
}

func overrunning(running []*naiveJob, now model.Time) bool {
	for _, j := range running {
		if j.start+j.est <= now {
			return true
		}
	}
	return false
}

// reserved returns the free array with the running jobs and the
// reservations of the queued jobs other than skip taken out.
func reserved(m int, now model.Time, queue, running []*naiveJob, skip *naiveJob) []int {
	const span = 4096
	free := freeArray(m, now, span, running)
	for _, j := range queue {
		if j.hasRes && j != skip {
			occupy(free, int(max(j.res, now)-now), j.est, j.size, 1)
		}
	}
	return free
}

// naivePlace gives j the earliest reservation that fits around the others.
func naivePlace(m int, now model.Time, queue, running []*naiveJob, j *naiveJob) {
	free := reserved(m, now, queue, running, j)
	j.res, j.hasRes = now+model.Time(earliestFit(free, j.size, j.est)), true
}

// naiveSinglePass is a pass of single-sweep conservative backfilling: it
// sweeps the queue in arrival order the number of times owed (once if
// none is owed but the plan is out of date), each job moving to its earliest
// fit around all the others, and stops early after a sweep that moves
// none; then it starts the jobs due now.
func naiveSinglePass(m int, now model.Time, queue, running []*naiveJob, sweeps int) ([]*naiveJob, []*naiveJob) {
	outOfDate := overrunning(running, now)
	for _, j := range queue {
		if j.hasRes {
			j.res = max(j.res, now)
		} else {
			outOfDate = true
		}
	}
	if sweeps == 0 && outOfDate {
		sweeps = 1
	}
	for ; sweeps > 0; sweeps-- {
		moved := false
		for _, j := range queue {
			had, old := j.hasRes, j.res
			naivePlace(m, now, queue, running, j)
			moved = moved || (had && j.res != old)
		}
		if !moved {
			break
		}
	}
	var kept []*naiveJob
	for _, j := range queue {
		if j.res == now && freeArray(m, now, 1, running)[0] >= j.size {
			j.start, j.startedAt = now, true
			running = append(running, j)
		} else {
			kept = append(kept, j)
		}
	}
	return kept, running
}
