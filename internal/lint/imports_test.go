package lint

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// modelPackages are the packages a simulation links: the hardware cost
// models, the policies and the engine. They must stay importable without
// the presentation layer.
var modelPackages = []string{"./hwmodel/...", "./policies", "./sim"}

// presentation lists the import paths (and their subpackages) that no
// model package may depend on: the plotting stack and the reproductions,
// which live above the models (STYLE.md: "models below presentation").
var presentation = []string{
	"gonum.org/v1/plot",
	"github.com/gangsim/gangsim/plots",
	"github.com/gangsim/gangsim/repro",
}

// forbidden reports whether path is one of presentation or below one.
func forbidden(path string) bool {
	for _, p := range presentation {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// importChains returns, for each forbidden package that root reaches in
// the import graph (package -> its imports), one shortest chain of imports
// from root to it, as "root -> a -> b", sorted.
func importChains(graph map[string][]string, root string) []string {
	prev := map[string]string{root: ""}
	queue := []string{root}
	var chains []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if forbidden(p) {
			chain := []string{p}
			for q := prev[p]; q != ""; q = prev[q] {
				chain = append(chain, q)
			}
			slices.Reverse(chain)
			chains = append(chains, strings.Join(chain, " -> "))
			continue // what lies below it is reached through it
		}
		for _, q := range graph[p] {
			if _, seen := prev[q]; !seen {
				prev[q] = p
				queue = append(queue, q)
			}
		}
	}
	slices.Sort(chains)
	return chains
}

// TestModelsBelowPresentation fails when a model package (hwmodel and its
// subpackages, policies, sim) depends, directly or not, on gonum/plot or
// on gangsim's plots or repro packages, naming the chain of imports that
// brings it in. A cost model must be importable alone; the papers'
// reproductions live above the models (repro/hardware). Test files are
// not counted: go list -deps follows the packages' own imports only.
func TestModelsBelowPresentation(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	list := func(args ...string) []string {
		t.Helper()
		cmd := exec.Command(goTool, append([]string{"list"}, args...)...)
		cmd.Dir = root(t)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	roots := list(modelPackages...)
	graph := map[string][]string{}
	for _, line := range list(append([]string{"-deps", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}"}, modelPackages...)...) {
		pkg, imports, _ := strings.Cut(line, "|")
		graph[pkg] = strings.Fields(imports)
	}
	if len(roots) < 8 || len(graph) < len(roots) {
		t.Fatalf("go list found %d model packages and %d packages in their graph", len(roots), len(graph))
	}
	for _, r := range roots {
		for _, chain := range importChains(graph, r) {
			t.Errorf("%s depends on the presentation layer: %s", r, chain)
		}
	}
}

// TestImportChains checks the chain finder on a made-up graph.
func TestImportChains(t *testing.T) {
	graph := map[string][]string{
		"m/hwmodel/x":    {"m/model", "m/internal/y"},
		"m/internal/y":   {"github.com/gangsim/gangsim/repro/hardware", "m/model"},
		"m/model":        {"fmt"},
		"m/sim":          {"m/model"},
		"m/hwmodel/plot": {"gonum.org/v1/plot/vg", "gonum.org/v1/plotter"},
	}
	if got := importChains(graph, "m/sim"); len(got) != 0 {
		t.Errorf("m/sim: %v", got)
	}
	want := []string{"m/hwmodel/x -> m/internal/y -> github.com/gangsim/gangsim/repro/hardware"}
	if got := importChains(graph, "m/hwmodel/x"); !slices.Equal(got, want) {
		t.Errorf("m/hwmodel/x: %v, want %v", got, want)
	}
	// gonum.org/v1/plotter is not below gonum.org/v1/plot.
	want = []string{"m/hwmodel/plot -> gonum.org/v1/plot/vg"}
	if got := importChains(graph, "m/hwmodel/plot"); !slices.Equal(got, want) {
		t.Errorf("m/hwmodel/plot: %v, want %v", got, want)
	}
}
