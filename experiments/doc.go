// Package experiments holds gangsim's reproduced experiments as data, one
// JSON file per item of the papers, experiments/<paper>/<item>.json (see
// pipelines/analysis.Experiment for the format), and the test that the committed
// results/ are what they and the hardware models produce. `replay sweep`
// runs them; `make figures` runs them all, writes the hardware models'
// reproductions and rebuilds results/REPRODUCTION.md.
//
// The folders hold data alone: an item that a sweep's tables cannot
// express is built in Go by the one registry of such items, package
// repro/hardware (as McLaughlin and Dasgupta's Calypso schedules, replayed
// under the dcs policy and drawn as Gantt charts), and written by `replay
// hw items`.
package experiments
