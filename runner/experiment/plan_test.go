package experiment_test

import (
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// FuzzLoad checks that the plan of every valid experiment is written.
func init() { experiment.WritePlan = runner.WritePlan }
