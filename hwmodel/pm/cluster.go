package pm

import (
	"embed"
	"io"
	"io/fs"

	"github.com/gangsim/gangsim/hwmodel"
)

// Cluster is a Myrinet cluster running PM under SCore-D: the common preset
// description and the parameters of the channel, preemption and message
// models. Every field is stored in the preset's JSON file; Assumed and
// Fitted name the fields that are not measurements.
type Cluster struct {
	hwmodel.PresetInfo

	// IOBus names the host I/O bus the NIC sits on ("PCI", "S-Bus"); the
	// channel copy rates are this bus's.
	IOBus string `json:"io_bus"`

	// ReceiveBufferMessages is the number of messages a full PM receive
	// buffer holds.
	ReceiveBufferMessages int `json:"receive_buffer_messages"`
	// ReceiveBufferBytes is the size in bytes of those messages together.
	ReceiveBufferBytes int64 `json:"receive_buffer_bytes"`
	// SendBufferMessages is the number of messages a full PM send buffer
	// holds.
	SendBufferMessages int `json:"send_buffer_messages"`
	// SendBufferBytes is the size in bytes of those messages together.
	SendBufferBytes int64 `json:"send_buffer_bytes"`

	// SaveFixedMicros is the cost in microseconds of saving a channel
	// context whose buffers are empty.
	SaveFixedMicros float64 `json:"save_fixed_us"`
	// SaveReceiveBytesPerSecond is the rate in bytes per second at which
	// a save copies receive-buffer messages out.
	SaveReceiveBytesPerSecond float64 `json:"save_receive_bytes_per_second"`
	// SaveSendBytesPerSecond is the rate in bytes per second at which a
	// save copies send-buffer messages out.
	SaveSendBytesPerSecond float64 `json:"save_send_bytes_per_second"`
	// RestoreFixedMicros is the cost in microseconds of restoring a
	// channel context whose buffers are empty.
	RestoreFixedMicros float64 `json:"restore_fixed_us"`
	// RestoreReceiveBytesPerSecond is the rate in bytes per second at
	// which a restore copies receive-buffer messages back.
	RestoreReceiveBytesPerSecond float64 `json:"restore_receive_bytes_per_second"`
	// RestoreSendBytesPerSecond is the rate in bytes per second at which a
	// restore copies send-buffer messages back.
	RestoreSendBytesPerSecond float64 `json:"restore_send_bytes_per_second"`

	// PMLatencyMicros is PM's one-way latency of a minimal message in
	// microseconds.
	PMLatencyMicros float64 `json:"pm_latency_us"`
	// PMBytesPerSecond is PM's sustained point-to-point bandwidth in
	// bytes per second.
	PMBytesPerSecond float64 `json:"pm_bytes_per_second"`

	// ControlFanout is the fan-out of SCore-D's control tree (16: a
	// hexadecimal tree).
	ControlFanout int `json:"control_fanout"`
	// ControlHopMicros is the one-way time in microseconds of one SCore-D
	// command or event along one edge of the control tree.
	ControlHopMicros float64 `json:"control_hop_us"`
	// ControlPerChildMicros is the serial cost in microseconds that each
	// child beyond the first adds at a tree node, for sending it a command
	// or taking its event.
	ControlPerChildMicros float64 `json:"control_per_child_us"`
	// ProcessSwitchMicros is the cost in microseconds of stopping or
	// resuming a UNIX process (its process context switch).
	ProcessSwitchMicros float64 `json:"process_switch_us"`

	// StopDelayMaxMicros is the largest delay in microseconds between
	// SCore-D sending SIGSTOP and the process stopping; each node's delay
	// is taken as uniform on [0, StopDelayMaxMicros].
	StopDelayMaxMicros float64 `json:"stop_delay_max_us"`
	// YieldSkewMaxMicros is, under voluntary gang scheduling, the largest
	// spread in microseconds between the nodes' yields at the end of a
	// quantum; each node's lag is taken as uniform on [0,
	// YieldSkewMaxMicros].
	YieldSkewMaxMicros float64 `json:"yield_skew_max_us"`
	// YieldMicros is the extra cost in microseconds per switch of
	// voluntary gang scheduling over signals.
	YieldMicros float64 `json:"yield_us"`
	// QuantumOverheadMicros is the cost in microseconds per switch that an
	// application loses beyond SCore-D's phases and the coscheduling skew:
	// cache refill, UNIX and daemon activity.
	QuantumOverheadMicros float64 `json:"quantum_overhead_us"`
}

