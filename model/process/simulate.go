package process

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Distribution is the law of the times between failures.
type Distribution int

const (
	Exponential Distribution = iota // memoryless, rate 1/MTBF
	Weibull                         // shape k, scale MTBF / Γ(1 + 1/k)
)

// String returns the distribution's name as experiment files spell it.
func (d Distribution) String() string {
	if d == Weibull {
		return "weibull"
	}
	return "exponential"
}

// Failures is the law of the times between failures: their distribution,
// its mean MTBF in seconds, and the Weibull shape.
type Failures struct {
	Distribution Distribution
	MTBF         float64
	Shape        float64
}

// Estimate is a Monte Carlo estimate of a job's time: the mean of its
// replications and the half-width of its 95 % confidence interval,
// 1.96 s/√n (NaN for a single replication). OK is false when a
// replication met more failures than a simulation may count.
type Estimate struct {
	Mean, HalfWidth float64
	OK              bool
}

// MaxFailures bounds the failures one simulation of a point counts, over
// all its replications: a job whose segments a failure almost always
// interrupts would otherwise not end. Under exponential failures a point
// whose expected count passes it is not simulated at all.
const MaxFailures = 1 << 24

// block is the number of replications summed together; the blocks are
// fixed, so the sums come out the same for any number of goroutines.
const block = 1024

// Simulate runs reps replications of the job cut into segs, under the
// failures f with restarts of restart seconds, on jobs goroutines. Failures
// strike during work, checkpoint and restart alike, each losing the
// segment's progress; the time to the next failure is drawn anew after
// each. Replication i draws from a generator seeded by (seed, point, i),
// so the estimate is the same for any jobs.
func Simulate(segs []Segment, checkpoint, restart float64, f Failures, reps int, seed, point uint64, jobs int) Estimate {
	if reps <= 0 {
		return Estimate{}
	}
	needs := make([]float64, len(segs))
	for i, s := range segs {
		needs[i] = s.Work
		if s.Checkpoint {
			needs[i] += checkpoint
		}
	}
	if f.Distribution == Exponential && float64(reps)*expectedFailures(needs, restart, f.MTBF) > MaxFailures {
		return Estimate{}
	}
	draw := f.sampler()
	nblocks := (reps + block - 1) / block
	sums := make([]moments, nblocks)
	var next, total atomic.Int64 // total: failures counted so far
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range max(min(jobs, nblocks), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pcg := rand.NewPCG(0, 0)
			r := rand.New(pcg)
			c := counter{total: &total}
			for !failed.Load() {
				b := int(next.Add(1) - 1)
				if b >= nblocks {
					return
				}
				var m moments
				for i := b * block; i < min((b+1)*block, reps); i++ {
					pcg.Seed(seed, mix(point, uint64(i)))
					t, ok := replicate(needs, restart, r, draw, &c)
					if !ok {
						failed.Store(true)
						return
					}
					m.add(t)
				}
				if !c.flush() {
					failed.Store(true)
					return
				}
				sums[b] = m
			}
		}()
	}
	wg.Wait()
	if failed.Load() {
		return Estimate{}
	}
	var all moments
	for _, m := range sums {
		all.merge(m)
	}
	half := math.NaN()
	if all.n > 1 {
		half = 1.96 * math.Sqrt(all.m2/float64(all.n-1)/float64(all.n))
	}
	return Estimate{Mean: all.mean, HalfWidth: half, OK: true}
}

// replicate returns the time of one run of the job, counting its
// failures in c, or false once the point's failures pass MaxFailures.
func replicate(needs []float64, restart float64, r *rand.Rand, draw func(*rand.Rand) float64, c *counter) (float64, bool) {
	var t float64
	left := draw(r) // time to the next failure
	for _, base := range needs {
		need := base
		for left < need {
			if !c.add() {
				return 0, false
			}
			t += left
			left = draw(r)
			need = restart + base
		}
		t += need
		left -= need
	}
	return t, true
}

// counter counts one goroutine's failures into the point's total in
// steps: the total passes MaxFailures only when the point's failures do,
// whatever the other goroutines count meanwhile.
type counter struct {
	total   *atomic.Int64
	pending int64
}

const countStep = 1024

// add counts a failure and reports whether the point is still within
// MaxFailures.
func (c *counter) add() bool {
	if c.pending++; c.pending == countStep {
		return c.flush()
	}
	return true
}

// flush adds the pending failures to the total.
func (c *counter) flush() bool {
	n := c.pending
	c.pending = 0
	return c.total.Add(n) <= MaxFailures
}

// expectedFailures returns the expected failures of one run under
// exponential failures: a segment's first attempt needs its work, each
// one after a failure the restart too, so it fails (1 − e^{−W/M})·e^{(R+W)/M}
// times on average.
func expectedFailures(needs []float64, restart, mtbf float64) float64 {
	var n float64
	for _, w := range needs {
		n += -math.Expm1(-w/mtbf) * math.Exp((restart+w)/mtbf)
	}
	return n
}

// sampler returns a function that draws a time between failures.
func (f Failures) sampler() func(*rand.Rand) float64 {
	if f.Distribution == Weibull {
		scale, inv := f.MTBF/math.Gamma(1+1/f.Shape), 1/f.Shape
		return func(r *rand.Rand) float64 {
			return scale * math.Pow(-math.Log(1-r.Float64()), inv)
		}
	}
	m := f.MTBF
	return func(r *rand.Rand) float64 { return m * r.ExpFloat64() }
}

// mix returns the second seed word of replication i of a point (SplitMix64's
// finalizer over both).
func mix(point, i uint64) uint64 {
	z := point ^ (i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// moments are the count, mean and sum of squared deviations of some
// replications' times (Welford), merged in a fixed order.
type moments struct {
	n        int
	mean, m2 float64
}

func (m *moments) add(x float64) {
	m.n++
	d := x - m.mean
	m.mean += d / float64(m.n)
	m.m2 += d * (x - m.mean)
}

// merge adds the replications of o (Chan's formula).
func (m *moments) merge(o moments) {
	if o.n == 0 {
		return
	}
	n := m.n + o.n
	d := o.mean - m.mean
	m.mean += d * float64(o.n) / float64(n)
	m.m2 += o.m2 + d*d*float64(m.n)*float64(o.n)/float64(n)
	m.n = n
}
