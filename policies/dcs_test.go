package policies

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/sim"
)

// fixedSwitch is a cost model whose every switch costs the same.
type fixedSwitch model.Time

func (c fixedSwitch) Switch(hwmodel.SwitchState) model.Time  { return model.Time(c) }
func (fixedSwitch) Message(int64, int) (model.Time, float64) { return 0, 1e9 }
func (fixedSwitch) Launch(int, int64) model.Time             { return 0 }

// dcsRun is a finished replay under dcs.
type dcsRun struct {
	out  map[int64]model.Outcome
	segs []DCSSegment
	samp []model.Sample
	err  error
}

func (r *dcsRun) makespan() model.Time {
	var end model.Time
	for _, o := range r.out {
		end = max(end, o.End)
	}
	return end
}

// switches is the total of the outcomes' switches.
func (r *dcsRun) switches() (n int64) {
	for _, o := range r.out {
		n += o.Switches
	}
	return n
}

// changes is the run's count of task changes (MachineChanges).
func (r *dcsRun) changes() int { return MachineChanges(r.segs) }

// runDCS replays jobs on m machines under dcs with spec's parameters and
// switches costing cost.
func runDCS(t *testing.T, spec string, m int, cost model.Time, passes sim.Passes, jobs []model.Job) *dcsRun {
	t.Helper()
	s, err := ParseSpec("dcs:" + spec)
	if spec == "" {
		s, err = ParseSpec("dcs")
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err := dcsConfig(s.Params)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	env := Env{Machine: model.FlatMachine(m)}
	if cost > 0 {
		env.Hardware = Hardware{Costs: fixedSwitch(cost), Preset: "test", Family: "test", Mechanism: "fixed"}
	}
	p := NewDCS(c, env)
	p.RecordSegments()
	var out model.OutcomeList
	var samples model.SampleList
	err = sim.New(sim.Config{Machine: env.Machine, Passes: passes}, p).
		Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), &out, &samples)
	return &dcsRun{out: out.ByID(), segs: p.Segments(), samp: samples, err: err}
}

// tasks makes one-processor jobs of the given lengths, submitted at 0.
func tasks(lengths ...model.Time) []model.Job {
	jobs := make([]model.Job, len(lengths))
	for i, l := range lengths {
		jobs[i] = model.Job{ID: int64(i + 1), Runtime: l, AllocProcs: 1, ReqProcs: 1,
			Known: model.FieldSet(0).With(model.FieldJobID).With(model.FieldSubmit).With(model.FieldRuntime).With(model.FieldAllocProcs)}
	}
	return jobs
}

