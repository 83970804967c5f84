package columnar

import (
	"fmt"
	"math"

	"github.com/gangsim/gangsim/model"
)

// The trace table: one row per job. Columns 0-17 are the 18 SWF fields in
// order; the rest are the application attributes (null when unspecified).
var traceKind = newKind("trace", "gangsim.trace/1", []colSpec{
	{"job_id", "job number (SWF field 1)", tInt64},
	{"submit_s", "submit time from the trace start, seconds (field 2)", tFloat64},
	{"wait_s", "wait time in the logged system, seconds (field 3)", tFloat64},
	{"runtime_s", "run time, seconds (field 4)", tFloat64},
	{"alloc_procs", "allocated processors (field 5)", tInt32},
	{"avg_cpu_s", "average CPU time per processor, seconds (field 6)", tFloat64},
	{"used_mem_kb", "used memory per processor, KB (field 7)", tInt64},
	{"req_procs", "requested processors (field 8)", tInt32},
	{"estimate_s", "requested time, the user's runtime estimate, seconds (field 9)", tFloat64},
	{"req_mem_kb", "requested memory per processor, KB (field 10)", tInt64},
	{"status", "SWF status: 0 failed, 1 completed, 2-4 partial, 5 cancelled (field 11)", tInt32},
	{"user_id", "user (field 12)", tInt32},
	{"group_id", "group (field 13)", tInt32},
	{"executable_id", "application number (field 14)", tInt32},
	{"queue_id", "queue number (field 15)", tInt32},
	{"partition_id", "partition number (field 16)", tInt32},
	{"preceding_job_id", "job this one depends on (field 17)", tInt64},
	{"think_time_s", "think time after the preceding job, seconds (field 18)", tFloat64},
	{"granularity_s", "computation per BSP iteration of the fastest process, seconds", tFloat64},
	{"pattern", "communication pattern: none, ring, all-to-all, barrier", tString},
	{"comm", "communication calls: blocking, non-blocking", tString},
	{"message_bytes", "bytes each process sends per iteration", tInt64},
	{"imbalance", "load imbalance: the slowest process computes (1+imbalance) x granularity", tFloat64},
	{"proc_compute_s", "computation per iteration of each process, seconds", tFloat64List},
	{"mem_per_proc_kb", "memory per process, KB", tInt64},
	{"priority", "scheduling priority (PBCS); absent = normal", tInt32},
	{"pin", "processor of each process (0-based), for hand-placed jobs", tInt32List},
})

// The outcomes table: one row per job of a simulated run, in completion
// order (rejected jobs at their arrival).
var outcomeKind = newKind("outcomes", "gangsim.outcomes/1", []colSpec{
	{"job_id", "job number in the input trace", tInt64},
	{"submit_s", "arrival time, seconds", tFloat64},
	{"start_s", "first start, seconds; null if rejected", tFloat64},
	{"end_s", "completion, seconds; null if rejected", tFloat64},
	{"wait_s", "start - submit, seconds; null if rejected", tFloat64},
	{"response_s", "end - submit, seconds; null if rejected", tFloat64},
	{"runtime_s", "end - start (including time descheduled), seconds; null if rejected", tFloat64},
	{"dedicated_s", "runtime alone on a dedicated partition, seconds", tFloat64},
	{"procs", "processors", tInt32},
	{"estimate_s", "the runtime estimate the scheduler used, seconds", tFloat64},
	{"slowdown", "response / runtime; null if rejected", tFloat64},
	{"bounded_slowdown", "max(response / max(runtime, 10 s), 1); null if rejected", tFloat64},
	{"status", "completed or rejected", tString},
	{"reason", "why a job was rejected: too-wide, no-size, no-runtime, too-long; null if completed", tString},
})

// The time-series table: the system's state from each row's time until the
// next row's.
var sampleKind = newKind("timeseries", "gangsim.timeseries/1", []colSpec{
	{"time_s", "start of the interval, seconds", tFloat64},
	{"in_system", "jobs queued, running or suspended", tInt64},
	{"queued", "jobs waiting for their first start", tInt64},
	{"running", "jobs progressing", tInt64},
	{"suspended", "jobs started and descheduled", tInt64},
	{"busy_procs", "processors in use", tFloat64},
})

var kinds = []*kind{traceKind, outcomeKind, sampleKind}

// Trace column indices past the SWF fields.
const (
	cGranularity = 18 + iota
	cPattern
	cComm
	cMessage
	cImbalance
	cProcCompute
	cMem
	cPriority
	cPin
)

func secs(t model.Time) float64 { return t.Seconds() }

// fromSecs converts seconds read from a file to Time, exactly for any value
// written by secs.
func fromSecs(s float64) model.Time { return model.FromSecondsFloat(s) }

