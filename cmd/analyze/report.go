package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
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
const reportName = "REPRODUCTION.md"

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

	files, err := itemFiles(dir)
	if err != nil {
		return err
	}
	man := &model.Manifest{Tool: "analyze report", Version: version.Version}
	var items []*repro.Item
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		it, _, err := repro.ReadCSV(bytes.NewReader(b), f)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, f)
		rel = filepath.ToSlash(rel)
		if want := it.Key() + ".csv"; rel != want && !*quiet {
			fmt.Fprintf(stderr, "analyze report: %s holds item %s, expected at %s\n", f, it.Key(), want)
		}
		sum := sha256.Sum256(b)
		man.Inputs = append(man.Inputs, model.Input{Name: rel, SHA256: hex.EncodeToString(sum[:])})
		items = append(items, it)
	}

	w, err := atomicfile.Create(out, stdout)
	if err != nil {
		return err
	}
	defer w.Abort()
	bw := bufio.NewWriter(w)
	if err := repro.Report(bw, items); err != nil {
		return err
	}
	fmt.Fprintln(bw)
	writeManifestComment(bw, man)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := w.Commit(); err != nil {
		return err
	}
	if !*quiet {
		agree := 0
		for _, it := range items {
			if it.Agrees() {
				agree++
			}
		}
		to := out
		if out == "-" {
			to = "<stdout>"
		}
		fmt.Fprintf(stderr, "analyze report: %d items (%d agree with their paper) written to %s\n", len(items), agree, to)
	}
	return nil
}

// itemFiles lists dir/<paper>/<item>.csv, sorted, leaving out hidden
// files and directories.
func itemFiles(dir string) ([]string, error) {
	papers, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range papers {
		if !p.IsDir() || strings.HasPrefix(p.Name(), ".") {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(dir, p.Name()))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".csv") {
				files = append(files, filepath.Join(dir, p.Name(), e.Name()))
			}
		}
	}
	slices.Sort(files)
	return files, nil
}
