package hwmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"reflect"
	"slices"
	"strings"
)

// ErrUnknownPreset is returned for a preset name that no preset has.
var ErrUnknownPreset = errors.New("unknown preset")

// ErrInvalidPreset is wrapped by every error that reports a preset whose
// values a model cannot use.
var ErrInvalidPreset = errors.New("invalid preset")

// Preset is what the preset type of every model family (myrinet.Cluster,
// pm.Cluster, ...) satisfies: a struct that embeds PresetInfo, from which
// it gets Info, and can check its own values.
type Preset interface {
	// Info returns the common description of the preset.
	Info() PresetInfo
	// Validate reports the first value the family's models cannot use,
	// wrapping ErrInvalidPreset; see CheckPreset.
	Validate() error
}

// Info returns p, the common part of a preset; it is promoted to every
// family's preset type.
func (p PresetInfo) Info() PresetInfo { return p }

// DecodePreset decodes one preset in the JSON format of the embedded
// files from r into v, a pointer to a family's preset type. Unknown fields
// are errors (most likely misspelt), and so is anything but white space
// after the object. family ("myrinet") prefixes the errors. It does not
// validate the values; LoadPreset does.
func DecodePreset(family string, r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: decoding preset: %w", family, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: decoding preset: data after the preset's JSON object", family)
	}
	return nil
}

// LoadPreset reads a preset of type T (a family's preset type) with
// DecodePreset and checks it with its Validate method.
func LoadPreset[T Preset](family string, r io.Reader) (T, error) {
	var p, zero T
	if err := DecodePreset(family, r, &p); err != nil {
		return zero, err
	}
	if err := p.Validate(); err != nil {
		return zero, err
	}
	return p, nil
}

// PresetDir is a model family's presets: a directory of JSON files, one
// "<name>.json" per preset, usually embedded in the family's package so
// that users can copy and edit them. The files are read afresh at every
// call; a PresetDir holds no state.
type PresetDir[T Preset] struct {
	// Family names the model family, e.g. "myrinet"; it prefixes errors.
	Family string
	// FS holds the files, in directory Dir ("presets").
	FS  fs.FS
	Dir string
}

// Files returns the preset files, one "<name>.json" per preset at the
// root, byte for byte. It panics if Dir is not a valid path, a broken
// precondition.
func (d PresetDir[T]) Files() fs.FS {
	sub, err := fs.Sub(d.FS, d.Dir)
	if err != nil {
		panic("hwmodel: " + d.Family + " presets: " + err.Error())
	}
	return sub
}

// Read loads every "*.json" file of the directory with LoadPreset, sorted
// by preset name. A file must be named after its preset, "<name>.json", so
// that a preset's file can be found by its name.
func (d PresetDir[T]) Read() ([]T, error) {
	files := d.Files()
	names, err := fs.Glob(files, "*.json")
	if err != nil {
		return nil, fmt.Errorf("%s: listing presets: %w", d.Family, err)
	}
	var out []T
	for _, file := range names {
		data, err := fs.ReadFile(files, file)
		if err != nil {
			return nil, fmt.Errorf("%s: reading preset %s: %w", d.Family, file, err)
		}
		p, err := LoadPreset[T](d.Family, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", file, err)
		}
		if want := strings.TrimSuffix(path.Base(file), ".json"); p.Info().Name != want {
			return nil, fmt.Errorf("%s: %s: preset %q is not named after its file", d.Family, file, p.Info().Name)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b T) int { return strings.Compare(a.Info().Name, b.Info().Name) })
	return out, nil
}

// All is Read for embedded presets, which the family's tests keep valid:
// it panics on an error.
func (d PresetDir[T]) All() []T {
	ps, err := d.Read()
	if err != nil {
		panic(d.Family + ": embedded presets: " + err.Error())
	}
	return ps
}

// Find returns the preset called name, or an error wrapping
// ErrUnknownPreset that lists the names there are.
func (d PresetDir[T]) Find(name string) (T, error) {
	var names []string
	for _, p := range d.All() {
		if p.Info().Name == name {
			return p, nil
		}
		names = append(names, p.Info().Name)
	}
	var zero T
	return zero, fmt.Errorf("%s: %w %q (%s has %s)", d.Family, ErrUnknownPreset, name, d.Family, strings.Join(names, ", "))
}

// Must returns the preset called name, which the caller knows is there
// (one of the family's own presets): it panics if it is not.
func (d PresetDir[T]) Must(name string) T {
	p, err := d.Find(name)
	if err != nil {
		panic(err.Error())
	}
	return p
}

// ParamCheck validates a preset's values one by one and keeps the first
// failure, an error wrapping ErrInvalidPreset that names the family, the
// preset, the JSON field, its value and what it must be. Start one with
// CheckPreset.
type ParamCheck struct {
	family, name string
	err          error
}

// CheckPreset starts the validation of p, a family's preset type, with
// the values every preset has: a name; model equal to family; nodes and
// pes_per_node positive;
// refill_penalty_us zero or positive; and the entries of assumed and
// fitted each the JSON name of one of p's numeric parameters (in p's own
// fields or in PresetInfo). family ("myrinet") prefixes the error.
func CheckPreset(family string, p Preset) *ParamCheck {
	info := p.Info()
	ck := &ParamCheck{family: family, name: info.Name}
	ck.Require(info.Name != "", "name", `""`, "a name")
	ck.Require(info.Model == family, "model", fmt.Sprintf("%q", info.Model), fmt.Sprintf("%q", family))
	ck.Positive("nodes", float64(info.Nodes))
	ck.Positive("pes_per_node", float64(info.PEsPerNode))
	ck.NonNegative("refill_penalty_us", info.RefillPenaltyMicros)
	params := numericParams(reflect.TypeOf(p))
	for _, list := range []struct {
		field   string
		entries []string
	}{{"assumed", info.Assumed}, {"fitted", info.Fitted}} {
		for _, e := range list.entries {
			ck.Require(slices.Contains(params, e), list.field+" entry", e, "the JSON name of a numeric parameter")
		}
	}
	return ck
}

// Require records a failure unless ok: field = value, which must be want.
func (ck *ParamCheck) Require(ok bool, field string, value any, want string) {
	if !ok && ck.err == nil {
		ck.err = fmt.Errorf("%s: preset %q: %w: %s = %v, must be %s", ck.family, ck.name, ErrInvalidPreset, field, value, want)
	}
}

// Positive requires v to be finite and above zero.
func (ck *ParamCheck) Positive(field string, v float64) {
	ck.Require(v > 0 && !math.IsInf(v, 0), field, v, "positive")
}

// NonNegative requires v to be finite and not below zero.
func (ck *ParamCheck) NonNegative(field string, v float64) {
	ck.Require(v >= 0 && !math.IsInf(v, 0), field, v, "zero or positive")
}

// Err returns the first failure, or nil.
func (ck *ParamCheck) Err() error { return ck.err }

// numericParams returns the JSON names of the integer and floating-point
// fields of struct type t, those of embedded structs included.
func numericParams(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	if t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, numericParams(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			if name != "" && name != "-" {
				out = append(out, name)
			}
		}
	}
	return out
}
