package runner

import (
	"ckptlab/decide"
	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// left sets dst[i] to whether the point of the source's i-th interval at
// (pr, stateRows, prob) is left in the grid, and returns dst, grown to
// the number of intervals as needed.
func (r *Result) left(dst []bool, sr *SourceResult, pr *PartResult, stateRows int, prob float64) []bool {
	s := sr.Source
	p := experiment.Point{Seed: s.Seed, Subscribers: s.Subscribers, Periods: s.Periods, PartitionKey: pr.Key,
		Workers: pr.Partitioning.Workers, StateRows: stateRows, Probability: prob}
	return r.excluder().IntervalsLeft(dst, p, sr.Intervals)
}

// anyLeft reports, for each interval of the source, whether a point of it
// at one of the given parts, state rows and probabilities is left. nil
// parts, state rows or probabilities stand for all of the source's.
func (r *Result) anyLeft(sr *SourceResult, parts []*PartResult, stateRows []int, probs []float64) []bool {
	out, _ := r.anyLeftInto(nil, nil, sr, parts, stateRows, probs)
	return out
}

// anyLeftInto is anyLeft written into out, with scratch for each point's
// intervals: both are returned, grown as needed, for the next call to
// reuse, as one that asks at every decision does.
func (r *Result) anyLeftInto(out, scratch []bool, sr *SourceResult, parts []*PartResult, stateRows []int, probs []float64) ([]bool, []bool) {
	if parts == nil {
		parts = sr.Parts
	}
	if stateRows == nil {
		stateRows = sr.Grid.StateRowsFor(sr.Source.Subscribers)
	}
	if probs == nil {
		probs = sr.Grid.Probabilities
	}
	out = append(out[:0], make([]bool, len(sr.Intervals))...)
	for _, pr := range parts {
		for _, s := range stateRows {
			for _, p := range probs {
				scratch = r.left(scratch, sr, pr, s, p)
				for i, ok := range scratch {
					out[i] = out[i] || ok
				}
			}
		}
	}
	return out, scratch
}

// expectedTotal is the cost's expected total at probability prob with
// checkpoints of stateRows rows: the expected criterion, decide.Expected.
func expectedTotal(c model.Cost, prob float64, stateRows int) float64 {
	return decide.Expected(prob, c.Sum, c.Weight, c.CertainCost(stateRows))
}

// bestLeft is decide.Best over the costs' expected totals: the index of the
// least among the costs left (every one when left is nil), ties to the
// first, or -1 when none is left.
func bestLeft(costs []model.Cost, left []bool, prob float64, stateRows int) int {
	return decide.Best(len(costs), left, func(i int) float64 { return expectedTotal(costs[i], prob, stateRows) })
}

// none reports whether no value of left is set.
func none(left []bool) bool {
	for _, ok := range left {
		if ok {
			return false
		}
	}
	return true
}
