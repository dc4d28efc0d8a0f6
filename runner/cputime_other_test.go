//go:build !unix

package runner

import "time"

// processCPU cannot tell the process's CPU time on this system.
func processCPU() (time.Duration, bool) { return 0, false }
