package report_test

import (
	"context"
	"fmt"
	"log"

	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// Set turns an evaluated run into its tables, read row by row: here the
// lesson's grid points that grid.csv marks best, the interval of least
// expected total at each failure probability.
func ExampleSet() {
	ctx := context.Background()
	e := experiment.Lesson("lesson")
	res, err := runner.Evaluate(ctx, &e, runner.Options{})
	if err != nil {
		log.Fatal(err)
	}
	set, err := report.Set(ctx, res, []string{results.FormatCSV})
	if err != nil {
		log.Fatal(err)
	}
	grid := set.Grid
	col := map[string]int{}
	for i, name := range grid.Header() {
		col[name] = i
	}
	for row := range grid.Rows {
		if row[col["best"]].Bool {
			fmt.Printf("probability %v: interval %v, expected total %.1f\n",
				row[col["probability"]], row[col["interval"]], row[col["expected_total"]].Float)
		}
	}
	// Output:
	// probability 1: interval 4, expected total 927.3
	// probability 0.75: interval 6, expected total 809.1
	// probability 0.5: interval none, expected total 600.0
	// probability 0.25: interval none, expected total 300.0
}
