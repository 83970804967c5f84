package analysis

import (
	"testing"

	"github.com/gangsim/gangsim/plots"
)

// TestFigureOptionsKey: options that save a figure differently have
// different keys (an item's key holds them: pipelines.ItemKey), equal
// options the same.
func TestFigureOptionsKey(t *testing.T) {
	size, other := plots.Size{Width: 100, Height: 50}, plots.Size{Width: 100, Height: 60}
	keys := map[string]FigureOptions{
		"none":        {},
		"size":        {Size: &size},
		"other":       {Size: &other},
		"dpi":         {DPI: 300},
		"svg":         {Formats: []plots.Format{plots.SVG}},
		"png and svg": {Formats: []plots.Format{plots.PNG, plots.SVG}},
	}
	seen := map[string]string{}
	for name, o := range keys {
		k := o.Key()
		if prev, dup := seen[k]; dup {
			t.Errorf("%s and %s share key %q", name, prev, k)
		}
		seen[k] = name
	}
	same := plots.Size{Width: 100, Height: 50}
	if (FigureOptions{Size: &size}).Key() != (FigureOptions{Size: &same}).Key() {
		t.Error("equal sizes have different keys")
	}
}