func equalTasks(p int, t model.Time) []model.Job {
	l := make([]model.Time, p)
	for i := range l {
		l[i] = t
	}
	return tasks(l...)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// checkSegments checks that no machine runs two stretches at once, that no
// task runs on two machines at once (but for eager's copies), and that
// every task's progress is its work: each stretch, less its switch, at the
// machine's speed (speeds nil: all 1); eager's winning copy alone counts.
func checkSegments(t *testing.T, r *dcsRun, speeds []float64, eager bool) {
	t.Helper()
	speed := func(k int) float64 {
		if k < len(speeds) {
			return speeds[k]
		}
		return 1
	}
	byMachine := map[int][]DCSSegment{}
	byJob := map[int64][]DCSSegment{}
	for _, s := range r.segs {
		byMachine[s.Machine] = append(byMachine[s.Machine], s)
		byJob[s.Job] = append(byJob[s.Job], s)
	}
	overlaps := func(ss []DCSSegment) bool {
		for i := 1; i < len(ss); i++ {
			if ss[i].From < ss[i-1].To {
				return true
			}
		}
		return false
	}
	for k, ss := range byMachine {
		if overlaps(ss) {
			t.Errorf("machine %d runs two stretches at once: %+v", k, ss)
		}
	}
	for id, o := range r.out {
		ss := byJob[id]
		if !eager && overlaps(ss) {
			t.Errorf("job %d runs on two machines at once: %+v", id, ss)
		}
		var work float64
		for _, s := range ss {
			if !s.Stopped {
				work += float64(s.To-s.From-s.Switch) * speed(s.Machine)
			}
		}
		if d := work - float64(o.Dedicated); d < -1 || d > float64(len(ss)) {
			t.Errorf("job %d: stretches do %.0f µs of work, its runtime is %v: %+v", id, work, o.Dedicated, ss)
		}
		if o.End < o.Start+o.Dedicated {
			t.Errorf("job %d ends at %v, before its start %v plus its runtime %v", id, o.End, o.Start, o.Dedicated)
		}
	}
}

func TestDCSParams(t *testing.T) {
	for _, bad := range []string{"mode=fast", "mode=rr,quantum=0", "mode=rr,quantum=-5s", "history=guess",
		"speeds=1:0", "speeds=1:1.5", "speeds=1:x", "mode=eager,quantum=5s", "mode=rr,history=static", "size=3"} {
		s, err := ParseSpec("dcs:" + bad)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(s); !errors.Is(err, ErrParam) {
			t.Errorf("dcs:%s: error %v, want ErrParam", bad, err)
		}
	}
	for _, good := range []string{"", "mode=eager", "mode=rr,quantum=5s", "history=dynamic", "mode=optimal,history=static", "speeds=1:0.5:0.25"} {
		s, _ := ParseSpec("dcs:" + good)
		if good == "" {
			s, _ = ParseSpec("dcs")
		}
		if err := Check(s); err != nil {
			t.Errorf("dcs:%s: %v", good, err)
		}
	}
	if d := Describe(); !strings.Contains(d, "dcs") || !strings.Contains(d, "history=") {
		t.Errorf("Describe does not document dcs:\n%s", d)
	}
}

// TestDCSOptimalPaperSchedules replays the schedules of M&D 3.1 (Fig. 3: 4
// tasks on 3 machines in 1.33 t, task 2 moved from machine 2 to 1 and task
// 3 from machine 3 to 2) and Fig. 4 (7 tasks on 5 machines) with free
// switches: every machine busy until p t / m, p - 1 changes of task, m - 1
// migrations.
func TestDCSOptimalPaperSchedules(t *testing.T) {
	const tl = 300 * model.Second
	for _, c := range []struct{ p, m int }{{4, 3}, {7, 5}, {3, 2}, {5, 3}} {
		r := runDCS(t, "mode=optimal", c.m, 0, sim.PassPerTime, equalTasks(c.p, tl))
		if r.err != nil {
			t.Fatal(r.err)
		}
		want := tl * model.Time(c.p) / model.Time(c.m)
		if got := r.makespan(); got != want {
			t.Errorf("%d on %d: makespan %v, want p t / m = %v", c.p, c.m, got, want)
		}
		if got := r.changes(); got != c.p-1 {
			t.Errorf("%d on %d: %d changes of task, want p - 1 = %d", c.p, c.m, got, c.p-1)
		}
		if got := r.switches(); got != int64(c.m-1) {
			t.Errorf("%d on %d: %d migrations, want m - 1 = %d", c.p, c.m, got, c.m-1)
		}
		busy := make([]model.Time, c.m)
		for _, s := range r.segs {
			busy[s.Machine] += s.To - s.From
		}
		for k, b := range busy {
			if b != want {
				t.Errorf("%d on %d: machine %d busy %v of %v", c.p, c.m, k+1, b, want)
			}
		}
		checkSegments(t, r, nil, false)
	}
	// Fig. 3's moves, machines and tasks numbered from 1.
	r := runDCS(t, "mode=optimal", 3, 0, sim.PassPerTime, equalTasks(4, tl))
	var moves []string
	for _, m := range Migrations(r.segs) {
		moves = append(moves, m.String())
	}
	slices.Sort(moves)
	if want := []string{"task 2 from machine 2 to 1", "task 3 from machine 3 to 2"}; !slices.Equal(moves, want) {
		t.Errorf("moves %q, want %q (M&D 3.1)", moves, want)
	}
}

// TestDCSOptimalCoprime: for every p > m up to 12 machines, equal tasks
// end at p t / m (to the microsecond per segment) with p - gcd(p, m)
// changes and m - gcd(p, m) migrations.
func TestDCSOptimalCoprime(t *testing.T) {
	const tl = 1000 * model.Second
	for m := 1; m <= 12; m++ {
		for p := m + 1; p <= 3*m+2; p++ {
			r := runDCS(t, "", m, 0, sim.PassPerEvent, equalTasks(p, tl))
			if r.err != nil {
				t.Fatal(r.err)
			}
			want := tl * model.Time(p) / model.Time(m)
			if d := r.makespan() - want; d < -model.Time(p) || d > model.Time(p) {
				t.Errorf("%d on %d: makespan %v, want %v", p, m, r.makespan(), want)
			}
			g := gcd(p, m)
			if r.changes() != p-g || r.switches() != int64(m-g) {
				t.Errorf("%d on %d: %d changes, %d migrations; want %d, %d", p, m, r.changes(), r.switches(), p-g, m-g)
			}
			checkSegments(t, r, nil, false)
		}
	}
}

// TestDCSOptimalSwitchCost: with a switch cost, the 3-on-2 schedule ends
// at p t / m plus the one migration's cost, charged to the task moved.
func TestDCSOptimalSwitchCost(t *testing.T) {
	const tl, c = 259 * model.Second, 1600 * model.Millisecond
	r := runDCS(t, "mode=optimal", 2, c, sim.PassPerTime, equalTasks(3, tl))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got, want := r.makespan(), 3*tl/2+c; got != want {
		t.Errorf("makespan %v, want %v", got, want)
	}
	moved := r.out[2]
	if moved.Switches != 1 || moved.SwitchLoss != c || moved.Sharing != model.JobLevel {
		t.Errorf("task 2: %d switches costing %v (%v), want 1 costing %v", moved.Switches, moved.SwitchLoss, moved.Sharing, c)
	}
	if o := r.out[1]; o.Switches != 0 || o.SwitchLoss != 0 {
		t.Errorf("task 1 never moved, yet %d switches", o.Switches)
	}
	switching := false
	for _, s := range r.samp {
		if s.Switching > 0 {
			switching = s.At == 259*model.Second && s.Switching == 0.5
		}
	}
	if !switching {
		t.Errorf("no sample shows one machine of two switching at 259 s: %+v", r.samp)
	}
	checkSegments(t, r, nil, false)
}

// TestDCSHistory: static history plans with the trace's estimates, dynamic
// with the first round's times; with lengths that are right both give the
// known schedule; dynamic needs more than 2m tasks.
func TestDCSHistory(t *testing.T) {
	const tl = 100 * model.Second
	jobs := equalTasks(7, tl) // 7 on 3: a first round, then 4 on 3
	known := runDCS(t, "", 3, 0, sim.PassPerEvent, jobs)
	for _, h := range []string{"static", "dynamic"} {
		r := runDCS(t, "history="+h, 3, 0, sim.PassPerEvent, jobs)
		if r.err != nil {
			t.Fatal(r.err)
		}
		if !slices.Equal(r.segs, known.segs) {
			t.Errorf("history=%s: schedule %+v, known: %+v", h, r.segs, known.segs)
		}
	}
	// Estimates twice the runtimes: the switch points move, every task
	// still ends, later than planned with the truth.
	for i := range jobs {
		jobs[i].Estimate = 2 * jobs[i].Runtime
		jobs[i].Known = jobs[i].Known.With(model.FieldEstimate)
	}
	r := runDCS(t, "history=static", 3, 0, sim.PassPerEvent, jobs)
	if r.err != nil || len(r.out) != 7 {
		t.Fatalf("%v, %d outcomes", r.err, len(r.out))
	}
	if r.makespan() <= known.makespan() {
		t.Errorf("static history with wrong lengths: makespan %v, not above the optimum %v", r.makespan(), known.makespan())
	}
	checkSegments(t, r, nil, false)
	r = runDCS(t, "history=dynamic", 2, 0, sim.PassPerTime, equalTasks(3, tl))
	if r.err == nil || !strings.Contains(r.err.Error(), "Method 1") {
		t.Errorf("dynamic history on 3 tasks, 2 machines: %v", r.err)
	}
}

// TestDCSEagerCopies: an idle machine runs a copy of an unfinished task;
// the first copy to finish wins, the task ends then and the other copies
// stop.
func TestDCSEagerCopies(t *testing.T) {
	// Identical machines: 5 tasks on 3 (M&D experiment 2): the third
	// machine copies task 4 at 159.5 s, the original wins at 319 s.
	r := runDCS(t, "mode=eager", 3, 0, sim.PassPerTime, equalTasks(5, 159500*model.Millisecond))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.makespan() != 319*model.Second {
		t.Errorf("makespan %v, want 319 s", r.makespan())
	}
	want := DCSSegment{Machine: 2, Job: 4, From: 159500 * model.Millisecond, To: 319 * model.Second, Copy: 1, Stopped: true}
	if !slices.Contains(r.segs, want) {
		t.Errorf("no stopped copy %+v in %+v", want, r.segs)
	}
	// A later copy that loses: tasks of 100, 150 and 120 s on 2
	// machines; machine 2 copies task 3 at 150 s, the original ends at
	// 220 s and the copy stops then.
	r = runDCS(t, "mode=eager", 2, 0, sim.PassPerTime, tasks(100*model.Second, 150*model.Second, 120*model.Second))
	if o := r.out[3]; o.End != 220*model.Second {
		t.Errorf("task 3 ends at %v, want 220 s", o.End)
	}
	if want := (DCSSegment{Machine: 1, Job: 3, From: 150 * model.Second, To: 220 * model.Second, Copy: 1, Stopped: true}); !slices.Contains(r.segs, want) {
		t.Errorf("no stopped copy %+v in %+v", want, r.segs)
	}
	// A copy that wins: machine 1 is four times slower; machine 3, idle,
	// copies task 1 at 0 and finishes it at 100 s, before the original
	// would (400 s).
	r = runDCS(t, "mode=eager,speeds=0.25", 3, 0, sim.PassPerEvent, tasks(100*model.Second, 100*model.Second))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if o := r.out[1]; o.End != 100*model.Second || o.Start != 0 {
		t.Errorf("task 1 runs %v to %v, want 0 to 100 s (the copy wins)", o.Start, o.End)
	}
	for _, w := range []DCSSegment{
		{Machine: 0, Job: 1, From: 0, To: 100 * model.Second, Copy: 0, Stopped: true},
		{Machine: 2, Job: 1, From: 0, To: 100 * model.Second, Copy: 1},
	} {
		if !slices.Contains(r.segs, w) {
			t.Errorf("no segment %+v in %+v", w, r.segs)
		}
	}
	checkSegments(t, r, []float64{0.25}, true)
}

// TestDCSErrors: a wide job, more speeds than machines and a quantum no
// longer than the switch stop the run with an error saying so.
func TestDCSErrors(t *testing.T) {
	wide := tasks(10, 10)
	wide[1].AllocProcs, wide[1].ReqProcs = 2, 2
	for _, c := range []struct {
		spec string
		m    int
		cost model.Time
		jobs []model.Job
		want string
	}{
		{"mode=eager", 2, 0, wide, "job 2 needs 2"},
		{"speeds=1:1:1", 2, 0, tasks(10), "speeds gives 3"},
		{"mode=rr,quantum=1s", 2, 2 * model.Second, tasks(10, 10, 10), "no shorter than the quantum"},
	} {
		r := runDCS(t, c.spec, c.m, c.cost, sim.PassPerTime, c.jobs)
		if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.spec, r.err, c.want)
		}
	}
}

