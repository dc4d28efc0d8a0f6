package experiment_test

import (
	"io"

	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// FuzzLoad checks that the plan of every valid experiment is written.
func init() {
	experiment.WritePlan = func(w io.Writer, e *experiment.Experiment, outDir string, formats []string) error {
		return runner.WritePlan(w, e, outDir, formats, runner.Limits{MaxPoints: 10_000_000, MaxMemoryMiB: 4096})
	}
}
