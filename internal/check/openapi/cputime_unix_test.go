//go:build unix

package openapi

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: on a shared machine a
// benchmark's wall time says more about the neighbours than the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