// appendJob appends j as a trace row. It fails for values a column cannot
// hold.
func appendJob(b *batch, j *model.Job) error {
	k := j.Known
	b.int(0, j.ID, k.Has(model.FieldJobID))
	b.flt(1, secs(j.Submit), k.Has(model.FieldSubmit))
	b.flt(2, secs(j.Wait), k.Has(model.FieldWait))
	b.flt(3, secs(j.Runtime), k.Has(model.FieldRuntime))
	b.int(4, int64(j.AllocProcs), k.Has(model.FieldAllocProcs))
	b.flt(5, secs(j.AvgCPU), k.Has(model.FieldAvgCPU))
	b.int(6, j.UsedMemKB, k.Has(model.FieldUsedMem))
	b.int(7, int64(j.ReqProcs), k.Has(model.FieldReqProcs))
	b.flt(8, secs(j.Estimate), k.Has(model.FieldEstimate))
	b.int(9, j.ReqMemKB, k.Has(model.FieldReqMem))
	b.int(10, int64(j.Status), k.Has(model.FieldStatus))
	b.int(11, int64(j.User), k.Has(model.FieldUser))
	b.int(12, int64(j.Group), k.Has(model.FieldGroup))
	b.int(13, int64(j.Executable), k.Has(model.FieldExecutable))
	b.int(14, int64(j.Queue), k.Has(model.FieldQueue))
	b.int(15, int64(j.Partition), k.Has(model.FieldPartition))
	b.int(16, j.Preceding, k.Has(model.FieldPreceding))
	b.flt(17, secs(j.ThinkTime), k.Has(model.FieldThinkTime))
	a := &j.App
	b.flt(cGranularity, secs(a.Granularity), a.Granularity != 0)
	b.str(cPattern, a.Pattern.String(), a.Pattern != model.PatternUnspecified)
	b.str(cComm, a.Comm.String(), a.Comm != model.CommUnspecified)
	b.int(cMessage, a.MessageBytes, a.MessageBytes != 0)
	b.flt(cImbalance, a.Imbalance, a.Imbalance != 0)
	if len(a.ProcCompute) > 0 {
		pc := make([]float64, len(a.ProcCompute))
		for i, t := range a.ProcCompute {
			pc[i] = secs(t)
		}
		b.flist(cProcCompute, pc, true)
	} else {
		b.flist(cProcCompute, nil, false)
	}
	b.int(cMem, a.MemPerProcKB, a.MemPerProcKB != 0)
	b.int(cPriority, int64(a.Priority), a.Priority != 0)
	if len(a.Pin) > 0 {
		pin := make([]int32, len(a.Pin))
		for i, p := range a.Pin {
			if p < 0 || p > math.MaxInt32 {
				return fmt.Errorf("job %d: column pin: processor %d out of range", j.ID, p)
			}
			pin[i] = int32(p)
		}
		b.ilist(cPin, pin, true)
	} else {
		b.ilist(cPin, nil, false)
	}
	b.endRow()
	for _, c := range []int{4, 7, 10, 11, 12, 13, 14, 15, cPriority} {
		if v, ok := b.getInt(c, b.n-1); ok && (v < math.MinInt32 || v > math.MaxInt32) {
			return fmt.Errorf("job %d: column %s: %d does not fit in 32 bits", j.ID, traceKind.cols[c].name, v)
		}
	}
	return nil
}

