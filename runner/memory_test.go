package runner

import (
	"context"
	"math"
	"testing"

	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// TestMemoryBytes checks the estimate's shape: it grows with workers and
// periods, hardly with subscribers (the list of tasks), and covers the views
// and workbook only when asked. TestMemoryBoundHolds checks it is a bound.
func TestMemoryBytes(t *testing.T) {
	base := experiment.Lesson("m")
	size := func(change func(e *experiment.Experiment), views bool) int64 {
		e := base
		change(&e)
		formats := []string{"csv"}
		if views {
			formats = append(formats, "xlsx")
		}
		return MemoryBytes(&e, 2, formats)
	}
	same := func(*experiment.Experiment) {}
	lesson := size(same, false)
	if lesson <= 0 {
		t.Fatalf("MemoryBytes = %d, want > 0", lesson)
	}
	if got := size(func(e *experiment.Experiment) { e.Subscribers = []int{1_000_000} }, false); got < lesson || got > lesson+1<<10 {
		t.Errorf("a million subscribers: %d bytes, want within 1 KiB above %d as for 200", got, lesson)
	}
	// Subscribers per worker, in the source's tally, twice for the heap.
	few := size(func(e *experiment.Experiment) { e.Workers = []int{1_000_000} }, false)
	if got, want := size(func(e *experiment.Experiment) { e.Workers = []int{2_000_000} }, false), few+2*8*1_000_000; got < want {
		t.Errorf("2,000,000 workers: %d bytes, want at least %d, a million more than for %d", got, want, few)
	}
	// With faults, every worker can be touched: rows per period of each.
	clean := size(func(e *experiment.Experiment) { e.Workers, e.Subscribers = []int{1_000_000}, []int{1_000_000} }, false)
	if got, want := size(func(e *experiment.Experiment) {
		e.Workers, e.Subscribers, e.Missing = []int{1_000_000}, []int{1_000_000}, 1_000_000
	}, false), clean+2*8*12*1_000_000; got < want {
		t.Errorf("a million workers with faults: %d bytes, want at least %d", got, want)
	}
	if got := size(same, true); got <= lesson {
		t.Errorf("with views: %d bytes, want more than %d", got, lesson)
	}
}

func TestMiBBytesSaturates(t *testing.T) {
	for _, tt := range []struct{ mib, want int64 }{
		{0, 0}, {1, 1 << 20}, {4096, 4096 << 20}, {math.MaxInt64 >> 20, (math.MaxInt64 >> 20) << 20},
		{math.MaxInt64>>20 + 1, math.MaxInt64}, {math.MaxInt64, math.MaxInt64},
	} {
		if got := mibBytes(tt.mib); got != tt.want {
			t.Errorf("MiBBytes(%d) = %d, want %d", tt.mib, got, tt.want)
		}
	}
}

// TestWriterSizesCoverTheSet checks that the sizes plan gives the writers
// bound those of the set a run makes: the tables' rows and columns, and
// the views' cells and blocks, block by block.
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
			res, err := Evaluate(context.Background(), &e, Options{})
			if err != nil {
				t.Fatal(err)
			}
			set := res.Set([]string{results.FormatCSV, results.FormatXLSX})
			grids := e.Grids()
			sizes := make([][]experiment.Sizes, len(grids))
			for i := range grids {
				sizes[i] = e.PeriodSizes(&grids[i])
			}
			plan := writerSizes(&e, sizes)
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
