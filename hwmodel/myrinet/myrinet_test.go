package myrinet

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/internal/presettest"
	"github.com/gangsim/gangsim/model"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v ± %v", what, got, want, tol)
	}
}

func TestParParPreset(t *testing.T) {
	c := ParPar()
	if c.Nodes != 16 || c.PEsPerNode != 1 {
		t.Errorf("nodes %d x %d, want 16 x 1 (E&F 2.1: 16 columns)", c.Nodes, c.PEsPerNode)
	}
	if c.ReceivePackets != 668 || c.SendPackets != 252 || c.PacketBytes != 1560 {
		t.Errorf("buffers %d/%d packets of %d bytes, want 668/252 of 1560 (E&F 4.2)", c.ReceivePackets, c.SendPackets, c.PacketBytes)
	}
	// E&F 4.2: "1MB" receive buffer and "~400KB" send buffer; the packet
	// counts times 1560 bytes agree to 1% and 5%.
	near(t, "receive buffer bytes", float64(c.ReceivePackets*c.PacketBytes), 1<<20, 0.01*(1<<20))
	near(t, "send buffer bytes", float64(c.SendPackets*c.PacketBytes), 400e3, 0.05*400e3)
	if c.NICMemoryBytes != 512<<10 || c.ClockHz != 200e6 {
		t.Errorf("NIC %d bytes, clock %v Hz; want 512 KB, 200 MHz (E&F 2.1, 4.2)", c.NICMemoryBytes, c.ClockHz)
	}
	if c.NICReadBytesPerSecond != 14e6 || c.NICWriteBytesPerSecond != 80e6 || c.HostCopyBytesPerSecond != 45e6 {
		t.Errorf("bandwidths %v/%v/%v, want 14/80/45 MB/s (E&F 4.2)", c.NICReadBytesPerSecond, c.NICWriteBytesPerSecond, c.HostCopyBytesPerSecond)
	}
	if c.LinkBytesPerSecond != 1.28e9/8 {
		t.Errorf("link %v B/s, want 1.28 Gb/s (E&F 2.1)", c.LinkBytesPerSecond)
	}
	if len(c.Sources) == 0 || len(c.Fitted) != 1 || len(c.Assumed) != 5 {
		t.Errorf("sources %d, fitted %v, assumed %v", len(c.Sources), c.Fitted, c.Assumed)
	}
	if got := Presets(); len(got) != 1 || got[0].Name != "parpar" {
		t.Errorf("Presets() = %d presets, want [parpar]", len(got))
	}
}

func TestCredits(t *testing.T) {
	c := ParPar()
	// C0 = floor(668/(n^2 16)) with division (E&F 2.2), floor(668/16) with
	// switching (E&F 3.3); exact.
	division := map[int]int{1: 41, 2: 10, 3: 4, 4: 2, 5: 1, 6: 1, 7: 0, 8: 0, 16: 0}
	for n, want := range division {
		if got := c.Credits(BufferDivision, n); got != want {
			t.Errorf("division C0 at %d contexts = %d, want %d", n, got, want)
		}
		if got := c.Credits(BufferSwitching, n); got != 41 {
			t.Errorf("switching C0 at %d contexts = %d, want 41", n, got)
		}
	}
	for _, tc := range []struct{ br, n, p, want int }{
		{668, 2, 4, 41}, {668, 1, 1, 668}, {1000, 3, 10, 11}, {668, 0, 0, 668},
	} {
		if got := Credits(BufferDivision, tc.br, tc.n, tc.p); got != tc.want {
			t.Errorf("Credits(division, %d, %d, %d) = %d, want %d", tc.br, tc.n, tc.p, got, tc.want)
		}
	}
	// The switching credits grow by n^2 over division, up to flooring.
	for n := 1; n <= 6; n++ {
		sw, div := Credits(BufferSwitching, 1<<20, n, 16), Credits(BufferDivision, 1<<20, n, 16)
		if sw/(n*n) != div {
			t.Errorf("n=%d: switching %d / n^2 != division %d", n, sw, div)
		}
	}
	if got := SendSlots(BufferDivision, 252, 8); got != 31 {
		t.Errorf("send slots at 8 contexts = %d, want 252/8 = 31", got)
	}
}

