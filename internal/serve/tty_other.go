//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package serve

// isTerminal reports whether fd is a terminal; here it cannot tell, and
// says no.
func isTerminal(uintptr) bool { return false }
