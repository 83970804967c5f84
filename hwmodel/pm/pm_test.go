package pm

import (
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/internal/presettest"
	"github.com/gangsim/gangsim/model"
)

var seed = flag.Uint64("seed", 0, "seed of the randomized tests (0: a fixed default)")

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v ± %v", what, got, want, tol)
	}
}

func TestPresets(t *testing.T) {
	ps := Presets()
	if len(ps) != 2 || ps[0].Name != "rwc-pc2" || ps[1].Name != "ss20" {
		t.Fatalf("Presets() = %d presets, want [rwc-pc2 ss20]", len(ps))
	}
	r := RWCPC2()
	// hori98 Table 2 and 5: 64 PentiumPro 200 MHz, PCI, NetBSD 1.2; PM
	// 7.5 us, 117.6 MB/s; buffers 511 messages/65,408 bytes and 255/61,200;
	// process switch about 40 us; hexadecimal tree (3.1).
	if r.Nodes != 64 || r.PEsPerNode != 1 || r.IOBus != "PCI" || r.OS != "NetBSD 1.2" || !strings.Contains(r.CPU, "Pentium Pro 200") {
		t.Errorf("rwc-pc2 description: %+v", r.PresetInfo)
	}
	if r.PMLatencyMicros != 7.5 || r.PMBytesPerSecond != 117.6e6 || r.ProcessSwitchMicros != 40 || r.ControlFanout != 16 {
		t.Errorf("rwc-pc2 PM %v us %v B/s, process switch %v, fan-out %d", r.PMLatencyMicros, r.PMBytesPerSecond, r.ProcessSwitchMicros, r.ControlFanout)
	}
	if r.ReceiveBufferMessages != 511 || r.ReceiveBufferBytes != 65408 || r.SendBufferMessages != 255 || r.SendBufferBytes != 61200 {
		t.Errorf("rwc-pc2 buffers %d/%d, %d/%d", r.ReceiveBufferMessages, r.ReceiveBufferBytes, r.SendBufferMessages, r.SendBufferBytes)
	}
	// 511 messages of 128 bytes, 255 of 240: the byte counts are whole
	// messages.
	if r.ReceiveBufferBytes%int64(r.ReceiveBufferMessages) != 0 || r.SendBufferBytes%int64(r.SendBufferMessages) != 0 {
		t.Error("rwc-pc2 buffer bytes are not whole messages")
	}
	s := SS20()
	// hori96: 9 SS20s, one the SCore-D server (2, 3); SunOS 4.1.4 and
	// SIGSTOP up to 50 ms (4.2); PM 24 us (3.3); remote invocation 35 us
	// (4.1); 2,730 messages in 32 KB and 511 in 12 KB (4.1).
	if s.Nodes != 8 || s.IOBus != "S-Bus" || s.OS != "SunOS 4.1.4" || s.StopDelayMaxMicros != PaperStopDelayMaxMicros {
		t.Errorf("ss20 description: %+v, stop delay %v", s.PresetInfo, s.StopDelayMaxMicros)
	}
	if s.PMLatencyMicros != 24 || s.ControlHopMicros != 35 || s.ControlPerChildMicros != 35-24 || s.ControlFanout != 16 {
		t.Errorf("ss20 PM %v us, hop %v, per child %v", s.PMLatencyMicros, s.ControlHopMicros, s.ControlPerChildMicros)
	}
	if s.ReceiveBufferMessages != 2730 || s.ReceiveBufferBytes != 32<<10 || s.SendBufferMessages != 511 || s.SendBufferBytes != 12<<10 {
		t.Errorf("ss20 buffers %d/%d, %d/%d", s.ReceiveBufferMessages, s.ReceiveBufferBytes, s.SendBufferMessages, s.SendBufferBytes)
	}
	// The RWC tree costs are the SS20's scaled by the PM latencies, to the
	// stored 0.01 us.
	near(t, "rwc-pc2 hop", r.ControlHopMicros, s.ControlHopMicros*r.PMLatencyMicros/s.PMLatencyMicros, 0.005)
	near(t, "rwc-pc2 per child", r.ControlPerChildMicros, s.ControlPerChildMicros*r.PMLatencyMicros/s.PMLatencyMicros, 0.005)
	for _, c := range ps {
		if len(c.Sources) < 5 || len(c.Assumed) == 0 || len(c.Fitted) == 0 {
			t.Errorf("%s: %d sources, assumed %v, fitted %v", c.Name, len(c.Sources), c.Assumed, c.Fitted)
		}
		for _, f := range c.Fitted {
			for _, a := range c.Assumed {
				if f == a {
					t.Errorf("%s: %s both fitted and assumed", c.Name, f)
				}
			}
		}
	}
	if _, err := Preset("parpar"); !errors.Is(err, hwmodel.ErrUnknownPreset) {
		t.Errorf("Preset(parpar): %v", err)
	}
}

