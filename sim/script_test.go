package sim

// Scripted engine tests. Each testdata/*.txt file holds cases separated by
// "====" lines: a case is a configuration line, job lines and action lines,
// then "----", then the expected log. Run with -rewrite to regenerate the
// expected logs after a deliberate change (and read the diff before
// committing it).
//
//	run machine=4 order=pyss passes=per-event period=0 notice=4
//	                       (notice: completions noticed at the next multiple of 4, Noticer)
//	job id=1 submit=0 run=10 est=12 size=2
//	at 5 suspend 1         (actions the scripted policy takes at a time)
//	at 7 resume 1
//	at 8 rate 1 0.5
//	at 9 timer 3           (set a timer at 9 for time 3 later; "cancel" cancels the last one)
//	at 4 duty 1 10 4 0-3,5-7  (job 1 progresses in [0,3) and [5,7) of 10-long cycles from 4;
//	                           period 0 is always on)
//	----
//	<log>

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/model"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of scripted tests")

type action struct {
	at   model.Time
	verb string
	job  int64
	arg  float64
	rest []string // further words: a duty's origin and windows
}

// scriptPolicy starts queued jobs FCFS and carries out scripted actions at
// their times (via timers), logging everything the engine tells it.
type scriptPolicy struct {
	e       *Engine
	log     *strings.Builder
	queue   []*Job
	jobs    map[int64]*Job
	actions []action
	lastID  TimerID
}

func (p *scriptPolicy) logf(format string, args ...any) {
	fmt.Fprintf(p.log, "t=%d ", p.e.Now())
	fmt.Fprintf(p.log, format, args...)
	p.log.WriteByte('\n')
}

func (p *scriptPolicy) Attach(e *Engine) {
	p.e = e
	times := map[model.Time]bool{}
	for _, a := range p.actions {
		if !times[a.at] {
			times[a.at] = true
			e.SetTimer(a.at, int64(a.at))
		}
	}
}

func (p *scriptPolicy) Arrive(j *Job) {
	p.logf("arrive %d", j.In.ID)
	p.queue = append(p.queue, j)
	p.jobs[j.In.ID] = j
}

func (p *scriptPolicy) Complete(j *Job) {
	p.logf("complete %d", j.In.ID)
	delete(p.jobs, j.In.ID)
}

func (p *scriptPolicy) Timer(tag int64) {
	p.logf("timer %d", tag)
	for _, a := range p.actions {
		if int64(a.at) != tag {
			continue
		}
		j := p.jobs[a.job]
		switch a.verb {
		case "suspend":
			p.e.Suspend(j)
		case "resume":
			p.e.Resume(j)
		case "rate":
			p.e.SetRate(j, Rate(a.arg*float64(FullRate)))
		case "timer":
			p.lastID = p.e.SetTimer(p.e.Now()+model.Time(a.arg), -1)
		case "cancel":
			p.e.CancelTimer(p.lastID)
		case "duty":
			d := Duty{Period: model.Time(a.arg)}
			if len(a.rest) > 0 {
				o, _ := strconv.ParseInt(a.rest[0], 10, 64)
				d.Origin = model.Time(o)
			}
			if len(a.rest) > 1 {
				for _, w := range strings.Split(a.rest[1], ",") {
					from, to, _ := strings.Cut(w, "-")
					f, _ := strconv.ParseInt(from, 10, 64)
					t, _ := strconv.ParseInt(to, 10, 64)
					d.On = append(d.On, Window{model.Time(f), model.Time(t)})
				}
			}
			p.e.SetDuty(j, d)
		}
		p.logf("%s %d", a.verb, a.job)
	}
}

func (p *scriptPolicy) Schedule() {
	p.logf("pass free=%d", p.e.Free())
	n := 0
	for _, j := range p.queue {
		if p.e.Need(j) > p.e.Free() {
			break
		}
		p.e.Start(j)
		p.logf("start %d", j.In.ID)
		n++
	}
	p.queue = p.queue[n:]
}

// noticing is the scripted policy as a Noticer: a job whose work is done
// is noticed at the next multiple of every.
type noticing struct {
	*scriptPolicy
	every model.Time
}

func (p noticing) Notice(j *Job) model.Time {
	now := p.e.Now()
	at := (now + p.every - 1) / p.every * p.every
	p.logf("done %d, noticed at %d", j.In.ID, at)
	return at
}

type logOutcomes struct{ b *strings.Builder }

