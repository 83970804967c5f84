package lint

import (
	"bytes"
	"go/format"
	"image"
	_ "image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func root(t *testing.T) string {
	t.Helper()
	d, _ := filepath.Abs("../..")
	if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
		t.Fatalf("repository root not found at %s", d)
	}
	return d
}

// TestGofmt fails for every Go file that gofmt would change.
func TestGofmt(t *testing.T) {
	r := root(t)
	filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != r || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		got, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else if !bytes.Equal(got, src) {
			t.Errorf("%s is not gofmt-formatted; run gofmt -w", p)
		}
		return nil
	})
}

// TestVet runs go vet over the module.
func TestVet(t *testing.T) {
	if testing.Short() {
		t.Skip("go vet skipped in -short mode")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	cmd := exec.Command(goTool, "vet", "./...")
	cmd.Dir = root(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}

// TestMakeFiguresPassesFigureOptions: make figures FIGURE_SIZE=...
// FIGURE_DPI=... FIGURE_FORMATS=... passes the options to every command
// that writes results/ (replay hw items and replay sweep), in every target
// that writes them (figures, study-KEY, results/ITEM.csv), so no figure is
// left at the default size or format.
func TestMakeFiguresPassesFigureOptions(t *testing.T) {
	makeTool, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make not on PATH")
	}
	r := root(t)
	want := "--figure-size 6inx4in --figure-dpi 300 --figure-formats png,pdf"
	for _, target := range []string{"figures", "study-easy-vs-conservative", "results/frachtenberg/fig-6.12.csv", "results/etsion/fig-5.csv"} {
		cmd := exec.Command(makeTool, "-n", "-C", r, target, "FIGURE_SIZE=6inx4in", "FIGURE_DPI=300", "FIGURE_FORMATS=png,pdf")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		writers := 0
		for _, line := range strings.Split(string(out), "\n") {
			for _, writer := range []string{"replay hw items", "replay sweep"} {
				// results/%.csv's recipe is one shell if/else holding both.
				for _, part := range strings.Split(line, ";") {
					if strings.Contains(part, writer) && strings.Contains(part, "-o results") {
						writers++
						if !strings.Contains(part, want) {
							t.Errorf("make %s: %q lacks %q", target, strings.TrimSpace(part), want)
						}
					}
				}
			}
		}
		if writers == 0 {
			t.Errorf("make -n %s runs no replay writing results/:\n%s", target, out)
		}
	}
}

// TestREADMESaysWhatCIAdds: the README's "Testing" section and the
// Makefile's comment on make test say what CI's .ci/run does beyond make
// test: every go test command it runs besides make test, verbatim, and
// every GANGSIM_ variable it sets.
func TestREADMESaysWhatCIAdds(t *testing.T) {
	r := root(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(r, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ci, readme, makefile := read(".ci/run"), read("README.md"), read("Makefile")
	_, section, ok := strings.Cut(readme, "\n## Testing\n")
	if !ok {
		t.Fatal("README has no Testing section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	makeTest, _, _ := strings.Cut(makefile, "\ntest:")
	if i := strings.LastIndex(makeTest, "\n\n"); i >= 0 {
		makeTest = makeTest[i:] // the comment above the target
	}
	flat := func(s string) string { // joins the lines of prose, drops comment marks and backquotes
		s = strings.NewReplacer("\n# ", " ", "\n#", " ", "`", "").Replace(s)
		return strings.Join(strings.Fields(s), " ")
	}
	var adds []string
	for _, line := range strings.Split(ci, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "go test "):
			adds = append(adds, line)
		case strings.HasPrefix(line, "export GANGSIM_"):
			adds = append(adds, strings.TrimPrefix(line, "export "))
		}
	}
	if len(adds) == 0 {
		t.Fatal(".ci/run: found no go test command or GANGSIM_ variable beyond make test")
	}
	for _, a := range adds {
		for name, doc := range map[string]string{"README's Testing section": section, "Makefile's comment on make test": makeTest} {
			if !strings.Contains(flat(doc), flat(a)) {
				t.Errorf("%s does not say that CI runs %q", name, a)
			}
		}
	}
}

// TestMakeRunShowsNoManifest: make run, a newcomer's first command, shows
// the comparison table on the terminal without the manifest's HTML
// comment, which stays in the table's file (out/summary.md), beside the
// figure. It builds the commands into a temporary directory and runs the
// whole target there (a few seconds once built), and checks the README
// shows the same table.
func TestMakeRunShowsNoManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs make run")
	}
	makeTool, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make not on PATH")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go tool not on PATH")
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	cmd := exec.Command(makeTool, "-s", "-C", root(t), "run", "BIN="+filepath.Join(tmp, "bin"), "OUT="+out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("make run: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	shown := stdout.String()
	for _, p := range []string{"| policy |", "| easy |", "| gs:mpl=1 |", "| gs |", "| sb |", "| fcs |"} {
		if !strings.Contains(shown, p) {
			t.Errorf("make run shows no comparison table with %q:\n%s", p, shown)
		}
	}
	// The README's first screen shows this table: each of its rows, as
	// printed, must be there (a change of a policy or of the workload
	// that moves a number makes the README stale).
	readme, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(shown, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.Contains(string(readme), line+"\n") {
			t.Errorf("README.md lacks make run's table row %q: paste the table make run prints", line)
		}
	}
	if strings.Contains(shown, "<!--") || strings.Contains(shown, "GangsimTool") {
		t.Errorf("make run shows the manifest on the terminal:\n%s", shown)
	}
	file, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil || !strings.Contains(string(file), "GangsimTool: analyze") || !strings.Contains(string(file), "| policy |") {
		t.Errorf("out/summary.md lacks the table or its manifest (%v):\n%s", err, file)
	}
	// The figure at print size (16 x 10 cm at 300 dpi), its series named.
	png, err := os.ReadFile(filepath.Join(out, "responses.png"))
	if err != nil {
		t.Fatalf("no figure: %v", err)
	}
	if cfg, err := pngConfig(png); err != nil || cfg.Width != 1890 || cfg.Height != 1181 {
		t.Errorf("out/responses.png is %dx%d px (%v), want 1890x1181: 16 x 10 cm at 300 dpi", cfg.Width, cfg.Height, err)
	}
	if l := "label=[easy=EASY,gs:mpl=1=batch,gs=GS,sb=SB,fcs=FCS]"; !bytes.Contains(png, []byte(l)) {
		t.Errorf("out/responses.png's manifest does not record %q: its series are not named", l)
	}
}

// pngConfig decodes a PNG's size.
func pngConfig(b []byte) (image.Config, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	return cfg, err
}
