package columnar

import (
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// The three table kinds. Each column is declared once, here: its name
// (units in the name), type, doc and how its value moves between the
// model type and the column. The Arrow and Parquet schemas, the CSV
// header, the package documentation (TestDocColumns) and the code that
// reads and writes rows all follow from these lists. Adding a column is
// adding a line.

// traceTable: one row per job. The first 18 columns are the SWF fields in
// order; the rest are the application attributes (null when unspecified).
var traceTable = newTable("trace", "gangsim.trace/1", "traceRow",
	[][]string{{"job_id"}, {"submit_s"}, {"runtime_s"}, {"alloc_procs", "req_procs"}},
	swfInt64("job_id", model.FieldJobID, "job number (SWF field 1)", func(j *model.Job) *int64 { return &j.ID }),
	swfSeconds("submit_s", model.FieldSubmit, "submit time from the trace start (field 2)", func(j *model.Job) *model.Time { return &j.Submit }),
	swfSeconds("wait_s", model.FieldWait, "wait time in the logged system (field 3)", func(j *model.Job) *model.Time { return &j.Wait }),
	swfSeconds("runtime_s", model.FieldRuntime, "run time (field 4)", func(j *model.Job) *model.Time { return &j.Runtime }),
	swfInt32("alloc_procs", model.FieldAllocProcs, "allocated processors (field 5)", func(j *model.Job) *int { return &j.AllocProcs }),
	swfSeconds("avg_cpu_s", model.FieldAvgCPU, "average CPU time per processor (field 6)", func(j *model.Job) *model.Time { return &j.AvgCPU }),
	swfInt64("used_mem_kb", model.FieldUsedMem, "used memory per processor (field 7)", func(j *model.Job) *int64 { return &j.UsedMemKB }),
	swfInt32("req_procs", model.FieldReqProcs, "requested processors (field 8)", func(j *model.Job) *int { return &j.ReqProcs }),
	swfSeconds("estimate_s", model.FieldEstimate, "requested time: the user's estimate (field 9)", func(j *model.Job) *model.Time { return &j.Estimate }),
	swfInt64("req_mem_kb", model.FieldReqMem, "requested memory per processor (field 10)", func(j *model.Job) *int64 { return &j.ReqMemKB }),
	swfField(model.FieldStatus, int32Field("status", "0 failed, 1 completed, 2-4 partial, 5 cancelled (field 11)",
		func(j *model.Job) (int64, bool) { return int64(j.Status), j.Known.Has(model.FieldStatus) },
		func(j *model.Job, v int64) error {
			if v < math.MinInt8 || v > math.MaxInt8 {
				return fmt.Errorf("%d out of range", v)
			}
			j.Status = model.Status(v)
			j.Known = j.Known.With(model.FieldStatus)
			return nil
		})),
	swfInt32("user_id", model.FieldUser, "user (field 12)", func(j *model.Job) *int { return &j.User }),
	swfInt32("group_id", model.FieldGroup, "group (field 13)", func(j *model.Job) *int { return &j.Group }),
	swfInt32("executable_id", model.FieldExecutable, "application (field 14)", func(j *model.Job) *int { return &j.Executable }),
	swfInt32("queue_id", model.FieldQueue, "queue (field 15)", func(j *model.Job) *int { return &j.Queue }),
	swfInt32("partition_id", model.FieldPartition, "partition (field 16)", func(j *model.Job) *int { return &j.Partition }),
	swfInt64("preceding_job_id", model.FieldPreceding, "job this one depends on (field 17)", func(j *model.Job) *int64 { return &j.Preceding }),
	swfSeconds("think_time_s", model.FieldThinkTime, "think time after the preceding job (field 18)", func(j *model.Job) *model.Time { return &j.ThinkTime }),
	appSeconds("granularity_s", "computation per BSP iteration of the fastest process",
		func(j *model.Job) (model.Time, bool) { return j.App.Granularity, j.App.Granularity != 0 },
		func(j *model.Job, t model.Time) { j.App.Granularity = t }),
	appField(stringField("pattern", "none, ring, all-to-all or barrier",
		func(j *model.Job) (string, bool) {
			return j.App.Pattern.String(), j.App.Pattern != model.PatternUnspecified
		},
		func(j *model.Job, s string) (err error) { j.App.Pattern, err = model.ParsePattern(s); return err })),
	appField(stringField("comm", "blocking or non-blocking",
		func(j *model.Job) (string, bool) { return j.App.Comm.String(), j.App.Comm != model.CommUnspecified },
		func(j *model.Job, s string) (err error) { j.App.Comm, err = model.ParseComm(s); return err })),
	appField(int64Field("message_bytes", "bytes each process sends per iteration",
		func(j *model.Job) (int64, bool) { return j.App.MessageBytes, j.App.MessageBytes != 0 },
		func(j *model.Job, v int64) error { j.App.MessageBytes = v; return nil })),
	appFloat("imbalance", "the slowest process computes (1+imbalance) x granularity",
		func(j *model.Job) (float64, bool) { return j.App.Imbalance, j.App.Imbalance != 0 },
		func(j *model.Job, v float64) { j.App.Imbalance = v }),
	appSecondsList("proc_compute_s", "computation per iteration of each process",
		func(j *model.Job) []model.Time { return j.App.ProcCompute },
		func(j *model.Job, v []model.Time) { j.App.ProcCompute = v }),
	appField(int64Field("mem_per_proc_kb", "memory per process",
		func(j *model.Job) (int64, bool) { return j.App.MemPerProcKB, j.App.MemPerProcKB != 0 },
		func(j *model.Job, v int64) error { j.App.MemPerProcKB = v; return nil })),
	appField(int32Field("priority", "scheduling priority (PBCS); null = normal",
		func(j *model.Job) (int64, bool) { return int64(j.App.Priority), j.App.Priority != 0 },
		count(func(j *model.Job) *int { return &j.App.Priority }))),
	appField(indexListField("pin", "processor of each process (0-based), for hand-placed jobs",
		func(j *model.Job) []int { return j.App.Pin },
		func(j *model.Job, v []int) { j.App.Pin = v })),
)

// The outcome table's bounded slowdown columns: the classic form and the
// thesis' time-sharing form, both with tau = 10 s of real time. Their names
// say the form (ts_ for time sharing) and the tau (rt10s), so that a
// column means one thing in every file and equals the tools' own
// (analyze's bsld and ts_bsld, at their default tau).
const (
	colBsld   = "bsld_rt10s"
	colTSBsld = "ts_bsld_rt10s"
)

// outcomeTable: one row per job of a simulated run, in completion order
// (a rejected job at its arrival). The derived columns (wait, response,
// slowdowns, status) are not read back: they follow from the others.
var outcomeTable = newTable("outcomes", "gangsim.outcomes/3", "outcomeRow",
	[][]string{{"job_id"}, {"submit_s"}, {"start_s"}, {"end_s"}, {"procs"}},
	int64Field("job_id", "job number in the input trace",
		func(o *model.Outcome) (int64, bool) { return o.JobID, true },
		func(o *model.Outcome, v int64) error { o.JobID = v; return nil }),
	secondsField("submit_s", "arrival",
		func(o *model.Outcome) (model.Time, bool) { return o.Submit, true },
		func(o *model.Outcome, t model.Time) { o.Submit = t }),
	outcomeTime("start_s", "first start; null if rejected", func(o *model.Outcome) *model.Time { return &o.Start }),
	outcomeTime("end_s", "completion; null if rejected", func(o *model.Outcome) *model.Time { return &o.End }),
	derived(secondsField("wait_s", "start - submit; null if rejected",
		func(o *model.Outcome) (model.Time, bool) { return o.Wait(), o.Completed() }, nil)),
	derived(secondsField("response_s", "end - submit; null if rejected",
		func(o *model.Outcome) (model.Time, bool) { return o.Response(), o.Completed() }, nil)),
	secondsField("runtime_s", "end - start, time descheduled included; null if rejected",
		func(o *model.Outcome) (model.Time, bool) { return o.Runtime, o.Completed() },
		func(o *model.Outcome, t model.Time) { o.Runtime = t }),
	secondsField("dedicated_s", "runtime alone on a dedicated partition",
		func(o *model.Outcome) (model.Time, bool) { return o.Dedicated, true },
		func(o *model.Outcome, t model.Time) { o.Dedicated = t }),
	int32Field("procs", "processors",
		func(o *model.Outcome) (int64, bool) { return int64(o.Procs), true },
		count(func(o *model.Outcome) *int { return &o.Procs })),
	secondsField("estimate_s", "the runtime estimate the scheduler used",
		func(o *model.Outcome) (model.Time, bool) { return o.Estimate, o.Estimate != 0 },
		func(o *model.Outcome, t model.Time) { o.Estimate = t }),
	derived(float64Field("slowdown", "response / runtime; null if rejected",
		func(o *model.Outcome) (float64, bool) { return o.Slowdown(), o.Completed() && o.Runtime > 0 }, nil)),
	// The bounded slowdowns at 10 s of real time: OutcomeWriter.Write
	// sets them, with the tau of the table's header (model.CompressionOf).
	derived(float64Field(colBsld, "max((wait + runtime) / max(runtime, tau), 1), tau = 10 s of real time; null if rejected",
		func(o *model.Outcome) (float64, bool) { return 0, o.Completed() }, nil)),
	derived(float64Field(colTSBsld, "max((wait + runtime) / max(dedicated, tau), 1), same tau; null if rejected",
		func(o *model.Outcome) (float64, bool) { return 0, o.Completed() }, nil)),
	derived(stringField("status", "completed or rejected",
		func(o *model.Outcome) (string, bool) {
			if o.Completed() {
				return "completed", true
			}
			return "rejected", true
		}, nil)),
	stringField("reason", "too-wide, no-size, no-runtime, too-long; null if completed",
		func(o *model.Outcome) (string, bool) { return o.Reason.String(), !o.Completed() },
		func(o *model.Outcome, s string) (err error) { o.Reason, err = model.ParseRejectReason(s); return err }),
	enumField("sharing", "time sharing measured: none, job or process",
		sharings, func(o *model.Outcome) (model.Sharing, bool) { return o.Sharing, true },
		func(o *model.Outcome, s model.Sharing) { o.Sharing = s }),
	int64Field("switches", "gang switches that switched the job in; null without time sharing",
		func(o *model.Outcome) (int64, bool) { return o.Switches, o.Sharing != model.NoSharing },
		func(o *model.Outcome, v int64) error { o.Switches = v; return nil }),
	secondsField("switch_loss_s", "time its processors spent switching it in; null without time sharing",
		func(o *model.Outcome) (model.Time, bool) { return o.SwitchLoss, o.Sharing != model.NoSharing },
		func(o *model.Outcome, t model.Time) { o.SwitchLoss = t }),
	processSeconds("cpu_s", "processor time computing, summed over its processes; null unless process level",
		func(o *model.Outcome) *model.Time { return &o.CPU }),
	processSeconds("spin_s", "processor time spinning for messages or barriers; null unless process level",
		func(o *model.Outcome) *model.Time { return &o.Spin }),
	processSeconds("blocked_s", "time its processes spent blocked, summed; null unless process level",
		func(o *model.Outcome) *model.Time { return &o.Blocked }),
	classShare("class_cs", "share of its process-time in FCS class CS; null unless FCS",
		func(c *model.FCSClasses) *float64 { return &c.CS }),
	classShare("class_f", "share in FCS class F (frustrated); null unless FCS",
		func(c *model.FCSClasses) *float64 { return &c.F }),
	classShare("class_dc", "share in FCS class DC (don't care); null unless FCS",
		func(c *model.FCSClasses) *float64 { return &c.DC }),
)

// sharings are the values of model.Sharing, for the sharing columns.
var sharings = []model.Sharing{model.NoSharing, model.JobLevel, model.ProcessLevel}

// outcomeTime is a time that a rejected job does not have (Never).
func outcomeTime(name, doc string, p func(*model.Outcome) *model.Time) field[model.Outcome] {
	f := secondsField(name, doc,
		func(o *model.Outcome) (model.Time, bool) { return *p(o), o.Completed() },
		func(o *model.Outcome, t model.Time) { *p(o) = t })
	get := f.get
	f.get = func(d *colData, i int, o *model.Outcome) error {
		*p(o) = model.Never
		return get(d, i, o)
	}
	return f
}

// processSeconds is a process-level measurement of an outcome.
func processSeconds(name, doc string, p func(*model.Outcome) *model.Time) field[model.Outcome] {
	return secondsField(name, doc,
		func(o *model.Outcome) (model.Time, bool) { return *p(o), o.Sharing == model.ProcessLevel },
		func(o *model.Outcome, t model.Time) { *p(o) = t })
}

// classShare is one FCS class share of an outcome.
func classShare(name, doc string, p func(*model.FCSClasses) *float64) field[model.Outcome] {
	return float64Field(name, doc,
		func(o *model.Outcome) (float64, bool) { return *p(&o.Classes), o.Classes.Known() },
		func(o *model.Outcome, v float64) { *p(&o.Classes) = v })
}

// sampleTable: the system's state from each row's time until the next
// row's.
var sampleTable = newTable("timeseries", "gangsim.timeseries/2", "sampleRow",
	[][]string{{"time_s"}, {"in_system"}, {"queued"}, {"running"}, {"suspended"}, {"busy_procs"}},
	secondsField("time_s", "start of the interval",
		func(s *model.Sample) (model.Time, bool) { return s.At, true },
		func(s *model.Sample, t model.Time) { s.At = t }),
	sampleCount("in_system", "jobs queued, running or suspended", func(s *model.Sample) *int { return &s.InSystem }),
	sampleCount("queued", "jobs waiting for their first start", func(s *model.Sample) *int { return &s.Queued }),
	sampleCount("running", "jobs progressing", func(s *model.Sample) *int { return &s.Running }),
	sampleCount("suspended", "jobs started and descheduled", func(s *model.Sample) *int { return &s.Suspended }),
	float64Field("busy_procs", "processors in use (process level: running a process)",
		func(s *model.Sample) (float64, bool) { return s.BusyProcs, true },
		func(s *model.Sample, v float64) { s.BusyProcs = v }),
	enumField("sharing", "time sharing measured: none, job or process",
		sharings, func(s *model.Sample) (model.Sharing, bool) { return s.Sharing, true },
		func(s *model.Sample, v model.Sharing) { s.Sharing = v }),
	int64Field("rows", "occupied rows of the gang matrix; null without time sharing",
		func(s *model.Sample) (int64, bool) { return int64(s.Rows), s.Sharing != model.NoSharing },
		count(func(s *model.Sample) *int { return &s.Rows })),
	float64Field("switching", "share of processor time in gang switches; null without time sharing",
		func(s *model.Sample) (float64, bool) { return s.Switching, s.Sharing != model.NoSharing },
		func(s *model.Sample, v float64) { s.Switching = v }),
	processCount("computing", "processes computing at time_s; null unless process level",
		func(s *model.Sample) *float64 { return &s.Computing }),
	processCount("spinning", "processes spinning at time_s; null unless process level",
		func(s *model.Sample) *float64 { return &s.Spinning }),
	processCount("blocked_procs", "processes blocked at time_s; null unless process level",
		func(s *model.Sample) *float64 { return &s.BlockedProcs }),
	processCount("ready", "processes ready but not running at time_s; null unless process level",
		func(s *model.Sample) *float64 { return &s.Ready }),
)

func sampleCount(name, doc string, p func(*model.Sample) *int) field[model.Sample] {
	return int64Field(name, doc, func(s *model.Sample) (int64, bool) { return int64(*p(s)), true }, count(p))
}

func processCount(name, doc string, p func(*model.Sample) *float64) field[model.Sample] {
	return float64Field(name, doc,
		func(s *model.Sample) (float64, bool) { return *p(s), s.Sharing == model.ProcessLevel },
		func(s *model.Sample, v float64) { *p(s) = v })
}

var (
	traceKind   = traceTable.kind
	outcomeKind = outcomeTable.kind
	sampleKind  = sampleTable.kind
	kinds       = []*kind{traceKind, outcomeKind, sampleKind}
)