// claims checks the text's statements about Figs. 5 and 6 (E&F 4.1) on c.
func claims(t *testing.T, c Cluster) {
	t.Helper()
	div := Model{Cluster: c, Mode: BufferDivision}
	// "No communication is even possible for as few as 8 contexts": exact.
	for _, size := range MessageSizes() {
		if lat, bw := div.Message(size, 8); lat != model.Never || bw != 0 {
			t.Errorf("8 contexts, %d bytes: latency %v, bandwidth %v; want never, 0", size, lat, bw)
		}
		if _, bw := div.Message(size, 4); !(bw > 0) {
			t.Errorf("4 contexts, %d bytes: bandwidth %v, want positive", size, bw)
		}
	}
	// "For small message sizes, a full credit is used even if only part of
	// each packet is used, so the system becomes unusable with even less
	// contexts": small messages lose a larger fraction of their bandwidth.
	for n := 2; n <= 6; n++ {
		small := c.Bandwidth(BufferDivision, 16, n) / c.Bandwidth(BufferDivision, 16, 1)
		large := c.Bandwidth(BufferDivision, 65536, n) / c.Bandwidth(BufferDivision, 65536, 1)
		if !(small < large) {
			t.Errorf("%d contexts: 16-byte messages keep %.3f of their bandwidth, 64 KB keep %.3f; want less", n, small, large)
		}
	}
	// "About 256KB of memory on the NIC suffices for adequate performance":
	// with adequate = 90% of one context, 2 contexts of 512 KB/2 each are.
	n := c.AdequateContexts(42*int64(c.PacketBytes), 0.9)
	if n != 2 || c.NICMemoryBytes/int64(n) != 256<<10 {
		t.Errorf("adequate contexts %d (%d bytes of NIC each), want 2 (256 KB)", n, c.NICMemoryBytes/int64(max(n, 1)))
	}
	// "The overall available bandwidth is independent of the number of
	// applications": totals for 2..8 jobs are equal, and within the cost of
	// a full-copy switch per 3 s quantum (< 3%) of one job's.
	for _, size := range MessageSizes() {
		one := TotalBandwidth(c, CopyFull, 1, size, 1, Fig6Quantum)
		two := TotalBandwidth(c, CopyFull, 1, size, 2, Fig6Quantum)
		for jobs := 3; jobs <= 8; jobs++ {
			if got := TotalBandwidth(c, CopyFull, 1, size, jobs, Fig6Quantum); got != two {
				t.Errorf("%d bytes: total bandwidth %v at %d jobs, %v at 2", size, got, jobs, two)
			}
		}
		if !(two <= one && two >= 0.97*one) {
			t.Errorf("%d bytes: total bandwidth %v at 2 jobs, %v at 1; want within 3%%", size, two, one)
		}
	}
}

func TestBandwidthClaims(t *testing.T) { claims(t, ParPar()) }

// TestBandwidthClaimsRobust checks that the claims do not hinge on the
// assumed constants: per-packet overhead 0-5 us, credit return time across
// the admissible interval (2.44 t, 6.11 t] of doc.go, refill at half the
// window.
func TestBandwidthClaimsRobust(t *testing.T) {
	for _, o := range []float64{0, 2, 5} {
		full := o + 1560/80.0 // t of a full packet, us
		for _, k := range []float64{2.6, 3, 4, 5, 6} {
			c := ParPar()
			c.PacketOverheadMicros, c.CreditReturnMicros = o, k*full
			t.Run("o="+strconv.FormatFloat(o, 'g', -1, 64)+",L="+strconv.FormatFloat(k, 'g', -1, 64)+"t", func(t *testing.T) {
				claims(t, c)
			})
		}
	}
}

