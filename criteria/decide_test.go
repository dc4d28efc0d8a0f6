package criteria

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"ckptlab/internal/lessonfigures"
	"ckptlab/model"
)

// lessonStream is the lesson's stream: 200 rows in each of the periods
// 2026-02 .. 2026-12, none in the first.
func lessonStream() model.Recovery {
	counts := make([]int64, 12)
	for j := 1; j < 12; j++ {
		counts[j] = 200
	}
	return model.NewRecovery(counts)
}

var lessonIntervals = []model.Interval{model.None, 6, 4, 3, 2, 1}

// defaultFailures is the lesson's failure set: every period but the
// first, each of weight 1.
func defaultFailures(p int) model.FailureSet {
	var out []int
	for j := 1; j < p; j++ {
		out = append(out, j)
	}
	return model.FailureSet{Periods: out}
}

// bruteSum is Σ_f w_f·recovery(k, f), straight from the lesson's
// definition.
func bruteSum(r model.Recovery, k model.Interval, fs model.FailureSet) int64 {
	var s int64
	for i, f := range fs.Periods {
		s += fs.Weight(i) * r.Recomputed(k, f)
	}
	return s
}

func round(x float64, decimals int) string {
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

func TestLessonFigures(t *testing.T) {
	const p, stateRows = 1.0, 200
	stream, failures := lessonStream(), defaultFailures(12)
	n := int64(len(failures.Periods))
	sums := Sums(stream, 12, failures)
	var lines []Line
	best, worst := -1, -1
	var bestE float64
	var worstT int64
	for i, k := range lessonIntervals {
		c := int64(k.Checkpoints(12)) * stateRows
		lines = append(lines, Line{Certain: c, Sum: sums[k]})
		if e := Expected(p, sums[k], n, c); best < 0 || e < bestE {
			best, bestE = i, e
		}
		var w int64
		for _, f := range failures.Periods {
			w = max(w, stream.Recomputed(k, f))
		}
		if best := w + c; worst < 0 || best < worstT {
			worst, worstT = i, best
		}
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %s, want %s", what, got, want)
		}
	}
	check("best interval", lessonIntervals[best].String(), lessonfigures.BestInterval)
	check("best expected total", round(bestE, 1), lessonfigures.BestExpectedTotal)
	check("worst-case interval", lessonIntervals[worst].String(), lessonfigures.WorstCaseInterval)
	check("worst-case total", strconv.FormatInt(worstT, 10), lessonfigures.WorstCaseTotal)

	k, e := Optimum(sums, n, p, stateRows)
	check("optimal interval", k.String(), lessonfigures.OptimalInterval)
	check("optimal expected total", round(e, 1), lessonfigures.OptimalExpectedTotal)
	k, e = Optimum(sums, n, 0.5, stateRows)
	check("optimal interval at 0.5", k.String(), lessonfigures.OptimalInterval)
	check("optimal expected total at 0.5", round(e, 1), lessonfigures.OptimalAtHalf)
	check("none at 0.5", round(Expected(0.5, sums[0], n, 0), 1), lessonfigures.NoneAtHalf)

	y, d, ok := Young(2200, 12, stateRows, int(n), p)
	check("young", round(y, 3), lessonfigures.YoungInterval)
	check("daly", round(d, 3), lessonfigures.DalyInterval)
	if !ok {
		t.Error("Young reports no interval at p = 1")
	}

	got := [][]string{lessonfigures.Breakeven[0]}
	for _, pc := range Envelope(lines, n) {
		got = append(got, []string{lessonIntervals[pc.Line].String(), Fraction(pc.From), Fraction(pc.To)})
	}
	if !slices.EqualFunc(got, lessonfigures.Breakeven, slices.Equal) {
		t.Errorf("break-even pieces = %v, want %v", got, lessonfigures.Breakeven)
	}
}

func TestYoungNone(t *testing.T) {
	for _, c := range []struct {
		rows int64
		p    float64
	}{{0, 1}, {2200, 0}} {
		if _, _, ok := Young(c.rows, 12, 200, 11, c.p); ok {
			t.Errorf("Young(rows %d, p %v) gives an interval, want none", c.rows, c.p)
		}
	}
}

// randomStream returns a stream of random rows per period and a random
// failure set.
// The set is every period but the first, or an explicit sorted list.
// Each failure weighs 1, or the weights are random.
// A random weight may be 0, but never all of them.
func randomStream(rng *rand.Rand) (model.Recovery, int, model.FailureSet) {
	p := 2 + rng.IntN(30)
	counts := make([]int64, p)
	for j := range counts {
		counts[j] = rng.Int64N(500)
		if rng.IntN(5) == 0 {
			counts[j] = 0
		}
	}
	failures := defaultFailures(p)
	if rng.IntN(2) == 0 {
		var some []int
		for _, f := range failures.Periods {
			if rng.IntN(2) == 0 {
				some = append(some, f)
			}
		}
		if len(some) > 0 {
			failures.Periods = some
		}
	}
	if rng.IntN(2) == 0 {
		failures.Weights = randomWeights(rng, len(failures.Periods))
	}
	return model.NewRecovery(counts), p, failures
}

