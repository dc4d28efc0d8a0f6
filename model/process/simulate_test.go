package process

import (
	"math"
	"math/rand/v2"
	"testing"

	"ckptlab/model"
)

// randomPoint returns a random stream, process and interval whose
// simulation meets few failures.
func randomPoint(r *rand.Rand) (Work, Process, []int) {
	w, p := randomCase(r, 30)
	p.MTBF = w.Seconds() * (0.5 + 4*r.Float64())
	return w, p, Points(model.Interval(r.IntN(w.Periods())), w.Periods())
}

func TestSimulateExponential(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for c := range 60 {
		w, p, pts := randomPoint(r)
		for _, f := range []Failures{
			{Distribution: Exponential, MTBF: p.MTBF},
			{Distribution: Weibull, MTBF: p.MTBF, Shape: 1},
		} {
			est := Simulate(w.Segments(pts), p.Checkpoint, p.Restart, f, 4000, uint64(c), 7, 2)
			want := p.Expected(w, pts)
			if !est.OK || math.Abs(est.Mean-want) > 4*est.HalfWidth {
				t.Errorf("case %d, %v: mean %v ± %v, exact %v", c, f.Distribution, est.Mean, est.HalfWidth, want)
			}
		}
	}
}

// TestSimulateCoverage: over many seeds, the 95 % interval holds the exact
// value about 95 % of the time.
func TestSimulateCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const seeds = 400
	held := 0
	for s := range seeds {
		w, p, pts := randomPoint(r)
		est := Simulate(w.Segments(pts), p.Checkpoint, p.Restart, Failures{MTBF: p.MTBF}, 1000, uint64(s), 1, 1)
		if math.Abs(est.Mean-p.Expected(w, pts)) <= est.HalfWidth {
			held++
		}
	}
	if share := float64(held) / seeds; share < 0.92 || share > 0.98 {
		t.Errorf("the 95 %% interval held the exact value in %.1f %% of %d seeds", 100*share, seeds)
	}
}

// TestSimulateSameForEveryJobs: the estimate has the same bits for any
// number of goroutines, and changes with the seed and the point.
func TestSimulateSameForEveryJobs(t *testing.T) {
	w, p := anchorWork(), anchorProcess(6*hour)
	segs := w.Segments(Points(57, w.Periods()))
	for _, f := range []Failures{{MTBF: p.MTBF}, {Distribution: Weibull, MTBF: p.MTBF, Shape: 0.7}} {
		one := Simulate(segs, p.Checkpoint, p.Restart, f, 5000, 42, 9, 1)
		for _, jobs := range []int{2, 3, 8} {
			if got := Simulate(segs, p.Checkpoint, p.Restart, f, 5000, 42, 9, jobs); got != one {
				t.Errorf("%v, %d jobs: %+v, one job %+v", f.Distribution, jobs, got, one)
			}
		}
		for _, other := range []Estimate{
			Simulate(segs, p.Checkpoint, p.Restart, f, 5000, 43, 9, 2),
			Simulate(segs, p.Checkpoint, p.Restart, f, 5000, 42, 10, 2),
		} {
			if other.Mean == one.Mean {
				t.Errorf("%v: another seed or point gives the same mean %v", f.Distribution, one.Mean)
			}
		}
	}
}

// TestWeibullMean: the inter-arrival times drawn have mean MTBF for any shape.
func TestWeibullMean(t *testing.T) {
	for _, k := range []float64{0.5, 0.7, 1, 2, 5} {
		f := Failures{Distribution: Weibull, MTBF: 1000, Shape: k}
		draw := f.sampler()
		r := rand.New(rand.NewPCG(1, uint64(k*10)))
		var m moments
		for range 200_000 {
			m.add(draw(r))
		}
		half := 1.96 * math.Sqrt(m.m2/float64(m.n-1)/float64(m.n))
		if math.Abs(m.mean-1000) > 4*half {
			t.Errorf("shape %v: mean %v ± %v, want 1000", k, m.mean, half)
		}
	}
}

// TestSimulateTooManyFailures: a job a failure almost always interrupts is
// not simulated.
func TestSimulateTooManyFailures(t *testing.T) {
	w, p := anchorWork(), anchorProcess(15*minute)
	if est := Simulate(w.Segments(nil), p.Checkpoint, p.Restart, Failures{MTBF: p.MTBF}, 10, 1, 1, 2); est.OK {
		t.Errorf("simulated a job of e^333 expected failures: %+v", est)
	}
}
