// Package experiments holds gangsim's reproduced experiments as data, one
// JSON file per item of the papers, experiments/<paper>/<item>.json (see
// pipelines/analysis.Experiment for the format), and the test that the committed
// results/ are what they and the hardware models produce. `replay sweep`
// runs them; `make figures` runs them all, writes the hardware models'
// reproductions and rebuilds results/REPRODUCTION.md.
//
// Items that a sweep's tables cannot express are built in Go by a
// subpackage named after the paper: experiments/mclaughlin replays
// McLaughlin and Dasgupta's Calypso schedules under the dcs policy and
// draws them as Gantt charts (written by `replay hw items`).
package experiments