// TestChannelFit checks that the presets' channel models are the
// least-squares fits of the papers' tables, and how close they land.
func TestChannelFit(t *testing.T) {
	s3, r3 := Hori98Table3()
	s2, r2 := Hori96Table2()
	for _, tc := range []struct {
		c             Cluster
		save, restore ChannelTable
		tol           float64
		d             [2]float64 // interactions, ms
	}{
		{RWCPC2(), s3, r3, Table3Tolerance, [2]float64{0.20, 0.22}},
		{SS20(), s2, r2, Table2Tolerance, [2]float64{0.01, -0.02}},
	} {
		c := tc.c
		for i, op := range []struct {
			name   string
			paper  ChannelTable
			stored ChannelCost
		}{{"save", tc.save, c.SaveCost()}, {"restore", tc.restore, c.RestoreCost()}} {
			what := c.Name + " " + op.name
			near(t, what+" interaction", op.paper.Interaction(), tc.d[i], 1e-9)
			fit, err := FitChannel(op.paper, c.ReceiveBufferBytes, c.SendBufferBytes)
			if err != nil {
				t.Fatal(err)
			}
			// The preset stores the fit to 5 significant digits.
			near(t, what+" fixed (us)", op.stored.FixedMicros, fit.FixedMicros, 0.01)
			near(t, what+" receive rate", op.stored.ReceiveBytesPerSecond/fit.ReceiveBytesPerSecond, 1, 5e-5)
			near(t, what+" send rate", op.stored.SendBytesPerSecond/fit.SendBytesPerSecond, 1, 5e-5)
			// The exact fit misses every cell by d/4, alternating in sign.
			m := fit.Table(c.ReceiveBufferBytes, c.SendBufferBytes)
			d := op.paper.Interaction()
			for r := range 2 {
				for s := range 2 {
					sign := 1.0
					if r != s {
						sign = -1
					}
					near(t, what+" residual", op.paper[r][s]-m[r][s], sign*d/4, 1e-9)
				}
			}
			// The tolerance is the larger |d|/4 of save and restore rounded
			// up to 0.01 ms, and the stored model is within it.
			worst := max(math.Abs(tc.save.Interaction()), math.Abs(tc.restore.Interaction())) / 4
			if want := math.Ceil(worst*100-1e-9) / 100; tc.tol != want {
				t.Errorf("%s tolerance %v, want %v", what, tc.tol, want)
			}
			ms := op.stored.Table(c.ReceiveBufferBytes, c.SendBufferBytes)
			for r := range 2 {
				for s := range 2 {
					near(t, what+" cell", ms[r][s], op.paper[r][s], tc.tol)
				}
			}
		}
	}
	// Pinned fits: hori98 save 0.57 ms + 65,408 B in 1.64 ms + 61,200 B in
	// 1.44 ms; hori96 restore 0.115 ms + 32 KB in 1.83 ms + 12 KB in
	// 1.28 ms.
	f, _ := FitChannel(s3, 65408, 61200)
	near(t, "hori98 save fixed", f.FixedMicros, 570, 1e-9)
	near(t, "hori98 save receive", 65408/f.ReceiveBytesPerSecond, 1.64e-3, 1e-12)
	near(t, "hori98 save send", 61200/f.SendBytesPerSecond, 1.44e-3, 1e-12)
	f, _ = FitChannel(r2, 32768, 12288)
	near(t, "hori96 restore fixed", f.FixedMicros, 115, 1e-9)
	near(t, "hori96 restore receive", 32768/f.ReceiveBytesPerSecond, 1.83e-3, 1e-12)
	near(t, "hori96 restore send", 12288/f.SendBytesPerSecond, 1.28e-3, 1e-12)
	if _, err := FitChannel(ChannelTable{{1, 1}, {1, 1}}, 100, 100); err == nil {
		t.Error("a flat table fits")
	}
}

