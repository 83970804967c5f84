// Package metrics computes the performance metrics of scheduling studies
// from per-job outcomes: wait and response times, slowdown and bounded
// slowdown (the classic form and the time-sharing form of Frachtenberg's
// thesis, section 6.4.1), makespan, utilization and throughput.
//
// Functions take plain values or slices, in the manner of gonum's stat
// package; Summary accumulates a run's aggregates from a stream of outcomes
// in constant memory.
package metrics
