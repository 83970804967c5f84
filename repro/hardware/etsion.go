package hardware

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gangsim/gangsim/hwmodel/myrinet"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
)

func coord64(name string, v int64) repro.Coord {
	return repro.Coord{Name: name, Value: strconv.FormatInt(v, 10)}
}

// EtsionFig5 reproduces E&F Fig. 5: the point-to-point bandwidth in MB/s (1e6
// bytes per second) under FM's buffer division, by contexts and message
// size. The figure is missing from the text; the one value the text
// states, no communication at 8 contexts (E&F 4.1), is the Paper value of
// the contexts=8 rows (exact).
func EtsionFig5(c myrinet.Cluster) repro.Item {
	it := repro.Item{
		Paper: "etsion",
		Name:  "fig-5",
		Title: "Fig. 5: FM bandwidth by message size and contexts, original buffer division (model; figure values not in the text except zero at 8 contexts, 4.1)",
		Unit:  "MB/s",
	}
	for _, n := range myrinet.FigContexts() {
		for _, size := range myrinet.MessageSizes() {
			r := repro.Row{
				Coords:  []repro.Coord{coord64("contexts", int64(n)), coord64("bytes", size)},
				Gangsim: c.Bandwidth(myrinet.BufferDivision, size, n) / 1e6,
			}
			if n == 8 {
				r.HasPaper, r.Paper, r.Tolerance = true, 0, 0
			}
			it.Rows = append(it.Rows, r)
		}
	}
	sharp, smallWorse := true, true
	for _, size := range myrinet.MessageSizes() {
		sharp = sharp && c.Bandwidth(myrinet.BufferDivision, size, 4) < c.Bandwidth(myrinet.BufferDivision, size, 1)/2
	}
	for n := 2; n <= 6; n++ {
		small := c.Bandwidth(myrinet.BufferDivision, 16, n) / c.Bandwidth(myrinet.BufferDivision, 16, 1)
		large := c.Bandwidth(myrinet.BufferDivision, 65536, n) / c.Bandwidth(myrinet.BufferDivision, 65536, 1)
		smallWorse = smallWorse && small < large
	}
	full := 42 * int64(c.PacketBytes) // a message of whole packets
	adequate := c.AdequateContexts(full, 0.9)
	it.Claims = []repro.Claim{
		{
			Text:  "the bandwidth decreases sharply when increasing the number of contexts (E&F 4.1), read as 4 contexts giving less than half of one context's bandwidth at every size",
			Holds: sharp,
			Note: fmt.Sprintf("64 KB messages: %.1f MB/s with 1 context, %.1f with 4", c.Bandwidth(myrinet.BufferDivision, 65536, 1)/1e6,
				c.Bandwidth(myrinet.BufferDivision, 65536, 4)/1e6),
		},
		{
			Text:  "for small messages a full credit is used even if only part of each packet is used, so the system becomes unusable with even fewer contexts (E&F 4.1)",
			Holds: smallWorse,
			Note:  "with 2 to 6 contexts, 16-byte messages keep a smaller fraction of their one-context bandwidth than 64 KB messages",
		},
		{
			Text:  "about 256KB of memory on the NIC suffices for adequate performance (E&F 4.1), read as: with adequate = 90% of the one-context bandwidth, the most adequate contexts leave 256 KB each",
			Holds: adequate > 0 && c.NICMemoryBytes/int64(adequate) == 256<<10,
			Note:  fmt.Sprintf("%d contexts adequate for %d-byte messages: %d KB of NIC memory each", adequate, full, c.NICMemoryBytes/int64(max(adequate, 1))>>10),
		},
	}
	return it
}

