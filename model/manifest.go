package model

import (
	"sort"
	"strconv"
	"strings"
)

// Manifest records how an output was made: the tool, its version, the seed,
// the parameters and the digests of the inputs. Every gangsim output carries
// one (as header lines of a trace, as key-value metadata of a columnar file),
// so any file can be traced back to the command that made it and remade
// byte for byte.
//
// Its JSON form (for JSON outputs) has snake_case keys.
type Manifest struct {
	Tool    string `json:"tool"`    // the command, e.g. "genwork lublin" or "replay"
	Version string `json:"version"` // gangsim version
	// Revision is the VCS revision of the build ("REV", "REV+modified" for
	// a tree with uncommitted changes, "unknown"), as --version prints it;
	// Code the identity of the code (a digest of the sources the binary
	// was built from, its toolchain and target: internal/version.Code),
	// which says exactly which code made the output even when the revision
	// is "+modified". Empty ones are not written.
	Revision string  `json:"revision,omitempty"`
	Code     string  `json:"code,omitempty"`
	Seed     uint64  `json:"seed,omitempty"` // random seed; meaningful when HasSeed
	HasSeed  bool    `json:"has_seed"`       // whether the tool used randomness
	Params   []Param `json:"params"`         // parameters that shaped the output; sorted by Name when applied
	Inputs   []Input `json:"inputs"`         // the inputs, in the order given
}

// Param is one named parameter of a run, formatted as text.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Input identifies one input of a run by name and content digest.
type Input struct {
	Name   string `json:"name"`   // file name as given, "-" for standard input
	SHA256 string `json:"sha256"` // lower-case hex digest of the bytes read
}

// Manifest header keys.
const (
	KeyGangsimTool     = KeyGangsimPrefix + "Tool"
	KeyGangsimVersion  = KeyGangsimPrefix + "Version"
	KeyGangsimRevision = KeyGangsimPrefix + "Revision"
	KeyGangsimCode     = KeyGangsimPrefix + "Code"
	KeyGangsimSeed     = KeyGangsimPrefix + "Seed"
	KeyGangsimParam    = KeyGangsimPrefix + "Param"
	KeyGangsimInput    = KeyGangsimPrefix + "Input"
)

// KeyUpstreamPrefix starts the keys of the manifests of earlier steps: when
// a step writes its manifest over an input that has one, the input's lines
// are kept with this prefix added ("InputGangsimSeed: 42"), so an output
// records every step that led to it, newest first.
const KeyUpstreamPrefix = "Input"

// Apply writes m into h. Manifest lines h already had (an earlier step's)
// are kept, their keys prefixed with KeyUpstreamPrefix.
func (m *Manifest) Apply(h *Header) {
	for i, l := range h.Lines {
		if isManifestKey(l.Key) {
			h.Lines[i].Key = KeyUpstreamPrefix + l.Key
		}
	}
	h.Add(KeyGangsimTool, m.Tool)
	h.Add(KeyGangsimVersion, m.Version)
	if m.Revision != "" {
		h.Add(KeyGangsimRevision, m.Revision)
	}
	if m.Code != "" {
		h.Add(KeyGangsimCode, m.Code)
	}
	if m.HasSeed {
		h.Add(KeyGangsimSeed, strconv.FormatUint(m.Seed, 10))
	}
	params := append([]Param(nil), m.Params...)
	sort.SliceStable(params, func(i, j int) bool { return params[i].Name < params[j].Name })
	for _, p := range params {
		h.Add(KeyGangsimParam, p.Name+"="+p.Value)
	}
	for _, in := range m.Inputs {
		h.Add(KeyGangsimInput, in.SHA256+" "+in.Name)
	}
}

// Upstream returns a header line of a step's input as the step's output
// carries it: a manifest line ("Gangsim...", "InputGangsim...") gets the
// KeyUpstreamPrefix, as Apply gives the lines before it; others are kept
// as they are. It is for the lines known only at the input's end (its
// trailer), which join the output's trailer.
func Upstream(l HeaderLine) HeaderLine {
	if isManifestKey(l.Key) {
		l.Key = KeyUpstreamPrefix + l.Key
	}
	return l
}

// isManifestKey reports whether key belongs to a manifest of any step:
// "Gangsim...", "InputGangsim...", "InputInputGangsim...".
func isManifestKey(key string) bool {
	for strings.HasPrefix(key, KeyUpstreamPrefix) {
		key = key[len(KeyUpstreamPrefix):]
	}
	return strings.HasPrefix(key, KeyGangsimPrefix)
}

// ManifestOf reads back the manifest that Apply wrote into h. ok is false
// when h has no GangsimTool line.
func ManifestOf(h *Header) (m Manifest, ok bool) {
	for _, l := range h.Lines {
		switch l.Key {
		case KeyGangsimTool:
			m.Tool, ok = l.Value, true
		case KeyGangsimVersion:
			m.Version = l.Value
		case KeyGangsimRevision:
			m.Revision = l.Value
		case KeyGangsimCode:
			m.Code = l.Value
		case KeyGangsimSeed:
			if s, err := strconv.ParseUint(l.Value, 10, 64); err == nil {
				m.Seed, m.HasSeed = s, true
			}
		case KeyGangsimParam:
			name, value, _ := strings.Cut(l.Value, "=")
			m.Params = append(m.Params, Param{Name: name, Value: value})
		case KeyGangsimInput:
			digest, name, _ := strings.Cut(l.Value, " ")
			m.Inputs = append(m.Inputs, Input{Name: name, SHA256: digest})
		}
	}
	return m, ok
}

// Param returns the value of the named parameter.
func (m *Manifest) Param(name string) (string, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// ManifestChain returns the manifests h records, newest first: the step
// that wrote h ("Gangsim..." lines), then the step before it
// ("InputGangsim..."), and so on.
func ManifestChain(h *Header) []Manifest {
	var chain []Manifest
	for level := 0; ; level++ {
		prefix := strings.Repeat(KeyUpstreamPrefix, level)
		var sub Header
		for _, l := range h.Lines {
			if k, ok := strings.CutPrefix(l.Key, prefix); ok && strings.HasPrefix(k, KeyGangsimPrefix) {
				sub.Add(k, l.Value)
			}
		}
		if len(sub.Lines) == 0 {
			return chain
		}
		m, _ := ManifestOf(&sub)
		chain = append(chain, m)
	}
}
