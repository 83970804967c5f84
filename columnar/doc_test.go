package columnar

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite doc.go's column lists from the declared columns")

// docColumns renders a kind's columns as doc.go lists them.
func docColumns(k *kind) []string {
	var lines []string
	for _, c := range k.cols {
		lines = append(lines, strings.TrimRight(fmt.Sprintf("//\t%-17s %-13s %s", c.name, c.typ, c.doc), " "))
	}
	return lines
}

// TestDocColumns checks that doc.go lists every kind's columns exactly as
// they are declared (name, type, doc, in order) under a heading that names
// the kind's schema version; go test -run TestDocColumns -update rewrites
// the lists.
func TestDocColumns(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for _, k := range kinds {
		head := -1
		for i, l := range lines {
			if strings.Contains(l, `("`+k.schema+`")`) {
				head = i
				break
			}
		}
		if head < 0 {
			t.Errorf("doc.go has no heading naming %q", k.schema)
			continue
		}
		// The list starts after the heading's paragraph and its blank
		// comment line, and runs while lines are indented.
		start := head
		for start < len(lines) && lines[start] != "//" {
			start++
		}
		start++
		end := start
		for end < len(lines) && strings.HasPrefix(lines[end], "//\t") {
			end++
		}
		want := docColumns(k)
		got := lines[start:end]
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			continue
		}
		if !*update {
			t.Errorf("doc.go's %s columns differ from the declared ones (go test -run TestDocColumns -update rewrites them):\n got:\n%s\nwant:\n%s",
				k.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			continue
		}
		lines = append(lines[:start], append(want, lines[end:]...)...)
	}
	if *update {
		if err := os.WriteFile("doc.go", []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