// EtsionSwitchCost reproduces the switch-cost results of E&F 4.2 (Figs. 7-9) in
// milliseconds:
//
//   - copy=full: each stage and the total by nodes (Fig. 7). The total at
//     16 nodes has the paper's 85 ms as Paper value; it is the fit point
//     of protocol_per_node_us, so it agrees by construction.
//   - copy=valid: each stage and the total by nodes (Fig. 9), with the
//     send buffer empty and the valid receive packets growing linearly
//     with nodes (E&F 4.2: the send buffer does not fill, the receive
//     buffer fills with all-to-all traffic, copy time grows linearly) from
//     0 at one node to myrinet.InferredValidPackets at 16. The total at 16 nodes
//     has the paper's 12.5 ms as Paper value; it too is a fit point.
//   - swap stage by valid receive packets (Fig. 9's linear growth).
//
// Every row has the coordinates copy, nodes, receive_valid and stage; a
// cell that does not apply is empty: receive_valid of a full copy, which
// copies every slot whatever it holds, and nodes of the swap stage by
// packets, which is local to a node (E&F 4.2).
func EtsionSwitchCost(c myrinet.Cluster) repro.Item {
	it := repro.Item{
		Paper: "etsion",
		Name:  "switch-cost",
		Title: "Switch cost by stage (4.2, Figs. 7-9): full copy vs valid packets only, by nodes and by valid packets (paper: < 85 ms full, < 12.5 ms valid only, at 16 nodes, 200 MHz)",
		Unit:  "ms",
		Notes: "The two paper values are met by construction, not predicted: the halt and release cost per node is fitted so that the full-copy switch on 16 nodes is 85 ms (FitProtocolPerNode), and the valid-only row's receive-buffer occupancy (98.2 packets) is inferred from the 12.5 ms bound (InferredValidPackets). What the model adds is the split into stages and their growth with nodes and packets, checked by the claims.",
	}
	ms := func(t model.Time) float64 { return float64(t) / float64(model.Millisecond) }
	// The paper's values are bounds read as the 16-node values; the model
	// meets them to rounding of the stage times to whole microseconds and
	// of the stored fitted constant: 0.05 ms.
	const tol = 0.05
	coords := func(variant, nodes, valid, stage string) []repro.Coord {
		return []repro.Coord{{Name: "copy", Value: variant}, {Name: "nodes", Value: nodes},
			{Name: "receive_valid", Value: valid}, {Name: "stage", Value: stage}}
	}
	addStages := func(variant string, nodes int, valid string, s myrinet.Stages, paperTotal model.Time) {
		for _, st := range []struct {
			name string
			t    model.Time
		}{{"halt", s.Halt}, {"swap", s.Swap}, {"release", s.Release}, {"total", s.Total()}} {
			r := repro.Row{Coords: coords(variant, strconv.Itoa(nodes), valid, st.name), Gangsim: ms(st.t)}
			if st.name == "total" && nodes == myrinet.PaperNodes {
				r.HasPaper, r.Paper, r.Tolerance = true, ms(paperTotal), tol
			}
			it.Rows = append(it.Rows, r)
		}
	}
	nodes := []int{2, 4, 8, 16}
	for _, n := range nodes {
		addStages("full", n, "", c.SwitchStages(myrinet.CopyFull, n, 1), myrinet.FullSwitchBound)
	}
	v16 := myrinet.InferredValidPackets(c, myrinet.ValidSwitchBound, myrinet.PaperNodes)
	for _, n := range nodes {
		v := v16 * float64(n-1) / float64(myrinet.PaperNodes-1)
		addStages("valid", n, strconv.FormatFloat(v, 'f', 1, 64), c.SwitchStagesValid(n, 0, v), myrinet.ValidSwitchBound)
	}
	for _, v := range []int{0, 100, 200, 300, 400, 500, 600, c.ReceivePackets} {
		it.Rows = append(it.Rows, repro.Row{
			Coords:  coords("valid", "", strconv.Itoa(v), "swap"),
			Gangsim: c.SwapSeconds(0, float64(v)) * 1e3,
		})
	}
	it.Claims = etsionSwitchClaims(c, nodes)
	return it
}

