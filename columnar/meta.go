package columnar

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gangsim/gangsim/model"
)

// Metadata keys.
const (
	// KeySchema names the table's kind and schema version, e.g.
	// "gangsim.trace/1".
	KeySchema = "gangsim.schema"
	// KeyEnd opens and closes a CSV table that gangsim writes: "#
	// gangsim.end: expected after the rows" after the schema line
	// promises the closing line "# gangsim.end: N rows" after the rows
	// and trailer, without which a reader fails with ErrTruncated.
	KeyEnd = "gangsim.end"
	// KeyHeader holds the whole header, lossless and in order, as a JSON
	// array of [key, value] pairs (free-form lines have key "").
	KeyHeader = "gangsim.header"
)

// metadata turns a header into key-value metadata: the schema, the lossless
// header, and the first value of every distinct key under its own name for
// tools that show key-value metadata (DuckDB's parquet_kv_metadata,
// pyarrow's schema.metadata).
func metadata(k *kind, h *model.Header) (keys, values []string) {
	keys = append(keys, KeySchema, KeyHeader)
	values = append(values, k.schema, headerJSON(h.Lines))
	seen := map[string]bool{KeySchema: true, KeyHeader: true}
	for _, l := range h.Lines {
		if l.Key == "" || seen[l.Key] {
			continue
		}
		seen[l.Key] = true
		keys = append(keys, l.Key)
		values = append(values, l.Value)
	}
	return keys, values
}

// headerFrom restores a header from key-value metadata, checking that the
// schema is the expected kind. A file without the lossless header key (one
// written by another tool) gets a header of its plain keys, in order.
// where says, for each line, where it came from ("metadata gangsim.header",
// "metadata key MaxProcs"), for the errors of its value (reader's
// HeaderProblems): a value the header cannot use is no error here.
func headerFrom(k *kind, lookup func(string) (string, bool), keys []string) (h model.Header, where []string, err error) {
	if s, ok := lookup(KeySchema); ok {
		kindName, _, _ := strings.Cut(s, "/")
		want, _, _ := strings.Cut(k.schema, "/")
		if kindName != want {
			return h, nil, fmt.Errorf("holds %s, not %s", aTable(strings.TrimPrefix(kindName, "gangsim.")), aTable(k.name))
		}
	}
	if js, ok := lookup(KeyHeader); ok {
		lines, err := headerFromJSON(js)
		if err != nil {
			return h, nil, fmt.Errorf("metadata %s: %w", KeyHeader, err)
		}
		h.Lines = lines
		where = make([]string, len(lines))
		for i := range where {
			where[i] = "metadata " + KeyHeader
		}
		return h, where, nil
	}
	for _, key := range keys {
		if key == KeySchema || strings.HasPrefix(key, "ARROW:") || key == "pandas" {
			continue
		}
		if v, ok := lookup(key); ok {
			h.Lines = append(h.Lines, model.HeaderLine{Key: key, Value: v})
			where = append(where, "metadata key "+key)
		}
	}
	return h, where, nil
}

// aTable names a table kind with its article: "a trace table", "an
// outcomes table".
func aTable(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name + " table"
	}
	return "a " + name + " table"
}

// headerJSON encodes header lines, lossless and in order, as a JSON array
// of [key, value] pairs.
func headerJSON(lines []model.HeaderLine) string {
	pairs := make([][2]string, len(lines))
	for i, l := range lines {
		pairs[i] = [2]string{l.Key, l.Value}
	}
	js, err := json.Marshal(pairs)
	if err != nil {
		panic(err) // strings always marshal
	}
	return string(js)
}

func headerFromJSON(js string) ([]model.HeaderLine, error) {
	var pairs [][2]string
	if err := json.Unmarshal([]byte(js), &pairs); err != nil {
		return nil, err
	}
	var lines []model.HeaderLine
	for _, p := range pairs {
		lines = append(lines, model.HeaderLine{Key: p[0], Value: p[1]})
	}
	return lines, nil
}