func TestOccupancy(t *testing.T) {
	c := RWCPC2()
	for _, tc := range []struct{ in, want float64 }{{0, 0}, {0.5, 0.5}, {1, 1}, {-2, 0}, {7, 1}, {math.NaN(), 0}, {math.Inf(1), 1}} {
		recv, send := c.BufferedBytes(tc.in)
		if recv != tc.want*65408 || send != tc.want*61200 {
			t.Errorf("BufferedBytes(%v) = %v, %v", tc.in, recv, send)
		}
	}
	// Linear in occupancy between the table's corners.
	save, _ := Hori98Table3()
	near(t, "save at 1/2", c.SaveSeconds(0.5)*1e3, (c.SaveSeconds(0)+c.SaveSeconds(1))/2*1e3, 1e-12)
	near(t, "save full", c.SaveSeconds(1)*1e3, save[1][1], Table3Tolerance)
	near(t, "save empty", c.SaveSeconds(0)*1e3, save[0][0], Table3Tolerance)
}

func TestTree(t *testing.T) {
	c := RWCPC2()
	for _, tc := range []struct {
		nodes int
		want  []int
	}{
		{0, []int{1}}, {1, []int{1}}, {2, []int{2}}, {16, []int{16}}, {17, []int{16, 2}},
		{64, []int{16, 4}}, {256, []int{16, 16}}, {257, []int{16, 16, 2}}, {4096, []int{16, 16, 16}},
	} {
		if got := c.TreeFanIns(tc.nodes); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("TreeFanIns(%d) = %v, want %v", tc.nodes, got, tc.want)
		}
	}
	// 2 (hop + 7 perChild) on 8 SS20s; 2 ((hop + 15 pc) + (hop + 3 pc)) on
	// 64 PCs.
	s := SS20()
	near(t, "ss20 round on 8 (us)", s.TreeRoundSeconds(8)*1e6, 2*(35+7*11), 1e-9)
	near(t, "ss20 round on 1 (us)", s.TreeRoundSeconds(1)*1e6, 2*35, 1e-9)
	near(t, "rwc round on 64 (us)", c.TreeRoundSeconds(64)*1e6, 2*(10.94+15*3.44+10.94+3*3.44), 1e-9)
	// Binary tree: depth log2 N.
	c.ControlFanout = 2
	if got := len(c.TreeFanIns(64)); got != 6 {
		t.Errorf("binary tree over 64 nodes has depth %d, want 6", got)
	}
}

