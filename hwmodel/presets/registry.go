package presets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// ErrUnknownVariant is wrapped by the error for a model variant that the
// preset's family does not have.
var ErrUnknownVariant = errors.New("unknown model variant")

// Family is a model family: one hwmodel subpackage, the papers it is built
// from, the variants of its cost model and its own curve kinds.
type Family struct {
	// Name is the subpackage's name and the presets' "model" field:
	// "myrinet", "pm", "qsnet" or "calypso".
	Name string
	// Papers says where the family's models come from, in a few words.
	Papers string
	// Variants are the variants of the family's cost model, the default
	// first.
	Variants []Variant
	// Kinds are the curve kinds only this family draws, in addition to
	// GenericKinds.
	Kinds []Kind

	files fs.FS
	load  func(r io.Reader) (hwmodel.Preset, error)
	costs func(c hwmodel.Preset, variant string) hwmodel.Costs
}

// Variant is one variant of a family's cost model, e.g. Myrinet's buffer
// division or buffer switching.
type Variant struct {
	Name        string // e.g. "switching-valid"
	Description string // one line, with the paper's section
}

// Families returns the four model families in the order of the papers
// (repro.Papers): myrinet, pm, qsnet, calypso.
func Families() []Family {
	return []Family{myrinetFamily(), pmFamily(), qsnetFamily(), calypsoFamily()}
}

// family returns the family called name.
func family(name string) (Family, bool) {
	for _, f := range Families() {
		if f.Name == name {
			return f, true
		}
	}
	return Family{}, false
}

// FamilyNames returns the families' names, in Families order.
func FamilyNames() []string {
	var out []string
	for _, f := range Families() {
		out = append(out, f.Name)
	}
	return out
}

// Preset is a named preset of one family: its values, read from the JSON
// in JSON, and the refill penalty its cost model charges.
type Preset struct {
	// Family is the family's name ("myrinet").
	Family string
	// Cluster is the family's preset type, myrinet.Cluster, pm.Cluster,
	// qsnet.Cluster or calypso.Cluster, for callers that need the
	// family's own models.
	Cluster hwmodel.Preset
	// JSON is the file the preset was read from, byte for byte: for an
	// embedded preset, an editable copy.
	JSON []byte
	// RefillPenalty is what Costs adds to every gang switch (see
	// hwmodel.Refill), in simulated microseconds. Get and Load set it from
	// the preset's refill_penalty_us; a caller may change it.
	RefillPenalty model.Time
}

// Info returns the preset's common description.
func (p Preset) Info() hwmodel.PresetInfo { return p.Cluster.Info() }

// Name returns the preset's name.
func (p Preset) Name() string { return p.Cluster.Info().Name }

// SHA256 returns the lower-case hex SHA-256 digest of p.JSON: which
// numbers, exactly, an output was computed from.
func (p Preset) SHA256() string {
	sum := sha256.Sum256(p.JSON)
	return hex.EncodeToString(sum[:])
}

// Machine returns the preset's machine as "NODESxPES", e.g. "64x4".
func (p Preset) Machine() string {
	info := p.Info()
	return fmt.Sprintf("%dx%d", info.Nodes, info.PEsPerNode)
}

// Costs returns the preset's cost model in the named variant of its
// family ("" for the default, the first of Family.Variants), wrapped in
// hwmodel.Refill with p.RefillPenalty. An unknown variant is an error
// wrapping ErrUnknownVariant that lists the family's.
func (p Preset) Costs(variant string) (hwmodel.Costs, error) {
	f, ok := family(p.Family)
	if !ok {
		return nil, fmt.Errorf("presets: preset %q: unknown model family %q", p.Name(), p.Family)
	}
	v, err := f.variant(variant)
	if err != nil {
		return nil, err
	}
	return hwmodel.Refill{Costs: f.costs(p.Cluster, v), Penalty: p.RefillPenalty}, nil
}

// variant resolves a variant name, "" being the default.
// DefaultVariant is the variant Costs("") charges: the family's first.
func (p Preset) DefaultVariant() string {
	f, ok := family(p.Family)
	if !ok || len(f.Variants) == 0 {
		return ""
	}
	return f.Variants[0].Name
}

