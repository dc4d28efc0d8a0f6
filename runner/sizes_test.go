package runner_test

import (
	"context"
	"testing"

	"ckptlab/model"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// TestWriterSizesCoverTheSet checks that the sizes plan gives the writers
// bound those of the set a run makes: the tables' rows and columns, and
// the views' cells and blocks, block by block, with the tables' columns
// as package report declares them.
func TestWriterSizesCoverTheSet(t *testing.T) {
	wide := experiment.Lesson("wide")
	wide.Periods, wide.IntervalsAll = []int{24}, true
	wide.Probabilities = []float64{0, 0.1, 0.2, 0.5, 0.9, 1}
	axes := experiment.Lesson("axes")
	axes.StateRows = []int{10, 200, 5000}
	axes.PartitionKeys = []model.PartitionKey{model.BySubscriber, model.ByRegion}
	axes.Workers = []int{2, 4, 16}
	axes.Missing, axes.Duplicates = 30, 30
	for _, e := range []experiment.Experiment{experiment.Lesson("lesson"), wide, axes} {
		t.Run(e.Name, func(t *testing.T) {
			res, err := runner.Evaluate(context.Background(), &e, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			set, err := report.Set(context.Background(), res, []string{results.FormatCSV, results.FormatXLSX})
			if err != nil {
				t.Fatal(err)
			}
			grids := e.Grids()
			sizes := make([][]experiment.Sizes, len(grids))
			for i := range grids {
				sizes[i] = e.PeriodSizes(&grids[i])
			}
			plan := runner.WriterSizes(&e, sizes)
			for _, tt := range []struct {
				table results.Table
				size  results.TableSize
			}{{set.Grid, plan.Grid}, {set.Failures, plan.Failures}, {set.Decisions, plan.Decisions}, {set.Breakeven, plan.Breakeven}} {
				var rows int64
				for range tt.table.Rows {
					rows++
				}
				texts := 0
				for _, c := range tt.table.Columns {
					if c.Kind == results.Text {
						texts++
					}
				}
				if rows > tt.size.Rows || len(tt.table.Columns) != tt.size.Columns || texts != tt.size.Texts {
					t.Errorf("%s: %d rows, %d columns, %d of text; plan counts %d, %d, %d",
						tt.table.Name, rows, len(tt.table.Columns), texts, tt.size.Rows, tt.size.Columns, tt.size.Texts)
				}
			}
			if len(set.Views) != len(plan.Views.Largest) {
				t.Fatalf("%d views, plan counts %d", len(set.Views), len(plan.Views.Largest))
			}
			var cells, blocks, most int64
			for i, v := range set.Views {
				var n, largest int64
				for b := range v.All() {
					var c int64
					for _, r := range b.Rows {
						c += int64(len(r))
					}
					n, largest, cells = n+1, max(largest, c), cells+c
				}
				blocks, most = blocks+n, max(most, n)
				if largest > plan.Views.Largest[i] {
					t.Errorf("%s: a block of %d cells, plan counts %d", v.Name, largest, plan.Views.Largest[i])
				}
			}
			if cells > plan.Views.Cells || blocks > plan.Views.Blocks || most > plan.Views.MostBlocks {
				t.Errorf("views of %d cells, %d blocks, %d in the largest; plan counts %d, %d, %d",
					cells, blocks, most, plan.Views.Cells, plan.Views.Blocks, plan.Views.MostBlocks)
			}
		})
	}
}
