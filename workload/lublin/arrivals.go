package lublin

import (
	"fmt"
	"math/rand/v2"

	"github.com/gangsim/gangsim/model"
)

// Arrivals is the arrival process of one job class alone: the submit
// times a Generator gives that class's jobs (gamma-distributed
// ln(inter-arrival) stretched by the daily cycle, whole seconds), without
// sizes or runtimes. Other workloads borrow it for the model's bursty
// arrivals. It is not safe for concurrent use.
type Arrivals struct {
	c   *class
	rnd *rand.Rand
}

// NewArrivals returns the arrival process of a class with parameters p, of
// which only AArr, BArr, ARAR, ANum and BNum matter, with time 0 at
// startHour (0 to 23). Like the Generator, it draws the first arrival
// before the first call to Next, so no arrival falls at time 0; with the
// same random stream, a single-class Generator of the same parameters
// submits its jobs at the same times, as long as the arrival draws are not
// interleaved with size and runtime draws (the Generator's are).
//
// It panics if the arrival parameters are invalid (Params.Validate) or
// startHour is out of range, or rnd is nil.
func NewArrivals(p Params, startHour int, rnd *rand.Rand) *Arrivals {
	if rnd == nil {
		panic("lublin: NewArrivals with a nil *rand.Rand")
	}
	if startHour < 0 || startHour > 23 {
		panic(fmt.Sprintf("lublin: start hour %d is not in [0, 23]", startHour))
	}
	// Validate only the arrival parameters: the size and runtime ones are
	// not used and may be zero.
	q := CombinedParams()
	q.AArr, q.BArr, q.ARAR, q.ANum, q.BNum = p.AArr, p.BArr, p.ARAR, p.ANum, p.BNum
	if err := q.Validate(); err != nil {
		panic("lublin: invalid arrival parameters: " + err.Error())
	}
	a := &Arrivals{c: newClass(q, -1, RefProcs, startHour), rnd: rnd}
	a.c.advance(rnd)
	return a
}

// Next returns the next submit time, a whole number of seconds after time
// 0. Submit times never decrease.
func (a *Arrivals) Next() model.Time {
	t := model.FromSeconds(int64(a.c.next))
	a.c.advance(a.rnd)
	return t
}
