package process

import (
	"math"

	"ckptlab/criteria"
)

// Textbook holds the continuous optimum intervals in periods of mean work:
// Young's √(2δM), Daly's higher-order estimate and the exact optimum of
// Daly's model for uniform work, each divided by w̄.
type Textbook struct {
	Young, Daly, Exact float64
}

// Textbook returns the continuous optima of the process for the work w in
// periods; ok is false when no period has rows.
func (p Process) Textbook(w Work) (t Textbook, ok bool) {
	mean, ok := w.Mean()
	if !ok {
		return Textbook{}, false
	}
	return Textbook{
		Young: criteria.YoungInterval(p.Checkpoint, p.MTBF) / mean,
		Daly:  criteria.DalyInterval(p.Checkpoint, p.MTBF) / mean,
		Exact: ExactInterval(p.Checkpoint, p.MTBF) / mean,
	}, true
}

// ExactInterval returns τ* = M(1 + W₀(−e^{−(1+δ/M)})), the work between
// checkpoints that minimizes Daly's expected time per unit of work,
// (e^{(τ+δ)/M} − 1)/τ, for a checkpoint of δ and failures M apart.
func ExactInterval(delta, mtbf float64) float64 {
	return mtbf * (1 + LambertW0(-math.Exp(-(1 + delta/mtbf))))
}

// LambertW0 returns the principal branch of Lambert's W, the w ≥ −1 with
// w·e^w = x, for x ≥ −1/e, by Halley's iteration; NaN below −1/e.
func LambertW0(x float64) float64 {
	const branch = -1 / math.E
	switch {
	case math.IsNaN(x) || x < branch:
		return math.NaN()
	case x == 0:
		return 0
	case math.IsInf(x, 1):
		return x
	}
	var w float64
	switch q := 2 * (math.E*x + 1); {
	case q <= 0:
		return -1
	case x < -0.25:
		// The series about the branch point in p = √(2(ex+1)).
		p := math.Sqrt(q)
		w = -1 + p - p*p/3 + 11.0/72*p*p*p
	case x < 3:
		w = math.Log1p(x)
	default:
		l1 := math.Log(x)
		l2 := math.Log(l1)
		w = l1 - l2 + l2/l1
	}
	for range 64 {
		ew := math.Exp(w)
		f := w*ew - x
		d := ew*(w+1) - (w+2)*f/(2*w+2)
		if d == 0 || math.IsNaN(d) {
			break
		}
		next := w - f/d
		if math.Abs(next-w) <= 1e-16*math.Max(1, math.Abs(next)) {
			return next
		}
		w = next
	}
	return w
}
