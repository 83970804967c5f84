package policies

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/model"
)

// denseProfile is the profile as an array of free units per tick on
// [0, len), the last value holding on forever.
type denseProfile []int

func (d denseProfile) at(t model.Time) int { return d[min(int(t), len(d)-1)] }

// check compares p with d from start on and checks p's invariants: steps in
// strictly increasing time, the first at start, no two adjacent at the same
// level.
func (d denseProfile) check(t *testing.T, p *profile, start model.Time) {
	t.Helper()
	if p.s[0].at != start {
		t.Fatalf("profile starts at %d, want %d: %v", p.s[0].at, start, p.s)
	}
	for i := 1; i < len(p.s); i++ {
		if p.s[i].at <= p.s[i-1].at || p.s[i].free == p.s[i-1].free {
			t.Fatalf("steps %d and %d: %v", i-1, i, p.s)
		}
	}
	for x := start; x < model.Time(len(d)); x++ {
		if got := p.s[p.search(x+1)-1].free; got != d.at(x) {
			t.Fatalf("free at %d = %d, want %d: %v", x, got, d.at(x), p.s)
		}
	}
}

// TestProfileAgainstDense applies random edits, moves and trims to a profile
// and to a dense array and compares them, and checks earliest,
// earliestBefore and earliestIn against brute-force searches.
func TestProfileAgainstDense(t *testing.T) {
	forSeeds(t, func(t *testing.T, rng *rand.Rand) {
		const horizon, units = 80, 10
		var p profile
		p.reset(0, units)
		d := make(denseProfile, horizon+1)
		for i := range d {
			d[i] = units
		}
		start := model.Time(0)
		type res struct {
			at, dur model.Time
			need    int
		}
		var held []res // reservations, to move
		for op := 0; op < 60; op++ {
			switch r := rng.IntN(10); {
			case r < 4: // reserve units where they fit
				dur, need := model.Time(1+rng.IntN(15)), 1+rng.IntN(3)
				at, it := p.earliest(need, dur)
				if at+dur > horizon {
					continue
				}
				if p.s[it].at != at {
					t.Fatalf("earliest gave %d at step %d: %v", at, it, p.s)
				}
				p.take(at, it, dur, need)
				for x := at; x < at+dur; x++ {
					d[x] -= need
				}
				held = append(held, res{at, dur, need})
			case r < 7 && len(held) > 0: // move a reservation earlier if it can
				k := rng.IntN(len(held))
				h := held[k]
				if h.at <= start {
					continue
				}
				to, it := p.earliestBefore(h.need, h.dur, 0, h.at)
				if to == h.at {
					continue
				}
				if p.s[it].at != to {
					t.Fatalf("earliestBefore gave %d at step %d: %v", to, it, p.s)
				}
				p.move(h.at, to, it, h.dur, h.need)
				for x := h.at; x < h.at+h.dur; x++ {
					d[x] += h.need
				}
				for x := to; x < to+h.dur; x++ {
					d[x] -= h.need
				}
				held[k].at = to
			case r < 9: // free a random range (a tail), or take it back
				from := start + model.Time(rng.IntN(int(horizon-start)))
				to := from + 1 + model.Time(rng.IntN(int(horizon-from)))
				delta := 1 + rng.IntN(3)
				if rng.IntN(2) == 0 {
					delta = -delta
				}
				p.add(from, to, delta)
				for x := from; x < to; x++ {
					d[x] += delta
				}
			default: // time passes
				if start < horizon-10 {
					start += model.Time(rng.IntN(5))
					p.trim(start)
				}
			}
			d.check(t, &p, start)
			// Brute-force searches on the dense profile.
			need := 1 + rng.IntN(units)
			dur := model.Time(rng.IntN(20))
			fits := func(s, end model.Time) bool {
				for x := s; x < end; x++ {
					if d.at(x) < need {
						return false
					}
				}
				return d.at(s) >= need
			}
			want := start
			for !fits(want, want+dur) {
				want++
			}
			if got, _ := p.earliest(need, dur); got != want && want < horizon {
				t.Fatalf("earliest(%d, %d) = %d, want %d: %v", need, dur, got, want, p.s)
			}
			if minFree(d, start) < 0 {
				continue // earliestBefore needs a feasible profile
			}
			res := start + model.Time(rng.IntN(int(horizon-start)))
			from := start + model.Time(rng.IntN(int(res-start)+1))
			if rng.IntN(2) == 0 {
				from = 0
			}
			want = res
			for s := max(from, start); s < res; s++ {
				// Only breakpoints are candidates, as for the scheduler.
				if i := p.search(s); i < len(p.s) && p.s[i].at == s && fits(s, min(s+dur, res)) {
					want = s
					break
				}
			}
			if got, _ := p.earliestBefore(need, dur, from, res); got != want {
				t.Fatalf("earliestBefore(%d, %d, %d, %d) = %d, want %d: %v", need, dur, from, res, got, want, p.s)
			}
			// The same with the starts limited to [from, to).
			to := max(from, start) + model.Time(rng.IntN(int(res-max(from, start))+1))
			if want >= to {
				want = res
			}
			if got, _ := p.earliestIn(need, dur, from, to, res); got != want {
				t.Fatalf("earliestIn(%d, %d, %d, %d, %d) = %d, want %d: %v", need, dur, from, to, res, got, want, p.s)
			}
		}
	})
}

func minFree(d denseProfile, from model.Time) int {
	m := d.at(from)
	for x := from; x < model.Time(len(d)); x++ {
		m = min(m, d[x])
	}
	return m
}
