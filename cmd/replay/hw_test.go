package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/repro"
	"github.com/gangsim/gangsim/repro/hardware"
)

// hw runs "replay hw args..." with stdin.
func hw(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return replayCmd(t, strings.NewReader(stdin), append([]string{"hw"}, args...)...)
}

func TestHWList(t *testing.T) {
	out, _, err := hw(t, "", "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 9 || strings.Join(strings.Fields(lines[0]), " ") != "NAME FAMILY NODESxPES NETWORK DESCRIPTION" {
		t.Fatalf("list:\n%s", out)
	}
	want := [][3]string{
		{"accelerando", "qsnet", "32x2"}, {"asci-q", "qsnet", "2048x4"}, {"calypso-nt", "calypso", "5x1"}, {"crescendo", "qsnet", "32x2"},
		{"parpar", "myrinet", "16x1"}, {"rwc-pc2", "pm", "64x1"}, {"ss20", "pm", "8x1"}, {"wolverine", "qsnet", "64x4"},
	}
	for i, w := range want {
		f := strings.Fields(lines[i+1])
		if len(f) < 5 || f[0] != w[0] || f[1] != w[1] || f[2] != w[2] {
			t.Errorf("line %d: %q, want %v", i+1, lines[i+1], w)
		}
	}
	if par := strings.Join(strings.Fields(lines[5]), " "); !strings.HasSuffix(par, " 16x1 Myrinet 1.28 Gb/s, LANai 4.3, 512 KB; Illinois Fast Messages 2.0 ParPar: 17 Pentium Pro 200 MHz PCs (16 compute nodes and the masterd host), Myrinet with LANai 4.3 and 512 KB, FM 2.0 modified for buffer switching, BSDI 3.1 (Etsion and Feitelson)") {
		t.Errorf("parpar's network and description: %q", par)
	}
}

func TestHWPreset(t *testing.T) {
	out, _, err := hw(t, "", "preset", "parpar")
	if err != nil {
		t.Fatal(err)
	}
	// Verbatim: the file in the source tree, byte for byte.
	file, err := os.ReadFile("../../hwmodel/myrinet/presets/parpar.json")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(file) {
		t.Errorf("preset parpar is not presets/parpar.json verbatim:\n%s", out)
	}
	_, _, err = hw(t, "", "preset", "parpar2")
	if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "want one of accelerando, asci-q, calypso-nt, crescendo, parpar, rwc-pc2, ss20, wolverine") {
		t.Errorf("unknown preset: %v", err)
	}
}

func TestHWKinds(t *testing.T) {
	out, _, err := hw(t, "", "kinds", "ss20")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"pm family (Hori et al. 1996 and 1998", "defaults for ss20 (8x1)",
		"signal (default)", "voluntary",
		"slowdown", "--variant signal  --nodes 1,2,4,8  --occupancy 0 (one value)  --quantum 0.05s,0.1s,0.2s",
		"switch", "--refill-penalty 0s  --variant signal  --nodes 1,2,4,8  --occupancy 0,1  --jobs 2 (one value)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kinds ss20 lacks %q:\n%s", want, out)
		}
	}
	out, _, err = hw(t, "", "kinds")
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range []string{"myrinet family", "pm family", "qsnet family", "calypso family", "launch-models", "total-bandwidth", "migration (default)"} {
		if !strings.Contains(out, fam) {
			t.Errorf("kinds lacks %q", fam)
		}
	}
}

