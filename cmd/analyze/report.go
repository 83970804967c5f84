package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/repro"
)

const reportSynopsis = `usage: analyze report [flags] [RESULTS_DIR]

Rebuilds RESULTS_DIR/REPRODUCTION.md (default results/) from every
reproduced item RESULTS_DIR/<paper>/<item>.csv (written by repro.WriteCSV):
the paper's values beside gangsim's, tolerances, claims. The report is
written atomically and ends with its manifest (the digest of every item)
as an HTML comment.

Examples:
  analyze report
  analyze report results -o - | less`

// reportName is the report's file name in the results directory.
const reportName = repro.ReportName

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("analyze report", reportSynopsis, stderr)
	var (
		output = fs.StringP("output", "o", "", "write the report to FILE, or - for stdout (default: RESULTS_DIR/"+reportName+")")
		quiet  = fs.BoolP("quiet", "q", false, "print nothing on stderr but errors")
	)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return cli.Usagef("one results directory at most, got %d", fs.NArg())
	}
	dir := "results"
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if st, err := os.Stat(dir); err != nil {
		return fmt.Errorf("results directory: %w", err)
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	out := *output
	if out == "" {
		out = filepath.Join(dir, reportName)
	}

	var report bytes.Buffer
	items, err := repro.ReportDir(&report, dir, func(msg string) {
		if !*quiet {
			fmt.Fprintf(stderr, "analyze report: %s\n", msg)
		}
	})
	if err != nil {
		return err
	}
	// A report that says what the file there says, but for the build that
	// made it, is left as it is (see repro.KeepOrReplace).
	keep := false
	if st, err := os.Stat(out); out != "-" && err == nil && st.Mode().IsRegular() {
		keep, _, _ = repro.KeepOrReplace(out, report.Bytes()) // unreadable: written anew
	}
	if !keep {
		w, err := atomicfile.Create(out, stdout)
		if err != nil {
			return err
		}
		defer w.Abort()
		if _, err := w.Write(report.Bytes()); err != nil {
			return err
		}
		if err := w.Commit(); err != nil {
			return err
		}
	}
	if !*quiet {
		var papers, agree, studies, hold int
		for _, it := range items {
			switch {
			case repro.IsPaper(it.Paper):
				papers++
				if it.Agrees() {
					agree++
				}
			default:
				studies++
				if it.Agrees() {
					hold++
				}
			}
		}
		to := out
		if out == "-" {
			to = "<stdout>"
		}
		what := fmt.Sprintf("%d items (%d agree with their paper)", papers, agree)
		if studies > 0 {
			what += fmt.Sprintf(" and %d items of studies (%d whose claims all hold)", studies, hold)
		}
		fmt.Fprintf(stderr, "analyze report: %s written to %s\n", what, to)
	}
	return nil
}
