package qsnet

// Table43Row is one row of Table 4.3 (4.3.2.2, p. 47): a network size and
// the asymptotic bandwidth, in the table's MB/s (2^20 bytes per second),
// for each of Table43Cables.
type Table43Row struct {
	Nodes, Processors, Stages, Switches int
	MBps                                [9]float64
}

// Table43Cables returns the cable lengths in meters of Table 4.3's
// columns: 10 to 90 m.
func Table43Cables() []float64 { return []float64{10, 20, 30, 40, 50, 60, 70, 80, 90} }

// Table43 returns the 54 cells of Table 4.3 (4.3.2.2, p. 47) as printed.
func Table43() []Table43Row {
	return []Table43Row{
		{4, 16, 1, 1, [9]float64{320, 320, 320, 315, 291, 271, 253, 238, 224}},
		{16, 64, 2, 3, [9]float64{320, 319, 295, 274, 256, 240, 226, 213, 202}},
		{64, 256, 3, 5, [9]float64{298, 277, 258, 242, 228, 215, 204, 194, 184}},
		{256, 1024, 4, 7, [9]float64{261, 244, 230, 217, 206, 195, 186, 177, 170}},
		{1024, 4096, 5, 9, [9]float64{232, 219, 207, 197, 187, 178, 171, 163, 157}},
		{4096, 16384, 6, 11, [9]float64{209, 198, 188, 180, 172, 164, 158, 152, 146}},
	}
}

// Table43Tolerance is the tolerance of every Table 4.3 cell in MiB/s:
// the table prints whole MB/s, so a faithful model rounds to it, within
// half a unit.
const Table43Tolerance = 0.5

// BroadcastMeasured64 is the hardware broadcast bandwidth measured on 64
// nodes with buffers in NIC memory, 312 MB/s ([44] in 4.3.2.1, p. 43),
// read as 10^6 bytes per second like chapter 2's figures.
const BroadcastMeasured64 = 312e6

// Fig412Nodes returns the node counts at which Fig412Item evaluates the
// launch model: powers of 2 from 1 to 16,384, the range of Fig. 4.12.
func Fig412Nodes() []int { return PowersOf(2, PredictedLaunchNodes) }
