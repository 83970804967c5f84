package metrics

import (
	"strings"
)

// Quantity is how a reader is told what a name means: a metric column, a
// per-job metric or a run parameter, with the label and unit an axis or a
// legend prints and a sentence for the documentation. The same table
// serves the tables' column list (analyze --list-columns), the figures'
// axis and legend titles, and the experiments' figures.
type Quantity struct {
	// Name is the name in the outputs: a column ("response_s_median"), a
	// per-job metric ("response_s", or analyze's --metric "response"), or
	// a manifest parameter ("load.target") or experiment axis ("load").
	Name string
	// Label names it for a reader, capitalized: "Median response time".
	Label string
	// Unit is its unit ("s", "jobs/s"); empty for counts and ratios.
	Unit string
	// Doc says what it is, in a sentence.
	Doc string
}

// Text is the axis title: "Label (Unit)", or Label alone without a unit.
func (q Quantity) Text() string {
	if q.Unit == "" {
		return q.Label
	}
	return q.Label + " (" + q.Unit + ")"
}

// runQuantities are the run metrics, the first columns of a table.
var runQuantities = []Quantity{
	{"jobs", "Completed jobs", "", "jobs that ran to completion"},
	{"rejected", "Rejected jobs", "", "jobs rejected at submission (too wide for the machine, no size)"},
	{"makespan_s", "Makespan", "s", "first submit to last completion: the run's turnaround"},
	{"utilization", "Utilization", "", "processor-seconds of work of the completed jobs (procs × dedicated runtime; at process level, the time their processes computed) over machine size × makespan, in [0, 1]"},
	{"throughput_per_s", "Throughput", "jobs/s", "completed jobs per second of makespan"},
}

// jobQuantities are the per-job metrics, in the order of AllJobMetrics.
var jobQuantities = [...]Quantity{
	{"wait_s", "Wait time", "s", "start - submit: the time in the queue"},
	{"response_s", "Response time", "s", "end - submit: wait plus time running"},
	{"bsld", "Bounded slowdown", "", "max((wait + run) / max(run, tau), 1), Feitelson et al. 1997; tau = 10 s of real time (10 s / the workload's compression) unless given: the outcome files' bsld_rt10s"},
	{"ts_bsld", "Time-sharing bounded slowdown", "", "max((wait + run) / max(dedicated runtime, tau), 1), Frachtenberg's thesis 6.4.1; the same tau: the outcome files' ts_bsld_rt10s"},
}

// Quantity returns the metric's description.
func (m JobMetric) Quantity() Quantity { return jobQuantities[m] }

// statQuantities name the statistics of a distribution, by column suffix:
// the label's prefix and the documentation's phrase.
var statQuantities = map[string][2]string{
	"mean":   {"Mean", "mean"},
	"sd":     {"Standard deviation of", "sample standard deviation (n - 1) of the"},
	"min":    {"Minimum", "smallest"},
	"p5":     {"5th percentile of", "5th percentile of the"},
	"p25":    {"25th percentile of", "25th percentile of the"},
	"median": {"Median", "median"},
	"p75":    {"75th percentile of", "75th percentile of the"},
	"p95":    {"95th percentile of", "95th percentile of the"},
	"max":    {"Maximum", "largest"},
}

// Columns describes every column of RunColumns, in its order. Percentiles
// are Hyndman and Fan's type 7 over the completed jobs.
func Columns() []Quantity {
	cols := append([]Quantity(nil), runQuantities...)
	for _, q := range jobQuantities {
		for _, s := range distributionColumns() {
			cols = append(cols, statQuantity(q, s))
		}
	}
	return cols
}

// statQuantity describes statistic s (a column suffix) of per-job metric q.
func statQuantity(q Quantity, s string) Quantity {
	st := statQuantities[s]
	lower := strings.ToLower(q.Label[:1]) + q.Label[1:]
	return Quantity{Name: q.Name + "_" + s, Label: st[0] + " " + lower, Unit: q.Unit,
		Doc: st[1] + " " + lower + " of the completed jobs (" + q.Doc + ")"}
}

