//go:build unix

package pipelines

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting: held reports
// whether it got it, busy whether another open file (of any process) holds
// it. The lock lasts until f is closed or its process ends, however it
// ends (kill -9 included). err is set when the file system does not lock
// (some network file systems), which is neither.
func tryLock(f *os.File) (held, busy bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return true, false, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return false, true, nil
	}
	return false, false, err
}
