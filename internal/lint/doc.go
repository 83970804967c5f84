// Package lint holds the repository's lint checks, run as tests so that
// "go test ./..." catches unformatted code, vet findings and an import
// that runs up the layers of docs/layout.md (TestLayers: a cost model
// that needs the engine, a replay that needs the plotting stack, the run
// layer that needs the analyses).
package lint
