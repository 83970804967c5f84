package lublin

import (
	"fmt"
	"math/rand/v2"

	"github.com/gangsim/gangsim/model"
)

// Runtimes is the runtime distribution of one job class alone: the
// hyper-gamma runtimes a Generator gives that class's jobs of a given
// size, without arrivals or sizes. Other workloads borrow it for the
// model's heavy-tailed runtimes. It is not safe for concurrent use.
type Runtimes struct {
	c   *class
	rnd *rand.Rand
}

// NewRuntimes returns the runtime distribution of a class with parameters
// p, of which only A1, B1, A2, B2, PA and PB matter. It panics if those
// are invalid (Params.Validate) or rnd is nil.
func NewRuntimes(p Params, rnd *rand.Rand) *Runtimes {
	if rnd == nil {
		panic("lublin: NewRuntimes with a nil *rand.Rand")
	}
	// Validate only the runtime parameters: the others are not used and
	// may be zero.
	q := CombinedParams()
	q.A1, q.B1, q.A2, q.B2, q.PA, q.PB = p.A1, p.B1, p.A2, p.B2, p.PA, p.PB
	if err := q.Validate(); err != nil {
		panic("lublin: invalid runtime parameters: " + err.Error())
	}
	return &Runtimes{c: newClass(q, -1, RefProcs, 0), rnd: rnd}
}

// Next returns the runtime of a job of n processors, whole seconds from 1
// to MaxRuntimeSeconds, as the Generator draws it. It panics if n < 1.
func (r *Runtimes) Next(n int) model.Time {
	if n < 1 {
		panic(fmt.Sprintf("lublin: runtime of a job of %d processors", n))
	}
	return model.FromSeconds(int64(r.c.runtime(r.rnd, n)))
}
