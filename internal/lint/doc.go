// Package lint holds the repository's lint checks, run as tests so that
// "go test ./..." catches unformatted code, vet findings and a model
// package (hwmodel, policies, sim) that depends on the plotting stack or
// the reproductions.
package lint
