//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

func openUnnamed(dir, name string) (*os.File, bool) { return nil, false }

func link(*os.File, string) error { return errors.New("atomicfile: unnamed files are not supported") }
