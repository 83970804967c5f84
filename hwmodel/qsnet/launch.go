package qsnet

import (
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// Transfer names a variant of the binary-transfer bandwidth of STORM's
// launch model (4.3.2.2, p. 48).
type Transfer int

const (
	// TransferES40 is Eq. 4.8: the transfer runs at the slower of the
	// host-limited protocol bandwidth (TransferBytesPerSecond, 131 MB/s on
	// Wolverine's AlphaServer ES40s) and the network broadcast bandwidth.
	TransferES40 Transfer = iota
	// TransferIdeal is Eq. 4.9: an idealized machine whose I/O bus and
	// host are faster than the network, so only the broadcast bandwidth
	// limits the transfer.
	TransferIdeal
)

// String returns "es40" or "ideal", the superscripts of Eqs. 4.8 and 4.9.
func (t Transfer) String() string {
	switch t {
	case TransferES40:
		return "es40"
	case TransferIdeal:
		return "ideal"
	}
	return fmt.Sprintf("Transfer(%d)", int(t))
}

// TransferBandwidth returns BW_transfer(nodes) in bytes per second:
// min(TransferBytesPerSecond, BroadcastBandwidth(nodes)) for TransferES40
// (Eq. 4.8), BroadcastBandwidth(nodes) for TransferIdeal (Eq. 4.9).
func (c Cluster) TransferBandwidth(variant Transfer, nodes int) float64 {
	return c.transferBandwidthAt(variant, float64(max(nodes, 1)))
}

func (c Cluster) transferBandwidthAt(variant Transfer, nodes float64) float64 {
	bw := c.broadcastBandwidthAt(nodes)
	if variant == TransferES40 {
		bw = min(bw, c.TransferBytesPerSecond)
	}
	return bw
}

// LaunchSeconds returns T_launch of Eq. 4.7 (4.3.2.2, p. 48) in seconds:
// the time to launch a job whose binary is binaryBytes long on nodes
// nodes,
//
//	T_launch = binaryBytes / BW_transfer(nodes) + T_exec + T_timeslice
//
// with T_exec = ExecMicros and T_timeslice = LaunchTimesliceMicros. A
// binary of 0 bytes or less (already cached on the nodes) costs no
// transfer. nodes below 1 count as 1.
func (c Cluster) LaunchSeconds(variant Transfer, nodes int, binaryBytes int64) float64 {
	return c.launchSecondsAt(variant, float64(max(nodes, 1)), binaryBytes)
}

func (c Cluster) launchSecondsAt(variant Transfer, nodes float64, binaryBytes int64) float64 {
	t := (c.ExecMicros + c.LaunchTimesliceMicros) * 1e-6
	if binaryBytes > 0 {
		t += float64(binaryBytes) / c.transferBandwidthAt(variant, nodes)
	}
	return t
}

// LaunchTime returns LaunchSeconds as simulated time, rounded to the
// nearest microsecond.
func (c Cluster) LaunchTime(variant Transfer, nodes int, binaryBytes int64) model.Time {
	return model.FromSecondsFloat(c.LaunchSeconds(variant, nodes, binaryBytes))
}

// FitLaunchTimeslice returns the T_timeslice, in microseconds, for which
// the launch of a binary of binaryBytes on nodes nodes takes exactly
// measured with variant: measured - T_exec - binaryBytes/BW_transfer. It
// is how the presets' launch_timeslice_us is obtained, from the 110 ms
// launch of a 12 MB binary on Wolverine's 64 nodes (4.3.1.1, p. 38):
// 110 - 10 - 12/131 * 1000 = 8.397 ms. The result is negative if measured
// is shorter than the rest of the model.
func FitLaunchTimeslice(c Cluster, variant Transfer, measured model.Time, nodes int, binaryBytes int64) float64 {
	c.LaunchTimesliceMicros = 0
	return (measured.Seconds() - c.LaunchSeconds(variant, nodes, binaryBytes)) * 1e6
}

// LauncherFit is the shape of an extrapolation of Table 4.5.
type LauncherFit int

const (
	// FitLinear is t = A n + B seconds on n nodes.
	FitLinear LauncherFit = iota
	// FitLog2 is t = A lg(n) + B seconds on n nodes.
	FitLog2
)

// Launcher is a job launcher from the literature that Tables 4.4 and 4.5
// (4.4.1, p. 54) compare STORM with: its measured launch time and the
// thesis's extrapolation t(n) of it.
type Launcher struct {
	Name string // as in the tables, e.g. "rsh", "Cplant"
	// BinaryMB is the binary size of the measurement in the thesis's MB,
	// 0 for a minimal job.
	BinaryMB int
	// MeasuredNodes and MeasuredSeconds are Table 4.4's measurement: the
	// job launched on MeasuredNodes nodes in MeasuredSeconds seconds.
	MeasuredNodes   int
	MeasuredSeconds float64
	// Fit, A and B are Table 4.5's extrapolation as printed, coefficients
	// rounded to three decimals.
	Fit  LauncherFit
	A, B float64
	// Paper4096 is Table 4.5's extrapolated launch time in seconds on
	// 4,096 nodes.
	Paper4096 float64
}

// Seconds returns the launcher's extrapolated launch time in seconds on
// nodes nodes (nodes below 1 count as 1).
func (l Launcher) Seconds(nodes int) float64 { return l.secondsAt(float64(max(nodes, 1))) }

func (l Launcher) secondsAt(n float64) float64 {
	if l.Fit == FitLog2 {
		return l.A*math.Log2(n) + l.B
	}
	return l.A*n + l.B
}

// Tolerance4096 returns how far Seconds(4096) may lie from Paper4096
// because both are rounded: the coefficients are printed to three
// decimals (each off by up to 0.0005, scaled by n or lg n for A) and the
// table to two (0.005 s).
func (l Launcher) Tolerance4096() float64 {
	x := 4096.0
	if l.Fit == FitLog2 {
		x = 12
	}
	return 0.0005*(x+1) + 0.005
}

// Launchers returns the other launchers of Tables 4.4 and 4.5 (4.4.1,
// p. 54) in the tables' order: rsh, RMS, GLUnix, Cplant, BProc.
func Launchers() []Launcher {
	return []Launcher{
		{Name: "rsh", BinaryMB: 0, MeasuredNodes: 95, MeasuredSeconds: 90, Fit: FitLinear, A: 0.934, B: 1.266, Paper4096: 3827.10},
		{Name: "RMS", BinaryMB: 12, MeasuredNodes: 64, MeasuredSeconds: 5.9, Fit: FitLinear, A: 0.077, B: 1.092, Paper4096: 317.67},
		{Name: "GLUnix", BinaryMB: 0, MeasuredNodes: 95, MeasuredSeconds: 1.3, Fit: FitLinear, A: 0.012, B: 0.228, Paper4096: 49.38},
		{Name: "Cplant", BinaryMB: 12, MeasuredNodes: 1010, MeasuredSeconds: 20, Fit: FitLog2, A: 1.379, B: 6.177, Paper4096: 22.73},
		{Name: "BProc", BinaryMB: 12, MeasuredNodes: 100, MeasuredSeconds: 2.7, Fit: FitLog2, A: 0.413, B: -0.084, Paper4096: 4.88},
	}
}

// STORM's own entries in Tables 4.4 and 4.5 (4.4.1, p. 54): 0.11 s to
// launch a 12 MB job on 64 nodes, measured, and 0.11 s extrapolated to
// 4,096 nodes with the model of 4.3.2.2.
const (
	STORMMeasuredNodes   = 64
	STORMMeasuredSeconds = 0.11
	STORMPaper4096       = 0.11
)

// LaunchBinaryBytes is the 12 MB do-nothing binary of the launch
// experiments and of Eq. 4.7 (4.3.1, p. 38; 4.3.2.2, p. 48), with MB =
// 2^20 bytes.
const LaunchBinaryBytes = 12 * MiB

// MeasuredLaunch is the launch of the 12 MB binary on Wolverine's 64 nodes
// (256 processors), 110 ms: 96 ms transfer and 14 ms execution (4.3.1.1,
// p. 38).
const MeasuredLaunch = 110 * model.Millisecond

// MeasuredLaunchNodes is the node count of MeasuredLaunch.
const MeasuredLaunchNodes = 64

// PredictedLaunch is the model's launch time of the 12 MB binary on 16,384
// nodes that the thesis states, 135 ms (4.3.2.2, p. 48; "under 135ms",
// 4.4.1, p. 53).
const PredictedLaunch = 135 * model.Millisecond

// PredictedLaunchNodes is the node count of PredictedLaunch.
const PredictedLaunchNodes = 16384

// CrossoverNodes returns the number of nodes (a real number, since it lies
// far beyond any machine) at which STORM's launch of the 12 MB binary with
// the es40 model becomes as slow as launcher l's extrapolation, searching
// from MeasuredLaunchNodes to 10^15 nodes; +Inf if STORM stays faster
// there. 4.4.1 (p. 55) puts it at about 1 billion nodes for BProc and
// 17 billion for Cplant. STORM's time grows as the square root of the
// nodes (Eq. 4.4) once the broadcast limits it, the others' as lg n.
func CrossoverNodes(c Cluster, l Launcher) float64 {
	slower := func(n float64) bool {
		return c.launchSecondsAt(TransferES40, n, LaunchBinaryBytes) >= l.secondsAt(n)
	}
	lo, hi := math.Log(MeasuredLaunchNodes), math.Log(1e15)
	if slower(MeasuredLaunchNodes) {
		return MeasuredLaunchNodes
	}
	if !slower(math.Exp(hi)) {
		return math.Inf(1)
	}
	for range 200 {
		mid := (lo + hi) / 2
		if slower(math.Exp(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return math.Exp(hi)
}
