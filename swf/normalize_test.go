package swf

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
)

// jl is a job line with the fields normalization looks at (SWF text, "-1"
// for missing); the other fields are fixed.
func jl(id int, submit, run, alloc, req, est string) string {
	return fmt.Sprintf("%d %s 0 %s %s -1 -1 %s %s -1 1 1 1 -1 -1 -1 -1 -1", id, submit, run, alloc, req, est)
}

// row is what a normalized job looks like in a test: the same fields as
// jl, formatted back to SWF text.
func row(j *model.Job) string {
	f := func(fl model.Field, v string) string {
		if !j.Has(fl) {
			return "-1"
		}
		return v
	}
	return strings.Join([]string{
		strconv.FormatInt(j.ID, 10),
		f(model.FieldSubmit, string(j.Submit.AppendSeconds(nil))),
		f(model.FieldRuntime, string(j.Runtime.AppendSeconds(nil))),
		f(model.FieldAllocProcs, strconv.Itoa(j.AllocProcs)),
		f(model.FieldReqProcs, strconv.Itoa(j.ReqProcs)),
		f(model.FieldEstimate, string(j.Estimate.AppendSeconds(nil))),
	}, " ")
}

func normalizeText(t *testing.T, text string, opt Options) ([]string, Report, error) {
	t.Helper()
	r := NewReader(strings.NewReader(text))
	r.Name = "n.swf"
	n, err := NewNormalizer(r, opt)
	if err != nil {
		return nil, Report{}, err
	}
	var rows []string
	for {
		j, err := n.Read()
		if errors.Is(err, io.EOF) {
			return rows, n.Report(), nil
		}
		if err != nil {
			return rows, n.Report(), err
		}
		rows = append(rows, row(&j))
	}
}

