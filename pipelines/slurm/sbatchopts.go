package slurm

import (
	"fmt"
	"sort"
	"strings"
)

// The extra sbatch options of a Slurm sweep go into the batch script, one
// #SBATCH line each, after gangsim's own. CheckOptions reads each line as
// sbatch does (its words split at white space with quotes and backslashes,
// then getopt_long over them: "--name=value", "--name value", "-xVALUE",
// "-x VALUE", bundled short flags and unambiguous prefixes of long names)
// and refuses the options that gangsim sets or depends on.

// optArg is whether an sbatch option takes a value.
type optArg int

const (
	noArg       optArg = iota
	requiredArg        // "--name=value", "--name value", "-xVALUE", "-x VALUE"
	optionalArg        // only "--name=value" or "-xVALUE"
)

// sbatchOption is one of sbatch's options as its getopt_long table has it.
type sbatchOption struct {
	short byte   // 0: long only
	arg   optArg // whether it takes a value
	// same names the option this one is another name of ("" if none):
	// getopt_long takes a prefix of both as either, not as ambiguous.
	same string
}

// sbatchOptions are sbatch's options in Slurm 22.05 (Debian 12's
// slurm-wlm), read from getopt_long's own answers to every prefix
// ("option '--a' is ambiguous; possibilities: ..."), `sbatch --help` and
// the man page. A later sbatch may know more: a long name not here is let
// through (that sbatch refuses it if it does not know it either).
var sbatchOptions = map[string]sbatchOption{
	"account": {'A', requiredArg, ""}, "acctg-freq": {0, requiredArg, ""}, "array": {'a', requiredArg, ""},
	"batch": {0, requiredArg, ""}, "bb": {0, requiredArg, ""}, "bbf": {0, requiredArg, ""},
	"begin": {'b', requiredArg, ""}, "chdir": {'D', requiredArg, ""}, "cluster": {'M', requiredArg, "clusters"},
	"cluster-constraint": {0, requiredArg, ""}, "clusters": {'M', requiredArg, ""}, "comment": {0, requiredArg, ""},
	"constraint": {'C', requiredArg, ""}, "container": {0, requiredArg, ""}, "context": {0, requiredArg, ""},
	"contiguous": {0, noArg, ""}, "core-spec": {'S', requiredArg, ""}, "cores-per-socket": {0, requiredArg, ""},
	"cpu-freq": {0, requiredArg, ""}, "cpus-per-gpu": {0, requiredArg, ""}, "cpus-per-task": {'c', requiredArg, ""},
	"deadline": {0, requiredArg, ""}, "delay-boot": {0, requiredArg, ""}, "dependency": {'d', requiredArg, ""},
	"distribution": {'m', requiredArg, ""}, "error": {'e', requiredArg, ""}, "exclude": {'x', requiredArg, ""},
	"exclusive": {0, optionalArg, ""}, "export": {0, requiredArg, ""}, "export-file": {0, requiredArg, ""},
	"extra-node-info": {'B', requiredArg, ""}, "get-user-env": {0, optionalArg, ""}, "gid": {0, requiredArg, ""},
	"gpu-bind": {0, requiredArg, ""}, "gpu-freq": {0, requiredArg, ""}, "gpus": {'G', requiredArg, ""},
	"gpus-per-node": {0, requiredArg, ""}, "gpus-per-socket": {0, requiredArg, ""}, "gpus-per-task": {0, requiredArg, ""},
	"gres": {0, requiredArg, ""}, "gres-flags": {0, requiredArg, ""}, "help": {'h', noArg, ""},
	"hint": {0, requiredArg, ""}, "hold": {'H', noArg, ""}, "ignore-pbs": {0, noArg, ""},
	"input": {'i', requiredArg, ""}, "job-name": {'J', requiredArg, ""}, "kill-on-invalid-dep": {0, requiredArg, ""},
	"licenses": {'L', requiredArg, ""}, "mail-type": {0, requiredArg, ""}, "mail-user": {0, requiredArg, ""},
	"mcs-label": {0, requiredArg, ""}, "mem": {0, requiredArg, ""}, "mem-bind": {0, requiredArg, ""},
	"mem-per-cpu": {0, requiredArg, ""}, "mem-per-gpu": {0, requiredArg, ""}, "mincpus": {0, requiredArg, ""},
	"network": {0, requiredArg, ""}, "nice": {0, optionalArg, ""}, "no-kill": {'k', optionalArg, ""},
	"no-requeue": {0, noArg, ""}, "nodefile": {'F', requiredArg, ""}, "nodelist": {'w', requiredArg, ""},
	"nodes": {'N', requiredArg, ""}, "ntasks": {'n', requiredArg, ""}, "ntasks-per-core": {0, requiredArg, ""},
	"ntasks-per-gpu": {0, requiredArg, ""}, "ntasks-per-node": {0, requiredArg, ""}, "ntasks-per-socket": {0, requiredArg, ""},
	"ntasks-per-tres": {0, requiredArg, ""}, "open-mode": {0, requiredArg, ""}, "output": {'o', requiredArg, ""},
	"overcommit": {'O', noArg, ""}, "oversubscribe": {'s', noArg, ""}, "parsable": {0, noArg, ""},
	"partition": {'p', requiredArg, ""}, "power": {0, requiredArg, ""}, "prefer": {0, requiredArg, ""},
	"priority": {0, requiredArg, ""}, "profile": {0, requiredArg, ""}, "propagate": {0, optionalArg, ""},
	"qos": {'q', requiredArg, ""}, "quiet": {'Q', noArg, ""}, "reboot": {0, noArg, ""},
	"requeue": {0, noArg, ""}, "reservation": {0, requiredArg, ""}, "signal": {0, requiredArg, ""},
	"sockets-per-node": {0, requiredArg, ""}, "spread-job": {0, noArg, ""}, "switches": {0, requiredArg, ""},
	"tasks-per-node": {0, requiredArg, "ntasks-per-node"}, "test-only": {0, noArg, ""}, "thread-spec": {0, requiredArg, ""},
	"threads-per-core": {0, requiredArg, ""}, "time": {'t', requiredArg, ""}, "time-min": {0, requiredArg, ""},
	"tmp": {0, requiredArg, ""}, "uid": {0, requiredArg, ""}, "usage": {0, noArg, ""},
	"use-min-nodes": {0, noArg, ""}, "verbose": {'v', noArg, ""}, "version": {'V', noArg, ""},
	"wait": {'W', noArg, ""}, "wait-all-nodes": {0, requiredArg, ""}, "wckey": {0, requiredArg, ""},
	"wrap": {0, requiredArg, ""},
}

