package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/gangsim/gangsim/columnar"
	"github.com/gangsim/gangsim/hwmodel"
	"github.com/gangsim/gangsim/hwmodel/presets"
	"github.com/gangsim/gangsim/internal/atomicfile"
	"github.com/gangsim/gangsim/internal/cli"
	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
	"github.com/gangsim/gangsim/plots"
	"github.com/gangsim/gangsim/repro/hardware"
)

const hwSynopsis = `usage: replay hw list
       replay hw preset NAME
       replay hw kinds [NAME]
       replay hw curve NAME KIND [flags]
       replay hw curve --preset-file FILE KIND [flags]
       replay hw items [-o RESULTS] [--only PAPER/ITEM,...] [--figure-size WxH] [--figure-dpi N] [--figure-formats png,svg,pdf]

The hardware cost models of the papers (Myrinet/FM, PM/SCore-D, QsNet/STORM,
Calypso) and their named presets, the papers' clusters:

  list     every preset: name, model family, nodes x PEs, network, description
  preset   the preset's JSON, verbatim: a copy to edit and give to --preset-file
  kinds    the curve kinds and model variants of a preset (of every family
           without NAME), with each kind's flags and their defaults
  curve    a model's curve as CSV on stdout (or -o FILE), after "# key: value"
           manifest lines: the tool, version, preset, its SHA-256 and every
           parameter. Run "replay hw curve --help" for the flags.
  items    writes every reproduction of the papers by the hardware models,
           and McLaughlin and Dasgupta's schedules replayed under dcs on
           calypso-nt (mclaughlin/exp-1, exp-2, fig-3, fig-4), to
           RESULTS/<paper>/<item>.csv, and for figures RESULTS/<paper>/<item>.png,
           with a summary line per item on stderr; the gang-scheduling
           figures (etsion/fig-6, hori96/fig-8, hori98/fig-6, frachtenberg/
           fig-4.13 to 4.15) replay the papers' benchmark runs through gs;
           --figure-size, --figure-dpi and --figure-formats save the figures
           as replay sweep's flags of the same names do

Examples:
  replay hw list
  replay hw preset parpar > mine.json
  replay hw curve parpar bandwidth --variant division --contexts 1,2,4,8
  replay hw curve --preset-file mine.json switch --nodes 2,4,8,16 --occupancy 0,0.5,1
  replay hw curve crescendo switch --refill-penalty 2ms
  replay hw curve wolverine launch-models --nodes 64,1024,16384 -o launch.csv
  replay hw items -o results
  replay hw items -o results --only frachtenberg/fig-4.12
  replay hw items -o results --figure-size 6inx4in --figure-dpi 300 --figure-formats png,pdf`

const hwCurveSynopsis = `usage: replay hw curve NAME KIND [flags]
       replay hw curve --preset-file FILE KIND [flags]

Writes a model's curve for a preset as CSV: "# key: value" manifest lines,
then the header "series,<x>,<y>" and one line per point. KIND is one of the
preset's curve kinds (replay hw kinds NAME lists them with their flags and
defaults): switch, latency, bandwidth and launch for every preset, through
its cost model with the chosen variant and refill penalty, and each family's
own (myrinet: total-bandwidth, stages, swap; pm: channel, phases, overhead,
slowdown; qsnet: bandwidth-table, broadcast, launch-models, launchers). A
flag the kind does not take is an error; a flag left out takes the kind's
default. Lists are comma-separated; durations are Go durations (50ms, 3s)
in whole microseconds.

Examples:
  replay hw curve parpar switch --variant switching-full --nodes 2,4,8,16
  replay hw curve ss20 slowdown --variant voluntary --quantum 200ms,1s
  replay hw preset crescendo > mine.json   # edit local_switch_us, then:
  replay hw curve --preset-file mine.json switch`

// runHW is "replay hw": the hardware cost models' presets, curves and
// reproductions.
func runHW(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	commands := []string{"list", "preset", "kinds", "curve", "items"}
	if len(args) == 0 {
		fmt.Fprintln(stderr, hwSynopsis)
		return cli.Usagef("hw: no command given (want one of %s)", strings.Join(commands, ", "))
	}
	switch args[0] {
	case "-h", "--help":
		return &cli.Help{Text: hwSynopsis + "\n"}
	case "--version":
		return cli.Version("replay hw")
	case "list":
		return hwList(args[1:], stdout, stderr)
	case "preset":
		return hwPreset(args[1:], stdout, stderr)
	case "kinds":
		return hwKinds(args[1:], stdout, stderr)
	case "curve":
		return hwCurve(args[1:], stdin, stdout, stderr)
	case "items":
		return hwItems(args[1:], stderr)
	}
	return cli.Usagef("hw: unknown command %q (want one of %s)", args[0], strings.Join(commands, ", "))
}

