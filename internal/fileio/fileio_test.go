package fileio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/internal/sharedtraces"
	"github.com/gangsim/gangsim/model"
)

// TestSharedTracesThroughParquet converts every shared trace SWF ->
// Parquet -> SWF and requires identical jobs and header at every step.
func TestSharedTracesThroughParquet(t *testing.T) {
	for _, name := range sharedtraces.Names {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !contains(sharedtraces.Small, name) {
				t.Skip("large trace in -short mode")
			}
			in, err := Open(sharedtraces.Trace(t, name), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if in.Format != columnar.FormatSWFGzip {
				t.Fatalf("detected %v", in.Format)
			}
			src, err := in.Trace(false)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := model.ReadAll(src)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			trip := orig
			for _, ext := range []string{".parquet", ".swf"} {
				path := filepath.Join(dir, name+ext)
				f, _ := ResolveFormat(path, "", columnar.FormatArrow)
				out, err := Create(path, f, nil)
				if err != nil {
					t.Fatal(err)
				}
				w, err := out.TraceWriter(&trip.Header)
				if err != nil {
					t.Fatal(err)
				}
				if err := model.WriteAll(w, trip.Jobs); err != nil {
					t.Fatal(err)
				}
				if err := out.Commit(); err != nil {
					t.Fatal(err)
				}
				back, err := Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				r, err := back.Trace(false)
				if err != nil {
					t.Fatal(err)
				}
				got, err := model.ReadAll(r)
				back.Close()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Header, orig.Header) {
					t.Fatalf("%s: header differs", ext)
				}
				if len(got.Jobs) != len(orig.Jobs) {
					t.Fatalf("%s: %d jobs, want %d", ext, len(got.Jobs), len(orig.Jobs))
				}
				for i := range orig.Jobs {
					if !reflect.DeepEqual(got.Jobs[i], orig.Jobs[i]) {
						t.Fatalf("%s: job %d differs:\n got %+v\nwant %+v", ext, i, got.Jobs[i], orig.Jobs[i])
					}
				}
				trip = got
			}
		})
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// TestStdinSpool reads a Parquet trace from a (non-seekable) stdin stream.
func TestStdinSpool(t *testing.T) {
	h := model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "8"}}}
	var buf bytes.Buffer
	w, _ := columnar.NewTraceWriter(&buf, columnar.FormatParquet, &h)
	model.WriteAll(w, []model.Job{{ID: 3, Known: model.FieldSet(0).With(model.FieldJobID)}})
	in, err := Open("-", strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.Format != columnar.FormatParquet || in.DisplayName() != "<stdin>" || len(in.SHA256) != 64 {
		t.Fatalf("%+v", in)
	}
	r, err := in.Trace(false)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := model.ReadAll(r)
	if err != nil || len(tr.Jobs) != 1 || tr.Jobs[0].ID != 3 || tr.Header.MaxProcs() != 8 {
		t.Fatalf("%+v %v", tr, err)
	}
}

func TestResolveFormat(t *testing.T) {
	for _, tt := range []struct {
		name, format string
		want         columnar.Format
		err          bool
	}{
		{"-", "", columnar.FormatArrow, false},
		{"", "", columnar.FormatArrow, false},
		{"x.csv", "", columnar.FormatCSV, false},
		{"x.csv", "parquet", 0, true}, // a contradiction
		{"x.csv", "csv", columnar.FormatCSV, false},
		{"x.out", "parquet", columnar.FormatParquet, false},
		{"-", "swf.gz", columnar.FormatSWFGzip, false},
		{"x.out", "", 0, true},
		{"-", "feather", 0, true},
	} {
		got, err := ResolveFormat(tt.name, tt.format, columnar.FormatArrow)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("ResolveFormat(%q, %q) = %v, %v", tt.name, tt.format, got, err)
		}
	}
}

// TestAbortLeavesNothing: an output that is not committed does not appear.
func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	out, err := Create(filepath.Join(dir, "o.parquet"), columnar.FormatParquet, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := model.Header{}
	w, _ := out.OutcomeWriter(&h)
	w.Write(&model.Outcome{JobID: 1})
	out.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}

// TestOpenStream reads standard input once, in every format, as a stream
// (Parquet spooled): the jobs are those of the file, and the digest, set
// by Finish, is that of every byte, even those the parser left unread.
func TestOpenStream(t *testing.T) {
	tr := model.Trace{Header: model.Header{Lines: []model.HeaderLine{{Key: "MaxProcs", Value: "8"}}}}
	for i := 0; i < 50; i++ {
		tr.Jobs = append(tr.Jobs, model.Job{ID: int64(i + 1), Submit: model.Time(i) * model.Second, Runtime: model.Second,
			AllocProcs: 2, ReqProcs: 2, Known: model.AllFields})
	}
	dir := t.TempDir()
	for _, ext := range []string{".swf", ".swf.gz", ".parquet", ".arrow", ".csv"} {
		path := filepath.Join(dir, "t"+ext)
		f, _ := ResolveFormat(path, "", columnar.FormatArrow)
		out, err := Create(path, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := out.TraceWriter(&tr.Header)
		if err := model.WriteAll(w, tr.Jobs); err != nil {
			t.Fatal(err)
		}
		if err := out.Commit(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if f == columnar.FormatArrow {
			data = append(data, "bytes after the end-of-stream marker"...) // never parsed
		}
		in, err := OpenStream("-", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if in.Format != f || in.Streamed() == (f == columnar.FormatParquet) {
			t.Errorf("%s: format %v, streamed %v", ext, in.Format, in.Streamed())
		}
		src, err := in.Trace(false)
		if err != nil {
			t.Fatal(err)
		}
		var got model.Trace
		for {
			j, err := src.Read()
			if err != nil {
				break
			}
			got.Jobs = append(got.Jobs, j)
		}
		if len(got.Jobs) != len(tr.Jobs) {
			t.Errorf("%s: %d jobs", ext, len(got.Jobs))
		}
		if err := in.Finish(); err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(data); in.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: digest %s, want that of all %d bytes", ext, in.SHA256, len(data))
		}
		if _, err := in.Trace(false); err == nil && in.Streamed() {
			t.Errorf("%s: a stream read twice", ext)
		}
		in.Close()
	}
}
