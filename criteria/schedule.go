package criteria

import (
	"math"
	"math/big"
	"math/bits"

	"ckptlab/model"
)

// A schedule is a set of checkpoint points among 1..P−1, 0-based.
// A checkpoint at point t makes the state durable through period t.
// A failure in period f recomputes the periods after the last point at or
// before f, up to f. With no such point it recomputes every row up to f.
// The lesson's recovery does the same for a fixed interval.
// A schedule of c points costs E = c·stateRows + p·R/W.
// R = Σ_f w_f·y(f) is the weighted sum of the rows its failures recompute,
// and W = Σ_f w_f.
//
// A fixed interval k is the schedule {k, 2k, …} below P.
// When k divides P, the lesson's P // k also charges a checkpoint after the
// last period, which protects nothing.
// So the best schedule is never above the best interval.

// Schedule is one checkpoint schedule and the weighted rows it recomputes.
type Schedule struct {
	Points     []int // 0-based points, ascending
	Recomputed int64 // R = Σ_f w_f·y(f) over the failure set
}

// Expected returns the schedule's expected total,
// p × R / W + checkpoints × stateRows.
// It computes in float64 in the order the package's Expected does.
func (s Schedule) Expected(p float64, weight int64, stateRows int64) float64 {
	return Expected(p, s.Recomputed, weight, int64(len(s.Points))*stateRows)
}

// Below reports whether the schedule costs strictly less than the interval
// of line l at probability p in [0, 1].
// The comparison is exact.
// It tests c·stateRows + p·R/W < C + p·S/W, or equally
// (c·stateRows − C)·W + p·(R − S) < 0.
//
// The signs of the two terms are exact in int64 when c·stateRows − C fits one.
// When the signs agree, they are the sum's sign.
// They agree when the schedule is the interval's, or better or worse on both counts.
// Otherwise Below computes the sum in float64, with a bound on its rounding error.
// Only a sum within that bound of zero is computed again in exact rationals.
// So Below allocates only at ties and near ties.
func (s Schedule) Below(p float64, weight, stateRows int64, l Line) bool {
	if a, ok := certainDifference(len(s.Points), stateRows, l.Certain); ok {
		x, y := sign(a)*sign(weight), sign(s.Recomputed-l.Sum)
		if p == 0 {
			y = 0
		}
		if x == 0 || y == 0 || x == y {
			return x+y < 0
		}
	}
	c := float64(len(s.Points))
	certain := c*float64(stateRows) - float64(l.Certain)
	recomputed := p * float64(s.Recomputed-l.Sum)
	sum := certain*float64(weight) + recomputed
	// Each operation above rounds by at most u = 2^-53 of its result and
	// each conversion by u of its value: the sum is off by less than 8u
	// of the magnitudes it adds (about 7u, higher orders included).
	bound := 0x1p-49 * ((math.Abs(c*float64(stateRows))+math.Abs(float64(l.Certain)))*math.Abs(float64(weight)) + math.Abs(recomputed))
	if math.Abs(sum) > bound {
		return sum < 0
	}
	return s.belowExact(p, weight, stateRows, l)
}

