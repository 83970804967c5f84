package experiments

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/notebook"
	"github.com/gangsim/gangsim/repro"
)

// checkNotebook runs the example notebook (examples/fig-6.12.ipynb) on the
// runs TestResultsUpToDate made into cacheDir, with the experiment exp
// (experiments/frachtenberg/fig-6.12.json as it is): its SQL verbatim with
// DuckDB (every policy of the experiment's grids, SB and FCS of its also
// grid included, matched on the canonical policy form), its points
// compared with the item's CSV, csvPath (the committed
// results/frachtenberg/fig-6.12.csv), wherever
// gangsim averaged every seed (its averaged coordinate a/n with a = n),
// and then its Python cells (python3 with pandas and matplotlib; package
// notebook says why not under a kernel), which make the same comparison.
// DuckDB and Python are skipped when missing, unless
// GANGSIM_REQUIRE_DUCKDB and GANGSIM_REQUIRE_PYTHON say otherwise (as CI
// does).
func checkNotebook(t *testing.T, root, cacheDir, exp, csvPath string) {
	node, duckDir, err := notebook.DuckDB(root)
	if err != nil {
		if os.Getenv("GANGSIM_REQUIRE_DUCKDB") != "" {
			t.Fatalf("DuckDB required but not runnable: %v", err)
		}
		t.Skipf("%v: the notebook is not checked", err)
	}
	nbPath := filepath.Join(root, "examples", "fig-6.12.ipynb")
	_, code, err := notebook.Read(nbPath)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := notebook.RunViews(node, duckDir, cacheDir, exp, notebook.SQL(code))
	if err != nil {
		t.Fatalf("the notebook's SQL fails in DuckDB on fig-6.12's runs: %v", err)
	}

	// Every run of the experiment's grids is found, every policy among
	// them.
	gridRuns, labels := len(rows["grid"]), map[string]int{}
	for _, g := range rows["grid"] {
		labels[g["label"].(string)]++
	}
	found := map[string]int{}
	total := 0
	for _, p := range rows["figure"] {
		n := int(p["runs"].(float64))
		found[p["label"].(string)] += n
		total += n
	}
	if total != gridRuns {
		t.Errorf("the notebook found %d of the experiment's %d runs", total, gridRuns)
	}
	for l, n := range labels {
		if found[l] != n {
			t.Errorf("the notebook found %d runs of %s, the experiment has %d", found[l], l, n)
		}
	}

	// Its points against gangsim's committed item.
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	item, _, err := repro.ReadCSV(f, csvPath)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	compared := map[string]int{}
	for _, p := range rows["figure"] {
		label, load, runs := p["label"].(string), p["load"].(float64), int(p["runs"].(float64))
		for _, metric := range []string{"response_s_mean", "ts_bsld_mean", "response_s_median", "ts_bsld_median"} {
			i := slices.IndexFunc(item.Rows, func(r repro.Row) bool {
				l, err := strconv.ParseFloat(r.Coord("load"), 64)
				return r.Coord("policy") == label && err == nil && l == load && r.Coord("metric") == metric
			})
			if i < 0 {
				t.Errorf("%s has no row %s, load %v, %s (run make figures)", filepath.Base(csvPath), label, load, metric)
				continue
			}
			r := item.Rows[i]
			if r.Coord("averaged") != fmt.Sprintf("%d/%d", runs, runs) {
				continue // gangsim left saturated seeds out of this mean
			}
			got, want := p[metric].(float64), r.Gangsim
			// The CSV keeps 6 significant digits.
			if math.Abs(got-want) > 5.000001e-6*math.Abs(want) {
				t.Errorf("%s at load %v: %s = %v from the notebook's SQL, %v in %s", label, load, metric, got, want, filepath.Base(csvPath))
			}
			compared[label]++
		}
	}
	if len(compared) == 0 {
		t.Errorf("no point of the notebook's figure compared with %s", filepath.Base(csvPath))
	}
	t.Logf("the notebook's figure: %d runs; values compared with the committed item per policy: %v", total, compared)

	python, err := notebook.Python()
	if err != nil {
		if os.Getenv("GANGSIM_REQUIRE_PYTHON") != "" {
			t.Fatalf("the notebook's Python cells required but not runnable: %v", err)
		}
		t.Skipf("%v: the notebook's Python cells are not run", err)
	}
	printed, err := notebook.RunCells(python, nbPath, rows, t.TempDir(), map[string]string{
		"GANGSIM_CACHE": cacheDir, "GANGSIM_EXPERIMENT": exp, "GANGSIM_RESULTS": csvPath,
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("%d of the grids' %d runs found", gridRuns, gridRuns), "points compared with " + filepath.Base(csvPath)} {
		if !strings.Contains(printed, want) {
			t.Errorf("the notebook's cells did not print %q:\n%s", want, printed)
		}
	}
}
