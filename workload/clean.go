package workload

import (
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

// Cleaning is the JSON form of swf.Options, the normalization rules
// applied to a trace source before any transform (see swf.Options for what
// each rule does and the order they apply in).
//
// Preset "pyss" starts from swf.PyssOptions(MachineProcs); the other fields
// then add to it: a true switches a rule on, a non-empty rule name replaces
// the preset's. With no preset the rules start from swf.Options{}, which
// leaves the jobs alone.
type Cleaning struct {
	// Preset is "", CleanPyss or CleanDefault.
	Preset string `json:"preset,omitempty"`
	// WholeSeconds truncates every time to whole seconds (rule 1).
	WholeSeconds bool `json:"whole_seconds,omitempty"`
	// DropBadSubmit drops jobs with a missing or negative submit time
	// (rule 2).
	DropBadSubmit bool `json:"drop_bad_submit,omitempty"`
	// DropNoSize drops jobs without a positive size (rule 3).
	DropNoSize bool `json:"drop_no_size,omitempty"`
	// DropTooWide drops jobs wider than the machine (rule 4).
	DropTooWide bool `json:"drop_too_wide,omitempty"`
	// MachineProcs is the machine size for DropTooWide; 0 takes the
	// header's MaxProcs.
	MachineProcs int `json:"machine_procs,omitempty"`
	// NoRuntime treats jobs that never ran (rule 5): "keep", "drop" or
	// "one-second".
	NoRuntime string `json:"no_runtime,omitempty"`
	// UnifySize writes the size into fields 5 and 8 (rule 6).
	UnifySize bool `json:"unify_size,omitempty"`
	// NoEstimate treats missing estimates (rule 7): "keep" or
	// "from-runtime".
	NoEstimate string `json:"no_estimate,omitempty"`
	// Overrun treats runtimes above the estimate (rule 8): "keep",
	// "truncate-runtime" or "raise-estimate".
	Overrun string `json:"overrun,omitempty"`
	// Order treats unsorted submit times (rule 9): "keep", "sort" (holds
	// the whole trace in memory) or "fail".
	Order string `json:"order,omitempty"`
}

// Names of the cleaning rules' treatments, indexed by the swf constants.
var (
	noRuntimeNames  = [...]string{swf.KeepNoRuntime: "keep", swf.DropNoRuntime: "drop", swf.OneSecondRuntime: "one-second"}
	noEstimateNames = [...]string{swf.KeepNoEstimate: "keep", swf.EstimateFromRuntime: "from-runtime"}
	overrunNames    = [...]string{swf.KeepOverrun: "keep", swf.TruncateRuntime: "truncate-runtime", swf.RaiseEstimate: "raise-estimate"}
	orderNames      = [...]string{swf.KeepOrder: "keep", swf.SortBySubmit: "sort", swf.FailUnsorted: "fail"}
)

func parseRule[R ~uint8](what, s string, names []string) (R, error) {
	for i, n := range names {
		if s == n {
			return R(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s rule %q (want %s)", what, s, orList(names))
}

func orList(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " or "
		default:
			s += ", "
		}
		s += n
	}
	return s
}

// Options returns the swf.Options that c describes.
func (c *Cleaning) Options() (swf.Options, error) {
	var opt swf.Options
	var errs []error
	if c.Preset != "" {
		var ok bool
		if opt, ok = PresetOptions(c.Preset, 0); !ok {
			errs = append(errs, fmt.Errorf("unknown cleaning preset %q (want pyss or default)", c.Preset))
		}
	}
	opt.WholeSeconds = opt.WholeSeconds || c.WholeSeconds
	opt.DropBadSubmit = opt.DropBadSubmit || c.DropBadSubmit
	opt.DropNoSize = opt.DropNoSize || c.DropNoSize
	opt.DropTooWide = opt.DropTooWide || c.DropTooWide
	opt.UnifySize = opt.UnifySize || c.UnifySize
	if err := model.CheckProcs(int64(c.MachineProcs)); err != nil {
		errs = append(errs, fmt.Errorf("machine size %w", err))
	}
	opt.MachineProcs = c.MachineProcs
	var err error
	if c.NoRuntime != "" {
		if opt.NoRuntime, err = parseRule[swf.NoRuntimeRule]("no-runtime", c.NoRuntime, noRuntimeNames[:]); err != nil {
			errs = append(errs, err)
		}
	}
	if c.NoEstimate != "" {
		if opt.NoEstimate, err = parseRule[swf.NoEstimateRule]("no-estimate", c.NoEstimate, noEstimateNames[:]); err != nil {
			errs = append(errs, err)
		}
	}
	if c.Overrun != "" {
		if opt.Overrun, err = parseRule[swf.OverrunRule]("overrun", c.Overrun, overrunNames[:]); err != nil {
			errs = append(errs, err)
		}
	}
	if c.Order != "" {
		if opt.Order, err = parseRule[swf.OrderRule]("order", c.Order, orderNames[:]); err != nil {
			errs = append(errs, err)
		}
	}
	return opt, errors.Join(errs...)
}

// CleaningOf returns the Cleaning, without a preset, that describes opt.
func CleaningOf(opt swf.Options) Cleaning {
	name := func(names []string, i int) string {
		if i == 0 || i >= len(names) {
			return "" // the zero rule, or one this package does not know
		}
		return names[i]
	}
	return Cleaning{
		WholeSeconds:  opt.WholeSeconds,
		DropBadSubmit: opt.DropBadSubmit,
		DropNoSize:    opt.DropNoSize,
		DropTooWide:   opt.DropTooWide,
		MachineProcs:  opt.MachineProcs,
		NoRuntime:     name(noRuntimeNames[:], int(opt.NoRuntime)),
		UnifySize:     opt.UnifySize,
		NoEstimate:    name(noEstimateNames[:], int(opt.NoEstimate)),
		Overrun:       name(overrunNames[:], int(opt.Overrun)),
		Order:         name(orderNames[:], int(opt.Order)),
	}
}