// hwArgs parses a subcommand's flags and checks its positional arguments'
// count, from min to max.
func hwArgs(fs *pflag.FlagSet, args []string, min, max int, what string) error {
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if n := fs.NArg(); n < min || n > max {
		return cli.Usagef("%s: want %s, got %d arguments", fs.Name(), what, n)
	}
	return nil
}

// hwGet returns an embedded preset, a usage error listing them for a name
// that is none.
func hwGet(name string) (presets.Preset, error) {
	p, err := presets.Get(name)
	if err != nil {
		return presets.Preset{}, cli.Usagef("%v", err)
	}
	return p, nil
}

func hwList(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("replay hw list", hwSynopsis, stderr)
	if err := hwArgs(fs, args, 0, 0, "no arguments"); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tFAMILY\tNODESxPES\tNETWORK\tDESCRIPTION")
	for _, p := range presets.All() {
		info := p.Info()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name(), p.Family, p.Machine(), info.Network, info.Description)
	}
	return tw.Flush()
}

func hwPreset(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("replay hw preset", hwSynopsis, stderr)
	if err := hwArgs(fs, args, 1, 1, "a preset NAME"); err != nil {
		return err
	}
	p, err := hwGet(fs.Arg(0))
	if err != nil {
		return err
	}
	_, err = stdout.Write(p.JSON)
	return err
}