// TestAdequacyInterval pins the interval of doc.go: with o = 2 us and
// f = 1/2, 2 contexts are adequate and 3 are not iff 52.6 < L <= 131.4 us.
func TestAdequacyInterval(t *testing.T) {
	for _, tc := range []struct {
		l    float64
		want int
	}{{52.5, 3}, {52.6, 2}, {80, 2}, {131.3, 2}, {131.5, 1}} {
		c := ParPar()
		c.CreditReturnMicros = tc.l
		if got := c.AdequateContexts(42*1560, 0.9); got != tc.want {
			t.Errorf("L = %v us: %d adequate contexts, want %d", tc.l, got, tc.want)
		}
	}
}

func TestWindowBandwidth(t *testing.T) {
	c := ParPar()
	// Unlimited by credits, a full packet takes t = 2 + 1560/80 us.
	near(t, "peak bandwidth", c.WindowBandwidth(1560, 1000, 1), 1560/21.5e-6, 1e-6)
	// One credit, batch 1: one packet per t + L.
	near(t, "one-credit bandwidth", c.WindowBandwidth(1560, 1, 1), 1560/(21.5e-6+80e-6), 1e-6)
	// A 16-byte message still takes a whole packet and credit.
	near(t, "16-byte, 2 credits", c.WindowBandwidth(16, 2, 1), 16*2/(1*(2e-6+16/80e6)+80e-6), 1e-6)
	if c.PacketsPerMessage(1560) != 1 || c.PacketsPerMessage(1561) != 2 || c.PacketsPerMessage(0) != 1 {
		t.Error("PacketsPerMessage miscounts")
	}
	if c.RefillBatch(41) != 21 || c.RefillBatch(1) != 1 || c.RefillBatch(0) != 0 {
		t.Error("RefillBatch miscounts")
	}
	// Bandwidth never falls as credits grow, nor rises above the peak.
	prev := 0.0
	for cr := 0; cr <= 700; cr++ {
		bw := c.WindowBandwidth(4096, cr, 1)
		if bw < prev-1e-9 || bw > 1560/21.5e-6 {
			t.Fatalf("%d credits: %v after %v", cr, bw, prev)
		}
		prev = bw
	}
}

func TestFullSwitch(t *testing.T) {
	c := ParPar()
	// Swap stage from the measured constants alone (E&F 4.2):
	// 252*1560/14e6 + 252*1560/80e6 + 2*668*1560/45e6 s = 79.3087 ms.
	near(t, "full swap (s)", c.FullSwapSeconds(), 393120/14e6+393120/80e6+2*1042080/45e6, 1e-12)
	s := c.SwitchStages(CopyFull, 16, 0)
	// "Less than 85msecs (17,000,000 cycles)" at 200 MHz, the fit point:
	// within the rounding of the stored constant and of whole microseconds.
	near(t, "full switch at 16 nodes (ms)", float64(s.Total())/1e3, 85, 0.05)
	near(t, "full switch at 16 nodes (cycles)", c.Cycles(s.Total()), 17e6, 1e4)
	near(t, "85 ms in cycles", c.Cycles(FullSwitchBound), 17e6, 1e-6)
	// "The vast majority of the time ... was spent on the second stage".
	if frac := float64(s.Swap) / float64(s.Total()); frac < 0.9 {
		t.Errorf("swap is %.2f of the switch, want the vast majority", frac)
	}
	// Halt and release grow with nodes; the swap does not depend on them.
	prev := c.SwitchStages(CopyFull, 1, 0)
	if prev.Halt != 0 || prev.Release != 0 {
		t.Errorf("one node: %+v, want no protocol cost", prev)
	}
	for n := 2; n <= 16; n++ {
		s := c.SwitchStages(CopyFull, n, 0)
		if s.Halt <= prev.Halt || s.Release <= prev.Release || s.Swap != prev.Swap || s.Halt != s.Release {
			t.Errorf("%d nodes: %+v after %+v", n, s, prev)
		}
		prev = s
	}
}

func TestFitProtocolPerNode(t *testing.T) {
	c := ParPar()
	h := FitProtocolPerNode(c, FullSwitchBound, PaperNodes)
	// (85 - 79.3087) ms / 30 = 189.711 us; the preset stores 189.71.
	near(t, "fitted h (us)", h, (0.085-c.FullSwapSeconds())/30*1e6, 1e-9)
	near(t, "stored h vs fit (us)", c.ProtocolPerNodeMicros, h, 0.01)
}

