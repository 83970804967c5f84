//go:build linux

package cli

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal: TCGETS succeeds.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}

// terminalWidth returns the columns of the terminal fd, 0 if it does not
// say.
func terminalWidth(fd uintptr) int {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
