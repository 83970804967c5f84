package presets

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// ErrUnknownKind is wrapped by the error for a curve kind that a preset's
// family does not draw.
var ErrUnknownKind = errors.New("unknown curve kind")

// ErrParams is wrapped by the errors for curve parameters out of range,
// given to a kind that does not take them, or given several values where
// the kind takes one.
var ErrParams = errors.New("invalid curve parameters")

// The names of the curve parameters, spelt as the command-line flags of
// "replay hw curve" and as the manifest records them.
const (
	ParamVariant       = "variant"        // Params.Variant
	ParamRefillPenalty = "refill-penalty" // Preset.RefillPenalty
	ParamNodes         = "nodes"          // Params.Nodes
	ParamBytes         = "bytes"          // Params.Bytes
	ParamContexts      = "contexts"       // Params.Contexts
	ParamOccupancy     = "occupancy"      // Params.Occupancy
	ParamQuantum       = "quantum"        // Params.Quanta
	ParamBinaryBytes   = "binary-bytes"   // Params.BinaryBytes
	ParamCables        = "cables"         // Params.Cables
	ParamPackets       = "packets"        // Params.Packets
	ParamJobs          = "jobs"           // Params.Jobs
)

// Params are the values a curve is evaluated at. A zero field takes the
// kind's default for the preset (Kind.Resolve); a kind reads only the
// fields it uses (Kind.Uses), and setting another is an error.
type Params struct {
	// Variant is the family's model variant, "" for its default.
	Variant string
	// Nodes are node counts, each at least 1.
	Nodes []int
	// Bytes are message sizes in bytes, each at least 0.
	Bytes []int64
	// Contexts are the communication contexts sharing each NIC (the jobs
	// time-sharing the machine), each at least 1.
	Contexts []int
	// Occupancy are fractions, 0 to 1, of the NIC buffers holding messages
	// at a switch.
	Occupancy []float64
	// Quanta are gang-scheduling quanta (time slices), each positive.
	Quanta []model.Time
	// BinaryBytes are the sizes in bytes of a launched job's binary, each
	// at least 0.
	BinaryBytes []int64
	// Cables are cable lengths in meters, each at least 0.
	Cables []float64
	// Packets are valid packets in a buffer, each at least 0.
	Packets []int
	// Jobs is the multiprogramming level of a switch
	// (hwmodel.SwitchState.Jobs), at least 1; 0 takes the default.
	Jobs int
}

// Kind is a kind of curve a preset's models draw, e.g. the switch time
// against nodes.
type Kind struct {
	// Name is how the command names it, e.g. "switch".
	Name string
	// Description says what it plots, in one line, with the papers'
	// figure or table.
	Description string
	// Uses lists the parameters the kind reads (the Param* names), in the
	// order they are described.
	Uses []string
	// Single lists those of Uses that take one value rather than a list.
	Single []string

	defaults func(p Preset) Params
	draw     func(p Preset, a Params) (hwmodel.Curve, error)
}

// Takes reports whether the kind reads the named parameter.
func (k Kind) Takes(param string) bool { return slices.Contains(k.Uses, param) }

// Kinds returns the curve kinds p's models draw: GenericKinds, then its
// family's own.
func (p Preset) Kinds() []Kind {
	f, _ := family(p.Family)
	return append(GenericKinds(), f.Kinds...)
}

// Kind returns the kind called name among p.Kinds, or an error wrapping
// ErrUnknownKind that lists them.
func (p Preset) Kind(name string) (Kind, error) {
	var names []string
	for _, k := range p.Kinds() {
		if k.Name == name {
			return k, nil
		}
		names = append(names, k.Name)
	}
	return Kind{}, fmt.Errorf("%w %q for %s (a %s preset): want one of %s", ErrUnknownKind, name, p.Name(), p.Family, strings.Join(names, ", "))
}

// Curve draws the kind called name for p with a (see Kind.Curve).
func (p Preset) Curve(name string, a Params) (hwmodel.Curve, error) {
	k, err := p.Kind(name)
	if err != nil {
		return hwmodel.Curve{}, err
	}
	return k.Curve(p, a)
}

// Curve draws the kind for p at a's values, the fields left zero taking
// their defaults (Resolve).
func (k Kind) Curve(p Preset, a Params) (hwmodel.Curve, error) {
	a, err := k.Resolve(p, a)
	if err != nil {
		return hwmodel.Curve{}, err
	}
	return k.draw(p, a)
}

