package criteria

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ckptlab/internal/lessonfigures"
	"ckptlab/model"
)

// TestScheduleLessonFigures holds the best schedule of the lesson's stream
// to the figures worked out from the lesson's matrix (lessonfigures).
func TestScheduleLessonFigures(t *testing.T) {
	s := NewSchedules(lessonStream(), 12, defaultFailures(12))
	for _, want := range lessonfigures.Schedules[1:] {
		p, err := strconv.ParseFloat(want[0], 64)
		if err != nil {
			t.Fatal(err)
		}
		best := s.Best(p, 200)
		labels := make([]string, len(best.Points))
		for i, t := range best.Points {
			labels[i] = fmt.Sprintf("2026-%02d", t+1)
		}
		got := []string{want[0], strconv.Itoa(len(best.Points)), strings.Join(labels, " "), round(best.Expected(p, 11, 200), 1)}
		if !slices.Equal(got, want) {
			t.Errorf("best schedule at p = %s: %v, want %v", want[0], got[1:], want[1:])
		}
	}
}

// exactCost is c·stateRows + p·R/W in exact arithmetic.
func exactCost(points int, rows int64, p float64, weight, stateRows int64) *big.Rat {
	v := new(big.Rat).SetFrac64(rows, weight)
	v.Mul(v, new(big.Rat).SetFloat64(p))
	return v.Add(v, new(big.Rat).SetInt64(int64(points)*stateRows))
}

// bruteSchedule enumerates every schedule of points 1..P−1.
// It costs each from the definition, recovery by recovery.
// It returns the least by exact cost, then fewer points, then earlier points.
func bruteSchedule(counts []int64, failures []int, weights []int64, p float64, stateRows int64) Schedule {
	periods := len(counts)
	var weight int64
	for _, w := range weights {
		weight += w
	}
	var best Schedule
	var least *big.Rat
	for mask := 0; mask < 1<<(periods-1); mask++ {
		var points []int
		for t := 1; t < periods; t++ {
			if mask&(1<<(t-1)) != 0 {
				points = append(points, t)
			}
		}
		var rows int64
		for i, f := range failures {
			last := -1
			for _, t := range points {
				if t <= f {
					last = t
				}
			}
			for j := last + 1; j <= f; j++ {
				rows += weights[i] * counts[j]
			}
		}
		cost := exactCost(len(points), rows, p, weight, stateRows)
		better := least == nil
		if !better {
			switch c := cost.Cmp(least); {
			case c < 0:
				better = true
			case c == 0 && len(points) < len(best.Points):
				better = true
			case c == 0 && len(points) == len(best.Points):
				better = slices.Compare(points, best.Points) < 0
			}
		}
		if better {
			best, least = Schedule{Points: points, Recomputed: rows}, cost
		}
	}
	return best
}

// randomSource returns rows per period, a failure set and weights.
// The first period has no rows, as in the lesson's stages.
// The failures are every period but the first, or a random subset.
// The weights are all 1, small, zero for some, or large.
func randomSource(rng *rand.Rand, maxPeriods int) (counts []int64, failures []int, weights []int64) {
	periods := 2 + rng.IntN(maxPeriods-1)
	counts = make([]int64, periods)
	for j := 1; j < periods; j++ {
		counts[j] = rng.Int64N(6) * 100 // few distinct values: many ties
		if rng.IntN(3) == 0 {
			counts[j] = rng.Int64N(1000)
		}
	}
	for f := 1; f < periods; f++ {
		if rng.IntN(3) > 0 || f == periods-1 {
			failures = append(failures, f)
		}
	}
	kind := rng.IntN(4)
	for range failures {
		switch kind {
		case 0:
			weights = append(weights, 1)
		case 1:
			weights = append(weights, rng.Int64N(4)) // zero weights too
		case 2:
			weights = append(weights, 1+rng.Int64N(3))
		default:
			weights = append(weights, rng.Int64N(1_000_000))
		}
	}
	if weights[len(weights)-1] == 0 {
		weights[len(weights)-1] = 1 // W > 0, as the experiment requires
	}
	return counts, failures, weights
}

// randomDecision returns a probability and a state size.
// Ties and edges are frequent: p at 0, 1 and simple fractions, and no state.
func randomDecision(rng *rand.Rand) (float64, int64) {
	p := []float64{0, 0.25, 0.5, 0.75, 1, 0.1, rng.Float64()}[rng.IntN(7)]
	stateRows := []int64{0, 100, 200, rng.Int64N(3000)}[rng.IntN(4)]
	return p, stateRows
}

func TestScheduleAgainstBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 3000 {
		counts, failures, weights := randomSource(rng, 11)
		p, stateRows := randomDecision(rng)
		got := NewSchedules(model.NewRecovery(counts), len(counts), model.FailureSet{Periods: failures, Weights: weights}).Best(p, stateRows)
		want := bruteSchedule(counts, failures, weights, p, stateRows)
		if !slices.Equal(got.Points, want.Points) || got.Recomputed != want.Recomputed {
			t.Fatalf("trial %d: counts %v, failures %v, weights %v, p %v, state %d: best %v (R %d), brute force %v (R %d)",
				trial, counts, failures, weights, p, stateRows, got.Points, got.Recomputed, want.Points, want.Recomputed)
		}
	}
}

