package workbook

import (
	"errors"

	"ckptlab/results"
)

// scaleGrid returns a table shaped like grid.csv of experiments/scale.yaml
// (a million subscribers, 120 periods, seven worker counts, probabilities
// 0..1 by 0.05, intervals none and 1..120), cycled up to n rows. The metric
// values are made up but behave like the real ones: every one but
// expected_total and best depends only on the workers and the interval, and
// averages have as many digits as sums divided by 119 failures have.
func scaleGrid(n int) results.Table {
	return results.Table{Name: "grid", Columns: GridColumns, Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for i := 0; i < n; {
			for _, workers := range []int{1, 2, 4, 8, 16, 32, 64} {
				for p := range 21 {
					prob := float64(p) * 0.05
					for k := range 121 {
						if i == n {
							return
						}
						i++
						row := scaleGridRow(workers, prob, k)
						cells = row.AppendValues(cells[:0])
						if !yield(cells) {
							return
						}
					}
				}
			}
		}
	}}
}

func scaleGridRow(workers int, prob float64, k int) GridRow {
	const periods, failures, stateRows, rowsPerPeriod = 120, 119, 200, 1_000_000
	checkpoints, interval := 0, "none"
	if k > 0 {
		checkpoints, interval = periods/k, intervalNames[k]
	}
	// A made-up recovery: the rows of the periods since the last point.
	sum := int64(rowsPerPeriod * (k*k + 7*k + 3) / 2)
	worst := int64(rowsPerPeriod * max(k, 1))
	certain := int64(checkpoints) * stateRows
	average := float64(sum) / failures
	return GridRow{
		Seed: 20260218, Subscribers: 1_000_000, Periods: periods,
		PartitionKey: "subscriber", Workers: workers, StateRows: stateRows,
		Probability: prob, Interval: interval,
		Rows: 119_000_000, Checkpoints: checkpoints, CertainCost: certain,
		Recomputed: worst / 2, Busiest: worst / 2 / int64(workers), ExactlyOnce: worst / 2,
		Worst: worst, WorstTotal: worst + certain,
		Average: average, AverageTotal: average + float64(certain),
		ExpectedTotal: prob*float64(sum)/failures + float64(certain),
		Best:          k == 7,
	}
}

var intervalNames = func() []string {
	out := make([]string, 121)
	for k := range out {
		out[k] = results.IntValue(int64(k)).String()
	}
	return out
}()

// errDiskFull is what a writer to a full disk returns.
var errDiskFull = errors.New("no space left on device")
