package process

import "ckptlab/model"

// Work is a job's work per period: period j takes rows_j / throughput seconds.
type Work struct {
	cum        []int64 // cum[j]: rows of periods before j; len periods+1
	throughput float64
	withRows   int // periods with rows
}

// NewWork returns the work of a job with the given stream rows per period,
// processed at throughput rows per second.
func NewWork(rows []int64, throughput float64) Work {
	w := Work{cum: make([]int64, len(rows)+1), throughput: throughput}
	for j, r := range rows {
		w.cum[j+1] = w.cum[j] + r
		if r > 0 {
			w.withRows++
		}
	}
	return w
}

// Periods returns the number of periods of the job.
func (w Work) Periods() int { return len(w.cum) - 1 }

// Seconds returns the job's work, Σ w_j, in seconds.
func (w Work) Seconds() float64 { return w.seconds(0, len(w.cum)-1) }

// Period returns the work of period j in seconds.
func (w Work) Period(j int) float64 { return w.seconds(j, j+1) }

// seconds returns the work of periods from through to-1.
func (w Work) seconds(from, to int) float64 {
	return float64(w.cum[to]-w.cum[from]) / w.throughput
}

// Mean returns the mean work of the periods with rows, w̄; ok is false
// when no period has rows.
func (w Work) Mean() (mean float64, ok bool) {
	if w.withRows == 0 {
		return 0, false
	}
	return w.Seconds() / float64(w.withRows), true
}

// Points returns the checkpoints of interval k in a job of the given
// periods: the ends of periods k, 2k, … up to the last, periods-1; none for
// model.None.
func Points(k model.Interval, periods int) []int {
	if k == model.None {
		return nil
	}
	var pts []int
	for t := int(k); t <= periods-1; t += int(k) {
		pts = append(pts, t)
	}
	return pts
}

// Checkpoints returns the number of checkpoints of interval k in a job of
// the given periods, len(Points(k, periods)).
func Checkpoints(k model.Interval, periods int) int {
	if k == model.None || periods < 1 {
		return 0
	}
	return (periods - 1) / int(k)
}

// Segments returns the segments that checkpoints at the given points
// (ascending, each in 1…periods-1) cut the job into: the work of each in
// seconds, and whether a checkpoint ends it. The last segment has none.
func (w Work) Segments(points []int) []Segment {
	segs := make([]Segment, 0, len(points)+1)
	from := 0
	for _, t := range points {
		segs = append(segs, Segment{Work: w.seconds(from, t+1), Checkpoint: true})
		from = t + 1
	}
	return append(segs, Segment{Work: w.seconds(from, w.Periods())})
}

// Segment is the work between two checkpoints, in seconds; Checkpoint
// tells whether a checkpoint ends it.
type Segment struct {
	Work       float64
	Checkpoint bool
}
