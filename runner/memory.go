package runner

import (
	"strconv"
	"unsafe"

	"ckptlab/results"
)

// MemoryBytes estimates, from above, the memory a run of the experiment
// holds beyond the program itself: for every source its rows per period
// (whole stream and every worker), a tally of them for each of Jobs(jobs)
// goroutines, the drawn faults and, when views is set, the lesson's views.
// It grows with sources, periods and workers, never with subscribers; a run
// can refuse an experiment that would not fit before doing any work.
func (e *Experiment) MemoryBytes(jobs int, views bool) int64 {
	var total int64
	for _, g := range e.Grids() {
		total = addSat(total, e.gridMemory(&g, jobs, views))
	}
	return total
}

// gridMemory is MemoryBytes for the sources one grid draws.
func (e *Experiment) gridMemory(g *Grid, jobs int, views bool) int64 {
	const word = 8 // one count
	cell := int64(unsafe.Sizeof(results.Value{}))
	var workers int64 // the tallies count the partitionings of every grid
	for _, p := range e.partitionings() {
		workers = addSat(workers, int64(p.Workers))
	}
	perPeriod := addSat(1, workers) // whole stream + every worker

	var total int64
	for _, p := range g.Periods {
		one := *g
		one.Periods = []int{p}
		sources := e.GridSizes(&one).Sources
		counts := mulSat(int64(p)+1, perPeriod, word, int64(1+Jobs(jobs)))
		faults := mulSat(int64(e.Missing+e.Duplicates), word)
		perSource := addSat(counts, faults)
		if views {
			n := g.intervalCount(p)
			failures := e.failureCount(p)
			perSource = addSat(perSource, mulSat(cell, addSat(
				addSat(mulSat(failures, n+1), 3*n), // matrix and recovery
				addSat(
					mulSat(int64(len(g.StateRows)), addSat(7*n, mulSat(int64(len(g.Probabilities)), n+2))), // cost and probability
					mulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)), 4*n),                        // partition
				))))
		}
		total = addSat(total, mulSat(sources, perSource))
	}
	return total
}

// MiB writes a number of bytes in mebibytes, rounded up, for messages.
func MiB(bytes int64) string {
	return strconv.FormatInt((bytes+(1<<20)-1)>>20, 10) + " MiB"
}
