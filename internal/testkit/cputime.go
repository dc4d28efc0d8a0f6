// CPU time: benchmarks report it next to wall time. On a shared machine,
// wall time varies severalfold from run to run; CPU time varies far less.

package testkit

import "time"

// CPUTime returns the user and system CPU time the process has used, on every thread.
// It returns false where the system does not tell.
func CPUTime() (time.Duration, bool) { return process() }
