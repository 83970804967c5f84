// Package swf reads, writes and normalizes traces in the Standard Workload
// Format (SWF 2.2) of Feitelson's Parallel Workloads Archive.
//
// # Format
//
// An SWF file is a header of ";" comment lines followed by one line per
// job of 18 fields separated by blanks (any run of spaces or tabs). Times
// are seconds and -1 marks a missing value. Reader and Writer convert to
// and from model.Job (times in integer microseconds, missing fields left
// out of Job.Known) and model.Header; both stream, in the manner of
// encoding/csv. Input starting with the gzip magic bytes is decompressed
// on the fly (with the standard library's compress/gzip).
//
// # Header
//
// The ";" lines before the first job line are the header, in order. After
// the ";" and one optional space, a line that starts with a key (a word of
// ASCII letters, digits and underscores) followed by ':' and a blank or the
// end of the line is a keyed line, {Key, Value} with the value trimmed of
// blanks: "; MaxNodes: 338 (batch partition; 512 total)" keeps its text,
// and model.Header.MaxNodes reads 338 from it. Any other comment line
// (continuations such as ";              http://...", an empty ";", free
// notes, an indented "Key: value") is a free line {Key: "", Value: text},
// the text after the ";" and one optional space, trailing blanks removed,
// indentation kept. The header is complete before the first job is
// returned: the Reader reads ahead to the first job line. The header ends at
// the first line that is neither a comment nor blank, even a malformed one.
// A leading UTF-8 byte order mark is skipped.
//
// Comment lines between job lines are not part of the header (a header
// that grew while jobs stream would break model.JobReader's contract).
// They are ignored and counted in Reader.Anomalies under
// ErrCommentAfterJobs. The comment lines after the last job line are the
// header's trailer: lines known only once the jobs were written (the
// digest of an input read as a stream, what cleaning dropped), which
// Writer.AppendHeader writes; the Reader adds them to its header when it
// reaches the end. Blank lines are ignored anywhere.
//
// # Numbers
//
// Every field may be written as a decimal ("489.00") or, rarely, with an
// exponent ("1e3"); "inf", "nan", hexadecimal and underscores are invalid
// (ErrNumber). Time fields (2 submit, 3 wait, 4 run time, 6 average CPU
// time, 9 estimate, 18 think time) convert exactly to microseconds for up
// to six decimals, rounding half away from zero beyond that. A field whose
// value is exactly -1 (in any spelling: "-1", "-1.00") is missing.
//
// Negative values other than -1 are out of range, ErrRange: -1 is SWF
// 2.2's only missing-value marker. A negative time is kept as read outside
// strict mode, counted under its field (a negative submit or run time is
// then for normalization to judge); a negative count or ID (job number,
// processors, memory, status, user, group, executable, queue, partition,
// preceding job) too, where the field can hold it. Status must
// be 0 to 5 and processors fit in 32 bits. A count or ID with a nonzero
// fraction ("32.5") is ErrFraction; an integral decimal ("32.00") is
// accepted. (pyss truncates such values instead; see PyssOptions.)
//
// The integer header keys (MaxProcs, MaxNodes, MaxJobs, MaxRecords,
// UnixStartTime, TimeZone, MaxRuntime, MaxMemory, MaxQueues,
// MaxPartitions) must start with an integer followed by nothing or a
// blank: "1e30", "12.7" and "64abc" are errors, in every mode, and so is a
// MaxProcs or MaxNodes beyond 32 bits (model.ParseHeaderInt, the one
// parse every format's reader uses; Reader.HeaderErr says it before the
// first Read).
//
// # Modes
//
// Real logs, raw and cleaned, carry values outside SWF 2.2 in fields that
// replay never uses. The Reader has three modes:
//
//   - Default: a value outside SWF 2.2 in a field not in NeededFields
//     (submit time, run time, processors and estimate; Reader.Needed
//     narrows it to what a replay's policy reads) does not stop it: the
//     job is kept, the value kept as read when the field can hold it (a
//     status of 9, a negative user) and marked unknown otherwise (a word,
//     a fraction, a number too large), and it is counted by field and
//     cause in Reader.Anomalies. A repeated job number is counted too
//     (ErrDuplicateID). A needed field stops the Reader with a
//     *ParseError only when the job is left without a usable value: one
//     processors field is enough when the other gives the size, and a
//     negative time is kept.
//   - Strict (Reader.Strict): every value outside SWF 2.2, and every
//     repeated job number, stops the Reader with a *ParseError giving the
//     file name, line, field and a sentinel cause (ErrFieldCount,
//     ErrNumber, ErrFraction, ErrRange, ErrDuplicateID, ErrLineTooLong).
//   - Lenient (Reader.Lenient): as the default, but a line whose needed
//     fields are unusable is skipped instead, and counted per field and
//     cause with the first line numbers of each.
//
// Nothing is dropped or changed silently: Anomalies.Summary says it on
// one line, Anomalies.HeaderLines as manifest lines. Input errors (a
// corrupt gzip stream) end the read in every mode.
//
// Checker applies the same rules to the rows of a table (CSV, Parquet,
// Arrow), so that every input format is read alike.
//
// # Writer
//
// The Writer writes the header ("; Key: Value", "; text", ";") and one job
// per line, the 18 fields separated by single spaces, missing fields as
// -1, times as the shortest exact decimal of seconds, so whole seconds
// print as integers. Reading its output gives back the same header and
// jobs. With Writer.MarkEnd (gangsim's commands set it) the first line,
// "; GangsimEnd: expected after the jobs", promises the closing line ";
// GangsimEnd: N jobs", which the Reader then requires, last and with the
// number of job lines read: a file cut short at any byte, line boundaries
// included, fails with ErrTruncated. Neither line is part of the header.
// A file without the promise is read as it is. Application attributes (model.App) have no place in SWF; the
// Writer drops them and counts the jobs that had any (Writer.DroppedApps).
//
// # Normalization
//
// Options selects cleaning rules (jobs that never ran, job size, jobs too
// wide for the machine, missing estimates, run times above the estimate,
// bad and unsorted submit times, truncation to whole seconds), applied in
// a documented order and counted per rule in a Report. A Normalizer
// applies them to any model.JobReader as a stream; Normalize applies them
// to a model.Trace in memory. PyssOptions reproduces the cleaning done
// before the pyss oracle runs (docs/engine.md, "The pyss rules", rule 1).
package swf
