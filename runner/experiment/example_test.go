package experiment_test

import (
	"fmt"
	"log"

	"ckptlab/runner/experiment"
)

// Load reads an experiment file, applies the overrides (here --set
// workers=[2,4]) and returns the resolved experiment, every key checked.
func ExampleLoad() {
	o := experiment.Overrides{Sets: []string{"workers=[2, 4]"}}
	e, err := experiment.Load("../../experiments/lesson.yaml", o)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Name, e.Workers, e.Intervals, e.Origins["workers"])
	fmt.Println(e.GridRows(), "grid rows,", e.FailureRows(), "failures rows")
	// Output:
	// lesson [2 4] [none 6 4 3 2 1] --set
	// 48 grid rows, 132 failures rows
}

// A mistake in the file is an error naming the file, line, column and key.
func ExampleLoadBytes() {
	_, err := experiment.LoadBytes("x.yaml", []byte("name: x\nworkers: 0\n"), experiment.Overrides{})
	fmt.Println(err)
	// Output:
	// x.yaml:2:10: workers: 0 is not a worker count (want >= 1)
}