// Resolve returns a with every parameter the kind uses and a leaves zero
// set to its default for p, after checking a: a parameter the kind does not
// use must be zero, a single-valued one must have one value, and every
// value must be in range (see Params). Errors wrap ErrParams, or
// ErrUnknownVariant for a variant p's family does not have.
func (k Kind) Resolve(p Preset, a Params) (Params, error) {
	bad := func(format string, args ...any) (Params, error) {
		return Params{}, fmt.Errorf("curve %s: %w: %s", k.Name, ErrParams, fmt.Sprintf(format, args...))
	}
	d := k.defaults(p)
	for _, f := range paramFields(&a, &d) {
		if !f.set() {
			if k.Takes(f.name) {
				f.fill()
			}
			continue
		}
		if !k.Takes(f.name) {
			return bad("%s does not take --%s (it takes %s)", k.Name, f.name, k.usesText())
		}
		if slices.Contains(k.Single, f.name) && f.count() != 1 {
			return bad("--%s takes one value, got %d", f.name, f.count())
		}
		if msg := f.check(); msg != "" {
			return bad("--%s: %s", f.name, msg)
		}
	}
	if k.Takes(ParamVariant) {
		fam, _ := family(p.Family)
		v, err := fam.variant(a.Variant)
		if err != nil {
			return Params{}, fmt.Errorf("curve %s: %w", k.Name, err)
		}
		a.Variant = v
	}
	return a, nil
}

// usesText lists the kind's parameters as flags.
func (k Kind) usesText() string {
	if len(k.Uses) == 0 {
		return "no parameters"
	}
	var out []string
	for _, u := range k.Uses {
		out = append(out, "--"+u)
	}
	return strings.Join(out, ", ")
}

// ManifestParams returns the parameters the kind uses, as they are in a
// (resolved by Resolve) and p (the refill penalty), formatted as the flags
// take them, for a manifest: {"nodes", "1,2,4"}, {"quantum",
// "0.05s,0.1s"}, {"refill-penalty", "0s"}.
func (k Kind) ManifestParams(p Preset, a Params) []model.Param {
	var out []model.Param
	if k.Takes(ParamRefillPenalty) {
		out = append(out, model.Param{Name: ParamRefillPenalty, Value: p.RefillPenalty.String()})
	}
	for _, f := range paramFields(&a, &Params{}) {
		if k.Takes(f.name) {
			out = append(out, model.Param{Name: f.name, Value: f.format()})
		}
	}
	return out
}

// paramField binds one parameter of a Params to its default in another.
type paramField struct {
	name   string
	set    func() bool
	fill   func()
	count  func() int
	check  func() string // "" when every value is in range
	format func() string
}

// paramFields returns the parameters of a, each bound to its default in d.
// The variant is checked by Resolve against the family instead.
func paramFields(a, d *Params) []paramField {
	return []paramField{
		{ParamVariant, func() bool { return a.Variant != "" }, func() { a.Variant = d.Variant },
			func() int { return 1 }, func() string { return "" }, func() string { return a.Variant }},
		listField(ParamNodes, &a.Nodes, d.Nodes, func(v int) bool { return v >= 1 }, "at least 1", strconv.Itoa),
		listField(ParamBytes, &a.Bytes, d.Bytes, func(v int64) bool { return v >= 0 }, "at least 0", formatInt64),
		listField(ParamContexts, &a.Contexts, d.Contexts, func(v int) bool { return v >= 1 }, "at least 1", strconv.Itoa),
		listField(ParamOccupancy, &a.Occupancy, d.Occupancy, func(v float64) bool { return v >= 0 && v <= 1 }, "from 0 to 1", formatFloat),
		listField(ParamQuantum, &a.Quanta, d.Quanta, func(v model.Time) bool { return v > 0 }, "positive", model.Time.String),
		listField(ParamBinaryBytes, &a.BinaryBytes, d.BinaryBytes, func(v int64) bool { return v >= 0 }, "at least 0", formatInt64),
		listField(ParamCables, &a.Cables, d.Cables, func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }, "at least 0", formatFloat),
		listField(ParamPackets, &a.Packets, d.Packets, func(v int) bool { return v >= 0 }, "at least 0", strconv.Itoa),
		{ParamJobs, func() bool { return a.Jobs != 0 }, func() { a.Jobs = d.Jobs }, func() int { return 1 },
			func() string {
				if a.Jobs < 1 {
					return fmt.Sprintf("%d is not at least 1", a.Jobs)
				}
				return ""
			},
			func() string { return strconv.Itoa(a.Jobs) }},
	}
}

func listField[T any](name string, list *[]T, def []T, ok func(T) bool, want string, format func(T) string) paramField {
	return paramField{
		name:  name,
		set:   func() bool { return len(*list) > 0 },
		fill:  func() { *list = slices.Clone(def) },
		count: func() int { return len(*list) },
		check: func() string {
			for _, v := range *list {
				if !ok(v) {
					return fmt.Sprintf("%s is not %s", format(v), want)
				}
			}
			return ""
		},
		format: func() string {
			var out []string
			for _, v := range *list {
				out = append(out, format(v))
			}
			return strings.Join(out, ",")
		},
	}
}

func formatInt64(v int64) string        { return strconv.FormatInt(v, 10) }
func formatFloat(v float64) string      { return strconv.FormatFloat(v, 'g', -1, 64) }
func microseconds(t model.Time) float64 { return timeIn(t, model.Microsecond) }
func milliseconds(t model.Time) float64 { return timeIn(t, model.Millisecond) }

// timeIn converts t to a number of units, with model.Never as +Inf.
func timeIn(t, unit model.Time) float64 {
	if t == model.Never {
		return math.Inf(1)
	}
	return float64(t) / float64(unit)
}