func TestExpectedStop(t *testing.T) {
	for _, tc := range []struct {
		n           int
		last, rangE float64
	}{{0, 25, 0}, {1, 25, 0}, {2, 100.0 / 3, 50.0 / 3}, {4, 40, 30}, {8, 400.0 / 9, 350.0 / 9}} {
		near(t, "ExpectedLast", ExpectedLast(tc.n, 50), tc.last, 1e-12)
		near(t, "ExpectedRange", ExpectedRange(tc.n, 50), tc.rangE, 1e-12)
	}
	// Sampled delays average to the expectations: 20,000 switches on 8
	// nodes with a 50 ms spread; the standard error of the mean range is
	// about 0.07 ms, so 0.4 ms is over 5 sigma.
	s := *seed
	if s == 0 {
		s = 20260101
	}
	t.Logf("seed %d (re-run with -seed)", s)
	r := rand.New(rand.NewPCG(s, 0))
	m := Model{Cluster: SS20(), Stop: Signal}
	const draws = 20000
	var wait, skew float64
	for range draws {
		w, k := m.SampleStop(r, 8)
		if k > w || w > 50*model.Millisecond || k < 0 {
			t.Fatalf("seed %d: wait %v, skew %v", s, w, k)
		}
		wait += w.Seconds() / draws
		skew += k.Seconds() / draws
	}
	near(t, "mean sampled wait (ms)", wait*1e3, 400.0/9, 0.4)
	near(t, "mean sampled skew (ms)", skew*1e3, 350.0/9, 0.4)
	if w, k := m.SampleStop(r, 1); k != 0 || w > 50*model.Millisecond {
		t.Errorf("one node: wait %v, skew %v", w, k)
	}
	// No spread, no skew: the RWC cluster has no SIGSTOP delay.
	if w, k := (Model{Cluster: RWCPC2()}).SampleStop(r, 64); w != 0 || k != 0 {
		t.Errorf("rwc-pc2: wait %v, skew %v", w, k)
	}
}

func TestBreakdown(t *testing.T) {
	s := SS20()
	sig := Model{Cluster: s, Stop: Signal}
	b := sig.Breakdown(8, 0)
	round := 224 * model.Microsecond
	// freeze: round + 40 us stop + 2 x 24 us round trip; save and restore:
	// round + the empty channel's fixed cost; run: round + 40 us.
	want := Breakdown{
		Freeze: round + 40 + 48, Save: round + 128, Restore: round + 115, Run: round + 40,
		StopWait: model.FromSecondsFloat(0.050 * 8 / 9), Skew: model.FromSecondsFloat(0.050 * 7 / 9),
		Other: model.FromSecondsFloat(s.QuantumOverheadMicros * 1e-6),
	}
	if b != want {
		t.Errorf("ss20 breakdown on 8:\n got %+v\nwant %+v", b, want)
	}
	if b.Overhead() != b.Freeze+b.Save+b.Restore+b.Run+b.Skew+b.Other || b.Preemption() != b.Freeze+b.StopWait+b.Save+b.Restore {
		t.Error("Overhead or Preemption is not the sum of its parts")
	}
	vol := Model{Cluster: s, Stop: Voluntary}.Breakdown(8, 0)
	if vol.Skew != model.FromSecondsFloat(s.YieldSkewMaxMicros*1e-6*7/9) ||
		vol.Other != model.FromSecondsFloat((s.QuantumOverheadMicros+s.YieldMicros)*1e-6) || vol.Freeze != b.Freeze {
		t.Errorf("ss20 voluntary breakdown on 8: %+v", vol)
	}
	// Buffered messages: the drain adds the send buffer at PM bandwidth to
	// freeze; save and restore follow the channel model.
	r := RWCPC2()
	m := Model{Cluster: r}
	e, f := m.Breakdown(64, 0), m.Breakdown(64, 1)
	near(t, "drain (us)", float64(f.Freeze-e.Freeze), 61200/117.6, 1)
	near(t, "full save - empty (us)", float64(f.Save-e.Save), (r.SaveSeconds(1)-r.SaveSeconds(0))*1e6, 1)
	near(t, "full restore - empty (us)", float64(f.Restore-e.Restore), (r.RestoreSeconds(1)-r.RestoreSeconds(0))*1e6, 1)
	if e.Skew != 0 || e.StopWait != 0 {
		t.Errorf("rwc-pc2 has stop skew: %+v", e)
	}
	// OverheadSeconds agrees with the rounded parts to a few microseconds.
	for _, n := range []int{1, 3, 8, 64, 1000} {
		for _, o := range []float64{0, 0.3, 1} {
			for _, mm := range []Model{sig, m, {Cluster: s, Stop: Voluntary}} {
				near(t, "OverheadSeconds", mm.OverheadSeconds(n, o), mm.Breakdown(n, o).Overhead().Seconds(), 4e-6)
			}
		}
	}
}

