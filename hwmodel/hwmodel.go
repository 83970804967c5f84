package hwmodel

import "github.com/gangsim/gangsim/model"

// SwitchState describes a global (gang) context switch: what the machine
// looks like when every node switches from one job to another.
type SwitchState struct {
	Nodes int // nodes taking part in the switch
	Jobs  int // jobs time-sharing the machine (the multiprogramming level)
	// Occupancy is the fraction, 0 to 1, of the NIC's communication
	// buffers holding packets in flight at the switch; buffers that must be
	// saved and restored cost in proportion.
	Occupancy float64
}

// Costs is a hardware cost model: what time sharing costs on one cluster.
// Every method is a pure function of its arguments.
type Costs interface {
	// Switch is the time the machine spends switching gangs: from the
	// moment the running job is told to stop until the next one runs.
	Switch(s SwitchState) model.Time

	// Message returns the one-way latency and the sustained bandwidth, in
	// bytes per second, of a point-to-point message of the given size
	// when contexts communication contexts (jobs) share each node's NIC.
	Message(bytes int64, contexts int) (latency model.Time, bytesPerSecond float64)

	// Launch is the time to launch a job on nodes nodes whose binary is
	// binaryBytes long, from the launch command until every process runs.
	Launch(nodes int, binaryBytes int64) model.Time
}

// PresetInfo is the common part of a preset: a named cluster from one of
// the papers, and where its numbers come from. Each model subpackage embeds
// it in its own preset type, stored as an embedded JSON data file that
// users can copy and edit.
type PresetInfo struct {
	Name        string   `json:"name"`         // e.g. "crescendo"
	Description string   `json:"description"`  // one line: the cluster and its role in the papers
	Sources     []string `json:"sources"`      // where the numbers come from: paper, table, section
	Nodes       int      `json:"nodes"`        // compute nodes
	PEsPerNode  int      `json:"pes_per_node"` // processors per node
	CPU         string   `json:"cpu"`          // e.g. "Pentium Pro 200 MHz"
	Network     string   `json:"network"`      // e.g. "Myrinet, LANai 4.3, 512 KB; Illinois Fast Messages 2.0"
	OS          string   `json:"os"`           // e.g. "BSDI"
}
