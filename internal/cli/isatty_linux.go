//go:build linux

package cli

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal: TCGETS succeeds.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