// NodesUpTo returns the powers of 2 from 1 up to n, and n itself when it
// is not one: the default node counts of a preset of n nodes.
func NodesUpTo(n int) []int {
	out := []int{1}
	for k := 2; k <= n; k *= 2 {
		out = append(out, k)
	}
	if out[len(out)-1] != n && n > 1 {
		out = append(out, n)
	}
	return out
}

// DefaultMessageSizes returns the message sizes of the generic latency and
// bandwidth curves: 16 B to 1 MiB by factors of 4.
func DefaultMessageSizes() []int64 {
	var out []int64
	for b := int64(16); b <= 1<<20; b *= 4 {
		out = append(out, b)
	}
	return out
}

// DefaultBinaryBytes is the binary size of the generic launch curve: the
// 12 MB (2^20 bytes) binary of Frachtenberg's launch measurements (thesis
// 4.3.1.1, p. 38).
const DefaultBinaryBytes = 12 << 20

// GenericKinds returns the curve kinds every preset draws, through its
// cost model (Preset.Costs with the variant and the refill penalty):
// switch, latency, bandwidth and launch.
func GenericKinds() []Kind {
	messages := func(yLabel string, y func(latency model.Time, bytesPerSecond float64) float64) func(hwmodel.Costs, Params) hwmodel.Curve {
		return func(m hwmodel.Costs, a Params) hwmodel.Curve {
			cv := hwmodel.Curve{XLabel: "bytes", YLabel: yLabel}
			for _, n := range a.Contexts {
				s := hwmodel.Series{Label: "contexts=" + strconv.Itoa(n)}
				for _, b := range a.Bytes {
					s.Add(float64(b), y(m.Message(b, n)))
				}
				cv.Series = append(cv.Series, s)
			}
			return cv
		}
	}
	return []Kind{
		costsKind("switch",
			"gang switch time (Costs.Switch) in us against nodes, one series per buffer occupancy",
			[]string{ParamRefillPenalty, ParamNodes, ParamOccupancy, ParamJobs}, []string{ParamJobs},
			func(m hwmodel.Costs, a Params) hwmodel.Curve {
				cv := hwmodel.Curve{XLabel: "nodes", YLabel: "us"}
				for _, o := range a.Occupancy {
					s := hwmodel.Series{Label: "occupancy=" + formatFloat(o)}
					for _, n := range a.Nodes {
						s.Add(float64(n), microseconds(m.Switch(hwmodel.SwitchState{Nodes: n, Jobs: a.Jobs, Occupancy: o})))
					}
					cv.Series = append(cv.Series, s)
				}
				return cv
			}),
		costsKind("latency",
			"one-way message latency (Costs.Message) in us against message size, one series per contexts sharing the NIC (+Inf: never delivered)",
			[]string{ParamBytes, ParamContexts}, nil,
			messages("us", func(latency model.Time, _ float64) float64 { return microseconds(latency) })),
		costsKind("bandwidth",
			"sustained point-to-point bandwidth (Costs.Message) in MB/s (1e6 B/s) against message size, one series per contexts sharing the NIC (E&F Fig. 5 with myrinet's division variant)",
			[]string{ParamBytes, ParamContexts}, nil,
			messages("MB/s", func(_ model.Time, bytesPerSecond float64) float64 { return bytesPerSecond / 1e6 })),
		costsKind("launch",
			"job launch time (Costs.Launch) in ms against nodes, one series per binary size (0 for the families whose papers time no launch)",
			[]string{ParamNodes, ParamBinaryBytes}, nil,
			func(m hwmodel.Costs, a Params) hwmodel.Curve {
				cv := hwmodel.Curve{XLabel: "nodes", YLabel: "ms"}
				for _, b := range a.BinaryBytes {
					s := hwmodel.Series{Label: "binary_bytes=" + formatInt64(b)}
					for _, n := range a.Nodes {
						s.Add(float64(n), milliseconds(m.Launch(n, b)))
					}
					cv.Series = append(cv.Series, s)
				}
				return cv
			}),
	}
}

// costsKind is a kind drawn through the preset's cost model in the chosen
// variant: draw gets the model and the resolved parameters, and the curve
// is named "<kind>-<preset>-<variant>". uses lists the parameters besides
// the variant.
func costsKind(name, description string, uses, single []string, draw func(m hwmodel.Costs, a Params) hwmodel.Curve) Kind {
	return Kind{
		Name:        name,
		Description: description,
		Uses:        append([]string{ParamVariant}, uses...),
		Single:      single,
		defaults: func(p Preset) Params {
			return Params{
				Nodes: NodesUpTo(p.Info().Nodes), Occupancy: []float64{0, 1}, Jobs: 2,
				Bytes: DefaultMessageSizes(), Contexts: []int{1, 2, 4, 8}, BinaryBytes: []int64{DefaultBinaryBytes},
			}
		},
		draw: func(p Preset, a Params) (hwmodel.Curve, error) {
			m, err := p.Costs(a.Variant)
			if err != nil {
				return hwmodel.Curve{}, err
			}
			cv := draw(m, a)
			cv.Name = name + "-" + p.Name() + "-" + a.Variant
			return cv, nil
		},
	}
}
