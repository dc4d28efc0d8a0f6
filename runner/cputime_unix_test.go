//go:build unix

package runner

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time the process has used so
// far, every goroutine's and the collector's, and whether it could tell.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