func TestModelCosts(t *testing.T) {
	s := SS20()
	sig := Model{Cluster: s}
	for _, st := range []hwmodel.SwitchState{{Nodes: 8}, {Nodes: 4, Jobs: 3, Occupancy: 0.4}, {Nodes: 1, Occupancy: 1}} {
		if got, want := sig.Switch(st), sig.Breakdown(st.Nodes, st.Occupancy).Overhead(); got != want {
			t.Errorf("Switch(%+v) = %v, want %v", st, got, want)
		}
	}
	if sig.Switch(hwmodel.SwitchState{}) != sig.Switch(hwmodel.SwitchState{Nodes: 8}) {
		t.Error("Switch with no nodes is not the cluster's 8")
	}
	if sig.Switch(hwmodel.SwitchState{Nodes: 8, Jobs: 2}) != sig.Switch(hwmodel.SwitchState{Nodes: 8, Jobs: 9}) {
		t.Error("Switch depends on jobs")
	}
	if sig.Switch(hwmodel.SwitchState{Nodes: 8, Occupancy: 3}) != sig.Switch(hwmodel.SwitchState{Nodes: 8, Occupancy: 1}) ||
		sig.Switch(hwmodel.SwitchState{Nodes: 8, Occupancy: math.NaN()}) != sig.Switch(hwmodel.SwitchState{Nodes: 8}) {
		t.Error("occupancy is not clamped")
	}
	// Voluntary is cheaper on 2 or more SS20s, dearer on one.
	vol := Model{Cluster: s, Stop: Voluntary}
	if !(vol.Switch(hwmodel.SwitchState{Nodes: 2}) < sig.Switch(hwmodel.SwitchState{Nodes: 2})) ||
		!(vol.Switch(hwmodel.SwitchState{Nodes: 1}) > sig.Switch(hwmodel.SwitchState{Nodes: 1})) {
		t.Error("voluntary vs signal ordering")
	}
	// PM: 7.5 us + bytes at 117.6 MB/s on the PCs (hori98 Table 2),
	// whatever the contexts.
	r := Model{Cluster: RWCPC2()}
	for _, n := range []int{1, 4, 16} {
		lat, bw := r.Message(117600, n)
		if bw != 117.6e6 || lat != 1000*model.Microsecond+8 {
			t.Errorf("117,600 bytes at %d contexts: %v, %v B/s", n, lat, bw)
		}
	}
	if lat, _ := r.Message(0, 1); lat != 8 { // 7.5 us rounds half up
		t.Errorf("empty message: %v", lat)
	}
	if lat, _ := sig.Message(-5, 1); lat != 24 {
		t.Errorf("ss20 empty message: %v", lat)
	}
	if r.Launch(64, 1<<20) != 0 || sig.Launch(8, 0) != 0 {
		t.Error("Launch is not 0")
	}
}

func TestSlowdown(t *testing.T) {
	for _, tc := range []struct {
		over, q model.Time
		want    float64
	}{
		{0, model.Second, 0},
		{10 * model.Millisecond, 110 * model.Millisecond, 0.1},
		{50 * model.Millisecond, 100 * model.Millisecond, 1},
		{100 * model.Millisecond, 100 * model.Millisecond, math.Inf(1)},
		{200 * model.Millisecond, 100 * model.Millisecond, math.Inf(1)},
	} {
		if got := Slowdown(tc.over, tc.q); got != tc.want {
			t.Errorf("Slowdown(%v, %v) = %v, want %v", tc.over, tc.q, got, tc.want)
		}
	}
	near(t, "OverheadForSlowdown", OverheadForSlowdown(0.1, 110*model.Millisecond), 0.010, 1e-15)
}

