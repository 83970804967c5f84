//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// dupFile returns a new *os.File for a duplicate of descriptor fd, which
// closing leaves fd open.
func dupFile(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}