// TestScheduleNeverAboveIntervals checks that the best schedule costs no
// more than the best fixed interval. The check is exact.
// The sources have up to 60 periods.
// Interval k is a schedule, less the checkpoint after the last period
// that P // k charges.
func TestScheduleNeverAboveIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 1000 {
		counts, failures, weights := randomSource(rng, 60)
		periods := len(counts)
		p, stateRows := randomDecision(rng)
		stream := model.NewRecovery(counts)
		var weight int64
		for _, w := range weights {
			weight += w
		}
		s := NewSchedules(stream, periods, model.FailureSet{Periods: failures, Weights: weights})
		best := s.Best(p, stateRows)
		got := exactCost(len(best.Points), best.Recomputed, p, weight, stateRows)
		for k := 0; k <= periods; k++ {
			var rows int64
			for i, f := range failures {
				rows += weights[i] * stream.Recomputed(model.Interval(k), f)
			}
			checkpoints := model.Interval(k).Checkpoints(periods)
			interval := exactCost(checkpoints, rows, p, weight, stateRows)
			if got.Cmp(interval) > 0 {
				t.Fatalf("trial %d: the best schedule %v costs %s, above interval %d's %s", trial, best.Points, got.FloatString(3), k, interval.FloatString(3))
			}
			line := Line{Certain: int64(checkpoints) * stateRows, Sum: rows}
			if below := best.Below(p, weight, stateRows, line); below != (got.Cmp(interval) < 0) {
				t.Fatalf("trial %d: Below(interval %d) = %v, but the schedule costs %s and the interval %s", trial, k, below, got.FloatString(3), interval.FloatString(3))
			}
		}
	}
}

// TestScheduleExactTies sets up two schedules whose costs differ by less
// than a float64 can tell at their size.
// The comparison must still pick the cheaper one.
func TestScheduleExactTies(t *testing.T) {
	// One failure, in the last period; a checkpoint at point 1 saves the
	// rows of period 1 (huge) for the cost of a state that is one row more.
	const huge = int64(1) << 55
	counts := []int64{0, huge, 1}
	for _, c := range []struct {
		stateRows int64
		want      []int
	}{
		{huge - 1, []int{2}}, // a checkpoint at 2 saves huge+1 for huge−1
		{huge + 1, nil},      // saving huge+1 for huge+1: a tie, to fewer checkpoints
		{huge + 2, nil},
	} {
		got := NewSchedules(model.NewRecovery(counts), 3, model.FailureSet{Periods: []int{2}}).Best(1, c.stateRows)
		if !slices.Equal(got.Points, c.want) {
			t.Errorf("state %d: best %v, want %v", c.stateRows, got.Points, c.want)
		}
	}
}

func BenchmarkSchedule(b *testing.B) {
	for _, periods := range []int{120, 960} {
		counts := make([]int64, periods)
		for j := 1; j < periods; j++ {
			counts[j] = 1_000_000
		}
		s := NewSchedules(model.NewRecovery(counts), periods, defaultFailures(periods))
		b.Run(fmt.Sprintf("periods=%d", periods), func(b *testing.B) {
			for range b.N {
				s.Best(0.5, 1_000_000)
			}
		})
	}
}

// TestBelowMatchesExact holds Below to the comparison in exact rationals.
// Below compares in float64 first.
// The figures are random, of every size up to an int64's.
// Ties and near ties are made on purpose too.
// There the float64 sum cannot tell the sign, and the exact one must.
func TestBelowMatchesExact(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 16))
	// sized returns a random int64 of up to bits bits, often small.
	sized := func(bits int) int64 {
		n := rng.IntN(bits + 1)
		if n == 0 {
			return 0
		}
		return rng.Int64N(int64(1)<<(n-1)) + int64(1)<<(n-1) - 1
	}
	probabilities := func() float64 {
		return []float64{0, 1, 0.5, 0.25, 0.1, 1e-300, 5e-324, rng.Float64(), rng.Float64() * 1e-9}[rng.IntN(9)]
	}
	check := func(trial int, s Schedule, p float64, weight, stateRows int64, l Line) {
		t.Helper()
		if got, want := s.Below(p, weight, stateRows, l), s.belowExact(p, weight, stateRows, l); got != want {
			t.Fatalf("trial %d: %d points, R %d, p %v, W %d, state %d, line %+v: Below %v, exactly %v",
				trial, len(s.Points), s.Recomputed, p, weight, stateRows, l, got, want)
		}
	}
	signed := func(bits int) int64 {
		if rng.IntN(4) == 0 {
			return -sized(bits)
		}
		return sized(bits)
	}
	for trial := range 30000 {
		s := Schedule{Points: make([]int, rng.IntN(1000)), Recomputed: signed(62)}
		check(trial, s, probabilities(), 1+sized(40), signed(40), Line{Certain: signed(62), Sum: signed(62)})
		// past an int64: c·stateRows − C does not fit one
		check(trial, s, probabilities(), 1+sized(40), signed(63), Line{Certain: signed(63), Sum: signed(62)})
		// the schedule is the line
		l := Line{Certain: int64(len(s.Points)) * 1000, Sum: s.Recomputed}
		check(trial, s, probabilities(), 1+sized(40), 1000, l)
	}
	// Ties: p = 2^-k, (c·stateRows − C)·W = a·W and R − S = −a·W·2^k, so
	// that the sum is zero; then S one off either way. c·stateRows and R
	// are past float64's 2^53, so that the float64 sum rounds.
	for trial := range 30000 {
		k := rng.IntN(20)
		p := 1 / float64(int64(1)<<k)
		c, stateRows, weight, a := int64(rng.IntN(1000)), sized(50), 1+sized(20), sized(8)-128
		s := Schedule{Points: make([]int, c), Recomputed: sized(60)}
		l := Line{Certain: c*stateRows - a, Sum: s.Recomputed + a*weight<<k}
		for _, off := range []int64{-1, 0, 1} {
			l := l
			l.Sum += off
			check(trial, s, p, weight, stateRows, l)
		}
	}
}
