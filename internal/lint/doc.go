// Package lint holds the repository's lint checks, run as tests so that
// "go test ./..." catches unformatted code, vet findings, an import
// that runs up the layers of docs/layout.md (TestLayers: a cost model
// that needs the engine, a replay that needs the plotting stack, the run
// layer that needs the analyses), Go code in the experiments' data
// folders (TestNoCodeInDataFolders) and a function too long to read at
// once (TestFunctionLength: over 100 lines, but for the engines'
// documented algorithms and the SWF parser it names).
package lint
