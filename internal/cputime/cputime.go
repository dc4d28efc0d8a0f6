// Package cputime reads the CPU time the process has used, for benchmarks
// that report it next to wall time: on a machine other work shares, a
// benchmark's wall time varies severalfold from run to run, its CPU time
// far less.
package cputime

import "time"

// Process returns the user and system CPU time the process has used, on
// every thread, and false where the system does not tell.
func Process() (time.Duration, bool) { return process() }