func TestHWCurve(t *testing.T) {
	out, _, err := hw(t, "", "curve", "parpar", "switch", "--nodes", "2,16", "--occupancy", "0")
	if err != nil {
		t.Fatal(err)
	}
	sha := mustPreset(t, "parpar").SHA256()
	// h = 189.71 us per node and stage, halt and release (E&F 4.2):
	// 2 x 190 us on 2 nodes, 2 x 15 x 189.71 us on 16.
	want := "# GangsimTool: replay hw\n" +
		"# GangsimVersion: " + version.Version + "\n" +
		"# GangsimRevision: " + version.RevisionText() + "\n" +
		"# GangsimCode: " + version.Code() + "\n" +
		"# GangsimParam: command=curve\n" +
		"# GangsimParam: family=myrinet\n" +
		"# GangsimParam: jobs=2\n" +
		"# GangsimParam: kind=switch\n" +
		"# GangsimParam: nodes=2,16\n" +
		"# GangsimParam: occupancy=0\n" +
		"# GangsimParam: preset=parpar\n" +
		"# GangsimParam: preset-sha256=" + sha + "\n" +
		"# GangsimParam: refill-penalty=0s\n" +
		"# GangsimParam: variant=switching-valid\n" +
		"series,nodes,us\n" +
		"occupancy=0,2,380\n" +
		"occupancy=0,16,5692\n"
	if out != want {
		t.Errorf("curve:\n%s\nwant:\n%s", out, want)
	}
	// The manifest reads back as one.
	h := manifestHeader(t, out)
	if m, ok := model.ManifestOf(&h); !ok || m.Tool != "replay hw" || len(m.Inputs) != 0 {
		t.Errorf("manifest %+v", m)
	}

	// The refill penalty adds itself to every switch: crescendo's 57 us
	// strobe and local switch on 32 nodes, plus 2 ms.
	out, _, err = hw(t, "", "curve", "crescendo", "switch", "--refill-penalty", "2ms", "--nodes", "32", "--occupancy", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "series,nodes,us\noccupancy=1,32,2057\n") || !strings.Contains(out, "# GangsimParam: refill-penalty=0.002s\n") {
		t.Errorf("crescendo switch with a 2 ms refill penalty:\n%s", out)
	}

	// Every kind's header, at its defaults.
	for _, tc := range []struct {
		preset, kind, header string
		rows                 int
	}{
		{"parpar", "switch", "series,nodes,us", 10},
		{"parpar", "latency", "series,bytes,us", 36},
		{"parpar", "bandwidth", "series,bytes,MB/s", 36},
		{"parpar", "launch", "series,nodes,ms", 5},
		{"parpar", "total-bandwidth", "series,bytes,MB/s", 28},
		{"parpar", "stages", "series,nodes,ms", 20},
		{"parpar", "swap", "series,valid_packets,ms", 16},
		{"rwc-pc2", "channel", "series,occupancy,ms", 10},
		{"rwc-pc2", "phases", "series,nodes,ms", 63},
		{"ss20", "overhead", "series,processors,ms", 8},
		{"rwc-pc2", "slowdown", "series,slice_ms,%", 21},
		{"wolverine", "bandwidth-table", "series,cable_m,MiB/s", 54},
		{"wolverine", "broadcast", "series,nodes,MiB/s", 15},
		{"wolverine", "launch-models", "series,nodes,ms", 30},
		{"wolverine", "launchers", "series,nodes,s", 42},
		{"asci-q", "switch", "series,nodes,us", 24},
		{"calypso-nt", "launch", "series,nodes,ms", 4},
	} {
		out, _, err := hw(t, "", "curve", tc.preset, tc.kind)
		if err != nil {
			t.Errorf("%s %s: %v", tc.preset, tc.kind, err)
			continue
		}
		var data []string
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !strings.HasPrefix(l, "# ") {
				data = append(data, l)
			}
		}
		if data[0] != tc.header || len(data)-1 != tc.rows || !strings.HasPrefix(out, "# GangsimTool: replay hw\n") {
			t.Errorf("%s %s: header %q and %d rows, want %q and %d", tc.preset, tc.kind, data[0], len(data)-1, tc.header, tc.rows)
		}
	}
}

