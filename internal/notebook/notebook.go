// Package notebook runs the example notebook (examples/fig-6.12.ipynb) for
// gangsim's tests, as far as this machine allows: its SQL verbatim with
// DuckDB through Node.js (conformance/duckdb/query.mjs), and its Python
// cells with python3, pandas and matplotlib, DuckDB answered by the
// results of that same SQL. Python's DuckDB and Parquet readers are not in
// Debian's packages, so the notebook is not run under a kernel here; the
// two halves together run every line of it.
package notebook

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Notebook is the part of an nbformat 4 document the tests read.
type Notebook struct {
	NBFormat      int `json:"nbformat"`
	NBFormatMinor int `json:"nbformat_minor"`
	Metadata      struct {
		Kernelspec *struct {
			Name     string `json:"name"`
			Language string `json:"language"`
		} `json:"kernelspec"`
	} `json:"metadata"`
	Cells []Cell `json:"cells"`
}

// Cell is a notebook cell.
type Cell struct {
	Type           string            `json:"cell_type"`
	ID             string            `json:"id"`
	Source         json.RawMessage   `json:"source"` // a string or a list of lines
	Outputs        []json.RawMessage `json:"outputs"`
	ExecutionCount *int              `json:"execution_count"`
}

// Text is the cell's source as one string.
func (c *Cell) Text() (string, error) {
	var s string
	if err := json.Unmarshal(c.Source, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(c.Source, &lines); err != nil {
		return "", fmt.Errorf("cell %q: source is neither a string nor a list of strings", c.ID)
	}
	return strings.Join(lines, ""), nil
}

// Read parses a notebook and returns it with the sources of its code
// cells.
func Read(path string) (*Notebook, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var nb Notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, nil, fmt.Errorf("%s is not JSON: %w", path, err)
	}
	var code []string
	for i := range nb.Cells {
		src, err := nb.Cells[i].Text()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if nb.Cells[i].Type == "code" {
			code = append(code, src)
		}
	}
	return &nb, code, nil
}

// sqlConstant matches the notebook's SQL string constants, NAME_SQL = """...""".
var sqlConstant = regexp.MustCompile(`(?ms)^([A-Z][A-Z0-9_]*_SQL) = r?"""(.*?)"""`)

// SQL returns the notebook's SQL constants by name.
func SQL(code []string) map[string]string {
	out := map[string]string{}
	for _, src := range code {
		for _, m := range sqlConstant.FindAllStringSubmatch(src, -1) {
			out[m[1]] = m[2]
		}
	}
	return out
}

// Views are the notebook's views, in the order it creates them, each with
// the constant whose SQL it is: every result the notebook reads is one of
// them, as SELECT * FROM name.
var Views = [][2]string{{"runs", "RUNS_SQL"}, {"grid", "GRID_SQL"}, {"run_stats", "RUN_STATS_SQL"}, {"figure", "FIGURE_SQL"}}

// Rows are query.mjs's output: each view's rows, column name to value.
type Rows map[string][]map[string]any

// DuckDB returns node and the directory of conformance/duckdb under the
// repository root, or why DuckDB cannot be run (Node.js, or
// @duckdb/node-api, which npm install there installs, missing).
func DuckDB(root string) (node, dir string, err error) {
	dir = filepath.Join(root, "conformance", "duckdb")
	node, err = exec.LookPath("node")
	if err != nil {
		return "", dir, fmt.Errorf("node: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api")); err != nil {
		return "", dir, fmt.Errorf("@duckdb/node-api not installed (npm install in %s): %w", dir, err)
	}
	return node, dir, nil
}

// Query runs named SQL texts in order with query.mjs, the paths in them
// relative to searchDir (the run cache, as the notebook sets DuckDB's
// file_search_path) and the DuckDB variables vars set, each query a view
// for the next, and returns their rows.
func Query(node, duckDir, searchDir string, vars map[string]string, queries [][2]string) (Rows, error) {
	tmp, err := os.MkdirTemp("", "gangsim-notebook-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	args := []string{filepath.Join(duckDir, "query.mjs"), searchDir}
	for k, v := range vars {
		args = append(args, "--set", k+"="+v)
	}
	for i, q := range queries {
		f := filepath.Join(tmp, fmt.Sprintf("%d-%s.sql", i, q[0]))
		if err := os.WriteFile(f, []byte(q[1]), 0o644); err != nil {
			return nil, err
		}
		args = append(args, q[0]+"="+f)
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = duckDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var rows Rows
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		return nil, fmt.Errorf("query.mjs output: %w", err)
	}
	return rows, nil
}

// RunViews runs the notebook's views (Views) on the runs under cacheDir,
// the experiment file experiment selecting the grid, as the notebook runs
// them.
func RunViews(node, duckDir, cacheDir, experiment string, sql map[string]string) (Rows, error) {
	var queries [][2]string
	for _, v := range Views {
		if strings.TrimSpace(sql[v[1]]) == "" {
			return nil, fmt.Errorf("the notebook has no %s", v[1])
		}
		queries = append(queries, [2]string{v[0], sql[v[1]]})
	}
	return Query(node, duckDir, cacheDir, map[string]string{"experiment": experiment}, queries)
}

//go:embed cells.py
var cellsPy []byte

// Python returns a python3 that has pandas and matplotlib (python3 on the
// PATH, else Debian's /usr/bin/python3, where apt-get install python3-pandas
// python3-matplotlib puts them), or why there is none.
func Python() (string, error) {
	var tried []string
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if out, err := exec.Command(path, "-c", "import pandas, matplotlib").CombinedOutput(); err != nil {
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			tried = append(tried, path+": "+lines[len(lines)-1])
			continue
		}
		return path, nil
	}
	if len(tried) == 0 {
		return "", fmt.Errorf("no python3")
	}
	return "", fmt.Errorf("no python3 with pandas and matplotlib (%s); apt-get install python3-pandas python3-matplotlib", strings.Join(tried, "; "))
}

// RunCells runs the notebook's code cells in order with python, its DuckDB
// answered by rows (the results of its own SQL, RunViews), in dir with env
// added to the environment (the notebook's settings), and returns what
// they printed. With figure not empty, the notebook's figure is saved
// there.
func RunCells(python, notebookPath string, rows Rows, dir string, env map[string]string, figure string) (string, error) {
	tmp, err := os.MkdirTemp("", "gangsim-cells-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	script, results := filepath.Join(tmp, "cells.py"), filepath.Join(tmp, "results.json")
	b, err := json.Marshal(rows)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(script, cellsPy, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(results, b, 0o644); err != nil {
		return "", err
	}
	args := []string{script, notebookPath, results}
	if figure != "" {
		args = append(args, figure)
	}
	cmd := exec.Command(python, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MPLBACKEND=Agg")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("the notebook's cells: %v\n%s", err, out)
	}
	return string(out), nil
}
