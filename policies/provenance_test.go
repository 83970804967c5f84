package policies

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gangsim/gangsim/internal/calibration"
)

// TestProvenance: every field of the gang-scheduled policies'
// configurations says where its default comes from (Provenance), every
// entry names a field, and every fitted default cites a static
// measurement of the thesis and no dynamic result (package calibration).
func TestProvenance(t *testing.T) {
	var fields []string
	for _, typ := range []reflect.Type{reflect.TypeFor[GangConfig](), reflect.TypeFor[Storm](), reflect.TypeFor[CoschedConfig]()} {
		for i := range typ.NumField() {
			fields = append(fields, typ.Name()+"."+typ.Field(i).Name)
		}
	}
	kinds := []string{"paper", "fitted", "hardware", "assumed", "design"}
	for _, f := range fields {
		o, ok := Provenance[f]
		switch {
		case !ok:
			t.Errorf("%s: no provenance: say where its default comes from", f)
		case !slices.Contains(kinds, o.Kind):
			t.Errorf("%s: kind %q, want one of %v", f, o.Kind, kinds)
		case o.Source == "":
			t.Errorf("%s: no source", f)
		case o.Kind == "fitted" && !calibration.CitesThesisStatic(o.Source):
			t.Errorf("%s: fitted on %q, which cites no static measurement", f, o.Source)
		case o.Kind == "fitted" && calibration.FittedOnDynamic(o.Source):
			t.Errorf("%s: fitted on %q, which cites the dynamic results", f, o.Source)
		}
	}
	for name := range Provenance {
		if !slices.Contains(fields, name) {
			t.Errorf("provenance of %s, which is not a field", name)
		}
	}
}