// etsionSwitchClaims checks the statements of E&F 4.2 on the switch's stages on
// the given node counts.
func etsionSwitchClaims(c myrinet.Cluster, nodes []int) []repro.Claim {
	majority, protocolGrows, swapLocal := true, true, true
	var prev myrinet.Stages
	for i, n := range nodes {
		s := c.SwitchStages(myrinet.CopyFull, n, 1)
		majority = majority && float64(s.Swap) > 0.8*float64(s.Total())
		if i > 0 {
			protocolGrows = protocolGrows && s.Halt > prev.Halt && s.Release > prev.Release
			swapLocal = swapLocal && s.Swap == prev.Swap
		}
		prev = s
	}
	full16 := c.SwitchStages(myrinet.CopyFull, myrinet.PaperNodes, 1)
	v16 := myrinet.InferredValidPackets(c, myrinet.ValidSwitchBound, myrinet.PaperNodes)
	valid16 := c.SwitchStagesValid(myrinet.PaperNodes, 0, v16)
	// Linear: equal increments of valid packets add equal copy times.
	linear := true
	for v := 100.0; v <= float64(c.ReceivePackets); v += 100 {
		d1 := c.SwapSeconds(0, v) - c.SwapSeconds(0, v-100)
		d0 := c.SwapSeconds(0, 100) - c.SwapSeconds(0, 0)
		linear = linear && math.Abs(d1-d0) <= 1e-12
	}
	send := float64(c.SendPackets) * c.SendPacketCopySeconds()
	receive := float64(c.ReceivePackets) * c.ReceivePacketCopySeconds()
	ms := func(t model.Time) float64 { return float64(t) / float64(model.Millisecond) }
	return []repro.Claim{
		{
			Text:  "the vast majority of the time consumed by the switch was spent on the second stage, the buffer switch itself (E&F 4.2, Fig. 7), read as over 80% with full copy",
			Holds: majority,
			Note:  fmt.Sprintf("full copy on 16 nodes: swap %.2f of %.2f ms (%.0f%%)", ms(full16.Swap), ms(full16.Total()), 100*float64(full16.Swap)/float64(full16.Total())),
		},
		{
			Text:  "the flush and refilling stages consume more time as more nodes are involved (E&F 4.2)",
			Holds: protocolGrows,
			Note:  fmt.Sprintf("halt and release each grow from %.2f ms on 2 nodes to %.2f ms on 16", ms(c.SwitchStages(myrinet.CopyFull, 2, 1).Halt), ms(full16.Halt)),
		},
		{
			Text:  "the buffer switch time does not depend on the number of nodes, being a local procedure (E&F 4.2)",
			Holds: swapLocal,
			Note:  fmt.Sprintf("full-copy swap %.2f ms on 2 to 16 nodes", ms(full16.Swap)),
		},
		{
			Text:  "copying only the valid packets reduces the time needed to switch the buffers dramatically (E&F 4.2, Fig. 9), read as at least 5 times less at 16 nodes",
			Holds: float64(full16.Total()) >= 5*float64(valid16.Total()),
			Note:  fmt.Sprintf("16 nodes: %.2f ms full copy, %.2f ms valid only (%.1f valid receive packets, inferred from the 12.5 ms bound)", ms(full16.Total()), ms(valid16.Total()), v16),
		},
		{
			Text:  "the linear growth in the copying time is correlated with the linear growth of the number of packets found in the buffer (E&F 4.2)",
			Holds: linear,
			Note:  fmt.Sprintf("valid-only swap: %.4f ms per 100 receive packets at every count up to %d", (c.SwapSeconds(0, 100)-c.SwapSeconds(0, 0))*1e3, c.ReceivePackets),
		},
		{
			Text:  "even though the receive buffer is more than twice the send buffer's size, the time consuming part of the buffer switch was replacing the send buffer (E&F 4.2)",
			Holds: send > receive,
			Note: fmt.Sprintf("not with the paper's own figures: saving and restoring the %d-packet send buffer at ~14 MB/s read and ~80 MB/s write takes %.1f ms, "+
				"the %d-packet receive buffer at ~45 MB/s each way %.1f ms; the send buffer would dominate only if host memory copied above %.0f MB/s (see the package doc)",
				c.SendPackets, send*1e3, c.ReceivePackets, receive*1e3, 2*float64(c.ReceivePackets*c.PacketBytes)/send/1e6),
		},
	}
}
