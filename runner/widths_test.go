package runner_test

import (
	"context"
	"testing"

	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// TestWidthsAreTheColumns checks that the memory bound counts each table's
// columns as package report declares them.
func TestWidthsAreTheColumns(t *testing.T) {
	ctx := context.Background()
	e := experiment.Lesson("lesson")
	res, err := runner.Evaluate(ctx, &e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := report.Set(ctx, res, []string{results.FormatCSV})
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range []results.Table{set.Grid, set.Failures, set.Decisions, set.Breakeven} {
		if got, want := runner.Widths[tab.Name], len(tab.Columns); got != want {
			t.Errorf("%s: the memory bound counts %d columns, the table has %d", tab.Name, got, want)
		}
	}
}
