package runner_test

import (
	"context"
	"fmt"
	"log"

	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// Evaluate counts the experiment's sources and returns the result its
// tables are read from, row by row: here the lesson's grid points that
// grid.csv marks best, the interval of least expected total at each
// failure probability.
func ExampleEvaluate() {
	e := experiment.Lesson("lesson")
	res, err := runner.Evaluate(context.Background(), &e, runner.Options{})
	if err != nil {
		log.Fatal(err)
	}
	grid := res.GridTable()
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