func (w logOutcomes) Write(o *model.Outcome) error {
	if o.Reason != model.Accepted {
		fmt.Fprintf(w.b, "outcome %d rejected %s\n", o.JobID, o.Reason)
		return nil
	}
	fmt.Fprintf(w.b, "outcome %d submit=%d start=%d end=%d runtime=%d dedicated=%d\n",
		o.JobID, o.Submit, o.Start, o.End, o.Runtime, o.Dedicated)
	return nil
}
func (w logOutcomes) Close() error { return nil }

type logSamples struct{ b *strings.Builder }

func (w logSamples) WriteSample(s *Sample) error {
	fmt.Fprintf(w.b, "sample t=%d in=%d queued=%d running=%d suspended=%d busy=%g\n",
		s.At, s.InSystem, s.Queued, s.Running, s.Suspended, s.BusyProcs)
	return nil
}

func kv(fields []string) map[string]string {
	m := map[string]string{}
	for _, f := range fields {
		k, v, _ := strings.Cut(f, "=")
		m[k] = v
	}
	return m
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("bad number %q", s)
	}
	return n
}

// runCase runs one case's input lines and returns its log.
func runCase(t *testing.T, input []string) string {
	var cfg Config
	var jobs []model.Job
	var actions []action
	samples := false
	var notice model.Time
	for _, line := range input {
		f := strings.Fields(line)
		switch f[0] {
		case "run":
			a := kv(f[1:])
			m, err := model.ParseMachine(a["machine"])
			if err != nil {
				t.Fatal(err)
			}
			cfg.Machine = m
			if a["order"] != "" {
				if cfg.Order, err = ParseOrder(a["order"]); err != nil {
					t.Fatal(err)
				}
			}
			if a["passes"] != "" {
				if cfg.Passes, err = ParsePasses(a["passes"]); err != nil {
					t.Fatal(err)
				}
			}
			cfg.NodeAllocation = a["nodes"] == "true"
			if v, ok := a["notice"]; ok {
				notice = model.Time(atoi(t, v))
			}
			if v, ok := a["samples"]; ok {
				samples = true // "samples=change": at every change
				if v != "change" {
					cfg.SamplePeriod = model.Time(atoi(t, v))
				}
			}
		case "job":
			a := kv(f[1:])
			j := model.Job{ID: atoi(t, a["id"]), Submit: model.Time(atoi(t, a["submit"])),
				AllocProcs: int(atoi(t, a["size"])), Known: model.AllFields}
			if a["run"] == "" {
				j.Known = j.Known.Without(model.FieldRuntime)
			} else {
				j.Runtime = model.Time(atoi(t, a["run"]))
			}
			if a["est"] != "" {
				j.Estimate = model.Time(atoi(t, a["est"]))
			} else {
				j.Known = j.Known.Without(model.FieldEstimate)
			}
			jobs = append(jobs, j)
		case "at":
			a := action{at: model.Time(atoi(t, f[1])), verb: f[2]}
			if len(f) > 3 {
				a.job = atoi(t, f[3])
			}
			if len(f) > 4 {
				v, err := strconv.ParseFloat(f[4], 64)
				if err != nil {
					t.Fatal(err)
				}
				a.arg = v
			}
			if len(f) > 5 {
				a.rest = f[5:]
			}
			actions = append(actions, a)
		default:
			t.Fatalf("unknown directive %q", line)
		}
	}
	var log strings.Builder
	pol := &scriptPolicy{log: &log, jobs: map[int64]*Job{}, actions: actions}
	var sw SampleWriter
	if samples {
		sw = logSamples{&log}
	}
	var run Policy = pol
	if notice > 0 {
		run = noticing{pol, notice}
	}
	err := New(cfg, run).Run(model.NewSliceReader(&model.Trace{Jobs: jobs}), logOutcomes{&log}, sw)
	if err != nil {
		fmt.Fprintf(&log, "error: %v\n", err)
	}
	return log.String()
}

func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no scripts in testdata")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cases := strings.Split(string(data), "====\n")
			var out strings.Builder
			for i, c := range cases {
				in, want, ok := strings.Cut(c, "----\n")
				if !ok {
					t.Fatalf("case %d: no ---- separator", i+1)
				}
				var input []string
				sc := bufio.NewScanner(strings.NewReader(in))
				for sc.Scan() {
					if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
						input = append(input, l)
					}
				}
				got := runCase(t, input)
				if i > 0 {
					out.WriteString("====\n")
				}
				out.WriteString(in + "----\n" + got)
				if !*rewrite && got != want {
					t.Errorf("case %d:\n%s\ngot:\n%s\nwant:\n%s", i+1, in, got, want)
				}
			}
			if *rewrite {
				if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
