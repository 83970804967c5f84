package presets

import (
	"fmt"
	"io"
	"strings"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/calypso"
	"github.com/gangsim/gangsim/hwmodel/myrinet"
	"github.com/gangsim/gangsim/hwmodel/pm"
	"github.com/gangsim/gangsim/hwmodel/qsnet"
	"github.com/gangsim/gangsim/model"
)

// loader adapts a family's LoadPreset to the registry.
func loader[T hwmodel.Preset](load func(io.Reader) (T, error)) func(io.Reader) (hwmodel.Preset, error) {
	return func(r io.Reader) (hwmodel.Preset, error) {
		c, err := load(r)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// The Myrinet variants: how the jobs' contexts share the NIC buffers and
// what a buffer-switching gang switch copies.
const (
	myrinetSwitchingValid = "switching-valid"
	myrinetSwitchingFull  = "switching-full"
	myrinetDivision       = "division"
)

func myrinetModel(c myrinet.Cluster, variant string) myrinet.Model {
	switch variant {
	case myrinetSwitchingFull:
		return myrinet.Model{Cluster: c, Mode: myrinet.BufferSwitching, Copy: myrinet.CopyFull}
	case myrinetDivision:
		return myrinet.Model{Cluster: c, Mode: myrinet.BufferDivision}
	}
	return myrinet.Model{Cluster: c, Mode: myrinet.BufferSwitching, Copy: myrinet.CopyValid}
}

// myrinetCopy is the copy variant of a buffer-switching variant; the
// division variant has none.
func myrinetCopy(kind, variant string) (myrinet.Copy, error) {
	if variant == myrinetDivision {
		return 0, fmt.Errorf("curve %s: %w: the %s variant switches no buffers (want %s or %s)",
			kind, ErrParams, myrinetDivision, myrinetSwitchingValid, myrinetSwitchingFull)
	}
	return myrinetModel(myrinet.Cluster{}, variant).Copy, nil
}

func myrinetFamily() Family {
	cluster := func(p Preset) myrinet.Cluster { return p.Cluster.(myrinet.Cluster) }
	return Family{
		Name:   "myrinet",
		Papers: "Etsion and Feitelson: Myrinet with Illinois Fast Messages on ParPar",
		Variants: []Variant{
			{myrinetSwitchingValid, "gang scheduling with buffer switching, copying only the valid packets (E&F 3.3, 4.2, Fig. 9; the paper's improved switch)"},
			{myrinetSwitchingFull, "gang scheduling with buffer switching, copying the whole buffers (E&F 4.2, Fig. 7)"},
			{myrinetDivision, "the original FM: the buffers divided among the contexts, nothing copied at a switch (E&F 2.2, Fig. 5)"},
		},
		files: myrinet.PresetFiles(),
		load:  loader(myrinet.LoadPreset),
		costs: func(c hwmodel.Preset, variant string) hwmodel.Costs {
			return myrinetModel(c.(myrinet.Cluster), variant)
		},
		Kinds: []Kind{
			{
				Name:        "total-bandwidth",
				Description: "machine's total bandwidth in MB/s against message size, one series per jobs gang-scheduled with buffer switching (E&F Fig. 6)",
				Uses:        []string{ParamVariant, ParamBytes, ParamContexts, ParamOccupancy, ParamQuantum},
				Single:      []string{ParamOccupancy, ParamQuantum},
				defaults: func(Preset) Params {
					return Params{Bytes: myrinet.MessageSizes(), Contexts: myrinet.FigContexts(),
						Occupancy: []float64{1}, Quanta: []model.Time{myrinet.Fig6Quantum}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					cp, err := myrinetCopy("total-bandwidth", a.Variant)
					if err != nil {
						return hwmodel.Curve{}, err
					}
					return myrinet.TotalBandwidthCurve(cluster(p), cp, a.Occupancy[0], a.Quanta[0], a.Contexts, a.Bytes), nil
				},
			},
			{
				Name:        "stages",
				Description: "gang switch stages (halt, swap, release, total) in ms against nodes (E&F Figs. 7, 9)",
				Uses:        []string{ParamVariant, ParamNodes, ParamOccupancy},
				Single:      []string{ParamOccupancy},
				defaults: func(p Preset) Params {
					return Params{Nodes: NodesUpTo(p.Info().Nodes), Occupancy: []float64{1}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					cp, err := myrinetCopy("stages", a.Variant)
					if err != nil {
						return hwmodel.Curve{}, err
					}
					return myrinet.SwitchCurve(cluster(p), cp, a.Occupancy[0], a.Nodes), nil
				},
			},
			{
				Name:        "swap",
				Description: "valid-packets-only buffer swap in ms against valid packets, in the receive or the send buffer (E&F 4.2, Figs. 8, 9)",
				Uses:        []string{ParamPackets},
				defaults: func(p Preset) Params {
					return Params{Packets: []int{0, 100, 200, 300, 400, 500, 600, cluster(p).ReceivePackets}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return myrinet.SwapCurve(cluster(p), a.Packets), nil
				},
			},
		},
	}
}

// pmStop is the stop mode of a PM variant: how SCore-D stops the running
// processes.
func pmStop(variant string) pm.StopMode {
	if variant == pm.Voluntary.String() {
		return pm.Voluntary
	}
	return pm.Signal
}

func pmFamily() Family {
	cluster := func(p Preset) pm.Cluster { return p.Cluster.(pm.Cluster) }
	pmModel := func(p Preset, variant string) pm.Model { return pm.Model{Cluster: cluster(p), Stop: pmStop(variant)} }
	return Family{
		Name:   "pm",
		Papers: "Hori et al. 1996 and 1998: PM on Myrinet under SCore-D, network preemption",
		Variants: []Variant{
			{pm.Signal.String(), "SCore-D stops the processes with SIGSTOP (hori96 3.4, 4.2; hori98 4)"},
			{pm.Voluntary.String(), "voluntary gang scheduling: the runtime yields at the quantum's end (hori96 4.3)"},
		},
		files: pm.PresetFiles(),
		load:  loader(pm.LoadPreset),
		costs: func(c hwmodel.Preset, variant string) hwmodel.Costs {
			return pm.Model{Cluster: c.(pm.Cluster), Stop: pmStop(variant)}
		},
		Kinds: []Kind{
			{
				Name:        "channel",
				Description: "channel context save and restore times in ms against buffer occupancy (hori98 Table 3, hori96 Table 2)",
				Uses:        []string{ParamOccupancy},
				defaults: func(Preset) Params {
					return Params{Occupancy: []float64{0, 0.25, 0.5, 0.75, 1}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return pm.ChannelCurve(cluster(p), a.Occupancy), nil
				},
			},
			{
				Name:        "phases",
				Description: "parts of a gang switch (freeze, save, restore, run, stop wait, skew, other; preemption, overhead) in ms against nodes (hori98 Fig. 5)",
				Uses:        []string{ParamVariant, ParamNodes, ParamOccupancy},
				Single:      []string{ParamOccupancy},
				defaults: func(p Preset) Params {
					return Params{Nodes: NodesUpTo(p.Info().Nodes), Occupancy: []float64{0}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return pm.PhaseCurve(pmModel(p, a.Variant), a.Occupancy[0], a.Nodes), nil
				},
			},
			{
				Name:        "overhead",
				Description: "overhead per switch in ms against processors, SIGSTOP and voluntary (hori96 Tables 4, 5)",
				Uses:        []string{ParamNodes},
				defaults: func(p Preset) Params {
					return Params{Nodes: NodesUpTo(p.Info().Nodes)}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return pm.OverheadCurve(cluster(p), a.Nodes), nil
				},
			},
			{
				Name:        "slowdown",
				Description: "slowdown in percent against the time slice in ms, one series per nodes (hori98 Fig. 6; hori96 Figs. 6-8)",
				Uses:        []string{ParamVariant, ParamNodes, ParamQuantum, ParamOccupancy},
				Single:      []string{ParamOccupancy},
				defaults: func(p Preset) Params {
					return Params{Nodes: NodesUpTo(p.Info().Nodes), Quanta: pm.Fig6Slices(), Occupancy: []float64{0}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return pm.SlowdownCurve(pmModel(p, a.Variant), a.Occupancy[0], a.Nodes, a.Quanta), nil
				},
			},
		},
	}
}

// qsnetModel is a QsNet variant's model of c: the launch model's transfer
// bandwidth, "es40" or "ideal", and "-nic" for message buffers in NIC
// memory.
func qsnetModel(c qsnet.Cluster, variant string) qsnet.Model {
	m := qsnet.Model{Cluster: c, Transfer: qsnet.TransferES40}
	transfer, nic := strings.CutSuffix(variant, "-nic")
	if transfer == qsnet.TransferIdeal.String() {
		m.Transfer = qsnet.TransferIdeal
	}
	m.NICMemory = nic
	return m
}

func qsnetFamily() Family {
	cluster := func(p Preset) qsnet.Cluster { return p.Cluster.(qsnet.Cluster) }
	var table43 []int
	for _, r := range qsnet.Table43() {
		table43 = append(table43, r.Nodes)
	}
	return Family{
		Name:   "qsnet",
		Papers: "Frachtenberg's thesis: QsNet with STORM and BCS-MPI",
		Variants: []Variant{
			{"es40", "launch transfer limited by the host protocol (Eq. 4.8); messages between main memories (2.4.1.1)"},
			{"ideal", "launch transfer limited by the network only (Eq. 4.9); messages between main memories"},
			{"es40-nic", "launch as es40; messages between buffers in NIC memory (2.4.1.1: 335 MB/s peak)"},
			{"ideal-nic", "launch as ideal; messages between buffers in NIC memory"},
		},
		files: qsnet.PresetFiles(),
		load:  loader(qsnet.LoadPreset),
		costs: func(c hwmodel.Preset, variant string) hwmodel.Costs {
			return qsnetModel(c.(qsnet.Cluster), variant)
		},
		Kinds: []Kind{
			{
				Name:        "bandwidth-table",
				Description: "asymptotic bandwidth (Eq. 4.3) in MiB/s against cable length in m, one series per network size (Table 4.3)",
				Uses:        []string{ParamNodes, ParamCables},
				defaults: func(Preset) Params {
					return Params{Nodes: table43, Cables: qsnet.Table43Cables()}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return qsnet.BandwidthTableCurve(cluster(p), a.Nodes, a.Cables), nil
				},
			},
			{
				Name:        "broadcast",
				Description: "hardware broadcast bandwidth (Eq. 4.6) in MiB/s against nodes",
				Uses:        []string{ParamNodes},
				defaults:    func(Preset) Params { return Params{Nodes: qsnet.Fig412Nodes()} },
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return qsnet.BroadcastBandwidthCurve(cluster(p), a.Nodes), nil
				},
			},
			{
				Name:        "launch-models",
				Description: "STORM launch time in ms against nodes, ES40 (Eq. 4.8) and ideal (Eq. 4.9) transfers (Fig. 4.12)",
				Uses:        []string{ParamNodes, ParamBinaryBytes},
				Single:      []string{ParamBinaryBytes},
				defaults: func(Preset) Params {
					return Params{Nodes: qsnet.Fig412Nodes(), BinaryBytes: []int64{qsnet.LaunchBinaryBytes}}
				},
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return qsnet.LaunchCurve(cluster(p), a.BinaryBytes[0], a.Nodes), nil
				},
			},
			{
				Name:        "launchers",
				Description: "launch time in s against nodes of rsh, RMS, GLUnix, Cplant, BProc (the thesis's fits) and STORM (Table 4.5, Fig. 4.16)",
				Uses:        []string{ParamNodes},
				// From 4 nodes: BProc's fit, 0.413 lg n - 0.084 s, is
				// negative on 1.
				defaults: func(Preset) Params { return Params{Nodes: qsnet.PowersOf(4, qsnet.PredictedLaunchNodes)[1:]} },
				draw: func(p Preset, a Params) (hwmodel.Curve, error) {
					return qsnet.LauncherCurve(cluster(p), a.Nodes), nil
				},
			},
		},
	}
}

func calypsoFamily() Family {
	return Family{
		Name:   "calypso",
		Papers: "McLaughlin and Dasgupta: distributed context switching on Calypso NT",
		Variants: []Variant{
			{"migration", "a gang switch migrates the tasks' context and stack over Ethernet (M&D 5.1, 5.2 Result C)"},
		},
		files: calypso.PresetFiles(),
		load:  loader(calypso.LoadPreset),
		costs: func(c hwmodel.Preset, _ string) hwmodel.Costs { return c.(calypso.Cluster) },
	}
}
