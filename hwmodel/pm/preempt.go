package pm

import (
	"fmt"
	"math/rand/v2"

	"github.com/gangsim/gangsim/model"
)

// StopMode is how the running parallel process is stopped at the end of
// its quantum.
type StopMode int

const (
	// Signal: each SCore-D process sends its user process SIGSTOP and
	// waits for the stop with wait() (hori96 3.4 step 2; hori98 4, freeze
	// phase). Each node's stop comes after a delay uniform on [0,
	// StopDelayMaxMicros] (hori96 4.2: up to 50 ms on SunOS 4.1.4).
	Signal StopMode = iota
	// Voluntary: the user's runtime yields by itself when the quantum ends
	// (hori96 4.3), the nodes' yields spread uniformly over [0,
	// YieldSkewMaxMicros], at an extra YieldMicros per switch.
	Voluntary
)

// String returns "signal" or "voluntary".
func (m StopMode) String() string {
	switch m {
	case Signal:
		return "signal"
	case Voluntary:
		return "voluntary"
	}
	return fmt.Sprintf("StopMode(%d)", int(m))
}

// TreeFanIns returns the fan-in of the widest control node at each level
// of SCore-D's control tree over nodes nodes, from the leaves up: the
// element process objects on the nodes are grouped ControlFanout at a
// time, those groups again, until one root remains (hori98 3.1, Fig. 3:
// "a hexadecimal-tree is used"). Its length is the tree's depth,
// ceil(log_F nodes) and at least 1: 16 nodes give [16], 64 give [16 4],
// 256 give [16 16]. nodes below 1 count as 1.
func (c Cluster) TreeFanIns(nodes int) []int {
	n, f := max(nodes, 1), c.ControlFanout
	var out []int
	for {
		out = append(out, min(f, n))
		n = (n + f - 1) / f
		if n <= 1 {
			return out
		}
	}
}

// TreeRoundSeconds returns the time in seconds of one broadcast down the
// control tree and one barrier back up it, which every phase of network
// preemption contains (hori98 4: "order log(N) time ... for each phase"):
//
//	2 * sum over levels of (hop + (k-1) perChild)
//
// where k is the level's fan-in (TreeFanIns): a node sends its k commands,
// and takes its k events, one after another.
func (c Cluster) TreeRoundSeconds(nodes int) float64 {
	us := 0.0
	for _, k := range c.TreeFanIns(nodes) {
		us += c.ControlHopMicros + float64(k-1)*c.ControlPerChildMicros
	}
	return 2 * us * 1e-6
}

// SteadyStateSeconds returns the time in seconds, after the user process
// has stopped, until its channel is in PM's steady state, every sent
// message acknowledged by an Ack or a Nack (hori98 3.2): the send buffer's
// messages, occupancy full, drain into the network at PM's bandwidth and
// the last one's Ack or Nack comes back one round trip later. The papers
// say only that the freeze phase grows with the channel context (hori98
// 5); the form is this model's.
func (c Cluster) SteadyStateSeconds(occupancy float64) float64 {
	_, send := c.BufferedBytes(occupancy)
	return send/c.PMBytesPerSecond + 2*c.PMLatencyMicros*1e-6
}

// ExpectedLast returns the expected largest of n independent delays
// uniform on [0, spread]: spread n/(n+1). It is how long the freeze phase
// waits for the last of n nodes to stop. n below 1 counts as 1.
func ExpectedLast(n int, spread float64) float64 {
	k := float64(max(n, 1))
	return spread * k / (k + 1)
}

// ExpectedRange returns the expected difference between the largest and
// the smallest of n independent delays uniform on [0, spread]:
// spread (n-1)/(n+1), 0 for one node. It is the coscheduling skew this
// model charges: a tightly coupled parallel process stops making progress
// when its first node stops (the others soon wait for it) and the switch
// goes on only when its last node has stopped. n below 1 counts as 1.
func ExpectedRange(n int, spread float64) float64 {
	k := float64(max(n, 1))
	return spread * (k - 1) / (k + 1)
}

// Model is the hwmodel.Costs of a PM/SCore-D cluster time-shared by gang
// scheduling with network preemption, with the way processes are stopped
// as a parameter.
type Model struct {
	Cluster Cluster
	Stop    StopMode
}

// stopSpreadMicros returns the spread in µs of the nodes' stop (Signal) or
// yield (Voluntary) times.
func (m Model) stopSpreadMicros() float64 {
	if m.Stop == Voluntary {
		return m.Cluster.YieldSkewMaxMicros
	}
	return m.Cluster.StopDelayMaxMicros
}

