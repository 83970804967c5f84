// Package gangsim holds the module's own sources, embedded in every
// binary that imports it (through internal/version, which every command
// does), so that a binary can name the code it runs by their digest: the
// run cache keys on it (internal/version.Code), and a modified build is
// told from another without trusting a revision string. The commands and
// libraries live in the packages below this one.
package gangsim

import "embed"

// Sources is every Go file of the module (tests among them: a glob cannot
// leave them out; Code skips them), go.mod and go.sum, which pin the
// dependencies, and the hardware presets the model packages embed.
// internal/version's tests check that no Go file of the module is missing
// from it, so a package deeper than the patterns reach is noticed.
//
//go:embed go.mod go.sum *.go */*.go */*/*.go hwmodel/*/presets/*.json
var Sources embed.FS
