package model

import (
	"strconv"
	"strings"
)

// HeaderLine is one line of a trace header: a "Key: value" pair, or a
// free-form note (Key empty) such as a continuation line or a comment.
type HeaderLine struct {
	Key   string // e.g. "MaxProcs"; empty for a free-form line
	Value string // the text after "Key:", trimmed; for a free-form line, the text itself
}

// Header is a trace's metadata: the ";" comment block of an SWF file, or the
// key-value metadata of a columnar file. Lines keep their file order so a
// header survives a round trip through any format; a key may repeat (SWF
// repeats Queue, Partition, Note, Information).
//
// Well-known SWF 2.2 keys have typed accessors (MaxProcs, MaxNodes,
// UnixStartTime...) that take the value's leading integer, so
// "MaxNodes: 338 (batch partition; 512 total)" gives 338 while the line keeps
// its full text.
type Header struct {
	Lines []HeaderLine
}

// Well-known header keys: the SWF 2.2 keys a simulator reads, and the keys
// gangsim writes to record how a file was made.
const (
	KeyVersion        = "Version"
	KeyComputer       = "Computer"
	KeyInstallation   = "Installation"
	KeyMaxJobs        = "MaxJobs"
	KeyMaxRecords     = "MaxRecords"
	KeyUnixStartTime  = "UnixStartTime"
	KeyTimeZone       = "TimeZone"
	KeyTimeZoneString = "TimeZoneString"
	KeyMaxNodes       = "MaxNodes"
	KeyMaxProcs       = "MaxProcs"
	KeyMaxRuntime     = "MaxRuntime"
	KeyMaxMemory      = "MaxMemory"
	KeyNote           = "Note"

	// KeyGangsimPrefix starts every key gangsim adds (tool, version, seed,
	// parameters, input digest); see package manifest conventions in the
	// README.
	KeyGangsimPrefix = "Gangsim"
)

// Get returns the value of the first line with the given key.
func (h *Header) Get(key string) (string, bool) {
	for _, l := range h.Lines {
		if l.Key == key {
			return l.Value, true
		}
	}
	return "", false
}

// Set replaces the value of the first line with the given key, removing any
// later lines with that key, or appends a new line if there is none.
func (h *Header) Set(key, value string) {
	if key == "" {
		panic("model: Header.Set with an empty key")
	}
	out := h.Lines[:0]
	found := false
	for _, l := range h.Lines {
		if l.Key == key {
			if found {
				continue
			}
			found = true
			l.Value = value
		}
		out = append(out, l)
	}
	h.Lines = out
	if !found {
		h.Lines = append(h.Lines, HeaderLine{Key: key, Value: value})
	}
}

// Add appends a line, keeping any earlier lines with the same key.
func (h *Header) Add(key, value string) {
	h.Lines = append(h.Lines, HeaderLine{Key: key, Value: value})
}

// Delete removes every line with the given key.
func (h *Header) Delete(key string) {
	out := h.Lines[:0]
	for _, l := range h.Lines {
		if l.Key != key {
			out = append(out, l)
		}
	}
	h.Lines = out
}

// Int returns the leading integer of the first value with the given key:
// 338 for "338 (batch partition; 512 total)", -18000 for "-18000". ok is
// false when the key is absent or its value does not start with an integer.
func (h *Header) Int(key string) (n int64, ok bool) {
	v, found := h.Get(key)
	if !found {
		return 0, false
	}
	return LeadingInt(v)
}

// LeadingInt parses the optionally signed decimal integer at the start of s,
// after leading blanks, ignoring whatever text follows it.
func LeadingInt(s string) (int64, bool) {
	s = strings.TrimLeft(s, " \t")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:end], 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// MaxProcs is the header's MaxProcs, or 0 when absent.
func (h *Header) MaxProcs() int { n, _ := h.Int(KeyMaxProcs); return int(n) }

// MaxNodes is the header's MaxNodes, or 0 when absent.
func (h *Header) MaxNodes() int { n, _ := h.Int(KeyMaxNodes); return int(n) }

// UnixStartTime is the epoch second of the trace's time 0, or 0 when absent.
func (h *Header) UnixStartTime() int64 { n, _ := h.Int(KeyUnixStartTime); return n }

// TimeZone is the header's TimeZone offset in seconds, or 0 when absent.
func (h *Header) TimeZone() int64 { n, _ := h.Int(KeyTimeZone); return n }

// Machine derives the machine a trace ran on from MaxProcs and MaxNodes: nodes
// of MaxProcs/MaxNodes processors when MaxNodes divides MaxProcs, else a flat
// pool of MaxProcs (or of MaxNodes when MaxProcs is absent). It returns the
// zero Machine when neither key is present.
func (h *Header) Machine() Machine {
	procs, nodes := h.MaxProcs(), h.MaxNodes()
	switch {
	case procs > 0 && nodes > 0 && procs%nodes == 0:
		return Machine{Nodes: nodes, PEsPerNode: procs / nodes}
	case procs > 0:
		return FlatMachine(procs)
	case nodes > 0:
		return FlatMachine(nodes)
	}
	return Machine{}
}

// Clone returns a copy of h that shares no memory with it.
func (h *Header) Clone() Header {
	return Header{Lines: append([]HeaderLine(nil), h.Lines...)}
}
