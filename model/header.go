package model

import (
	"errors"
	"math"
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
// UnixStartTime...) that read the value as ParseHeaderInt does, so
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

// Int returns the integer value of the first line with the given key:
// 338 for "338 (batch partition; 512 total)", -18000 for "-18000". ok is
// false when the key is absent or its value is not an integer as
// ParseHeaderInt reads it ("1e30", "12.7" and "64abc" are not).
func (h *Header) Int(key string) (n int64, ok bool) {
	v, found := h.Get(key)
	if !found {
		return 0, false
	}
	n, err := ParseHeaderInt(key, v)
	return n, err == nil
}

// SWFHeaderKeys are the header fields of SWF 2.2 (the Parallel Workloads
// Archive's definition of the Standard Workload Format), in its order.
// Their integer ones are IsIntKey's; the others are text.
var SWFHeaderKeys = []string{
	KeyVersion, KeyComputer, KeyInstallation, "Acknowledge", "Information", "Conversion",
	KeyMaxJobs, KeyMaxRecords, "Preemption", KeyUnixStartTime, KeyTimeZone, KeyTimeZoneString,
	"StartTime", "EndTime", KeyMaxNodes, KeyMaxProcs, KeyMaxRuntime, KeyMaxMemory, "AllowOveruse",
	"MaxQueues", "Queues", "Queue", "MaxPartitions", "Partitions", "Partition", KeyNote,
}

// headerInts are the SWF 2.2 header keys whose values are integers, with
// the largest value each allows: machine sizes fit in 32 bits, as every
// gangsim table holds processors.
var headerInts = map[string]int64{
	KeyMaxJobs: math.MaxInt64, KeyMaxRecords: math.MaxInt64, KeyUnixStartTime: math.MaxInt64,
	KeyTimeZone: math.MaxInt64, KeyMaxNodes: math.MaxInt32, KeyMaxProcs: math.MaxInt32,
	KeyMaxRuntime: math.MaxInt64, KeyMaxMemory: math.MaxInt64, "MaxQueues": math.MaxInt32, "MaxPartitions": math.MaxInt32,
}

// signedHeaderInts are the integer keys a negative value is meaningful
// for: a time zone's offset, a start before 1970 (but for -1, SWF's
// marker of a missing value). The others count or measure, and a negative
// one says the site did not know.
var signedHeaderInts = map[string]bool{KeyTimeZone: true, KeyUnixStartTime: true}

// IsIntKey reports whether key is an SWF 2.2 header key whose value is an
// integer (MaxProcs, MaxNodes, UnixStartTime, TimeZone, MaxJobs...).
func IsIntKey(key string) bool { _, ok := headerInts[key]; return ok }

// HeaderValueError is the value of an integer header key that
// ParseHeaderInt refuses.
type HeaderValueError struct {
	Key, Value string
	// Unknown is true for a value that says the site did not record the
	// field, as the archive writes it: N/A, empty, a word, -1 (SWF's
	// missing-value marker) or, for a count or size, any negative number.
	// Range is true for an integer out of the key's range (a machine size
	// beyond 32 bits), and both are false for a value that is a garbled
	// number ("12.7", "1e30", "64abc").
	Unknown bool
	Range   bool
	Want    string // what the key takes, e.g. "at most 2147483647"
}

func (e *HeaderValueError) Error() string {
	what := "invalid number "
	switch {
	case e.Unknown:
		what = "unknown value "
	case e.Range:
		what = "value out of range "
	}
	return what + strconv.Quote(e.Value) + " in header " + e.Key + " (" + e.Want + ")"
}

// ParseHeaderInt is the one parse of an integer header value, in every
// format: an optionally signed decimal integer, alone or followed by a
// blank and a note ("338 (batch partition; 512 total)"). Any other value
// is an error, a *HeaderValueError: an unknown one (Unknown: "N/A", "",
// "unknown", "-", "-1", a negative MaxProcs), a number out of range (a
// machine size (MaxProcs, MaxNodes, MaxQueues, MaxPartitions) beyond 32
// bits, anything beyond 64), or a garbled number ("1e30", "12.7",
// "64abc"). A key that is not an integer key (IsIntKey) is parsed alike,
// with the range of an int64.
func ParseHeaderInt(key, value string) (int64, error) {
	max, ok := headerInts[key]
	if !ok {
		max = math.MaxInt64
	}
	v := value
	end := 0
	if end < len(v) && (v[end] == '-' || v[end] == '+') {
		end++
	}
	digits := end
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	if end == digits {
		// No digit where a number starts: N/A, a word, "-", nothing.
		return 0, &HeaderValueError{Key: key, Value: value, Unknown: true, Want: "want an integer"}
	}
	if end < len(v) && !isBlank(v[end]) {
		return 0, &HeaderValueError{Key: key, Value: value, Want: "want an integer"}
	}
	n, err := strconv.ParseInt(v[:end], 10, 64)
	switch {
	case err != nil || n > max:
		if err != nil && v[0] == '-' {
			return 0, &HeaderValueError{Key: key, Value: value, Range: true, Want: "at least " + strconv.FormatInt(math.MinInt64, 10)}
		}
		return 0, &HeaderValueError{Key: key, Value: value, Range: true, Want: "at most " + strconv.FormatInt(max, 10)}
	case n == -1 && ok && key != KeyTimeZone:
		return 0, &HeaderValueError{Key: key, Value: value, Unknown: true, Want: "-1 marks a missing value"}
	case n < 0 && ok && !signedHeaderInts[key]:
		return 0, &HeaderValueError{Key: key, Value: value, Unknown: true, Want: "want 0 or more"}
	}
	return n, nil
}

// CheckHeaderLine checks the value of an integer key (IsIntKey) with
// ParseHeaderInt; other lines are always valid. Every trace reader
// (SWF, CSV, Parquet, Arrow) checks its header lines with it.
func CheckHeaderLine(l HeaderLine) error {
	if !IsIntKey(l.Key) {
		return nil
	}
	_, err := ParseHeaderInt(l.Key, l.Value)
	return err
}

// Check checks every line of h with CheckHeaderLine and returns the
// first error.
func (h *Header) Check() error {
	for _, l := range h.Lines {
		if err := CheckHeaderLine(l); err != nil {
			return err
		}
	}
	return nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

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

// HeaderProblem is a header line whose value is not usable
// (CheckHeaderLine's error), as a reader found it: the line stays in the
// header, and its typed accessor reads the key as absent.
type HeaderProblem struct {
	Line HeaderLine
	// Err is CheckHeaderLine's error (a *HeaderValueError), wrapped with
	// where the line is: the file and line, or the metadata key.
	Err error
}

// MachineErr says why Machine is the zero Machine: nil when it is not,
// else what the header holds for MaxProcs and MaxNodes instead of a
// positive size (nothing, an unknown or garbled value, 0).
func (h *Header) MachineErr() error {
	if h.Machine().Valid() {
		return nil
	}
	var why []string
	for _, k := range []string{KeyMaxProcs, KeyMaxNodes} {
		v, ok := h.Get(k)
		if !ok {
			continue
		}
		if _, err := ParseHeaderInt(k, v); err != nil {
			why = append(why, err.Error())
		} else {
			why = append(why, "header "+k+" is "+strconv.Quote(v))
		}
	}
	if len(why) == 0 {
		return errors.New("the trace header has no MaxProcs")
	}
	return errors.New(strings.Join(why, "; "))
}

// IntErr says why the integer key has no usable value in h: nil when Int
// reads one, else that the header lacks the key or the value's error
// (ParseHeaderInt's).
func (h *Header) IntErr(key string) error {
	v, ok := h.Get(key)
	if !ok {
		return errors.New("the trace header has no " + key)
	}
	_, err := ParseHeaderInt(key, v)
	return err
}