// randomWeights returns n weights, small or large, zero for some, never
// all zero.
func randomWeights(rng *rand.Rand, n int) []int64 {
	w := make([]int64, n)
	top := []int64{3, 10, 1_000_000}[rng.IntN(3)]
	for i := range w {
		w[i] = rng.Int64N(top)
	}
	w[rng.IntN(n)] = 1 + rng.Int64N(top)
	return w
}

func TestSumsAndOptimumAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		stream, p, failures := randomStream(rng)
		sums := Sums(stream, p, failures)
		for k := 0; k <= p; k++ {
			if want := bruteSum(stream, model.Interval(k), failures); sums[k] != want {
				t.Fatalf("trial %d: S_%s = %d, want %d", trial, model.Interval(k), sums[k], want)
			}
		}
		prob := []float64{0, 0.25, 0.5, 1, rng.Float64()}[rng.IntN(5)]
		stateRows := rng.Int64N(3000)
		order := []model.Interval{model.None}
		for k := p; k >= 1; k-- {
			order = append(order, model.Interval(k))
		}
		want, least := model.Interval(-1), math.Inf(1)
		for _, k := range order {
			c := int64(k.Checkpoints(p)) * stateRows
			if e := Expected(prob, bruteSum(stream, k, failures), failures.Total(), c); e < least {
				want, least = k, e
			}
		}
		if k, e := Optimum(sums, failures.Total(), prob, stateRows); k != want || e != least {
			t.Fatalf("trial %d: Optimum = %s (%v), want %s (%v)", trial, k, e, want, least)
		}
	}
}

// enumerateTail computes the tail criterion straight from its definition.
// It merges equal costs and sorts them descending, each with mass p·m/W.
// m is the weight of the failures of that cost. A nil weights gives each 1.
// The certain cost follows, with mass 1−p.
// It takes mass 1−alpha from the top.
func enumerateTail(ys, weights []int64, alpha, p float64, certain int64) float64 {
	fs := model.FailureSet{Periods: make([]int, len(ys)), Weights: weights}
	n := float64(fs.Total())
	count := map[int64]int64{}
	for i, y := range ys {
		if w := fs.Weight(i); w > 0 {
			count[certain+y] += w
		}
	}
	var costs []int64
	for c := range count {
		costs = append(costs, c)
	}
	slices.Sort(costs)
	slices.Reverse(costs)
	type outcome struct {
		cost float64
		mass float64
	}
	var outs []outcome
	for _, c := range costs {
		outs = append(outs, outcome{float64(c), p * float64(count[c]) / n})
	}
	outs = append(outs, outcome{float64(certain), 1 - p})
	need, taken, sum := 1-alpha, 0.0, 0.0
	for _, o := range outs {
		if taken >= need {
			break
		}
		m := min(o.mass, need-taken)
		sum += o.cost * m
		taken += m
	}
	return sum / need
}

func TestTailAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		n := 1 + rng.IntN(20)
		ys := make([]int64, n)
		for i := range ys {
			ys[i] = rng.Int64N(6) * 100 // few distinct values: many ties
		}
		alpha := []float64{0, 0.5, 0.9, 0.95, 0.99, rng.Float64()}[rng.IntN(6)]
		p := []float64{0, 0.25, 1, rng.Float64()}[rng.IntN(4)]
		certain := rng.Int64N(1000)
		var weights []int64
		if rng.IntN(2) == 0 {
			weights = randomWeights(rng, n)
		}
		got := NewOutcomes(ys, weights).Tail(alpha, p, certain)
		want := enumerateTail(ys, weights, alpha, p, certain)
		if alpha == 0 {
			fs := model.FailureSet{Periods: make([]int, n), Weights: weights}
			var s int64
			for i, y := range ys {
				s += fs.Weight(i) * y
			}
			want = Expected(p, s, fs.Total(), certain) // the one defined exception
		}
		if got != want { // the same operations in the same order: the same bits
			t.Fatalf("trial %d: Tail(%v, %v, %d) of %v = %v, want %v", trial, alpha, p, certain, ys, got, want)
		}
	}
}

func TestTailAtZeroIsExpected(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 500 {
		n := 1 + rng.IntN(20)
		ys := make([]int64, n)
		var sum int64
		for i := range ys {
			ys[i] = rng.Int64N(3000)
			sum += ys[i]
		}
		p, certain := rng.Float64(), rng.Int64N(5000)
		o := NewOutcomes(ys, nil)
		if got, want := o.Tail(0, p, certain), Expected(p, sum, int64(n), certain); got != want {
			t.Fatalf("trial %d: Tail at risk level 0 = %v, want expected total %v", trial, got, want)
		}
		// and the enumeration agrees, so the shortcut is the criterion
		if e := enumerateTail(ys, nil, 0, p, certain); math.Abs(e-Expected(p, sum, int64(n), certain)) > 1e-9*max(1, e) {
			t.Fatalf("trial %d: enumerated tail at 0 = %v, want %v", trial, e, Expected(p, sum, int64(n), certain))
		}
	}
}

