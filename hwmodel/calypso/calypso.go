package calypso

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Cluster is a workstation cluster running Calypso: the common preset
// description and the parameters of the switch and message models.
// Assumed and Fitted name the fields that are not measurements.
type Cluster struct {
	hwmodel.PresetInfo

	// MemoryBytes is each machine's memory in bytes.
	MemoryBytes int64 `json:"memory_bytes"`
	// EthernetBitsPerSecond is the nominal network rate in bits per second.
	EthernetBitsPerSecond float64 `json:"ethernet_bits_per_second"`
	// SwitchOverheadMicros is S0, the fixed cost of a distributed context
	// switch in microseconds.
	SwitchOverheadMicros float64 `json:"switch_overhead_us"`
	// StateBytes is the task state, in bytes, that a switch copies over the
	// network on top of S0.
	StateBytes int64 `json:"state_bytes"`
	// LatencyMicros is the one-way latency of an empty message in
	// microseconds.
	LatencyMicros float64 `json:"latency_us"`

	// Assumed lists the JSON names of parameters the paper does not give.
	Assumed []string `json:"assumed"`
	// Fitted lists the JSON names of parameters fitted to the paper's
	// numbers.
	Fitted []string `json:"fitted"`
}

// ErrUnknownPreset is returned by Preset for a name no preset has.
var ErrUnknownPreset = errors.New("unknown preset")

// ErrInvalidPreset is wrapped by every error that reports a preset whose
// values cannot be used.
var ErrInvalidPreset = errors.New("invalid preset")

//go:embed presets/*.json
var presetFiles embed.FS

// Presets returns the embedded presets sorted by name. It panics if an
// embedded file is broken, which the package's tests rule out.
func Presets() []Cluster {
	entries, err := presetFiles.ReadDir("presets")
	if err != nil {
		panic("calypso: reading embedded presets: " + err.Error())
	}
	var out []Cluster
	for _, e := range entries {
		data, err := presetFiles.ReadFile(path.Join("presets", e.Name()))
		if err != nil {
			panic("calypso: reading embedded preset: " + err.Error())
		}
		c, err := LoadPreset(bytes.NewReader(data))
		if err != nil {
			panic(fmt.Sprintf("calypso: embedded preset %s: %v", e.Name(), err))
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Cluster) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Preset returns the embedded preset called name (e.g. "calypso-nt").
func Preset(name string) (Cluster, error) {
	for _, c := range Presets() {
		if c.Name == name {
			return c, nil
		}
	}
	return Cluster{}, fmt.Errorf("calypso: %w %q", ErrUnknownPreset, name)
}

// CalypsoNT returns the "calypso-nt" preset, the cluster of the paper.
func CalypsoNT() Cluster {
	c, err := Preset("calypso-nt")
	if err != nil {
		panic(err.Error())
	}
	return c
}

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of presets/calypso-nt.json. Unknown fields
// are errors (they are most likely misspelt), and so are values the model
// cannot use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var c Cluster
	if err := dec.Decode(&c); err != nil {
		return Cluster{}, fmt.Errorf("calypso: decoding preset: %w", err)
	}
	if err := c.Validate(); err != nil {
		return Cluster{}, err
	}
	return c, nil
}

// Validate reports the first value of c that the model cannot use.
func (c Cluster) Validate() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("calypso: preset %q: %w: %s = %v, must be %s", c.Name, ErrInvalidPreset, field, v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case c.Nodes <= 0:
		return bad("nodes", c.Nodes, "positive")
	case c.MemoryBytes <= 0:
		return bad("memory_bytes", c.MemoryBytes, "positive")
	case !(c.EthernetBitsPerSecond > 0) || !finite(c.EthernetBitsPerSecond):
		return bad("ethernet_bits_per_second", c.EthernetBitsPerSecond, "positive")
	case !(c.SwitchOverheadMicros >= 0) || !finite(c.SwitchOverheadMicros):
		return bad("switch_overhead_us", c.SwitchOverheadMicros, "zero or positive")
	case c.StateBytes < 0:
		return bad("state_bytes", c.StateBytes, "zero or positive")
	case !(c.LatencyMicros >= 0) || !finite(c.LatencyMicros):
		return bad("latency_us", c.LatencyMicros, "zero or positive")
	}
	fields := jsonFields()
	for _, list := range [][]string{c.Assumed, c.Fitted} {
		for _, f := range list {
			if !slices.Contains(fields, f) {
				return bad("assumed/fitted entry", f, "the JSON name of a parameter")
			}
		}
	}
	return nil
}

// jsonFields returns the JSON names of Cluster's own (non-PresetInfo)
// fields.
func jsonFields() []string {
	t := reflect.TypeFor[Cluster]()
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// BytesPerSecond returns the network rate in bytes per second.
func (c Cluster) BytesPerSecond() float64 { return c.EthernetBitsPerSecond / 8 }

// SwitchSeconds returns the cost of one distributed context switch in
// seconds: S0 + StateBytes / BytesPerSecond.
func (c Cluster) SwitchSeconds() float64 {
	return c.SwitchOverheadMicros*1e-6 + float64(c.StateBytes)/c.BytesPerSecond()
}

var _ hwmodel.Costs = Cluster{}

// Switch returns the cost of a gang switch in simulated microseconds:
// SwitchSeconds, whatever the state's nodes, jobs and occupancy (the
// paper's estimates count one switch per quantum for the whole machine,
// M&D 5.2 Result C, and Calypso has no NIC buffers to save).
func (c Cluster) Switch(s hwmodel.SwitchState) model.Time {
	return model.FromSecondsFloat(c.SwitchSeconds())
}

// Message returns the one-way latency, LatencyMicros plus bytes at the
// network rate, and the network rate in bytes per second, whatever the
// contexts: Ethernet has no per-context buffers to divide. The rate is the
// nominal 100 Mb/s of M&D 5.2, not a measured throughput; the paper times
// no messages (Calypso tasks do not communicate, M&D 1.4).
func (c Cluster) Message(bytes int64, contexts int) (latency model.Time, bytesPerSecond float64) {
	bw := c.BytesPerSecond()
	return model.FromSecondsFloat(c.LatencyMicros*1e-6 + float64(max(bytes, 0))/bw), bw
}

// Launch returns 0: the Calypso manager spawns a worker process on each
// willing machine (M&D 5.1) but the paper does not time it, so this model
// does not charge one.
func (c Cluster) Launch(nodes int, binaryBytes int64) model.Time { return 0 }
