//go:build linux

package atomicfile

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openUnnamed creates an unnamed file in dir (O_TMPFILE): it has no name
// until link gives it one, and the kernel frees it if the process dies
// first, so even a killed run leaves nothing behind. ok is false where the
// file system does not support it. The *os.File is named name, the output
// it becomes, which its errors then name ("write out.csv: no space left
// on device").
func openUnnamed(dir, name string) (f *os.File, ok bool) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), name), true
}

// link gives the unnamed file f the name tmp in dir's file system.
func link(f *os.File, tmp string) error {
	src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	if err := unix.Linkat(unix.AT_FDCWD, src, unix.AT_FDCWD, tmp, unix.AT_SYMLINK_FOLLOW); err != nil {
		return fmt.Errorf("linking %s: %w", tmp, err)
	}
	return nil
}
