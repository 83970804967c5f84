package columnar

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/internal/fuzzcorpus"

	"github.com/gangsim/gangsim/model"
)

// The fuzz targets read arbitrary bytes as each table kind in each
// encoding: a reader returns rows or an error, never panics, and never
// allocates far beyond the input's size. Their seed corpora are
// testdata/fuzz/<target>/ (go test -run TestFuzzCorpus -args -fuzzcorpus
// rewrites the seed-* files from fuzzSeeds); make fuzz runs each target
// for a minute.

// fuzzSeeds are valid tables of every kind in format f, small enough to
// mutate: a trace with every column, outcomes with time sharing, samples,
// and each with a trailer.
func fuzzSeeds(t testing.TB, f Format) [][]byte {
	h := testHeader()
	var seeds [][]byte
	var b bytes.Buffer
	tw, _ := NewTraceWriter(&b, f, &h)
	if err := model.WriteAll(tw, testJobs()); err != nil {
		t.Fatal(err)
	}
	seeds = append(seeds, append([]byte(nil), b.Bytes()...))
	b.Reset()
	ow, _ := NewOutcomeWriter(&b, f, &h)
	for _, o := range []model.Outcome{
		{JobID: 1, Start: 1, End: 5, Runtime: 4, Procs: 2, Sharing: model.ProcessLevel, Switches: 3, CPU: 2, Classes: model.FCSClasses{CS: 1}},
		{JobID: 2, Submit: 3, Start: model.Never, End: model.Never, Procs: 9, Reason: model.RejectTooWide},
	} {
		ow.Write(&o)
	}
	ow.AppendHeader(model.HeaderLine{Key: "GangsimInput", Value: "ab -"})
	ow.Close()
	seeds = append(seeds, append([]byte(nil), b.Bytes()...))
	b.Reset()
	sw, _ := NewSampleWriter(&b, f, &h)
	for _, s := range []model.Sample{{At: 0, InSystem: 1}, {At: 5, InSystem: 2, Running: 2, Sharing: model.JobLevel, Rows: 2}} {
		sw.WriteSample(&s)
	}
	sw.Close()
	seeds = append(seeds, append([]byte(nil), b.Bytes()...))
	return seeds
}

// readEverything reads data as each kind; it fails the test on a panic
// (which the fuzzer reports) and on rows that break the readers' promises.
func readEverything(t *testing.T, data []byte, f Format) {
	if r, err := NewTraceReader(bytes.NewReader(data), f, "fuzz"); err == nil {
		for i := 0; ; i++ {
			if _, err := r.Read(); err != nil {
				break
			}
		}
		r.Close()
	}
	if r, err := NewOutcomeReader(bytes.NewReader(data), f, "fuzz"); err == nil {
		for {
			if _, err := r.Read(); err != nil {
				break
			}
		}
		r.Close()
	}
	if r, err := NewSampleReader(bytes.NewReader(data), f, "fuzz"); err == nil {
		for {
			if _, err := r.Read(); err != nil {
				break
			}
		}
		r.Close()
	}
}

func fuzzFormat(f *testing.F, format Format) {
	for _, s := range fuzzSeeds(f, format) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { readEverything(t, data, format) })
}

// FuzzCSVReader: any bytes read as a CSV table of each kind.
func FuzzCSVReader(f *testing.F) { fuzzFormat(f, FormatCSV) }

// FuzzArrowReader: any bytes read as an Arrow IPC stream of each kind.
func FuzzArrowReader(f *testing.F) { fuzzFormat(f, FormatArrow) }

// FuzzParquetReader: any bytes read as a Parquet file of each kind.
func FuzzParquetReader(f *testing.F) { fuzzFormat(f, FormatParquet) }

// TestFuzzCorpus checks that the seed corpora exist (and with -fuzzcorpus
// writes them): one file per seed in Go's corpus encoding.
func TestFuzzCorpus(t *testing.T) {
	for name, format := range map[string]Format{"FuzzCSVReader": FormatCSV, "FuzzArrowReader": FormatArrow, "FuzzParquetReader": FormatParquet} {
		var seeds [][]any
		for _, s := range fuzzSeeds(t, format) {
			seeds = append(seeds, []any{s})
		}
		fuzzcorpus.Check(t, name, seeds)
	}
}

// TestParquetBombs: Parquet files whose metadata claims huge lists or
// pages are refused before parquet-go would allocate for them.
func TestParquetBombs(t *testing.T) {
	file := func(footer []byte) []byte {
		b := append([]byte("PAR1"), footer...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
		return append(b, "PAR1"...)
	}
	for name, data := range map[string][]byte{
		// FileMetaData with row_groups (field 4) a list of 2^31-1 structs.
		"huge list": file([]byte{0x49, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}),
		// A string of 2^31-1 bytes (created_by, field 6).
		"huge string":  file([]byte{0x68, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}),
		"deep structs": file(bytes.Repeat([]byte{0x1c}, 100)),
		"short":        []byte("PAR1PAR1"),
	} {
		if err := checkParquet(bytes.NewReader(data), int64(len(data))); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := NewTraceReader(bytes.NewReader(data), FormatParquet, "bomb"); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
	// A page claiming 2^30 bytes in a valid file's first column chunk.
	h := testHeader()
	var buf bytes.Buffer
	w, _ := NewTraceWriter(&buf, FormatParquet, &h)
	model.WriteAll(w, testJobs())
	good := buf.Bytes()
	if err := checkParquet(bytes.NewReader(good), int64(len(good))); err != nil {
		t.Fatalf("a valid file: %v", err)
	}
	// The first page header follows the magic: field 1 (type), then the
	// uncompressed and compressed sizes (fields 2 and 3, zigzag varints).
	bad := append([]byte(nil), good...)
	w2 := thriftWalker{b: bad[4:]}
	w2.byte()
	w2.zigzag()
	w2.byte() // field 2's header
	at := 4 + w2.pos
	huge := binary.AppendUvarint(nil, uint64(1<<30)<<1)
	v, n := binary.Uvarint(bad[at:])
	if n <= 0 || v == 0 {
		t.Fatal("no page size where expected")
	}
	bad = append(append(append([]byte(nil), bad[:at]...), huge...), bad[at+n:]...)
	if err := checkParquet(bytes.NewReader(bad), int64(len(bad))); err == nil {
		t.Error("a page of 2^30 bytes accepted")
	}
}

// TestArrowBatchLayout: a record batch with fewer buffers than its
// schema's columns need is refused before arrow-go reads past them (it
// took a length from the bytes beyond and allocated 128 TB: the fuzzer's
// find, testdata/fuzz/FuzzArrowReader/buffer-past-vector).
func TestArrowBatchLayout(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzArrowReader", "buffer-past-vector"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(strings.TrimPrefix(string(b), "go test fuzz v1\n[]byte("), ")\n")
	data, err := strconv.Unquote(text)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewOutcomeReader(strings.NewReader(data), FormatArrow, "x.arrow")
	if err == nil {
		for err == nil {
			_, err = r.Read()
		}
	}
	if err == nil || !strings.Contains(err.Error(), "where its schema has") {
		t.Errorf("%v, want the batch refused for its buffers", err)
	}
}
