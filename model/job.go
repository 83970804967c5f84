package model

import "strconv"

// Field names one of the 18 fields of a Standard Workload Format job line, by
// its 1-based SWF position.
type Field uint8

// The SWF 2.2 fields, in file order.
const (
	FieldJobID      Field = iota + 1 // 1: job number
	FieldSubmit                      // 2: submit time, s
	FieldWait                        // 3: wait time, s
	FieldRuntime                     // 4: run time, s
	FieldAllocProcs                  // 5: number of allocated processors
	FieldAvgCPU                      // 6: average CPU time used per processor, s
	FieldUsedMem                     // 7: used memory per processor, KB
	FieldReqProcs                    // 8: requested number of processors
	FieldEstimate                    // 9: requested time (the user's runtime estimate), s
	FieldReqMem                      // 10: requested memory per processor, KB
	FieldStatus                      // 11: status
	FieldUser                        // 12: user ID
	FieldGroup                       // 13: group ID
	FieldExecutable                  // 14: executable (application) number
	FieldQueue                       // 15: queue number
	FieldPartition                   // 16: partition number
	FieldPreceding                   // 17: preceding job number
	FieldThinkTime                   // 18: think time from preceding job, s
)

// NumFields is the number of fields on an SWF job line.
const NumFields = 18

var fieldNames = [NumFields + 1]string{
	"",
	"job number", "submit time", "wait time", "run time", "allocated processors",
	"average CPU time", "used memory", "requested processors", "requested time",
	"requested memory", "status", "user ID", "group ID", "executable number",
	"queue number", "partition number", "preceding job number", "think time",
}

// String returns the field's SWF name, e.g. "requested time".
func (f Field) String() string {
	if f == 0 || f > NumFields {
		return "field " + strconv.Itoa(int(f))
	}
	return fieldNames[f]
}

// FieldSet is a set of SWF fields.
type FieldSet uint32

// AllFields is the set of all 18 SWF fields.
const AllFields FieldSet = (1<<(NumFields+1) - 1) &^ 1

// Has reports whether f is in s.
func (s FieldSet) Has(f Field) bool { return s&(1<<f) != 0 }

// With returns s with f added.
func (s FieldSet) With(f Field) FieldSet { return s | 1<<f }

// Without returns s with f removed.
func (s FieldSet) Without(f Field) FieldSet { return s &^ (1 << f) }

// Status is the SWF completion status of a job (field 11).
type Status int8

// SWF status codes.
const (
	StatusFailed        Status = 0 // failed
	StatusCompleted     Status = 1 // completed normally
	StatusPartial       Status = 2 // partial execution, to be continued
	StatusPartialLast   Status = 3 // last partial execution, completed
	StatusPartialFailed Status = 4 // last partial execution, failed
	StatusCancelled     Status = 5 // cancelled (before or during its run)
)

// String returns a lower-case name of the status.
func (s Status) String() string {
	switch s {
	case StatusFailed:
		return "failed"
	case StatusCompleted:
		return "completed"
	case StatusPartial:
		return "partial"
	case StatusPartialLast:
		return "partial-last"
	case StatusPartialFailed:
		return "partial-failed"
	case StatusCancelled:
		return "cancelled"
	}
	return "status " + strconv.Itoa(int(s))
}

// Job is one job of a workload: the 18 SWF fields, which of them are known,
// and the application attributes that the time-sharing and hardware models
// use.
//
// Times are simulated microseconds (SWF stores seconds). A field that is not
// in Known is missing (SWF -1, a null in the columnar formats) and holds zero.
type Job struct {
	ID         int64  // job number, field 1
	Submit     Time   // submit time from the trace start, field 2
	Wait       Time   // wait time in the logged system, field 3
	Runtime    Time   // wall-clock run time in the logged system, field 4
	AllocProcs int    // processors allocated, field 5
	AvgCPU     Time   // average CPU time used per processor, field 6
	UsedMemKB  int64  // used memory per processor in KB, field 7
	ReqProcs   int    // processors requested, field 8
	Estimate   Time   // requested time, the user's runtime estimate, field 9
	ReqMemKB   int64  // requested memory per processor in KB, field 10
	Status     Status // completion status, field 11
	User       int    // user ID, field 12
	Group      int    // group ID, field 13
	Executable int    // executable (application) number, field 14
	Queue      int    // queue number, field 15
	Partition  int    // partition number, field 16
	Preceding  int64  // number of a preceding job this one depends on, field 17
	ThinkTime  Time   // think time from the preceding job's end, field 18

	// Known is the set of SWF fields that hold data; the rest are missing.
	Known FieldSet

	// App describes how the job computes and communicates. Its zero value
	// means "unspecified": a model that needs an attribute takes its own
	// documented default.
	App App
}

// Has reports whether SWF field f of j is known.
func (j *Job) Has(f Field) bool { return j.Known.Has(f) }

// Size is the job's processor count: the allocated processors if known and
// positive, else the requested processors if known and positive, else 0.
func (j *Job) Size() int {
	if j.Has(FieldAllocProcs) && j.AllocProcs > 0 {
		return j.AllocProcs
	}
	if j.Has(FieldReqProcs) && j.ReqProcs > 0 {
		return j.ReqProcs
	}
	return 0
}

// Clone returns a copy of j that shares no memory with it.
func (j *Job) Clone() Job {
	c := *j
	c.App = j.App.Clone()
	return c
}
