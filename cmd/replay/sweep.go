package main

import (
	"io"

	"github.com/gangsim/gangsim/internal/cli"
)

// runSweep is "replay sweep": experiments as data. It is being written;
// until then it says so.
func runSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return cli.Usagef("replay sweep: not available in this build yet")
}
