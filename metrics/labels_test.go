package metrics

import (
	"slices"
	"strings"
	"testing"
)

// TestLabels: every column has a label, a meaning, and the unit its name
// says; parameters and per-job metrics read as a reader names them.
func TestLabels(t *testing.T) {
	cols := Columns()
	if len(cols) != 5+4*9 || !slices.Equal(RunColumns(), func() []string {
		var n []string
		for _, c := range cols {
			n = append(n, c.Name)
		}
		return n
	}()) {
		t.Fatalf("Columns and RunColumns disagree")
	}
	for _, c := range cols {
		if c.Label == "" || c.Doc == "" {
			t.Errorf("%s: label %q, doc %q", c.Name, c.Label, c.Doc)
		}
		if strings.Contains(c.Name, "_s_") != (c.Unit == "s") && c.Name != "makespan_s" {
			t.Errorf("%s: unit %q", c.Name, c.Unit)
		}
	}
	for name, want := range map[string]string{
		"load.target":       "Offered load",
		"load":              "Offered load",
		"policy":            "Policy",
		"response_s_median": "Median response time (s)",
		"wait_s_p95":        "95th percentile of wait time (s)",
		"bsld_mean":         "Mean bounded slowdown",
		"wait":              "Wait time (s)",
		"ts_bsld":           "Time-sharing bounded slowdown",
		"makespan_s":        "Makespan (s)",
	} {
		q, ok := Label(name)
		if !ok || q.Text() != want {
			t.Errorf("Label(%q) = %q, %v; want %q", name, q.Text(), ok, want)
		}
	}
	if q, ok := Label("source.custom.knob"); ok || q.Label != "source.custom.knob" {
		t.Errorf("unknown name: %+v, %v", q, ok)
	}
}
