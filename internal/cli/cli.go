// Package cli is the plumbing shared by gangsim's commands: exit codes,
// error and usage reporting, flag sets, terminal detection. Commands follow
// one shape: main only calls Main with a run(args, stdin, stdout, stderr)
// function; flags live in a pflag set inside run; data goes to stdout,
// messages to stderr as "prog: message"; exit status 0 on success, 1 on
// failure, 2 on a usage error.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
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

// Main runs run with the process's arguments and standard streams and exits:
// 0 on success, 2 on a usage error, 1 on any other error, after printing
// "prog: error" to stderr. SIGINT and SIGTERM end the process with status
// 130 and 143; outputs written through atomicfile are left unpublished.
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
	os.Exit(Exit(prog, run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
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

// NewFlagSet returns a flag set that reports errors instead of exiting and
// prints usage (the synopsis, then the flags) to stderr on --help.
func NewFlagSet(name, synopsis string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags:\n%s", synopsis, fs.FlagUsages())
	}
	return fs
}

// Parse parses args into fs, turning flag errors into usage errors.
func Parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return Usagef("%v", err)
	}
	return nil
}

// IsTerminal reports whether w is a terminal (a character device), where
// binary data must not be written.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Call runs a command body with args and stdin (empty when nil) and returns
// what it wrote to stdout and stderr: how tests, and programs that embed a
// command, invoke it without a process.
func Call(run RunFunc, stdin io.Reader, args ...string) (stdout, stderr string, err error) {
	var o, e strings.Builder
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	err = run(args, stdin, &o, &e)
	return o.String(), e.String(), err
}