// certainDifference returns c·stateRows − certain, and whether it fits an
// int64 (c >= 0).
func certainDifference(c int, stateRows, certain int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(c), uint64(max(stateRows, -stateRows)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	m := int64(lo)
	if stateRows < 0 {
		m = -m
	}
	d := m - certain
	if (m^certain)&(m^d) < 0 { // the subtraction overflowed
		return 0, false
	}
	return d, true
}

// sign returns -1, 0 or 1 as v is negative, zero or positive.
func sign(v int64) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// belowExact is Below in exact rationals.
func (s Schedule) belowExact(p float64, weight, stateRows int64, l Line) bool {
	x := new(big.Rat).SetInt64(int64(len(s.Points)))
	x.Mul(x, new(big.Rat).SetInt64(stateRows))
	x.Sub(x, new(big.Rat).SetInt64(l.Certain))
	x.Mul(x, new(big.Rat).SetInt64(weight))
	y := new(big.Rat).SetFloat64(p)
	y.Mul(y, new(big.Rat).SetInt64(s.Recomputed-l.Sum))
	return x.Add(x, y).Sign() < 0
}

// Schedules finds the best schedule of one source for any probability and
// state size.
// It holds prefix sums over the periods, O(P), built once per source.
// Each question then costs O(P²).
//
// Best reuses scratch space of the Schedules.
// So one Schedules answers one question at a time.
// Each goroutine needs a Schedules of its own.
type Schedules struct {
	periods int
	upTo    []int64 // upTo[j] = rows in periods 0..j
	weight  []int64 // weight[j] = Σ w_f over failures f < j
	rows    []int64 // rows[j] = Σ w_f·upTo[f] over failures f < j

	// scratch of Best, one entry per point and one for the start
	bestPoints, bestNext []int
	bestRows             []int64
}

// NewSchedules returns the Schedules of a stream of the given periods and
// the failure set fs.
// The weighted sums must fit an int64. The experiment's limits see to that.
func NewSchedules(stream model.Recovery, periods int, fs model.FailureSet) *Schedules {
	s := &Schedules{
		periods:    periods,
		upTo:       make([]int64, periods),
		weight:     make([]int64, periods+1),
		rows:       make([]int64, periods+1),
		bestPoints: make([]int, periods+1),
		bestNext:   make([]int, periods+1),
		bestRows:   make([]int64, periods+1),
	}
	for j := range s.upTo {
		s.upTo[j] = stream.Recomputed(model.None, j)
	}
	for i, f := range fs.Periods {
		w := fs.Weight(i)
		s.weight[f+1] += w
		s.rows[f+1] += w * s.upTo[f]
	}
	for j := 1; j <= periods; j++ {
		s.weight[j] += s.weight[j-1]
		s.rows[j] += s.rows[j-1]
	}
	return s
}

// Best returns the schedule of least expected total at probability p,
// with checkpoints of stateRows rows.
// It minimizes over all 2^(P−1) schedules, comparing costs exactly.
// The probability is taken as the exact value of its float64.
// Among equal totals, the schedule with fewer checkpoints wins.
// Then the one whose first differing point is earlier wins.
//
// Best is a dynamic program from the last point back.
// best[a] is the best rest of a schedule with a checkpoint at a.
// It chooses the next point b, or none.
// So Best takes at most O(P²) steps of a few float operations each.
// Costs further apart than the floats' error (slack) are compared as floats.
// Nearer costs are compared exactly.
// The search for a next point stops once one checkpoint and the rows up to
// the point alone cost more than the best found.
// So a schedule with checkpoints g periods apart takes about O(P·g) steps.
func (s *Schedules) Best(p float64, stateRows int64) Schedule {
	P := s.periods
	cmp := newComparer(p, stateRows, s.weight[P])
	// The best rest of a schedule after a checkpoint at a, index a+1
	// (a = −1 for the start): its checkpoints, its weighted rows recomputed
	// from a on, and its next point (P for none).
	points, rows, next := s.bestPoints, s.bestRows, s.bestNext // every entry read is written first
	for a := P - 1; a >= -1; a-- {
		if a == 0 {
			continue // point 0 is no point of a schedule
		}
		lo, base := max(a, 0), int64(0)
		if a >= 0 {
			base = s.upTo[a]
		}
		rowsLo, weightLo := s.rows[lo], s.weight[lo]
		// the failures in [a, b) recompute from a: Σ w_f·(upTo[f] − upTo[a]).
		bp, br, bn := 0, s.rows[P]-rowsLo-base*(s.weight[P]-weightLo), P
		bv := p * float64(br) // its cost, c·stateRows·W + p·R, in float64
		for b := max(a+1, 1); b < P; b++ {
			seg := s.rows[b] - rowsLo - base*(s.weight[b]-weightLo)
			// A next point at b or later costs at least one checkpoint and
			// seg, which grows with b: once that is above the best, so is
			// every later b (at equal cost a later b could still win by
			// fewer checkpoints, so only a strict excess stops).
			if lb := cmp.state + p*float64(seg); lb > bv*(1+slack) || lb >= bv*(1-slack) && cmp.compare(bp, br, 1, seg) < 0 {
				break
			}
			cp, cr := 1+points[b+1], seg+rows[b+1]
			v := float64(cp)*cmp.state + p*float64(cr)
			if v < bv*(1-slack) || v <= bv*(1+slack) && cmp.better(cp, cr, bp, br) {
				bp, br, bn, bv = cp, cr, b, v
			}
		}
		points[a+1], rows[a+1], next[a+1] = bp, br, bn
	}
	out := Schedule{Recomputed: rows[0]}
	if points[0] > 0 {
		out.Points = make([]int, 0, points[0])
	}
	for b := next[0]; b < P; b = next[b+1] {
		out.Points = append(out.Points, b)
	}
	return out
}

// slack bounds the relative error of a cost c·stateRows·W + p·R in float64.
// That error is a few units of 2^−53; slack leaves a wide margin.
// Costs further apart than slack are ordered by their floats.
// Nearer ones are ordered exactly.
const slack = 1e-9

// better reports whether schedule (c1, r1) comes before schedule (c2, r2).
// c is a schedule's checkpoints and r its weighted rows.
// The first comes before if it costs less, or as much with fewer checkpoints.
func (c comparer) better(c1 int, r1 int64, c2 int, r2 int64) bool {
	v := c.compare(c1, r1, c2, r2)
	return v < 0 || v == 0 && c1 < c2
}

// comparer orders schedules exactly by c·stateRows + p·R/W.
// It compares the equivalent c·stateRows·W + p·R.
type comparer struct {
	p         float64
	state     float64 // stateRows·W, rounded
	exact     bool    // state is stateRows·W exactly, and p is not subnormal
	stateRows int64
	weight    int64 // W
}

func newComparer(p float64, stateRows, weight int64) comparer {
	s, w := float64(stateRows), float64(weight)
	state := s * w
	exact := int64(s) == stateRows && int64(w) == weight && math.FMA(s, w, -state) == 0 &&
		(p == 0 || p >= 0x1p-900)
	return comparer{p: p, state: state, exact: exact, stateRows: stateRows, weight: weight}
}

// compare returns −1, 0 or +1 as schedule (c1, r1) costs less than, as much
// as or more than schedule (c2, r2).
// It is the sign of x + y, with x = (c1−c2)·stateRows·W and y = p·(r1−r2).
//
// In float64, x and y carry a relative error under 3 units of 2^−53.
// So a sum farther from zero than 10^−9 of |x| + |y| has the exact sign.
// Nearer zero, mostly at ties, the sign is still exact when both products are.
// math.FMA gives each product's rounding error.
// A sum of two exact terms rounds to zero only when it is zero.
// Otherwise math/big decides.
func (c comparer) compare(c1 int, r1 int64, c2 int, r2 int64) int {
	x, y := float64(c1-c2)*c.state, c.p*float64(r1-r2)
	if d := x + y; d > 1e-9*(math.Abs(x)+math.Abs(y)) {
		return 1
	} else if -d > 1e-9*(math.Abs(x)+math.Abs(y)) {
		return -1
	}
	return c.near(c1-c2, r1-r2, x, y)
}

// near is compare's sign where the float sum is near zero.
func (c comparer) near(dc int, dr int64, x, y float64) int {
	if dc == 0 && dr == 0 {
		return 0
	}
	fc, fr := float64(dc), float64(dr)
	if !c.exact || int64(fr) != dr || math.FMA(fc, c.state, -x) != 0 || math.FMA(c.p, fr, -y) != 0 {
		return c.exactSign(dc, dr)
	}
	switch d := x + y; {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// exactSign is compare's sign in math/big.
func (c comparer) exactSign(dc int, dr int64) int {
	x := new(big.Rat).SetInt64(int64(dc))
	x.Mul(x, new(big.Rat).SetInt64(c.stateRows))
	x.Mul(x, new(big.Rat).SetInt64(c.weight))
	y := new(big.Rat).SetFloat64(c.p)
	y.Mul(y, new(big.Rat).SetInt64(dr))
	return x.Add(x, y).Sign()
}
