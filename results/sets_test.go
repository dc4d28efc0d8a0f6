package results_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// lessonSet returns the set of the lesson's experiment.
func lessonSet(t testing.TB) results.Set {
	t.Helper()
	return evaluatedSet(t, experiment.Lesson("lesson"))
}

// evaluatedSet returns the set of an experiment.
func evaluatedSet(t testing.TB, e experiment.Experiment) results.Set {
	t.Helper()
	res, err := runner.Evaluate(context.Background(), &e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := report.Set(context.Background(), res, []string{results.FormatCSV, results.FormatXLSX, results.FormatMD})
	if err != nil {
		t.Fatal(err)
	}
	// the views' blocks held, for tests that index or change them
	for i, v := range set.Views {
		set.Views[i].Blocks, set.Views[i].Each = slices.Collect(v.All()), nil
	}
	return set
}

// syntheticGrid returns a grid table of n rows with the columns and kinds
// of grid.csv, made up from the row number: no model behind it, values of
// every kind and floats of many digits.
func syntheticGrid(n int) results.Table {
	intervals := []string{"none", "6", "4", "3", "2", "1"}
	return results.Table{Name: "grid", Columns: results.GridColumns, Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for i := range n {
			k := int64(i)
			row := results.GridRow{
				Seed: uint32(20260218 + i/600), Subscribers: 200 + i%7, Periods: 12,
				PartitionKey: "subscriber", Workers: 4, StateRows: 200,
				Probability: float64(i%101) / 100, Interval: intervals[i%6],
				Rows: 2200 + k%13, Checkpoints: i % 13, CertainCost: 200 * (k % 13),
				Recomputed: k % 1601, Busiest: k % 409, ExactlyOnce: k % 1601,
				Worst: k % 2201, WorstTotal: k%2201 + 200*(k%13),
				Average: float64(k%2201) / 11, AverageTotal: float64(k%2201)/11 + 200,
				ExpectedTotal: float64(i%101) / 100 * float64(k%2201) / 11,
				Best:          i%6 == 0,
			}
			cells = row.AppendValues(cells[:0])
			if !yield(cells) {
				return
			}
		}
	}}
}

// syntheticFailures returns a failures table of n rows, made up like
// syntheticGrid.
func syntheticFailures(n int) results.Table {
	return results.Table{Name: "failures", Columns: results.FailureColumns, Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for i := range n {
			k := int64(i)
			row := results.FailureRow{
				Seed: 20260218, Subscribers: 200, Periods: 12, PartitionKey: "region", Workers: 4,
				Interval: fmt.Sprint(1 + i%12), FailurePeriod: fmt.Sprintf("2026-%02d", 2+i%11),
				Checkpoints: 12 / (1 + i%12), Recomputed: 200 * (k % 9), Busiest: 51 * (k % 9), ExactlyOnce: 200 * (k % 9),
			}
			cells = row.AppendValues(cells[:0])
			if !yield(cells) {
				return
			}
		}
	}}
}

// syntheticSet returns a set with synthetic tables of the given lengths
// and the lesson's views and configuration.
func syntheticSet(t testing.TB, gridRows, failureRows int) results.Set {
	s := lessonSet(t)
	s.Name = "synthetic"
	s.Grid = syntheticGrid(gridRows)
	s.Failures = syntheticFailures(failureRows)
	return s
}

// TestFixtureColumnsAreTheTables holds the columns the writers' tests make
// tables of to those of the tables a run writes.
func TestFixtureColumnsAreTheTables(t *testing.T) {
	set := lessonSet(t)
	for _, tt := range []struct {
		table   results.Table
		fixture []results.Column
	}{
		{set.Grid, results.GridColumns},
		{set.Failures, results.FailureColumns},
		{set.Decisions, results.DecisionColumns},
		{set.Breakeven, results.BreakevenColumns},
	} {
		if !slices.Equal(tt.table.Columns, tt.fixture) {
			t.Errorf("%s: a run's columns are\n%v\nthe tests' are\n%v", tt.table.Name, tt.table.Columns, tt.fixture)
		}
	}
}
