// Package cputime reads the CPU time the process has used: what a
// benchmark reports besides its wall time on a machine other work shares,
// where the wall time says more about the other work than about the code.
package cputime

import "time"

// Used returns the user and system CPU time the process has used so far,
// on every goroutine, or 0 where the system does not tell it.
func Used() time.Duration { return used() }
