package decide

import (
	"cmp"
	"slices"

	"ckptlab/model"
)

// Expected is E_k(p) = p·S/W + C: model.ExpectedTotal, the formula of the
// grid's expected_total, so that ties between intervals come out as in the
// lesson and as in the grid. S is the weighted sum Σ w_f·y_f and W the
// total weight, n when each failure weighs 1.
func Expected(p float64, sum, weight, certain int64) float64 {
	return model.ExpectedTotal(p, sum, weight, certain)
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
// (README.md#decisions-what-each-criterion-means), operation for operation
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