// jobAt returns row i of a trace batch as a Job.
func jobAt(b *batch, i int) (model.Job, error) {
	var j model.Job
	setI := func(c int, f model.Field, dst *int64) {
		if v, ok := b.getInt(c, i); ok {
			*dst = v
			j.Known = j.Known.With(f)
		}
	}
	setN := func(c int, f model.Field, dst *int) {
		if v, ok := b.getInt(c, i); ok {
			*dst = int(v)
			j.Known = j.Known.With(f)
		}
	}
	setT := func(c int, f model.Field, dst *model.Time) {
		if v, ok := b.getFlt(c, i); ok {
			*dst = fromSecs(v)
			j.Known = j.Known.With(f)
		}
	}
	setI(0, model.FieldJobID, &j.ID)
	setT(1, model.FieldSubmit, &j.Submit)
	setT(2, model.FieldWait, &j.Wait)
	setT(3, model.FieldRuntime, &j.Runtime)
	setN(4, model.FieldAllocProcs, &j.AllocProcs)
	setT(5, model.FieldAvgCPU, &j.AvgCPU)
	setI(6, model.FieldUsedMem, &j.UsedMemKB)
	setN(7, model.FieldReqProcs, &j.ReqProcs)
	setT(8, model.FieldEstimate, &j.Estimate)
	setI(9, model.FieldReqMem, &j.ReqMemKB)
	if v, ok := b.getInt(10, i); ok {
		j.Status = model.Status(v)
		j.Known = j.Known.With(model.FieldStatus)
	}
	setN(11, model.FieldUser, &j.User)
	setN(12, model.FieldGroup, &j.Group)
	setN(13, model.FieldExecutable, &j.Executable)
	setN(14, model.FieldQueue, &j.Queue)
	setN(15, model.FieldPartition, &j.Partition)
	setI(16, model.FieldPreceding, &j.Preceding)
	setT(17, model.FieldThinkTime, &j.ThinkTime)
	a := &j.App
	if v, ok := b.getFlt(cGranularity, i); ok {
		a.Granularity = fromSecs(v)
	}
	var err error
	if v, ok := b.getStr(cPattern, i); ok {
		if a.Pattern, err = model.ParsePattern(v); err != nil {
			return j, fmt.Errorf("column pattern: %w", err)
		}
	}
	if v, ok := b.getStr(cComm, i); ok {
		if a.Comm, err = model.ParseComm(v); err != nil {
			return j, fmt.Errorf("column comm: %w", err)
		}
	}
	a.MessageBytes, _ = b.getInt(cMessage, i)
	a.Imbalance, _ = b.getFlt(cImbalance, i)
	if v, ok := b.getFList(cProcCompute, i); ok && len(v) > 0 {
		a.ProcCompute = make([]model.Time, len(v))
		for k, s := range v {
			a.ProcCompute[k] = fromSecs(s)
		}
	}
	a.MemPerProcKB, _ = b.getInt(cMem, i)
	if v, ok := b.getInt(cPriority, i); ok {
		a.Priority = int(v)
	}
	if v, ok := b.getIList(cPin, i); ok && len(v) > 0 {
		a.Pin = make([]int, len(v))
		for k, p := range v {
			a.Pin[k] = int(p)
		}
	}
	return j, nil
}

// appendOutcome appends o as an outcomes row.
func appendOutcome(b *batch, o *model.Outcome) {
	done := o.Completed()
	b.int(0, o.JobID, true)
	b.flt(1, secs(o.Submit), true)
	b.flt(2, secs(o.Start), done)
	b.flt(3, secs(o.End), done)
	b.flt(4, secs(o.Wait()), done)
	b.flt(5, secs(o.Response()), done)
	b.flt(6, secs(o.Runtime), done)
	b.flt(7, secs(o.Dedicated), true)
	b.int(8, int64(o.Procs), true)
	b.flt(9, secs(o.Estimate), o.Estimate != 0)
	b.flt(10, o.Slowdown(), done && o.Runtime > 0)
	if done {
		b.flt(11, o.BoundedSlowdown(10*model.Second), true)
		b.str(12, "completed", true)
		b.str(13, "", false)
	} else {
		b.flt(11, 0, false)
		b.str(12, "rejected", true)
		b.str(13, o.Reason.String(), true)
	}
	b.endRow()
}

// outcomeAt returns row i of an outcomes batch. The derived columns (wait,
// response, slowdowns, status) are not read: they follow from the others.
func outcomeAt(b *batch, i int) (model.Outcome, error) {
	var o model.Outcome
	o.JobID, _ = b.getInt(0, i)
	v, _ := b.getFlt(1, i)
	o.Submit = fromSecs(v)
	o.Start, o.End = model.Never, model.Never
	if v, ok := b.getFlt(2, i); ok {
		o.Start = fromSecs(v)
	}
	if v, ok := b.getFlt(3, i); ok {
		o.End = fromSecs(v)
	}
	v, _ = b.getFlt(6, i)
	o.Runtime = fromSecs(v)
	v, _ = b.getFlt(7, i)
	o.Dedicated = fromSecs(v)
	p, _ := b.getInt(8, i)
	o.Procs = int(p)
	v, _ = b.getFlt(9, i)
	o.Estimate = fromSecs(v)
	if r, ok := b.getStr(13, i); ok {
		reason, err := model.ParseRejectReason(r)
		if err != nil {
			return o, fmt.Errorf("column reason: %w", err)
		}
		o.Reason = reason
	}
	return o, nil
}

func appendSample(b *batch, s *model.Sample) {
	b.flt(0, secs(s.At), true)
	b.int(1, int64(s.InSystem), true)
	b.int(2, int64(s.Queued), true)
	b.int(3, int64(s.Running), true)
	b.int(4, int64(s.Suspended), true)
	b.flt(5, s.BusyProcs, true)
	b.endRow()
}

func sampleAt(b *batch, i int) model.Sample {
	var s model.Sample
	t, _ := b.getFlt(0, i)
	s.At = fromSecs(t)
	n, _ := b.getInt(1, i)
	s.InSystem = int(n)
	n, _ = b.getInt(2, i)
	s.Queued = int(n)
	n, _ = b.getInt(3, i)
	s.Running = int(n)
	n, _ = b.getInt(4, i)
	s.Suspended = int(n)
	s.BusyProcs, _ = b.getFlt(5, i)
	return s
}
