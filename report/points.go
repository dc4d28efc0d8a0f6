package report

import (
	"iter"

	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// levels say which levels of the grid's nesting a walk keeps apart. A
// level it does not keep is merged: an interval is left where a point at
// any of the level's values leaves it.
type levels uint8

const (
	byPart     levels = 1 << iota // partition_key, workers
	byState                       // state_rows
	byDecision                    // probabilities

	bySource levels = 0
	byPoint         = byPart | byState | byDecision
)

// gridPoint is where a walk of the grid stands: a source and the values of
// the levels the walk keeps, with the source's intervals left there.
type gridPoint struct {
	si        int // the source's place in runner.Evaluation.Sources
	sr        *runner.SourceResult
	part      int // index in sr.Parts; -1 when merged
	pr        *runner.PartResult
	state     int // index in the source's state rows; -1 when merged
	stateRows int
	decision  int // index in the grid's probabilities; -1 when merged
	prob      float64
	// left says which of sr.Intervals have a point left. It is reused for
	// the next point: the consumer's until it asks for the next.
	left []bool
}

// walk yields the points of the grid at the levels kept, in table order:
// sources, then partitionings, state rows and probabilities, each in
// declared order. A point without an interval left does not come. Every
// table, view, chart and figure that goes over the grid goes through walk.
func (r *result) walk(keep levels) iter.Seq[*gridPoint] {
	return func(yield func(*gridPoint) bool) {
		var w walker
		for si := range r.Sources {
			if !w.source(r, si, keep, yield) {
				return
			}
		}
	}
}

// walkSource is walk over the source at index si alone.
func (r *result) walkSource(si int, keep levels) iter.Seq[*gridPoint] {
	return func(yield func(*gridPoint) bool) {
		var w walker
		w.source(r, si, keep, yield)
	}
}

// walker holds what a walk reuses from one point to the next.
type walker struct {
	p       gridPoint
	pt      experiment.Point
	scratch []bool
	one     [1]int // the state rows of at
}

// at returns the intervals of source si left at state rows stateRows, in
// part i and at the k-th probability, each -1 for any. What it returns is
// reused by the next call.
func (w *walker) at(r *result, si, i, stateRows, k int) []bool {
	sr := r.Sources[si]
	s := sr.Source
	w.one[0] = stateRows
	w.pt = experiment.Point{Seed: s.Seed, Subscribers: s.Subscribers, Periods: s.Periods}
	w.p.left = w.merged(w.p.left, r.excluder(), &w.pt, sr, w.one[:], sr.Grid.Probabilities, i, 0, k)
	return w.p.left
}

// source yields the points of the source at index si, and reports whether
// to go on.
func (w *walker) source(r *result, si int, keep levels, yield func(*gridPoint) bool) bool {
	ix := r.excluder()
	sr := r.Sources[si]
	states := sr.Grid.StateRowsFor(sr.Source.Subscribers)
	probs := sr.Grid.Probabilities
	s := sr.Source
	pt := &w.pt
	*pt = experiment.Point{Seed: s.Seed, Subscribers: s.Subscribers, Periods: s.Periods}
	p := &w.p
	for i := first(keep & byPart); i < last(keep&byPart, len(sr.Parts)); i++ {
		for j := first(keep & byState); j < last(keep&byState, len(states)); j++ {
			for k := first(keep & byDecision); k < last(keep&byDecision, len(probs)); k++ {
				*p = gridPoint{si: si, sr: sr, part: i, state: j, decision: k, prob: -1, left: p.left[:0]}
				if i >= 0 {
					p.pr = sr.Parts[i]
				}
				if j >= 0 {
					p.stateRows = states[j]
				}
				if k >= 0 {
					p.prob = probs[k]
				}
				if keep == byPoint {
					pt.PartitionKey, pt.Workers = p.pr.Key, p.pr.Partitioning.Workers
					pt.StateRows, pt.Probability = p.stateRows, p.prob
					p.left = ix.IntervalsLeft(p.left, pt, sr.Intervals)
				} else {
					p.left = w.merged(p.left, ix, pt, sr, states, probs, i, j, k)
				}
				if none(p.left) {
					continue
				}
				if !yield(p) {
					return false
				}
			}
		}
	}
	return true
}

// merged returns, in dst, the intervals left at a point of some part,
// state rows and probability that the indexes i, j and k stand for (-1:
// any).
func (w *walker) merged(dst []bool, ix *experiment.Excluder, pt *experiment.Point, sr *runner.SourceResult, states []int, probs []float64, i, j, k int) []bool {
	left := dst[:0]
	for range sr.Intervals {
		left = append(left, false)
	}
	for ii := from(i); ii < to(i, len(sr.Parts)); ii++ {
		pt.PartitionKey, pt.Workers = sr.Parts[ii].Key, sr.Parts[ii].Partitioning.Workers
		for jj := from(j); jj < to(j, len(states)); jj++ {
			pt.StateRows = states[jj]
			for kk := from(k); kk < to(k, len(probs)); kk++ {
				pt.Probability = probs[kk]
				w.scratch = ix.IntervalsLeft(w.scratch, pt, sr.Intervals)
				for x, ok := range w.scratch {
					left[x] = left[x] || ok
				}
			}
		}
	}
	return left
}

// first and last bound the indexes of a level of n values a walk goes
// over: every index when the level is kept, and -1 alone when merged.
func first(kept levels) int {
	if kept == 0 {
		return -1
	}
	return 0
}

func last(kept levels, n int) int {
	if kept == 0 {
		return 0
	}
	return n
}

// from and to bound the indexes a point at index i of a level of n values
// stands for: i alone, or every index when i is -1.
func from(i int) int { return max(i, 0) }

func to(i, n int) int {
	if i < 0 {
		return n
	}
	return i + 1
}
