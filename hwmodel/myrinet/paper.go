package myrinet

import "github.com/gangsim/gangsim/model"

// Fig6Quantum is the gang-scheduling quantum of the buffer-switching
// bandwidth runs, 3 s (E&F 4.1).
const Fig6Quantum = 3 * model.Second

// FullSwitchBound is the paper's bound on a gang switch that copies the
// whole buffers, 85 ms = 17,000,000 cycles at 200 MHz (E&F 4.2).
const FullSwitchBound = 85 * model.Millisecond

// ValidSwitchBound is the paper's bound on a gang switch that copies only
// the valid packets, 12.5 ms = 2,500,000 cycles at 200 MHz (E&F 4.2).
const ValidSwitchBound = 12500 * model.Microsecond

// PaperNodes is the number of compute nodes of the paper's measurements,
// the 16 columns of ParPar's gang matrix (E&F 2.1).
const PaperNodes = 16

// MessageSizes returns the message sizes, in bytes, at which Fig5 and Fig6
// evaluate the model: 16 B to 64 KB by factors of 4 (the figures' own
// sizes are not in the text).
func MessageSizes() []int64 { return []int64{16, 64, 256, 1024, 4096, 16384, 65536} }

// FigContexts returns the numbers of contexts (Fig. 5) and jobs (Fig. 6)
// at which the model is evaluated: 1, 2, 4 and 8, the last being the
// count at which E&F 4.1 report that no communication is possible.
func FigContexts() []int { return []int{1, 2, 4, 8} }

// TotalBandwidth returns the machine's total bandwidth, in bytes per
// second, as E&F 4.1 measure it for Fig. 6: jobs point-to-point benchmarks
// gang-scheduled round robin with the given quantum under
// BufferSwitching, the average bandwidth of each multiplied by jobs. Each
// job runs quantum out of every jobs (quantum + switch), so the total is
// Bandwidth * quantum/(quantum + switch), switch being the gang switch on
// the cluster's nodes; one job is never switched and gets the full
// bandwidth.
func TotalBandwidth(c Cluster, variant Copy, occupancy float64, bytes int64, jobs int, quantum model.Time) float64 {
	bw := c.Bandwidth(BufferSwitching, bytes, jobs)
	if jobs <= 1 {
		return bw
	}
	sw := c.SwitchStages(variant, c.Nodes, occupancy).Total()
	return bw * quantum.Seconds() / (quantum + sw).Seconds()
}

// InferredValidPackets returns the receive-buffer packets that a CopyValid
// switch on nodes nodes can copy within bound once the halt and release
// stages are paid, with the send buffer empty. Taking the paper's 12.5 ms
// bound as the Fig. 9 value at 16 nodes, this is the valid packet count of
// Fig. 8 at 16 nodes that the text does not state: 98.2 for ParPar.
func InferredValidPackets(c Cluster, bound model.Time, nodes int) float64 {
	return (bound.Seconds() - 2*c.ProtocolSeconds(nodes)) / c.ReceivePacketCopySeconds()
}
