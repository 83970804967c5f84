//go:build !unix

package atomicfile

import (
	"errors"
	"os"
)

func dupFile(int, string) (*os.File, error) {
	return nil, errors.New("atomicfile: writing to a descriptor by its path is not supported here")
}
