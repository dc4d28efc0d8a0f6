package runner

import (
	"fmt"

	"ckptlab/runner/experiment"
)

// Limits are what a run is checked against before any work: the rows a
// table may have (--max-points) and the memory the run may hold
// (--max-memory, in MiB) with Jobs goroutines, writing the given formats.
type Limits struct {
	MaxPoints    int64
	MaxMemoryMiB int64
	Jobs         int
	Formats      []string
}

// Exceeded says why a run of e passes one of the limits, and how to run
// it anyway, or returns "" when it passes none. The --max-points it
// suggests is that of the largest table, which every table passes.
func (l Limits) Exceeded(e *experiment.Experiment) string {
	grid, failures := e.GridRows(), e.FailureRows()
	processRows, processDecisions := e.ProcessRows()
	largest := max(grid, failures, processRows, processDecisions)
	for _, t := range []struct {
		file string
		rows int64
	}{{"grid.csv", grid}, {"failures.csv", failures},
		{"process.csv", processRows}, {"process_decisions.csv", processDecisions}} {
		if t.rows > l.MaxPoints {
			return fmt.Sprintf("%s would have %s rows, more than --max-points %d; shorten an axis, or raise the limit with --max-points %s to run it",
				t.file, countText(t.rows), l.MaxPoints, countText(largest))
		}
	}
	if n := MemoryBytes(e, l.Jobs, l.Formats); n > mibBytes(l.MaxMemoryMiB) {
		return fmt.Sprintf("the run would hold up to %s (the program, its counts, views and writers), more than --max-memory %d; lower workers or periods, or raise the limit with --max-memory %d",
			MiB(n), l.MaxMemoryMiB, (n>>20)+1)
	}
	return ""
}
