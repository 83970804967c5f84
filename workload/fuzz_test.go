package workload

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzParseSpec reads any bytes as a workload spec: an error, or a spec
// that validates and survives its own JSON, never a panic. make fuzz runs
// it for a minute.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		`{"source": {"lublin": {"jobs": 1000, "procs": 32}}, "attributes": {}, "estimates": {"mode": "loose"}, "load": {"target": 0.74}, "compress": 100, "seed": 1}`,
		`{"source": {"scenario": {"name": "calypso", "tasks": 3, "machines": 2, "task_length": "259s"}}}`,
		`{"source": {"trace": {"path": "t.swf", "clean": {"preset": "default"}}}}`,
		`{"source": {"lublin": {"jobs": 5}}, "attributes": {"granularities": ["5ms", 0.5], "weights": [1, 2]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpec(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseSpec returned an invalid spec: %v", err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("a valid spec does not marshal: %v", err)
		}
		if _, err := ParseSpec(bytes.NewReader(b)); err != nil {
			t.Fatalf("a valid spec does not read back: %v\n%s", err, b)
		}
	})
}
