package decide

import (
	"math"
	"slices"
)

// Expected is E_k(p) = p·S/n + C, evaluated in that order in float64 as the
// lesson does, so that ties between intervals come out as in the lesson.
func Expected(p float64, sum int64, n int, certain int64) float64 {
	return p*float64(sum)/float64(n) + float64(certain)
}

// Outcomes are the rows one interval recomputes over the failure set,
// sorted from the most to the least, with their prefix sums: what the tail
// criterion needs, built once per source and interval so that each grid
// row's tail costs O(log n), not O(n log n).
type Outcomes struct {
	desc   []int64 // recomputed rows per failure, descending
	prefix []int64 // prefix[i] = desc[0] + … + desc[i-1]
}

// NewOutcomes returns the outcomes of the recomputed rows y_f of every
// failure f of the failure set (at least one).
func NewOutcomes(ys []int64) Outcomes {
	desc := slices.Clone(ys)
	slices.SortFunc(desc, func(a, b int64) int { return int(sign(b - a)) })
	prefix := make([]int64, len(desc)+1)
	for i, y := range desc {
		prefix[i+1] = prefix[i] + y
	}
	return Outcomes{desc: desc, prefix: prefix}
}

func sign(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Sum is Σ y_f, the S of the expected total.
func (o Outcomes) Sum() int64 { return o.prefix[len(o.desc)] }

// Tail is the mean cost of the worst (1−alpha) share of runs (CVaR, the
// expected shortfall), SPEC §6: a run costs certain with probability 1−p
// and certain + y_f with probability p/n for each failure f. Outcomes are
// taken from the most costly down until mass 1−alpha is taken, the last
// one in part. Equal costs need no merging: taking part of a group of
// equal costs or part of one of them gives the same sum.
//
// alpha = 0 takes every outcome: the result is then Expected, bit for bit.
// alpha must lie in [0, 1) and p in [0, 1].
func (o Outcomes) Tail(alpha, p float64, certain int64) float64 {
	n := len(o.desc)
	if alpha == 0 {
		return Expected(p, o.Sum(), n, certain)
	}
	need := 1 - alpha
	mass := func(k int) float64 { return p * float64(k) / float64(n) }
	// k = the failures taken whole: the largest k with mass(k) <= need.
	k := sortSearch(n, func(i int) bool { return mass(i+1) > need })
	c := float64(certain)
	sum := p * (c*float64(k) + float64(o.prefix[k])) / float64(n)
	rest := need - mass(k)
	if k < n {
		sum += (c + float64(o.desc[k])) * rest
	} else if rest > 0 {
		sum += c * rest // the runs without a failure, mass 1−p >= rest
	}
	return sum / need
}

// sortSearch is sort.Search: the least i in [0, n) with f(i), or n.
func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Young is Young's first-order optimum interval √(2δM), in periods, and
// Daly his higher-order one: √(2δM)·(1 + √(δ/2M)/3 + (δ/2M)/9) − δ when
// δ < 2M, else M. r = rows/P is the work of one period, δ = stateRows/r
// one checkpoint's cost in periods of work, M = n/p the mean periods between
// failures. ok is false, and no interval is meant, when p = 0 or rows = 0.
func Young(rows int64, periods int, stateRows int64, n int, p float64) (young, daly float64, ok bool) {
	if p == 0 || rows == 0 {
		return 0, 0, false
	}
	r := float64(rows) / float64(periods)
	delta := float64(stateRows) / r
	m := float64(n) / p
	young = math.Sqrt(2 * delta * m)
	if delta >= 2*m {
		return young, m, true
	}
	x := delta / (2 * m)
	daly = young*(1+math.Sqrt(x)/3+x/9) - delta
	return young, daly, true
}
