// Package version holds the gangsim version that every output's manifest
// records.
package version

// Version is the gangsim release this binary was built from. Outputs record
// it, and run caches key on it, so it changes whenever simulated results may.
// Release builds may set it with -ldflags "-X
// github.com/gangsim/gangsim/internal/version.Version=v1.2.3".
var Version = "v0.1.0-dev"

// Revision is the VCS revision the binary was built from, when the build
// set it with -ldflags "-X github.com/gangsim/gangsim/internal/version.Revision=REV"
// (make build does: go build cannot stamp it in a git worktree or under
// GOFLAGS=-buildvcs=false); empty otherwise. --version prints it when the
// build information has no vcs.revision of its own.
var Revision = ""
