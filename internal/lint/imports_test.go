package lint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module's path, which the layer table's patterns leave out.
const module = "github.com/gangsim/gangsim"

// layer is a row of the layer table (docs/layout.md, "Layers").
type layer struct {
	rank     int
	name     string
	patterns []string // module-relative ("" is the root) or another module's path; "x/..." is x and below
}

// layerRow matches a row of the layer table: | rank | name | packages |.
var layerRow = regexp.MustCompile("^\\| *([0-9]+) *\\| *([^|]+?) *\\| *(.+?) *\\|$")

// quoted matches a package pattern in a row, `x` (with an optional
// remark after it).
var quoted = regexp.MustCompile("`([^`]+)`")

// readLayers returns the rows of the table under "## Layers" in the
// layout document, ranks rising.
func readLayers(doc string) ([]layer, error) {
	_, after, ok := strings.Cut(doc, "\n## Layers\n")
	if !ok {
		return nil, fmt.Errorf("no \"## Layers\" section")
	}
	var out []layer
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "## ") {
			break
		}
		m := layerRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rank, _ := strconv.Atoi(m[1])
		if len(out) > 0 && rank <= out[len(out)-1].rank {
			return nil, fmt.Errorf("layer %d (%s) after layer %d: ranks must rise", rank, m[2], out[len(out)-1].rank)
		}
		l := layer{rank: rank, name: m[2]}
		for _, q := range quoted.FindAllStringSubmatch(m[3], -1) {
			p := q[1]
			if p == "gangsim" {
				p = ""
			}
			l.patterns = append(l.patterns, p)
		}
		out = append(out, l)
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("%d layers", len(out))
	}
	return out, nil
}

// matches reports whether pattern names the import path pkg, and how
// closely (the pattern's length; -1: not at all).
func matches(pattern, pkg string) int {
	full := pattern
	if !strings.Contains(strings.Split(pattern, "/")[0], ".") { // one of the module's
		full = strings.TrimSuffix(module+"/"+pattern, "/")
	}
	if base, ok := strings.CutSuffix(full, "/..."); ok {
		if pkg == base || strings.HasPrefix(pkg, base+"/") {
			return len(full)
		}
		return -1
	}
	if pkg == full {
		return len(full) + 1 // an exact name over "x/..."
	}
	return -1
}

// layerOf returns the layer that names pkg by its longest pattern, and
// whether one does.
func layerOf(layers []layer, pkg string) (layer, bool) {
	best, found, score := layer{}, false, -1
	for _, l := range layers {
		for _, p := range l.patterns {
			if s := matches(p, pkg); s > score {
				best, found, score = l, true, s
			}
		}
	}
	return best, found
}

// upwardImports returns, for the import graph of the module's packages
// (package -> its imports), every import of a package of a higher layer,
// every package of the module that no layer names, and every pattern of
// the module that names no package, sorted.
func upwardImports(layers []layer, graph map[string][]string) []string {
	var bad []string
	used := map[string]bool{}
	for pkg, imports := range graph {
		from, ok := layerOf(layers, pkg)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s is in no layer: give it one in docs/layout.md", pkg))
			continue
		}
		for _, imp := range imports {
			to, ok := layerOf(layers, imp)
			if !ok {
				continue // the standard library, or another module no layer pins
			}
			if to.rank > from.rank {
				bad = append(bad, fmt.Sprintf("%s (layer %d, %s) imports %s (layer %d, %s), a layer above it", pkg, from.rank, from.name, imp, to.rank, to.name))
			}
		}
		for _, l := range layers {
			for _, p := range l.patterns {
				if matches(p, pkg) >= 0 {
					used[p] = true
				}
			}
		}
	}
	for _, l := range layers {
		for _, p := range l.patterns {
			if !strings.Contains(strings.Split(p, "/")[0], ".") && !used[p] {
				bad = append(bad, fmt.Sprintf("layer %d (%s) names %q, which is no package of the module", l.rank, l.name, p))
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// TestLayers fails when a package of the module imports a package of a
// layer above its own (docs/layout.md, "Layers"), when a package is in no
// layer, or when the table names a package that is gone. Test files are
// not counted: go list's Imports are the packages' own.
func TestLayers(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	r := root(t)
	doc, err := os.ReadFile(filepath.Join(r, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := readLayers(string(doc))
	if err != nil {
		t.Fatalf("docs/layout.md: %v", err)
	}
	cmd := exec.Command(goTool, "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "./...")
	cmd.Dir = r
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, "|")
		graph[pkg] = strings.Fields(imports)
	}
	if len(graph) < 30 {
		t.Fatalf("go list found %d packages", len(graph))
	}
	for _, msg := range upwardImports(layers, graph) {
		t.Error(msg)
	}
}

// TestUpwardImports checks the rule on a made-up table and graph.
func TestUpwardImports(t *testing.T) {
	layers, err := readLayers("intro\n\n## Layers\n\n| layer | name | packages |\n|---:|---|---|\n" +
		"| 1 | bottom | `model`, `hwmodel/...` |\n" +
		"| 2 | middle | `sim`, `gonum.org/v1/plot/...` |\n" +
		"| 3 | top | `cmd/...`, `hwmodel/tools` (a tool), `gone` |\n\n## Next\n| 4 | not a layer | `x` |\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 3 || !slices.Equal(layers[2].patterns, []string{"cmd/...", "hwmodel/tools", "gone"}) {
		t.Fatalf("layers %+v", layers)
	}
	m := func(p string) string { return module + "/" + p }
	graph := map[string][]string{
		m("model"):            {"fmt"},
		m("hwmodel/qsnet"):    {m("model"), m("hwmodel")},
		m("hwmodel"):          {m("sim")},                  // up
		m("hwmodel/tools"):    {m("sim"), m("cmd/replay")}, // its own layer: top
		m("sim"):              {m("model"), "gonum.org/v1/plot/vg", "golang.org/x/sync/errgroup"},
		m("cmd/replay"):       {m("sim"), m("hwmodel/qsnet")},
		m("model/internal/x"): {"gonum.org/v1/plot"}, // in no layer
	}
	want := []string{
		`github.com/gangsim/gangsim/hwmodel (layer 1, bottom) imports github.com/gangsim/gangsim/sim (layer 2, middle), a layer above it`,
		`github.com/gangsim/gangsim/model/internal/x is in no layer: give it one in docs/layout.md`,
		`layer 3 (top) names "gone", which is no package of the module`,
	}
	if got := upwardImports(layers, graph); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := readLayers("## Layers\n| 2 | a | `x` |\n| 1 | b | `y` |\n"); err == nil {
		t.Error("falling ranks read")
	}
}
