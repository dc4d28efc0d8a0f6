package decide

import "ckptlab/model"

// Sums returns S_k, the rows the whole stream recomputes summed over the
// failure set, each failure times its weight, for every interval: index 0
// is none, index k the interval k = 1..periods. It reads the stream only
// through its prefix sums.
//
// For interval k, S_k = Σ_f upTo(f) − Σ_f upTo(last_k(f)), where upTo(j) is
// the rows in periods 0..j and last_k(f) = (f // k)·k. The failures whose
// last checkpoint is b·k are those in periods b·k .. b·k+k−1, weighed from
// a prefix sum of the failures' weights, so the second sum takes P/k steps and
// all intervals together P·(1 + 1/2 + … + 1/P) = O(P log P), for the default
// failure set and an explicit list alike.
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

// Optimum returns the interval with the least expected total over every
// interval of a source, declared or not, and that total: none, P, P−1, …, 1
// in that order, ties to the earlier. sums are Sums' result, weight the
// failure set's total weight W. It takes O(P).
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
