package policies

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Env is what a policy is built with besides its own parameters: the run it
// schedules. The zero Env with a valid Machine is a batch run with free
// switches and no random numbers.
type Env struct {
	// Machine is the simulated machine.
	Machine model.Machine
	// NodeAllocation makes jobs take whole nodes: a time-sharing policy's
	// matrix then has a column per node.
	NodeAllocation bool
	// Hardware is the cost model charged for context switches and
	// communication under time sharing; the zero value charges nothing.
	Hardware Hardware
	// Rand is the run's seeded random source. A policy that draws takes
	// its numbers from it alone; nil when the run draws nothing.
	Rand *rand.Rand
}

// Hardware is a hardware cost model and what names it in a run's manifest.
type Hardware struct {
	// Costs is the cost model; nil: switches are free and communication
	// is as fast under time sharing as alone.
	Costs hwmodel.Costs
	// Preset names the preset the costs come from ("crescendo"), Family its
	// model family ("qsnet") and Mechanism the family's variant charged
	// ("switching-valid" for myrinet, "signal" for pm...).
	Preset, Family, Mechanism string
}

// Charged reports whether switches and messages cost anything.
func (h Hardware) Charged() bool { return h.Costs != nil }

// String is "none", or "PRESET (FAMILY, MECHANISM)".
func (h Hardware) String() string {
	if !h.Charged() {
		return "none"
	}
	return fmt.Sprintf("%s (%s, %s)", h.Preset, h.Family, h.Mechanism)
}

// Validate reports a machine the policies cannot schedule.
func (e Env) Validate() error {
	if !e.Machine.Valid() {
		return fmt.Errorf("invalid machine %v", e.Machine)
	}
	return nil
}

// Columns is the number of allocation units a time-sharing matrix has:
// processors, or nodes under node allocation.
func (e Env) Columns() int {
	if e.NodeAllocation {
		return e.Machine.Nodes
	}
	return e.Machine.Procs()
}

// ErrParam matches (errors.Is) every error about a policy's name or
// parameters: the user's to fix.
var ErrParam = errors.New("bad policy parameter")

// paramError is an error about a policy spec; it matches ErrParam.
type paramError struct{ msg string }

func (e *paramError) Error() string        { return e.msg }
func (e *paramError) Is(target error) bool { return target == ErrParam }

func paramErrorf(format string, args ...any) error {
	return &paramError{fmt.Sprintf(format, args...)}
}

// orList joins choices as "a, b or c".
func orList(choices []string) string {
	if len(choices) < 2 {
		return strings.Join(choices, "")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// Params are a policy's parameters as given on the command line,
// "key=value" after the policy's name; the getters parse them with their
// defaults and report bad values wrapping ErrParam.
type Params map[string]string

func (p Params) errorf(key, format string, args ...any) error {
	return paramErrorf("%s=%q: %s", key, p[key], fmt.Sprintf(format, args...))
}

// Int returns parameter key as an integer in [lo, hi], def when absent.
func (p Params) Int(key string, def, lo, hi int) (int, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < lo || v > hi {
		return 0, p.errorf(key, "want an integer from %d to %d", lo, hi)
	}
	return v, nil
}

// Float returns parameter key as a number in [lo, hi], def when absent.
func (p Params) Float(key string, def, lo, hi float64) (float64, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v >= lo && v <= hi) {
		return 0, p.errorf(key, "want a number from %g to %g", lo, hi)
	}
	return v, nil
}

// Duration returns parameter key as simulated time (model.ParseDuration:
// "100ms", "2s", or a bare number of seconds), at least lo; def when
// absent.
func (p Params) Duration(key string, def, lo model.Time) (model.Time, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := model.ParseDuration(s)
	if err != nil {
		return 0, paramErrorf("%s: %v", key, err)
	}
	if v < lo {
		return 0, p.errorf(key, "want at least %v", lo)
	}
	return v, nil
}

// Bool returns parameter key as true or false, def when absent.
func (p Params) Bool(key string, def bool) (bool, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return false, p.errorf(key, "want true or false")
	}
	return v, nil
}

// Choice returns parameter key, which must be one of choices; def when
// absent.
func (p Params) Choice(key, def string, choices ...string) (string, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	for _, c := range choices {
		if s == c {
			return s, nil
		}
	}
	return "", p.errorf(key, "want %s", orList(choices))
}
