package process

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ckptlab/model"
)

// randomCase returns a random stream of 2 … maxPeriods periods (the first
// without rows, as a stream's is, some others empty) and a process.
func randomCase(r *rand.Rand, maxPeriods int) (Work, Process) {
	rows := make([]int64, 2+r.IntN(maxPeriods-1))
	for j := 1; j < len(rows); j++ {
		if r.IntN(8) > 0 {
			rows[j] = 1 + r.Int64N(400)
		}
	}
	w := NewWork(rows, 0.1+r.Float64()*3)
	p := Process{
		MTBF:       60 + r.Float64()*20000,
		Checkpoint: 1 + r.Float64()*600,
		Restart:    r.Float64() * 900,
	}
	return w, p
}

// TestScheduleBruteForce compares the dynamic program with every schedule
// of small random streams (P ≤ 16).
func TestScheduleBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for c := range 300 {
		w, p := randomCase(r, 16)
		n := w.Periods()
		var best, second float64 = math.Inf(1), math.Inf(1)
		var bestPts []int
		for mask := 0; mask < 1<<(n-1); mask++ {
			var pts []int
			for t := 1; t <= n-1; t++ {
				if mask&(1<<(t-1)) != 0 {
					pts = append(pts, t)
				}
			}
			switch e := p.Expected(w, pts); {
			case e < best:
				second, best, bestPts = best, e, pts
			case e < second:
				second = e
			}
		}
		pts, e := p.Schedule(w)
		if math.Abs(e-best) > 1e-12*best {
			t.Fatalf("case %d (%d periods): schedule %v costs %v, brute force %v costs %v", c, n, pts, e, bestPts, best)
		}
		if got := p.Expected(w, pts); math.Abs(got-e) > 1e-12*e {
			t.Fatalf("case %d: schedule %v said to cost %v, costs %v", c, pts, e, got)
		}
		if second-best > 1e-9*best && !slices.Equal(pts, bestPts) {
			t.Fatalf("case %d: schedule %v, brute force %v", c, pts, bestPts)
		}
		if _, eo := p.Optimal(w); e > eo*(1+1e-12) {
			t.Fatalf("case %d: schedule %v above the optimum interval's %v", c, e, eo)
		}
	}
}

// TestOptimalEveryInterval compares Optimal with each interval tried alone.
func TestOptimalEveryInterval(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for c := range 200 {
		w, p := randomCase(r, 40)
		k, e := p.Optimal(w)
		for j := 0; j < w.Periods(); j++ {
			if ej := p.Expected(w, Points(model.Interval(j), w.Periods())); ej < e {
				t.Fatalf("case %d: interval %d costs %v, below the optimum %v's %v", c, j, ej, k, e)
			}
		}
		if got := p.Expected(w, Points(k, w.Periods())); got != e {
			t.Fatalf("case %d: optimum %v said to cost %v, costs %v", c, k, e, got)
		}
	}
}

// TestScheduleLarge runs the program on 10⁵ periods: a uniform stream's
// schedule is as regular as the intervals' optimum and no dearer.
func TestScheduleLarge(t *testing.T) {
	rows := make([]int64, 100_001)
	for j := 1; j < len(rows); j++ {
		rows[j] = 30
	}
	w := NewWork(rows, 0.5)
	p := anchorProcess(24 * hour)
	pts, e := p.Schedule(w)
	_, eo := p.Optimal(w)
	if e > eo {
		t.Errorf("schedule %v s above the optimum interval's %v s", e, eo)
	}
	tb, _ := p.Textbook(w)
	gap := float64(pts[0])
	for i := 1; i < len(pts); i++ {
		gap = max(gap, float64(pts[i]-pts[i-1]))
	}
	if math.Abs(gap-tb.Exact)/tb.Exact > 0.03 {
		t.Errorf("largest gap %v periods, the continuous optimum %v", gap, tb.Exact)
	}
}
