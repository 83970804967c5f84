//go:build !unix

package pipelines

import (
	"errors"
	"os"
)

// tryLock: without flock, nothing is known of who holds a directory.
func tryLock(f *os.File) (held, busy bool, err error) {
	return false, false, errors.New("file locks not supported on this system")
}
