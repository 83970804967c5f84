// Package presettest holds what the hardware model packages' tests share
// about presets: the JSON round trip of every embedded preset through its
// loader, and edits of a preset's JSON as a user would make them.
package presettest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// RoundTrip checks that each preset, marshalled to JSON and read back with
// load, is unchanged, and returns the JSON of the last one.
func RoundTrip[T any](t testing.TB, presets []T, load func(io.Reader) (T, error)) []byte {
	t.Helper()
	var data []byte
	for _, c := range presets {
		var err error
		if data, err = json.Marshal(c); err != nil {
			t.Fatal(err)
		}
		back, err := load(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("the JSON round trip changed the preset:\n%+v\n%+v", back, c)
		}
	}
	return data
}

// Edit returns a preset's JSON after f changed its fields, as a user
// editing a copy would.
func Edit(t testing.TB, data []byte, f func(m map[string]any)) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Invalid is a user edit that a preset loader must refuse.
type Invalid struct {
	Name string
	Edit func(m map[string]any)
	// Want is the error the refusal must wrap; nil accepts any error
	// (e.g. the JSON decoder's for an unknown field).
	Want error
}

// Rejects checks that load refuses each of the edits of a preset's JSON.
func Rejects[T any](t testing.TB, data []byte, load func(io.Reader) (T, error), edits []Invalid) {
	t.Helper()
	for _, e := range edits {
		_, err := load(strings.NewReader(Edit(t, data, e.Edit)))
		if err == nil || e.Want != nil && !errors.Is(err, e.Want) {
			t.Errorf("%s: error %v, want %v", e.Name, err, e.Want)
		}
	}
}