// paramQuantities are the manifest parameters and experiment axes a table
// is grouped by or a figure drawn against: every parameter replay and
// genwork write into a manifest (a workload spec's JSON leaves, the
// results of its transforms, the replay's settings), analyze's own
// grouping names, and the experiments' axes. Families named by a rule
// (a Lublin class's model parameters, a selection window's bounds) are in
// familyLabel.
var paramQuantities = []Quantity{
	// The workload (genwork; workload.Spec's JSON paths).
	{"preset", "Workload preset", "", "named workload spec the run's workload was made from (genwork --preset)"},
	{"load.target", "Offered load", "", "offered load the workload was scaled to (genwork --load): Σ procs × runtime / (machine size × arrival span)"},
	{"load.scale", "Load scaling", "", "what was scaled to reach the offered load: runtimes or arrivals (genwork --scale)"},
	{"load.procs", "Machine size for the load", "processors", "machine size the offered load was measured against"},
	{"load", "Offered load", "", "offered load the workload was scaled to (an experiment's axis)"},
	{"result.load_before", "Offered load before scaling", "", "offered load of the workload as generated or read"},
	{"result.load_factor", "Load scaling factor", "", "factor the runtimes or arrival gaps were scaled by to reach the offered load"},
	{"result.load_procs", "Machine size for the load", "processors", "machine size the offered load was measured against"},
	{"result.load_reached", "Offered load reached", "", "offered load after scaling"},
	{"result.selection_draw", "Workload draw", "", "which workload drawn from the seed's stream the selection kept (1 is the first)"},
	{"compress", "Time compression", "", "factor all times were divided by (genwork --compress)"},
	{"seed", "Seed", "", "random seed of the workload"},
	{"estimates.mode", "Runtime estimates", "", "how the user estimates were made (genwork --estimates)"},
	{"estimates.max_factor", "Largest estimate factor", "", "largest factor a loose estimate exceeds the runtime by"},
	{"attributes.granularities", "Granularities", "s", "computation granularities the application attributes are drawn from"},
	{"attributes.weights", "Granularity weights", "", "relative probabilities of the granularities"},
	{"attributes.pattern", "Communication pattern", "", "communication pattern of the applications (ring, all-to-all, barrier)"},
	{"attributes.comm", "Communication mode", "", "blocking or non-blocking communication"},
	{"attributes.imbalance", "Load imbalance", "", "extra share of each iteration the slowest process computes"},
	{"attributes.message_bytes", "Message size", "bytes", "bytes each process sends per iteration"},
	{"attributes.mem_per_proc_kb", "Memory per process", "KB", "memory each process needs (model.App.MemPerProcKB)"},
	{"source.trace.path", "Trace", "", "trace file the workload was read from"},
	{"source.trace.lenient", "Lenient reading", "", "malformed SWF lines skipped"},
	{"source.trace.strict", "Strict reading", "", "every SWF value outside SWF 2.2 refused"},
	{"source.trace.skip", "Jobs skipped", "", "jobs of the trace skipped before the window"},
	{"source.trace.jobs", "Jobs in the window", "", "jobs of the trace kept after the skipped ones"},
	{"source.trace.clean.preset", "Cleaning preset", "", "cleaning rules the trace was normalized with (genwork clean --preset)"},
	{"source.trace.clean.whole_seconds", "Whole seconds", "", "times truncated to whole seconds"},
	{"source.trace.clean.drop_bad_submit", "Drop bad submit times", "", "jobs with a missing or negative submit time dropped"},
	{"source.trace.clean.drop_no_size", "Drop sizeless jobs", "", "jobs without a positive size dropped"},
	{"source.trace.clean.drop_too_wide", "Drop too-wide jobs", "", "jobs wider than the machine dropped"},
	{"source.trace.clean.machine_procs", "Machine size for cleaning", "processors", "machine size too-wide jobs were judged against"},
	{"source.trace.clean.no_runtime", "Jobs that never ran", "", "what cleaning did with jobs that never ran: keep, drop, one-second"},
	{"source.trace.clean.unify_size", "Unified sizes", "", "size written into both size fields"},
	{"source.trace.clean.no_estimate", "Missing estimates", "", "what cleaning did with missing estimates: keep, from-runtime"},
	{"source.trace.clean.overrun", "Overruns", "", "what cleaning did with runtimes above the estimate"},
	{"source.trace.clean.order", "Submit order", "", "what cleaning did with unsorted submit times"},
	{"source.lublin.jobs", "Jobs in the workload", "", "jobs generated by the Lublin-Feitelson model"},
	{"source.lublin.procs", "Machine size", "processors", "processors the Lublin-Feitelson model generated for"},
	{"source.lublin.model_procs", "Model machine size", "processors", "processors the Lublin-Feitelson model drew sizes for, those above the machine cut to it"},
	{"source.lublin.mix", "Job classes", "", "job classes the Lublin-Feitelson model generated: both, batch, interactive, combined"},
	{"source.lublin.start_hour", "Start hour", "", "hour of the day at time 0 of the Lublin-Feitelson workload"},
	{"source.lublin.select.max_draws", "Selection draws", "", "most workloads drawn while looking for one in the selection's windows"},
	{"source.scenario.name", "Scenario", "", "static scenario or benchmark run (genwork scenario)"},
	{"source.scenario.comm", "Communication mode", "", "blocking or non-blocking communication of the scenario"},
	{"source.scenario.tasks", "Tasks", "", "tasks of the scenario"},
	{"source.scenario.machines", "Machines", "", "machines of the scenario"},
	{"source.scenario.task_length", "Task length", "s", "length of each task of the scenario"},
	{"source.synthetic.jobs", "Jobs in the workload", "", "jobs of the synthetic workload"},
	{"source.synthetic.procs", "Machine size", "processors", "processors of the synthetic workload's machine"},
	{"source.synthetic.size", "Job size", "processors", "every synthetic job's size"},
	{"source.synthetic.arrivals", "Arrival process", "", "arrival process of the synthetic workload: poisson, daily, lublin"},
	{"source.synthetic.runtimes", "Runtime distribution", "", "runtime distribution of the synthetic workload: exponential, lublin"},
	{"source.synthetic.mean_interarrival", "Mean inter-arrival time", "s", "mean time between arrivals of the synthetic workload"},
	{"source.synthetic.mean_runtime", "Mean runtime", "s", "mean runtime of the synthetic jobs"},
	// The replay (replay's flags, pipelines.Replay.Params).
	{"policy", "Policy", "", "scheduling policy (replay --policy)"},
	{"hw", "Hardware model", "", "hardware preset charging time sharing (replay --hw; none charges nothing)"},
	{"mechanism", "Mechanism", "", "variant of the hardware model's family (replay --mechanism), e.g. buffer switching"},
	{"hw_sha256", "Hardware preset digest", "", "SHA-256 of the hardware preset's JSON"},
	{"machine", "Machine", "", "machine simulated (replay --machine), processors or nodes x processors per node"},
	{"node_allocation", "Node allocation", "", "jobs given whole nodes (replay --node-alloc)"},
	{"compat", "Compatibility", "", "engine semantics: none, or pyss's (replay --compat)"},
	{"order", "Event order", "", "order of same-time events (replay --order)"},
	{"passes", "Scheduling passes", "", "when the policy is asked to schedule (replay --passes)"},
	{"clean", "Cleaning", "", "cleaning replay applied to its input (replay --clean)"},
	{"sample_period_s", "Sample period", "s", "period of the time series' samples, 0 for every change"},
	{"lenient", "Lenient reading", "", "malformed SWF lines skipped (replay --lenient)"},
	{"strict", "Strict reading", "", "every SWF value outside SWF 2.2 refused (--strict)"},
	// Experiment axes.
	{"quantum", "Time quantum", "s", "time slice of a time-sharing policy"},
	{"mpl", "Multiprogramming level", "", "jobs a time-sharing policy runs side by side on a processor"},
	{"processes", "Processes", "", "processes of each job"},
	{"processors", "Processors", "", "processors of the machine or the job"},
	{"granularity_ms", "Granularity", "ms", "computation between two communications of a process"},
	{"pattern", "Communication pattern", "", "communication pattern of the applications (ring, all-to-all, barrier)"},
	{"comm", "Communication mode", "", "blocking or non-blocking communication"},
	{"scenario", "Scenario", "", "static scenario of the thesis (genwork scenario)"},
	{"window", "Window", "", "window of a production log (its first job and length)"},
	{"arrivals", "Arrival process", "", "arrival process of a synthetic workload"},
	{"filler", "Filler run time", "s", "run time of the filler application (thesis 6.5)"},
	// analyze's own grouping names.
	{"run", "Run", "", "the input's file name"},
	{"half", "Job length", "", "the thesis' short and long halves of the jobs, by their FCFS runtime (6.4.1)"},
}