func TestValidSwitch(t *testing.T) {
	c := ParPar()
	// Linear in the packets present (E&F 4.2, Fig. 9): exact up to float
	// rounding.
	per := c.SwapSeconds(0, 1)
	for v := 0.0; v <= 668; v += 1 {
		near(t, "swap of receive packets", c.SwapSeconds(0, v), v*per, 1e-12)
	}
	near(t, "receive packet copy (us)", per*1e6, 2*1560/45.0, 1e-9)
	near(t, "send packet copy (us)", c.SwapSeconds(1, 0)*1e6, 1560/14.0+1560/80.0, 1e-9)
	// Taking 12.5 ms as the 16-node value, 98.2 receive packets were valid.
	v := InferredValidPackets(c, ValidSwitchBound, PaperNodes)
	near(t, "inferred valid packets", v, 98.2, 0.1)
	s := c.SwitchStagesValid(PaperNodes, 0, v)
	near(t, "valid switch at 16 nodes (ms)", float64(s.Total())/1e3, 12.5, 0.05)
	near(t, "12.5 ms in cycles", c.Cycles(ValidSwitchBound), 2.5e6, 1e-6)
	// "Less than 1.25%" of the 1 s quantum of the measurements.
	if f := float64(s.Total()) / float64(model.Second); f > 0.0125+0.00005 {
		t.Errorf("valid switch is %.4f of a 1 s quantum, want < 1.25%%", f)
	}
	// Fewer valid packets, shorter switch, always far below a full copy.
	for _, occ := range []float64{0, 0.02, 0.05, 0.08} {
		got := c.SwitchStages(CopyValid, PaperNodes, occ).Total()
		if got > ValidSwitchBound || got >= c.SwitchStages(CopyFull, PaperNodes, 0).Total() {
			t.Errorf("occupancy %v: %v", occ, got)
		}
	}
	if c.SwitchStages(CopyValid, 16, 1) != c.SwitchStages(CopyFull, 16, 0) {
		t.Error("valid copy of full buffers differs from a full copy")
	}
}

func TestModelCosts(t *testing.T) {
	c := ParPar()
	full := Model{Cluster: c, Mode: BufferSwitching, Copy: CopyFull}
	valid := Model{Cluster: c, Mode: BufferSwitching, Copy: CopyValid}
	div := Model{Cluster: c, Mode: BufferDivision}
	st := hwmodel.SwitchState{Nodes: 16, Jobs: 4, Occupancy: 0.05}
	if got, want := full.Switch(st), c.SwitchStages(CopyFull, 16, 0).Total(); got != want {
		t.Errorf("full Switch = %v, want %v", got, want)
	}
	if got, want := valid.Switch(st), c.SwitchStages(CopyValid, 16, 0.05).Total(); got != want {
		t.Errorf("valid Switch = %v, want %v", got, want)
	}
	if got := valid.Switch(hwmodel.SwitchState{Occupancy: 0.05}); got != valid.Switch(st) {
		t.Errorf("Switch with no nodes = %v, want the cluster's 16 nodes: %v", got, valid.Switch(st))
	}
	if valid.Switch(hwmodel.SwitchState{Nodes: 16, Occupancy: 7}) != full.Switch(st) ||
		valid.Switch(hwmodel.SwitchState{Nodes: 16, Occupancy: math.NaN()}) != valid.Switch(hwmodel.SwitchState{Nodes: 16}) {
		t.Error("occupancy is not clamped to [0, 1]")
	}
	if div.Switch(st) != 0 {
		t.Errorf("division Switch = %v, want 0", div.Switch(st))
	}
	for _, m := range []Model{full, valid, div} {
		if m.Launch(16, 1<<20) != 0 {
			t.Error("Launch is not 0")
		}
	}
	// Switching: the same message cost whatever the contexts.
	lat1, bw1 := full.Message(65536, 1)
	for n := 2; n <= 16; n++ {
		if lat, bw := full.Message(65536, n); lat != lat1 || bw != bw1 {
			t.Errorf("switching at %d contexts: %v %v, at 1: %v %v", n, lat, bw, lat1, bw1)
		}
	}
	// Latency is one-way latency plus size over bandwidth.
	if want := model.FromSecondsFloat(10e-6 + 65536/bw1); lat1 != want {
		t.Errorf("latency %v, want %v", lat1, want)
	}
	if lat, bw := full.Message(0, 1); lat != 10*model.Microsecond || bw != 0 {
		t.Errorf("empty message: %v %v", lat, bw)
	}
	// Division equals switching at one context and falls below it after.
	if lat, bw := div.Message(65536, 1); lat != lat1 || bw != bw1 {
		t.Errorf("division at 1 context: %v %v, want %v %v", lat, bw, lat1, bw1)
	}
	if _, bw := div.Message(65536, 4); !(bw < bw1) {
		t.Errorf("division at 4 contexts: %v, want below %v", bw, bw1)
	}
}