// Breakdown is the cost of one gang switch by part, in simulated
// microseconds. Freeze, Save, Restore and Run are the four phases of
// network preemption (hori98 4, Fig. 4; hori96 3.4 steps 1-10), each a
// broadcast and a barrier down and up the control tree plus each node's
// local work, the slowest node's stop left out:
//
//   - Freeze: FREEZE/FROZEN; stop the process (a process switch) and wait
//     for the channel's steady state (SteadyStateSeconds).
//   - Save: SAVE/STOPPED; save the outgoing channel context.
//   - Restore: RESTORE/RESTORED; restore the incoming channel context.
//   - Run: RUN/RUNNING; SIGCONT (a process switch).
type Breakdown struct {
	Freeze, Save, Restore, Run model.Time
	// StopWait is the expected time the freeze phase waits for the last
	// node to stop (Signal) or yield (Voluntary): ExpectedLast.
	StopWait model.Time
	// Skew is the expected computing time lost while the nodes stop at
	// different moments: ExpectedRange.
	Skew model.Time
	// Other is what the application loses per switch outside SCore-D's
	// phases: QuantumOverheadMicros, plus YieldMicros when Voluntary.
	Other model.Time
}

// Preemption returns Freeze + StopWait + Save + Restore: the gang
// scheduling time as SCore-D measures it (hori98 5, Fig. 5: "sum of save,
// restore and freeze times").
func (b Breakdown) Preemption() model.Time { return b.Freeze + b.StopWait + b.Save + b.Restore }

// Overhead returns Freeze + Save + Restore + Run + Skew + Other: the time
// an application loses per switch, T_overhead of hori96 4.2. The stop
// wait is not in it: a node computes until it stops, so only the skew
// between the nodes' stops is lost.
func (b Breakdown) Overhead() model.Time {
	return b.Freeze + b.Save + b.Restore + b.Run + b.Skew + b.Other
}

// parts returns the breakdown in seconds, unrounded: freeze, save,
// restore, run, stop wait, skew, other.
func (m Model) parts(nodes int, occupancy float64) [7]float64 {
	c := m.Cluster
	round := c.TreeRoundSeconds(nodes)
	proc := c.ProcessSwitchMicros * 1e-6
	spread := m.stopSpreadMicros() * 1e-6
	other := c.QuantumOverheadMicros * 1e-6
	if m.Stop == Voluntary {
		other += c.YieldMicros * 1e-6
	}
	return [7]float64{
		round + proc + c.SteadyStateSeconds(occupancy),
		round + c.SaveSeconds(occupancy),
		round + c.RestoreSeconds(occupancy),
		round + proc,
		ExpectedLast(nodes, spread),
		ExpectedRange(nodes, spread),
		other,
	}
}

// Breakdown returns the parts of one gang switch on nodes nodes (the
// cluster's nodes when nodes is not positive) whose outgoing and incoming
// channels each hold occupancy (clamped to [0, 1]) of full buffers. Each
// part is rounded to the microsecond.
func (m Model) Breakdown(nodes int, occupancy float64) Breakdown {
	if nodes <= 0 {
		nodes = m.Cluster.Nodes
	}
	p := m.parts(nodes, occupancy)
	t := func(s float64) model.Time { return model.FromSecondsFloat(s) }
	return Breakdown{
		Freeze: t(p[0]), Save: t(p[1]), Restore: t(p[2]), Run: t(p[3]),
		StopWait: t(p[4]), Skew: t(p[5]), Other: t(p[6]),
	}
}

// OverheadSeconds returns Breakdown(nodes, occupancy).Overhead() in
// seconds, unrounded; the fits use it.
func (m Model) OverheadSeconds(nodes int, occupancy float64) float64 {
	if nodes <= 0 {
		nodes = m.Cluster.Nodes
	}
	p := m.parts(nodes, occupancy)
	return p[0] + p[1] + p[2] + p[3] + p[5] + p[6]
}

// SampleStop draws the nodes' stop (or yield) delays of one switch,
// independent and uniform on [0, spread], from r and returns the largest
// (the freeze phase's wait) and the largest minus the smallest (the
// computing time lost to the skew). Their means over many draws are
// ExpectedLast and ExpectedRange; a simulation that wants the variation
// from switch to switch can use them in place of Breakdown's StopWait and
// Skew. nodes below 1 count as 1.
func (m Model) SampleStop(r *rand.Rand, nodes int) (wait, skew model.Time) {
	spread := m.stopSpreadMicros() * 1e-6
	lo, hi := spread, 0.0
	for range max(nodes, 1) {
		d := r.Float64() * spread
		lo, hi = min(lo, d), max(hi, d)
	}
	return model.FromSecondsFloat(hi), model.FromSecondsFloat(hi - lo)
}
