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
	const word = 8 // one count
	cell := int64(unsafe.Sizeof(results.Value{}))
	var workers int64
	for _, w := range e.Workers {
		workers = addSat(workers, int64(w))
	}
	perPeriod := addSat(1, mulSat(int64(len(e.PartitionKeys)), workers)) // whole stream + every worker
	sourcesPerP := mulSat(int64(len(e.Seeds)), int64(len(e.Subscribers)))
	intervals := func(p int) int64 { return e.intervalCount(p) }

	var total int64
	for _, p := range e.Periods {
		counts := mulSat(int64(p)+1, perPeriod, word, int64(1+Jobs(jobs)))
		faults := mulSat(int64(e.Missing+e.Duplicates), word)
		perSource := addSat(counts, faults)
		if views {
			n := intervals(p)
			failures := int64(len(e.FailuresFor(p)))
			perSource = addSat(perSource, mulSat(cell, addSat(
				addSat(mulSat(failures, n+1), 3*n), // matrix and recovery
				addSat(
					mulSat(int64(len(e.StateRows)), addSat(7*n, mulSat(int64(len(e.Probabilities)), n+2))), // cost and probability
					mulSat(int64(len(e.PartitionKeys)), int64(len(e.Workers)), 4*n),                        // partition
				))))
		}
		total = addSat(total, mulSat(sourcesPerP, perSource))
	}
	return total
}

// MiB writes a number of bytes in mebibytes, rounded up, for messages.
func MiB(bytes int64) string {
	return strconv.FormatInt((bytes+(1<<20)-1)>>20, 10) + " MiB"
}
