// Package analysis turns runs into a paper's items: an Experiment is one
// reproduced table or figure described as data (experiments/<paper>/
// <item>.json): the run it varies and its grid, the Analysis that makes
// the finished runs into the item's rows and figure, the paper's values
// and its claims (ClaimSpec) checked on the rows. Experiment.Reproduce
// runs the grid through a pipelines.Sweep and returns the item
// (repro.Item) with its manifest and drawing.
//
// It sits above the run layer (package pipelines) and beside the plotting
// (package plots) and the results' files (package repro), which it uses.
package analysis