func TestLoadPreset(t *testing.T) {
	data := presettest.RoundTrip(t, []Cluster{ParPar()}, LoadPreset)
	edit := func(f func(m map[string]any)) string { return presettest.Edit(t, data, f) }
	// A user edit: a bigger receive buffer gives more credits.
	big, err := LoadPreset(strings.NewReader(edit(func(m map[string]any) { m["receive_packets"] = 2672 })))
	if err != nil {
		t.Fatal(err)
	}
	if got := big.Credits(BufferDivision, 4); got != 10 {
		t.Errorf("edited preset: C0 at 4 contexts = %d, want 2672/256 = 10", got)
	}
	presettest.Rejects(t, data, LoadPreset, []presettest.Invalid{
		{Name: "zero packets", Edit: func(m map[string]any) { m["receive_packets"] = 0 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "negative bandwidth", Edit: func(m map[string]any) { m["nic_read_bytes_per_second"] = -1 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "refill", Edit: func(m map[string]any) { m["refill_fraction"] = 1.5 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "negative h", Edit: func(m map[string]any) { m["protocol_per_node_us"] = -3 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "bad assumed name", Edit: func(m map[string]any) { m["assumed"] = []string{"credit_return"} }, Want: hwmodel.ErrInvalidPreset},
		{Name: "unknown field", Edit: func(m map[string]any) { m["credit_retrun_us"] = 80 }, Want: nil},
	})
	if _, err := Preset("crescendo"); !errors.Is(err, hwmodel.ErrUnknownPreset) {
		t.Errorf("Preset(crescendo): %v", err)
	}
}

func TestCurves(t *testing.T) {
	c := ParPar()
	curves := []hwmodel.Curve{
		BandwidthCurve(c, BufferDivision, FigContexts(), MessageSizes()),
		TotalBandwidthCurve(c, CopyFull, 1, Fig6Quantum, FigContexts(), MessageSizes()),
		SwitchCurve(c, CopyValid, 0.05, []int{2, 4, 8, 16}),
		SwapCurve(c, []int{0, 100, 668}),
	}
	for _, cv := range curves {
		if cv.Name == "" || cv.XLabel == "" || cv.YLabel == "" || len(cv.Series) == 0 {
			t.Errorf("curve %q: labels %q %q, %d series", cv.Name, cv.XLabel, cv.YLabel, len(cv.Series))
		}
		for _, s := range cv.Series {
			if s.Label == "" || len(s.X) == 0 || len(s.X) != len(s.Y) {
				t.Errorf("%s series %q: %d x, %d y", cv.Name, s.Label, len(s.X), len(s.Y))
			}
		}
	}
	// The switch curve agrees with the model.
	sw := curves[2]
	if got, want := sw.Series[3].Y[3], float64(c.SwitchStages(CopyValid, 16, 0.05).Total())/1e3; got != want {
		t.Errorf("switch curve total at 16 nodes %v, want %v", got, want)
	}
}