// sbatchShort maps sbatch's short options to their long names.
var sbatchShort = func() map[byte]string {
	m := map[byte]string{}
	for name, o := range sbatchOptions {
		if o.short != 0 && o.same == "" {
			m[o.short] = name
		}
	}
	return m
}()

// refusedOptions are the sbatch options an extra option may not be, by
// long name, with why.
var refusedOptions = map[string]string{
	"array":     "gangsim sets it: one array task per chunk of runs",
	"output":    "gangsim sets it: the tasks' logs go to the submission's logs directory, where failures are read",
	"error":     "gangsim sets the tasks' --output, whose logs hold their errors too, where failures are read",
	"chdir":     "gangsim sets it: the tasks run in the submitting directory, where relative trace paths resolve",
	"parsable":  "gangsim sets it on sbatch's command line, to read the job ID",
	"wrap":      "the batch script is gangsim's",
	"wait":      "gangsim waits for the tasks itself (and --no-wait returns at once)",
	"test-only": "it submits nothing, and gangsim needs a job ID",
	"clusters":  "gangsim asks the local cluster about the job (squeue, scontrol)",
	"cluster":   "gangsim asks the local cluster about the job (squeue, scontrol)",
	"help":      "it submits nothing",
	"usage":     "it submits nothing",
	"version":   "it submits nothing",
}

// CheckOptions checks the extra sbatch options: each is one #SBATCH line of
// options (usually one, such as "--mem=2G" or "--qos long"), in any form
// sbatch takes, and none of them may be one that gangsim sets or depends
// on (--array, --output, --error, --chdir, --parsable, --wrap, --wait,
// --test-only, --clusters; their short forms and prefixes alike).
func CheckOptions(opts []string) error {
	for _, o := range opts {
		if err := checkOptionLine(o); err != nil {
			return fmt.Errorf("sbatch option %q: %w", o, err)
		}
	}
	return nil
}

