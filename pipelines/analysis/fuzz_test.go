package analysis

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gangsim/gangsim/pipelines"
)

// FuzzExperiment decodes any bytes as an experiment file, as
// LoadExperiment does (unknown fields refused, then Validate), and as a
// run description (ParseRun): an error or a valid value, never a panic.
// Seeds: the experiments of the repository. make fuzz runs it for a
// minute.
func FuzzExperiment(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "experiments", "*", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if e, _, err := LoadExperiment(name); err == nil {
			if runs, _, err := e.Runs(); err == nil && len(runs) > 0 {
				f.Add([]byte(runs[0].Canonical()))
			}
		}
	}
	f.Add([]byte(`{"item": "x/y", "run": {}, "grid": [{"name": "policy", "path": "replay.policy", "values": [1e999]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.DisallowUnknownFields()
		var e Experiment
		if d.Decode(&e) == nil && e.Validate() == nil {
			if _, _, err := e.Runs(); err != nil {
				t.Errorf("a valid experiment does not expand: %v", err)
			}
		}
		if r, err := pipelines.ParseRun(data); err == nil {
			if err := r.Validate(); err != nil {
				t.Errorf("ParseRun returned an invalid run: %v", err)
			}
			if _, err := pipelines.ParseRun([]byte(r.Canonical())); err != nil {
				t.Errorf("a run's canonical form does not parse: %v", err)
			}
		}
	})
}
