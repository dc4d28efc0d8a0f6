package model

import (
	"maps"
	"slices"
)

// Partitioning is one way to split the stream over workers.
// Rows go by the value of Key into Workers partitions, as the lesson's
// distribute does.
type Partitioning struct {
	Key     PartitionKey
	Workers int
}

// Tally counts the stream rows of some subscribers of a source, per period.
// It counts them for the whole stream and for every worker of every partitioning.
//
// It stores what the rows follow from, not the rows.
// A subscriber no fault touched has one row in every period but the first.
// All its rows are on the worker of its key.
// So a worker costs one count of its subscribers.
// Only the rows that faults removed are kept per period.
// They are kept only for the workers faults touched.
// A Tally's size is O(periods × touched workers + total workers),
// whatever the number of subscribers.
type Tally struct {
	periods int
	parts   []Partitioning
	subs    int64   // subscribers counted
	lost    []int64 // lost[j]: stream rows of period j that faults removed
	drops   Drops
	// Per partitioning p: subs[p][w] counts the subscribers of worker w,
	// lost[p][w][j] the rows faults removed from worker w in period j, for
	// the workers faults touched.
	workerSubs [][]int64
	workerLost []map[int32][]int64
}

// NewTally returns an empty tally of a source with the given number of
// periods, for the given partitionings.
func NewTally(periods int, parts []Partitioning) *Tally {
	t := &Tally{periods: periods, parts: slices.Clone(parts), lost: make([]int64, periods)}
	t.workerSubs = make([][]int64, len(parts))
	t.workerLost = make([]map[int32][]int64, len(parts))
	for p, part := range parts {
		t.workerSubs[p] = make([]int64, part.Workers)
	}
	return t
}

// Periods returns the number of periods of the tallied source.
func (t *Tally) Periods() int { return t.periods }

// Partitionings returns the partitionings the tally counts for.
func (t *Tally) Partitionings() []Partitioning { return slices.Clone(t.parts) }

// addLost records the rows faults removed from a subscriber that workers[p] holds.
// periods lists the periods that lost a row, each j >= 1.
func (t *Tally) addLost(workers []int32, periods []int) {
	for _, j := range periods {
		t.lost[j]++
	}
	for p, w := range workers {
		c := t.lostOf(p, w)
		for _, j := range periods {
			c[j]++
		}
	}
}

// lostOf returns the rows per period faults removed from worker w of partitioning p.
// It makes them empty on the worker's first fault.
func (t *Tally) lostOf(p int, w int32) []int64 {
	m := t.workerLost[p]
	if m == nil {
		m = make(map[int32][]int64)
		t.workerLost[p] = m
	}
	c := m[w]
	if c == nil {
		c = make([]int64, t.periods)
		m[w] = c
	}
	return c
}

// Merge adds o's counts to t.
// Both must have the same periods and partitionings.
// Counts are integers, so the order of merges never changes the result.
// A sum that would overflow an int64 is an error, and t is then left unchanged.
// Tallies read from files may hold any count.
func (t *Tally) Merge(o *Tally) error {
	if !t.canMerge(o) {
		return errOverflow
	}
	t.subs += o.subs
	t.drops.Add(o.drops)
	addInts(t.lost, o.lost)
	for p := range t.parts {
		addInts(t.workerSubs[p], o.workerSubs[p])
		for w, c := range o.workerLost[p] {
			if t.workerLost[p] == nil {
				t.workerLost[p] = make(map[int32][]int64)
			}
			if mine := t.workerLost[p][w]; mine != nil {
				addInts(mine, c)
			} else {
				t.workerLost[p][w] = slices.Clone(c)
			}
		}
	}
	return nil
}

// Drops returns the records each stage dropped.
func (t *Tally) Drops() Drops { return t.drops }

// Stream returns the stream's rows per period.
func (t *Tally) Stream() []int64 { return rowsPerPeriod(t.subs, t.lost) }

// Rows returns the number of stream rows.
func (t *Tally) Rows() int64 {
	var n int64
	for _, c := range t.Stream() {
		n += c
	}
	return n
}

// rowsPerPeriod returns the rows per period of subs subscribers.
// Faults removed lost[j] of their rows in period j.
// Each subscriber has one row in every period but the first, less the lost ones.
func rowsPerPeriod(subs int64, lost []int64) []int64 {
	out := make([]int64, len(lost))
	for j := 1; j < len(out); j++ {
		out[j] = subs - lost[j]
	}
	return out
}

// Workers returns every worker's rows per period for partitioning p.
// p is an index into the partitionings the tally was made with.
// Workers takes O(workers × periods) steps.
// WorkerSet answers the recovery without it.
func (t *Tally) Workers(p int) [][]int64 {
	out := make([][]int64, t.parts[p].Workers)
	none := make([]int64, t.periods)
	for w := range out {
		lost := t.workerLost[p][int32(w)]
		if lost == nil {
			lost = none
		}
		out[w] = rowsPerPeriod(t.workerSubs[p][w], lost)
	}
	return out
}

// WorkerSet returns the recovery of every worker of partitioning p.
// It takes O(workers + periods × touched workers) steps.
func (t *Tally) WorkerSet(p int) WorkerSet {
	var ws WorkerSet
	lost := t.workerLost[p]
	for w, n := range t.workerSubs[p] {
		if _, ok := lost[int32(w)]; !ok {
			ws.untouched = max(ws.untouched, n)
		}
	}
	for _, w := range slices.Sorted(maps.Keys(lost)) {
		ws.touched = append(ws.touched, NewRecovery(rowsPerPeriod(t.workerSubs[p][w], lost[w])))
	}
	return ws
}

func addInts(dst, src []int64) {
	for i, v := range src {
		dst[i] += v
	}
}
