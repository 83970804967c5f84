// Package version says which gangsim made an output: the version and VCS
// revision every manifest records, and the identity of the code that the
// run cache keys on.
package version

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/gangsim/gangsim"
)

// Version is the gangsim release this binary was built from. Outputs
// record it. Release builds may set it with -ldflags "-X
// github.com/gangsim/gangsim/internal/version.Version=v1.2.3".
var Version = "v0.1.0-dev"

// Revision is the VCS revision the binary was built from, when the build
// set it with -ldflags "-X github.com/gangsim/gangsim/internal/version.Revision=REV"
// (make build does, with "+modified" appended for a tree with uncommitted
// changes: go build cannot stamp it in a git worktree or under
// GOFLAGS=-buildvcs=false); empty otherwise. The build information's own
// vcs.revision, when there is one, takes precedence.
var Revision = ""

// Build is what a binary knows of how it was built.
type Build struct {
	Version  string // the module version (go install's), else Version
	Revision string // the VCS revision; "" when unknown (a test binary, a build outside a checkout)
	Modified bool   // built from a tree with uncommitted changes
	Time     string // the revision's commit time, when the build stamped it
	Go       string // the Go toolchain, e.g. "go1.26.8"
}

// FromBuildInfo reads a Build from the build information bi (ok false when
// there is none) and the variables make build sets.
func FromBuildInfo(bi *debug.BuildInfo, ok bool) Build {
	b := Build{Version: Version, Go: "unknown"}
	if Revision != "" {
		b.Revision, b.Modified = strings.CutSuffix(Revision, "+modified")
	}
	if !ok || bi == nil {
		return b
	}
	b.Go = bi.GoVersion
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		b.Version = v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

var current = sync.OnceValue(func() Build {
	bi, ok := debug.ReadBuildInfo()
	return FromBuildInfo(bi, ok)
})

// Current returns this binary's Build.
func Current() Build { return current() }

// RevisionText is the revision as manifests record it: "REV",
// "REV+modified", or "unknown".
func (b Build) RevisionText() string {
	switch {
	case b.Revision == "":
		return "unknown"
	case b.Modified:
		return b.Revision + "+modified"
	}
	return b.Revision
}

// RevisionText is Current().RevisionText(): the revision every output's
// manifest records (model.Manifest.Revision).
func RevisionText() string { return Current().RevisionText() }

// Code identifies the code this binary runs, for the run cache and the
// manifests (GangsimCode): the SHA-256 of the module's sources it was
// built from (SourceDigest of the embedded gangsim.Sources: every Go file
// but tests, go.mod and go.sum, the embedded presets), the Go toolchain
// and the build settings that change what the compiler makes of them (the
// target OS, architecture and its level such as GOAMD64, GOEXPERIMENT,
// build tags, the compiler). It is the same for every binary built from
// the same sources with the same toolchain and target (make build's,
// go build's, go install's, a test binary), changes with any edit to the
// code whether committed or not, and does not change with a commit that
// touches no code (documentation, results). A binary whose sources cannot
// be read (it cannot happen with a correct build) panics.
func Code() string { return code() }

var code = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	var settings []debug.BuildSetting
	goVersion := runtime.Version()
	if ok {
		settings = bi.Settings
	}
	c, err := CodeOf(gangsim.Sources, goVersion, settings)
	if err != nil {
		panic(fmt.Sprintf("version: the embedded sources: %v", err))
	}
	return c
})

// CodeOf computes Code from the sources src, the toolchain goVersion and
// the build settings.
func CodeOf(src fs.FS, goVersion string, settings []debug.BuildSetting) (string, error) {
	digest, err := SourceDigest(src)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "gangsim code\nsources %s\ntoolchain %s\n", digest, goVersion)
	var kept []string
	for _, s := range settings {
		if codeSetting(s.Key) {
			kept = append(kept, s.Key+"="+s.Value)
		}
	}
	slices.Sort(kept)
	for _, s := range kept {
		fmt.Fprintf(h, "setting %s\n", s)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// codeSetting reports whether a build setting changes the code made from
// the same sources: the compiler, build tags and the target (GOOS, GOARCH,
// the architecture level GOAMD64, GOARM64..., GOEXPERIMENT). The others
// (-ldflags, which carries the revision, -buildmode, -trimpath, -race,
// CGO_*, vcs.*) do not change a result.
func codeSetting(key string) bool {
	return key == "-compiler" || key == "-tags" || strings.HasPrefix(key, "GO")
}

// SourceDigest is the SHA-256 of the sources in src that decide what a
// binary does: every .go file except tests (_test.go, and files under a
// testdata directory), go.mod, go.sum and the .json files (the embedded
// hardware presets), each hashed with its path and length, in path order.
func SourceDigest(src fs.FS) (string, error) {
	var files []string
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return fs.SkipDir
			}
			return nil
		}
		if IsSource(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fmt.Errorf("no source files")
	}
	slices.Sort(files)
	h := sha256.New()
	for _, p := range files {
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// IsSource reports whether the file at slash-separated path p (relative
// to the module root) counts in SourceDigest.
func IsSource(p string) bool {
	name := path.Base(p)
	switch {
	case p == "go.mod", p == "go.sum":
		return true
	case strings.HasSuffix(name, "_test.go"):
		return false
	case strings.HasSuffix(name, ".go"), strings.HasSuffix(name, ".json"):
		return !slices.Contains(strings.Split(path.Dir(p), "/"), "testdata")
	}
	return false
}
