package myrinet

import (
	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

// Model is the hwmodel.Costs of a Myrinet/FM cluster time-shared by gang
// scheduling, with the buffer mode and the switch's copy variant as
// parameters.
type Model struct {
	Cluster Cluster
	// Mode says whether the jobs' contexts divide the NIC buffers
	// (original FM) or switch them at every gang switch (E&F).
	Mode Mode
	// Copy says what a BufferSwitching gang switch copies; it does not
	// matter with BufferDivision.
	Copy Copy
}

var _ hwmodel.Costs = Model{}

// Switch returns the time of a gang switch in simulated microseconds.
//
// With BufferSwitching it is the three-stage switch of E&F 3.2 (see
// Cluster.SwitchStages) on s.Nodes nodes (the cluster's nodes when
// s.Nodes is not positive) with s.Occupancy the valid fraction of the
// buffers; s.Jobs does not matter, since only the outgoing and incoming
// gangs' buffers are copied.
//
// With BufferDivision no flush or copy is needed and Switch returns 0: the
// paper measures only the buffer-switching procedure, not the SIGSTOP and
// SIGCONT of the processes themselves, which this model leaves out in both
// modes.
func (m Model) Switch(s hwmodel.SwitchState) model.Time {
	if m.Mode != BufferSwitching {
		return 0
	}
	nodes := s.Nodes
	if nodes <= 0 {
		nodes = m.Cluster.Nodes
	}
	return m.Cluster.SwitchStages(m.Copy, nodes, s.Occupancy).Total()
}

// Message returns the one-way latency and the sustained bandwidth in bytes
// per second of a point-to-point message of the given size when contexts
// jobs share each node's NIC (contexts below 1 count as 1).
//
// The bandwidth is Cluster.Bandwidth: it falls with contexts under
// BufferDivision and does not depend on contexts under BufferSwitching
// (time sharing itself is the simulator's business, not the message's).
// The latency is the one-way latency plus bytes over that bandwidth. When
// no credits are left (e.g. 8 contexts on ParPar's 16 nodes, E&F 4.1) the
// message never arrives: latency model.Never and bandwidth 0.
func (m Model) Message(bytes int64, contexts int) (latency model.Time, bytesPerSecond float64) {
	c := m.Cluster
	if c.Credits(m.Mode, contexts) <= 0 || SendSlots(m.Mode, c.SendPackets, contexts) <= 0 {
		return model.Never, 0
	}
	seconds := c.OneWayLatencyMicros * 1e-6
	if bytes <= 0 {
		return model.FromSecondsFloat(seconds), 0
	}
	bw := c.Bandwidth(m.Mode, bytes, contexts)
	return model.FromSecondsFloat(seconds + float64(bytes)/bw), bw
}

// Launch returns 0: E&F describe how ParPar launches an FM job (COMM_init_job,
// fork, a global synchronization through masterd; 3.2, Fig. 2) but give no
// time for it, so this model does not charge one. Use another package's
// launch model if the simulation needs one.
func (m Model) Launch(nodes int, binaryBytes int64) model.Time { return 0 }