func hwKinds(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("replay hw kinds", hwSynopsis, stderr)
	if err := hwArgs(fs, args, 0, 1, "at most a preset NAME"); err != nil {
		return err
	}
	var list []presets.Preset
	if fs.NArg() == 1 {
		p, err := hwGet(fs.Arg(0))
		if err != nil {
			return err
		}
		list = []presets.Preset{p}
	} else {
		// One preset of each family: the kinds and variants are the
		// family's; the defaults shown are that preset's.
		for _, f := range presets.Families() {
			for _, p := range presets.All() {
				if p.Family == f.Name {
					list = append(list, p)
					break
				}
			}
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for i, p := range list {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		var f presets.Family
		for _, g := range presets.Families() {
			if g.Name == p.Family {
				f = g
			}
		}
		fmt.Fprintf(tw, "%s family (%s); defaults for %s (%s):\n", f.Name, f.Papers, p.Name(), p.Machine())
		fmt.Fprintln(tw, "  variants (--variant):")
		for j, v := range f.Variants {
			def := ""
			if j == 0 {
				def = " (default)"
			}
			fmt.Fprintf(tw, "    %s%s\t%s\n", v.Name, def, v.Description)
		}
		fmt.Fprintln(tw, "  curve kinds:")
		for _, k := range p.Kinds() {
			fmt.Fprintf(tw, "    %s\t%s\n", k.Name, k.Description)
			a, err := k.Resolve(p, presets.Params{})
			if err != nil {
				return err
			}
			var flags []string
			for _, mp := range k.ManifestParams(p, a) {
				one := ""
				if slices.Contains(k.Single, mp.Name) {
					one = " (one value)"
				}
				flags = append(flags, fmt.Sprintf("--%s %s%s", mp.Name, mp.Value, one))
			}
			if len(flags) == 0 {
				flags = []string{"no flags"}
			}
			fmt.Fprintf(tw, "    \t  %s\n", strings.Join(flags, "  "))
		}
	}
	return tw.Flush()
}

// curveOptions are replay hw curve's flags.
type curveOptions struct {
	fs                 *pflag.FlagSet
	presetFile, output *string
	variant, refill    *string
	args               presets.Params // the lists and --jobs, as given
	jobs               *int
}

func curveFlags(stderr io.Writer) *curveOptions {
	fs := cli.NewFlagSet("replay hw curve", hwCurveSynopsis, stderr)
	o := &curveOptions{fs: fs,
		presetFile: fs.String("preset-file", "", "read the preset from `FILE` (- for stdin), e.g. an edited copy of 'replay hw preset NAME', instead of naming one"),
		output:     fs.StringP("output", "o", "-", "write the CSV to `FILE` (atomically) instead of stdout"),
		variant:    fs.String(presets.ParamVariant, "", "model variant `NAME` (default: the family's first; see replay hw kinds)"),
		refill:     fs.String(presets.ParamRefillPenalty, "", "cache and working-set refill `DURATION` added to every gang switch, "+model.DurationSyntax+" (default: the preset's refill_penalty_us)"),
	}
	a := &o.args
	listFlag(fs, &a.Nodes, presets.ParamNodes, "node counts, `N,...`", strconv.Atoi)
	listFlag(fs, &a.Bytes, presets.ParamBytes, "message sizes in `BYTES,...`", parseInt64)
	listFlag(fs, &a.Contexts, presets.ParamContexts, "communication contexts (jobs) sharing each NIC, `N,...`", strconv.Atoi)
	listFlag(fs, &a.Occupancy, presets.ParamOccupancy, "fractions, 0 to 1, of the NIC buffers full at a switch, `F,...`", parseFloat)
	listFlag(fs, &a.Quanta, presets.ParamQuantum, "time quanta (slices), e.g. `50ms,100ms`", model.ParseDuration)
	listFlag(fs, &a.BinaryBytes, presets.ParamBinaryBytes, "sizes of the launched binary in `BYTES,...`", parseInt64)
	listFlag(fs, &a.Cables, presets.ParamCables, "cable lengths in `METERS,...`", parseFloat)
	listFlag(fs, &a.Packets, presets.ParamPackets, "valid packets in a buffer, `N,...`", strconv.Atoi)
	o.jobs = fs.Int(presets.ParamJobs, 0, "`N` jobs time-sharing the machine at a switch (default 2)")
	return o
}

func hwCurve(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := curveFlags(stderr)
	if err := cli.Parse(o.fs, args); err != nil {
		return err
	}
	p, kind, inputs, err := o.preset(stdin)
	if err != nil {
		return err
	}
	k, err := p.Kind(kind)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	a, err := o.params(&p, k)
	if err != nil {
		return err
	}
	cv, err := k.Curve(p, a)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	params := []model.Param{
		{Name: "command", Value: "curve"},
		{Name: "preset", Value: p.Name()},
		{Name: "preset-sha256", Value: p.SHA256()},
		{Name: "family", Value: p.Family},
		{Name: "kind", Value: k.Name},
	}
	params = append(params, k.ManifestParams(p, a)...)
	man := model.Manifest{Tool: "replay hw", Version: version.Version, Revision: version.RevisionText(), Code: version.Code(), Params: params, Inputs: inputs}
	return writeCurve(*o.output, &man, cv, stdout)
}

// preset returns the preset the curve is drawn for (named, or read from
// --preset-file, which is then the input), and the curve's kind.
func (o *curveOptions) preset(stdin io.Reader) (presets.Preset, string, []model.Input, error) {
	fs := o.fs
	if !fs.Changed("preset-file") {
		if fs.NArg() != 2 {
			return presets.Preset{}, "", nil, cli.Usagef("hw curve: want a preset NAME and a KIND (or --preset-file FILE and a KIND); got %d arguments", fs.NArg())
		}
		p, err := hwGet(fs.Arg(0))
		return p, fs.Arg(1), nil, err
	}
	if fs.NArg() != 1 {
		return presets.Preset{}, "", nil, cli.Usagef("hw curve: with --preset-file, want one argument, the KIND; got %d", fs.NArg())
	}
	data, err := readInput(*o.presetFile, stdin)
	if err != nil {
		return presets.Preset{}, "", nil, err
	}
	p, err := presets.Load(bytes.NewReader(data))
	if err != nil {
		return presets.Preset{}, "", nil, fmt.Errorf("%s: %w", *o.presetFile, err)
	}
	sum := sha256.Sum256(data)
	return p, fs.Arg(0), []model.Input{{Name: *o.presetFile, SHA256: hex.EncodeToString(sum[:])}}, nil
}

// params checks the curve's flags against kind k and resolves them on p
// (whose refill penalty --refill-penalty replaces).
func (o *curveOptions) params(p *presets.Preset, k presets.Kind) (presets.Params, error) {
	a := o.args
	a.Variant = *o.variant
	if o.fs.Changed(presets.ParamRefillPenalty) {
		if !k.Takes(presets.ParamRefillPenalty) {
			return a, cli.Usagef("curve %s does not take --%s: only the kinds drawn through the cost model do (switch)", k.Name, presets.ParamRefillPenalty)
		}
		d, err := model.ParseDuration(*o.refill)
		if err != nil {
			return a, cli.Usagef("--%s: %v", presets.ParamRefillPenalty, err)
		}
		p.RefillPenalty = d
	}
	a.Jobs = *o.jobs
	if o.fs.Changed(presets.ParamJobs) && *o.jobs < 1 {
		return a, cli.Usagef("--%s %d: must be at least 1", presets.ParamJobs, *o.jobs)
	}
	a, err := k.Resolve(*p, a)
	if err != nil {
		return a, cli.Usagef("%v", err)
	}
	return a, nil
}

// writeCurve writes the curve as CSV after its manifest to name (-:
// stdout), atomically.
func writeCurve(name string, man *model.Manifest, cv hwmodel.Curve, stdout io.Writer) error {
	var buf bytes.Buffer
	mw := columnar.NewCSVWriter(&buf)
	mw.Manifest(man)
	if err := mw.Flush(); err != nil {
		return err
	}
	if err := cv.WriteCSV(&buf); err != nil {
		return err
	}
	out, err := atomicfile.Create(name, stdout)
	if err != nil {
		return err
	}
	defer out.Abort()
	if _, err := out.Write(buf.Bytes()); err != nil {
		return err
	}
	return out.Commit()
}

// listValue is a flag holding a comma-separated list: the first use
// replaces the list, later ones append to it.
type listValue[T any] struct {
	list  *[]T
	parse func(string) (T, error)
	text  []string // the values as given
	set   bool
}

// listFlag defines --name as a list of values that parse reads.
func listFlag[T any](fs *pflag.FlagSet, list *[]T, name, usage string, parse func(string) (T, error)) {
	fs.Var(&listValue[T]{list: list, parse: parse}, name, usage)
}

func (l *listValue[T]) Set(s string) error {
	if !l.set {
		*l.list, l.text, l.set = nil, nil, true
	}
	for _, part := range strings.Split(s, ",") {
		v, err := l.parse(strings.TrimSpace(part))
		if err != nil {
			return err
		}
		*l.list = append(*l.list, v)
		l.text = append(l.text, part)
	}
	return nil
}

func (l *listValue[T]) String() string { return strings.Join(l.text, ",") }
func (l *listValue[T]) Type() string   { return "list" }

func parseInt64(s string) (int64, error)   { return strconv.ParseInt(s, 10, 64) }
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// readInput reads a whole file, or stdin for "-".
func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return data, nil
	}
	return os.ReadFile(name)
}

