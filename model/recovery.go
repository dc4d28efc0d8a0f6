package model

// Recovery answers the lesson's recovery for one set of stream rows.
// The set is the whole stream, or one worker's partition.
// It answers from the rows per period, by prefix sums.
// So each question costs O(1) instead of a scan of the rows.
type Recovery struct {
	prefix []int64 // prefix[j+1] = rows in periods 0..j
}

// NewRecovery returns the recovery of a set of rows with the given counts per period.
func NewRecovery(counts []int64) Recovery {
	prefix := make([]int64, len(counts)+1)
	for j, c := range counts {
		prefix[j+1] = prefix[j] + c
	}
	return Recovery{prefix: prefix}
}

// Recomputed returns the rows a failure in period f, 0-based, makes the job
// recompute at interval k.
// They are the rows of the periods after the last checkpoint, k.LastPoint(f),
// up to and including f.
// Without checkpoints they are every row up to f.
func (r Recovery) Recomputed(k Interval, f int) int64 {
	return r.prefix[f+1] - r.prefix[k.LastPoint(f)+1]
}

// WorkerSet is the recovery of every worker of one partitioning.
// A worker no fault touched has one row per period after the first for each
// of its subscribers.
// So the busiest of them is the one with the most subscribers.
// The touched workers keep their rows per period.
// A WorkerSet's size is O(periods × touched workers).
// Busiest takes O(touched workers) steps.
type WorkerSet struct {
	untouched int64      // most subscribers of a worker no fault touched
	touched   []Recovery // workers faults touched
}

// Busiest returns the most rows any one worker recomputes after a failure in
// period f at interval k.
// This is what the single failed worker asks to have back when state is
// partitioned and the worst worker fails.
func Busiest(ws WorkerSet, k Interval, f int) int64 {
	// Periods last+1..f, without period 0 which has no rows.
	most := ws.untouched * int64(f-max(k.LastPoint(f), 0))
	for _, w := range ws.touched {
		most = max(most, w.Recomputed(k, f))
	}
	return most
}