// TestHWPresetFile: an edited copy of a preset, from a file or stdin, gives
// its own curve and records its digest.
func TestHWPresetFile(t *testing.T) {
	orig, _, err := hw(t, "", "preset", "parpar")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(orig, `"protocol_per_node_us": 189.71`, `"protocol_per_node_us": 300`, 1)
	if edited == orig {
		t.Fatal("protocol_per_node_us not in the preset")
	}
	file := filepath.Join(t.TempDir(), "mine.json")
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(edited))
	sha := hex.EncodeToString(sum[:])
	csvOut := filepath.Join(t.TempDir(), "switch.csv")
	stdout, _, err := hw(t, "", "curve", "--preset-file", file, "switch", "--nodes", "16", "--occupancy", "0", "-o", csvOut)
	if err != nil || stdout != "" {
		t.Fatalf("curve to -o: %v, stdout %q", err, stdout)
	}
	got, err := os.ReadFile(csvOut)
	if err != nil {
		t.Fatal(err)
	}
	// 2 x 15 x 300 us.
	for _, want := range []string{"# GangsimParam: preset-sha256=" + sha + "\n", "# GangsimInput: " + sha + " " + file + "\n", "occupancy=0,16,9000\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("edited preset's curve lacks %q:\n%s", want, got)
		}
	}
	fromStdin, _, err := hw(t, edited, "curve", "--preset-file", "-", "switch", "--nodes", "16", "--occupancy", "0")
	if err != nil || !strings.Contains(fromStdin, "occupancy=0,16,9000\n") || !strings.Contains(fromStdin, "# GangsimInput: "+sha+" -\n") {
		t.Errorf("preset from stdin: %v\n%s", err, fromStdin)
	}
	// A broken file is an error of the input, not of the command line.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(strings.Replace(orig, `"refill_fraction"`, `"refil_fraction"`, 1)), 0o644)
	if _, _, err := hw(t, "", "curve", "--preset-file", bad, "switch"); err == nil || errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), `unknown field "refil_fraction"`) {
		t.Errorf("misspelt field: %v", err)
	}
	if _, _, err := hw(t, "", "curve", "--preset-file", filepath.Join(t.TempDir(), "none.json"), "switch"); err == nil || errors.Is(err, cli.ErrUsage) {
		t.Errorf("missing file: %v", err)
	}
}

func TestHWUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		text string
	}{
		{nil, "no command given (want one of list, preset, kinds, curve, items)"},
		{[]string{"lsit"}, `unknown command "lsit"`},
		{[]string{"list", "extra"}, "want no arguments"},
		{[]string{"preset"}, "want a preset NAME"},
		{[]string{"kinds", "parpar", "ss20"}, "at most a preset NAME"},
		{[]string{"curve", "parpar"}, "want a preset NAME and a KIND"},
		{[]string{"curve", "mars", "switch"}, `unknown preset "mars" (want one of accelerando`},
		{[]string{"curve", "parpar", "phases"}, `unknown curve kind "phases" for parpar (a myrinet preset): want one of switch, latency, bandwidth, launch, total-bandwidth, stages, swap`},
		{[]string{"curve", "--preset-file", "x.json", "parpar", "switch"}, "with --preset-file, want one argument, the KIND"},
		{[]string{"curve", "parpar", "switch", "--bytes", "16"}, "switch does not take --bytes"},
		{[]string{"curve", "parpar", "swap", "--refill-penalty", "1ms"}, "does not take --refill-penalty"},
		{[]string{"curve", "parpar", "switch", "--refill-penalty", "1500ns"}, `--refill-penalty: duration "1500ns" is not a whole number of microseconds`},
		{[]string{"curve", "ss20", "slowdown", "--quantum", "50ms,1ns"}, `invalid argument "50ms,1ns" for "--quantum" flag: duration "1ns" is not a whole number of microseconds`},
		{[]string{"curve", "parpar", "switch", "--refill-penalty", "-1ms"}, `duration "-1ms" is negative`},
		{[]string{"curve", "parpar", "switch", "--variant", "voluntary"}, `unknown model variant "voluntary" for myrinet (want switching-valid, switching-full, division)`},
		{[]string{"curve", "parpar", "stages", "--variant", "division"}, "the division variant switches no buffers"},
		{[]string{"curve", "parpar", "switch", "--jobs", "0"}, "--jobs 0: must be at least 1"},
		{[]string{"curve", "parpar", "switch", "--nodes", "four"}, `invalid argument "four"`},
		{[]string{"curve", "ss20", "slowdown", "--occupancy", "0,1"}, "--occupancy takes one value, got 2"},
		{[]string{"items", "--only", "etsion/fig-7"}, `unknown hardware reproduction "etsion/fig-7" (want one of etsion/fig-5, etsion/fig-6, etsion/switch-cost, hori96/table-2`},
		{[]string{"items", "extra"}, "want no arguments"},
	} {
		_, _, err := hw(t, "", tc.args...)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("hw %v: %v, want a usage error containing %q", tc.args, err, tc.text)
		}
	}
	for _, args := range [][]string{{"--help"}, {"curve", "--help"}, {"items", "-h"}} {
		if _, _, err := hw(t, "", args...); !errors.Is(err, pflag.ErrHelp) {
			t.Errorf("hw %v: %v, want ErrHelp", args, err)
		}
	}
}

