package process

import (
	"math"

	"ckptlab/model"
)

// Process is a failure process and the durations it meets, in seconds:
// failures a mean time MTBF apart, a checkpoint taking Checkpoint (δ) and a
// restart taking Restart (R) before the replay begins.
type Process struct {
	MTBF, Checkpoint, Restart float64
}

// SegmentTime returns the expected time of a segment of the given work under
// exponential failures, E = e^{λR}/λ · (e^{λ(W+δ_s)} − 1) with λ = 1/MTBF
// (Daly 2006 without downtime), δ_s = δ when a checkpoint ends the segment
// and 0 otherwise.
func (p Process) SegmentTime(work float64, checkpoint bool) float64 {
	if checkpoint {
		work += p.Checkpoint
	}
	if work == 0 {
		return 0
	}
	return p.MTBF * math.Exp(p.Restart/p.MTBF) * math.Expm1(work/p.MTBF)
}

// Expected returns the job's expected time under exponential failures with
// checkpoints at the given points: the sum of its segments' times.
func (p Process) Expected(w Work, points []int) float64 {
	var e float64
	from := 0
	for _, t := range points {
		e += p.SegmentTime(w.seconds(from, t+1), true)
		from = t + 1
	}
	return e + p.SegmentTime(w.seconds(from, w.Periods()), false)
}

// ExpectedInterval returns Expected at the points of interval k, in time
// proportional to the number of its checkpoints.
func (p Process) ExpectedInterval(w Work, k model.Interval) float64 {
	periods := w.Periods()
	var e float64
	from := 0
	if k != model.None {
		for t := int(k); t <= periods-1; t += int(k) {
			e += p.SegmentTime(w.seconds(from, t+1), true)
			from = t + 1
		}
	}
	return e + p.SegmentTime(w.seconds(from, periods), false)
}

// LostFraction returns the share of time beyond the work itself,
// expected / work − 1; ok is false when there is no work.
func LostFraction(expected, work float64) (lost float64, ok bool) {
	if work == 0 {
		return 0, false
	}
	return expected/work - 1, true
}
