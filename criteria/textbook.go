package criteria

import "math"

// YoungInterval returns Young's first-order optimum interval, √(2δM).
// δ is a checkpoint's cost and M the mean time between failures.
// Both are in one unit, such as minutes or periods of work.
// The interval is in that unit too.
// The README's section on decisions.csv names the paper (Young, 1974)
// and the figures it is tested against.
func YoungInterval(delta, mtbf float64) float64 {
	return math.Sqrt(2 * delta * mtbf)
}

// DalyInterval returns Daly's higher-order estimate of the optimum interval.
// When δ < 2M it is √(2δM)·(1 + √(δ/2M)/3 + (δ/2M)/9) − δ.
// Otherwise it is M, since a checkpoint dearer than 2M does not pay.
// Units are as for YoungInterval.
// The README names the paper (Daly, 2006) and the figures it is tested against.
func DalyInterval(delta, mtbf float64) float64 {
	if delta >= 2*mtbf {
		return mtbf
	}
	x := delta / (2 * mtbf)
	return YoungInterval(delta, mtbf)*(1+math.Sqrt(x)/3+x/9) - delta
}

// Young returns YoungInterval and DalyInterval in periods of the lesson's model.
// The work of one period is r = rows/P.
// A checkpoint costs δ = stateRows/r periods of work.
// The mean number of periods between failures is M = n/p.
// ok is false when p = 0 or rows = 0; then no interval is meant.
func Young(rows int64, periods int, stateRows int64, n int, p float64) (young, daly float64, ok bool) {
	if p == 0 || rows == 0 {
		return 0, 0, false
	}
	r := float64(rows) / float64(periods)
	delta := float64(stateRows) / r
	m := float64(n) / p
	return YoungInterval(delta, m), DalyInterval(delta, m), true
}