// TestHWItems writes every reproduction into a temporary directory twice
// and checks the files: every item, its manifest, the figures' PNGs, the
// agreement with the papers, and byte-identical runs.
func TestHWItems(t *testing.T) {
	var dirs [2]string
	var stderr string
	for i := range dirs {
		dirs[i] = t.TempDir()
		var err error
		if _, stderr, err = hw(t, "", "items", "-o", dirs[i]); err != nil {
			t.Fatal(err)
		}
	}
	keys := hardware.Keys()
	var files []string
	filepath.WalkDir(dirs[0], func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dirs[0], path)
			files = append(files, rel)
		}
		return nil
	})
	var want []string
	for _, k := range keys {
		want = append(want, k+".csv")
		if strings.Contains(k, "/fig-") {
			want = append(want, k+".png")
		}
	}
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	for _, f := range files {
		a, _ := os.ReadFile(filepath.Join(dirs[0], f))
		b, _ := os.ReadFile(filepath.Join(dirs[1], f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", f)
		}
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != len(keys) {
		t.Errorf("%d summary lines for %d items:\n%s", len(lines), len(keys), stderr)
	}
	for i, k := range keys {
		f, err := os.Open(filepath.Join(dirs[0], k+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		it, h, err := repro.ReadCSV(f, k)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		m, ok := model.ManifestOf(h)
		item, _ := m.Param("item")
		sha, _ := m.Param("preset-sha256")
		if !ok || m.Tool != "replay hw" || m.Version != version.Version || item != k || len(sha) != 64 {
			t.Errorf("%s: manifest %+v", k, m)
		}
		rw, rn, ch, cn := it.Check()
		if rn == 0 && cn == 0 {
			t.Errorf("%s compares nothing with its paper", k)
		}
		// Every item agrees with its paper but two, each by one claim:
		// etsion/switch-cost (the send buffer is the costly part of the
		// swap, E&F 4.2), which the paper's own bandwidths contradict (see
		// hwmodel/myrinet), and frachtenberg/fig-4.15 (a gain over linear
		// slowdown from overlapping communication, 4.3.3.3), which the
		// job-level model cannot give. mclaughlin/exp-1's round robin
		// misses two of the paper's times (repro/hardware checks it).
		agrees := rw == rn && ch == cn
		oneClaimShort := k == "etsion/switch-cost" || k == "frachtenberg/fig-4.15"
		if k == "mclaughlin/exp-1" {
			agrees = true // not held to it here
		}
		if agrees == oneClaimShort || oneClaimShort && (rw != rn || ch != cn-1) {
			t.Errorf("%s: cells %d/%d, claims %d/%d", k, rw, rn, ch, cn)
		}
		if i < len(lines) && !strings.HasPrefix(lines[i], "replay hw: "+k+" (") {
			t.Errorf("summary line %d: %q", i, lines[i])
		}
		if strings.Contains(k, "/fig-") {
			if it.Figure != k+".png" {
				t.Errorf("%s: figure %q", k, it.Figure)
			}
			data, err := os.ReadFile(filepath.Join(dirs[0], k+".png"))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil || img.Bounds().Dx() < 500 {
				t.Errorf("%s.png: %v", k, err)
			}
			if !bytes.Contains(data, []byte("tEXtGangsimParam\x00item="+k)) {
				t.Errorf("%s.png lacks its manifest", k)
			}
		} else if it.Figure != "" {
			t.Errorf("%s: a table with figure %q", k, it.Figure)
		}
	}
	if !strings.Contains(stderr, "replay hw: frachtenberg/table-4.3 (wolverine): cells within tolerance 54/54, claims holding 4/4 -> ") ||
		!strings.Contains(stderr, "replay hw: etsion/switch-cost (parpar): cells within tolerance 2/2, claims holding 5/6; DISAGREES with the paper") {
		t.Errorf("summary:\n%s", stderr)
	}

	// --only writes the one item; --strict fails on a disagreeing one.
	dir := t.TempDir()
	if _, _, err := hw(t, "", "items", "-o", dir, "--only", "hori98/fig-6", "--strict", "-q"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "hori98"))
	if len(entries) != 2 {
		t.Errorf("--only hori98/fig-6 wrote %d files", len(entries))
	}
	_, _, err := hw(t, "", "items", "-o", dir, "--only", "etsion/switch-cost", "--strict", "-q")
	if err == nil || errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "1 items disagree with their papers: etsion/switch-cost") {
		t.Errorf("--strict: %v", err)
	}
}

// TestHWItemsFigureFlags: replay hw items saves its figures at the size,
// resolution and formats of --figure-size, --figure-dpi and
// --figure-formats (make figures FIGURE_SIZE=... passes them), as replay
// sweep does, tables untouched; a bad value is a usage error.
func TestHWItemsFigureFlags(t *testing.T) {
	dir := t.TempDir()
	for _, key := range []string{"hori98/fig-6", "mclaughlin/fig-3"} {
		if _, _, err := hw(t, "", "items", "-o", dir, "--only", key, "--figure-size", "6inx4in", "--figure-dpi", "150", "--figure-formats", "png,svg,pdf", "-q"); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, key+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Bounds().Size(); got.X != 900 || got.Y != 600 {
			t.Errorf("%s.png: %v pixels, want 6 x 4 in at 150 dpi, 900 x 600", key, got)
		}
		for _, ext := range []string{".svg", ".pdf"} {
			if b, err := os.ReadFile(filepath.Join(dir, key+ext)); err != nil || !bytes.Contains(b, []byte("GangsimTool")) {
				t.Errorf("%s%s: %v, or no manifest", key, ext, err)
			}
		}
	}
	for _, bad := range [][]string{{"--figure-size", "6x4"}, {"--figure-dpi", "-1"}, {"--figure-formats", "gif"}} {
		_, _, err := hw(t, "", append([]string{"items", "-o", dir, "--only", "hori98/fig-6"}, bad...)...)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
}

func mustPreset(t *testing.T, name string) presets.Preset {
	t.Helper()
	p, err := presets.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// manifestHeader reads the "# key: value" lines at the top of a CSV.
func manifestHeader(t *testing.T, csv string) model.Header {
	t.Helper()
	var h model.Header
	for _, l := range strings.Split(csv, "\n") {
		k, v, ok := strings.Cut(strings.TrimPrefix(l, "# "), ": ")
		if !strings.HasPrefix(l, "# ") || !ok {
			break
		}
		h.Add(k, v)
	}
	return h
}