// TestOverheadFit checks that the ss20 preset holds the fit of hori96
// Tables 4 and 5, and that a free fit finds the paper's 50 ms delay.
func TestOverheadFit(t *testing.T) {
	s := SS20()
	f, err := FitOverheads(s, Hori96Table4(), Hori96Table5())
	if err != nil {
		t.Fatal(err)
	}
	// Stored to 0.1 us.
	near(t, "quantum_overhead_us", s.QuantumOverheadMicros, f.QuantumOverheadMicros, 0.05)
	near(t, "yield_us", s.YieldMicros, f.YieldMicros, 0.05)
	near(t, "yield_skew_max_us", s.YieldSkewMaxMicros, f.YieldSkewMaxMicros, 0.05)
	if a := f.Apply(s); f.StopDelayMaxMicros != PaperStopDelayMaxMicros || a.QuantumOverheadMicros != f.QuantumOverheadMicros ||
		a.YieldMicros != f.YieldMicros || a.YieldSkewMaxMicros != f.YieldSkewMaxMicros || a.StopDelayMaxMicros != s.StopDelayMaxMicros {
		t.Errorf("fit %+v applied: %+v", f, a)
	}
	free, err := FitOverheadsFree(s, Hori96Table4(), Hori96Table5())
	if err != nil {
		t.Fatal(err)
	}
	near(t, "free stop delay (ms)", free.StopDelayMaxMicros/1e3, 51.2, 0.05)
	// Table 5 alone determines the yield skew and the voluntary constant
	// (quantum overhead + yield), so freeing the stop delay leaves them.
	near(t, "free yield skew (us)", free.YieldSkewMaxMicros, f.YieldSkewMaxMicros, 1e-6)
	near(t, "free voluntary constant (us)", free.QuantumOverheadMicros+free.YieldMicros, f.QuantumOverheadMicros+f.YieldMicros, 1e-6)
	// The weights matter: the tables' cells lie on the model to within
	// the stated share of their quantum only with the 1/quantum^2 fit.
	worst := 0.0
	for _, tab := range []struct {
		cells []OverheadCell
		mode  StopMode
	}{{Hori96Table4(), Signal}, {Hori96Table5(), Voluntary}} {
		m := Model{Cluster: s, Stop: tab.mode}
		for _, c := range tab.cells {
			worst = max(worst, math.Abs(overheadMillis(m, c.Processors)-c.Millis)/(c.Quantum.Seconds()*1e3))
		}
	}
	near(t, "largest miss / quantum", worst, 0.0302, 0.0005)
	if _, err := FitOverheads(s, nil, nil); err == nil {
		t.Error("fit of no cells succeeds")
	}
	if _, err := FitOverheads(s, Hori96Table4(), nil); err == nil {
		t.Error("fit of the yield parameters without Table 5 succeeds")
	}
}

func TestRWCFit(t *testing.T) {
	m := Model{Cluster: RWCPC2()}
	q := FitQuantumOverhead(m, 64, 0, Fig6Slice, EPSlowdownTarget)
	near(t, "quantum_overhead_us", m.Cluster.QuantumOverheadMicros, q, 0.05)
	// Stored to 0.1 us and each part rounded to the microsecond: the
	// slowdown is the target to 1e-4 (0.01 percentage point).
	near(t, "EP slowdown on 64 at 100 ms", Slowdown(m.Switch(hwmodel.SwitchState{Nodes: 64}), Fig6Slice), 0.065, 1e-4)
	occ := InferOccupancy(m, 64, Fig6Slice, WorstSlowdownTarget)
	near(t, "CG occupancy", occ, 0.2618, 0.0005)
	near(t, "CG slowdown on 64 at 100 ms", Slowdown(m.Switch(hwmodel.SwitchState{Nodes: 64, Occupancy: occ}), Fig6Slice), 0.085, 1e-4)
	// Beyond full buffers nothing reaches 30%.
	if o := InferOccupancy(m, 64, Fig6Slice, 0.3); o <= 1 {
		t.Errorf("30%% slowdown at occupancy %v", o)
	}
}

