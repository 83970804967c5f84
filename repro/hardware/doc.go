// Package hardware reproduces the papers' tables and figures from the
// hardware cost models (package hwmodel and its families) as repro.Items:
// results/<paper>/<item>.csv and, for a figure, .png, written by
// `replay hw items` (and so by `make figures`).
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
// "paper/name"; Reproduction.Write computes it, draws it and saves it with
// its manifest. The item builders are exported so that an item can be
// computed on an edited preset:
//
//   - etsion (parpar): EtsionFig5, EtsionFig6, EtsionSwitchCost
//   - hori96 (ss20): Hori96Table2, Hori96Table4, Hori96Table5
//   - hori98 (rwc-pc2): Hori98Table3, Hori98Fig6
//   - frachtenberg (wolverine): FrachtenbergTable43, FrachtenbergFig412,
//     FrachtenbergTable45
//   - mclaughlin (calypso-nt): McLaughlinSwitchCost
package hardware
