package pm

import (
	"errors"
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// OverheadCell is one cell of hori96 Tables 4 and 5: the gang-scheduling
// overhead per quantum of one program at one time quantum and processor
// count, computed by the paper from elapsed times with T_elapsed =
// T_quantum/(T_quantum - T_overhead) T_process (hori96 4.2).
type OverheadCell struct {
	Program    string     // "fib" (fib(15,1000), Fig. 4) or "rt" (rt(1000000), Fig. 5)
	Quantum    model.Time // the gang-scheduling time quantum
	Processors int        // processors running the program
	Millis     float64    // T_overhead, ms
}

// Hori96Quanta returns the time quanta of hori96 Tables 4 and 5: 200, 300,
// 500 and 1000 ms.
func Hori96Quanta() []model.Time {
	return []model.Time{200 * model.Millisecond, 300 * model.Millisecond, 500 * model.Millisecond, 1000 * model.Millisecond}
}

// Hori96Processors returns the processor counts of hori96 Tables 4 and 5:
// 1, 2, 4 and 8.
func Hori96Processors() []int { return []int{1, 2, 4, 8} }

// overheadCells lays out a table given as [quantum][processors] per
// program, fib then rt.
func overheadCells(fib, rt [4][4]float64) []OverheadCell {
	var out []OverheadCell
	for _, p := range []struct {
		name string
		ms   [4][4]float64
	}{{"fib", fib}, {"rt", rt}} {
		for i, q := range Hori96Quanta() {
			for j, n := range Hori96Processors() {
				out = append(out, OverheadCell{Program: p.name, Quantum: q, Processors: n, Millis: p.ms[i][j]})
			}
		}
	}
	return out
}

// Hori96Table4 returns hori96 Table 4, the gang-scheduling overhead in ms
// when SCore-D stops processes with SIGSTOP, by program, quantum (rows 200,
// 300, 500, 1000 ms) and processors (columns 1, 2, 4, 8):
//
//	fib  2.6 13.9 33.1 46.6 | 2.3 14.7 31.5 45.5 | 2.3 14.7 31.5 45.5 | 1.6 16.1 29.9 35.1
//	rt   3.0 15.3 27.0 41.6 | 1.9 15.2 25.6 41.5 | 2.5 19.5 28.8 41.0 | 0.2 15.8 25.8 34.5
//
// (The paper prints the same fib row for 300 and 500 ms.)
func Hori96Table4() []OverheadCell {
	return overheadCells(
		[4][4]float64{{2.6, 13.9, 33.1, 46.6}, {2.3, 14.7, 31.5, 45.5}, {2.3, 14.7, 31.5, 45.5}, {1.6, 16.1, 29.9, 35.1}},
		[4][4]float64{{3.0, 15.3, 27.0, 41.6}, {1.9, 15.2, 25.6, 41.5}, {2.5, 19.5, 28.8, 41.0}, {0.2, 15.8, 25.8, 34.5}},
	)
}

// Hori96Table5 returns hori96 Table 5, the overhead in ms of voluntary gang
// scheduling, laid out as Hori96Table4:
//
//	fib  3.4 6.4 13.4 15.3 | 2.7 4.5 13.2 14.3 | 2.7 6.7 11.0 11.7 | 3.7 5.0 13.3 11.0
//	rt   2.8 5.2 11.6 11.9 | 2.3 5.6 11.7 11.2 | 2.3 7.3  8.7 10.5 | 4.1 8.6 12.2  8.8
func Hori96Table5() []OverheadCell {
	return overheadCells(
		[4][4]float64{{3.4, 6.4, 13.4, 15.3}, {2.7, 4.5, 13.2, 14.3}, {2.7, 6.7, 11.0, 11.7}, {3.7, 5.0, 13.3, 11.0}},
		[4][4]float64{{2.8, 5.2, 11.6, 11.9}, {2.3, 5.6, 11.7, 11.2}, {2.3, 7.3, 8.7, 10.5}, {4.1, 8.6, 12.2, 8.8}},
	)
}

// OverheadFit is the result of fitting the per-switch overhead model to
// hori96 Tables 4 and 5; the fields are the preset fields of the same
// names, in microseconds.
type OverheadFit struct {
	QuantumOverheadMicros float64 // quantum_overhead_us
	YieldMicros           float64 // yield_us
	YieldSkewMaxMicros    float64 // yield_skew_max_us
	StopDelayMaxMicros    float64 // stop_delay_max_us: fitted by FitOverheadsFree, the cluster's by FitOverheads
}

// Apply returns c with the fitted fields set.
func (f OverheadFit) Apply(c Cluster) Cluster {
	c.QuantumOverheadMicros = f.QuantumOverheadMicros
	c.YieldMicros = f.YieldMicros
	c.YieldSkewMaxMicros = f.YieldSkewMaxMicros
	c.StopDelayMaxMicros = f.StopDelayMaxMicros
	return c
}

// FitOverheads fits quantum_overhead_us, yield_us and yield_skew_max_us of
// c to the overheads of signal (Table 4) and voluntary (Table 5) gang
// scheduling, keeping c's stop_delay_max_us. The model of a cell on n
// processors is Model.OverheadSeconds(n, 0): empty buffers, since neither
// program keeps messages waiting (rt has at most one in flight, hori96 4)
// and the paper neglects network preemption for rt (hori96 4.2). The fit
// is weighted least squares with weights 1/quantum²: the paper derives
// T_overhead from elapsed times as T_quantum (1 - T_process/T_elapsed), so
// a cell's error grows in proportion to its quantum.
func FitOverheads(c Cluster, signal, voluntary []OverheadCell) (OverheadFit, error) {
	th, err := fitOverheads(c, signal, voluntary, false)
	if err != nil {
		return OverheadFit{}, err
	}
	return OverheadFit{th[0], th[1], th[2], c.StopDelayMaxMicros}, nil
}

// FitOverheadsFree is FitOverheads with stop_delay_max_us fitted too, to
// check that the signal tables bear out the paper's "up to 50 msec"
// (hori96 4.2) rather than assume it.
func FitOverheadsFree(c Cluster, signal, voluntary []OverheadCell) (OverheadFit, error) {
	th, err := fitOverheads(c, signal, voluntary, true)
	if err != nil {
		return OverheadFit{}, err
	}
	return OverheadFit{th[0], th[1], th[2], th[3]}, nil
}

func fitOverheads(c Cluster, signal, voluntary []OverheadCell, freeStop bool) ([]float64, error) {
	base := c
	base.QuantumOverheadMicros, base.YieldMicros, base.YieldSkewMaxMicros = 0, 0, 0
	if freeStop {
		base.StopDelayMaxMicros = 0
	}
	var x [][]float64
	var y, w []float64
	add := func(cells []OverheadCell, mode StopMode) {
		for _, cell := range cells {
			known := Model{Cluster: base, Stop: mode}.OverheadSeconds(cell.Processors, 0)
			r := ExpectedRange(cell.Processors, 1)
			row := []float64{1, 0, 0}
			if mode == Voluntary {
				row = []float64{1, 1, r}
			}
			if freeStop {
				row = append(row, 0)
				if mode == Signal {
					row[3] = r
				}
			}
			x = append(x, row)
			y = append(y, cell.Millis*1e-3-known)
			w = append(w, 1/(cell.Quantum.Seconds()*cell.Quantum.Seconds()))
		}
	}
	add(signal, Signal)
	add(voluntary, Voluntary)
	th, err := weightedLeastSquares(x, y, w)
	if err != nil {
		return nil, fmt.Errorf("pm: fitting overheads of preset %q: %w", c.Name, err)
	}
	for i := range th {
		th[i] *= 1e6 // seconds to µs
	}
	return th, nil
}

// weightedLeastSquares returns the b minimizing sum_r w[r] (x[r]·b - y[r])²
// by solving the normal equations with Gaussian elimination and partial
// pivoting.
func weightedLeastSquares(x [][]float64, y, w []float64) ([]float64, error) {
	if len(x) == 0 {
		return nil, errors.New("no data")
	}
	k := len(x[0])
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
	}
	for r, row := range x {
		for i := range k {
			a[i][k] += w[r] * row[i] * y[r]
			for j := range k {
				a[i][j] += w[r] * row[i] * row[j]
			}
		}
	}
	for col := range k {
		p := col
		for r := col + 1; r < k; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if a[p][col] == 0 {
			return nil, fmt.Errorf("parameter %d is not determined by the data", col)
		}
		a[col], a[p] = a[p], a[col]
		for r := range k {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for j := col; j <= k; j++ {
				a[r][j] -= f * a[col][j]
			}
		}
	}
	out := make([]float64, k)
	for i := range k {
		out[i] = a[i][k] / a[i][i]
	}
	return out, nil
}

// FitQuantumOverhead returns the quantum_overhead_us, in microseconds, for
// which m's overhead on nodes nodes with buffers occupancy full slows a
// program down by slowdown (a fraction) at quantum. It is how the rwc-pc2
// preset's value is obtained from the bound on EP's slowdown (hori98 6).
// The result is negative if the rest of the overhead already exceeds the
// target.
func FitQuantumOverhead(m Model, nodes int, occupancy float64, quantum model.Time, slowdown float64) float64 {
	m.Cluster.QuantumOverheadMicros = 0
	return (OverheadForSlowdown(slowdown, quantum) - m.OverheadSeconds(nodes, occupancy)) * 1e6
}

// InferOccupancy returns the buffer occupancy at which m's slowdown on
// nodes nodes at quantum is slowdown (a fraction); the overhead is linear
// in occupancy. The result lies outside [0, 1] when no occupancy reaches
// that slowdown.
func InferOccupancy(m Model, nodes int, quantum model.Time, slowdown float64) float64 {
	o0, o1 := m.OverheadSeconds(nodes, 0), m.OverheadSeconds(nodes, 1)
	return (OverheadForSlowdown(slowdown, quantum) - o0) / (o1 - o0)
}
