package pipelines

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Axis is one dimension of an experiment's grid: a name, the JSON path in
// the run description that it sets, and the values it takes, in order.
//
// Paths are dot-separated object keys from the run description's root,
// e.g. "replay.policy" or "workload.load.target". Setting a path creates
// the objects on the way that do not exist yet.
//
// A path ending in ":KEY" sets one parameter of the policy string
// (NAME[:KEY=VALUE,...]) at the path instead of the whole value:
// "replay.policy:mpl" with the value 4 makes "gs:backfill=easy" into
// "gs:backfill=easy,mpl=4" (a KEY already there takes the new value in
// place). The value is a JSON number, string or boolean, written as its
// text. Parameter axes apply after the axes that set whole values, so that
// a "policy" axis and an "mpl" axis combine whatever their order.
type Axis struct {
	Name   string            `json:"name"`   // label in results, e.g. "policy", "load"
	Set    string            `json:"set"`    // JSON path, e.g. "replay.policy"
	Values []json.RawMessage `json:"values"` // JSON values, e.g. "easy" or 0.74
}

// Point is one combination of grid values: each axis's name and the value
// it takes there, as compact JSON text ("0.74", "\"easy\"").
type Point []Label

// Label is one axis's value at a point of the grid.
type Label struct {
	Axis  string
	Value json.RawMessage
}

// Get returns the value of the named axis at p, as JSON text.
func (p Point) Get(axis string) (json.RawMessage, bool) {
	for _, l := range p {
		if l.Axis == axis {
			return l.Value, true
		}
	}
	return nil, false
}

// Text returns the named axis's value as plain text: a JSON string without
// its quotes, any other value as its JSON text. It is "" if p has no such
// axis.
func (p Point) Text(axis string) string {
	v, ok := p.Get(axis)
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// Expand returns every combination of the axes' values applied to base (a
// JSON object), in row-major order: the first axis varies slowest. With no
// axes it returns base alone. Each result is base with every axis's value
// set at its path, as compact JSON.
func Expand(base json.RawMessage, axes []Axis) ([]json.RawMessage, []Point, error) {
	var root any
	if err := decodeJSON(base, &root); err != nil {
		return nil, nil, fmt.Errorf("run description: %w", err)
	}
	if _, ok := root.(map[string]any); !ok {
		return nil, nil, fmt.Errorf("run description: not a JSON object")
	}
	names := map[string]bool{}
	for i, a := range axes {
		if a.Name == "" || a.Set == "" {
			return nil, nil, fmt.Errorf("grid axis %d: needs a name and a path to set", i+1)
		}
		if names[a.Name] {
			return nil, nil, fmt.Errorf("grid axis %q appears twice", a.Name)
		}
		names[a.Name] = true
		if len(a.Values) == 0 {
			return nil, nil, fmt.Errorf("grid axis %q has no values", a.Name)
		}
	}
	var runs []json.RawMessage
	var points []Point
	idx := make([]int, len(axes))
	for {
		doc := deepCopy(root)
		var p Point
		for _, params := range []bool{false, true} {
			for i, a := range axes {
				path, key, isParam := strings.Cut(a.Set, ":")
				if isParam != params {
					continue
				}
				var v any
				if err := decodeJSON(a.Values[idx[i]], &v); err != nil {
					return nil, nil, fmt.Errorf("grid axis %q value %d: %w", a.Name, idx[i]+1, err)
				}
				var err error
				if isParam {
					err = setParam(doc, path, key, v)
				} else {
					err = setPath(doc, a.Set, v)
				}
				if err != nil {
					return nil, nil, fmt.Errorf("grid axis %q: %w", a.Name, err)
				}
			}
		}
		for i, a := range axes {
			var c bytes.Buffer
			if err := json.Compact(&c, a.Values[idx[i]]); err != nil {
				return nil, nil, err
			}
			p = append(p, Label{Axis: a.Name, Value: c.Bytes()})
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, nil, err
		}
		runs = append(runs, b)
		points = append(points, p)
		// Advance the odometer, last axis fastest.
		k := len(axes) - 1
		for k >= 0 {
			idx[k]++
			if idx[k] < len(axes[k].Values) {
				break
			}
			idx[k] = 0
			k--
		}
		if k < 0 {
			return runs, points, nil
		}
	}
}

// decodeJSON decodes one JSON value keeping numbers exact (json.Number).
func decodeJSON(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		for k, x := range t {
			c[k] = deepCopy(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = deepCopy(x)
		}
		return c
	}
	return v
}

func setPath(doc any, path string, v any) error {
	keys := strings.Split(path, ".")
	cur, ok := doc.(map[string]any)
	if !ok {
		return fmt.Errorf("path %q: the run description is not an object", path)
	}
	for i, k := range keys[:len(keys)-1] {
		next, exists := cur[k]
		if !exists {
			m := map[string]any{}
			cur[k] = m
			cur = m
			continue
		}
		m, ok := next.(map[string]any)
		if !ok {
			return fmt.Errorf("path %q: %q is not an object", path, strings.Join(keys[:i+1], "."))
		}
		cur = m
	}
	cur[keys[len(keys)-1]] = v
	return nil
}

// setParam sets the parameter key of the policy string (NAME[:K=V,...])
// at path to v's text, in place if the string has the key, else appended.
func setParam(doc any, path, key string, v any) error {
	var text string
	switch t := v.(type) {
	case json.Number:
		text = t.String()
	case string:
		text = t
	case bool:
		text = fmt.Sprint(t)
	default:
		return fmt.Errorf("path %q: parameter %s: want a number, a string or a boolean", path+":"+key, key)
	}
	if key == "" || strings.ContainsAny(key, ",=:") || strings.ContainsAny(text, ",=") || text == "" {
		return fmt.Errorf("path %q: parameter %q=%q cannot be written into a policy string", path+":"+key, key, text)
	}
	keys := strings.Split(path, ".")
	cur, ok := doc.(map[string]any)
	for i, k := range keys[:len(keys)-1] {
		if cur, ok = cur[k].(map[string]any); !ok {
			return fmt.Errorf("path %q: %q is not an object", path+":"+key, strings.Join(keys[:i+1], "."))
		}
	}
	s, ok := cur[keys[len(keys)-1]].(string)
	if !ok {
		return fmt.Errorf("path %q: %q is not a policy string to set a parameter of", path+":"+key, path)
	}
	name, rest, _ := strings.Cut(s, ":")
	var params []string
	found := false
	if rest != "" {
		params = strings.Split(rest, ",")
	}
	for i, kv := range params {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			params[i], found = key+"="+text, true
		}
	}
	if !found {
		params = append(params, key+"="+text)
	}
	cur[keys[len(keys)-1]] = name + ":" + strings.Join(params, ",")
	return nil
}
