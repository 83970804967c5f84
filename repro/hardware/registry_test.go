package hardware

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/internal/presettest"
	"github.com/gangsim/gangsim/repro"
)

// TestReproductions: the registry's items, in order, each built on its
// preset, valid and agreeing with its paper but for two claims: one of
// E&F 4.2 that the paper's own figures contradict, and the thesis' gain
// over linear slowdown (4.3.3.3), which the job-level model cannot give
// (McLaughlin and Dasgupta's replays are held to their paper by
// TestMcLaughlinItems).
func TestReproductions(t *testing.T) {
	wantKeys := []string{"etsion/fig-5", "etsion/fig-6", "etsion/switch-cost", "hori96/table-2", "hori96/table-4", "hori96/table-5",
		"hori96/fig-8", "hori98/table-3", "hori98/fig-6", "frachtenberg/table-4.3", "frachtenberg/fig-4.12", "frachtenberg/table-4.5",
		"frachtenberg/fig-4.13", "frachtenberg/fig-4.14", "frachtenberg/fig-4.15", "mclaughlin/switch-cost",
		"mclaughlin/exp-1", "mclaughlin/exp-2", "mclaughlin/fig-3", "mclaughlin/fig-4"}
	failing := map[string]string{"etsion/switch-cost": "replacing the send buffer", "frachtenberg/fig-4.15": "slight performance gain"}
	if got := Keys(); !slices.Equal(got, wantKeys) {
		t.Fatalf("keys %v, want %v", got, wantKeys)
	}
	for _, r := range Reproductions() {
		it, man, err := r.Build()
		if err != nil {
			t.Fatal(err)
		}
		if preset, _ := man.Param("preset"); preset != r.Preset || it.Key() != r.Key() {
			t.Errorf("%s built %s on %s", r.Key(), it.Key(), preset)
		}
		if method, _ := man.Param("method"); (method == "replays") != r.Replays {
			t.Errorf("%s: replays %v, manifest method %q", r.Key(), r.Replays, method)
		}
		if err := it.Validate(); err != nil {
			t.Error(err)
		}
		var buf bytes.Buffer
		if err := repro.WriteCSV(&buf, &it, nil); err != nil {
			t.Errorf("%s: %v", r.Key(), err)
		}
		rw, rn, ch, cn := it.Check()
		if r.source != "" {
			continue // McLaughlin and Dasgupta's replays: TestMcLaughlinItems
		}
		if r.IsFigure() != (r.plot != nil) {
			t.Errorf("%s: figure %v, drawing spec %v", r.Key(), r.IsFigure(), r.plot != nil)
		}
		if claim, ok := failing[r.Key()]; ok {
			if rw != rn || ch != cn-1 || it.Claims[cn-1].Holds || !strings.Contains(it.Claims[cn-1].Text, claim) {
				t.Errorf("%s: %d/%d cells, %d/%d claims; want all but the last, %q", r.Key(), rw, rn, ch, cn, claim)
			}
			continue
		}
		if !it.Agrees() {
			t.Errorf("%s: %d/%d cells within tolerance, %d/%d claims hold", r.Key(), rw, rn, ch, cn)
		}
	}
	if _, err := Find("etsion/fig-7"); err == nil || !strings.Contains(err.Error(), "want one of etsion/fig-5, ") {
		t.Errorf("Find(etsion/fig-7): %v", err)
	}
}

func TestFigures(t *testing.T) {
	for _, tc := range []struct {
		key          string
		lines, paper int
		first        string // the first line's name
	}{
		{"etsion/fig-5", 4, 7, "contexts=1"},
		{"etsion/fig-6", 8, 0, "switching-full, 1 job"},
		{"hori96/fig-8", 8, 32, "signal, 1 PE"},
		{"hori98/fig-6", 8, 2, "EP, 8 PEs"},
		{"frachtenberg/fig-4.12", 2, 2, "model=es40"},
		{"frachtenberg/fig-4.13", 2, 0, "MPL 2"},
		{"frachtenberg/fig-4.14", 2, 0, "MPL 1"},
		{"frachtenberg/fig-4.15", 2, 0, "gang scheduling"},
	} {
		r, err := Find(tc.key)
		if err != nil {
			t.Fatal(err)
		}
		it, _, err := r.Build()
		if err != nil {
			t.Fatal(err)
		}
		lines, paper, err := r.figureData(&it)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != tc.lines || len(paper) != tc.paper || lines[0].Name != tc.first {
			t.Errorf("%s: %d lines (first %q), %d paper points; want %d (%q), %d", tc.key, len(lines), lines[0].Name, len(paper), tc.lines, tc.first, tc.paper)
		}
		points := 0
		for _, l := range lines {
			points += len(l.X)
			if !slices.IsSorted(l.X) {
				t.Errorf("%s %s: x %v not sorted", tc.key, l.Name, l.X)
			}
		}
		if drawn := len(it.Rows); points != drawn && (r.plot.only == nil || points != drawn/2) {
			t.Errorf("%s: %d points for %d rows", tc.key, points, len(it.Rows))
		}
		if _, err := r.Figure(&it); err != nil {
			t.Errorf("%s: %v", tc.key, err)
		}
	}
	// The paper's values are where the rows put them: Fig. 4.12's 110 ms
	// on 64 nodes and 135 ms on 16,384.
	r, _ := Find("frachtenberg/fig-4.12")
	it, _, _ := r.Build()
	_, paper, _ := r.figureData(&it)
	if paper[0].X != 64 || paper[0].Y != 110 || paper[1].X != 16384 || paper[1].Y != 135 {
		t.Errorf("Fig. 4.12 paper points %v", paper)
	}
	for _, r := range Reproductions() {
		if r.IsFigure() {
			continue
		}
		it, _, err := r.Build()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Figure(&it); err == nil {
			t.Errorf("%s: a table drew a figure", r.Key())
		}
	}
}

// mustPreset returns the embedded preset called name.
func mustPreset(t *testing.T, name string) presets.Preset {
	t.Helper()
	p, err := presets.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// editedPreset returns a copy of the embedded preset called name after
// edit changed its fields, loaded from its JSON as a preset file is.
func editedPreset(t *testing.T, name string, edit func(m map[string]any)) presets.Preset {
	t.Helper()
	data := presettest.Edit(t, mustPreset(t, name).JSON, edit)
	p, err := presets.Load(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
