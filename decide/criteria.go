package decide

import (
	"cmp"
	"slices"
)

// Expected is the expected criterion, E_k(p) = p·S/W + C, evaluated in
// that order in float64 exactly as the lesson computes it: ties between
// intervals, and so the best interval, come out as in the lesson. The
// grid's expected_total and best, every decision, the optimum and the
// schedule weigh intervals with this one formula, so that they agree to
// the bit. S is the weighted sum Σ w_f·y_f and W the total weight, n when
// each failure weighs 1; C is the certain cost.
func Expected(p float64, sum, weight, certain int64) float64 {
	return p*float64(sum)/float64(weight) + float64(certain)
}

// Best returns the index of the least of n expected totals, total(i) being
// that of the i-th declared interval, among the intervals left (every one
// when left is nil), the first on ties: the lesson's s.index(min(s)). It
// returns -1 when none is left.
func Best(n int, left []bool, total func(i int) float64) int {
	best := -1
	var least float64
	for i := range n {
		if left != nil && !left[i] {
			continue
		}
		if e := total(i); best < 0 || e < least {
			best, least = i, e
		}
	}
	return best
}

// Outcomes are the rows one interval recomputes over the failure set,
// merged by value and sorted from the most to the least: what the tail
// criterion needs, built once per source and interval and then read by
// every grid row of that interval.
type Outcomes struct {
	ys      []int64 // distinct recomputed rows, descending
	weights []int64 // weights[i]: the weight of the failures that recompute ys[i] rows
	weight  int64   // W, the weight of all failures (n when each weighs 1)
	sum     int64   // Σ w_f·y_f
}

// NewOutcomes returns the outcomes of the recomputed rows ys[i] of every
// failure of the failure set (at least one), each of weight weights[i]
// (nil: each weighs 1). A failure of weight 0 is no outcome.
func NewOutcomes(ys, weights []int64) Outcomes {
	type failure struct{ y, w int64 }
	desc := make([]failure, len(ys))
	for i, y := range ys {
		desc[i] = failure{y, 1}
		if weights != nil {
			desc[i].w = weights[i]
		}
	}
	slices.SortFunc(desc, func(a, b failure) int { return cmp.Compare(b.y, a.y) })
	distinct := 0
	for i, f := range desc {
		if f.w != 0 && (i == 0 || desc[i-1].y != f.y) {
			distinct++
		}
	}
	// made to size: a source of thousands of periods holds an Outcomes
	// for each of its intervals
	o := Outcomes{ys: make([]int64, 0, distinct), weights: make([]int64, 0, distinct)}
	for _, f := range desc {
		o.weight += f.w
		if f.w == 0 {
			continue
		}
		o.sum += f.w * f.y
		if k := len(o.ys); k > 0 && o.ys[k-1] == f.y {
			o.weights[k-1] += f.w
			continue
		}
		o.ys = append(o.ys, f.y)
		o.weights = append(o.weights, f.w)
	}
	return o
}

// Sum is Σ w_f·y_f, the S of the expected total.
func (o Outcomes) Sum() int64 { return o.sum }

// Tail is the mean cost of the worst (1−alpha) share of runs (CVaR, the
// expected shortfall), computed exactly as the README states it
// (docs/decisions.md), operation for operation
// in float64, so that its figures reproduce bit for bit: a run costs certain + y with mass p·m/W for each distinct y (failures of total
// weight m recompute it; m failures when each weighs 1), from the most
// costly down, then certain with mass 1−p;
// mass is taken from the top until 1−alpha is taken, the last outcome in
// part, and the sum of cost × mass taken is divided by 1−alpha.
//
// The loop stops once 1−alpha is taken, which at the usual risk levels is
// after the first outcome or few. alpha = 0 takes every outcome: the tail is
// then the expected total, and Tail returns Expected bit for bit.
// alpha must lie in [0, 1) and p in [0, 1].
func (o Outcomes) Tail(alpha, p float64, certain int64) float64 {
	if alpha == 0 {
		return Expected(p, o.sum, o.weight, certain)
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
		take(float64(certain+y), p*float64(o.weights[i])/float64(o.weight))
	}
	if taken < need {
		take(float64(certain), 1-p)
	}
	return sum / need
}
