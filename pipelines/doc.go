// Package pipelines holds gangsim's runs as data: a Replay is everything
// that determines one simulation (policy, machine, engine rules, cleaning),
// runnable in-process by the replay command and by experiment runners alike,
// and able to describe itself as the parameter list every output records.
package pipelines