// TestDCSSteps: jobs submitted at the same time form a parallel step; a
// later step starts once the earlier one has ended.
func TestDCSSteps(t *testing.T) {
	jobs := equalTasks(5, 10*model.Second)
	for i := 3; i < 5; i++ {
		jobs[i].Submit = 5 * model.Second
	}
	for _, mode := range []string{"mode=eager", "mode=rr,quantum=2s", "mode=optimal"} {
		for _, passes := range []sim.Passes{sim.PassPerTime, sim.PassPerEvent} {
			r := runDCS(t, mode, 2, 0, passes, jobs)
			if r.err != nil {
				t.Fatal(r.err)
			}
			first := max(r.out[1].End, r.out[2].End, r.out[3].End)
			if s := min(r.out[4].Start, r.out[5].Start); s != first {
				t.Errorf("%s, %v: the second step starts at %v, the first ends at %v", mode, passes, s, first)
			}
			if want := (3*10*model.Second + 1) / 2; mode == "mode=optimal" && first != want {
				t.Errorf("optimal: the first step (3 on 2) ends at %v, want %v", first, want)
			}
		}
	}
}

// TestDCSRoundRobinTwin checks round robin against a naive twin that steps
// time microsecond by microsecond, on many small random steps with unequal
// tasks, machine speeds and switch costs: every job's end, switches and
// switch loss must agree exactly. A failure prints its seed; -seed reruns
// one.
func TestDCSRoundRobinTwin(t *testing.T) {
	seeds := uint64(*traceRuns)
	for seed := uint64(1); seed <= seeds; seed++ {
		if *seedFlag != 0 && seed != *seedFlag {
			continue
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		m := 1 + rng.IntN(4)
		p := 1 + rng.IntN(9)
		q := model.Time(2 + rng.IntN(10))
		c := model.Time(rng.IntN(int(q)))
		lengths := make([]model.Time, p)
		for i := range lengths {
			lengths[i] = model.Time(1 + rng.IntN(60))
		}
		speeds := make([]float64, m)
		var parts []string
		for k := range speeds {
			speeds[k] = []float64{1, 1, 0.5, 0.75}[rng.IntN(4)]
			parts = append(parts, fmt.Sprint(speeds[k]))
		}
		spec := fmt.Sprintf("mode=rr,quantum=%dus,speeds=%s", q, strings.Join(parts, ":"))
		// The twin frees every machine whose task ends at an instant
		// before it refills them, as a pass per time does; passing per
		// event refills each as its task ends, which on unequal machines
		// may give a task another machine.
		passes := sim.PassPerTime
		if !slices.ContainsFunc(speeds, func(s float64) bool { return s != 1 }) && rng.IntN(2) == 0 {
			passes = sim.PassPerEvent
		}
		r := runDCS(t, spec, m, c, passes, tasks(lengths...))
		if r.err != nil {
			t.Fatalf("seed %d: %v", seed, r.err)
		}
		want := naiveRR(lengths, speeds, q, c)
		for i, w := range want {
			g := r.out[int64(i+1)]
			if g.End != w.End || g.Switches != w.Switches || g.SwitchLoss != w.SwitchLoss {
				t.Fatalf("seed %d (%s, %d tasks %v on %d machines, switch %d µs): job %d ends %v with %d switches losing %v; the twin: %v, %d, %v",
					seed, spec, p, lengths, m, c, i+1, g.End, g.Switches, g.SwitchLoss, w.End, w.Switches, w.SwitchLoss)
			}
		}
		checkSegments(t, r, speeds, false)
	}
}

// naiveRR is round robin stepped microsecond by microsecond: at each
// instant, tasks that ended free their machines; at a quantum boundary with
// a task waiting every running task is queued behind the waiting ones in
// the order they got their machines; free machines take the queue's head
// in machine order, a task resumed after a freeze first spending c µs
// without progress.
func naiveRR(lengths []model.Time, speeds []float64, q, c model.Time) []model.Outcome {
	p, m := len(lengths), len(speeds)
	out := make([]model.Outcome, p)
	done := make([]int64, p)
	started := make([]bool, p)
	queue := make([]int, p)
	for i := range queue {
		queue[i] = i
	}
	run := make([]int, m)
	stall := make([]model.Time, m)
	for k := range run {
		run[k] = -1
	}
	order := make([]int, p) // when each task last got a machine
	dispatches := 0
	left := p
	for now := model.Time(0); left > 0; now++ {
		for k, i := range run {
			if i >= 0 && done[i] >= int64(lengths[i])*int64(sim.FullRate) {
				out[i].End = now
				run[k] = -1
				left--
			}
		}
		if now > 0 && now%q == 0 && len(queue) > 0 {
			var frozen []int
			for k, i := range run {
				if i >= 0 {
					out[i].SwitchLoss -= stall[k]
					frozen = append(frozen, i)
					run[k] = -1
				}
			}
			slices.SortFunc(frozen, func(a, b int) int { return cmp.Compare(order[a], order[b]) })
			queue = append(queue, frozen...)
		}
		for k := range run {
			if run[k] < 0 && len(queue) > 0 {
				i := queue[0]
				queue = queue[1:]
				run[k], stall[k] = i, 0
				dispatches++
				order[i] = dispatches
				if started[i] {
					stall[k] = c
					out[i].Switches++
					out[i].SwitchLoss += c
				}
				started[i] = true
			}
		}
		for k, i := range run {
			switch {
			case i < 0:
			case stall[k] > 0:
				stall[k]--
			default:
				done[i] += int64(sim.Rate(speeds[k] * float64(sim.FullRate)))
			}
		}
	}
	return out
}

// TestDCSInvariants replays many random traces of parallel steps under
// every mode: every job ends, no machine runs two tasks at once and no
// task two machines (but eager's copies), every task's work is done, a
// step starts once the one before has ended, a switch costs what the cost
// model says, and on identical machines the pass rule does not change any
// job's start or end. A failure prints its seed; -seed reruns one.
func TestDCSInvariants(t *testing.T) {
	seeds := uint64(*traceRuns)
	for seed := uint64(1); seed <= seeds; seed++ {
		if *seedFlag != 0 && seed != *seedFlag {
			continue
		}
		rng := rand.New(rand.NewPCG(seed, 11))
		m := 1 + rng.IntN(5)
		var jobs []model.Job
		var steps []model.Time
		at, minP := model.Time(0), 1<<30
		for range 1 + rng.IntN(4) {
			at += model.Time(rng.IntN(3)) * 50 // steps may arrive while another runs
			steps = append(steps, at)
			p := 1 + rng.IntN(3*m+1)
			minP = min(minP, p)
			for range p {
				run := model.Time(1 + rng.IntN(100))
				est := run
				if rng.IntN(2) == 0 {
					est = model.Time(1 + rng.IntN(200))
				}
				jobs = append(jobs, model.Job{ID: int64(len(jobs) + 1), Submit: at, Runtime: run, Estimate: est,
					AllocProcs: 1, ReqProcs: 1, Known: model.AllFields})
			}
			at++
		}
		q := model.Time(5 + rng.IntN(30))
		cost := model.Time(rng.IntN(int(q)))
		var speeds []float64
		var parts []string
		if rng.IntN(2) == 0 {
			for range m {
				speeds = append(speeds, []float64{1, 0.5, 0.75}[rng.IntN(3)])
				parts = append(parts, fmt.Sprint(speeds[len(speeds)-1]))
			}
		}
		spec := []string{"mode=eager", fmt.Sprintf("mode=rr,quantum=%dus", q), "mode=optimal", "history=static"}[rng.IntN(4)]
		if spec == "mode=optimal" && rng.IntN(2) == 0 && minP > 2*m {
			spec = "history=dynamic"
		}
		if parts != nil {
			spec += ",speeds=" + strings.Join(parts, ":")
		}
		what := fmt.Sprintf("seed %d (dcs:%s, %d jobs on %d machines, switch %d µs)", seed, spec, len(jobs), m, cost)
		r := runDCS(t, spec, m, cost, sim.PassPerTime, jobs)
		if r.err != nil {
			t.Fatalf("%s: %v", what, r.err)
		}
		if len(r.out) != len(jobs) {
			t.Fatalf("%s: %d outcomes", what, len(r.out))
		}
		checkSegments(t, r, speeds, strings.HasPrefix(spec, "mode=eager"))
		end := model.Time(0) // of the steps so far
		for _, s := range steps {
			stepEnd := end
			for _, j := range jobs {
				if j.Submit != s {
					continue
				}
				o := r.out[j.ID]
				if o.Start < end {
					t.Fatalf("%s: job %d of the step at %v starts at %v, before the step before ends (%v)", what, j.ID, s, o.Start, end)
				}
				stepEnd = max(stepEnd, o.End)
				if o.SwitchLoss > model.Time(o.Switches)*cost || !strings.Contains(spec, "rr") && o.SwitchLoss != model.Time(o.Switches)*cost {
					t.Fatalf("%s: job %d: %d switches losing %v", what, j.ID, o.Switches, o.SwitchLoss)
				}
			}
			end = stepEnd
		}
		if t.Failed() {
			t.Fatalf("%s: see above", what)
		}
		if speeds == nil {
			other := runDCS(t, spec, m, cost, sim.PassPerEvent, jobs)
			for id, o := range r.out {
				if g := other.out[id]; g.Start != o.Start || g.End != o.End {
					t.Fatalf("%s: job %d runs %v to %v passing per time, %v to %v passing per event", what, id, o.Start, o.End, g.Start, g.End)
				}
			}
		}
	}
}
