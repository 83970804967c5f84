// Package hardware is the one registry of the papers' items made by code:
// the tables and figures it reproduces from the hardware cost models
// (package hwmodel and its families), and McLaughlin and Dasgupta's
// schedules replayed under dcs, as repro.Items: results/<paper>/<item>.csv
// and, for a figure, .png, written by `replay hw items` (and so by `make
// figures`). An item that an experiment file can express is one instead
// (docs/layout.md, "Where things go").
//
// It sits above the models on purpose. A cost model is importable alone:
// hwmodel, its families and hwmodel/presets import neither this package,
// nor repro, nor the plotting stack, so that a simulation (policies, sim,
// replay's engine) links the models without gonum/plot (internal/lint
// checks it). The papers' data the items compare against (tables, bounds,
// tolerances) stay in the family packages beside the models they test.
//
// Reproductions lists every item with the embedded preset it is computed
// on, in the order of the papers (repro.Papers); Find looks one up by
// "paper/name"; Reproduction.Build computes it with its manifest and
// Reproduction.Write also draws it and saves it. The item builders are
// exported:
//
//   - etsion (parpar): EtsionFig5, EtsionFig6*, EtsionSwitchCost
//   - hori96 (ss20): Hori96Table2, Hori96Table4, Hori96Table5, Hori96Fig8*
//   - hori98 (rwc-pc2): Hori98Table3, Hori98Fig6*
//   - frachtenberg (wolverine): FrachtenbergTable43, FrachtenbergFig412,
//     FrachtenbergTable45; (crescendo) FrachtenbergFig413*,
//     FrachtenbergFig414*, FrachtenbergFig415*
//   - mclaughlin (calypso-nt): McLaughlinSwitchCost; exp-1, exp-2, fig-3
//     and fig-4, replays under dcs (mclaughlin_replay.go)
//
// Most evaluate the model's equations on a cluster's values. Those marked
// * reproduce the papers' gang-scheduling measurements through the
// simulator instead: they replay the papers' benchmark runs (the
// benchmark scenarios of workload/scenario: copies of one program, each
// on the whole machine, all started at once) under gs, gangsim's gang
// scheduler, with one row per copy, charged by the preset in the
// mechanism the paper compares (Myrinet buffer switching against
// division; SCore-D's SIGSTOP against voluntary stops; STORM on QsNet),
// exactly as `replay --policy gs:mpl=N,quantum=Q --hw PRESET --mechanism
// M` would, and measure what the paper measured from the outcomes (a
// slowdown from the makespan, a bandwidth from the run times, run times).
// Their manifests say so (method=replays, the scenario, the policy and
// the mechanisms). Where a paper states numbers they stand beside
// gangsim's; where it states claims, each is checked on the replays and
// says with numbers whether it holds, and why not where it does not.
// Their tests hold the replays to the model's own equations (the formula
// items they replace, e.g. myrinet.TotalBandwidth and hori96 4.2's
// slowdown), up to how the runs end.
package hardware
