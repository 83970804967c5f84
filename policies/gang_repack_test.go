package policies

import (
	"testing"

	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// pinnedJob is a job of procs processes hand-placed on pin (model.App.Pin:
// the gang matrix puts it in the first row where those columns are free).
func pinnedJob(id int64, submit, run model.Time, pin ...int) model.Job {
	return model.Job{ID: id, Submit: submit, Runtime: run, AllocProcs: len(pin), Estimate: run,
		Known: model.AllFields, App: model.App{Pin: pin}}
}

// gangOutcomes replays jobs on procs processors under cfg (no hardware)
// and returns each job's outcome.
func gangOutcomes(t *testing.T, cfg GangConfig, procs int, jobs ...model.Job) map[int64]twinOutcome {
	t.Helper()
	env := Env{Machine: model.FlatMachine(procs)}
	var out model.OutcomeList
	if err := sim.New(sim.Config{Machine: env.Machine}, NewGang(cfg, env)).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &out, nil); err != nil {
		t.Fatal(err)
	}
	return twinOutcomes(out)
}

const sec = model.Second

// TestRepackJoinsServedRow: a job repacked into the row being served
// joins its slot at once, as a placed job does. On 2 processors at MPL 3
// with 10 s quanta: job 1 (2 processors) is row 0; jobs 2 and 3 (1 s and
// 3 s) share row 1; job 4 (20 s) is row 2. In row 1's slot job 2 ends at
// 11, and job 4 moves into row 1, where it runs from 11; job 3 ends at 13
// and the slot goes on with job 4. So job 4 ends at 51 and job 1 at 121
// (had job 4 waited for row 1's next slot, 60 and 130).
func TestRepackJoinsServedRow(t *testing.T) {
	cfg := GangConfig{MPL: 3, Quantum: 10 * sec, Alloc: allocFirstFit, Backfill: "none"}
	out := gangOutcomes(t, cfg, 2,
		stormJob(1, 0, 100*sec, 2), stormJob(2, 0, 1*sec, 1), stormJob(3, 0, 3*sec, 1), stormJob(4, 0, 20*sec, 1))
	if out[4].end != 51*sec || out[1].end != 121*sec {
		t.Errorf("job 4 ends at %v, job 1 at %v; want 51s and 121s", out[4].end, out[1].end)
	}
	if out[4].switches != 2 {
		t.Errorf("job 4: %d switches, want 2 (into row 1's slot at 30 and 50; joining at 11 is none)", out[4].switches)
	}
}

// TestRepackKeepsServedSlot: a repack never changes who runs in the
// current slot; a job repacked out of the served row runs to the slot's
// end. With the machine manager's heartbeats (tick), job 1's end at 5 s is
// noticed at 10, the start of row 1's slot: job 3 then moves from row 1 to
// row 0 (processor 0 freed there) but runs on through row 1's slot to 20,
// and then in row 0's, so it ends at 50 (stopped at 10, it would end at
// 70). Job 4 keeps row 1.
func TestRepackKeepsServedSlot(t *testing.T) {
	cfg := GangConfig{MPL: 3, Quantum: 10 * sec, Alloc: allocFirstFit, Backfill: "none", Storm: Storm{Tick: true}}
	out := gangOutcomes(t, cfg, 2,
		pinnedJob(1, 0, 5*sec, 0), pinnedJob(2, 0, 1000*sec, 1), pinnedJob(3, 0, 30*sec, 0), pinnedJob(4, 0, 1000*sec, 1))
	if out[1].end != 10*sec || out[3].end != 50*sec {
		t.Errorf("job 1 ends at %v, job 3 at %v; want 10s and 50s", out[1].end, out[3].end)
	}
}

// TestRepackIntoEmptiedRow: a row that a repack empties still receives
// later rows' jobs in the same repack; rows left empty are removed at its
// end. On 3 columns, rows [A on 0-1, D on 2], [B on 0], [C on 0]: once A
// leaves, B moves to row 0, emptying row 1, and C moves into row 1.
func TestRepackIntoEmptiedRow(t *testing.T) {
	m := newMatrix(3, 3, allocFirstFit)
	place := func(seq uint64, pin ...int) *gangJob {
		pl, ok := m.find(len(pin), pin)
		if !ok {
			t.Fatalf("no row for job %d", seq)
		}
		g := &gangJob{need: len(pin), seq: seq}
		m.place(g, pl)
		return g
	}
	a, d := place(1, 0, 1), place(2, 2)
	b, c := place(3, 0), place(4, 0)
	if len(m.rows) != 3 || d.row != m.rows[0] || b.row != m.rows[1] || c.row != m.rows[2] {
		t.Fatalf("rows %d; want A and D in row 0, B in 1, C in 2", len(m.rows))
	}
	bRow := b.row
	m.remove(a)
	if !m.repack() {
		t.Fatal("nothing moved")
	}
	if len(m.rows) != 2 || b.row != m.rows[0] || c.row != bRow || m.rows[1] != bRow {
		t.Errorf("rows %d, B in row %d, C in row %d (B's old row: %v); want B in row 0 and C in B's old row, now row 1",
			len(m.rows), m.index(b.row), m.index(c.row), c.row == bRow)
	}
}

// TestRepackNothingLeftToRun: a slot whose row has nothing left to run
// ends as a slot whose row emptied does, and the next row's slot starts at
// once. On 2 processors at MPL 3, 10 s quanta, alternates: jobs 1 and 4
// share row 0 (processors 0 and 1), job 2 (processor 0) is row 1, job 3
// (both) row 2. At 12 s job 1 ends as row 1's slot begins: job 2 moves to
// row 0 and job 3 into row 1, the slot being served, where job 2 (running
// on in it) and job 4 (an alternate) hold its processors: nothing of row 1
// runs, so row 0's slot starts at 12, without a switch.
func TestRepackNothingLeftToRun(t *testing.T) {
	cfg := GangConfig{MPL: 3, Quantum: 10 * sec, Alloc: allocFirstFit, Alternate: true, Backfill: "none"}
	out := gangOutcomes(t, cfg, 2,
		pinnedJob(1, 2*sec, 10*sec, 0), pinnedJob(2, 3*sec, 12*sec, 0), pinnedJob(3, 4*sec, 33*sec, 0, 1), pinnedJob(4, 5*sec, 21*sec, 1))
	want := map[int64]model.Time{1: 12 * sec, 2: 34 * sec, 3: 59 * sec, 4: 36 * sec}
	for id, end := range want {
		if out[id].end != end {
			t.Errorf("job %d ends at %v, want %v", id, out[id].end, end)
		}
	}
}
