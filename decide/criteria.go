package decide

import (
	"cmp"
	"slices"

	"ckptlab/model"
)

// Expected is E_k(p) = p·S/n + C: model.ExpectedTotal, the formula of the
// grid's expected_total, so that ties between intervals come out as in the
// lesson and as in the grid.
func Expected(p float64, sum int64, n int, certain int64) float64 {
	return model.ExpectedTotal(p, sum, int64(n), certain)
}

// Outcomes are the rows one interval recomputes over the failure set,
// merged by value and sorted from the most to the least: what the tail
// criterion needs, built once per source and interval and then read by
// every grid row of that interval.
type Outcomes struct {
	ys     []int64 // distinct recomputed rows, descending
	counts []int   // counts[i] failures recompute ys[i] rows
	n      int     // failures in all
	sum    int64   // Σ y_f
}

// NewOutcomes returns the outcomes of the recomputed rows y_f of every
// failure f of the failure set (at least one).
func NewOutcomes(ys []int64) Outcomes {
	desc := slices.Clone(ys)
	slices.SortFunc(desc, func(a, b int64) int { return cmp.Compare(b, a) })
	distinct := 0
	for i, y := range desc {
		if i == 0 || desc[i-1] != y {
			distinct++
		}
	}
	// made to size: a source of thousands of periods holds an Outcomes
	// for each of its intervals
	o := Outcomes{n: len(desc), ys: make([]int64, 0, distinct), counts: make([]int, 0, distinct)}
	for _, y := range desc {
		o.sum += y
		if k := len(o.ys); k > 0 && o.ys[k-1] == y {
			o.counts[k-1]++
			continue
		}
		o.ys = append(o.ys, y)
		o.counts = append(o.counts, 1)
	}
	return o
}

// Sum is Σ y_f, the S of the expected total.
func (o Outcomes) Sum() int64 { return o.sum }

// Tail is the mean cost of the worst (1−alpha) share of runs (CVaR, the
// expected shortfall), computed exactly as SPEC §6 states it, operation for
// operation in float64, so that its figures reproduce bit for bit: a run
// costs certain + y with mass p·m/n for each distinct y (m failures
// recompute it), from the most costly down, then certain with mass 1−p;
// mass is taken from the top until 1−alpha is taken, the last outcome in
// part, and the sum of cost × mass taken is divided by 1−alpha.
//
// The loop stops once 1−alpha is taken, which at the usual risk levels is
// after the first outcome or few. alpha = 0 takes every outcome: the tail is
// then the expected total, and Tail returns Expected bit for bit.
// alpha must lie in [0, 1) and p in [0, 1].
func (o Outcomes) Tail(alpha, p float64, certain int64) float64 {
	if alpha == 0 {
		return Expected(p, o.sum, o.n, certain)
	}
	need := 1 - alpha
	var taken, sum float64
	take := func(cost, mass float64) {
		m := min(mass, need-taken)
		sum += cost * m
		taken += m
	}
	for i, y := range o.ys {
		if taken >= need {
			break
		}
		take(float64(certain+y), p*float64(o.counts[i])/float64(o.n))
	}
	if taken < need {
		take(float64(certain), 1-p)
	}
	return sum / need
}