func TestNormalizeRules(t *testing.T) {
	lines := func(ls ...string) string { return "; MaxProcs: 8\n" + strings.Join(ls, "\n") + "\n" }
	tests := []struct {
		name string
		opt  Options
		in   string
		want []string // id submit run alloc req est
		rep  Report
	}{
		{"identity", Options{},
			lines(jl(1, "-1", "-1", "0", "-1", "0"), jl(2, "5.5", "10", "4", "9", "3"), jl(3, "1", "0", "16", "16", "-1")),
			[]string{"1 -1 -1 0 -1 0", "2 5.5 10 4 9 3", "3 1 0 16 16 -1"},
			Report{Read: 3, Kept: 3, OutOfOrder: 1}},
		{"whole seconds", Options{WholeSeconds: true},
			lines(jl(1, "1.5", "2.999999", "4", "4", "-0.5"), jl(2, "3", "4", "4", "4", "5")),
			[]string{"1 1 2 4 4 0", "2 3 4 4 4 5"},
			Report{Read: 2, Kept: 2, TruncatedTimes: 1}},
		{"bad submit", Options{DropBadSubmit: true},
			lines(jl(1, "-1", "5", "4", "4", "5"), jl(2, "-5", "5", "4", "4", "5"), jl(3, "-0.5", "5", "4", "4", "5"),
				jl(4, "0", "5", "4", "4", "5")),
			[]string{"4 0 5 4 4 5"},
			Report{Read: 4, Kept: 1, DroppedBadSubmit: 3}},
		{"no size", Options{DropNoSize: true},
			lines(jl(1, "0", "5", "4", "-1", "5"), jl(2, "0", "5", "0", "8", "5"), jl(3, "0", "5", "0", "-1", "5"),
				jl(4, "0", "5", "-1", "-1", "5"), jl(5, "0", "5", "0", "0", "5"), jl(6, "0", "5", "-1", "2", "5")),
			[]string{"1 0 5 4 -1 5", "2 0 5 0 8 5", "6 0 5 -1 2 5"},
			Report{Read: 6, Kept: 3, DroppedNoSize: 3}},
		{"too wide, header machine", Options{DropTooWide: true},
			lines(jl(1, "0", "5", "8", "8", "5"), jl(2, "0", "5", "9", "1", "5"), jl(3, "0", "5", "0", "9", "5"),
				jl(4, "0", "5", "0", "-1", "5")),
			[]string{"1 0 5 8 8 5", "4 0 5 0 -1 5"},
			Report{Read: 4, Kept: 2, DroppedTooWide: 2, MachineProcs: 8}},
		{"too wide, given machine", Options{DropTooWide: true, MachineProcs: 4},
			lines(jl(1, "0", "5", "8", "8", "5"), jl(2, "0", "5", "4", "4", "5")),
			[]string{"2 0 5 4 4 5"},
			Report{Read: 2, Kept: 1, DroppedTooWide: 1, MachineProcs: 4}},
		{"no runtime, drop", Options{NoRuntime: DropNoRuntime},
			lines(jl(1, "0", "-1", "4", "4", "5"), jl(2, "0", "0", "4", "4", "5"), jl(3, "0", "-3", "4", "4", "5"),
				jl(4, "0", "0.5", "4", "4", "5")),
			[]string{"4 0 0.5 4 4 5"},
			Report{Read: 4, Kept: 1, DroppedNoRuntime: 3}},
		{"no runtime, one second", Options{NoRuntime: OneSecondRuntime},
			lines(jl(1, "0", "-1", "4", "4", "5"), jl(2, "0", "0", "4", "4", "5"), jl(3, "0", "7", "4", "4", "5")),
			[]string{"1 0 1 4 4 5", "2 0 1 4 4 5", "3 0 7 4 4 5"},
			Report{Read: 3, Kept: 3, RuntimeSetToOne: 2}},
		{"unify size", Options{UnifySize: true},
			lines(jl(1, "0", "5", "0", "8", "5"), jl(2, "0", "5", "4", "4", "5"), jl(3, "0", "5", "4", "-1", "5"),
				jl(4, "0", "5", "0", "-1", "5"), jl(5, "0", "5", "4", "2", "5"), jl(6, "0", "5", "-1", "3", "5")),
			[]string{"1 0 5 8 8 5", "2 0 5 4 4 5", "3 0 5 4 4 5", "4 0 5 0 -1 5", "5 0 5 4 4 5", "6 0 5 3 3 5"},
			Report{Read: 6, Kept: 6, SizeUnified: 4}},
		{"missing estimate", Options{NoEstimate: EstimateFromRuntime},
			lines(jl(1, "0", "5", "4", "4", "-1"), jl(2, "0", "5", "4", "4", "0"), jl(3, "0", "5", "4", "4", "-7"),
				jl(4, "0", "-1", "4", "4", "-1"), jl(5, "0", "5", "4", "4", "10")),
			[]string{"1 0 5 4 4 5", "2 0 5 4 4 5", "3 0 5 4 4 5", "4 0 -1 4 4 -1", "5 0 5 4 4 10"},
			Report{Read: 5, Kept: 5, EstimateFromRun: 3}},
		{"overrun, truncate", Options{Overrun: TruncateRuntime},
			lines(jl(1, "0", "20", "4", "4", "10"), jl(2, "0", "5", "4", "4", "10"), jl(3, "0", "5", "4", "4", "-1"),
				jl(4, "0", "5", "4", "4", "0"), jl(5, "0", "10.5", "4", "4", "10.25")),
			[]string{"1 0 10 4 4 10", "2 0 5 4 4 10", "3 0 5 4 4 -1", "4 0 5 4 4 0", "5 0 10.25 4 4 10.25"},
			Report{Read: 5, Kept: 5, RuntimeTruncated: 2}},
		{"overrun, raise", Options{Overrun: RaiseEstimate},
			lines(jl(1, "0", "20", "4", "4", "10"), jl(2, "0", "5", "4", "4", "10")),
			[]string{"1 0 20 4 4 20", "2 0 5 4 4 10"},
			Report{Read: 2, Kept: 2, EstimateRaised: 1}},
		{"order, keep", Options{},
			lines(jl(1, "10", "5", "4", "4", "5"), jl(2, "5", "5", "4", "4", "5"), jl(3, "7", "5", "4", "4", "5"),
				jl(4, "12", "5", "4", "4", "5")),
			[]string{"1 10 5 4 4 5", "2 5 5 4 4 5", "3 7 5 4 4 5", "4 12 5 4 4 5"},
			Report{Read: 4, Kept: 4, OutOfOrder: 2}},
		{"order, sort stably", Options{Order: SortBySubmit, DropNoSize: true},
			lines(jl(1, "10", "5", "4", "4", "5"), jl(2, "5", "5", "4", "4", "5"), jl(3, "10", "5", "4", "4", "5"),
				jl(4, "5", "5", "4", "4", "5"), jl(5, "-1", "5", "4", "4", "5"), jl(6, "1", "5", "0", "0", "5")),
			[]string{"5 -1 5 4 4 5", "2 5 5 4 4 5", "4 5 5 4 4 5", "1 10 5 4 4 5", "3 10 5 4 4 5"},
			Report{Read: 6, Kept: 5, DroppedNoSize: 1, OutOfOrder: 3}},
		{"rule order: first rule that drops counts", PyssOptions(8),
			lines(jl(1, "-1", "0", "0", "-1", "5"), jl(2, "0", "0", "0", "-1", "5"), jl(3, "0", "0", "9", "9", "5"),
				jl(4, "0", "0", "8", "8", "5"), jl(5, "0.9", "0.9", "8", "8", "5"), jl(6, "0.5", "12.7", "2", "-1", "-1"),
				jl(7, "3", "12.7", "0", "3", "10.9")),
			[]string{"6 0 12 2 2 12", "7 3 10 3 3 10"},
			Report{Read: 7, Kept: 2, DroppedBadSubmit: 1, DroppedNoSize: 1, DroppedTooWide: 1, DroppedNoRuntime: 2,
				TruncatedTimes: 2, SizeUnified: 2, EstimateFromRun: 1, RuntimeTruncated: 1, MachineProcs: 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rep, err := normalizeText(t, tt.in, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("jobs\n got %q\nwant %q", got, tt.want)
			}
			if rep != tt.rep {
				t.Errorf("report\n got %+v\nwant %+v", rep, tt.rep)
			}

			// Normalize on a whole trace agrees with the Normalizer.
			tr, err := model.ReadAll(NewReader(strings.NewReader(tt.in)))
			if err != nil {
				t.Fatal(err)
			}
			trep, err := Normalize(tr, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var trows []string
			for i := range tr.Jobs {
				trows = append(trows, row(&tr.Jobs[i]))
			}
			if !reflect.DeepEqual(trows, tt.want) || trep != tt.rep {
				t.Errorf("Normalize(trace) = %q, %+v; want %q, %+v", trows, trep, tt.want, tt.rep)
			}
		})
	}
}

func TestNormalizeFailUnsorted(t *testing.T) {
	in := "; h\n" + strings.Join([]string{jl(1, "10", "5", "4", "4", "5"), jl(2, "1", "5", "0", "0", "5"),
		jl(3, "12", "5", "4", "4", "5"), jl(4, "11", "5", "4", "4", "5")}, "\n")
	opt := Options{Order: FailUnsorted, DropNoSize: true}
	rows, rep, err := normalizeText(t, in, opt)
	want := "n.swf:5: job 4 submitted at 11s, before 12s of an earlier job: submit times out of order"
	if !errors.Is(err, ErrUnsorted) || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if len(rows) != 2 || rep.OutOfOrder != 1 || rep.DroppedNoSize != 1 {
		t.Errorf("rows %q report %+v", rows, rep)
	}

	tr, _ := model.ReadAll(NewReader(strings.NewReader(in)))
	_, err = Normalize(tr, opt)
	if want := "job 4 (index 3): submitted at 11s, before 12s of an earlier job: submit times out of order"; !errors.Is(err, ErrUnsorted) || err.Error() != want {
		t.Errorf("Normalize: %v, want %s", err, want)
	}

	// A source without line numbers is named by job position.
	sr := model.NewSliceReader(&model.Trace{Jobs: []model.Job{{ID: 1, Submit: 5, Known: model.AllFields}, {ID: 2, Submit: 4, Known: model.AllFields}}})
	n, _ := NewNormalizer(sr, Options{Order: FailUnsorted})
	n.Read()
	if _, err := n.Read(); err == nil || !strings.HasPrefix(err.Error(), "input job 2: job 2 submitted at 0.000004s") {
		t.Errorf("slice source: %v", err)
	}
}

func TestNormalizeMachineSize(t *testing.T) {
	noHeader := jl(1, "0", "5", "4", "4", "5")
	if _, _, err := normalizeText(t, noHeader, Options{DropTooWide: true}); !errors.Is(err, ErrMachineSize) {
		t.Errorf("no MaxProcs: %v, want ErrMachineSize", err)
	}
	if _, _, err := normalizeText(t, noHeader, Options{MachineProcs: -1}); !errors.Is(err, ErrMachineSize) {
		t.Errorf("negative machine: %v, want ErrMachineSize", err)
	}
	if _, err := Normalize(&model.Trace{}, PyssOptions(0)); !errors.Is(err, ErrMachineSize) {
		t.Errorf("Normalize without MaxProcs: %v", err)
	}
	// MachineProcs without DropTooWide is not used.
	_, rep, err := normalizeText(t, noHeader, Options{MachineProcs: 2})
	if err != nil || rep.MachineProcs != 0 || rep.Kept != 1 {
		t.Errorf("report %+v, %v", rep, err)
	}
}

// TestOptionsNames: the rules' treatments are their names, in Go and in
// JSON; an unknown one is refused, by Check (every one, naming the rule
// and its names) and by NewNormalizer; "" and Keep leave the jobs alone
// alike, and Compact writes Keep as "".
func TestOptionsNames(t *testing.T) {
	opt := PyssOptions(64)
	b, err := json.Marshal(opt)
	want := `{"whole_seconds":true,"drop_bad_submit":true,"drop_no_size":true,"drop_too_wide":true,"machine_procs":64,` +
		`"no_runtime":"drop","unify_size":true,"no_estimate":"from-runtime","overrun":"truncate-runtime","order":"keep"}`
	if err != nil || string(b) != want {
		t.Errorf("PyssOptions as JSON: %s, %v; want %s", b, err, want)
	}
	var back Options
	if err := json.Unmarshal(b, &back); err != nil || back != opt {
		t.Errorf("read back %+v, %v", back, err)
	}
	if b, _ := json.Marshal(opt.Compact()); strings.Contains(string(b), "order") {
		t.Errorf("Compact kept the order rule: %s", b)
	}
	if c := opt.Compact(); c.Order != "" || c.Overrun != TruncateRuntime || c.NoRuntime != DropNoRuntime {
		t.Errorf("Compact: %+v", c)
	}
	if err := opt.Check(); err != nil {
		t.Errorf("PyssOptions: %v", err)
	}
	bad := Options{NoRuntime: "x", NoEstimate: "z", Overrun: "y", Order: "random"}
	wantErr := `unknown no-runtime rule "x" (want keep, drop or one-second)
unknown no-estimate rule "z" (want keep or from-runtime)
unknown overrun rule "y" (want keep, truncate-runtime or raise-estimate)
unknown order rule "random" (want keep, sort or fail)`
	if err := bad.Check(); err == nil || err.Error() != wantErr {
		t.Errorf("Check: %v; want %s", err, wantErr)
	}
	in := jl(1, "0", "5", "4", "4", "5")
	if _, _, err := normalizeText(t, in, Options{Order: "sorted"}); err == nil || err.Error() != `unknown order rule "sorted" (want keep, sort or fail)` {
		t.Errorf("NewNormalizer with an unknown order: %v", err)
	}
	_, keep, err1 := normalizeText(t, in, Options{NoRuntime: KeepNoRuntime, NoEstimate: KeepNoEstimate, Overrun: KeepOverrun, Order: KeepOrder})
	_, zero, err2 := normalizeText(t, in, Options{})
	if err1 != nil || err2 != nil || keep != zero {
		t.Errorf("Keep: %+v, %v; zero rules: %+v, %v", keep, err1, zero, err2)
	}
}

func TestNormalizeSourceError(t *testing.T) {
	in := jl(1, "0", "5", "4", "4", "5") + "\nbad line\n"
	for _, order := range []OrderRule{KeepOrder, SortBySubmit} {
		_, _, err := normalizeText(t, in, Options{Order: order})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 {
			t.Errorf("order %s: %v, want the reader's ParseError", order, err)
		}
	}
}

func TestReportString(t *testing.T) {
	rep := Report{Read: 10, Kept: 6, DroppedTooWide: 3, DroppedNoRuntime: 1, RuntimeTruncated: 2, MachineProcs: 128}
	want := `jobs read                                 10
dropped: submit time missing or < 0        0
dropped: size <= 0 or missing              0
dropped: size > machine (128)              3
dropped: run time <= 0 or missing          1
run time <= 0 or missing set to 1 s        0
times truncated to whole seconds           0
size written to fields 5 and 8             0
estimate missing set to run time           0
run time cut to estimate                   2
estimate raised to run time                0
submitted out of order                     0
jobs kept                                  6
`
	if got := rep.String(); got != want {
		t.Errorf("report\n got:\n%s\nwant:\n%s", got, want)
	}
}

// oracleCount returns metrics.csv's n_jobs for the trace's FCFS run.
func oracleCount(t *testing.T, trace string) int {
	t.Helper()
	n, err := strconv.Atoi(sharedtraces.OracleMetrics(t, trace, "fcfs")["n_jobs"])
	if err != nil {
		t.Fatalf("metrics.csv has no fcfs n_jobs for %s: %v", trace, err)
	}
	return n
}

// TestPyssOracle cleans every shared trace with PyssOptions and compares
// the kept jobs with the pyss oracle's, job by job.
func TestPyssOracle(t *testing.T) {
	for _, name := range sharedtraces.Names {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && bigTrace(name) {
				t.Skip("large trace skipped in -short mode")
			}
			wantCount := oracleCount(t, name)
			oracle := sharedtraces.OracleJobs(t, sharedtraces.Oracle(t, name+".fcfs.jobs.csv.gz"))
			f, err := os.Open(sharedtraces.Trace(t, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r := NewReader(f)
			norm, err := NewNormalizer(r, PyssOptions(0))
			if err != nil {
				t.Fatal(err)
			}
			compared, mismatches := 0, 0
			for {
				j, jerr := norm.Read()
				oracleEnded := compared == len(oracle)
				if errors.Is(jerr, io.EOF) && oracleEnded {
					break
				}
				if jerr != nil && !errors.Is(jerr, io.EOF) {
					t.Fatal(jerr)
				}
				if jerr != nil || oracleEnded {
					t.Fatalf("after %d jobs: gangsim ended %v, oracle ended %v", compared, jerr, oracleEnded)
				}
				rec := oracle[compared]
				compared++
				got := fmt.Sprintf("%d,%d,%d,%d,%d", j.ID, j.Submit.WholeSeconds(), j.Runtime.WholeSeconds(), j.Size(), j.Estimate.WholeSeconds())
				want := fmt.Sprintf("%d,%d,%d,%d,%d", rec.ID, rec.Submit, rec.Run, rec.Procs, rec.Estimate)
				exact := j.Submit%model.Second == 0 && j.Runtime%model.Second == 0 && j.Estimate%model.Second == 0 &&
					j.AllocProcs == j.ReqProcs
				if got != want || !exact {
					mismatches++
					if mismatches <= 5 {
						t.Errorf("job %d: id,submit,run,procs,estimate = %s, oracle %s (whole seconds and fields 5 = 8: %v)",
							compared, got, want, exact)
					}
				}
			}
			if compared != wantCount || norm.Report().Kept != wantCount {
				t.Errorf("%d jobs kept, metrics.csv n_jobs %d", compared, wantCount)
			}
			if mismatches > 0 {
				t.Errorf("%d of %d jobs differ from the oracle", mismatches, compared)
			}
			t.Logf("%s: %d jobs compared, %d mismatches; M=%d\n%s", name, compared, mismatches, r.Header().MaxProcs(), norm.Report())
		})
	}
}

// TestDropReasons: every dropped job reaches OnDrop with its rule's
// reason, and the report says the same on one line and in manifest lines.
func TestDropReasons(t *testing.T) {
	in := "; MaxProcs: 8\n" + strings.Join([]string{
		jl(1, "0", "5", "4", "4", "5"),   // kept
		jl(2, "-1", "5", "4", "4", "5"),  // no submit time
		jl(3, "1", "5", "0", "0", "5"),   // no size
		jl(4, "2", "5", "16", "16", "5"), // too wide
		jl(5, "3", "0", "4", "4", "5"),   // never ran
		jl(6, "4", "-1", "4", "4", "5"),  // never ran
	}, "\n")
	n, err := NewNormalizer(NewReader(strings.NewReader(in)), PyssOptions(0))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	n.OnDrop = func(j *model.Job, r DropReason) { got = append(got, fmt.Sprint(j.ID, " ", r)) }
	if _, err := model.ReadAll(n); err != nil {
		t.Fatal(err)
	}
	if want := []string{"2 bad-submit", "3 no-size", "4 too-wide", "5 no-runtime", "6 no-runtime"}; !reflect.DeepEqual(got, want) {
		t.Errorf("OnDrop calls %q, want %q", got, want)
	}
	rep := n.Report()
	if s := rep.DropSummary(); s != "dropped 5 of 6 jobs: bad-submit 1, no-size 1, too-wide 1, no-runtime 2" {
		t.Errorf("DropSummary %q", s)
	}
	if hl := rep.HeaderLines(); len(hl) != 4 || hl[3] != (model.HeaderLine{Key: KeyDropped, Value: "no-runtime 2"}) {
		t.Errorf("HeaderLines %q", hl)
	}
	if (Report{Read: 3, Kept: 3}).DropSummary() != "" {
		t.Error("a report without drops has a summary")
	}
}
