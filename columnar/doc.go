// Package columnar encodes gangsim's tables as Apache Parquet
// (github.com/parquet-go/parquet-go), Arrow IPC streams
// (github.com/apache/arrow/go/v15) and CSV, with one schema per table kind
// in all three encodings. It is the format of every gangsim output meant for
// notebooks (DuckDB, pandas, pyarrow) and of the pipes between the commands.
//
// # Tables
//
// Every column is nullable; a null is a missing SWF field (-1 in SWF) or an
// unspecified attribute. Column names are snake_case with units in the name:
// times are seconds (double, exact to the microsecond of simulated time),
// memory is KB. Seconds as doubles convert back to the same microsecond for
// any time within ±2^50 µs (35 years) of the trace start. Columns keep this
// order.
//
// Trace ("gangsim.trace/1"), one row per job:
//
//	job_id            int64         job number (SWF field 1)
//	submit_s          double        submit time from the trace start (field 2)
//	wait_s            double        wait time in the logged system (field 3)
//	runtime_s         double        run time (field 4)
//	alloc_procs       int32         allocated processors (field 5)
//	avg_cpu_s         double        average CPU time per processor (field 6)
//	used_mem_kb       int64         used memory per processor (field 7)
//	req_procs         int32         requested processors (field 8)
//	estimate_s        double        requested time: the user's estimate (field 9)
//	req_mem_kb        int64         requested memory per processor (field 10)
//	status            int32         0 failed, 1 completed, 2-4 partial, 5 cancelled (field 11)
//	user_id           int32         user (field 12)
//	group_id          int32         group (field 13)
//	executable_id     int32         application (field 14)
//	queue_id          int32         queue (field 15)
//	partition_id      int32         partition (field 16)
//	preceding_job_id  int64         job this one depends on (field 17)
//	think_time_s      double        think time after the preceding job (field 18)
//	granularity_s     double        computation per BSP iteration of the fastest process
//	pattern           string        none, ring, all-to-all or barrier
//	comm              string        blocking or non-blocking
//	message_bytes     int64         bytes each process sends per iteration
//	imbalance         double        the slowest process computes (1+imbalance) x granularity
//	proc_compute_s    list<double>  computation per iteration of each process
//	mem_per_proc_kb   int64         memory per process
//	priority          int32         scheduling priority (PBCS); null = normal
//	pin               list<int32>   processor of each process (0-based), for hand-placed jobs
//
// Outcomes ("gangsim.outcomes/3"), one row per job of a simulated run, in
// completion order (a rejected job at its arrival):
//
//	job_id            int64         job number in the input trace
//	submit_s          double        arrival
//	start_s           double        first start; null if rejected
//	end_s             double        completion; null if rejected
//	wait_s            double        start - submit; null if rejected
//	response_s        double        end - submit; null if rejected
//	runtime_s         double        end - start, time descheduled included; null if rejected
//	dedicated_s       double        runtime alone on a dedicated partition
//	procs             int32         processors
//	estimate_s        double        the runtime estimate the scheduler used
//	slowdown          double        response / runtime; null if rejected
//	bsld_rt10s        double        max((wait + runtime) / max(runtime, tau), 1), tau = 10 s of real time; null if rejected
//	ts_bsld_rt10s     double        max((wait + runtime) / max(dedicated, tau), 1), same tau; null if rejected
//	status            string        completed or rejected
//	reason            string        too-wide, no-size, no-runtime, too-long; null if completed
//	sharing           string        time sharing measured: none, job or process
//	switches          int64         gang switches that switched the job in; null without time sharing
//	switch_loss_s     double        time its processors spent switching it in; null without time sharing
//	cpu_s             double        processor time computing, summed over its processes; null unless process level
//	spin_s            double        processor time spinning for messages or barriers; null unless process level
//	blocked_s         double        time its processes spent blocked, summed; null unless process level
//	class_cs          double        share of its process-time in FCS class CS; null unless FCS
//	class_f           double        share in FCS class F (frustrated); null unless FCS
//	class_dc          double        share in FCS class DC (don't care); null unless FCS
//
// Time series ("gangsim.timeseries/2"), the state of the system from each
// row's time until the next row's:
//
//	time_s            double        start of the interval
//	in_system         int64         jobs queued, running or suspended
//	queued            int64         jobs waiting for their first start
//	running           int64         jobs progressing
//	suspended         int64         jobs started and descheduled
//	busy_procs        double        processors in use (process level: running a process)
//	sharing           string        time sharing measured: none, job or process
//	rows              int64         occupied rows of the gang matrix; null without time sharing
//	switching         double        share of processor time in gang switches; null without time sharing
//	computing         double        processes computing at time_s; null unless process level
//	spinning          double        processes spinning at time_s; null unless process level
//	blocked_procs     double        processes blocked at time_s; null unless process level
//	ready             double        processes ready but not running at time_s; null unless process level
//
// Version 2 of outcomes and time series added the columns from sharing
// on; files of version 1 still read, those columns null (no time sharing
// measured).
//
// The bounded slowdowns (version 3 of outcomes; before, one column,
// bounded_slowdown, held the classic form at 10 s of the file's time while
// every summary used 10 s of real time) are the classic form (Feitelson et
// al. 1997) and the thesis' form for time sharing, against the job's
// dedicated runtime (Frachtenberg 6.4.1), both with tau = 10 s of real
// time: 10 s divided by the workload's time compression, the compress
// parameter of the newest manifest that has one (model.CompressionOf; 0.1
// s for the thesis' workload, compressed 100 times; 10 s for a real log).
// They are what analyze's bsld and ts_bsld metrics are at their default
// tau, value for value: the mean of a column is analyze's bsld_mean or
// ts_bsld_mean of the run. Like the other derived columns they are not
// read back.
//
// # Metadata
//
// A table carries its trace header (model.Header: the SWF header lines,
// and the gangsim manifest: tool, version, seed, parameters, input digests).
// In Parquet it is the footer's key-value metadata, in Arrow the schema
// metadata: key "gangsim.schema" names the table kind, "gangsim.header"
// holds the whole header as a JSON array of [key, value] pairs (lossless:
// keys repeat and keep their order; free-form lines have key ""), and the
// first value of every other key is stored under its own name for tools
// that list key-value metadata (DuckDB's parquet_kv_metadata). CSV starts
// with "# gangsim.schema: ...", "# gangsim.end: expected after the rows"
// and one "# Key: value" line per header line ("# text" for free-form
// lines), then the column names; it ends, after the rows and the trailer,
// with the closing line "# gangsim.end: N rows".
//
// Header lines known only once the rows are written (the digest of an
// input read as a stream, what cleaning dropped) form a trailer
// (AppendHeader): in Parquet they are simply part of the footer's
// metadata; in CSV they are "# Key: value" lines after the rows; in an
// Arrow stream they are the custom metadata (key "gangsim.trailer", a JSON
// array of [key, value] pairs) of a last record batch of no rows, a
// message every Arrow reader accepts and ignores. Readers add the trailer
// to the header when the last row has been read.
//
// Files of other tools are read too: columns are matched by name, extra
// ones are ignored, integer and float widths convert (an integer that does
// not fit its column is an error), lists may be in any of Parquet's list
// encodings, and missing columns read as nulls, except the ones a table
// cannot do without: job_id, submit_s, runtime_s and alloc_procs or
// req_procs of a trace; job_id, submit_s, start_s, end_s and procs of
// outcomes; the six counts of a time series. A file lacking any
// of those, or with a column of a type that does not convert, fails with a
// *SchemaError naming every such column; a file of another table kind is
// refused. A stream cut short fails with ErrTruncated, at any byte, row
// boundaries included: an Arrow stream must end with its end-of-stream
// marker, and a CSV that promises the closing "# gangsim.end: N rows" line
// (gangsim's) must end with it, giving the rows read (a Parquet file is
// useless without its footer). A CSV without the promise, another tool's,
// is read as it is: it has no end to tell a cut at a row boundary by.
//
// A time must be a time: a NaN or infinite double of seconds, or one
// beyond model.Horizon (beyond model.MaxSeconds in a trace), is never read
// as 0 or clamped. In a trace it is reported as unread for swf.Checker to
// refuse, as an unreadable application attribute is; in outcomes it makes
// the row a *RowError naming its position and column, after which the
// reader goes on with the next row (analyze --lenient skips such rows).
//
// # Encodings
//
// Parquet files are written in row groups of at most 65,536 rows with
// Snappy compression and "created_by" pinned to gangsim's version, so the
// same rows and header give the same bytes. Arrow streams are written in
// record batches of 16,384 rows, so a pipe of any length streams in bounded
// memory. CSV writes doubles as their shortest exact decimal, lists as
// ";"-separated values, nulls as empty cells. Reading Parquet needs random
// access (a file); Arrow and CSV stream.
package columnar
