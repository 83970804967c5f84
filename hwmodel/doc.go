// Package hwmodel turns the papers' hardware measurements into cost models
// that a time-sharing simulation charges: the time of a global context
// switch, message latency and bandwidth under several communication
// contexts, and job launch time.
//
// Each interconnect and runtime has its own subpackage, built from one
// paper family and citing it for every constant:
//
//   - hwmodel/myrinet: Myrinet with Illinois Fast Messages on ParPar
//     (Etsion and Feitelson): credit flow control, NIC buffer division and
//     buffer switching, the three-stage gang switch.
//   - hwmodel/pm: PM on Myrinet under SCore-D (Hori et al. 1996, 1998):
//     network preemption, channel save and restore, SIGSTOP skew.
//   - hwmodel/qsnet: QsNet with STORM and BCS-MPI (Frachtenberg's thesis,
//     chapters 2-5): bandwidth and launch models, strobes, micro-timeslices.
//   - hwmodel/calypso: distributed context switching by task migration over
//     Ethernet (McLaughlin and Dasgupta).
//
// hwmodel/presets gathers them: every named preset of the four families
// by name, its cost model, its embedded JSON, the loading of an edited
// copy and its curves.
//
// This package holds what the families share:
//
//   - Costs, the interface the simulator asks, and SwitchState;
//   - NodeCosts, ManagerCosts and MemoryCosts, what some families also
//     know (a node's own switches and BCS-MPI's timing; STORM's launch; a
//     node's memory and paging), found through wrappers by Node, Manager
//     and Memory;
//   - Refill, which adds a cache and working-set refill penalty to any
//     Costs' gang switch (a parameter: the papers give no figure);
//   - PresetInfo, the description and parameters common to every preset,
//     and the preset plumbing: DecodePreset and LoadPreset (JSON, unknown
//     fields rejected), PresetDir (a family's embedded "<name>.json"
//     files) and ParamCheck (validation with errors wrapping
//     ErrInvalidPreset);
//   - Curve and Series, a model's values as plottable series, written as
//     CSV by Curve.WriteCSV.
//
// Each subpackage holds its papers' data (tables, bounds, the values the
// fits aim at) beside its models. The reproductions of the papers' tables
// and figures are built above the models, in repro/hardware, so that
// neither hwmodel nor its subpackages import repro or the plotting stack
// (internal/lint checks it).
package hwmodel
