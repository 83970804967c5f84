// Package cli is the plumbing shared by gangsim's commands: exit codes,
// error and usage reporting, flag sets, --help and --version, terminal
// detection. Commands follow one shape: main only calls Main with a
// run(args, stdin, stdout, stderr) function; flags live in a pflag set
// inside run; data goes to stdout, messages to stderr as "prog: message";
// exit status 0 on success, 1 on failure (a failed write to standard
// output included), 2 on a usage error. --help and --version print to
// standard output and exit 0.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/gangsim/gangsim/internal/version"
	"github.com/gangsim/gangsim/model"
)

// ErrUsage marks an error in how a command was invoked; Main exits 2.
var ErrUsage = errors.New("usage error")

// usageError wraps ErrUsage with a message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Unwrap() error { return ErrUsage }

// Usagef returns an error that prints as the formatted message and matches
// ErrUsage.
func Usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// commandError names the subcommand an error came from, so that the usage
// hint names it too.
type commandError struct {
	cmd string // e.g. "replay hw"
	err error
}

func (e *commandError) Error() string { return e.err.Error() }
func (e *commandError) Unwrap() error { return e.err }

// InCommand marks err (if not nil) as coming from the subcommand cmd (e.g.
// "replay hw"): Exit then points a usage error at "cmd --help".
func InCommand(cmd string, err error) error {
	if err == nil {
		return nil
	}
	return &commandError{cmd: cmd, err: err}
}

// RunFunc is a command's body.
type RunFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer) error

// Help is the error Parse returns for --help and --version: the text to
// print on standard output, after which the command exits 0. It matches
// pflag.ErrHelp.
type Help struct{ Text string }

func (h *Help) Error() string { return "help requested" }
func (h *Help) Unwrap() error { return pflag.ErrHelp }

// Version returns the --version text of prog: the module version of the
// build information (set by go install module@version), else the gangsim
// version constant; the VCS revision and time the build stamped, else the
// revision make build set (version.Revision), else "unknown" (a test
// binary, a build outside a checkout); the Go version; and the identity
// of the code (version.Code), which the run cache keys on and every
// manifest records beside the revision.
func Version(prog string) *Help {
	bi, ok := debug.ReadBuildInfo()
	return &Help{Text: versionText(prog, bi, ok)}
}

// versionText formats Version's text from the build information bi (ok
// false when there is none).
func versionText(prog string, bi *debug.BuildInfo, ok bool) string {
	b := version.FromBuildInfo(bi, ok)
	rev, at, dirty := "unknown", "", ""
	if b.Revision != "" {
		rev = b.Revision
	}
	if b.Time != "" {
		at = " " + b.Time
	}
	if b.Modified {
		dirty = " (modified)"
	}
	return fmt.Sprintf("%s (gangsim) %s\nrevision %s%s%s\n%s\ncode %s\n", prog, b.Version, rev, at, dirty, b.Go, version.Code())
}

// Main runs run with the process's arguments and standard streams and exits:
// 0 on success, 2 on a usage error, 1 on any other error, after printing
// "prog: error" to stderr. A failed write to standard output (a full disk,
// /dev/full) is an error even when run did not notice it. SIGINT and
// SIGTERM end the process with status 130 and 143; outputs written through
// atomicfile are left unpublished.
func Main(prog string, run RunFunc) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		fmt.Fprintf(os.Stderr, "%s: interrupted\n", prog)
		if s == syscall.SIGTERM {
			os.Exit(143)
		}
		os.Exit(130)
	}()
	os.Exit(Run(prog, run, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Run runs run as Main does and returns the exit status: it prints the
// text of --help and --version to stdout, and checks every write to
// stdout.
func Run(prog string, run RunFunc, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	err := run(args, stdin, out, stderr)
	var h *Help
	if errors.As(err, &h) {
		io.WriteString(out, h.Text)
		err = nil
	}
	if (err == nil || errors.Is(err, pflag.ErrHelp)) && out.err != nil {
		err = fmt.Errorf("writing standard output: %w", out.err)
	}
	return Exit(prog, err, stderr)
}

// checkedWriter remembers the first write error. Commands pass it on as
// their stdout, so that it is still an *os.File for IsTerminal.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// File returns the underlying *os.File, if any.
func (c *checkedWriter) File() (*os.File, bool) {
	f, ok := c.w.(*os.File)
	return f, ok
}

// Exit reports err on stderr as "prog: err" and returns the exit status:
// 0 for nil, 2 for a usage error, 1 otherwise. Help requests exit 0.
func Exit(prog string, err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		cmd := prog
		var ce *commandError
		if errors.As(err, &ce) {
			cmd = ce.cmd
		}
		fmt.Fprintf(stderr, "run '%s --help' for usage\n", cmd)
		return 2
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	return 1
}

// NewFlagSet returns a flag set that reports errors instead of exiting,
// with the flags --help (-h) and --version, which Parse turns into a
// *Help: the synopsis and the flags, or the version.
func NewFlagSet(name, synopsis string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() {} // Parse returns the help instead
	fs.Bool("version", false, "print the version (gangsim's and the build's revision) and exit")
	fs.BoolP("help", "h", false, "print this help and exit")
	fs.Lookup("help").Annotations = map[string][]string{"synopsis": {synopsis}}
	return fs
}

// Parse parses args into fs, turning flag errors into usage errors and
// --help and --version into a *Help.
func Parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return Usagef("%v", err)
	}
	if v, _ := fs.GetBool("help"); v {
		syn := ""
		if f := fs.Lookup("help"); f != nil && len(f.Annotations["synopsis"]) > 0 {
			syn = f.Annotations["synopsis"][0]
		}
		return &Help{Text: fmt.Sprintf("%s\n\nFlags:\n%s", syn, fs.FlagUsages())}
	}
	if v, _ := fs.GetBool("version"); v {
		return Version(fs.Name())
	}
	return nil
}

// CheckProcs refuses a processor count given by flag that is negative or
// beyond model.MaxProcs, as a usage error naming the flag ("--procs -4 is
// negative"): the one bound of every processor flag of every command.
func CheckProcs(flag string, n int64) error {
	if err := model.CheckProcs(n); err != nil {
		return Usagef("%s %v", flag, err)
	}
	return nil
}

// IsTerminal reports whether w is a terminal (golang.org/x/term: the
// terminal ioctl succeeds), where binary data must not be written.
// /dev/null, a character device but no terminal, is not one.
func IsTerminal(w io.Writer) bool {
	var f *os.File
	switch w := w.(type) {
	case *os.File:
		f = w
	case interface{ File() (*os.File, bool) }:
		var ok bool
		if f, ok = w.File(); !ok {
			return false
		}
	default:
		return false
	}
	return term.IsTerminal(int(f.Fd()))
}

// terminalWidth returns the columns of the terminal fd, 0 if it does not
// say.
func terminalWidth(fd uintptr) int {
	cols, _, err := term.GetSize(int(fd))
	if err != nil {
		return 0
	}
	return cols
}

// Call runs a command body with args and stdin (empty when nil) and returns
// what it wrote to stdout and stderr: how tests, and programs that embed a
// command, invoke it without a process. The text of a *Help error goes to
// stdout, as Main prints it.
func Call(run RunFunc, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	var o, e strings.Builder
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	err = run(args, stdin, &o, &e)
	var h *Help
	if errors.As(err, &h) {
		o.WriteString(h.Text)
	}
	return o.String(), e.String(), err
}
