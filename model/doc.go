// Package model holds the domain types that every other gangsim package
// speaks: simulated time, jobs (every SWF field plus the application
// attributes the time-sharing models need), trace headers and machines.
//
// It is a leaf package: it imports nothing from gangsim, does no I/O and
// holds no state. Formats (package swf, package tabular), generators
// (package workload) and simulators (package policies and the replay engine)
// all convert to and from these types.
//
// Missing values are explicit. A Job records which of its 18 SWF fields are
// known in Job.Known; an unknown field holds the zero value and must not be
// read as data. Application attributes use an explicit "unspecified" zero
// value for every enumerated attribute.
package model
