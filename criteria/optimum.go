package criteria

import "ckptlab/model"

// Sums returns S_k for every interval k.
// S_k is the rows the stream recomputes, summed over the failure set,
// each failure times its weight.
// Index 0 is interval none, and index k is interval k = 1..periods.
// Sums reads the stream only through its prefix sums.
//
// For interval k, S_k = Σ_f upTo(f) − Σ_f upTo(last_k(f)).
// Here upTo(j) is the rows in periods 0..j, and last_k(f) = (f // k)·k.
// The failures whose last checkpoint is b·k lie in periods b·k .. b·k+k−1.
// A prefix sum of the failures' weights weighs them in one step.
// So the second sum takes P/k steps.
// All intervals together take P·(1 + 1/2 + … + 1/P) = O(P log P) steps.
// This holds for the default failure set and an explicit list alike.
func Sums(stream model.Recovery, periods int, fs model.FailureSet) []int64 {
	upTo := make([]int64, periods) // upTo[j] = rows in periods 0..j
	for j := range upTo {
		upTo[j] = stream.Recomputed(model.None, j)
	}
	before := make([]int64, periods+1) // before[j] = weight of failures in periods < j
	var all int64                      // Σ_f w_f·upTo(f)
	for i, f := range fs.Periods {
		w := fs.Weight(i)
		before[f+1] += w
		all += w * upTo[f]
	}
	for j := 1; j <= periods; j++ {
		before[j] += before[j-1]
	}
	sums := make([]int64, periods+1)
	sums[0] = all
	for k := 1; k <= periods; k++ {
		var back int64
		for last := 0; last < periods; last += k {
			back += upTo[last] * (before[min(last+k, periods)] - before[last])
		}
		sums[k] = all - back
	}
	return sums
}

// Optimum returns the interval with the least expected total, and that total.
// It looks at every interval of a source, declared or not.
// It tries none, P, P−1, …, 1 in that order; ties go to the earlier.
// sums is Sums' result, and weight the failure set's total weight W.
// Optimum takes O(P) steps.
func Optimum(sums []int64, weight int64, p float64, stateRows int64) (model.Interval, float64) {
	periods := len(sums) - 1
	best, least := model.None, Expected(p, sums[0], weight, 0)
	for k := periods; k >= 1; k-- {
		certain := int64(model.Interval(k).Checkpoints(periods)) * stateRows
		if e := Expected(p, sums[k], weight, certain); e < least {
			best, least = model.Interval(k), e
		}
	}
	return best, least
}
