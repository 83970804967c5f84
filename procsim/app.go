package procsim

import (
	"math/bits"
	"slices"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// program is the BSP program of a job: per-process computation, the rounds
// of its communication call, its iterations and tail.
type program struct {
	procs    int
	compute  []model.Time // c_i
	cmax     model.Time
	pattern  model.Pattern
	rounds   int   // r: rounds of the communication call
	fan      int   // messages a process sends, and receives, per round
	nic      int64 // bytes a process pushes through its NIC per round
	bytes    int64 // bytes of each message
	blocking bool
	iters    int        // N full iterations
	tail     model.Time // ρ: every process's computation after them
	period   model.Time // λ alone (blocking)
}

// Rounds returns the rounds of one communication call of a job of procs
// processes with the given pattern, the messages a process sends (and
// receives) in each, and the bytes each process pushes through its NIC per
// round: a ring is one round with both neighbours, all-to-all one round
// with every other process, a barrier ceil(log2 p) rounds of a zero-byte
// message (dissemination). This is the communication both the job-level
// model (package policies) and the simulator charge.
func Rounds(pattern model.Pattern, procs int, bytes int64) (rounds, fan int, nicBytes int64) {
	if procs < 2 {
		return 0, 0, 0
	}
	switch pattern {
	case model.PatternRing:
		return 1, 2, 2 * bytes
	case model.PatternAllToAll:
		return 1, procs - 1, int64(procs-1) * bytes
	case model.PatternBarrier:
		return bits.Len(uint(procs - 1)), 1, 0
	}
	return 0, 0, 0
}

// CallTime is the time of one communication call alone, the sum over its
// rounds of the hardware model's one-way time of a round's bytes with
// contexts jobs sharing the NIC (costs nil: 0); model.Never if a message
// never gets through.
func CallTime(pattern model.Pattern, procs int, bytes int64, costs hwmodel.Costs, contexts int) model.Time {
	rounds, _, nic := Rounds(pattern, procs, bytes)
	if rounds == 0 || costs == nil {
		return 0
	}
	lat, _ := costs.Message(nic, contexts)
	if lat == model.Never || lat > model.Never/model.Time(rounds) {
		return model.Never // no message gets through (no credits left)
	}
	return model.Time(rounds) * lat
}

// newProgram builds the program of a job of procs processes with
// attributes app and dedicated runtime work, with costs' messages (nil:
// free).
func newProgram(app *model.App, procs int, work model.Time, costs hwmodel.Costs) *program {
	pr := &program{procs: procs, compute: make([]model.Time, procs), blocking: app.Comm != model.CommNonBlocking,
		pattern: app.Pattern, bytes: app.MessageBytes}
	if app.Granularity != 0 || len(app.ProcCompute) > 0 {
		for i := range procs {
			if len(app.ProcCompute) > 0 && i >= len(app.ProcCompute) {
				pr.compute[i] = app.ProcCompute[len(app.ProcCompute)-1]
			} else {
				pr.compute[i] = app.ComputePerIteration(i, procs)
			}
			pr.cmax = max(pr.cmax, pr.compute[i])
		}
	}
	pr.rounds, pr.fan, pr.nic = Rounds(app.Pattern, procs, app.MessageBytes)
	var round model.Time // one round's time alone
	if costs != nil && pr.rounds > 0 {
		round, _ = costs.Message(pr.nic, 1)
	}
	if pr.cmax <= 0 {
		pr.tail = work // no computation to iterate: the whole runtime is the tail
		return pr
	}
	var end model.Time
	pr.iters, end = pr.fit(work, round)
	pr.tail = work - end
	return pr
}

// sends returns the processes process i sends to in round r (the receivers
// of its messages); a process receives as many messages per round as it
// sends (the patterns are symmetric).
func (pr *program) sends(i, r int, out []int) []int {
	n := pr.procs
	out = out[:0]
	switch pr.pattern {
	case model.PatternRing:
		return append(out, (i+1)%n, (i+n-1)%n)
	case model.PatternAllToAll:
		for d := 1; d < n; d++ {
			out = append(out, (i+d)%n)
		}
	case model.PatternBarrier:
		out = append(out, (i+(1<<r))%n)
	}
	return out
}

// receives returns the processes process i receives from in round r.
func (pr *program) receives(i, r int, out []int) []int {
	n := pr.procs
	out = out[:0]
	switch pr.pattern {
	case model.PatternRing:
		return append(out, (i+n-1)%n, (i+1)%n)
	case model.PatternAllToAll:
		for d := 1; d < n; d++ {
			out = append(out, (i+n-d)%n)
		}
	case model.PatternBarrier:
		out = append(out, (i+n-(1<<r)%n)%n)
	}
	return out
}

// fit returns how many whole iterations a job alone ends by work, and when
// they end: the last process's last call over (for non-blocking calls, its
// final wait). Alone, every message takes a round's time L, and a
// process's NIC sends one message at a time: a send starts at
// s = max(t, n_i), when it is posted or when the process's previous send
// is through, whichever is later, arrives at s + L, and frees the NIC then
// (n_i = s + L). Process i, computing c_i per iteration, ends iteration k's
// computation at x_i(k):
//
//	blocking:      round r of the call is posted at t_i,r (t_i,0 = x_i(k)),
//	               its message arrives at a_i,r = max(t_i,r, n_i) + L, and
//	               t_i,r+1 = max(t_i,r, max_f a_f,r),
//	               f over the processes i receives from in round r;
//	               x_i(k+1) = t_i,R + c_i;
//	non-blocking:  call k's rounds are posted at x_i(k), one after another
//	               on the NIC (a_i,k,0 = max(x_i(k), n_i) + L,
//	               a_i,k,r+1 = a_i,k,r + L); the wait for call k-1 ends at
//	               w_i(k) = max(x_i(k), max_f,r a_f,k-1,r), and
//	               x_i(k+1) = w_i(k) + c_i; after the last iteration the
//	               final wait ends at max(w_i(N-1), max_f,r a_f,N-1,r).
//
// These max-plus recurrences become periodic after a few iterations (the
// iterations then repeat the same pattern, later by a constant); fit
// iterates them until their whole state (x, n and, non-blocking, the
// previous call's arrivals) repeats and extrapolates, so it costs a few
// iterations whatever the runtime.
func (pr *program) fit(work, lat model.Time) (iters int, end model.Time) {
	n, rounds := pr.procs, pr.rounds
	a2a := pr.pattern == model.PatternAllToAll
	var from [][][]int // per process, per round (all-to-all: every other)
	if !a2a {
		from = make([][][]int, n)
		for i := range n {
			from[i] = make([][]int, rounds)
			for r := range rounds {
				from[i][r] = pr.receives(i, r, nil)
			}
		}
	}
	// recvMax returns the latest arrival among the messages process i
	// receives in round r, from t on, with arrivals a (by sender): under
	// all-to-all the latest of the others', from the two latest (top).
	var top [][2]int
	rank := func(a [][]model.Time) {
		if !a2a {
			return
		}
		top = top[:0]
		for r := range rounds {
			b := [2]int{-1, -1}
			for f := range n {
				switch v := a[f][r]; {
				case b[0] < 0 || v > a[b[0]][r]:
					b[0], b[1] = f, b[0]
				case b[1] < 0 || v > a[b[1]][r]:
					b[1] = f
				}
			}
			top = append(top, b)
		}
	}
	recvMax := func(i, r int, t model.Time, a [][]model.Time) model.Time {
		if a2a {
			f := top[r][0]
			if f == i {
				f = top[r][1]
			}
			return max(t, a[f][r])
		}
		for _, f := range from[i][r] {
			t = max(t, a[f][r])
		}
		return t
	}
	x := make([]model.Time, n)   // x(k): iteration k's computation over
	nic := make([]model.Time, n) // n: when each process's NIC is free
	t := make([]model.Time, n)
	t2 := make([]model.Time, n)
	arr := make([][]model.Time, n)  // call k's arrivals, by sender and round
	prev := make([][]model.Time, n) // call k-1's
	for i := range n {
		x[i] = pr.compute[i]
		arr[i] = make([]model.Time, rounds)
		prev[i] = make([]model.Time, rounds)
	}
	// waitFor returns when process i has every message of a call whose
	// arrivals are a, from t on.
	// (rank must have ranked a.)
	waitFor := func(i int, t model.Time, a [][]model.Time) model.Time {
		for r := range rounds {
			t = recvMax(i, r, t, a)
		}
		return t
	}
	// state is the recurrences' state after iteration k's computation,
	// for the period: x, the NICs (no earlier than x: an earlier time
	// changes nothing) and, non-blocking, the previous call's arrivals.
	state := func(k int) []model.Time {
		v := slices.Clone(x)
		for i := range n {
			v = append(v, max(nic[i], x[i]))
		}
		if !pr.blocking && k > 0 {
			for i := range n {
				v = append(v, prev[i]...)
			}
		}
		return v
	}
	// E(k) for k = 1, 2, ...: when k iterations are over.
	var ends []model.Time
	var hist [][]model.Time // the state after each iteration's computation, to find the period
	const maxCycle = 16
	for k := 0; ; k++ {
		hist = append(hist, state(k))
		// The call of iteration k, and E(k+1).
		var e model.Time
		if pr.blocking {
			copy(t, x)
			for r := range rounds {
				for i := range n {
					arr[i][r] = max(t[i], nic[i]) + lat
					nic[i] = arr[i][r]
				}
				rank(arr)
				for i := range n {
					t2[i] = recvMax(i, r, t[i], arr)
				}
				t, t2 = t2, t
			}
			e = slices.Max(t)
		} else {
			for i := range n {
				s := max(x[i], nic[i])
				for r := range rounds {
					s += lat
					arr[i][r] = s
				}
				if rounds > 0 {
					nic[i] = s
				}
			}
			if k > 0 {
				rank(prev)
				for i := range n {
					t[i] = waitFor(i, x[i], prev) // w_i(k)
				}
			} else {
				copy(t, x)
			}
			rank(arr)
			for i := range n {
				e = max(e, waitFor(i, t[i], arr))
			}
			prev, arr = arr, prev
		}
		if e > work {
			return k, end
		}
		end = e
		ends = append(ends, e)
		// Periodic already? The state after iteration k's computation is
		// that of c iterations earlier plus a constant, as it was one
		// iteration earlier.
		for c := 1; c <= maxCycle && k-c-1 >= 0; c++ {
			if d, ok := constDiff(hist[k], hist[k-c]); ok {
				if d2, ok2 := constDiff(hist[k-1], hist[k-1-c]); ok2 && d2 == d && d > 0 {
					// E(k + m c + j) = E(k + j) + m d, for j in [0, c) once
					// the next c-1 ends are known; extrapolate from the
					// last c known ends (k-c+1 .. k), which repeat.
					best, bestEnd := k+1, end
					for j := k - c + 1; j <= k; j++ {
						m := (work - ends[j]) / d
						if m < 0 {
							continue
						}
						if it := j + 1 + int(m)*c; it > best || it == best && ends[j]+m*d > bestEnd {
							best, bestEnd = it, ends[j]+m*d
						}
					}
					return best, bestEnd
				}
			}
		}
		// x(k+1)
		for i := range n {
			x[i] = t[i] + pr.compute[i]
		}
	}
}

// constDiff reports whether a - b is the same for every component, and
// what it is.
func constDiff(a, b []model.Time) (model.Time, bool) {
	if len(a) != len(b) {
		return 0, false
	}
	d := a[0] - b[0]
	for i := range a {
		if a[i]-b[i] != d {
			return 0, false
		}
	}
	return d, true
}
