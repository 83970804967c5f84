package calypso

import (
	"errors"
	"math"
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

func TestCalypsoNTPreset(t *testing.T) {
	c := CalypsoNT()
	// M&D 5.2: five Pentium-90 systems, 32 MB, 100 Mb/s Ethernet, NT 4.0.
	if c.Nodes != 5 || c.PEsPerNode != 1 || c.MemoryBytes != 32<<20 || c.EthernetBitsPerSecond != 100e6 {
		t.Errorf("preset %+v", c)
	}
	if !strings.Contains(c.CPU, "Pentium 90") || !strings.Contains(c.OS, "Windows NT 4.0") || len(c.Sources) == 0 {
		t.Errorf("preset description %q %q %d sources", c.CPU, c.OS, len(c.Sources))
	}
	if got := Presets(); len(got) != 1 || got[0].Name != "calypso-nt" {
		t.Errorf("Presets() = %d presets, want [calypso-nt]", len(got))
	}
	if _, err := Preset("parpar"); !errors.Is(err, hwmodel.ErrUnknownPreset) {
		t.Errorf("Preset(parpar): %v", err)
	}
}

func TestPessimisticOverhead(t *testing.T) {
	e1 := Experiments()[0]
	// 600 s at a 5 s quantum = 120 switches; (600 - 400)/120 = 1.6667 s,
	// printed 1.67 (M&D 5.2 Result C): exact to the microsecond.
	got := PessimisticOverhead(e1.RoundRobin, e1.Optimal, e1.Quantum)
	if got != 1666667*model.Microsecond {
		t.Errorf("experiment 1 estimate %v, want 1.666667s", got)
	}
	near(t, "experiment 1 vs printed", got.Seconds(), 1.67, 0.005)
	// Experiment 2's round-robin time is not in the text; 1.53 s implies
	// 5*278/(5-1.53) = 400.58 s, and feeding it back gives 1.53 s.
	e2 := Experiments()[1]
	rr := ImpliedRoundRobin(e2.Optimal, e2.Quantum, e2.Estimate)
	near(t, "implied round robin (s)", rr.Seconds(), 5*278/(5-1.53), 1e-6)
	near(t, "round trip", PessimisticOverhead(rr, e2.Optimal, e2.Quantum).Seconds(), 1.53, 1e-6)
	if ImpliedRoundRobin(e2.Optimal, e2.Quantum, 6*model.Second) != model.Never {
		t.Error("overhead above the quantum should never finish")
	}
}

func TestSwitchModel(t *testing.T) {
	c := CalypsoNT()
	var est []model.Time
	for _, e := range Experiments() {
		est = append(est, e.Estimate)
	}
	// The preset's S0 is the fit: mean of 1.67 and 1.53 = 1.60 s, exact.
	if fit := FitSwitchOverhead(est...); fit != 1600*model.Millisecond || float64(fit) != c.SwitchOverheadMicros {
		t.Errorf("fit %v, preset %v us, want 1.6s", fit, c.SwitchOverheadMicros)
	}
	// Residuals +0.07 s and -0.07 s; within the paper's 1-2 s range.
	sw := c.Switch(hwmodel.SwitchState{Nodes: 3, Jobs: 5})
	near(t, "residual experiment 1", (est[0] - sw).Seconds(), 0.07, 1e-9)
	near(t, "residual experiment 2", (est[1] - sw).Seconds(), -0.07, 1e-9)
	if sw < model.Second || sw > 2*model.Second {
		t.Errorf("switch %v outside 1-2 s", sw)
	}
	// Independent of the nodes, jobs and occupancy.
	for _, s := range []hwmodel.SwitchState{{}, {Nodes: 2}, {Nodes: 5, Jobs: 9, Occupancy: 1}} {
		if got := c.Switch(s); got != sw {
			t.Errorf("Switch(%+v) = %v, want %v", s, got, sw)
		}
	}
	// State copied at 100 Mb/s: 12.5 MB adds 1 s.
	c.StateBytes = 12_500_000
	if got := c.Switch(hwmodel.SwitchState{}); got != 2600*model.Millisecond {
		t.Errorf("with 12.5 MB of state: %v, want 2.6s", got)
	}
}

func TestMessageLaunch(t *testing.T) {
	c := CalypsoNT()
	for _, n := range []int{1, 4} {
		lat, bw := c.Message(1_250_000, n)
		if bw != 12.5e6 || lat != 100*model.Millisecond {
			t.Errorf("1.25 MB at %d contexts: %v, %v B/s; want 0.1s at 12.5e6", n, lat, bw)
		}
	}
	if lat, _ := c.Message(0, 1); lat != 0 {
		t.Errorf("empty message latency %v", lat)
	}
	if c.Launch(5, 1<<20) != 0 {
		t.Error("Launch is not 0")
	}
}

func TestLoadPreset(t *testing.T) {
	data := presettest.RoundTrip(t, []Cluster{CalypsoNT()}, LoadPreset)
	for _, tc := range []struct {
		name, old, new string
		want           error
	}{
		{"zero rate", `"ethernet_bits_per_second":100000000`, `"ethernet_bits_per_second":0`, hwmodel.ErrInvalidPreset},
		{"negative state", `"state_bytes":0`, `"state_bytes":-1`, hwmodel.ErrInvalidPreset},
		{"bad fitted name", `"fitted":["switch_overhead_us"]`, `"fitted":["overhead"]`, hwmodel.ErrInvalidPreset},
		{"unknown field", `"state_bytes":0`, `"state_byte":0`, nil},
	} {
		s := string(data)
		if !strings.Contains(s, tc.old) {
			t.Fatalf("%s: %q not in %s", tc.name, tc.old, s)
		}
		_, err := LoadPreset(strings.NewReader(strings.Replace(s, tc.old, tc.new, 1)))
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}
