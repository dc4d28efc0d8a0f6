package decide

import "math"

// YoungInterval is Young's first-order optimum checkpoint interval,
// √(2δM), for a checkpoint that costs δ and a mean time M between failures,
// both in one unit (minutes, periods of work, …); the interval is in that
// unit. The README's section on decisions.csv names the paper (Young,
// 1974) and the figures it is tested against.
func YoungInterval(delta, mtbf float64) float64 {
	return math.Sqrt(2 * delta * mtbf)
}

// DalyInterval is Daly's higher-order estimate of the optimum interval,
// √(2δM)·(1 + √(δ/2M)/3 + (δ/2M)/9) − δ when δ < 2M, and M otherwise
// (a checkpoint dearer than twice the time between failures does not pay).
// Units as YoungInterval's; the README names the paper (Daly, 2006) and
// the figures it is tested against.
func DalyInterval(delta, mtbf float64) float64 {
	if delta >= 2*mtbf {
		return mtbf
	}
	x := delta / (2 * mtbf)
	return YoungInterval(delta, mtbf)*(1+math.Sqrt(x)/3+x/9) - delta
}

// Young returns the two textbook estimates, YoungInterval and DalyInterval,
// in periods of the lesson's model: r = rows/P is the work of one period,
// δ = stateRows/r one checkpoint's cost in periods of work, M = n/p the
// mean periods between failures. ok is false, and no interval is meant,
// when p = 0 or rows = 0.
func Young(rows int64, periods int, stateRows int64, n int, p float64) (young, daly float64, ok bool) {
	if p == 0 || rows == 0 {
		return 0, 0, false
	}
	r := float64(rows) / float64(periods)
	delta := float64(stateRows) / r
	m := float64(n) / p
	return YoungInterval(delta, m), DalyInterval(delta, m), true
}
