package columnar

import (
	"bytes"
	"fmt"
	"strings"
)

// Format is an on-disk encoding of a table.
type Format uint8

// Formats. SWF formats can hold traces only; the swf package encodes them.
const (
	FormatUnknown Format = iota
	FormatSWF            // Standard Workload Format text (.swf)
	FormatSWFGzip        // gzipped SWF (.swf.gz)
	FormatParquet        // Apache Parquet (.parquet)
	FormatArrow          // Arrow IPC stream (.arrow)
	FormatCSV            // comma-separated values with "# Key: value" metadata lines (.csv)
)

var formatNames = [...]string{"", "swf", "swf.gz", "parquet", "arrow", "csv"}

// String returns the format's name, which is also its file extension
// without the dot: "swf", "swf.gz", "parquet", "arrow", "csv".
func (f Format) String() string {
	if int(f) < len(formatNames) && f != FormatUnknown {
		return formatNames[f]
	}
	return "unknown"
}

// ParseFormat parses a format name as written by String.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if i > 0 && s == n {
			return Format(i), nil
		}
	}
	return FormatUnknown, fmt.Errorf("unknown format %q (want swf, swf.gz, parquet, arrow or csv)", s)
}

// FormatFromName returns the format a file name's extension names, or
// FormatUnknown.
func FormatFromName(name string) Format {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".swf.gz"):
		return FormatSWFGzip
	case strings.HasSuffix(lower, ".swf"):
		return FormatSWF
	case strings.HasSuffix(lower, ".parquet"):
		return FormatParquet
	case strings.HasSuffix(lower, ".arrow"), strings.HasSuffix(lower, ".arrows"):
		return FormatArrow
	case strings.HasSuffix(lower, ".csv"):
		return FormatCSV
	}
	return FormatUnknown
}

// utf8BOM is the byte order mark some programs put at the start of
// UTF-8 text; readers skip it.
var utf8BOM = []byte("\xef\xbb\xbf")

// DetectFormat recognizes a format from the first bytes of a file (at least
// 8 are needed; 512 make CSV and SWF text reliable): "PAR1" is Parquet, the
// IPC continuation marker 0xFFFFFFFF is an Arrow stream, 1f 8b is gzip
// (gzipped SWF), text that starts with the "# gangsim.schema:" line this
// package's CSV writer puts first, or whose first line that is not a "#"
// comment is a header of comma-separated column names (commas never appear
// in SWF), is CSV; other text is SWF. A CSV file of another tool is thus
// read as CSV, and fails naming the columns it lacks, rather than as SWF.
//
// A file shorter than a magic number that begins it ("PA", 0xFFFF) is
// taken for that format: a Parquet file or Arrow stream cut to a few
// bytes then fails as one, truncated, rather than as SWF text.
func DetectFormat(prefix []byte) Format {
	magic := func(m []byte) bool {
		return bytes.HasPrefix(prefix, m) || len(prefix) > 0 && len(prefix) < len(m) && bytes.HasPrefix(m, prefix)
	}
	switch {
	case len(prefix) == 0:
		return FormatUnknown
	case magic([]byte("PAR1")):
		return FormatParquet
	case magic([]byte{0xff, 0xff, 0xff, 0xff}):
		return FormatArrow
	case magic([]byte{0x1f, 0x8b}):
		return FormatSWFGzip
	}
	prefix = bytes.TrimPrefix(prefix, utf8BOM) // text written by a spreadsheet
	if bytes.HasPrefix(bytes.TrimLeft(prefix, " \t\r\n"), []byte("# "+KeySchema+":")) {
		return FormatCSV // the metadata lines may fill the whole prefix
	}
	for _, line := range strings.Split(string(prefix), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, ";") && strings.Contains(line, ",") {
			return FormatCSV
		}
		break
	}
	return FormatSWF
}
