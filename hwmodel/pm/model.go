package pm

import (
	"math"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
)

var _ hwmodel.Costs = Model{}

// Switch returns the cost of a gang switch in simulated microseconds: the
// time the application loses, Breakdown(s.Nodes, s.Occupancy).Overhead()
// (the four phases of network preemption with both channels s.Occupancy
// full, the coscheduling skew of the nodes' stops, and the per-switch
// cost outside SCore-D). s.Nodes not positive means the cluster's nodes;
// s.Jobs does not matter, since only the outgoing and the incoming
// process's channel contexts are saved and restored (hori98 4).
//
// It is the T_overhead of hori96 4.2 rather than SCore-D's own switch
// time (Breakdown.Preemption), so that a simulation charging it once per
// quantum reproduces the papers' slowdowns (see Slowdown).
func (m Model) Switch(s hwmodel.SwitchState) model.Time {
	return m.Breakdown(s.Nodes, s.Occupancy).Overhead()
}

// Message returns the one-way latency, PMLatencyMicros plus bytes at PM's
// bandwidth rounded to the microsecond (halves up), and that bandwidth in bytes per second, whatever the
// contexts: with network preemption the running process has its whole
// channel, the others' contexts being saved away (hori98 4), so jobs do
// not divide the buffers. For RWC PC Cluster II both numbers are measured
// (hori98 Table 2: 7.5 µs, 117.6 MB/s); for the SPARCstation 20 cluster
// the latency is (hori96 3.3: 24 µs) and the bandwidth is assumed.
func (m Model) Message(bytes int64, contexts int) (latency model.Time, bytesPerSecond float64) {
	c := m.Cluster
	us := c.PMLatencyMicros + float64(max(bytes, 0))/c.PMBytesPerSecond*1e6
	return model.FromSecondsFloat(math.Round(us) * 1e-6), c.PMBytesPerSecond
}

// Launch returns 0: SCore-D forks and execs the user processes and each
// opens a TCP connection to the front-end process (hori96 3), but neither
// paper times a launch, so this model does not charge one.
func (m Model) Launch(nodes int, binaryBytes int64) model.Time { return 0 }

// Slowdown returns the relative slowdown of a program that loses overhead
// per quantum of length quantum, from hori96 4.2,
//
//	T_elapsed = T_quantum / (T_quantum - T_overhead) * T_process
//
// as T_elapsed/T_process - 1 = overhead/(quantum - overhead): a fraction
// (0.09 is 9%), +Inf when the overhead fills the quantum.
func Slowdown(overhead, quantum model.Time) float64 {
	if overhead >= quantum {
		return math.Inf(1)
	}
	return float64(overhead) / float64(quantum-overhead)
}

// OverheadForSlowdown inverts Slowdown: the per-quantum overhead in
// seconds that slows a program down by slowdown (a fraction) at quantum,
// quantum slowdown/(1 + slowdown).
func OverheadForSlowdown(slowdown float64, quantum model.Time) float64 {
	return quantum.Seconds() * slowdown / (1 + slowdown)
}
