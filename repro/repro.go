package repro

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Papers lists the paper keys of results/<paper>/, in the order the report
// presents them.
var Papers = []string{"etsion", "hori96", "hori98", "frachtenberg", "mclaughlin", "method"}

// PaperTitles names each paper key's source, for the report.
var PaperTitles = map[string]string{
	"etsion":       "Y. Etsion and D. G. Feitelson, \"User-Level Communication in a System with Gang Scheduling\"",
	"hori96":       "A. Hori et al., \"Implementation of Gang-Scheduling on Workstation Cluster\" (1996)",
	"hori98":       "A. Hori, H. Tezuka and Y. Ishikawa, \"Overhead Analysis of Preemptive Gang Scheduling\" (1998)",
	"frachtenberg": "E. Frachtenberg, \"Leveraging Modern Interconnects for Parallel System Software\" (PhD thesis)",
	"mclaughlin":   "D. McLaughlin and P. Dasgupta, \"Distributed Context Switching\"",
	"method":       "gangsim's own methods, checked on cases whose answer is known by construction",
}

// Coord is one coordinate of a Row: a column name and the cell's value in
// it, as text ("nodes", "16").
type Coord struct {
	Name, Value string
}

// Row is one cell of a reproduced table or one point of a reproduced
// figure: its coordinates, the paper's value (when the paper states one),
// and gangsim's value, with the tolerance within which they must agree.
type Row struct {
	// Coords names the cell, in order, e.g. {{"nodes", "16"}, {"rails", "2"}}.
	Coords []Coord
	// Paper is the paper's value; HasPaper is false where the paper gives
	// only a figure.
	Paper    float64
	HasPaper bool
	// Gangsim is gangsim's value, in the same unit as Paper.
	Gangsim float64
	// Tolerance is the largest acceptable |Gangsim - Paper|, in the same
	// unit; 0 with HasPaper means exact.
	Tolerance float64
}

// Within reports whether the row agrees with the paper within its tolerance
// (true when the paper states no value). The comparison allows for the
// rounding of decimal values in binary (1.05 - 1 is slightly above 0.05):
// a difference within 1e-9 of the tolerance, relative to the paper's
// value, counts as within.
func (r Row) Within() bool {
	if !r.HasPaper {
		return true
	}
	return math.Abs(r.Gangsim-r.Paper) <= r.Tolerance+1e-9*math.Max(1, math.Abs(r.Paper))
}

// Coord returns the value of the named coordinate, or "".
func (r Row) Coord(name string) string {
	for _, c := range r.Coords {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// Claim is a qualitative statement of a paper ("total bandwidth does not
// fall as jobs are added") and whether gangsim's values bear it out.
type Claim struct {
	Text  string // the claim, with its place in the paper
	Holds bool   // whether gangsim's values satisfy it
	Note  string // how it was checked, or by how much it missed
}

// Item is a reproduced table or figure: results/<Paper>/<Name>.csv, and
// results/<Paper>/<Name>.png when it is drawn. Besides the papers' items,
// an item may belong to a study of a user's own under a key of its own
// (results/<key>/<name>.csv): the same files, the same report.
type Item struct {
	// Paper is the key of the item's directory: a seed paper's (etsion,
	// hori96, hori98, frachtenberg, mclaughlin) or a study's (IsStudyKey).
	Paper string
	Name  string // e.g. "table-4.3", "fig-5"
	Title string // what it shows, with the paper's numbering
	Unit  string // the unit of Paper and Gangsim
	Rows  []Row
	// Claims are the paper's qualitative statements the item checks.
	Claims []Claim
	// Notes says what differs from the paper's setup, if anything, in one
	// paragraph for the report.
	Notes string
	// Dropped says which of the item's runs lost jobs to cleaning and how
	// many, by reason, one line per distinct drop ("window=5000 (4 runs):
	// workload cleaning dropped 160 of 1160 jobs: no-runtime 160"); empty
	// when no run dropped any.
	Dropped []string
	// Figure is the path of the item's drawing relative to results/
	// ("frachtenberg/fig-6.12.png"), or "" for a table.
	Figure string
}

// Key is the item's results path without extension, "paper/name".
func (it *Item) Key() string { return it.Paper + "/" + it.Name }

// IsPaper reports whether key is a seed paper's (one of Papers).
func IsPaper(key string) bool { return slices.Contains(Papers, key) }

// IsStudyKey reports whether key can name a study of one's own: 1 to 64
// lower-case letters, digits, '.', '_' and '-', starting with a letter or
// digit, so that it is a plain directory name on every system.
func IsStudyKey(key string) bool {
	if len(key) == 0 || len(key) > 64 {
		return false
	}
	for i, r := range key {
		alnum := 'a' <= r && r <= 'z' || '0' <= r && r <= '9'
		if !alnum && (i == 0 || (r != '.' && r != '_' && r != '-')) {
			return false
		}
	}
	return true
}

// Validate checks that the item can be written: a paper key or a study
// key, a name that is a file name, and rows that all have the same
// coordinate names.
func (it *Item) Validate() error {
	if !IsPaper(it.Paper) && !IsStudyKey(it.Paper) {
		return fmt.Errorf("item %s: key %q is neither a paper's (%s) nor a study's (lower-case letters, digits, '.', '_', '-')",
			it.Key(), it.Paper, strings.Join(Papers, ", "))
	}
	if it.Name == "" || strings.ContainsAny(it.Name, "/\\ ") {
		return fmt.Errorf("item %s: name %q is not a plain file name", it.Key(), it.Name)
	}
	for i, r := range it.Rows {
		if len(r.Coords) != len(it.Rows[0].Coords) {
			return fmt.Errorf("item %s: row %d has %d coordinates, row 0 has %d", it.Key(), i, len(r.Coords), len(it.Rows[0].Coords))
		}
		for k, c := range r.Coords {
			if c.Name != it.Rows[0].Coords[k].Name {
				return fmt.Errorf("item %s: row %d coordinate %d is %q, row 0's is %q", it.Key(), i, k, c.Name, it.Rows[0].Coords[k].Name)
			}
		}
	}
	return nil
}

// Check counts the rows that state a paper value and how many of them are
// within tolerance, and the claims and how many hold.
func (it *Item) Check() (rowsWithin, rowsCompared, claimsHold, claims int) {
	for _, r := range it.Rows {
		if r.HasPaper {
			rowsCompared++
			if r.Within() {
				rowsWithin++
			}
		}
	}
	for _, c := range it.Claims {
		claims++
		if c.Holds {
			claimsHold++
		}
	}
	return
}

// Agrees reports whether every compared row is within tolerance and every
// claim holds.
func (it *Item) Agrees() bool {
	w, n, h, c := it.Check()
	return w == n && h == c
}
