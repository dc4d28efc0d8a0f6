package runner

import (
	"ckptlab/internal/satmath"
	"ckptlab/runner/experiment"
)

// processBytes bounds what the time model's answer holds while the tables
// are written: a row per group and interval, a group's figures and the
// work per period of each source, the schedule's program (five words a
// period) and the moments of one simulation's blocks per goroutine.
func processBytes(e *experiment.Experiment, jobs int) int64 {
	if e.Time == nil {
		return 0
	}
	rows, groups := e.ProcessRows()
	n := satmath.Add(satmath.Mul(rows, 64), satmath.Mul(groups, 256))
	most := 0
	for _, gs := range e.TimeSources() {
		n = satmath.Add(n, int64(8*(gs.Periods+1)))
		most = max(most, gs.Periods)
	}
	n = satmath.Add(n, int64(40*(most+1)))
	blocks := int64(e.Time.Replications/1024 + 1)
	return satmath.Add(n, satmath.Mul(int64(jobsFor(jobs)), blocks, 32))
}
