package presets

import (
	"bytes"
	"testing"
)

// FuzzLoad reads any bytes as a hardware preset file: an error, or a
// preset whose cost model answers, never a panic. Seeds: every embedded
// preset, added here and kept in testdata/fuzz/FuzzLoad with what the
// fuzzer found. make fuzz runs it for a minute.
func FuzzLoad(f *testing.F) {
	for _, name := range Names() {
		p, err := Get(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p.JSON)
	}
	f.Add([]byte(`{"model": "myrinet"}`))
	f.Add([]byte(`{"model": "qsnet", "name": 7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		// A loaded preset is a usable one.
		_ = p.Name()
		_ = p.Machine()
		_ = p.SHA256()
		if _, err := p.Costs(""); err != nil {
			return
		}
	})
}
