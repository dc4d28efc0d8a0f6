package answer

import "ckptlab/model"

// A WorkerLine is what a worker sweep answers, at one interval.
// Worst holds the most rows the busiest worker recomputes over every
// failure, at each worker count. The line also marks the least of them and
// where adding a worker stops lowering it.
type WorkerLine struct {
	Interval model.Interval
	Workers  []int
	Worst    []int64
	// Least indexes the least of Worst, the first on ties.
	Least int
	// Steps index the worker counts, after the first, at which Worst does
	// not fall from the count before.
	Steps []int
}

// NewWorkerLine returns the line of worst recoveries at interval k.
// The value worst[i] is the worst recovery at workers[i] workers, in
// increasing workers.
func NewWorkerLine(k model.Interval, workers []int, worst []int64) WorkerLine {
	l := WorkerLine{Interval: k, Workers: workers, Worst: worst}
	for i := 1; i < len(worst); i++ {
		if worst[i] < worst[l.Least] {
			l.Least = i
		}
		if worst[i] >= worst[i-1] {
			l.Steps = append(l.Steps, i)
		}
	}
	return l
}