//go:embed presets/*.json
var presetFiles embed.FS

// presetDir is the package's embedded presets.
func presetDir() hwmodel.PresetDir[Cluster] {
	return hwmodel.PresetDir[Cluster]{Family: "pm", FS: presetFiles, Dir: "presets"}
}

// PresetFiles returns the embedded preset files, one "<name>.json" per
// preset at the root, byte for byte as they are in the source tree.
func PresetFiles() fs.FS { return presetDir().Files() }

// Presets returns the embedded presets sorted by name. It panics if an
// embedded file is broken, which the package's tests rule out.
func Presets() []Cluster { return presetDir().All() }

// Preset returns the embedded preset called name ("rwc-pc2" or "ss20"), or
// an error wrapping hwmodel.ErrUnknownPreset.
func Preset(name string) (Cluster, error) { return presetDir().Find(name) }

// RWCPC2 returns the "rwc-pc2" preset: RWC PC Cluster II, the cluster of
// Hori, Tezuka and Ishikawa 1998.
func RWCPC2() Cluster { return presetDir().Must("rwc-pc2") }

// SS20 returns the "ss20" preset: the SPARCstation 20 cluster of Hori et
// al. 1996.
func SS20() Cluster { return presetDir().Must("ss20") }

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of one of them. Unknown fields are errors
// (they are most likely misspelt), and so are values the models cannot
// use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) { return hwmodel.LoadPreset[Cluster]("pm", r) }

// Validate reports the first value of c that the models cannot use, as an
// error wrapping hwmodel.ErrInvalidPreset (see hwmodel.CheckPreset for the
// checks every preset gets).
func (c Cluster) Validate() error {
	ck := hwmodel.CheckPreset("pm", c)
	ck.Positive("receive_buffer_messages", float64(c.ReceiveBufferMessages))
	ck.Positive("receive_buffer_bytes", float64(c.ReceiveBufferBytes))
	ck.Positive("send_buffer_messages", float64(c.SendBufferMessages))
	ck.Positive("send_buffer_bytes", float64(c.SendBufferBytes))
	ck.Positive("save_receive_bytes_per_second", c.SaveReceiveBytesPerSecond)
	ck.Positive("save_send_bytes_per_second", c.SaveSendBytesPerSecond)
	ck.Positive("restore_receive_bytes_per_second", c.RestoreReceiveBytesPerSecond)
	ck.Positive("restore_send_bytes_per_second", c.RestoreSendBytesPerSecond)
	ck.Positive("pm_bytes_per_second", c.PMBytesPerSecond)
	ck.NonNegative("save_fixed_us", c.SaveFixedMicros)
	ck.NonNegative("restore_fixed_us", c.RestoreFixedMicros)
	ck.NonNegative("pm_latency_us", c.PMLatencyMicros)
	ck.NonNegative("control_hop_us", c.ControlHopMicros)
	ck.NonNegative("control_per_child_us", c.ControlPerChildMicros)
	ck.NonNegative("process_switch_us", c.ProcessSwitchMicros)
	ck.NonNegative("stop_delay_max_us", c.StopDelayMaxMicros)
	ck.NonNegative("yield_skew_max_us", c.YieldSkewMaxMicros)
	ck.NonNegative("yield_us", c.YieldMicros)
	ck.NonNegative("quantum_overhead_us", c.QuantumOverheadMicros)
	ck.Require(c.ControlFanout >= 2, "control_fanout", c.ControlFanout, "at least 2")
	return ck.Err()
}
