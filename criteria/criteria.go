package criteria

import (
	"cmp"
	"slices"
)

// Expected returns the expected total E_k(p) = p·S/W + C.
// S is the weighted sum Σ w_f·y_f and W the total weight.
// W is n when each failure weighs 1. C is the certain cost.
//
// It computes in float64, in the lesson's order of operations.
// So ties between intervals, and the best interval, come out as in the lesson.
// The grid's expected_total and best, every decision, the optimum and the
// schedule all use this one formula. So they agree to the bit.
func Expected(p float64, sum, weight, certain int64) float64 {
	return p*float64(sum)/float64(weight) + float64(certain)
}

// Best returns the index of the least of n expected totals.
// total(i) is the total of the i-th declared interval.
// Only intervals with left[i] set count; a nil left counts every one.
// The first wins on ties, as the lesson's s.index(min(s)) does.
// Best returns -1 when no interval is left.
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

// Outcomes holds the rows one interval recomputes over the failure set.
// Equal values are merged, sorted from the most to the least.
// The tail criterion reads them.
// They are built once per source and interval, then read by every grid row
// of that interval.
type Outcomes struct {
	ys      []int64 // distinct recomputed rows, descending
	weights []int64 // weights[i]: the weight of the failures that recompute ys[i] rows
	weight  int64   // W, the weight of all failures (n when each weighs 1)
	sum     int64   // Σ w_f·y_f
}

// NewOutcomes returns the outcomes of a failure set.
// ys[i] is the rows failure i recomputes, and weights[i] its weight.
// A nil weights gives each failure weight 1.
// The set holds at least one failure. A failure of weight 0 is no outcome.
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

// Sum returns Σ w_f·y_f, the S of the expected total.
func (o Outcomes) Sum() int64 { return o.sum }

// Tail returns the mean cost of the worst (1−alpha) share of runs.
// This is the CVaR, or expected shortfall, of docs/decisions.md.
// It follows that definition operation for operation in float64.
// So its figures reproduce bit for bit.
//
// A run costs certain + y with mass p·m/W for each distinct y.
// Here m is the total weight of the failures that recompute y rows.
// A run without failure costs certain, with mass 1−p.
// Mass is taken from the costliest outcome down until 1−alpha is taken.
// The last outcome may be taken in part.
// The sum of cost × mass taken, divided by 1−alpha, is the tail.
//
// The loop stops once 1−alpha is taken.
// At the usual risk levels that is after the first few outcomes.
// With alpha = 0 the tail is the expected total, equal to Expected bit for bit.
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
