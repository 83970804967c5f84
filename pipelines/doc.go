// Package pipelines is gangsim's run layer: a Replay is everything that
// determines one simulation (policy, machine, engine rules, cleaning),
// runnable in-process by the replay command and by experiment runners
// alike, and able to describe itself as the parameter list every output
// records; a Run is a workload and a replay as data, with a cache key; a
// Cache keeps finished runs on disk; a Sweep runs many runs through the
// cache on every core; Expand makes a grid of runs from a base and axes.
//
// It knows nothing of what the runs are for: the experiments, their
// analyses and claims are package pipelines/analysis, the Slurm driver is
// package pipelines/slurm, and the commands draw progress (Sweep.Progress
// is an interface). It imports no plotting, no reproduction and no
// command-line package (internal/lint's TestLayers keeps it so).
package pipelines
