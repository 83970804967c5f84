package pm

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

	// Assumed lists the JSON names of parameters that are neither measured
	// nor fitted (the papers do not give them).
	Assumed []string `json:"assumed"`
	// Fitted lists the JSON names of parameters fitted to the papers'
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
		panic("pm: reading embedded presets: " + err.Error())
	}
	var out []Cluster
	for _, e := range entries {
		data, err := presetFiles.ReadFile(path.Join("presets", e.Name()))
		if err != nil {
			panic("pm: reading embedded preset: " + err.Error())
		}
		c, err := LoadPreset(bytes.NewReader(data))
		if err != nil {
			panic(fmt.Sprintf("pm: embedded preset %s: %v", e.Name(), err))
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Cluster) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Preset returns the embedded preset called name ("rwc-pc2" or "ss20").
func Preset(name string) (Cluster, error) {
	for _, c := range Presets() {
		if c.Name == name {
			return c, nil
		}
	}
	return Cluster{}, fmt.Errorf("pm: %w %q", ErrUnknownPreset, name)
}

// RWCPC2 returns the "rwc-pc2" preset: RWC PC Cluster II, the cluster of
// Hori, Tezuka and Ishikawa 1998.
func RWCPC2() Cluster { return mustPreset("rwc-pc2") }

// SS20 returns the "ss20" preset: the SPARCstation 20 cluster of Hori et
// al. 1996.
func SS20() Cluster { return mustPreset("ss20") }

func mustPreset(name string) Cluster {
	c, err := Preset(name)
	if err != nil {
		panic(err.Error())
	}
	return c
}

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of presets/ss20.json. Unknown fields are
// errors (they are most likely misspelt), and so are values the models
// cannot use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var c Cluster
	if err := dec.Decode(&c); err != nil {
		return Cluster{}, fmt.Errorf("pm: decoding preset: %w", err)
	}
	if err := c.Validate(); err != nil {
		return Cluster{}, err
	}
	return c, nil
}

// Validate reports the first value of c that the models cannot use.
func (c Cluster) Validate() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("pm: preset %q: %w: %s = %v, must be %s", c.Name, ErrInvalidPreset, field, v, want)
	}
	positive := []struct {
		name string
		v    float64
	}{
		{"nodes", float64(c.Nodes)},
		{"receive_buffer_messages", float64(c.ReceiveBufferMessages)},
		{"receive_buffer_bytes", float64(c.ReceiveBufferBytes)},
		{"send_buffer_messages", float64(c.SendBufferMessages)},
		{"send_buffer_bytes", float64(c.SendBufferBytes)},
		{"save_receive_bytes_per_second", c.SaveReceiveBytesPerSecond},
		{"save_send_bytes_per_second", c.SaveSendBytesPerSecond},
		{"restore_receive_bytes_per_second", c.RestoreReceiveBytesPerSecond},
		{"restore_send_bytes_per_second", c.RestoreSendBytesPerSecond},
		{"pm_bytes_per_second", c.PMBytesPerSecond},
	}
	for _, p := range positive {
		if !(p.v > 0) || math.IsInf(p.v, 0) {
			return bad(p.name, p.v, "positive")
		}
	}
	nonNegative := []struct {
		name string
		v    float64
	}{
		{"save_fixed_us", c.SaveFixedMicros},
		{"restore_fixed_us", c.RestoreFixedMicros},
		{"pm_latency_us", c.PMLatencyMicros},
		{"control_hop_us", c.ControlHopMicros},
		{"control_per_child_us", c.ControlPerChildMicros},
		{"process_switch_us", c.ProcessSwitchMicros},
		{"stop_delay_max_us", c.StopDelayMaxMicros},
		{"yield_skew_max_us", c.YieldSkewMaxMicros},
		{"yield_us", c.YieldMicros},
		{"quantum_overhead_us", c.QuantumOverheadMicros},
	}
	for _, p := range nonNegative {
		if !(p.v >= 0) || math.IsInf(p.v, 0) {
			return bad(p.name, p.v, "zero or positive")
		}
	}
	if c.ControlFanout < 2 {
		return bad("control_fanout", c.ControlFanout, "at least 2")
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
