package myrinet

import (
	"strconv"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
)

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

// Items returns the reproductions of the paper for the ParPar preset:
// etsion/fig-5, etsion/fig-6 and etsion/switch-cost.
func Items() []repro.Item {
	c := ParPar()
	return []repro.Item{Fig5(c), Fig6(c), SwitchCost(c)}
}

func coord(name string, v int64) repro.Coord {
	return repro.Coord{Name: name, Value: strconv.FormatInt(v, 10)}
}

// Fig5 reproduces E&F Fig. 5: the point-to-point bandwidth in MB/s (1e6
// bytes per second) under FM's buffer division, by contexts and message
// size. The figure is missing from the text; the one value the text
// states, no communication at 8 contexts (E&F 4.1), is the Paper value of
// the contexts=8 rows (exact).
func Fig5(c Cluster) repro.Item {
	it := repro.Item{
		Paper: "etsion",
		Name:  "fig-5",
		Title: "Fig. 5: FM bandwidth by message size and contexts, original buffer division (model; figure values not in the text except zero at 8 contexts, 4.1)",
		Unit:  "MB/s",
	}
	for _, n := range FigContexts() {
		for _, size := range MessageSizes() {
			r := repro.Row{
				Coords:  []repro.Coord{coord("contexts", int64(n)), coord("bytes", size)},
				Gangsim: c.Bandwidth(BufferDivision, size, n) / 1e6,
			}
			if n == 8 {
				r.HasPaper, r.Paper, r.Tolerance = true, 0, 0
			}
			it.Rows = append(it.Rows, r)
		}
	}
	return it
}

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

// Fig6 reproduces E&F Fig. 6: the total bandwidth in MB/s (1e6 bytes per
// second) with buffer switching, by jobs and message size, with the 3 s
// quantum of the measurement and the full-copy switch (the text does not
// say which copy variant the runs used; full copy is the costlier). The
// figure's values are not in the text; it states only that the total is
// independent of the number of jobs (E&F 4.1), which the tests check.
func Fig6(c Cluster) repro.Item {
	it := repro.Item{
		Paper: "etsion",
		Name:  "fig-6",
		Title: "Fig. 6: total bandwidth by message size and jobs, gang scheduling with buffer switching, 3 s quantum, full-copy switch (model; figure values not in the text)",
		Unit:  "MB/s",
	}
	for _, n := range FigContexts() {
		for _, size := range MessageSizes() {
			it.Rows = append(it.Rows, repro.Row{
				Coords:  []repro.Coord{coord("jobs", int64(n)), coord("bytes", size)},
				Gangsim: TotalBandwidth(c, CopyFull, 1, size, n, Fig6Quantum) / 1e6,
			})
		}
	}
	return it
}

// InferredValidPackets returns the receive-buffer packets that a CopyValid
// switch on nodes nodes can copy within bound once the halt and release
// stages are paid, with the send buffer empty. Taking the paper's 12.5 ms
// bound as the Fig. 9 value at 16 nodes, this is the valid packet count of
// Fig. 8 at 16 nodes that the text does not state: 98.2 for ParPar.
func InferredValidPackets(c Cluster, bound model.Time, nodes int) float64 {
	return (bound.Seconds() - 2*c.ProtocolSeconds(nodes)) / c.ReceivePacketCopySeconds()
}

// SwitchCost reproduces the switch-cost results of E&F 4.2 (Figs. 7-9) in
// milliseconds:
//
//   - copy=full: each stage and the total by nodes (Fig. 7). The total at
//     16 nodes has the paper's 85 ms as Paper value; it is the fit point
//     of protocol_per_node_us, so it agrees by construction.
//   - copy=valid: each stage and the total by nodes (Fig. 9), with the
//     send buffer empty and the valid receive packets growing linearly
//     with nodes (E&F 4.2: the send buffer does not fill, the receive
//     buffer fills with all-to-all traffic, copy time grows linearly) from
//     0 at one node to InferredValidPackets at 16. The total at 16 nodes
//     has the paper's 12.5 ms as Paper value; it too is a fit point.
//   - swap stage by valid receive packets (Fig. 9's linear growth).
func SwitchCost(c Cluster) repro.Item {
	it := repro.Item{
		Paper: "etsion",
		Name:  "switch-cost",
		Title: "Switch cost by stage (4.2, Figs. 7-9): full copy vs valid packets only, by nodes and by valid packets (paper: < 85 ms full, < 12.5 ms valid only, at 16 nodes, 200 MHz)",
		Unit:  "ms",
	}
	ms := func(t model.Time) float64 { return float64(t) / float64(model.Millisecond) }
	// The paper's values are bounds read as the 16-node values; the model
	// meets them to rounding of the stage times to whole microseconds and
	// of the stored fitted constant: 0.05 ms.
	const tol = 0.05
	addStages := func(variant string, nodes int, extra []repro.Coord, s Stages, paperTotal model.Time) {
		for _, st := range []struct {
			name string
			t    model.Time
		}{{"halt", s.Halt}, {"swap", s.Swap}, {"release", s.Release}, {"total", s.Total()}} {
			coords := []repro.Coord{{Name: "copy", Value: variant}, coord("nodes", int64(nodes))}
			coords = append(coords, extra...)
			coords = append(coords, repro.Coord{Name: "stage", Value: st.name})
			r := repro.Row{Coords: coords, Gangsim: ms(st.t)}
			if st.name == "total" && nodes == PaperNodes {
				r.HasPaper, r.Paper, r.Tolerance = true, ms(paperTotal), tol
			}
			it.Rows = append(it.Rows, r)
		}
	}
	nodes := []int{2, 4, 8, 16}
	for _, n := range nodes {
		addStages("full", n, nil, c.SwitchStages(CopyFull, n, 1), FullSwitchBound)
	}
	v16 := InferredValidPackets(c, ValidSwitchBound, PaperNodes)
	for _, n := range nodes {
		v := v16 * float64(n-1) / float64(PaperNodes-1)
		extra := []repro.Coord{{Name: "receive_valid", Value: strconv.FormatFloat(v, 'f', 1, 64)}}
		addStages("valid", n, extra, c.SwitchStagesValid(n, 0, v), ValidSwitchBound)
	}
	for _, v := range []int{0, 100, 200, 300, 400, 500, 600, c.ReceivePackets} {
		it.Rows = append(it.Rows, repro.Row{
			Coords:  []repro.Coord{{Name: "copy", Value: "valid"}, coord("receive_valid", int64(v)), {Name: "stage", Value: "swap"}},
			Gangsim: c.SwapSeconds(0, float64(v)) * 1e3,
		})
	}
	return it
}
