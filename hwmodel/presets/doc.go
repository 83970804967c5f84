// Package presets is the registry of the hardware models' named presets:
// the papers' clusters, each a JSON file embedded in its family's package
// (hwmodel/myrinet, pm, qsnet, calypso) that says where its numbers come
// from, and what can be done with one.
//
//   - parpar (myrinet): Etsion and Feitelson's ParPar
//   - rwc-pc2, ss20 (pm): Hori et al.'s RWC PC Cluster II (1998) and
//     SPARCstation 20 cluster (1996)
//   - crescendo, accelerando, wolverine, asci-q (qsnet): the clusters of
//     Frachtenberg's thesis
//   - calypso-nt (calypso): McLaughlin and Dasgupta's Calypso NT cluster
//
// All lists them, Get returns one by name, Preset.JSON is its file byte
// for byte (an editable copy) and Load reads an edited copy back. The rule
// for an edited file's family: its "model" field names it, and that
// family's loader reads the file, so unknown fields and values the models
// cannot use are errors, as for the embedded files.
//
// Preset.Costs is the preset's hwmodel.Costs in one of its family's model
// variants (Family.Variants: e.g. Myrinet's buffer switching or division,
// PM's SIGSTOP or voluntary stop), wrapped in hwmodel.Refill so that every
// gang switch also costs Preset.RefillPenalty, the preset's
// refill_penalty_us unless the caller sets another.
//
// Preset.Curve draws a Kind of curve as an hwmodel.Curve: the GenericKinds
// (switch, latency, bandwidth, launch) through the cost model for every
// preset, and each family's own (Family.Kinds) through its package's
// Curve functions. Params say where a curve is evaluated; each kind fills
// the parameters it uses and that are left zero with defaults for the
// preset (Kind.Resolve), and rejects the others.
//
// The package imports neither the reproductions nor the plotting stack: a
// simulation links the cost models alone. The papers' tables and figures
// are reproduced above it, in repro/hardware.
package presets
