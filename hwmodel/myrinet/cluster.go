package myrinet

import (
	"embed"
	"io"
	"io/fs"

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
}

//go:embed presets/*.json
var presetFiles embed.FS

// presetDir is the package's embedded presets.
func presetDir() hwmodel.PresetDir[Cluster] {
	return hwmodel.PresetDir[Cluster]{Family: "myrinet", FS: presetFiles, Dir: "presets"}
}

// PresetFiles returns the embedded preset files, one "<name>.json" per
// preset at the root, byte for byte as they are in the source tree.
func PresetFiles() fs.FS { return presetDir().Files() }

// Presets returns the embedded presets sorted by name. It panics if an
// embedded file is broken, which the package's tests rule out.
func Presets() []Cluster { return presetDir().All() }

// Preset returns the embedded preset called name ("parpar"), or
// an error wrapping hwmodel.ErrUnknownPreset.
func Preset(name string) (Cluster, error) { return presetDir().Find(name) }

// ParPar returns the "parpar" preset, the cluster of the paper.
func ParPar() Cluster { return presetDir().Must("parpar") }

// LoadPreset reads a preset in the JSON format of the embedded files, for
// example a user-edited copy of presets/parpar.json. Unknown fields are
// errors (they are most likely misspelt), and so are values the models
// cannot use (see Validate).
func LoadPreset(r io.Reader) (Cluster, error) { return hwmodel.LoadPreset[Cluster]("myrinet", r) }

// Validate reports the first value of c that the models cannot use, as an
// error wrapping hwmodel.ErrInvalidPreset (see hwmodel.CheckPreset for the
// checks every preset gets).
func (c Cluster) Validate() error {
	ck := hwmodel.CheckPreset("myrinet", c)
	ck.Positive("clock_hz", c.ClockHz)
	ck.Positive("nic_memory_bytes", float64(c.NICMemoryBytes))
	ck.Positive("packet_bytes", float64(c.PacketBytes))
	ck.Positive("receive_packets", float64(c.ReceivePackets))
	ck.Positive("send_packets", float64(c.SendPackets))
	ck.Positive("link_bytes_per_second", c.LinkBytesPerSecond)
	ck.Positive("nic_read_bytes_per_second", c.NICReadBytesPerSecond)
	ck.Positive("nic_write_bytes_per_second", c.NICWriteBytesPerSecond)
	ck.Positive("host_copy_bytes_per_second", c.HostCopyBytesPerSecond)
	ck.NonNegative("protocol_per_node_us", c.ProtocolPerNodeMicros)
	ck.NonNegative("packet_overhead_us", c.PacketOverheadMicros)
	ck.NonNegative("one_way_latency_us", c.OneWayLatencyMicros)
	ck.NonNegative("credit_return_us", c.CreditReturnMicros)
	ck.Require(c.RefillFraction > 0 && c.RefillFraction <= 1, "refill_fraction", c.RefillFraction, "in (0, 1]")
	return ck.Err()
}
