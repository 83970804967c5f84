package model

import (
	"fmt"
	"math"
)

// Machine is a cluster of identical nodes, each with PEsPerNode processing
// elements (processors). A flat pool of P processors is P nodes of one PE.
type Machine struct {
	Nodes      int // number of nodes
	PEsPerNode int // processors per node
}

// FlatMachine returns a flat pool of procs processors.
func FlatMachine(procs int) Machine { return Machine{Nodes: procs, PEsPerNode: 1} }

// Procs is the total number of processors.
func (m Machine) Procs() int { return m.Nodes * m.PEsPerNode }

// Valid reports whether m has at least one node of at least one processor.
func (m Machine) Valid() bool { return m.Nodes > 0 && m.PEsPerNode > 0 }

// String formats m as "NODESxPES", e.g. "144x8", or "P" for a flat pool.
func (m Machine) String() string {
	if m.PEsPerNode == 1 {
		return fmt.Sprint(m.Nodes)
	}
	return fmt.Sprintf("%dx%d", m.Nodes, m.PEsPerNode)
}

// ParseMachine parses "P" (a flat pool of P processors) or "NxC" (N nodes of
// C processors each), as written by Machine.String.
func ParseMachine(s string) (Machine, error) {
	var m Machine
	var n, c int
	var tail string
	if k, _ := fmt.Sscanf(s, "%dx%d%s", &n, &c, &tail); k == 2 {
		m = Machine{Nodes: n, PEsPerNode: c}
	} else if k, _ := fmt.Sscanf(s, "%d%s", &n, &tail); k == 1 {
		m = FlatMachine(n)
	} else {
		return Machine{}, fmt.Errorf("machine %q: want P or NODESxPES, e.g. 128 or 144x8", s)
	}
	if !m.Valid() {
		return Machine{}, fmt.Errorf("machine %q: nodes and processors per node must be positive", s)
	}
	if int64(m.Nodes) > MaxProcs || int64(m.PEsPerNode) > MaxProcs || int64(m.Nodes)*int64(m.PEsPerNode) > MaxProcs {
		return Machine{}, fmt.Errorf("machine %q: more than %d processors", s, MaxProcs)
	}
	return m, nil
}

// MaxProcs is the largest machine, in processors, that gangsim's tables
// and headers hold (32 bits): the one bound of every processor count, in
// flags, spec fields and headers. A policy may hold fewer
// (policies.MaxProcs).
const MaxProcs = math.MaxInt32

// CheckProcs reports a processor count that is negative or beyond
// MaxProcs.
func CheckProcs(n int64) error {
	switch {
	case n < 0:
		return fmt.Errorf("%d is negative", n)
	case n > MaxProcs:
		return fmt.Errorf("%d: more than %d processors", n, MaxProcs)
	}
	return nil
}
