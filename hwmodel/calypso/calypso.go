package calypso

import (
	"embed"
	"io"
	"io/fs"

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
}

//go:embed presets/*.json
var presetFiles embed.FS

// presetDir is the package's embedded presets.
func presetDir() hwmodel.PresetDir[Cluster] {
	return hwmodel.PresetDir[Cluster]{Family: "calypso", FS: presetFiles, Dir: "presets"}
}

// PresetFiles returns the embedded preset files, one "<name>.json" per
// preset at the root, byte for byte as they are in the source tree.
func PresetFiles() fs.FS { return presetDir().Files() }

// Presets returns the embedded presets sorted by name. It panics if an
// embedded file is broken, which the package's tests rule out.
func Presets() []Cluster { return presetDir().All() }

// Preset returns the embedded preset called name ("calypso-nt"), or
// an error wrapping hwmodel.ErrUnknownPreset.
func Preset(name string) (Cluster, error) { return presetDir().Find(name) }

// CalypsoNT returns the "calypso-nt" preset, the cluster of the paper.
func CalypsoNT() Cluster { return presetDir().Must("calypso-nt") }

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of one of them. Unknown fields are errors
// (they are most likely misspelt), and so are values the models cannot
// use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) { return hwmodel.LoadPreset[Cluster]("calypso", r) }

// Validate reports the first value of c that the models cannot use, as an
// error wrapping hwmodel.ErrInvalidPreset (see hwmodel.CheckPreset for the
// checks every preset gets).
func (c Cluster) Validate() error {
	ck := hwmodel.CheckPreset("calypso", c)
	ck.Positive("memory_bytes", float64(c.MemoryBytes))
	ck.Positive("ethernet_bits_per_second", c.EthernetBitsPerSecond)
	ck.NonNegative("switch_overhead_us", c.SwitchOverheadMicros)
	ck.NonNegative("state_bytes", float64(c.StateBytes))
	ck.NonNegative("latency_us", c.LatencyMicros)
	return ck.Err()
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
