package main

import (
	"io"

	"github.com/gangsim/gangsim/internal/cli"
)

// runHW is "replay hw": the hardware cost models' presets, curves and
// reproductions. It is being written; until then it says so.
func runHW(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return cli.Usagef("replay hw: not available in this build yet")
}
