package workload

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/swf"
)

// Cleaning presets, the one vocabulary of cleaning: CleanPyss is
// swf.PyssOptions, CleanDefault swf.DefaultOptions (replay's default
// cleaning); CleanNone, replay's --clean none, is no rule at all (a
// Cleaning without a preset and without rules), and no preset of a
// Cleaning.
const (
	CleanPyss    = "pyss"
	CleanDefault = "default"
	CleanNone    = "none"
)

// PresetOptions returns the rules of the cleaning preset name, CleanPyss
// (too-wide jobs against a machine of procs processors; 0 takes the
// header's MaxProcs) or CleanDefault, and whether name is one of them.
func PresetOptions(name string, procs int) (swf.Options, bool) {
	switch name {
	case CleanPyss:
		return swf.PyssOptions(procs), true
	case CleanDefault:
		return swf.DefaultOptions(), true
	}
	return swf.Options{}, false
}

// Cleaning is a trace source's cleaning: a preset's rules and rules of
// its own (swf.Options, whose JSON form it has, beside "preset"), applied
// before any transform (see swf.Options for what each rule does and the
// order they apply in).
//
// Preset "pyss" starts from swf.PyssOptions(MachineProcs), "default" from
// swf.DefaultOptions; the rules then add to it: a true switches a rule
// on, a treatment named replaces the preset's. With no preset the rules
// start from swf.Options{}, which leaves the jobs alone.
type Cleaning struct {
	// Preset is "", CleanPyss or CleanDefault.
	Preset string `json:"preset,omitempty"`
	// Options are the rules added to the preset's; MachineProcs, the
	// machine size of DropTooWide, is always its (0 takes the header's
	// MaxProcs).
	swf.Options
}

// Rules returns the rules c describes, its preset's with its own added,
// and an error naming every unknown preset or treatment and a bad machine
// size.
func (c *Cleaning) Rules() (swf.Options, error) {
	var opt swf.Options
	var errs []error
	if c.Preset != "" {
		var ok bool
		if opt, ok = PresetOptions(c.Preset, 0); !ok {
			errs = append(errs, fmt.Errorf("unknown cleaning preset %q (want pyss or default)", c.Preset))
		}
	}
	own := c.Options
	opt.WholeSeconds = opt.WholeSeconds || own.WholeSeconds
	opt.DropBadSubmit = opt.DropBadSubmit || own.DropBadSubmit
	opt.DropNoSize = opt.DropNoSize || own.DropNoSize
	opt.DropTooWide = opt.DropTooWide || own.DropTooWide
	opt.UnifySize = opt.UnifySize || own.UnifySize
	if err := model.CheckProcs(int64(own.MachineProcs)); err != nil {
		errs = append(errs, fmt.Errorf("machine size %w", err))
	}
	opt.MachineProcs = own.MachineProcs
	opt.NoRuntime = cmp.Or(own.NoRuntime, opt.NoRuntime)
	opt.NoEstimate = cmp.Or(own.NoEstimate, opt.NoEstimate)
	opt.Overrun = cmp.Or(own.Overrun, opt.Overrun)
	opt.Order = cmp.Or(own.Order, opt.Order)
	errs = append(errs, own.Check())
	return opt, errors.Join(errs...)
}