// checkOptionLine checks one #SBATCH line's options.
func checkOptionLine(line string) error {
	if strings.ContainsAny(line, "\n\r") {
		return fmt.Errorf("want one line of options, such as --mem=2G")
	}
	lower := strings.ToLower(line)
	if strings.Contains(lower, "hetjob") || strings.Contains(lower, "packjob") {
		return fmt.Errorf(`an #SBATCH line holding "hetjob" or "packjob" starts a heterogeneous job's next component`)
	}
	words, err := sbatchWords(line)
	if err != nil {
		return err
	}
	if len(words) == 0 || !strings.HasPrefix(words[0], "-") {
		return fmt.Errorf("want an option such as --mem=2G")
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-" || w == "--" || !strings.HasPrefix(w, "-"):
			return fmt.Errorf("%q is not an option (an option's value goes after = or a space)", w)
		case strings.HasPrefix(w, "--"):
			name, value, hasValue := strings.Cut(w[2:], "=")
			long, o, err := resolveLong(name)
			if err != nil {
				return err
			}
			if why, ok := refusedOptions[long]; ok {
				return refused("--"+name, long, why)
			}
			switch {
			case o == nil: // unknown here: a later sbatch's, or refused by sbatch
				if !hasValue && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
					i++ // its value, as far as can be told
				}
			case o.arg == noArg && hasValue:
				return fmt.Errorf("--%s takes no value (%q)", long, value)
			case o.arg == requiredArg && !hasValue:
				if i+1 == len(words) {
					return fmt.Errorf("--%s needs a value", long)
				}
				i++ // getopt_long takes the next word, whatever it is
			}
		default: // short options, possibly bundled: -Hp debug, -a0-1
			for j := 1; j < len(w); j++ {
				long, ok := sbatchShort[w[j]]
				if !ok {
					return fmt.Errorf("-%c is not an sbatch option", w[j])
				}
				if why, ok := refusedOptions[long]; ok {
					return refused("-"+string(w[j]), long, why)
				}
				o := sbatchOptions[long]
				if o.arg == noArg {
					continue
				}
				if j+1 == len(w) && o.arg == requiredArg {
					if i+1 == len(words) {
						return fmt.Errorf("-%c (--%s) needs a value", w[j], long)
					}
					i++
				}
				break // the rest of the word is the value
			}
		}
	}
	return nil
}

func refused(given, long, why string) error {
	name := given
	if given != "--"+long {
		name = given + " (--" + long + ")"
	}
	return fmt.Errorf("%s is not allowed: %s", name, why)
}

// resolveLong finds the option a long name given to sbatch means, as
// getopt_long does: the option of that exact name, else the only option it
// is a prefix of (or options that are one under two names). o is nil for a
// name no option of the table starts with.
func resolveLong(name string) (long string, o *sbatchOption, err error) {
	if name == "" {
		return "", nil, fmt.Errorf(`"--" alone ends sbatch's options`)
	}
	if opt, ok := sbatchOptions[name]; ok {
		return name, &opt, nil
	}
	var matches []string
	canonical := map[string]bool{}
	for n, opt := range sbatchOptions {
		if strings.HasPrefix(n, name) {
			matches = append(matches, n)
			if opt.same != "" {
				n = opt.same
			}
			canonical[n] = true
		}
	}
	sort.Strings(matches)
	switch {
	case len(matches) == 0:
		return name, nil, nil
	case len(canonical) > 1:
		// sbatch refuses it too; say so here.
		return "", nil, fmt.Errorf("--%s is ambiguous: --%s", name, strings.Join(matches, ", --"))
	}
	for n := range canonical {
		long = n
	}
	opt := sbatchOptions[long]
	return long, &opt, nil
}

// sbatchWords splits an #SBATCH line into words as sbatch does: at white
// space, with single or double quotes grouping and a backslash escaping the
// next character (both removed). An unquoted # would start a comment that
// drops the rest of the line, and sbatch stops at a word that is only
// quotes, so both are refused here rather than silently lost.
func sbatchWords(line string) ([]string, error) {
	var words []string
	i := 0
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			return words, nil
		}
		var w strings.Builder
		var quote byte
		escaped, quoted := false, false
		for ; i < len(line) && (quote != 0 || !isSpace(line[i])); i++ {
			c := line[i]
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
				continue
			case quote != 0:
				if c == quote {
					quote = 0
					continue
				}
			case c == '"' || c == '\'':
				quote, quoted = c, true
				continue
			case c == '#':
				return nil, fmt.Errorf("an unquoted # starts a comment in an #SBATCH line, which would drop %q: quote it", line[i:])
			}
			w.WriteByte(c)
		}
		if quote != 0 {
			return nil, fmt.Errorf("unmatched %c", quote)
		}
		if w.Len() == 0 && quoted {
			return nil, fmt.Errorf("an empty quoted word ends sbatch's reading of the line")
		}
		if strings.HasPrefix(w.String(), ":") {
			return nil, fmt.Errorf("sbatch refuses a word starting with ':' (%q)", w.String())
		}
		words = append(words, w.String())
	}
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
