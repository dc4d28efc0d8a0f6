package report

import (
	"context"

	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// evaluateRun evaluates e and returns its presentation.
func evaluateRun(ctx context.Context, e *experiment.Experiment, opt runner.Options) (*result, error) {
	res, err := runner.Evaluate(ctx, e, opt)
	if err != nil {
		return nil, err
	}
	return newResult(res), nil
}
