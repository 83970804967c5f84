//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package cli

// isTerminal is false where gangsim cannot ask: binary output is then
// written even to a console.
func isTerminal(fd uintptr) bool { return false }

// terminalWidth is 0 (unknown) where gangsim cannot ask.
func terminalWidth(fd uintptr) int { return 0 }
