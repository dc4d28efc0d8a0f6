package runner

import "ckptlab/runner/experiment"

// scaleExperiment returns experiments/scale.yaml as the loader resolves it:
// a million subscribers over 120 periods, every interval, seven worker counts
// and probabilities 0, 0.05, ..., 1 (computed as from + i*step, as the
// loader computes ranges).
func scaleExperiment() *experiment.Experiment {
	e := experiment.Lesson("scale")
	e.Subscribers = []int{1_000_000}
	e.Periods = []int{120}
	e.Intervals, e.IntervalsAll = nil, true
	e.Workers = []int{1, 2, 4, 8, 16, 32, 64}
	e.Probabilities = nil
	for i := range 21 {
		e.Probabilities = append(e.Probabilities, 0+float64(i)*0.05)
	}
	return &e
}

// largeWorkbookYAML is the experiment file of the 2M-row workbook of
// bench/README.md, which report's BenchmarkLargeWorkbook writes.
const largeWorkbookYAML = "name: big\nstate_rows: {from: 0, to: 2000000, step: 25}\n"