func (f Family) variant(name string) (string, error) {
	if name == "" {
		return f.Variants[0].Name, nil
	}
	var names []string
	for _, v := range f.Variants {
		if v.Name == name {
			return name, nil
		}
		names = append(names, v.Name)
	}
	return "", fmt.Errorf("%w %q for %s (want %s)", ErrUnknownVariant, name, f.Name, strings.Join(names, ", "))
}

// embedded holds the embedded presets, each parsed once, sorted by name:
// a sweep resolves a preset for each of thousands of runs, and parsing
// them all on every call was a tenth of a warm sweep. It panics if an
// embedded preset is broken, which the families' tests rule out.
var embedded = sync.OnceValue(func() []Preset {
	var out []Preset
	for _, f := range Families() {
		ps, err := f.read()
		if err != nil {
			panic("presets: " + err.Error())
		}
		out = append(out, ps...)
	}
	slices.SortFunc(out, func(a, b Preset) int { return strings.Compare(a.Name(), b.Name()) })
	return out
})

// read parses every "*.json" file of the family's presets folder: each
// file there is a preset, with no list of them to keep.
func (f Family) read() ([]Preset, error) {
	files, err := fs.Glob(f.files, "*.json")
	if err != nil {
		return nil, err
	}
	var out []Preset
	for _, file := range files {
		data, err := fs.ReadFile(f.files, file)
		if err != nil {
			return nil, err
		}
		p, err := f.parse(data)
		if err != nil {
			return nil, fmt.Errorf("embedded %s: %w", file, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// own returns a copy of an embedded preset for one caller: its JSON bytes
// and refill penalty are the caller's to change. Its Cluster, a family's
// value type, is shared with every other copy, so the slices in it (its
// sources, its assumed parameters) are read-only.
func own(p Preset) Preset {
	p.JSON = slices.Clone(p.JSON)
	return p
}

// All returns every embedded preset, sorted by name (see own for what a
// caller may change).
func All() []Preset {
	var out []Preset
	for _, p := range embedded() {
		out = append(out, own(p))
	}
	return out
}

// Names returns the names of the embedded presets, sorted.
func Names() []string {
	var out []string
	for _, p := range embedded() {
		out = append(out, p.Name())
	}
	return out
}

// Get returns the embedded preset called name (see own for what a caller
// may change), or an error wrapping hwmodel.ErrUnknownPreset that lists
// the names there are.
func Get(name string) (Preset, error) {
	for _, p := range embedded() {
		if p.Name() == name {
			return own(p), nil
		}
	}
	return Preset{}, fmt.Errorf("%w %q (want one of %s)", hwmodel.ErrUnknownPreset, name, strings.Join(Names(), ", "))
}

// Load reads a preset file, e.g. an edited copy of an embedded preset's
// JSON. The rule for its family: the file's "model" field names it
// ("myrinet", "pm", "qsnet" or "calypso"), and that family's loader then
// reads the file, rejecting unknown fields and values its models cannot
// use. A file without a known "model" is an error that lists the
// families. The preset's name is the file's "name" and need not differ
// from an embedded preset's.
func Load(r io.Reader) (Preset, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Preset{}, fmt.Errorf("reading preset: %w", err)
	}
	var head struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Preset{}, fmt.Errorf("decoding preset: %w", err)
	}
	f, ok := family(head.Model)
	if !ok {
		return Preset{}, fmt.Errorf("preset's \"model\" is %q: %w: want one of %s",
			head.Model, hwmodel.ErrInvalidPreset, strings.Join(FamilyNames(), ", "))
	}
	return f.parse(data)
}

// parse reads data with the family's loader.
func (f Family) parse(data []byte) (Preset, error) {
	c, err := f.load(bytes.NewReader(data))
	if err != nil {
		return Preset{}, err
	}
	return Preset{Family: f.Name, Cluster: c, JSON: data, RefillPenalty: c.Info().RefillPenalty()}, nil
}
