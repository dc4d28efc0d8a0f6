package process

import (
	"testing"

	"ckptlab/model"
)

// BenchmarkAnchor evaluates the anchor case's three groups as a run does:
// the intervals 1…400, the optimum over every interval, the schedule and
// the textbook optima.
func BenchmarkAnchor(b *testing.B) {
	w := anchorWork()
	declared := make([]model.Interval, 400)
	for i := range declared {
		declared[i] = model.Interval(i + 1)
	}
	for b.Loop() {
		for _, g := range anchorGroups {
			p := anchorProcess(g.mtbf)
			for _, k := range declared {
				p.ExpectedInterval(w, k)
			}
			p.Optimal(w)
			p.Schedule(w)
			p.Textbook(w)
		}
	}
}

// BenchmarkSimulateLesson runs 10⁵ replications of the lesson's stream (200
// rows in each period but the first of 12) at 0.05 rows/s, checkpointing
// every period, with failures 6 h apart, δ = 5 min, R = 10 min, on 2
// goroutines.
func BenchmarkSimulateLesson(b *testing.B) {
	rows := make([]int64, 12)
	for j := 1; j < 12; j++ {
		rows[j] = 200
	}
	w := NewWork(rows, 0.05)
	segs := w.Segments(Points(1, 12))
	for _, f := range []Failures{{MTBF: 6 * hour}, {Distribution: Weibull, MTBF: 6 * hour, Shape: 0.7}} {
		b.Run(f.Distribution.String(), func(b *testing.B) {
			for b.Loop() {
				Simulate(segs, 5*minute, 10*minute, f, 100_000, 20260218, 1, 2)
			}
		})
	}
}

// BenchmarkSchedule runs the dynamic program on 10⁵ periods.
func BenchmarkSchedule(b *testing.B) {
	rows := make([]int64, 100_001)
	for j := 1; j < len(rows); j++ {
		rows[j] = 30
	}
	w := NewWork(rows, 0.5)
	p := anchorProcess(6 * hour)
	for b.Loop() {
		p.Schedule(w)
	}
}
