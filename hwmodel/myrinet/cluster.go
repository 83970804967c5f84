package myrinet

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

// Cluster is a Myrinet/FM cluster: the common preset description and the
// parameters of the bandwidth and switch models. Every field is stored in
// the preset's JSON file; Assumed and Fitted name the fields that are not
// measurements.
type Cluster struct {
	hwmodel.PresetInfo

	// ClockHz is the host CPU clock in hertz; the paper reports switch
	// times in cycles of it.
	ClockHz float64 `json:"clock_hz"`
	// NICMemoryBytes is the RAM on the network interface card in bytes.
	NICMemoryBytes int64 `json:"nic_memory_bytes"`
	// PacketBytes is the FM packet size in bytes.
	PacketBytes int `json:"packet_bytes"`
	// ReceivePackets is the host receive buffer (Br) in packets.
	ReceivePackets int `json:"receive_packets"`
	// SendPackets is the NIC send buffer (Bs) in packets.
	SendPackets int `json:"send_packets"`

	// LinkBytesPerSecond is the network link rate in bytes per second.
	LinkBytesPerSecond float64 `json:"link_bytes_per_second"`
	// NICReadBytesPerSecond is the host's read bandwidth from
	// write-combining NIC memory in bytes per second.
	NICReadBytesPerSecond float64 `json:"nic_read_bytes_per_second"`
	// NICWriteBytesPerSecond is the host's write bandwidth to
	// write-combining NIC memory in bytes per second.
	NICWriteBytesPerSecond float64 `json:"nic_write_bytes_per_second"`
	// HostCopyBytesPerSecond is the bandwidth of copying regular (host)
	// memory in bytes per second.
	HostCopyBytesPerSecond float64 `json:"host_copy_bytes_per_second"`

	// ProtocolPerNodeMicros is h, the cost in microseconds that each node
	// beyond the first adds to the halt stage, and again to the release
	// stage, of a gang switch.
	ProtocolPerNodeMicros float64 `json:"protocol_per_node_us"`

	// PacketOverheadMicros is o, the sender's per-packet cost in
	// microseconds on top of writing the packet's bytes to the NIC.
	PacketOverheadMicros float64 `json:"packet_overhead_us"`
	// OneWayLatencyMicros is the one-way latency of an empty message in
	// microseconds.
	OneWayLatencyMicros float64 `json:"one_way_latency_us"`
	// CreditReturnMicros is L, the time in microseconds from the sending of
	// the last packet of a refill batch until the refill's credits reach
	// the sender.
	CreditReturnMicros float64 `json:"credit_return_us"`
	// RefillFraction is f, the fraction of C0 a receiver consumes from one
	// sender before it sends that sender a refill message (FM's low-water
	// mark), in (0, 1].
	RefillFraction float64 `json:"refill_fraction"`

	// Assumed lists the JSON names of parameters that are neither measured
	// nor fitted (the paper does not give them).
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
		panic("myrinet: reading embedded presets: " + err.Error())
	}
	var out []Cluster
	for _, e := range entries {
		data, err := presetFiles.ReadFile(path.Join("presets", e.Name()))
		if err != nil {
			panic("myrinet: reading embedded preset: " + err.Error())
		}
		c, err := LoadPreset(bytes.NewReader(data))
		if err != nil {
			panic(fmt.Sprintf("myrinet: embedded preset %s: %v", e.Name(), err))
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Cluster) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Preset returns the embedded preset called name (e.g. "parpar").
func Preset(name string) (Cluster, error) {
	for _, c := range Presets() {
		if c.Name == name {
			return c, nil
		}
	}
	return Cluster{}, fmt.Errorf("myrinet: %w %q", ErrUnknownPreset, name)
}

// ParPar returns the "parpar" preset, the cluster of the paper.
func ParPar() Cluster {
	c, err := Preset("parpar")
	if err != nil {
		panic(err.Error())
	}
	return c
}

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of presets/parpar.json. Unknown fields are
// errors (they are most likely misspelt), and so are values the models
// cannot use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var c Cluster
	if err := dec.Decode(&c); err != nil {
		return Cluster{}, fmt.Errorf("myrinet: decoding preset: %w", err)
	}
	if err := c.Validate(); err != nil {
		return Cluster{}, err
	}
	return c, nil
}

// Validate reports the first value of c that the models cannot use.
func (c Cluster) Validate() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("myrinet: preset %q: %w: %s = %v, must be %s", c.Name, ErrInvalidPreset, field, v, want)
	}
	positive := []struct {
		name string
		v    float64
	}{
		{"nodes", float64(c.Nodes)},
		{"clock_hz", c.ClockHz},
		{"nic_memory_bytes", float64(c.NICMemoryBytes)},
		{"packet_bytes", float64(c.PacketBytes)},
		{"receive_packets", float64(c.ReceivePackets)},
		{"send_packets", float64(c.SendPackets)},
		{"link_bytes_per_second", c.LinkBytesPerSecond},
		{"nic_read_bytes_per_second", c.NICReadBytesPerSecond},
		{"nic_write_bytes_per_second", c.NICWriteBytesPerSecond},
		{"host_copy_bytes_per_second", c.HostCopyBytesPerSecond},
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
		{"protocol_per_node_us", c.ProtocolPerNodeMicros},
		{"packet_overhead_us", c.PacketOverheadMicros},
		{"one_way_latency_us", c.OneWayLatencyMicros},
		{"credit_return_us", c.CreditReturnMicros},
	}
	for _, p := range nonNegative {
		if !(p.v >= 0) || math.IsInf(p.v, 0) {
			return bad(p.name, p.v, "zero or positive")
		}
	}
	if !(c.RefillFraction > 0 && c.RefillFraction <= 1) {
		return bad("refill_fraction", c.RefillFraction, "in (0, 1]")
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