func hwItems(args []string, stderr io.Writer) error {
	fs := cli.NewFlagSet("replay hw items", hwSynopsis, stderr)
	var (
		results = fs.StringP("results", "o", "results", "results directory: items go to DIR/<paper>/<item>.csv|png")
		only    = fs.StringSlice("only", nil, "write only these items, PAPER/ITEM, e.g. hori98/fig-6 (comma-separated or repeated)")
		strict  = fs.Bool("strict", false, "fail (exit 1) when an item disagrees with its paper")
		quiet   = fs.BoolP("quiet", "q", false, "print nothing but errors")
		figures = figureFlags(fs, "")
	)
	if err := hwArgs(fs, args, 0, 0, "no arguments (the items are chosen with --only)"); err != nil {
		return err
	}
	fig, err := figures()
	if err != nil {
		return err
	}
	size := plots.DefaultSize()
	if fig.Size != nil {
		size.Width, size.Height = fig.Size.Width, fig.Size.Height
	}
	if fig.DPI > 0 {
		size.DPI = fig.DPI
	}
	todo := hardware.Reproductions()
	if len(*only) > 0 {
		todo = nil
		for _, key := range *only {
			r, err := hardware.Find(key)
			if err != nil {
				return cli.Usagef("--only: %v", err)
			}
			if !slices.ContainsFunc(todo, func(t hardware.Reproduction) bool { return t.Key() == key }) {
				todo = append(todo, r)
			}
		}
	}
	var disagree []string
	for _, r := range todo {
		it, written, err := r.WriteFormats(*results, size, fig.Formats)
		if err != nil {
			return err
		}
		rw, rn, ch, cn := it.Check()
		verdict := ""
		if !it.Agrees() {
			verdict = "; DISAGREES with the paper"
			disagree = append(disagree, r.Key())
		}
		if !*quiet {
			fmt.Fprintf(stderr, "replay hw: %s (%s): cells within tolerance %d/%d, claims holding %d/%d%s -> %s\n",
				r.Key(), r.Source(), rw, rn, ch, cn, verdict, strings.Join(written, ", "))
		}
	}
	if *strict && len(disagree) > 0 {
		return fmt.Errorf("%d items disagree with their papers: %s", len(disagree), strings.Join(disagree, ", "))
	}
	return nil
}