func TestLoadPreset(t *testing.T) {
	presettest.RoundTrip(t, Presets(), LoadPreset)
	data := presettest.RoundTrip(t, []Cluster{SS20()}, LoadPreset)
	edit := func(f func(m map[string]any)) string { return presettest.Edit(t, data, f) }
	// A user edit: the SS20s without the SunOS SIGSTOP delay.
	fixed, err := LoadPreset(strings.NewReader(edit(func(m map[string]any) { m["stop_delay_max_us"] = 0 })))
	if err != nil {
		t.Fatal(err)
	}
	if b := (Model{Cluster: fixed}).Breakdown(8, 0); b.Skew != 0 || b.StopWait != 0 {
		t.Errorf("edited preset: %+v", b)
	}
	presettest.Rejects(t, data, LoadPreset, []presettest.Invalid{
		{Name: "zero nodes", Edit: func(m map[string]any) { m["nodes"] = 0 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "zero buffer", Edit: func(m map[string]any) { m["send_buffer_bytes"] = 0 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "negative rate", Edit: func(m map[string]any) { m["save_send_bytes_per_second"] = -1 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "negative hop", Edit: func(m map[string]any) { m["control_hop_us"] = -1 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "fan-out 1", Edit: func(m map[string]any) { m["control_fanout"] = 1 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "negative delay", Edit: func(m map[string]any) { m["stop_delay_max_us"] = -5 }, Want: hwmodel.ErrInvalidPreset},
		{Name: "bad fitted name", Edit: func(m map[string]any) { m["fitted"] = []string{"yield"} }, Want: hwmodel.ErrInvalidPreset},
		{Name: "unknown field", Edit: func(m map[string]any) { m["stop_delay_us"] = 50000 }, Want: nil},
		{Name: "wrong type", Edit: func(m map[string]any) { m["nodes"] = "eight" }, Want: nil},
	})
}

func TestCurves(t *testing.T) {
	r, s := RWCPC2(), SS20()
	curves := []hwmodel.Curve{
		ChannelCurve(r, []float64{0, 0.5, 1}),
		PhaseCurve(Model{Cluster: r}, 0.25, Fig6Processors()),
		OverheadCurve(s, Hori96Processors()),
		SlowdownCurve(Model{Cluster: r}, 0, Fig6Processors(), Fig6Slices()),
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
	// The curves agree with the model.
	save, _ := Hori98Table3()
	near(t, "channel curve save at 1", curves[0].Series[0].Y[2], save[1][1], Table3Tolerance)
	if got, want := curves[2].Series[0].Y[3], overheadMillis(Model{Cluster: s}, 8); got != want {
		t.Errorf("overhead curve signal at 8: %v, want %v", got, want)
	}
	if got := curves[3].Series[3].Y[1]; math.Abs(got-6.5) > 0.01 {
		t.Errorf("slowdown curve EP at 64 nodes, 100 ms: %v%%, want 6.5%%", got)
	}
	if got, want := curves[1].Series[8].Y[3], millis(Model{Cluster: r}.Switch(hwmodel.SwitchState{Nodes: 64, Occupancy: 0.25})); got != want {
		t.Errorf("phase curve overhead at 64: %v, want %v", got, want)
	}
}

// overheadMillis is the model's overhead per switch on n nodes with empty
// buffers, in ms.
func overheadMillis(m Model, n int) float64 {
	return float64(m.Breakdown(n, 0).Overhead()) / float64(model.Millisecond)
}
