package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is the most lines a function may span, from its func
// keyword to its closing brace, so that it reads at once.
const maxFuncLines = 100

// longFuncs are the functions allowed to be longer: the engines'
// documented algorithms and the SWF parser, each one step of a
// published procedure read best in one piece. Keys are the package's
// folder and the function, as funcKey writes them.
var longFuncs = map[string]string{
	"procsim (*program).fit":        "a BSP program's max-plus recurrences, iterated until periodic and extrapolated: the recurrences its doc comment states, in one loop",
	"procsim (*Sim).SetOwners":      "a strobe of the processors under the strobed disciplines: the hand-over, GS's held messages and FCS's classification of one step",
	"procsim (*Sim).skip":           "a job moved forward by whole periods: the conditions of an undisturbed period and the jump, which must agree",
	"procsim (*Sim).AddJob":         "a job's processes placed and every discipline's entries made at once",
	"policies (*Gang).backfillEASY": "EASY backfilling inside the gang matrix in one pass, under the rules its doc comment gives",
	"policies (*Gang).replanDuties": "the duties replanned after a change of the matrix: which jobs, then their plans, in one pass",
	"swf (*Reader).parseJob":        "the SWF 2.2 parser of a job line, allocation-free: the 18 fields in order, each with its positioned error",
}

// funcKey names a function by its package's folder (relative to the
// repository) and, for a method, its receiver: "procsim (*Sim).skip",
// "cmd/replay hwCurve".
func funcKey(dir string, fd *ast.FuncDecl) string {
	name := fd.Name.Name
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		star := ""
		if s, ok := t.(*ast.StarExpr); ok {
			star, t = "*", s.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok { // a generic receiver, T[E]
			t = ix.X
		}
		if id, ok := t.(*ast.Ident); ok {
			name = "(" + star + id.Name + ")." + name
		}
	}
	return filepath.ToSlash(dir) + " " + name
}

// longFunctions returns the functions of the Go source src (the file
// path, relative to the repository) longer than max lines, as "key: n
// lines".
func longFunctions(path string, src []byte, max int) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > max {
			out = append(out, fmt.Sprintf("%s: %d lines", funcKey(filepath.Dir(path), fd), n))
		}
	}
	return out, nil
}

// TestFunctionLength fails on a function of the module's code (tests
// aside) longer than maxFuncLines that longFuncs does not name: split it,
// or, for an engine's documented algorithm, name it there with the
// reason.
func TestFunctionLength(t *testing.T) {
	r := root(t)
	var long []string
	err := filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != r || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(r, p)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		found, err := longFunctions(rel, src, maxFuncLines)
		long = append(long, found...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(long)
	for _, l := range long {
		key, _, _ := strings.Cut(l, ":")
		if _, ok := longFuncs[key]; !ok {
			t.Errorf("%s, more than %d: split it (or, for an engine's documented algorithm, name it in longFuncs with why)", l, maxFuncLines)
		}
	}
}

// TestLongFunctions checks the measure on made-up code.
func TestLongFunctions(t *testing.T) {
	src := "package x\n\ntype T[E any] struct{}\n\nfunc short() {}\n\nfunc (t *T[E]) long() {\n" + strings.Repeat("\t_ = 1\n", 5) + "}\n\nfunc (T[E]) exact() {\n\t_ = 1\n}\n"
	got, err := longFunctions("pkg/sub/x.go", []byte(src), 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"pkg/sub (*T).long: 7 lines"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