// lublinClasses are the Lublin-Feitelson job classes whose model
// parameters a workload spec may override (source.lublin.batch.u_hi).
var lublinClasses = map[string]string{"batch": "Batch", "interactive": "Interactive", "combined": "Combined"}

// familyLabel describes the parameter names made by a rule: a Lublin
// class's model parameter ("source.lublin.batch.u_hi": "Batch jobs' u_hi")
// and a selection window's bound ("source.lublin.select.span_days.min":
// "Arrival span selected, at least" in days).
func familyLabel(name string) (Quantity, bool) {
	rest, ok := strings.CutPrefix(name, "source.lublin.")
	if !ok {
		return Quantity{}, false
	}
	if class, param, ok := strings.Cut(rest, "."); ok && lublinClasses[class] != "" && param != "" && !strings.Contains(param, ".") {
		return Quantity{Name: name, Label: lublinClasses[class] + " jobs' " + param,
			Doc: "the Lublin-Feitelson model's parameter " + param + " of " + class + " jobs, overriding the published value"}, true
	}
	window, bound, ok := strings.Cut(strings.TrimPrefix(rest, "select."), ".")
	if !ok || !strings.HasPrefix(rest, "select.") {
		return Quantity{}, false
	}
	windows := map[string]Quantity{
		"span_days":          {Label: "Arrival span selected", Unit: "days"},
		"median_size":        {Label: "Median size selected", Unit: "processors"},
		"power_of_two_share": {Label: "Power-of-two share selected"},
		"load":               {Label: "Offered load selected"},
	}
	q, known := windows[window]
	bounds := map[string]string{"min": "at least", "max": "at most"}
	if !known || bounds[bound] == "" {
		return Quantity{}, false
	}
	q.Name = name
	q.Doc = "the selection window's bound: " + strings.ToLower(q.Label[:1]) + q.Label[1:] + " " + bounds[bound]
	q.Label += ", " + bounds[bound]
	return q, true
}

// Label describes a name: a column of RunColumns, a per-job metric (by its
// column prefix, or analyze's --metric name: "wait", "response"), or a
// known parameter. ok is false for a name it does not know; the returned
// Quantity then has the name as its label.
func Label(name string) (q Quantity, ok bool) {
	for _, c := range Columns() {
		if c.Name == name {
			return c, true
		}
	}
	for _, c := range jobQuantities {
		if c.Name == name || strings.TrimSuffix(c.Name, "_s") == name {
			return c, true
		}
	}
	for _, c := range paramQuantities {
		if c.Name == name {
			return c, true
		}
	}
	if q, ok := familyLabel(name); ok {
		return q, true
	}
	return Quantity{Name: name, Label: name}, false
}

// Parameters describes the parameters Label knows, in a fixed order, for
// documentation.
func Parameters() []Quantity { return append([]Quantity(nil), paramQuantities...) }