func TestTailAtOneMinusMassIsWorst(t *testing.T) {
	// With p = 1 and 1−alpha no more than one failure's mass, the tail is
	// the worst total: the lesson's worst case.
	o := NewOutcomes([]int64{200, 400, 600, 0, 200, 400, 600, 0, 200, 400, 600}, nil)
	if got := o.Tail(0.95, 1, 600); got != 1200 {
		t.Errorf("tail of interval 4 at 0.95 = %v, want 1200", got)
	}
}

// randomLines returns lines with few distinct values, so that identical
// lines, common breakpoints and ties at 0 are frequent.
func randomLines(rng *rand.Rand) ([]Line, int64) {
	lines := make([]Line, 1+rng.IntN(10))
	for i := range lines {
		lines[i] = Line{Certain: rng.Int64N(5) * 100, Sum: rng.Int64N(8) * 300}
	}
	return lines, 1 + rng.Int64N(12)
}

func exactAt(l Line, p *big.Rat, n int64) *big.Rat { return eval(l, p, big.NewInt(n)) }

func TestEnvelopeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		lines, n := randomLines(rng)
		pieces := Envelope(lines, n)
		name := fmt.Sprintf("trial %d: lines %v, n %d: pieces", trial, lines, n)
		if len(pieces) == 0 || pieces[0].From.Sign() != 0 || pieces[len(pieces)-1].To.Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("%s %v do not span [0, 1]", name, pieces)
		}
		for i, pc := range pieces {
			if pc.From.Cmp(pc.To) >= 0 {
				t.Fatalf("%s: piece %d has zero or negative width", name, i)
			}
			if i > 0 && pieces[i-1].To.Cmp(pc.From) != 0 {
				t.Fatalf("%s: gap or overlap before piece %d", name, i)
			}
			if i > 0 && pieces[i-1].Line == pc.Line {
				t.Fatalf("%s: pieces %d and %d name the same line", name, i-1, i)
			}
			mid := new(big.Rat).Add(pc.From, pc.To)
			mid.Quo(mid, big.NewRat(2, 1))
			e := exactAt(lines[pc.Line], mid, n)
			for j, l := range lines {
				c := exactAt(l, mid, n).Cmp(e)
				if c < 0 || (c == 0 && l == lines[pc.Line] && j < pc.Line) {
					t.Fatalf("%s: line %d beats the named line %d inside piece %d", name, j, pc.Line, i)
				}
			}
		}
	}
}

func TestEnvelopeAgainstScan(t *testing.T) {
	t.Parallel()
	const steps = 2000
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		lines, n := randomLines(rng)
		pieces := Envelope(lines, n)
		for s := 0; s <= steps; s++ {
			p := big.NewRat(int64(s), steps)
			least := exactAt(lines[0], p, n)
			for _, l := range lines[1:] {
				if e := exactAt(l, p, n); e.Cmp(least) < 0 {
					least = e
				}
			}
			// every piece containing p names a line at the minimum there
			for _, pc := range pieces {
				if pc.From.Cmp(p) <= 0 && p.Cmp(pc.To) <= 0 {
					if e := exactAt(lines[pc.Line], p, n); e.Cmp(least) != 0 {
						t.Fatalf("trial %d: at p = %s the envelope gives %s, the scan %s", trial, p, e, least)
					}
				}
			}
		}
	}
}

func TestEnvelopeStartRule(t *testing.T) {
	// At p = 0 two lines tie at 0; the one of smaller slope wins, and an
	// identical later line is never named.
	lines := []Line{{0, 900}, {0, 300}, {0, 300}, {500, 0}}
	pieces := Envelope(lines, 3)
	if pieces[0].Line != 1 {
		t.Errorf("first piece names line %d, want 1 (least cost, then least slope)", pieces[0].Line)
	}
	for _, pc := range pieces {
		if pc.Line == 2 {
			t.Errorf("the copy of line 1 is named: %v", pieces)
		}
	}
	if got := Probability(big.NewRat(11, 18)); got != 11.0/18 {
		t.Errorf("Probability(11/18) = %v", got)
	}
}

// eval returns C + p·S/n exactly, straight from the definition.
func eval(l Line, p *big.Rat, n *big.Int) *big.Rat {
	v := new(big.Rat).SetFrac(big.NewInt(l.Sum), n)
	v.Mul(v, p)
	return v.Add(v, new(big.Rat).SetInt64(l.Certain))
}

func TestOptimumTiesToTheEarlier(t *testing.T) {
	// With no rows and no state, every interval costs 0: none, the first
	// in the order none, P, …, 1, wins.
	sums := Sums(model.NewRecovery(make([]int64, 12)), 12, defaultFailures(12))
	if k, e := Optimum(sums, 11, 1, 0); k != model.None || e != 0 {
		t.Errorf("Optimum of equal costs = %s (%v), want none (0)", k, e)
	}
}
